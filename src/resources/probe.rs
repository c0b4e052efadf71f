//! One look at tmux for every watched URI: a fingerprint per target. A fingerprint
//! changes when what the URI reads changes: for the hierarchy, a session, window or
//! pane coming or going (or moving, or its active flag); for a pane's content, its
//! screen, cursor, history size or mode. Names and titles are left out: they are free
//! text, which tmux would have to filter on every probe (see `tmux::format`).
//!
//! One round trip (`list-panes -a` of ids, geometry, cursor, history size and window
//! activity) serves an idle server. A watched pane's screen is captured (a second
//! round trip) only while its window has written in the last
//! [`SCREEN_RECENT_ACTIVITY_SECONDS`] (tmux's `window_activity`, whole seconds) or
//! before its screen is known: a write that moves neither the cursor nor the history
//! (a progress line redrawn after `\r`) still shows, and idle panes cost no capture.
//!
//! A watched job's pane options (where its record lives) are read in one more round
//! trip for all watched jobs' panes: the fingerprint follows the job's progress
//! (`tools::run::progress`: started by its shell, its sealed exit), and is [`GONE`]
//! once the pane or the record is.

use crate::limits::SCREEN_RECENT_ACTIVITY_SECONDS;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::guard::ReadGate;
use crate::resources::uri::Target;
use crate::resources::Servers;
use crate::runtime::error::ToolError;
use crate::tmux::format::{parse_records, record_format, Record};
use crate::tmux::{PaneId, ReadCommand, ReadVerb};
use crate::tools::run::{progress, progress_read};

/// The variables each probe reads for every pane. No free text: see the module note.
const FIELDS: [&str; 20] = [
    "session_id",
    "window_id",
    "window_index",
    "window_active",
    "pane_id",
    "pane_index",
    "pane_active",
    "pane_left",
    "pane_top",
    "pane_width",
    "pane_height",
    "pane_pid",
    "pane_dead",
    "pane_in_mode",
    "alternate_on",
    "history_size",
    "cursor_x",
    "cursor_y",
    "window_activity",
    "pane_tty",
];

/// The last screen seen of each watched pane, as a hash; kept between probes.
pub type Screens = HashMap<PaneId, u64>;

/// The options of the panes of watched jobs, this probe's (absent: not read).
type JobPanes = HashMap<PaneId, String>;

/// A target's state in one number; [`GONE`] when it names nothing.
pub type Fingerprint = u64;
pub const GONE: Fingerprint = 0;

/// Fingerprints of `targets`; `screens` holds the screens last captured and is
/// updated. `None` for a pane's content whose screen is unknown and could not be read
/// this time (keep the last fingerprint).
///
/// # Errors
/// tmux cannot answer the listing.
pub async fn fingerprints(
    gate: &ReadGate<'_>,
    servers: &Servers,
    targets: &[Target],
    screens: &mut Screens,
) -> Result<HashMap<Target, Option<Fingerprint>>, ToolError> {
    let listing = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-a")
        .arg("-F")
        .arg(record_format(&FIELDS));
    let output = gate.run(listing).await?;
    let text = String::from_utf8_lossy(&output);
    let records = parse_records("list-panes", &FIELDS, &text)?;
    let watched: Vec<PaneId> = targets
        .iter()
        .filter_map(|t| match t {
            Target::PaneContent(pane) => Some(*pane),
            _ => None,
        })
        .collect();
    screens.retain(|pane, _| watched.contains(pane));
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let mut to_capture: Vec<PaneId> = watched
        .iter()
        .copied()
        .filter(|pane| {
            let id = pane.to_string();
            let record = records.iter().find(|r| text_of(r, "pane_id") == id);
            let recent = record
                .and_then(|r| r.int("window_activity").ok())
                .and_then(|activity| u64::try_from(activity).ok())
                .is_some_and(|activity| activity.saturating_add(SCREEN_RECENT_ACTIVITY_SECONDS) >= now);
            record.is_some() && (recent || !screens.contains_key(pane))
        })
        .collect();
    to_capture.sort_unstable();
    to_capture.dedup();
    if !to_capture.is_empty() {
        let commands: Vec<ReadCommand> = to_capture.iter().map(|pane| capture_screen(*pane)).collect();
        // A pane that has just gone fails the whole round trip: its screen stays as it
        // was, and the next listing says it is gone.
        match gate.run_all(&commands).await {
            Ok(outputs) if outputs.len() == to_capture.len() => {
                for (pane, screen) in to_capture.iter().zip(outputs) {
                    let mut hasher = DefaultHasher::new();
                    screen.hash(&mut hasher);
                    screens.insert(*pane, hasher.finish());
                }
            }
            Ok(_) | Err(_) => tracing::debug!("a watched pane's screen could not be read; kept the last one"),
        }
    }
    let jobs = job_panes(gate, targets, &records).await;
    let waits = input_states(gate, targets, &records);
    // The attention list is its own look (the kernel's answers and what paneward
    // remembers), made only while someone watches it.
    let attention = if targets.contains(&Target::Attention) {
        Some(super::attention::look(servers).await?.1)
    } else {
        None
    };
    Ok(targets
        .iter()
        .map(|target| match target {
            Target::Attention => (*target, attention),
            Target::Pane(pane) => {
                let print = fingerprint(*target, &records, screens, &jobs);
                let wait = waits.get(pane);
                (*target, print.map(|p| with_wait(p, wait)))
            }
            _ => (*target, fingerprint(*target, &records, screens, &jobs)),
        })
        .collect())
}

