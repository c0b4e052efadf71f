//! The hand-written tool handlers: one module per tool group, all reached through
//! the generated [`ToolHandlers`] trait implemented here on [`App`].

pub mod args;
pub mod batch;
pub mod batch_python;
pub mod capture;
pub mod cursor;
pub mod environment;
pub mod hierarchy;
pub mod hooks;
pub mod keys;
pub mod objects;
pub mod options;
pub mod pane;
pub mod search;
pub mod send_keys;
pub mod server;
pub mod since;
pub mod snapshot;
pub mod tail;
pub mod text;

use crate::app::App;
use crate::call::runtime::{CallContext, ToolError};
use crate::generated::types::{
    CallReadToolsBatchInput, CallReadToolsBatchOutput, CapturePaneInput, CapturePaneOutput, CaptureSinceInput,
    CaptureSinceOutput, FindPaneByPositionInput, FindPaneByPositionOutput, GetPaneInfoInput, GetPaneInfoOutput,
    GetServerInfoInput, GetServerInfoOutput, GetSessionInfoInput, GetSessionInfoOutput, GetTmuxVariablesInput,
    GetTmuxVariablesOutput, GetWindowInfoInput, GetWindowInfoOutput, ListPanesInput, ListPanesOutput,
    ListSessionsInput, ListSessionsOutput, ListWindowsInput, ListWindowsOutput, SearchPanesInput, SearchPanesOutput,
    SendKeysBatchInput, SendKeysBatchOutput, SendKeysInput, SendKeysOutput, ShowEnvironmentInput,
    ShowEnvironmentOutput, ShowHooksInput, ShowHooksOutput, ShowOptionInput, ShowOptionOutput, SnapshotPaneInput,
    SnapshotPaneOutput,
};
use crate::generated::ToolHandlers;

impl ToolHandlers for App {
    async fn call_read_tools_batch(
        &self,
        context: &CallContext,
        input: CallReadToolsBatchInput,
    ) -> Result<CallReadToolsBatchOutput, ToolError> {
        batch::call_read_tools_batch(self, context, input).await
    }

    async fn capture_pane(
        &self,
        _context: &CallContext,
        input: CapturePaneInput,
    ) -> Result<CapturePaneOutput, ToolError> {
        capture::capture_pane(self, input).await
    }

    async fn capture_since(
        &self,
        _context: &CallContext,
        input: CaptureSinceInput,
    ) -> Result<CaptureSinceOutput, ToolError> {
        since::capture_since(self, input).await
    }

    async fn search_panes(
        &self,
        _context: &CallContext,
        input: SearchPanesInput,
    ) -> Result<SearchPanesOutput, ToolError> {
        search::search_panes(self, input).await
    }

    async fn find_pane_by_position(
        &self,
        _context: &CallContext,
        input: FindPaneByPositionInput,
    ) -> Result<FindPaneByPositionOutput, ToolError> {
        hierarchy::find_pane_by_position(self, input).await
    }

    async fn get_pane_info(
        &self,
        _context: &CallContext,
        input: GetPaneInfoInput,
    ) -> Result<GetPaneInfoOutput, ToolError> {
        hierarchy::get_pane_info(self, input).await
    }

    async fn get_server_info(
        &self,
        _context: &CallContext,
        _input: GetServerInfoInput,
    ) -> Result<GetServerInfoOutput, ToolError> {
        server::get_server_info(self).await
    }

    async fn get_session_info(
        &self,
        _context: &CallContext,
        input: GetSessionInfoInput,
    ) -> Result<GetSessionInfoOutput, ToolError> {
        hierarchy::get_session_info(self, input).await
    }

    async fn get_tmux_variables(
        &self,
        _context: &CallContext,
        input: GetTmuxVariablesInput,
    ) -> Result<GetTmuxVariablesOutput, ToolError> {
        server::get_tmux_variables(self, input).await
    }

    async fn get_window_info(
        &self,
        _context: &CallContext,
        input: GetWindowInfoInput,
    ) -> Result<GetWindowInfoOutput, ToolError> {
        hierarchy::get_window_info(self, input).await
    }

    async fn list_panes(&self, _context: &CallContext, _input: ListPanesInput) -> Result<ListPanesOutput, ToolError> {
        hierarchy::list_panes(self).await
    }

    async fn list_sessions(
        &self,
        _context: &CallContext,
        _input: ListSessionsInput,
    ) -> Result<ListSessionsOutput, ToolError> {
        hierarchy::list_sessions(self).await
    }

    async fn list_windows(
        &self,
        _context: &CallContext,
        input: ListWindowsInput,
    ) -> Result<ListWindowsOutput, ToolError> {
        hierarchy::list_windows(self, input).await
    }

    async fn send_keys(&self, _context: &CallContext, input: SendKeysInput) -> Result<SendKeysOutput, ToolError> {
        send_keys::send_keys(self, input).await
    }

    async fn send_keys_batch(
        &self,
        _context: &CallContext,
        input: SendKeysBatchInput,
    ) -> Result<SendKeysBatchOutput, ToolError> {
        send_keys::send_keys_batch(self, input).await
    }

    async fn show_environment(
        &self,
        _context: &CallContext,
        input: ShowEnvironmentInput,
    ) -> Result<ShowEnvironmentOutput, ToolError> {
        environment::show_environment(self, input).await
    }

    async fn show_hooks(&self, _context: &CallContext, input: ShowHooksInput) -> Result<ShowHooksOutput, ToolError> {
        hooks::show_hooks(self, input).await
    }

    async fn show_option(&self, _context: &CallContext, input: ShowOptionInput) -> Result<ShowOptionOutput, ToolError> {
        options::show_option(self, input).await
    }

    async fn snapshot_pane(
        &self,
        _context: &CallContext,
        input: SnapshotPaneInput,
    ) -> Result<SnapshotPaneOutput, ToolError> {
        snapshot::snapshot_pane(self, input).await
    }
}
