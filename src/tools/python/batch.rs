//! `call_read_tools_batch` in the envelope of libtmux-mcp's Python server
//! (`--profile python`, `schemas/profiles/python/call_read_tools_batch.json`): the same
//! rows as the default batch ([`crate::tools::batch::rows::run_rows`]), each row a call
//! of the profile's own tool, encoded the Python way, and held to the same
//! 1,000,000-byte response line.

use crate::limits::{BATCH_MAX_OPERATIONS, REPLY_LINE_MAX_BYTES};
use rmcp::model::JsonObject;
use serde_json::{json, Value};

use crate::generated::python::types::{CallReadToolsBatchInput, CallReadToolsBatchOutput};
use crate::generated::python::TOOLS;
use crate::guard::ReadGate;
use crate::runtime::error::{short_echo, ToolError};
use crate::runtime::{CallContext, Toolset};
use crate::tools::batch::fit::line_bound;
use crate::tools::batch::rows::{run_rows, RowOutcome};

use super::target::upstream_error;

/// Runs the batch that `input` asks for and encodes it; called by the profile's
/// generated dispatch (`generated::python::dispatch`).
///
/// # Errors
/// More than [`BATCH_MAX_OPERATIONS`] operations, or a fault in paneward; a failing operation
/// is a failed row.
pub async fn call_read_tools_batch(
    gate: &ReadGate<'_>,
    input: CallReadToolsBatchInput,
) -> Result<CallReadToolsBatchOutput, ToolError> {
    let context = gate.context();
    let CallReadToolsBatchInput {
        on_error,
        operations: items,
    } = input;
    let arguments = serde_json::json!({"on_error": on_error, "operations": items});
    let (calls, stop_on_error) = operations(&arguments)?;
    let refusals: Vec<Option<String>> = calls.iter().map(|(tool, _)| refusal(tool)).collect();
    // Stopping on errors, nothing after the first refused row runs.
    let first_refused = refusals.iter().position(Option::is_some);
    let runnable: Calls = calls
        .iter()
        .zip(&refusals)
        .enumerate()
        .filter(|(index, (_, refused))| {
            refused.is_none() && (!stop_on_error || first_refused.is_none_or(|first| *index < first))
        })
        .map(|(_, (call, _))| call.clone())
        .collect();
    let mut ran = run_rows(gate, &runnable).await.into_iter();
    let mut rows = Vec::with_capacity(calls.len());
    for refused in refusals {
        let row = match refused {
            Some(message) => Row::Refused(message),
            None => match ran.next() {
                Some(outcome) => Row::Ran(outcome),
                None => break,
            },
        };
        let failed = !row.succeeded();
        rows.push(row);
        if failed && stop_on_error {
            break;
        }
    }
    let output = encode(context, &calls, rows, stop_on_error)?;
    let output = fit(context, output, REPLY_LINE_MAX_BYTES)?;
    serde_json::from_value(output)
        .map_err(|e| ToolError::internal(format!("the batch reply does not fit its type: {e}")))
}

type Calls = Vec<(String, Option<JsonObject>)>;

fn operations(arguments: &Value) -> Result<(Calls, bool), ToolError> {
    let Some(items) = arguments.get("operations").and_then(Value::as_array) else {
        return Err(ToolError::invalid_argument(
            "/operations",
            "must be a list of operations",
        ));
    };
    if items.is_empty() {
        return Err(upstream_error(
            "ExpectedToolError",
            "operations must contain at least one tool call",
            None,
        ));
    }
    if items.len() > BATCH_MAX_OPERATIONS {
        return Err(ToolError::invalid_argument(
            "/operations",
            format!("at most {BATCH_MAX_OPERATIONS} operations, not {}", items.len()),
        ));
    }
    let calls = items
        .iter()
        .map(|item| {
            let tool = item.get("tool").and_then(Value::as_str).unwrap_or_default().to_string();
            let arguments = item.get("arguments").and_then(Value::as_object).cloned();
            (tool, arguments)
        })
        .collect();
    let stop = arguments.get("on_error").and_then(Value::as_str) != Some("continue");
    Ok((calls, stop))
}

