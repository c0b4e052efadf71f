//! `call_read_tools_batch`: up to sixteen inspect calls, each through the same request
//! path as a top-level call, in one reply of at most 1,000,000 bytes.
//!
//! The limit is on the whole JSON-RPC response line as the stdio transport writes it,
//! and that line holds the results twice (`structuredContent` and its text copy). When
//! the results do not fit, whole nested results are dropped, largest first; the bytes
//! each drop saves are computed exactly, and the final line is measured to confirm.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::app::App;
use crate::call::error::ToolError;
use crate::call::runtime::{encode_output, CallContext, Tier};
use crate::generated::types::{
    CallReadToolsBatchInput, CallReadToolsBatchInputOnError as OnError, CallReadToolsBatchInputOperationsItem,
    CallReadToolsBatchOutput, CallReadToolsBatchOutputResultsItem as Row,
};
use crate::guard::ReadGate;

/// The most bytes of one JSON-RPC response line, newline included (the contract's own
/// number: clients and hosts cap what they read per message).
pub const REPLY_LINE_LIMIT: usize = 1_000_000;

/// What one row of a batch came to, before any envelope encodes it.
pub struct RowOutcome {
    pub result: Result<Value, ToolError>,
    /// From the start of the batch's rows to this row's end.
    pub elapsed: Duration,
}

type NestedCall<'a> = Pin<Box<dyn Future<Output = RowOutcome> + Send + 'a>>;

/// Runs one operation as a top-level call at the readonly tier would run. Boxed because
/// the request path can lead back here (batch, dispatch, batch): the future's type
/// would otherwise contain itself.
fn call_nested<'a>(
    app: &'a App,
    batch: &'a CallContext,
    started: Instant,
    tool: &'a str,
    arguments: Option<JsonObject>,
) -> NestedCall<'a> {
    Box::pin(async move {
        let context = batch.row_of();
        let result = if tool == "call_read_tools_batch" {
            Err(ToolError::invalid_argument("/tool", "a batch cannot hold a batch"))
        } else {
            crate::call::run(app, Tier::Readonly, tool, arguments, &context).await
        };
        RowOutcome {
            result,
            elapsed: started.elapsed(),
        }
    })
}

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
) -> Result<CallReadToolsBatchOutput, ToolError> {
    let operations = input
        .operations
        .ok_or_else(|| ToolError::invalid_argument("/operations", "must be a list of 1 to 16 operations, not null"))?;
    let on_error = input.on_error.unwrap_or(OnError::Stop);
    let calls = operations.iter().map(split).collect::<Result<Vec<_>, _>>()?;
    let outcomes = run_rows(gate.app(), gate.context(), &calls, on_error == OnError::Stop).await;
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
    fit(gate.context(), output, REPLY_LINE_LIMIT)
}

/// Runs the operations in order. Over a control connection they are all sent at once:
/// tmux still runs them one after another, in order, but none waits for the previous
/// reply. They only read, so those after a failure that stops the batch change nothing
/// (their outcomes are dropped). Separate tmux processes could overtake each other, so
/// without the connection each waits for the one before.
/// Every envelope of the batch runs its rows here.
pub async fn run_rows(
    app: &App,
    context: &CallContext,
    calls: &[(String, Option<JsonObject>)],
    stop_on_error: bool,
) -> Vec<RowOutcome> {
    let started = Instant::now();
    if app.backend.keeps_order().await {
        let nested = calls
            .iter()
            .map(|(tool, arguments)| call_nested(app, context, started, tool, arguments.clone()))
            .collect();
        return together(nested).await;
    }
    let mut outcomes = Vec::with_capacity(calls.len());
    for (tool, arguments) in calls {
        let outcome = call_nested(app, context, started, tool, arguments.clone()).await;
        let stop = outcome.result.is_err() && stop_on_error;
        outcomes.push(outcome);
        if stop {
            break;
        }
    }
    outcomes
}

