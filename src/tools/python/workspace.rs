//! libtmux-mcp's tools for creating, arranging and ending sessions, windows and panes, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.

use crate::generated::python::types::*;
use crate::guard::{ChangeGate, EndGate};
use crate::runtime::ToolError;

use super::not_adapted;

pub async fn clear_pane(_gate: &ChangeGate<'_>, _input: ClearPaneInput) -> Result<ClearPaneOutput, ToolError> {
    Err(not_adapted("clear_pane"))
}

pub async fn create_session(
    _gate: &ChangeGate<'_>,
    _input: CreateSessionInput,
) -> Result<CreateSessionOutput, ToolError> {
    Err(not_adapted("create_session"))
}

pub async fn create_window(_gate: &ChangeGate<'_>, _input: CreateWindowInput) -> Result<CreateWindowOutput, ToolError> {
    Err(not_adapted("create_window"))
}

pub async fn kill_pane(_gate: &EndGate<'_>, _input: KillPaneInput) -> Result<KillPaneOutput, ToolError> {
    Err(not_adapted("kill_pane"))
}

pub async fn kill_server(_gate: &EndGate<'_>, _input: KillServerInput) -> Result<KillServerOutput, ToolError> {
    Err(not_adapted("kill_server"))
}

pub async fn kill_session(_gate: &EndGate<'_>, _input: KillSessionInput) -> Result<KillSessionOutput, ToolError> {
    Err(not_adapted("kill_session"))
}

pub async fn kill_window(_gate: &EndGate<'_>, _input: KillWindowInput) -> Result<KillWindowOutput, ToolError> {
    Err(not_adapted("kill_window"))
}

pub async fn move_window(_gate: &ChangeGate<'_>, _input: MoveWindowInput) -> Result<MoveWindowOutput, ToolError> {
    Err(not_adapted("move_window"))
}

pub async fn rename_session(
    _gate: &ChangeGate<'_>,
    _input: RenameSessionInput,
) -> Result<RenameSessionOutput, ToolError> {
    Err(not_adapted("rename_session"))
}

pub async fn rename_window(_gate: &ChangeGate<'_>, _input: RenameWindowInput) -> Result<RenameWindowOutput, ToolError> {
    Err(not_adapted("rename_window"))
}

pub async fn resize_pane(_gate: &ChangeGate<'_>, _input: ResizePaneInput) -> Result<ResizePaneOutput, ToolError> {
    Err(not_adapted("resize_pane"))
}

pub async fn resize_window(_gate: &ChangeGate<'_>, _input: ResizeWindowInput) -> Result<ResizeWindowOutput, ToolError> {
    Err(not_adapted("resize_window"))
}

pub async fn respawn_pane(_gate: &ChangeGate<'_>, _input: RespawnPaneInput) -> Result<RespawnPaneOutput, ToolError> {
    Err(not_adapted("respawn_pane"))
}

pub async fn select_layout(_gate: &ChangeGate<'_>, _input: SelectLayoutInput) -> Result<SelectLayoutOutput, ToolError> {
    Err(not_adapted("select_layout"))
}

pub async fn select_pane(_gate: &ChangeGate<'_>, _input: SelectPaneInput) -> Result<SelectPaneOutput, ToolError> {
    Err(not_adapted("select_pane"))
}

pub async fn select_window(_gate: &ChangeGate<'_>, _input: SelectWindowInput) -> Result<SelectWindowOutput, ToolError> {
    Err(not_adapted("select_window"))
}

pub async fn set_pane_title(
    _gate: &ChangeGate<'_>,
    _input: SetPaneTitleInput,
) -> Result<SetPaneTitleOutput, ToolError> {
    Err(not_adapted("set_pane_title"))
}

pub async fn split_window(_gate: &ChangeGate<'_>, _input: SplitWindowInput) -> Result<SplitWindowOutput, ToolError> {
    Err(not_adapted("split_window"))
}

pub async fn swap_pane(_gate: &ChangeGate<'_>, _input: SwapPaneInput) -> Result<SwapPaneOutput, ToolError> {
    Err(not_adapted("swap_pane"))
}
