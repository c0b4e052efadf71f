//! `wait_for_text`: wait until one of several panes writes matching rows.
//!
//! It polls, over paneward's one connection to tmux (the control client where it is
//! attached, else the native client): every [`WAIT_POLL_INTERVAL`] one small round trip
//! probes each watched pane's state (`PROBE`); a pane whose state moved, or that was
//! not read for [`WAIT_FULL_READ_INTERVAL`] (a row rewritten in place moves nothing),
//! is then read in full: its newest rows (a few history rows and the screen).
//! No client is attached for a wait, so nothing shows in `list-clients` and no hook
//! fires; tmux renders the rows, so escape sequences never reach the patterns. Which
//! rows are new is decided by `watch.rs`; patterns are matched in paneward and never
//! reach tmux.

use std::time::{Duration, Instant};

use crate::generated::types::{WaitForTextInput, WaitForTextOutput, WaitForTextOutputOutcome as Outcome};
use crate::guard::ReadGate;
use crate::limits::{
    WAIT_DEFAULT_TIMEOUT, WAIT_FULL_READ_INTERVAL, WAIT_MAX_PANES, WAIT_POLL_INTERVAL, WAIT_REPLY_MAX_ROWS,
};
use crate::runtime::error::ToolError;
use crate::tmux::{PaneId, ReadCommand, ReadVerb, TmuxError};
use crate::tools::args;
use crate::tools::budget::{refuse_in_batch, Budget, Progress};
use crate::tools::observe::pane_state::{describe_pane, pane_record};
use crate::tools::observe::search::Matcher;
use crate::tools::observe::since::{read, saved_screen, scan, Reading, FIELDS};
use crate::tools::wait::echo::shown_lines;
use crate::tools::wait::watch::{reply_row, Seen, Watch};

/// The patterns of one call, each with its text for the reply.
struct Patterns {
    stop: Vec<(String, Matcher)>,
    wanted: Vec<(String, Matcher)>,
}

/// The first pattern (stop markers first) that matches any of `rows`, and the rows
/// it matches.
fn first_match<'a>(patterns: &'a Patterns, rows: &[String]) -> Option<(Outcome, &'a str, Vec<String>)> {
    let sets = [(Outcome::Stopped, &patterns.stop), (Outcome::Matched, &patterns.wanted)];
    sets.into_iter().find_map(|(outcome, set)| {
        set.iter().find_map(|(text, matcher)| {
            let hits: Vec<String> = rows
                .iter()
                .filter(|row| matcher.is_match(row))
                .map(|r| reply_row(r))
                .collect();
            (!hits.is_empty()).then(|| (outcome, text.as_str(), newest(hits)))
        })
    })
}

fn newest(mut rows: Vec<String>) -> Vec<String> {
    let cut = rows.len().saturating_sub(WAIT_REPLY_MAX_ROWS);
    rows.drain(..cut);
    rows
}

fn compile(
    field: &str,
    texts: &[impl AsRef<str>],
    regex: bool,
    match_case: bool,
) -> Result<Vec<(String, Matcher)>, ToolError> {
    texts
        .iter()
        .enumerate()
        .map(|(index, text)| {
            let text = text.as_ref();
            Matcher::with_case(&format!("{field}/{index}"), text, regex, match_case).map(|m| (text.to_string(), m))
        })
        .collect()
}

fn pane_ids(texts: &[impl AsRef<str>]) -> Result<Vec<PaneId>, ToolError> {
    let mut panes = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let pane = args::pane_id(&format!("/pane_ids/{index}"), text.as_ref())?;
        if panes.contains(&pane) {
            return Err(ToolError::invalid_argument(
                &format!("/pane_ids/{index}"),
                format!("{pane} is listed twice"),
            ));
        }
        panes.push(pane);
    }
    if panes.len() > WAIT_MAX_PANES {
        return Err(ToolError::invalid_argument(
            "/pane_ids",
            format!("at most {WAIT_MAX_PANES} panes"),
        ));
    }
    Ok(panes)
}

