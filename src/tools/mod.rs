//! The hand-written tool handlers: one module per tool group, all reached through
//! the generated [`ToolHandlers`] trait implemented here on [`App`].

pub mod args;
pub mod batch;
pub mod capture;
pub mod cursor;
pub mod pane;
pub mod search;
pub mod since;
pub mod snapshot;
pub mod tail;
pub mod text;

use crate::app::App;
use crate::generated::types::{
    CallReadToolsBatchInput, CallReadToolsBatchOutput, CapturePaneInput, CapturePaneOutput, CaptureSinceInput,
    CaptureSinceOutput, SearchPanesInput, SearchPanesOutput, SendKeysBatchInput, SendKeysBatchOutput,
    SnapshotPaneInput, SnapshotPaneOutput,
};
use crate::generated::ToolHandlers;
use crate::runtime::{CallContext, ToolError};

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

    async fn send_keys_batch(
        &self,
        _context: &CallContext,
        _input: SendKeysBatchInput,
    ) -> Result<SendKeysBatchOutput, ToolError> {
        Err(ToolError::not_implemented("send_keys_batch"))
    }

    async fn snapshot_pane(
        &self,
        _context: &CallContext,
        input: SnapshotPaneInput,
    ) -> Result<SnapshotPaneOutput, ToolError> {
        snapshot::snapshot_pane(self, input).await
    }
}
