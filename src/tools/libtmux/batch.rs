//! The family's `call_read_tools_batch` under `--profile libtmux`: at most sixteen calls
//! of the tools its capability record names (`nestedAuthority`, read from the tool's own
//! `_meta`), run as paneward's read batch runs its rows ([`run_rows`]): each row a call
//! of this profile's tool through the request path, at the readonly tier.

use rmcp::model::JsonObject;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use crate::generated::libtmux::types::{
    CallReadToolsBatchInput, CallReadToolsBatchInputOnError, CallReadToolsBatchOutput,
};
use crate::generated::libtmux::TOOLS;
use crate::guard::ReadGate;
use crate::runtime::{Encoded, ToolError};
use crate::tools::batch::rows::run_rows;

use super::target::bad_input;
use super::views::typed;
use crate::runtime::family_error::row_error;

/// The most operations one batch takes, as the family's.
const MAX_OPERATIONS: usize = 16;

/// The tools a read batch may call: the `nestedAuthority` of its capability record.
fn nested_authority() -> Vec<String> {
    TOOLS
        .iter()
        .find(|spec| spec.name == "call_read_tools_batch")
        .and_then(|spec| spec.meta)
        .and_then(|meta| serde_json::from_str::<Value>(meta).ok())
        .and_then(|meta| {
            meta.pointer("/com.git-pull.libtmux-mcp~1capability/nestedAuthority")
                .cloned()
        })
        .and_then(|names| serde_json::from_value(names).ok())
        .unwrap_or_default()
}

pub async fn call_read_tools_batch(
    gate: &ReadGate<'_>,
    input: CallReadToolsBatchInput,
) -> Result<Encoded<CallReadToolsBatchOutput>, ToolError> {
    let stop = !matches!(input.on_error, CallReadToolsBatchInputOnError::Continue);
    let operations = serde_json::to_value(&input.operations).map_err(|e| ToolError::internal(e.to_string()))?;
    let operations = operations.as_array().cloned().unwrap_or_default();
    if operations.is_empty() || operations.len() > MAX_OPERATIONS {
        return Err(bad_input(format!(
            "operations must hold from 1 to {MAX_OPERATIONS} calls, not {}",
            operations.len()
        )));
    }
    let allowed = nested_authority();
    let calls: Vec<(String, Option<JsonObject>)> = operations
        .iter()
        .map(|operation| {
            let tool = operation["tool"].as_str().unwrap_or_default().to_string();
            let arguments = operation.get("arguments").and_then(Value::as_object).cloned();
            (tool, arguments)
        })
        .collect();
    if let Some((tool, _)) = calls.iter().find(|(tool, _)| !allowed.contains(tool)) {
        return Err(bad_input(format!("{tool} cannot be called from call_read_tools_batch")));
    }
    let outcomes = run_rows(gate, &calls).await;
    let mut reply = BatchReply::new(stop);
    for (index, ((tool, _), outcome)) in calls.iter().zip(outcomes).enumerate() {
        match outcome.result {
            // A row's result is the whole tool result, as the family nests it.
            Ok(result) => reply.succeeded(
                index,
                tool,
                json!({
                    "content": [{"type": "text", "text": result.to_string()}],
                    "isError": false,
                    "resultType": "complete",
                    "structuredContent": result,
                }),
            ),
            Err(error) => {
                if reply.failed(index, tool, &error) {
                    break;
                }
            }
        }
    }
    reply.typed()
}

/// The family's batch reply (`call_read_tools_batch`, `send_keys_batch`), row by row:
/// each row's index, tool and result or error, the counts, and where it stopped.
pub(super) struct BatchReply {
    stop: bool,
    results: Vec<Value>,
    succeeded: u64,
    failed: u64,
    stopped_at: Value,
}

impl BatchReply {
    /// An empty reply of a batch that stops at its first failed row (`stop`) or goes on.
    pub(super) fn new(stop: bool) -> Self {
        Self {
            stop,
            results: Vec::new(),
            succeeded: 0,
            failed: 0,
            stopped_at: Value::Null,
        }
    }

    /// Row `index`, a call of `tool`, answered `result`.
    pub(super) fn succeeded(&mut self, index: usize, tool: &str, result: Value) {
        self.succeeded += 1;
        self.results.push(json!({
            "index": index, "tool": tool, "success": true, "resultTruncated": false, "error": null,
            "result": result,
        }));
    }

    /// Row `index`, a call of `tool`, failed with `error`; true when the batch stops here.
    pub(super) fn failed(&mut self, index: usize, tool: &str, error: &ToolError) -> bool {
        self.failed += 1;
        self.results.push(json!({
            "index": index, "tool": tool, "success": false, "resultTruncated": false,
            "result": null, "error": row_error(error),
        }));
        if self.stop {
            self.stopped_at = json!(index);
        }
        self.stop
    }

    /// The reply, in the batch tool's generated output.
    pub(super) fn typed<T: DeserializeOwned + Serialize>(self) -> Result<Encoded<T>, ToolError> {
        typed(json!({
            "onError": if self.stop { "stop" } else { "continue" },
            "results": self.results,
            "succeeded": self.succeeded,
            "failed": self.failed,
            "stoppedAt": self.stopped_at,
            "truncated": false,
            "truncatedBytes": 0,
        }))
    }
}
