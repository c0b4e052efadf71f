//! `capture_since`: the rows a pane wrote after a cursor from an earlier call.
//!
//! One round trip reads the pane's rows (history and screen), the screen a full-screen
//! program will return to, and the numbers that place them; `tail.rs` then finds the
//! cursor's anchor in them.

use crate::generated::types::{CaptureSinceInput, CaptureSinceOutput};
use crate::guard::ReadGate;
use crate::limits::SINCE_SCAN_MAX_ROWS;
use crate::runtime::error::ToolError;
use crate::tmux::{PaneId, ReadCommand, ReadVerb, TmuxError};
use crate::tools::args;
use crate::tools::observe::cursor::{Cursor, CursorKey};
use crate::tools::observe::own::hide_own_rows;
use crate::tools::observe::pane_state::{describe_pane, pane_record};
use crate::tools::observe::tail::{NormalRows, FINGERPRINT_ROWS};
use crate::tools::observe::text::{keep_newest, split_rows, trim_blank_tail};

/// What places the captured rows: ids and pid to check, sizes to number them, and the
/// terminal cursor on the normal screen (saved while the alternate screen is on).
pub(crate) const FIELDS: [&str; 9] = [
    "pane_id",
    "pane_dead",
    "pane_pid",
    "history_size",
    "history_limit",
    "pane_height",
    "cursor_y",
    "alternate_on",
    "alternate_saved_y",
];

/// The newest `history_rows` history rows and the screen. It comes first in the round
/// trip because, unlike `display-message`, it fails for a missing pane.
pub(crate) fn scan(pane: PaneId, history_rows: u64) -> ReadCommand {
    ReadCommand::new(ReadVerb::CapturePane)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
        .arg("-S")
        .arg(format!("-{history_rows}"))
}

/// How many history rows a call reads: with a cursor, up to [`SINCE_SCAN_MAX_ROWS`] to find its
/// anchor; without one, only those the new cursor's fingerprint covers above the
/// screen, since the reply is the screen itself.
fn scan_rows(cursor: Option<&Cursor>) -> u64 {
    match cursor {
        Some(_) => SINCE_SCAN_MAX_ROWS,
        None => FINGERPRINT_ROWS as u64,
    }
}

/// The normal screen a program on the alternate screen will return to (`-q`: no
/// error when there is none).
pub(crate) fn saved_screen(pane: PaneId) -> ReadCommand {
    ReadCommand::new(ReadVerb::CapturePane)
        .arg("-p")
        .arg("-a")
        .arg("-q")
        .arg("-t")
        .arg(pane.to_string())
}

/// A pane as read for `capture_since`.
#[derive(Debug, Clone)]
pub struct Reading {
    pub normal: NormalRows,
    /// What the pane shows now: the alternate screen while a full-screen program runs.
    pub visible: Vec<String>,
    pub alternate: bool,
    /// The pane's program exited and the pane stays (`remain-on-exit`).
    pub dead: bool,
}

fn protocol(detail: String) -> ToolError {
    TmuxError::Protocol {
        command: "capture-pane".into(),
        detail,
    }
    .into()
}