/// The three reads of one pane: its rows, the screen a full-screen program will
/// return to, and its state.
fn pane_reads(pane: PaneId, scan_rows: u64) -> [ReadCommand; 3] {
    [scan(pane, scan_rows), saved_screen(pane), describe_pane(pane, &FIELDS)]
}

/// What a cheap probe of a pane reads each tick: a full read follows only when one of
/// these moved (output scrolls, moves the cursor or marks the window active).
const PROBE: [&str; 8] = [
    "pane_id",
    "pane_dead",
    "pane_pid",
    "alternate_on",
    "history_size",
    "cursor_x",
    "cursor_y",
    "window_activity",
];

/// Each watched pane's probe, in one round trip; `Err(pane)` when a pane has gone.
async fn probe_all(gate: &ReadGate<'_>, watches: &[Watch]) -> Result<Result<Vec<String>, PaneId>, ToolError> {
    let commands: Vec<ReadCommand> = watches.iter().map(|w| describe_pane(w.pane, &PROBE)).collect();
    let outputs = gate.run_all(&commands).await?;
    let mut probes = Vec::with_capacity(outputs.len());
    for (watch, output) in watches.iter().zip(outputs) {
        let text = String::from_utf8_lossy(&output).into_owned();
        // display-message describes no pane (empty values) for a missing target.
        if pane_record(watch.pane, &PROBE, &text).is_err() {
            return Ok(Err(watch.pane));
        }
        probes.push(text);
    }
    Ok(Ok(probes))
}

/// Which of `panes` no longer exists, if any.
async fn gone_pane(gate: &ReadGate<'_>, panes: &[PaneId]) -> Result<Option<PaneId>, ToolError> {
    let output = gate
        .run(
            ReadCommand::new(ReadVerb::ListPanes)
                .arg("-a")
                .arg("-F")
                .arg("#{pane_id}"),
        )
        .await?;
    let listed = String::from_utf8_lossy(&output);
    let listed: Vec<&str> = listed.lines().collect();
    Ok(panes
        .iter()
        .copied()
        .find(|pane| !listed.contains(&pane.to_string().as_str())))
}

/// One reading of every watched pane, in one round trip; `Err(Some(pane))` when a pane
/// has gone.
async fn read_all(gate: &ReadGate<'_>, watches: &[(PaneId, u64)]) -> Result<Result<Vec<Reading>, PaneId>, ToolError> {
    let commands: Vec<ReadCommand> = watches
        .iter()
        .flat_map(|&(pane, scan_rows)| pane_reads(pane, scan_rows))
        .collect();
    let outputs = match gate.run_all(&commands).await {
        Ok(outputs) => outputs,
        Err(TmuxError::ObjectGone { message }) => {
            let panes: Vec<PaneId> = watches.iter().map(|(pane, _)| *pane).collect();
            return match gone_pane(gate, &panes).await? {
                Some(pane) => Ok(Err(pane)),
                None => Err(TmuxError::ObjectGone { message }.into()),
            };
        }
        Err(error) => return Err(error.into()),
    };
    let mut readings = Vec::with_capacity(watches.len());
    for (&(pane, scan_rows), outputs) in watches.iter().zip(outputs.chunks(3)) {
        let [scanned, saved, state] = outputs else {
            return Err(ToolError::internal("a pane read did not return three outputs"));
        };
        readings.push(read(pane, scan_rows, scanned, saved, state)?);
    }
    Ok(Ok(readings))
}

/// The reply under construction: what every outcome shares.
struct Reply {
    budget: Budget,
    already_on_screen: bool,
    saw_new_output: bool,
}

impl Reply {
    fn finish(
        &self,
        outcome: Outcome,
        pane: Option<PaneId>,
        pattern: Option<&str>,
        lines: Vec<String>,
    ) -> WaitForTextOutput {
        WaitForTextOutput {
            outcome,
            pane_id: pane.map(|p| p.to_string()),
            pattern: pattern.map(str::to_string),
            lines,
            already_on_screen: self.already_on_screen,
            saw_new_output: self.saw_new_output,
            elapsed_seconds: Budget::seconds(self.budget.elapsed()),
            timeout_seconds: Budget::seconds(self.budget.timeout),
            timeout_clamped: self.budget.clamped,
        }
    }
}

