//! Whether a pane's shell is ready for input: a new pane's shell reads its startup
//! files (a slow `.bashrc`, `mesg` from `.profile`, pyenv, conda, nvm) before it draws
//! its first prompt, and a line typed before then waits unseen or goes to whatever
//! program the startup runs.
//!
//! "Ready" is the one rule of `super::prompt::empty_prompt`: an empty primary prompt
//! at the cursor. "Still starting" is what a pane shows before it: nothing at the
//! cursor's row. A pane that has never shown anything (its screen blank, its history
//! empty) and has no prompt yet is one whose shell has not finished starting; that is
//! what lets `run_command` answer "not ready yet" instead of refusing the program that
//! the startup runs.

use std::time::{Duration, Instant};

use crate::guard::ReadGate;
use crate::limits::{READY_BATCH_MAX_WAIT, READY_MAX_WAIT, RUN_POLL_FIRST, RUN_POLL_MAX};
use crate::runtime::error::ToolError;
use crate::tmux::format::parse_one;
use crate::tmux::{PaneId, TmuxError};
use crate::tools::observe::text::facts_and_rows;

use super::prompt::{empty_prompt, NotAtPrompt};
use super::record::shown_program;

/// The pane facts readiness is judged from (one `display-message`).
const READY_FIELDS: [&str; 9] = [
    "pane_id",
    "pane_pid",
    "pane_current_command",
    "pane_dead",
    "pane_in_mode",
    "alternate_on",
    "cursor_x",
    "cursor_y",
    "history_size",
];

/// Where a pane stands for input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Readiness {
    /// An empty primary prompt at the cursor.
    Ready,
    /// Nothing drawn at the cursor's row yet, with `program` in the foreground.
    Starting { program: String },
    /// Something else: a program's own screen, a prompt paneward does not recognise,
    /// a dead pane. Waiting longer would not change it by itself.
    Other { reason: String },
}

/// Whether `rows` and `history_size` say the pane has never shown anything: a pane
/// whose shell has not finished starting.
pub fn never_drawn(rows: &[String], history_size: u64) -> bool {
    history_size == 0 && rows.iter().all(|row| row.trim().is_empty())
}

/// The sentence `run_command` answers with for a pane still starting.
pub fn not_ready_sentence(pane: PaneId, program: &str) -> String {
    format!(
        "pane {pane} has not shown its shell's prompt yet: it is still starting (running {} in the foreground, \
         its screen blank); nothing was typed. Call run_command again in a moment, or create the pane with \
         wait_ready: true",
        shown_program(program)
    )
}

/// One look at a pane: the facts readiness and quiet are judged from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneLook {
    pub pane: PaneId,
    pub program: String,
    pub pid: String,
    pub dead: bool,
    pub in_mode: bool,
    pub alternate: bool,
    pub cursor_x: u64,
    pub cursor_y: u64,
    pub history_size: u64,
    pub rows: Vec<String>,
}

/// Looks at `pane`: its facts and its screen, in one round trip.
///
/// # Errors
/// A missing pane (the capture fails for one), or tmux failing.
pub async fn look(gate: &ReadGate<'_>, pane: PaneId) -> Result<PaneLook, TmuxError> {
    let (described, rows) = facts_and_rows(gate, pane, &READY_FIELDS).await?;
    let record = parse_one("display-message", &READY_FIELDS, &described)?;
    Ok(PaneLook {
        pane,
        program: record.text("pane_current_command")?.to_string(),
        pid: record.text("pane_pid")?.to_string(),
        dead: record.flag("pane_dead")?,
        in_mode: record.flag("pane_in_mode")?,
        alternate: record.flag("alternate_on")?,
        cursor_x: record.count("cursor_x")?,
        cursor_y: record.count("cursor_y")?,
        history_size: record.count("history_size")?,
        rows,
    })
}

/// Where `look` stands for input.
pub fn judge(look: &PaneLook) -> Readiness {
    let pane = look.pane;
    if look.dead {
        return Readiness::Other {
            reason: format!("pane {pane}'s program has exited"),
        };
    }
    if look.in_mode || look.alternate {
        return Readiness::Other {
            reason: format!(
                "pane {pane} is in a mode or shows {}'s full screen",
                shown_program(&look.program)
            ),
        };
    }
    match empty_prompt(&look.rows, look.cursor_x, look.cursor_y) {
        Ok(()) => Readiness::Ready,
        Err(NotAtPrompt::NotDrawn) => Readiness::Starting {
            program: look.program.clone(),
        },
        Err(why) => Readiness::Other {
            reason: why.sentence(&pane.to_string()),
        },
    }
}

/// Where `pane` stands for input now.
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn readiness(gate: &ReadGate<'_>, pane: PaneId) -> Result<Readiness, ToolError> {
    Ok(judge(&look(gate, pane).await?))
}

/// How long a create tool waits for its new pane: [`READY_MAX_WAIT`], or
/// [`READY_BATCH_MAX_WAIT`] in a batch row (a batch holds the connection's turn).
pub fn ready_bound(gate: &ReadGate<'_>) -> Duration {
    if gate.context().is_batch_row() {
        READY_BATCH_MAX_WAIT
    } else {
        READY_MAX_WAIT
    }
}

/// Waits until `pane` is [`Readiness::Ready`], shows something else, or `bound` passes
/// (or the client cancels); returns where it stands then.
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn wait_until_ready(gate: &ReadGate<'_>, pane: PaneId, bound: Duration) -> Result<Readiness, ToolError> {
    let context = gate.context();
    let deadline = Instant::now() + bound;
    let mut pause = RUN_POLL_FIRST;
    loop {
        let now = readiness(gate, pane).await?;
        if !matches!(now, Readiness::Starting { .. }) || Instant::now() >= deadline {
            return Ok(now);
        }
        let sleep = pause.min(deadline.saturating_duration_since(Instant::now()));
        tokio::select! {
            () = tokio::time::sleep(sleep) => {}
            () = context.cancelled() => return Ok(now),
        }
        pause = (pause + pause / 4).min(RUN_POLL_MAX);
    }
}

/// What a create tool reports of its wait: `ready`, and why not.
pub fn reported(readiness: &Readiness, pane: PaneId, bound: Duration) -> (bool, Option<String>) {
    match readiness {
        Readiness::Ready => (true, None),
        Readiness::Starting { program } => (
            false,
            Some(format!(
                "pane {pane} showed no prompt within {} s (running {} in the foreground); its shell may still be \
                 starting",
                bound.as_secs(),
                shown_program(program)
            )),
        ),
        Readiness::Other { reason } => (false, Some(reason.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blank_screen_without_history_has_never_been_drawn() {
        let blank = vec![String::new(), "  ".to_string()];
        assert!(never_drawn(&blank, 0));
        assert!(!never_drawn(&blank, 3), "history means something scrolled away");
        assert!(!never_drawn(&["Loading".to_string(), String::new()], 0));
    }
}
