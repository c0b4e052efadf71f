//! `snapshot_pane`: a pane's state and its bounded text from one tmux round trip (more
//! only when blank rows hide how far back the newest text starts).

use crate::generated::types::{
    SnapshotPaneInput, SnapshotPaneOutput, SnapshotPaneOutputPane, SnapshotPaneOutputPaneGeometry,
};
use crate::guard::ReadGate;
use crate::runtime::error::ToolError;

use crate::tools::args;
use crate::tools::observe::capture::read_newest;
use crate::tools::observe::pane_state::{parse_pane, SNAPSHOT_FIELDS};

pub async fn snapshot_pane(gate: &ReadGate<'_>, input: SnapshotPaneInput) -> Result<SnapshotPaneOutput, ToolError> {
    let SnapshotPaneInput {
        history,
        max_lines,
        pane_id,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let max_lines = args::max_lines("/max_lines", max_lines)?;
    let history = history.unwrap_or(false);
    let (text, state) = read_newest(gate, pane, history, max_lines, &SNAPSHOT_FIELDS).await?;
    let state = parse_pane(pane, &state, gate.state().caller.as_ref())?;
    Ok(SnapshotPaneOutput {
        dead: state.dead,
        exit_status: state.exit_status,
        truncated: text.truncated(),
        truncated_lines: Some(i64::try_from(text.truncated_lines).unwrap_or(i64::MAX)),
        truncated_bytes: text
            .truncated_bytes
            .map(|bytes| i64::try_from(bytes).unwrap_or(i64::MAX)),
        lines: text.lines,
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