/// Drives `calls` together and returns their outcomes in the order given.
async fn together(mut calls: Vec<NestedCall<'_>>) -> Vec<RowOutcome> {
    let mut outcomes: Vec<Option<RowOutcome>> = calls.iter().map(|_| None).collect();
    std::future::poll_fn(|context| {
        let mut pending = false;
        for (call, outcome) in calls.iter_mut().zip(outcomes.iter_mut()) {
            if outcome.is_none() {
                match call.as_mut().poll(context) {
                    std::task::Poll::Ready(done) => *outcome = Some(done),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    outcomes.into_iter().flatten().collect()
}

/// More than the response line for `structured` can take: the line with `null` in its
/// place, plus the compact JSON, plus its copy as a JSON string, where no byte takes
/// more than six (`\u001f`).
pub(crate) fn line_bound(context: &CallContext, structured: &Value) -> Result<usize, ToolError> {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    serde_json::to_writer(&mut count, structured)
        .map_err(|e| ToolError::internal(format!("cannot measure a reply: {e}")))?;
    Ok(context.reply_line_len(Value::Null)? + 7 * count.0)
}

/// What dropping one row's result saves on the response line.
struct Droppable {
    row: usize,
    /// Bytes the line loses: the result in `structuredContent` and, escaped, in the
    /// text copy, less the `null` that replaces it in both, plus one byte in each for
    /// `resultTruncated` turning from `false` to `true`.
    saving: usize,
    /// The result's compact JSON length, which `truncatedBytes` counts.
    size: usize,
}

fn droppable(row: usize, result: &Value) -> Result<Droppable, ToolError> {
    let compact =
        serde_json::to_string(result).map_err(|e| ToolError::internal(format!("cannot measure a result: {e}")))?;
    let escaped = serde_json::to_string(&compact)
        .map_err(|e| ToolError::internal(format!("cannot measure a result: {e}")))?
        .len()
        - 2;
    let null = "null".len();
    Ok(Droppable {
        row,
        saving: (compact.len() - null) + (escaped - null) + 2,
        size: compact.len(),
    })
}

/// Replaces a row's result with `null` and marks it.
fn drop_row(output: &mut CallReadToolsBatchOutput, next: Droppable) -> Droppable {
    if let Some(row) = output.results.get_mut(next.row) {
        row.result = Value::Null;
        row.result_truncated = true;
    }
    next
}

fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Drops nested results, largest first, until the response line fits in `limit` bytes.
///
/// # Errors
/// The reply cannot be measured, or does not fit even with every result dropped (the
/// rest of a reply is bounded far below the limit, so this is a paneward fault).
fn fit(
    context: &CallContext,
    mut output: CallReadToolsBatchOutput,
    limit: usize,
) -> Result<CallReadToolsBatchOutput, ToolError> {
    let encoded = encode_output(&output)?;
    // Most replies are far below the limit: a bound from one counting pass settles
    // them without building and measuring the whole response line.
    if line_bound(context, &encoded)? <= limit {
        return Ok(output);
    }
    let full = context.reply_line_len(encoded)?;
    if full <= limit {
        return Ok(output);
    }
    let mut queue = Vec::new();
    for (row, item) in output.results.iter().enumerate() {
        if !item.result.is_null() {
            queue.push(droppable(row, &item.result)?);
        }
    }
    // Largest first; of equal ones, the later row goes first so earlier rows survive.
    queue.sort_by(|a, b| b.saving.cmp(&a.saving).then(b.row.cmp(&a.row)));
    let mut queue = queue.into_iter();
    // `truncated` turns from `false` to `true` in both copies.
    let mut predicted = full - 2;
    let mut dropped = 0usize;
    let fits = |predicted: usize, dropped: usize| predicted + 2 * (digits(dropped) - 1) <= limit;
    while !fits(predicted, dropped) {
        let Some(next) = queue.next() else { break };
        let next = drop_row(&mut output, next);
        predicted -= next.saving;
        dropped += next.size;
    }
    output.truncated = true;
    output.truncated_bytes = i64::try_from(dropped).unwrap_or(i64::MAX);
    // Confirm on the real encoding; should the prediction ever be short, keep dropping.
    loop {
        let measured = context.reply_line_len(encode_output(&output)?)?;
        if measured <= limit {
            if measured != predicted + 2 * (digits(dropped) - 1) {
                tracing::warn!(measured, predicted, "batch reply size prediction was off");
            }
            return Ok(output);
        }
        let Some(next) = queue.next() else {
            return Err(ToolError::internal(format!(
                "the batch reply is {measured} bytes with every result dropped, over the {limit}-byte limit"
            )));
        };
        let next = drop_row(&mut output, next);
        predicted -= next.saving;
        dropped += next.size;
        output.truncated_bytes = i64::try_from(dropped).unwrap_or(i64::MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::RequestId;
    use serde_json::json;

    #[test]
    fn the_quick_bound_is_never_below_the_real_line() {
        let context = CallContext::for_request(RequestId::String("a-long-request-id".into()));
        for structured in [
            json!({}),
            json!({"lines": ["plain", "\u{1f}\u{1e}\u{0}", "\"quoted\" \\ back", "ünï ✓"]}),
            json!({"lines": vec!["\u{1}"; 500]}),
        ] {
            let real = context.reply_line_len(structured.clone()).unwrap();
            assert!(line_bound(&context, &structured).unwrap() >= real, "{structured}");
        }
    }

    fn row(index: i64, result: Value) -> Row {
        Row {
            index,
            tool: "capture_pane".into(),
            success: true,
            error: None,
            result,
            result_truncated: false,
        }
    }

    fn output(results: Vec<Row>) -> CallReadToolsBatchOutput {
        CallReadToolsBatchOutput {
            failed: 0,
            succeeded: i64::try_from(results.len()).unwrap(),
            on_error: "stop".into(),
            results,
            stopped_at: None,
            truncated: false,
            truncated_bytes: 0,
        }
    }

    /// Text that JSON escapes heavily in the text copy (quotes, backslashes, controls).
    fn awkward(n: usize) -> Value {
        json!({"lines": vec!["a \"quoted\" \\ path\u{1}\té".repeat(n); 3]})
    }

    fn measure(context: &CallContext, output: &CallReadToolsBatchOutput) -> usize {
        context.reply_line_len(encode_output(output).unwrap()).unwrap()
    }

    #[test]
    fn a_reply_that_fits_is_left_alone() {
        let context = CallContext::for_request(RequestId::Number(7));
        let small = output(vec![row(0, awkward(1))]);
        let fitted = fit(&context, small, REPLY_LINE_LIMIT).unwrap();
        assert!(!fitted.truncated && fitted.results[0].result == awkward(1));
    }

    #[test]
    fn the_largest_results_go_first_and_the_prediction_is_exact() {
        let context = CallContext::for_request(RequestId::String("req-1".into()));
        let rows = vec![
            row(0, awkward(50)),
            row(1, awkward(400)),
            row(2, awkward(10)),
            row(3, awkward(400)),
        ];
        let before = output(rows);
        let full = measure(&context, &before);
        // One large result saves about 80 kB: room for all but the two largest.
        let limit = full - 100_000;
        let fitted = fit(&context, before.clone(), limit).unwrap();
        let kept: Vec<bool> = fitted.results.iter().map(|r| !r.result_truncated).collect();
        assert_eq!(kept, [true, false, true, false]);
        assert_eq!(fitted.results[0].result, before.results[0].result);
        assert!(fitted.results[1].result.is_null());
        assert!(fitted.truncated);
        let dropped = 2 * serde_json::to_string(&awkward(400)).unwrap().len();
        assert_eq!(fitted.truncated_bytes, i64::try_from(dropped).unwrap());
        // Exactness: dropping one row at a time and predicting matches re-measuring.
        let measured = measure(&context, &fitted);
        assert!(measured <= limit);
        let savings: usize = [1, 3]
            .iter()
            .map(|i| droppable(*i, &before.results[*i].result).unwrap().saving)
            .sum();
        assert_eq!(measured, full - 2 - savings + 2 * (digits(dropped) - 1));
    }

    #[test]
    fn equal_results_drop_the_later_rows_first() {
        let context = CallContext::nested();
        let before = output(vec![row(0, awkward(100)), row(1, awkward(100)), row(2, awkward(100))]);
        let limit = measure(&context, &before) - 100;
        let fitted = fit(&context, before, limit).unwrap();
        let kept: Vec<bool> = fitted.results.iter().map(|r| !r.result_truncated).collect();
        assert_eq!(kept, [true, true, false]);
    }

    #[test]
    fn digit_counts() {
        assert_eq!((digits(0), digits(9), digits(10), digits(999_999)), (1, 1, 2, 6));
    }
}