/// The options of every listed pane that holds a watched job, in one round trip. A
/// pane that has just gone fails it: nothing is read, and the next listing says so.
async fn job_panes(gate: &ReadGate<'_>, targets: &[Target], records: &[Record<'_>]) -> JobPanes {
    let mut panes: Vec<PaneId> = targets
        .iter()
        .filter_map(|t| match t {
            Target::Job(job) => Some(job.pane),
            _ => None,
        })
        .filter(|pane| {
            let id = pane.to_string();
            records.iter().any(|r| text_of(r, "pane_id") == id)
        })
        .collect();
    panes.sort_unstable();
    panes.dedup();
    if panes.is_empty() {
        return JobPanes::new();
    }
    let commands: Vec<ReadCommand> = panes.iter().map(|pane| progress_read(*pane)).collect();
    match gate.run_all(&commands).await {
        Ok(outputs) if outputs.len() == panes.len() => panes
            .into_iter()
            .zip(outputs)
            .map(|(pane, options)| (pane, String::from_utf8_lossy(&options).into_owned()))
            .collect(),
        Ok(_) | Err(_) => {
            tracing::debug!("a watched job's pane options could not be read; kept the last look");
            JobPanes::new()
        }
    }
}

/// Whether each watched pane (`tmux://panes/{pane}`) waits for input, the kernel's
/// answer (a few `/proc` files each, no tmux round trip): its resource says so.
fn input_states(gate: &ReadGate<'_>, targets: &[Target], records: &[Record<'_>]) -> HashMap<PaneId, String> {
    let watched: Vec<(PaneId, u32, &str)> = targets
        .iter()
        .filter_map(|t| match t {
            Target::Pane(pane) => {
                let id = pane.to_string();
                let record = records.iter().find(|r| text_of(r, "pane_id") == id)?;
                let pid = record.count("pane_pid").ok().and_then(|p| u32::try_from(p).ok())?;
                let dead = record.flag("pane_dead").unwrap_or(true);
                Some((*pane, pid, if dead { "" } else { text_of(record, "pane_tty") }))
            }
            _ => None,
        })
        .collect();
    if watched.is_empty() {
        return HashMap::new();
    }
    let processes: Vec<(u32, &str)> = watched.iter().map(|(_, pid, tty)| (*pid, *tty)).collect();
    let waits = crate::guard::terminal::input_waits(gate, &processes);
    watched
        .iter()
        .zip(waits)
        .map(|((pane, _, _), wait)| {
            (
                *pane,
                format!("{:?}", crate::tools::observe::activity::input_fields(&wait)),
            )
        })
        .collect()
}

