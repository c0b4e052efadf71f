//! Reading one pane's state with a format of our own and turning it into reply fields.

use crate::guard::caller::{is_caller, CallerPane};
use crate::runtime::error::ToolError;
use crate::tmux::format::{parse_one, record_format, Record};
use crate::tmux::{PaneId, ReadCommand, ReadVerb, TmuxError};

/// The variables `snapshot_pane` needs, plus the server's `pid` for the caller check.
pub const SNAPSHOT_FIELDS: [&str; 16] = [
    "pane_id",
    "history_size",
    "window_id",
    "pane_index",
    "pane_active",
    "pane_left",
    "pane_top",
    "pane_width",
    "pane_height",
    "pane_dead",
    "pane_dead_status",
    "pane_dead_signal",
    "pid",
    "session_name",
    "window_name",
    "pane_current_command",
];

/// One pane as a reply describes it.
#[derive(Debug, Clone)]
pub struct PaneState {
    pub id: PaneId,
    pub window_id: String,
    pub session_name: String,
    pub window_name: String,
    pub index: i64,
    pub active: bool,
    pub left: i64,
    pub top: i64,
    pub width: i64,
    pub height: i64,
    pub current_command: String,
    pub dead: bool,
    /// The exit status of a dead pane; 128 + the signal number if a signal ended it.
    pub exit_status: Option<i64>,
    /// Whether this is the pane paneward runs in (`None` never occurs yet; the
    /// contract allows it for "unknown").
    pub is_caller: Option<bool>,
}

/// The command that prints the variables `names` of `pane` as one record
/// ([`SNAPSHOT_FIELDS`] for a snapshot).
///
/// `display-message -t` does not fail for a missing pane (tmux treats its target as
/// optional), so callers must chain a command that does, or check the id that came
/// back as [`pane_record`] does.
pub fn describe_pane(pane: PaneId, names: &[&str]) -> ReadCommand {
    ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-t")
        .arg(pane.to_string())
        .arg(record_format(names))
}

/// `capture-pane` for the visible screen, or the whole scrollback with `history`.
pub fn capture(pane: PaneId, history: bool) -> ReadCommand {
    let command = ReadCommand::new(ReadVerb::CapturePane)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string());
    if history {
        command.arg("-S").arg("-").arg("-E").arg("-")
    } else {
        command
    }
}

/// `capture-pane` for the screen and the newest `history_rows` rows of scrollback above
/// it (tmux starts at the oldest row when fewer exist). Reading only these keeps the
/// cost of a capture to what it returns, whatever the pane's `history-limit`.
pub fn capture_newest(pane: PaneId, history_rows: u64) -> ReadCommand {
    let command = capture(pane, false);
    if history_rows == 0 {
        command
    } else {
        command.arg("-S").arg(format!("-{history_rows}"))
    }
}

/// `capture-pane` for the rows `start` to `end` (tmux's line numbers: 0 is the screen's
/// first row, negative ones are scrollback); either left out means tmux's default (the
/// screen's first or last row). The numbers are written by paneward, never caller text.
/// With `joined`, rows tmux wrapped come back as one line (`-J`).
pub fn capture_range(pane: PaneId, start: Option<i64>, end: Option<i64>, joined: bool) -> ReadCommand {
    let mut command = capture(pane, false);
    if joined {
        command = command.arg("-J");
    }
    if let Some(start) = start {
        command = command.arg("-S").arg(start.to_string());
    }
    if let Some(end) = end {
        command = command.arg("-E").arg(end.to_string());
    }
    command
}

/// Parses the output of [`describe_pane`].
///
/// # Errors
/// tmux described another pane (or none), or a field did not parse.
pub fn parse_pane(pane: PaneId, output: &[u8], caller: Option<&CallerPane>) -> Result<PaneState, ToolError> {
    let text = String::from_utf8_lossy(output);
    let record = pane_record(pane, &SNAPSHOT_FIELDS, &text)?;
    Ok(state_from(pane, &record, caller)?)
}

/// Parses a `display-message -p -t <pane>` record of `names` (which must include
/// `pane_id`) and checks that tmux described that pane: for a missing target tmux prints
/// the format with empty values instead of failing, so this is the one place a missing
/// pane read through `display-message` is caught.
///
/// # Errors
/// A pane other than `pane` (or none) was described, or the record is malformed.
pub fn pane_record<'a>(pane: PaneId, names: &'a [&'a str], text: &'a str) -> Result<Record<'a>, ToolError> {
    let record = parse_one("display-message", names, text)?;
    if record.text("pane_id")? != pane.to_string() {
        return Err(TmuxError::ObjectGone {
            message: format!("can't find pane: {pane}"),
        }
        .into());
    }
    Ok(record)
}

/// The exit status of a dead pane (`pane_dead_status`, or 128 + `pane_dead_signal` when a
/// signal ended it, as shells report it); `None` for a live pane or an unknown status.
///
/// # Errors
/// A field is missing from the record or is not a number.
pub fn exit_status(record: &Record<'_>) -> Result<Option<i64>, TmuxError> {
    if !record.flag("pane_dead")? {
        return Ok(None);
    }
    Ok(
        match (
            record.optional_int("pane_dead_status")?,
            record.optional_int("pane_dead_signal")?,
        ) {
            (Some(status), _) => Some(status),
            (None, Some(signal)) => Some(128 + signal),
            (None, None) => None,
        },
    )
}

fn state_from(pane: PaneId, record: &Record<'_>, caller: Option<&CallerPane>) -> Result<PaneState, TmuxError> {
    let dead = record.flag("pane_dead")?;
    let exit_status = exit_status(record)?;
    let is_caller = is_caller(caller, pane, record)?;
    Ok(PaneState {
        id: pane,
        window_id: record.text("window_id")?.to_string(),
        session_name: record.text("session_name")?.to_string(),
        window_name: record.text("window_name")?.to_string(),
        index: record.int("pane_index")?,
        active: record.flag("pane_active")?,
        left: record.int("pane_left")?,
        top: record.int("pane_top")?,
        width: record.int("pane_width")?,
        height: record.int("pane_height")?,
        current_command: record.text("pane_current_command")?.to_string(),
        dead,
        exit_status,
        is_caller: Some(is_caller),
    })
}
