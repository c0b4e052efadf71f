//! libtmux-mcp's tools for listing and reading sessions, windows and panes, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.

use crate::generated::python::types::*;
use crate::guard::ReadGate;
use crate::runtime::ToolError;

use super::not_adapted;

pub async fn capture_pane(_gate: &ReadGate<'_>, _input: CapturePaneInput) -> Result<String, ToolError> {
    Err(not_adapted("capture_pane"))
}

pub async fn capture_since(_gate: &ReadGate<'_>, _input: CaptureSinceInput) -> Result<String, ToolError> {
    Err(not_adapted("capture_since"))
}

pub async fn display_message(
    _gate: &ReadGate<'_>,
    _input: DisplayMessageInput,
) -> Result<DisplayMessageOutput, ToolError> {
    Err(not_adapted("display_message"))
}

pub async fn find_pane_by_position(
    _gate: &ReadGate<'_>,
    _input: FindPaneByPositionInput,
) -> Result<FindPaneByPositionOutput, ToolError> {
    Err(not_adapted("find_pane_by_position"))
}

pub async fn get_pane_info(_gate: &ReadGate<'_>, _input: GetPaneInfoInput) -> Result<GetPaneInfoOutput, ToolError> {
    Err(not_adapted("get_pane_info"))
}

pub async fn get_server_info(
    _gate: &ReadGate<'_>,
    _input: GetServerInfoInput,
) -> Result<GetServerInfoOutput, ToolError> {
    Err(not_adapted("get_server_info"))
}

pub async fn get_session_info(
    _gate: &ReadGate<'_>,
    _input: GetSessionInfoInput,
) -> Result<GetSessionInfoOutput, ToolError> {
    Err(not_adapted("get_session_info"))
}

pub async fn get_window_info(
    _gate: &ReadGate<'_>,
    _input: GetWindowInfoInput,
) -> Result<GetWindowInfoOutput, ToolError> {
    Err(not_adapted("get_window_info"))
}

pub async fn list_panes(_gate: &ReadGate<'_>, _input: ListPanesInput) -> Result<ListPanesOutput, ToolError> {
    Err(not_adapted("list_panes"))
}

pub async fn list_servers(_gate: &ReadGate<'_>, _input: ListServersInput) -> Result<ListServersOutput, ToolError> {
    Err(not_adapted("list_servers"))
}

pub async fn list_sessions(_gate: &ReadGate<'_>, _input: ListSessionsInput) -> Result<ListSessionsOutput, ToolError> {
    Err(not_adapted("list_sessions"))
}

pub async fn list_windows(_gate: &ReadGate<'_>, _input: ListWindowsInput) -> Result<ListWindowsOutput, ToolError> {
    Err(not_adapted("list_windows"))
}

pub async fn search_panes(_gate: &ReadGate<'_>, _input: SearchPanesInput) -> Result<String, ToolError> {
    Err(not_adapted("search_panes"))
}

pub async fn snapshot_pane(_gate: &ReadGate<'_>, _input: SnapshotPaneInput) -> Result<String, ToolError> {
    Err(not_adapted("snapshot_pane"))
}
