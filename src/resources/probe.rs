//! One look at tmux for every watched URI: a fingerprint per target, from one round
//! trip (`list-panes -a` of ids, geometry, cursor and history size, and a plain
//! `capture-pane -p` of each watched pane's screen). A fingerprint changes when what
//! the URI reads changes: for the hierarchy, a session, window or pane coming or going
//! (or moving, or its active flag); for a pane's content, its screen, cursor, history
//! size or mode. Names and titles are left out: they are free text, which tmux would
//! have to filter on every probe (see `tmux::format`).

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::call::error::ToolError;
use crate::guard::ReadGate;
use crate::resources::uri::Target;
use crate::tmux::format::{parse_records, record_format, Record};
use crate::tmux::{PaneId, ReadCommand, ReadVerb};

/// The variables each probe reads for every pane. No free text: see the module note.
const FIELDS: [&str; 18] = [
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
];

/// A target's state in one number; [`GONE`] when it names nothing.
pub type Fingerprint = u64;
pub const GONE: Fingerprint = 0;

/// Fingerprints of `targets`, read in one round trip; `None` for a pane's content
/// whose screen could not be read this time (keep the last one).
///
/// # Errors
/// tmux cannot answer even the listing.
pub async fn fingerprints(
    gate: &ReadGate<'_>,
    targets: &[Target],
) -> Result<HashMap<Target, Option<Fingerprint>>, ToolError> {
    let listing = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-a")
        .arg("-F")
        .arg(record_format(&FIELDS));
    let mut screens: Vec<PaneId> = targets
        .iter()
        .filter_map(|t| match t {
            Target::PaneContent(pane) => Some(*pane),
            _ => None,
        })
        .collect();
    screens.sort_unstable();
    screens.dedup();
    let mut commands = vec![listing.clone()];
    commands.extend(screens.iter().map(|pane| capture_screen(*pane)));
    // A capture of a pane that has just gone fails the whole round trip: then the
    // listing alone says which are gone, and the others keep their screens unread.
    let (listing_output, captured) = match gate.run_all(&commands).await {
        Ok(mut outputs) if outputs.len() == commands.len() => {
            let listing = outputs.remove(0);
            (listing, screens.iter().copied().zip(outputs).collect::<HashMap<_, _>>())
        }
        _ => (gate.run(listing).await?, HashMap::new()),
    };
    let text = String::from_utf8_lossy(&listing_output);
    let records = parse_records("list-panes", &FIELDS, &text)?;
    Ok(targets
        .iter()
        .map(|target| (*target, fingerprint(*target, &records, &captured)))
        .collect())
}

fn capture_screen(pane: PaneId) -> ReadCommand {
    ReadCommand::new(ReadVerb::CapturePane)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
}

fn text<'a>(record: &Record<'a>, name: &str) -> &'a str {
    record.text(name).unwrap_or_default()
}

/// The fingerprint of one target from the listing (and, for content, its screen).
fn fingerprint(target: Target, records: &[Record<'_>], captured: &HashMap<PaneId, Vec<u8>>) -> Option<Fingerprint> {
    let mut hasher = DefaultHasher::new();
    let mut found = false;
    // Only the fields that say what the target's reading would show.
    let (selected, fields): (Box<dyn Fn(&Record<'_>) -> bool>, &[&str]) = match target {
        Target::Sessions => (Box::new(|_| true), &["session_id", "window_id", "pane_id"]),
        Target::Session(id) | Target::SessionWindows(id) => {
            let id = id.to_string();
            (
                Box::new(move |r| text(r, "session_id") == id),
                &["window_id", "window_index", "window_active", "pane_id"],
            )
        }
        Target::Window(id) | Target::WindowPanes(id) => {
            let id = id.to_string();
            (
                Box::new(move |r| text(r, "window_id") == id),
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
            )
        }
        Target::Pane(id) => {
            let id = id.to_string();
            (
                Box::new(move |r| text(r, "pane_id") == id),
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
            )
        }
        Target::PaneContent(id) => {
            let id = id.to_string();
            (
                Box::new(move |r| text(r, "pane_id") == id),
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
            )
        }
    };
    for record in records.iter().filter(|r| selected(r)) {
        found = true;
        for field in fields {
            text(record, field).hash(&mut hasher);
        }
    }
    if !found {
        return Some(GONE);
    }
    if let Target::PaneContent(pane) = target {
        captured.get(&pane)?.hash(&mut hasher);
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
                    *s, *w, "0", "1", *p, "0", "1", "0", "0", "80", "24", "100", "0", "0", "0", "5", "2", "3",
                ];
                format!("{}{RECORD_END}", values.join(&FIELD_SEP.to_string()))
            })
            .collect()
    }

    fn prints(text: &str, target: Target) -> Fingerprint {
        let records = parse_records("list-panes", &FIELDS, text).unwrap();
        fingerprint(target, &records, &HashMap::new()).unwrap()
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
    fn a_pane_content_print_follows_its_screen() {
        let text = listing(&[["$0", "@0", "%0"]]);
        let records = parse_records("list-panes", &FIELDS, &text).unwrap();
        let target = Target::PaneContent(PaneId(0));
        let one: HashMap<PaneId, Vec<u8>> = [(PaneId(0), b"a".to_vec())].into();
        let two: HashMap<PaneId, Vec<u8>> = [(PaneId(0), b"b".to_vec())].into();
        assert_ne!(
            fingerprint(target, &records, &one),
            fingerprint(target, &records, &two)
        );
        // Unread this time: not a change.
        assert_eq!(fingerprint(target, &records, &HashMap::new()), None);
    }
}
