//! `call_read_tools_batch`: up to sixteen inspect calls, each through the same request
//! path as a top-level call, in one reply of at most 1,000,000 bytes.
//!
//! The limit is on the whole JSON-RPC response line as the stdio transport writes it,
//! and that line holds the results twice: in `structuredContent`, and in the text,
//! where each row's result is its compact JSON in a table cell (or the text is the
//! compact JSON; `runtime::reply_text`), so a result costs the same bytes in both. When
//! the results do not fit, whole results are kept smallest first and pane text left over
//! keeps its newest lines within a share of the room (see [`fit`]); the bytes each
//! result takes are computed exactly, and the final line is measured to confirm.

use crate::limits::REPLY_LINE_MAX_BYTES;

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::generated::types::{
    BatchRow as Row, CallReadToolsBatchInput, CallReadToolsBatchInputOnError as OnError,
    CallReadToolsBatchInputOperationsItem, CallReadToolsBatchOutput,
};
use crate::guard::ReadGate;
use crate::runtime::error::ToolError;
use crate::runtime::{encode_output, Encoded};
use crate::tools::batch::fit::{fit, with_results_moved, RowsReply};
use crate::tools::batch::rows::run_rows;

/// The tool name and arguments of an operation, as the caller sent them (the typed
/// operation was validated against its branch of the input schema already).
fn split(operation: &CallReadToolsBatchInputOperationsItem) -> Result<(String, Option<JsonObject>), ToolError> {
    let Value::Object(mut fields) = encode_output(operation)? else {
        return Err(ToolError::internal("a batch operation did not encode as an object"));
    };
    let tool = match fields.remove("tool") {
        Some(Value::String(tool)) => tool,
        _ => return Err(ToolError::internal("a batch operation has no tool name")),
    };
    let arguments = match fields.remove("arguments") {
        Some(Value::Object(arguments)) => Some(arguments),
        _ => None,
    };
    Ok((tool, arguments))
}

/// `call_read_tools_batch`: see the tool's description in
/// `schemas/tools/call_read_tools_batch.json`; each row's `result` is the nested tool's
/// `structuredContent`, and `truncatedBytes` counts the compact JSON of the results dropped.
///
/// # Errors
/// `operations: null`, or a fault in paneward; a failing operation is a failed row.
pub async fn call_read_tools_batch(
    gate: &ReadGate<'_>,
    input: CallReadToolsBatchInput,
) -> Result<Encoded<CallReadToolsBatchOutput>, ToolError> {
    let CallReadToolsBatchInput { on_error, operations } = input;
    let operations = operations
        .ok_or_else(|| ToolError::invalid_argument("/operations", "must be a list of 1 to 16 operations, not null"))?;
    let on_error = on_error.unwrap_or(OnError::Stop);
    let calls = operations.iter().map(split).collect::<Result<Vec<_>, _>>()?;
    let outcomes = run_rows(gate, &calls).await;
    let mut results = Vec::with_capacity(operations.len());
    let mut stopped_at = None;
    for (index, ((tool, _), outcome)) in calls.into_iter().zip(outcomes).enumerate() {
        let index = i64::try_from(index).unwrap_or(i64::MAX);
        let failed = outcome.result.is_err();
        results.push(match outcome.result {
            Ok(result) => Row {
                index,
                tool,
                success: true,
                error: None,
                result,
                result_truncated: false,
            },
            Err(error) => Row {
                index,
                tool,
                success: false,
                error: Some(error.message().to_string()),
                result: Value::Null,
                result_truncated: false,
            },
        });
        if failed && on_error == OnError::Stop {
            stopped_at = Some(index);
            break;
        }
    }
    let succeeded = results.iter().filter(|row| row.success).count();
    let output = CallReadToolsBatchOutput {
        failed: i64::try_from(results.len() - succeeded).unwrap_or(i64::MAX),
        succeeded: i64::try_from(succeeded).unwrap_or(i64::MAX),
        on_error: on_error.to_string(),
        results,
        stopped_at,
        truncated: false,
        truncated_bytes: 0,
    };
    with_results_moved(fit(gate.context(), output, REPLY_LINE_MAX_BYTES)?)
}

impl RowsReply for CallReadToolsBatchOutput {
    fn rows(&self) -> &[Row] {
        &self.results
    }
    fn rows_mut(&mut self) -> &mut [Row] {
        &mut self.results
    }
    fn set_truncated(&mut self, bytes: usize) {
        self.truncated = true;
        self.truncated_bytes = i64::try_from(bytes).unwrap_or(i64::MAX);
    }
}
