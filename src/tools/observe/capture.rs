//! `capture_pane`: a pane's bounded text, the visible screen or the scrollback too; and
//! the reading of a pane's newest rows that `snapshot_pane` shares.

use serde_json::Value;

use crate::generated::types::{CapturePaneInput, CapturePaneOutput};
use crate::guard::ReadGate;
use crate::runtime::error::ToolError;
use crate::runtime::Encoded;
use crate::tmux::PaneId;
use crate::tools::args;
use crate::tools::observe::pane_state::{capture_newest, capture_range, describe_pane, pane_record};
use crate::tools::observe::text::{keep_newest, split_capture, BoundedLines};

/// The variables [`read_newest`] needs from the description it reads alongside.
pub const TEXT_FIELDS: [&str; 2] = ["pane_id", "history_size"];

/// A pane's text as a reply carries it.
#[derive(Debug, Clone)]
pub struct PaneText {
    pub lines: Vec<String>,
    /// Rows left out, the oldest; history rows never read are counted from
    /// `history_size`.
    pub truncated_lines: u64,
    /// UTF-8 bytes of the rows left out, a newline counted after each; `None` when some
    /// of them are history rows that were never read (counting them would mean reading
    /// the whole scrollback).
    pub truncated_bytes: Option<u64>,
}

impl PaneText {
    pub fn truncated(&self) -> bool {
        self.truncated_lines > 0
    }
}

/// Reads the newest `max_lines` rows of `pane` (the screen, and with `history` the
/// scrollback above it) and, in the same round trip, the description `names` (which
/// must include `pane_id` and `history_size`), returned as tmux printed it.
///
/// Only the newest rows are read: the screen and `max_lines` history rows. Blank rows
/// below the last written one are not returned, so when those leave fewer rows than
/// wanted and older history exists, it reads again, four times further back each time.
///
/// # Errors
/// A missing pane (`capture-pane` fails for one), or tmux failing.
pub async fn read_newest(
    gate: &ReadGate<'_>,
    pane: PaneId,
    history: bool,
    max_lines: usize,
    names: &[&str],
) -> Result<(PaneText, Vec<u8>), ToolError> {
    let mut wanted = if history {
        u64::try_from(max_lines).unwrap_or(u64::MAX)
    } else {
        0
    };
    loop {
        // The capture comes first: unlike display-message, it fails for a missing pane.
        let [text, state] = gate
            .run_each([capture_newest(pane, wanted), describe_pane(pane, names)])
            .await?;
        let history_size = {
            let state = String::from_utf8_lossy(&state);
            let record = pane_record(pane, names, &state)?;
            u64::try_from(record.int("history_size")?).unwrap_or(0)
        };
        let unread = if history {
            history_size.saturating_sub(wanted)
        } else {
            0
        };
        let bounded = keep_newest(split_capture(&text), max_lines);
        // Once rows that were read are left out, older ones would be too.
        if unread == 0 || bounded.truncated() {
            return Ok((PaneText::of(bounded, unread), state));
        }
        wanted = wanted.max(1).saturating_mul(4).min(history_size);
    }
}

impl PaneText {
    /// `bounded`, with `unread` history rows above it never read.
    fn of(bounded: BoundedLines, unread: u64) -> Self {
        let read_bytes = u64::try_from(bounded.truncated_bytes).unwrap_or(0);
        Self {
            truncated_lines: unread + u64::try_from(bounded.truncated_lines).unwrap_or(0),
            truncated_bytes: (unread == 0).then_some(read_bytes),
            lines: bounded.lines,
        }
    }
}

/// The newest `max_lines` rows of `pane`'s visible screen: the capture alone, as nothing
/// above the screen is counted (a batch of captures sends half the commands).
///
/// # Errors
/// A missing pane (`capture-pane` fails for one), or tmux failing.
pub async fn read_screen(gate: &ReadGate<'_>, pane: PaneId, max_lines: usize) -> Result<PaneText, ToolError> {
    let output = gate.run(capture_newest(pane, 0)).await?;
    Ok(PaneText::of(keep_newest(split_capture(&output), max_lines), 0))
}

/// The rows `start` to `end` of `pane` (see [`capture_range`]), paneward's own rows
/// hidden and blank rows below the last written one left out; unbounded: the caller
/// bounds what it returns.
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn read_range(
    gate: &ReadGate<'_>,
    pane: PaneId,
    start: Option<i64>,
    end: Option<i64>,
) -> Result<Vec<String>, ToolError> {
    let output = gate.run(capture_range(pane, start, end, false)).await?;
    Ok(split_capture(&output))
}

/// `capture_pane`: see the tool's description in `schemas/tools/capture_pane.json`. The
/// rows are moved into the reply, not copied: a history capture is thousands of them.
///
/// # Errors
/// A bad pane id or `max_lines`, a missing pane (`capture-pane` itself fails for one),
/// or tmux failing.
pub async fn capture_pane(
    gate: &ReadGate<'_>,
    input: CapturePaneInput,
) -> Result<Encoded<CapturePaneOutput>, ToolError> {
    let CapturePaneInput {
        history,
        max_lines,
        pane_id,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let max_lines = args::max_lines("/max_lines", max_lines)?;
    let history = history.unwrap_or(false);
    let text = if history {
        read_newest(gate, pane, history, max_lines, &TEXT_FIELDS).await?.0
    } else {
        read_screen(gate, pane, max_lines).await?
    };
    let output = CapturePaneOutput {
        history,
        pane_id: pane.to_string(),
        truncated: text.truncated(),
        truncated_lines: text.truncated_lines,
        truncated_bytes: text.truncated_bytes,
        lines: text.lines,
    };
    Encoded::moving(output, |output| std::mem::take(&mut output.lines), put_lines)
}

/// Puts `lines` back as the encoded reply's `lines`, each row's `String` moved.
fn put_lines(encoded: &mut Value, lines: Vec<String>) -> Result<(), ToolError> {
    let slot = encoded
        .get_mut("lines")
        .ok_or_else(|| ToolError::internal("a capture encoded without its lines"))?;
    *slot = Value::Array(lines.into_iter().map(Value::String).collect());
    Ok(())
}
