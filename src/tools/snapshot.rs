//! `snapshot_pane`: a pane's state and its bounded text from one tmux round trip.

use crate::call::error::ToolError;
use crate::generated::types::{
    SnapshotPaneInput, SnapshotPaneOutput, SnapshotPaneOutputPane, SnapshotPaneOutputPaneGeometry,
};
use crate::guard::ReadGate;

use crate::tools::args;
use crate::tools::pane::{capture, describe_pane, parse_pane, SNAPSHOT_FIELDS};
use crate::tools::text::{keep_newest, split_capture};

pub async fn snapshot_pane(gate: &ReadGate<'_>, input: SnapshotPaneInput) -> Result<SnapshotPaneOutput, ToolError> {
    let pane = args::pane_id("/pane_id", &input.pane_id)?;
    let max_lines = args::max_lines("/max_lines", input.max_lines)?;
    // The capture comes first: unlike display-message, it fails for a missing pane.
    let [text, state] = gate
        .run_each([
            capture(pane, input.history.unwrap_or(false)),
            describe_pane(pane, &SNAPSHOT_FIELDS),
        ])
        .await?;
    let state = parse_pane(pane, &state, gate.app().caller.as_ref())?;
    let bounded = keep_newest(split_capture(&text), max_lines);
    Ok(SnapshotPaneOutput {
        dead: state.dead,
        exit_status: state.exit_status,
        truncated: bounded.truncated(),
        truncated_lines: Some(bounded.truncated_lines),
        truncated_bytes: Some(bounded.truncated_bytes),
        lines: bounded.lines,
        pane: SnapshotPaneOutputPane {
            active: state.active,
            current_command: state.current_command,
            geometry: SnapshotPaneOutputPaneGeometry {
                height: state.height,
                left: state.left,
                top: state.top,
                width: state.width,
            },
            id: state.id.to_string(),
            index: state.index,
            is_caller: state.is_caller,
            session: state.session_name,
            window: state.window_name,
            window_id: state.window_id,
        },
    })
}