/// `wait_for_text`: see `schemas/tools/wait_for_text.json`.
///
/// # Errors
/// Bad arguments (named by pointer), a batch row, a pane missing at the start, or
/// tmux failing.
pub async fn wait_for_text(gate: &ReadGate<'_>, input: WaitForTextInput) -> Result<WaitForTextOutput, ToolError> {
    wait_for_text_cased(gate, input, true).await
}

/// [`wait_for_text`], its patterns matched ignoring case unless `match_case` (the
/// default tool always matches case; `--profile python` asks).
///
/// # Errors
/// As [`wait_for_text`].
pub async fn wait_for_text_cased(
    gate: &ReadGate<'_>,
    input: WaitForTextInput,
    match_case: bool,
) -> Result<WaitForTextOutput, ToolError> {
    let WaitForTextInput {
        pane_ids: pane_texts,
        patterns,
        stop,
        regex,
        idle_seconds,
        since_entry,
        timeout_seconds,
        include_own_input,
    } = input;
    let budget = Budget::new(
        "/timeout_seconds",
        timeout_seconds,
        WAIT_DEFAULT_TIMEOUT,
        gate.state().settings.max_wait,
    )?;
    let panes = pane_ids(&pane_texts.into_iter().map(String::from).collect::<Vec<_>>())?;
    let regex = regex.unwrap_or(false);
    let patterns = Patterns {
        stop: compile(
            "/stop",
            &stop.into_iter().map(String::from).collect::<Vec<_>>(),
            regex,
            match_case,
        )?,
        wanted: compile(
            "/patterns",
            &patterns.into_iter().map(String::from).collect::<Vec<_>>(),
            regex,
            match_case,
        )?,
    };
    let idle = idle_seconds.map(Duration::from_secs_f64);
    let since_entry = since_entry.unwrap_or(true);
    // What paneward typed into a pane lately whose echo showed; that echo is not the
    // pane's output. Read after each reading (see `echo::shown_lines`).
    let include_own_input = include_own_input.unwrap_or(false);
    let own_input = |pane: PaneId| async move {
        if include_own_input {
            Vec::new()
        } else {
            shown_lines(gate, pane).await
        }
    };
    refuse_in_batch(gate.context(), "wait_for_text")?;

    let mut reply = Reply {
        budget,
        already_on_screen: false,
        saw_new_output: false,
    };
    let first: Vec<(PaneId, u64)> = panes
        .iter()
        .map(|&pane| (pane, crate::tools::wait::watch::QUIET_SCAN_ROWS))
        .collect();
    let entry_at = Instant::now();
    let entry = match read_all(gate, &first).await? {
        Ok(readings) => readings,
        Err(pane) => {
            return Err(TmuxError::ObjectGone {
                message: format!("can't find pane: {pane}"),
            }
            .into())
        }
    };
    let mut watches = Vec::with_capacity(panes.len());
    for (&pane, reading) in panes.iter().zip(&entry) {
        if reading.dead {
            return Ok(reply.finish(Outcome::PaneDied, Some(pane), None, Vec::new()));
        }
        if reading.alternate {
            return Ok(reply.finish(Outcome::AlternateScreen, Some(pane), None, Vec::new()));
        }
        let mut watch = Watch::start(pane, reading);
        // The echoes already on screen are counted here, so the same text printed
        // later is output.
        let typed = own_input(pane).await;
        let shown = watch.echoes.drop_from(&typed, reading.visible.clone());
        watch.echoes.spend_shown_before(&typed, entry_at);
        if let Some((outcome, pattern, lines)) = first_match(&patterns, &shown) {
            reply.already_on_screen |= outcome == Outcome::Matched;
            if !since_entry {
                return Ok(reply.finish(outcome, Some(pane), Some(pattern), lines));
            }
        }
        watches.push(watch);
    }

    let mut progress = Progress::new(gate.context());
    let what = match panes.as_slice() {
        [one] => format!("pane {one}"),
        many => format!("{} panes", many.len()),
    };
    loop {
        let left = reply.budget.left();
        if left.is_zero() {
            let latest = watches
                .iter()
                .filter(|w| w.last_output.is_some())
                .max_by_key(|w| w.last_output);
            let pane = latest.map(|w| w.pane).or_else(|| (panes.len() == 1).then(|| panes[0]));
            let lines = latest.map(Watch::recent).unwrap_or_default();
            return Ok(reply.finish(Outcome::Timeout, pane, None, lines));
        }
        if let Some(idle) = idle {
            if let Some(quiet) = watches
                .iter()
                .find(|w| w.last_output.is_some_and(|at| at.elapsed() >= idle))
            {
                return Ok(reply.finish(Outcome::Idle, Some(quiet.pane), None, quiet.recent()));
            }
        }
        tokio::time::sleep(left.min(WAIT_POLL_INTERVAL)).await;
        progress.tick(&reply.budget, &what).await;
        let probes = match probe_all(gate, &watches).await? {
            Ok(probes) => probes,
            Err(pane) => return Ok(reply.finish(Outcome::PaneDied, Some(pane), None, Vec::new())),
        };
        // Only panes whose state moved (or not read for a while) are read in full.
        let due: Vec<bool> = watches
            .iter()
            .zip(&probes)
            .map(|(watch, probe)| watch.probe != *probe || watch.read_at.elapsed() >= WAIT_FULL_READ_INTERVAL)
            .collect();
        let plan: Vec<(PaneId, u64)> = watches
            .iter()
            .zip(&due)
            .filter(|(_, due)| **due)
            .map(|(w, _)| (w.pane, w.scan_rows))
            .collect();
        if plan.is_empty() {
            continue;
        }
        let readings = match read_all(gate, &plan).await? {
            Ok(readings) => readings,
            Err(pane) => return Ok(reply.finish(Outcome::PaneDied, Some(pane), None, Vec::new())),
        };
        let due_watches =
            watches
                .iter_mut()
                .zip(probes)
                .zip(&due)
                .filter(|(_, due)| **due)
                .map(|((watch, probe), _)| {
                    watch.probe = probe;
                    watch.read_at = Instant::now();
                    watch
                });
        for (watch, reading) in due_watches.zip(&readings) {
            let mut seen = watch.observe(reading, false);
            if let Seen::Lost { scan_rows } = seen {
                seen = match read_all(gate, &[(watch.pane, scan_rows)]).await? {
                    Ok(again) => again.first().map_or(Seen::Rows(Vec::new()), |r| watch.observe(r, true)),
                    Err(_) => Seen::Died,
                };
            }
            let rows = match seen {
                Seen::Died => return Ok(reply.finish(Outcome::PaneDied, Some(watch.pane), None, watch.recent())),
                Seen::Alternate => {
                    return Ok(reply.finish(Outcome::AlternateScreen, Some(watch.pane), None, watch.recent()))
                }
                Seen::Rows(rows) => rows,
                Seen::Lost { .. } => Vec::new(),
            };
            let typed = own_input(watch.pane).await;
            let rows = watch.echoes.drop_from(&typed, rows);
            watch.note(&rows);
            if rows.is_empty() {
                continue;
            }
            reply.saw_new_output = true;
            if let Some((outcome, pattern, lines)) = first_match(&patterns, &rows) {
                return Ok(reply.finish(outcome, Some(watch.pane), Some(pattern), lines));
            }
            if patterns.wanted.is_empty() && idle.is_none() {
                let lines = newest(rows.iter().map(|r| reply_row(r)).collect());
                return Ok(reply.finish(Outcome::Output, Some(watch.pane), None, lines));
            }
        }
    }
}