/// Why libtmux-mcp would not run `tool` in a read batch, in its words: a batch, a tool
/// the profile lacks, one that waits up to a ceiling of its own, or one outside the
/// `inspect` toolset. paneward's own gates then hold every row that runs.
fn refusal(tool: &str) -> Option<String> {
    if tool == "call_read_tools_batch" {
        return Some("Batch tools cannot call batch tools recursively.".into());
    }
    let Some(spec) = TOOLS.iter().find(|spec| spec.name == tool) else {
        return Some(format!("Unknown tool: '{}'", short_echo(tool)));
    };
    if spec.meta.is_some_and(|meta| meta.contains("\"self-bounded\"")) {
        return Some(format!(
            "Tool '{tool}' enforces its own wait ceiling and cannot be batched; batching would multiply that ceiling by the operation count. Call it directly."
        ));
    }
    if spec.toolset != Some(Toolset::Inspect) {
        return Some(format!(
            "Tool '{tool}' is not an 'inspect' tool, so it cannot run in a read batch. Call it directly."
        ));
    }
    None
}

/// One row: refused before it ran, or run through the request path.
enum Row {
    Refused(String),
    Ran(RowOutcome),
}

impl Row {
    fn succeeded(&self) -> bool {
        matches!(self, Self::Ran(RowOutcome { result: Ok(_), .. }))
    }
}

/// The Python envelope of the rows: attempted rows in order, up to the first failure
/// when stopping on errors. A row that ran carries the tool's reply as the served
/// style writes it (`context`'s: libtmux-mcp's FastMCP under the profile; content,
/// structured content, `_meta`), as the tool's own call would carry it; a refused one
/// only its error.
fn encode(context: &CallContext, calls: &Calls, rows: Vec<Row>, stop_on_error: bool) -> Result<Value, ToolError> {
    let mut results = Vec::with_capacity(rows.len());
    let (mut succeeded, mut failed, mut stopped_at) = (0u64, 0u64, Value::Null);
    for (index, ((tool, _), row)) in calls.iter().zip(rows).enumerate() {
        let (success, error, content, structured, meta, elapsed) = match row {
            Row::Refused(message) => (false, json!(message), json!([]), Value::Null, Value::Null, 0.0),
            Row::Ran(outcome) => {
                let elapsed = outcome.elapsed.as_secs_f64();
                let success = outcome.result.is_ok();
                let reply = match outcome.result {
                    Ok(value) => context.reply_text().tool_success(tool, value),
                    Err(error) => context.reply_text().failure(&error),
                };
                // Field by field, as the reply would write them: the structured content
                // moves over as it is, not copied through a JSON value of the whole reply.
                let encoded = |value: Result<Value, serde_json::Error>| {
                    value.map_err(|e| ToolError::internal(format!("a batch row could not be encoded: {e}")))
                };
                let content = encoded(serde_json::to_value(&reply.content))?;
                let error = if success {
                    Value::Null
                } else {
                    let texts: Vec<&str> = content
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|block| block.get("text").and_then(Value::as_str))
                        .collect();
                    json!(texts.join("\n"))
                };
                let meta = encoded(serde_json::to_value(&reply.meta))?;
                let structured = reply.structured_content.unwrap_or(Value::Null);
                (success, error, content, structured, meta, elapsed)
            }
        };
        if success {
            succeeded += 1;
        } else {
            failed += 1;
        }
        results.push(json!({
            "index": index,
            "tool": tool,
            "success": success,
            "elapsed_seconds": elapsed,
            "error": error,
            "content": content,
            "structured_content": structured,
            "meta": meta,
        }));
        if !success && stop_on_error {
            stopped_at = json!(index);
            break;
        }
    }
    Ok(json!({
        "results": results,
        "succeeded": succeeded,
        "failed": failed,
        "stopped_at": stopped_at,
        "response_truncated": false,
        "response_truncated_bytes": 0,
    }))
}

