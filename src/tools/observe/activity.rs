//! What each pane is doing, from what tmux already knows, without reading any pane's
//! text: `list_pane_activity`. (A flag on `list_panes` would change the seeded batch
//! contract, whose `list_panes` branch takes no arguments.)
//!
//! One `list-panes -a` for every pane (one round trip, whatever their number) gives
//! the foreground program, the alternate screen, a mode, a dead pane and the window's
//! last output time. tmux 3.3a keeps that time per window (`window_activity`, whole
//! seconds, updated on output and not on resizes) and has no format for the current
//! time, so the quiet seconds are the window's, by paneward's clock. "At its prompt"
//! here means the shell itself is in the foreground; that the prompt is empty takes the
//! screen (`wait_for_idle` with `until: prompt`).
//!
//! Whether the foreground program waits for input is the kernel's answer
//! (`tmux::input_wait`, through `guard::terminal::input_waits`): a few small `/proc`
//! files per pane, from the pids and terminals this same listing gives, no capture and
//! no further round trip; a dead pane is not looked at.

use crate::generated::types::{
    ListPaneActivityInput, ListPaneActivityOutput, ListPaneActivityOutputPanesItem as PaneActivity,
    ListPaneActivityOutputPanesItemInput as Input, ListPaneActivityOutputPanesItemReadsAs as ReadsAsField,
    ListPaneActivityOutputPanesItemState as PaneActivityState,
};
use crate::guard::terminal::{input_waits, listed_process};
use crate::guard::ReadGate;
use crate::runtime::error::ToolError;
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::input_wait::{InputWait, ReadsAs};
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::observe::objects::capped;
use crate::tools::shells::is_posix_shell;

const ACTIVITY_FIELDS: [&str; 8] = [
    "pane_id",
    "pane_pid",
    "pane_tty",
    "pane_current_command",
    "pane_dead",
    "pane_in_mode",
    "alternate_on",
    "window_activity",
];

/// The state tmux's flags say, most specific first.
fn state_of(dead: bool, in_mode: bool, alternate: bool, program: &str) -> PaneActivityState {
    if dead {
        PaneActivityState::Dead
    } else if in_mode {
        PaneActivityState::Mode
    } else if alternate {
        PaneActivityState::FullScreen
    } else if is_posix_shell(program) {
        PaneActivityState::Shell
    } else {
        PaneActivityState::Program
    }
}

/// The listing's two input fields from the kernel's answer.
pub fn input_fields(wait: &InputWait) -> (Input, Option<ReadsAsField>) {
    match wait {
        InputWait::Waiting { reads_as, .. } => (
            Input::Waiting,
            Some(match reads_as {
                ReadsAs::ShellPrompt => ReadsAsField::ShellPrompt,
                ReadsAs::Password => ReadsAsField::Password,
                ReadsAs::ProgramInput => ReadsAsField::ProgramInput,
            }),
        ),
        InputWait::NotWaiting { .. } => (Input::NotWaiting, None),
        InputWait::Unknown(_) => (Input::Unknown, None),
    }
}

/// Seconds from `activity` (a Unix second as tmux prints it) to `now_s`; never negative.
fn quiet_seconds(activity: &str, now_s: u64) -> i64 {
    let at: u64 = activity.trim().parse().unwrap_or(now_s);
    i64::try_from(now_s.saturating_sub(at)).unwrap_or(i64::MAX)
}

/// `list_pane_activity`: see the tool's description in
/// `schemas/tools/list_pane_activity.json`.
///
/// # Errors
/// tmux failing, or its answer unreadable.
pub async fn list_pane_activity(
    gate: &ReadGate<'_>,
    input: ListPaneActivityInput,
) -> Result<ListPaneActivityOutput, ToolError> {
    let ListPaneActivityInput {} = input;
    let list = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-a")
        .arg("-F")
        .arg(record_format(&ACTIVITY_FIELDS));
    let output = gate.run(list).await?;
    let text = String::from_utf8_lossy(&output).into_owned();
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let records = parse_records("list-panes", &ACTIVITY_FIELDS, &text)?;
    let processes = records.iter().map(listed_process).collect::<Result<Vec<_>, _>>()?;
    let waits = input_waits(gate, &processes);
    let mut panes = Vec::new();
    for (record, wait) in records.iter().zip(&waits) {
        let program = record.text("pane_current_command")?.to_string();
        let dead = record.flag("pane_dead")?;
        let state = state_of(
            dead,
            record.flag("pane_in_mode")?,
            record.flag("alternate_on")?,
            &program,
        );
        let (input, reads_as) = if dead {
            (Input::NotWaiting, None)
        } else {
            input_fields(wait)
        };
        panes.push(PaneActivity {
            id: record.text("pane_id")?.to_string(),
            state,
            program,
            window_quiet_seconds: quiet_seconds(record.text("window_activity")?, now_s),
            input,
            reads_as,
        });
    }
    let (panes, total, truncated) = capped(panes);
    Ok(ListPaneActivityOutput {
        panes,
        total,
        truncated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_specific_flag_names_the_state() {
        assert_eq!(state_of(true, true, true, "sh"), PaneActivityState::Dead);
        assert_eq!(state_of(false, true, true, "sh"), PaneActivityState::Mode);
        assert_eq!(state_of(false, false, true, "less"), PaneActivityState::FullScreen);
        assert_eq!(state_of(false, false, false, "bash"), PaneActivityState::Shell);
        assert_eq!(state_of(false, false, false, "claude"), PaneActivityState::Program);
    }

    #[test]
    fn quiet_seconds_never_go_negative() {
        assert_eq!(quiet_seconds("100", 130), 30);
        assert_eq!(quiet_seconds("200", 130), 0, "tmux's clock ahead of paneward's");
    }
}
