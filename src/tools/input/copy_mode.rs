//! `enter_copy_mode` and `exit_copy_mode`.
//!
//! Copy mode takes a person's keys away from their program, so entering it in the pane
//! paneward itself runs in needs `force`. Leaving is the way out and is never refused.

use crate::generated::types::{EnterCopyModeInput, EnterCopyModeOutput, ExitCopyModeInput, ExitCopyModeOutput};
use crate::guard::caller::is_caller;
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb};
use crate::limits::COPY_MODE_SCROLL_MAX_LINES;
use crate::runtime::error::ToolError;
use crate::tmux::format::{parse_one, record_format};
use crate::tmux::{PaneId, ReadCommand, ReadVerb};
use crate::tools::args;

/// What is read about the pane before and after.
const PANE_FIELDS: [&str; 5] = ["pane_id", "pane_in_mode", "scroll_position", "pid", "socket_path"];

/// The pane's state as read.
struct PaneState {
    in_mode: bool,
    scroll_position: i64,
    is_caller: bool,
}

fn read_pane(pane: PaneId) -> ReadCommand {
    ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
        .arg(record_format(&PANE_FIELDS))
}

fn parse_pane(gate: &ChangeGate<'_>, pane: PaneId, output: &[u8]) -> Result<PaneState, ToolError> {
    let text = String::from_utf8_lossy(output);
    let record = parse_one("display-message", &PANE_FIELDS, &text)?;
    Ok(PaneState {
        in_mode: record.flag("pane_in_mode")?,
        // Empty outside copy mode.
        scroll_position: record.optional_int("scroll_position")?.unwrap_or(0),
        is_caller: is_caller(gate.state().caller.as_ref(), pane, &record)?,
    })
}

fn pane_string<T: TryFrom<String>>(pane: PaneId) -> Result<T, ToolError> {
    T::try_from(pane.to_string()).map_err(|_| ToolError::internal("a pane id broke its pattern"))
}

/// Enters copy mode and scrolls up; the caller pane needs `force`.
///
/// # Errors
/// A missing pane, the caller pane without `force`, or tmux failing.
pub async fn enter_copy_mode(
    gate: &ChangeGate<'_>,
    input: EnterCopyModeInput,
) -> Result<EnterCopyModeOutput, ToolError> {
    let EnterCopyModeInput {
        pane_id,
        scroll_up_lines,
        force,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let lines = match scroll_up_lines {
        None => 0,
        Some(n) => u32::try_from(n)
            .ok()
            .filter(|n| *n <= COPY_MODE_SCROLL_MAX_LINES)
            .ok_or_else(|| {
                ToolError::invalid_argument("/scroll_up_lines", format!("must be 0 to {COPY_MODE_SCROLL_MAX_LINES}"))
            })?,
    };
    let before = gate.run(read_pane(pane)).await?;
    let before = parse_pane(gate, pane, &before)?;
    if before.is_caller && !force.unwrap_or(false) {
        return Err(ToolError::blocked(format!(
            "pane {pane} is the caller pane, the one paneward itself runs in; copy mode would take its keys (needs force: true); nothing changed"
        )));
    }
    let mut commands = vec![ChangeCommand::new(ChangeVerb::CopyMode).arg("-t").arg(pane.to_string())];
    if lines > 0 {
        commands.push(ChangeGate::scroll_copy_mode_up(pane, lines));
    }
    commands.push(read_pane(pane).into());
    let outputs = gate.change_all(&commands).await?;
    let after = outputs
        .last()
        .ok_or_else(|| ToolError::internal("copy-mode came back without the pane's state"))?;
    let after = parse_pane(gate, pane, after)?;
    Ok(EnterCopyModeOutput {
        pane_id: pane_string(pane)?,
        was_in_mode: before.in_mode,
        in_mode: after.in_mode,
        scroll_position: after.scroll_position.unsigned_abs(),
    })
}

/// Ends any mode of the pane; never refused.
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn exit_copy_mode(gate: &ChangeGate<'_>, input: ExitCopyModeInput) -> Result<ExitCopyModeOutput, ToolError> {
    let ExitCopyModeInput { pane_id } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let commands = [
        read_pane(pane).into(),
        ChangeCommand::new(ChangeVerb::CopyMode)
            .arg("-q")
            .arg("-t")
            .arg(pane.to_string()),
        read_pane(pane).into(),
    ];
    let outputs = gate.change_all(&commands).await?;
    let (Some(before), Some(after)) = (outputs.first(), outputs.last()) else {
        return Err(ToolError::internal("copy-mode came back without the pane's state"));
    };
    Ok(ExitCopyModeOutput {
        pane_id: pane_string(pane)?,
        was_in_mode: parse_pane(gate, pane, before)?.in_mode,
        in_mode: parse_pane(gate, pane, after)?.in_mode,
    })
}