/// Elides whole rows' payloads (`content` and `structured_content`), largest first,
/// until the response line fits in `limit` bytes; `response_truncated_bytes` counts
/// their compact JSON.
///
/// # Errors
/// The reply cannot be measured, or does not fit with every payload elided.
fn fit(context: &CallContext, output: Value, limit: usize) -> Result<Value, ToolError> {
    if line_bound(context, &output)? <= limit {
        return Ok(output);
    }
    let mut measured = context.reply_line_len(output.clone())?;
    if measured <= limit {
        return Ok(output);
    }
    let mut fields = match output {
        Value::Object(fields) => fields,
        _ => return Err(ToolError::internal("the batch reply is not an object")),
    };
    let Some(Value::Array(mut results)) = fields.remove("results") else {
        return Err(ToolError::internal("the batch reply has no results"));
    };
    let mut payloads: Vec<Payload> = results.iter().enumerate().filter_map(payload).collect();
    // Largest first; of equal ones, the later row goes first so earlier rows survive.
    payloads.sort_by(|a, b| b.saving.cmp(&a.saving).then(b.row.cmp(&a.row)));
    let mut payloads = payloads.into_iter();
    let mut dropped = 0usize;
    loop {
        // Drop by the predicted saving until the line should fit, then measure once.
        let mut predicted = measured;
        while predicted > limit {
            let Some(next) = payloads.next() else { break };
            if let Some(Value::Object(item)) = results.get_mut(next.row) {
                item.insert("content".into(), elided_content());
                item.insert("structured_content".into(), Value::Null);
            }
            dropped += next.size;
            predicted = predicted.saturating_sub(next.saving);
        }
        let mut candidate = fields.clone();
        candidate.insert("results".into(), Value::Array(results.clone()));
        candidate.insert("response_truncated".into(), json!(true));
        candidate.insert("response_truncated_bytes".into(), json!(dropped));
        let candidate = Value::Object(candidate);
        measured = context.reply_line_len(candidate.clone())?;
        if measured <= limit {
            return Ok(candidate);
        }
        if payloads.len() == 0 {
            return Err(ToolError::internal(format!(
                "the batch reply is {measured} bytes with every result elided, over the {limit}-byte limit"
            )));
        }
    }
}

/// What an elided row's `content` becomes, as libtmux-mcp marks it.
fn elided_content() -> Value {
    json!([{"type": "text", "text": "[... batch truncated nested content ...]"}])
}

/// What eliding one row's payload saves.
struct Payload {
    row: usize,
    /// Bytes the response line loses: the payload in `structuredContent` and, escaped,
    /// in its text copy, less the `[]` and `null` that replace it.
    saving: usize,
    /// The payload's compact JSON length, which `response_truncated_bytes` counts.
    size: usize,
}

fn payload((row, item): (usize, &Value)) -> Option<Payload> {
    let mut saving = 0;
    let mut size = 0;
    let placeholder = elided_content().to_string();
    for (key, empty) in [("content", placeholder.as_str()), ("structured_content", "null")] {
        let Some(value) = item.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        let compact = value.to_string();
        if compact == empty || compact == "[]" {
            continue;
        }
        let escaped = Value::String(compact.clone()).to_string().len() - 2;
        size += compact.len();
        saving += compact.len().saturating_sub(empty.len()) + escaped.saturating_sub(empty.len());
    }
    (size > 0).then_some(Payload { row, saving, size })
}

/// The compact JSON bytes of a row's payload.
#[cfg(test)]
fn payload_size(row: &Value) -> usize {
    payload((0, row)).map_or(0, |p| p.size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::RequestId;

    fn row(index: usize, text: &str) -> Value {
        json!({"index": index, "tool": "capture_pane", "success": true, "elapsed_seconds": 0.0,
               "error": null, "content": [{"type": "text", "text": text}],
               "structured_content": {"lines": [text]}, "meta": null})
    }

    fn output(rows: Vec<Value>) -> Value {
        json!({"results": rows, "succeeded": 3, "failed": 0, "stopped_at": null,
               "response_truncated": false, "response_truncated_bytes": 0})
    }

    #[test]
    fn the_largest_payloads_are_elided_until_the_line_fits() {
        let context = CallContext::for_request(RequestId::Number(1));
        let big = "\"x\" ".repeat(20_000);
        let before = output(vec![row(0, "small"), row(1, &big), row(2, &big)]);
        let limit = context.reply_line_len(before.clone()).unwrap() - 1000;
        let fitted = fit(&context, before.clone(), limit).unwrap();
        assert!(context.reply_line_len(fitted.clone()).unwrap() <= limit);
        assert_eq!(fitted["response_truncated"], true);
        assert_eq!(fitted["results"][0], before["results"][0]);
        assert_eq!(
            fitted["results"][1], before["results"][1],
            "the earlier of equal rows stays"
        );
        assert_eq!(fitted["results"][2]["structured_content"], Value::Null);
        assert_eq!(fitted["results"][2]["content"], elided_content());
        assert_eq!(
            fitted["response_truncated_bytes"],
            json!(payload_size(&before["results"][2]))
        );
    }

    #[test]
    fn more_than_sixteen_operations_are_refused() {
        let ops: Vec<Value> = (0..17).map(|_| json!({"tool": "list_sessions"})).collect();
        let error = operations(&json!({"operations": ops})).unwrap_err();
        assert!(error.message().contains("/operations"), "{}", error.message());
    }
}