pub(crate) fn read(
    pane: PaneId,
    scan_rows: u64,
    scanned: &[u8],
    saved: &[u8],
    state: &[u8],
) -> Result<Reading, ToolError> {
    let state = String::from_utf8_lossy(state);
    let record = pane_record(pane, &FIELDS, &state)?;
    let number = |name: &str| -> Result<u64, ToolError> {
        u64::try_from(record.int(name)?).map_err(|_| protocol(format!("{name} is negative")))
    };
    let history_size = number("history_size")?;
    let height = usize::try_from(number("pane_height")?).unwrap_or(usize::MAX);
    let alternate = record.flag("alternate_on")?;
    let cursor_y = if alternate {
        number("alternate_saved_y")?
    } else {
        number("cursor_y")?
    };
    let pane_pid = u32::try_from(number("pane_pid")?).map_err(|_| protocol("pane_pid is too large".into()))?;
    let scanned_history = history_size.min(scan_rows);
    let mut rows = split_rows(scanned);
    hide_own_rows(&mut rows);
    let history_rows = usize::try_from(scanned_history).unwrap_or(usize::MAX);
    if rows.len() != history_rows.saturating_add(height) {
        return Err(protocol(format!(
            "{} rows captured where {scanned_history} history rows and a screen of {height} were expected; try again",
            rows.len()
        )));
    }
    let visible_start = rows.len() - height;
    let mut visible = rows[visible_start..].to_vec();
    trim_blank_tail(&mut visible);
    if alternate {
        rows.truncate(history_rows);
        let mut saved = split_rows(saved);
        hide_own_rows(&mut saved);
        rows.extend(saved);
    }
    Ok(Reading {
        normal: NormalRows {
            first: history_size - scanned_history,
            rows,
            cursor_row: history_size + cursor_y,
            history_size,
            history_limit: number("history_limit")?,
            pane_pid,
        },
        visible,
        alternate,
        dead: record.flag("pane_dead")?,
    })
}

/// `capture_since`: see the tool's description in `schemas/tools/capture_since.json`.
///
/// # Errors
/// A bad pane id, `max_lines` or cursor (checked before tmux is asked anything), a
/// missing pane, or tmux failing.
pub async fn capture_since(gate: &ReadGate<'_>, input: CaptureSinceInput) -> Result<CaptureSinceOutput, ToolError> {
    Ok(capture_since_at(gate, input).await?.0)
}

/// [`capture_since`], with the text of the row the terminal cursor is on (the row the
/// next call returns again), for `--profile python`, whose upstream leaves that row out
/// of the next call while it is unchanged.
///
/// # Errors
/// As [`capture_since`].
pub(crate) async fn capture_since_at(
    gate: &ReadGate<'_>,
    input: CaptureSinceInput,
) -> Result<(CaptureSinceOutput, Option<String>), ToolError> {
    let CaptureSinceInput {
        cursor,
        max_lines,
        pane_id,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let max_lines = args::max_lines("/max_lines", max_lines)?;
    let key = CursorKey::process()?;
    let cursor = match cursor.as_deref() {
        None => None,
        Some(text) => {
            let cursor = key.open(text).map_err(|e| ToolError::invalid_argument("/cursor", e))?;
            if cursor.pane != pane {
                return Err(ToolError::invalid_argument(
                    "/cursor",
                    format!(
                        "was issued for pane {}, not {pane}; pass a cursor from a capture_since call on {pane}, \
                         or call without a cursor to start over",
                        cursor.pane
                    ),
                ));
            }
            Some(cursor)
        }
    };
    let scan_rows = scan_rows(cursor.as_ref());
    let [scanned, saved, state] = gate
        .run_each([scan(pane, scan_rows), saved_screen(pane), describe_pane(pane, &FIELDS)])
        .await?;
    let reading = read(pane, scan_rows, &scanned, &saved, &state)?;
    let (rows, missed) = match &cursor {
        None => (reading.visible, None),
        Some(cursor) => {
            let resume = reading.normal.resume(cursor);
            (reading.normal.from_row(resume.start), resume.missed)
        }
    };
    let next = key.seal(&reading.normal.cursor_here(pane));
    let cursor_row = reading.normal.cursor_row_text().map(str::to_string);
    let bounded = keep_newest(rows, max_lines);
    let output = CaptureSinceOutput {
        alternate_screen: reading.alternate,
        cursor: next,
        truncated: bounded.truncated(),
        truncated_lines: u64::try_from(bounded.truncated_lines).unwrap_or(0),
        truncated_bytes: u64::try_from(bounded.truncated_bytes).unwrap_or(0),
        lines: bounded.lines,
        lines_missed: missed.is_some(),
        missed_reason: missed,
        pane_id: pane.to_string(),
    };
    Ok((output, cursor_row))
}
