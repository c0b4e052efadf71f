//! libtmux-mcp's tools for listing and reading sessions, windows and panes, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.

use crate::generated::python::types::*;
use crate::guard::ReadGate;
use crate::runtime::ToolError;

use super::models::{self, Scope};
use super::not_adapted;
use super::target::{check_socket, Server, Targeting};

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

pub async fn get_pane_info(gate: &ReadGate<'_>, input: GetPaneInfoInput) -> Result<GetPaneInfoOutput, ToolError> {
    let GetPaneInfoInput {
        pane_id,
        session_id,
        session_name,
        socket_name,
        window_id,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let targeting = Targeting {
        pane_id: pane_id.as_deref(),
        session_id: session_id.as_deref(),
        session_name: session_name.as_deref(),
        window_id: window_id.as_deref(),
        window_index: None,
    };
    let server = Server::read(gate).await?;
    let pane = server.pane(&targeting)?;
    let id = pane.id.as_str();
    let record = models::one(models::panes(gate, Scope::Target(id)).await?, "pane_id", id)?;
    models::typed(record)
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

pub async fn list_sessions(gate: &ReadGate<'_>, input: ListSessionsInput) -> Result<ListSessionsOutput, ToolError> {
    let ListSessionsInput { filters, socket_name } = input;
    check_socket(gate, socket_name.as_deref())?;
    if !matches!(filters, ListSessionsInputFilters::Null) {
        return Err(not_adapted("list_sessions with filters"));
    }
    let result = models::sessions(gate)
        .await?
        .into_iter()
        .map(models::typed)
        .collect::<Result<_, _>>()?;
    Ok(ListSessionsOutput { result })
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