/// `print` with the pane's input state folded in; never [`GONE`].
fn with_wait(print: Fingerprint, wait: Option<&String>) -> Fingerprint {
    if print == GONE {
        return GONE;
    }
    let mut hasher = DefaultHasher::new();
    print.hash(&mut hasher);
    wait.hash(&mut hasher);
    hasher.finish().max(1)
}

fn capture_screen(pane: PaneId) -> ReadCommand {
    ReadCommand::new(ReadVerb::CapturePane)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
}

fn text_of<'a>(record: &Record<'a>, name: &str) -> &'a str {
    record.text(name).unwrap_or_default()
}

/// The fingerprint of one target from the listing (and, for content, its screen; for
/// a job, its pane's options).
fn fingerprint(target: Target, records: &[Record<'_>], screens: &Screens, jobs: &JobPanes) -> Option<Fingerprint> {
    let mut hasher = DefaultHasher::new();
    let mut found = false;
    // Only the fields that say what the target's reading would show.
    let (scope, fields): (Option<(&str, String)>, &[&str]) = match target {
        Target::Sessions => (None, &["session_id", "window_id", "pane_id"]),
        Target::Session(id) | Target::SessionWindows(id) => (
            Some(("session_id", id.to_string())),
            &["window_id", "window_index", "window_active", "pane_id"],
        ),
        Target::Window(id) | Target::WindowPanes(id) => (
            Some(("window_id", id.to_string())),
            &[
                "pane_id",
                "pane_index",
                "pane_active",
                "pane_left",
                "pane_top",
                "pane_width",
                "pane_height",
                "pane_dead",
                "pane_in_mode",
            ],
        ),
        Target::Pane(id) => (
            Some(("pane_id", id.to_string())),
            &[
                "window_id",
                "pane_index",
                "pane_active",
                "pane_left",
                "pane_top",
                "pane_width",
                "pane_height",
                "pane_pid",
                "pane_dead",
                "pane_in_mode",
                "alternate_on",
                "history_size",
                "cursor_x",
                "cursor_y",
            ],
        ),
        // The pane's listing says only whether it is there; the options say the rest.
        Target::Job(job) => (Some(("pane_id", job.pane.to_string())), &[]),
        // Made by `super::attention::look`, never from the listing alone.
        Target::Attention => return None,
        Target::PaneContent(id) => (
            Some(("pane_id", id.to_string())),
            &[
                "pane_width",
                "pane_height",
                "pane_pid",
                "pane_dead",
                "pane_in_mode",
                "alternate_on",
                "history_size",
                "cursor_x",
                "cursor_y",
            ],
        ),
    };
    let selected = |r: &&Record<'_>| scope.as_ref().is_none_or(|(key, id)| text_of(r, key) == id);
    for record in records.iter().filter(selected) {
        found = true;
        for field in fields {
            text_of(record, field).hash(&mut hasher);
        }
    }
    if !found {
        return Some(GONE);
    }
    if let Target::PaneContent(pane) = target {
        screens.get(&pane)?.hash(&mut hasher);
    }
    if let Target::Job(job) = target {
        let Some(step) = progress(jobs.get(&job.pane)?, &job.random_hex()) else {
            return Some(GONE);
        };
        step.hash(&mut hasher);
    }
    // Never GONE for something that exists.
    Some(hasher.finish().max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tmux::format::{FIELD_SEP, RECORD_END};
    use crate::tmux::{SessionId, WindowId};

    fn listing(rows: &[[&str; 3]]) -> String {
        // session, window, pane; the other fields fixed.
        rows.iter()
            .map(|[s, w, p]| {
                let values = [
                    *s, *w, "0", "1", *p, "0", "1", "0", "0", "80", "24", "100", "0", "0", "0", "5", "2", "3", "0", "",
                ];
                format!("{}{RECORD_END}", values.join(&FIELD_SEP.to_string()))
            })
            .collect()
    }

    fn prints(text: &str, target: Target) -> Fingerprint {
        let records = parse_records("list-panes", &FIELDS, text).unwrap();
        fingerprint(target, &records, &HashMap::new(), &JobPanes::new()).unwrap()
    }

    #[test]
    fn a_new_pane_changes_its_window_and_the_sessions_but_not_another_window() {
        let before = listing(&[["$0", "@0", "%0"], ["$0", "@1", "%1"]]);
        let after = listing(&[["$0", "@0", "%0"], ["$0", "@1", "%1"], ["$0", "@1", "%2"]]);
        for target in [
            Target::Sessions,
            Target::Session(SessionId(0)),
            Target::WindowPanes(WindowId(1)),
        ] {
            assert_ne!(prints(&before, target), prints(&after, target), "{target:?}");
        }
        for target in [Target::Window(WindowId(0)), Target::Pane(PaneId(0))] {
            assert_eq!(prints(&before, target), prints(&after, target), "{target:?}");
        }
        assert_eq!(prints(&before, Target::Pane(PaneId(2))), GONE);
        assert_ne!(prints(&after, Target::Pane(PaneId(2))), GONE);
    }

    #[test]
    fn a_job_print_follows_its_record_and_is_gone_with_its_pane_or_record() {
        let (job, seal) = crate::tools::run::JobId::new(PaneId(0)).unwrap();
        let target = Target::Job(crate::resources::uri::JobRef {
            pane: PaneId(0),
            random: u128::from_str_radix(&job.random, 16).unwrap(),
        });
        let x = &job.random;
        let look = |options: &str| {
            let text = listing(&[["$0", "@0", "%0"]]);
            let records = parse_records("list-panes", &FIELDS, &text).unwrap();
            let jobs: JobPanes = [(PaneId(0), options.to_string())].into();
            fingerprint(target, &records, &Screens::new(), &jobs)
        };
        let typed = look(&format!("@paneward_job_{x} 1700000000000\n"));
        let fetched = look(&format!("@paneward_job_{x} 1700000000000\n@paneward_run_{x} 1\n"));
        let forged = look(&format!(
            "@paneward_job_{x} 1700000000000\n@paneward_run_{x} 1\n@paneward_exit_{x} \"0 1700000001 {x}\"\n"
        ));
        let ended = look(&format!(
            "@paneward_job_{x} 1700000000000\n@paneward_run_{x} 1\n@paneward_exit_{x} \"3 1700000001 {seal}\"\n"
        ));
        assert!(typed.is_some_and(|p| p != GONE));
        assert_ne!(typed, fetched);
        assert_eq!(fetched, forged, "an exit the command wrote itself is no end");
        assert_ne!(fetched, ended);
        assert_eq!(look("@other 1\n"), Some(GONE), "the record went");
        let no_pane = listing(&[["$0", "@0", "%1"]]);
        let records = parse_records("list-panes", &FIELDS, &no_pane).unwrap();
        assert_eq!(
            fingerprint(target, &records, &Screens::new(), &JobPanes::new()),
            Some(GONE)
        );
        // The pane is listed but its options were not read: unknown, not a change.
        let listed = listing(&[["$0", "@0", "%0"]]);
        let records = parse_records("list-panes", &FIELDS, &listed).unwrap();
        assert_eq!(fingerprint(target, &records, &Screens::new(), &JobPanes::new()), None);
    }

    #[test]
    fn a_pane_content_print_follows_its_screen() {
        let text = listing(&[["$0", "@0", "%0"]]);
        let records = parse_records("list-panes", &FIELDS, &text).unwrap();
        let target = Target::PaneContent(PaneId(0));
        let one: Screens = [(PaneId(0), 1)].into();
        let two: Screens = [(PaneId(0), 2)].into();
        assert_ne!(
            fingerprint(target, &records, &one, &JobPanes::new()),
            fingerprint(target, &records, &two, &JobPanes::new())
        );
        // Never read: unknown, not a change.
        assert_eq!(fingerprint(target, &records, &Screens::new(), &JobPanes::new()), None);
    }
}
