//! `capture_pane`: a pane's bounded text, the visible screen or the scrollback too.

use crate::call::error::ToolError;
use crate::generated::types::{CapturePaneInput, CapturePaneOutput};
use crate::guard::ReadGate;
use crate::tools::args;
use crate::tools::pane::capture;
use crate::tools::text::{keep_newest, split_capture};

/// `capture_pane`: see the tool's description in `schemas/tools/capture_pane.json`.
///
/// # Errors
/// A bad pane id or `max_lines`, a missing pane (`capture-pane` itself fails for one),
/// or tmux failing.
pub async fn capture_pane(gate: &ReadGate<'_>, input: CapturePaneInput) -> Result<CapturePaneOutput, ToolError> {
    let pane = args::pane_id("/pane_id", &input.pane_id)?;
    let max_lines = args::max_lines("/max_lines", input.max_lines)?;
    let history = input.history.unwrap_or(false);
    let text = gate.run(capture(pane, history)).await?;
    let bounded = keep_newest(split_capture(&text), max_lines);
    Ok(CapturePaneOutput {
        history,
        pane_id: pane.to_string(),
        truncated: bounded.truncated(),
        truncated_lines: u64::try_from(bounded.truncated_lines).unwrap_or(0),
        truncated_bytes: u64::try_from(bounded.truncated_bytes).unwrap_or(0),
        lines: bounded.lines,
    })
}
