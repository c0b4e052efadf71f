//! The hand-written tool handlers: one module per tool group, all reached through
//! the generated [`ToolHandlers`] trait implemented here on [`App`].

pub mod args;
pub mod keys;
pub mod pane;
pub mod send_keys;
pub mod snapshot;
pub mod text;

use crate::app::App;
use crate::generated::types::{
    CallReadToolsBatchInput, CallReadToolsBatchOutput, SendKeysBatchInput, SendKeysBatchOutput, SendKeysInput,
    SendKeysOutput, SnapshotPaneInput, SnapshotPaneOutput,
};
use crate::generated::ToolHandlers;
use crate::runtime::{CallContext, ToolError};

impl ToolHandlers for App {
    async fn call_read_tools_batch(
        &self,
        _context: &CallContext,
        _input: CallReadToolsBatchInput,
    ) -> Result<CallReadToolsBatchOutput, ToolError> {
        Err(ToolError::not_implemented("call_read_tools_batch"))
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

    async fn snapshot_pane(
        &self,
        _context: &CallContext,
        input: SnapshotPaneInput,
    ) -> Result<SnapshotPaneOutput, ToolError> {
        snapshot::snapshot_pane(self, input).await
    }
}
