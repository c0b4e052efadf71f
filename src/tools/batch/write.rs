//! `call_mutating_tools_batch` and `call_destructive_tools_batch`: up to sixteen calls of
//! tools at or below the batch's tier, in order, in one reply of at most 1,000,000 bytes.
//!
//! Unlike the read batch, rows change tmux and tmux has no transactions, so the whole
//! batch is checked before any row runs: every tool exists and sits at or below the
//! batch's tier, is not a batch itself nor a wait, its arguments pass the tool's own
//! input schema, and a `set_option` row's value passes that tool's own checks; a
//! destructive batch also refuses, before anything runs, a row that would end what
//! holds the caller pane. Each row then runs through the same request
//! path as a direct call (so its own checks, the cohort check before input and the
//! caller check of every ending still run, in tmux, at the row's turn).

use std::time::Instant;

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::generated::types::{
    BatchRow, CallDestructiveToolsBatchInput, CallDestructiveToolsBatchInputOnError, CallDestructiveToolsBatchOutput,
    CallMutatingToolsBatchInput, CallMutatingToolsBatchInputOnError, CallMutatingToolsBatchOutput, WriteBatchRow,
};
use crate::generated::TOOLS;
use crate::guard::end::Ending;
use crate::guard::Rows;
use crate::guard::{ChangeGate, EndGate};
use crate::limits::REPLY_LINE_MAX_BYTES;
use crate::runtime::error::ToolError;
use crate::runtime::facts::CloseBy;
use crate::runtime::reentry::{Ids, Refusal};
use crate::runtime::{encode_output, CallContext, ToolSpec};
use crate::tmux::{PaneId, SessionId, WindowId};
use crate::tools::batch::fit::{fit, RowsReply};
use crate::tools::batch::holds;
use crate::tools::batch::preview::{preview, Planned};
use crate::tools::batch::refs::{self, Outcome, Reference, References};

/// A row as the write batches advertise it. Rows are kept as the read batch's
/// [`BatchRow`] so that [`fit`] shortens both alike; only the `result` schema differs
/// (an object or null, not the read batch's seeded `true`).
fn advertised_row(row: &BatchRow) -> WriteBatchRow {
    let BatchRow {
        error,
        index,
        result,
        result_truncated,
        success,
        tool,
    } = row.clone();
    WriteBatchRow {
        error,
        index,
        // A tool's structured result is always an object (MCP's structuredContent);
        // null is a failed row or a dropped result.
        result: match result {
            Value::Object(fields) => Some(fields),
            _ => None,
        },
        result_truncated,
        success,
        tool,
    }
}

/// One row as the caller sent it (or as `load_workspace` made it).
pub(super) struct Call {
    pub(super) tool: String,
    pub(super) arguments: JsonObject,
    pub(super) references: References,
}

/// A row's `references` as the generated types hold them (both batches' types have the
/// same two fields).
fn references_of<R>(
    references: std::collections::HashMap<String, R>,
    parts: impl Fn(R) -> (i64, String),
) -> References {
    references
        .into_iter()
        .map(|(argument, reference)| {
            let (row, field) = parts(reference);
            // The schema bounds `row` to 0..=15; a negative one cannot pass it.
            let row = usize::try_from(row).unwrap_or(usize::MAX);
            (argument, Reference { row, field })
        })
        .collect()
}

/// How the batch runs: for real, or as a preview.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Run,
    DryRun,
}

/// What every write batch replies, before it is put in its tool's own output type.
pub(super) struct Reply {
    pub(super) results: Vec<BatchRow>,
    on_error: &'static str,
    stopped_at: Option<i64>,
    skipped: Vec<String>,
    truncated_bytes: Option<usize>,
    dry_run: bool,
}

impl RowsReply for Reply {
    fn rows(&self) -> &[BatchRow] {
        &self.results
    }
    fn rows_mut(&mut self) -> &mut [BatchRow] {
        &mut self.results
    }
    fn set_truncated(&mut self, bytes: usize) {
        self.truncated_bytes = Some(bytes);
    }
}

/// `fit` measures the reply as it will be sent; this is its wire form.
impl serde::Serialize for Reply {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.encoded().serialize(serializer)
    }
}

impl Reply {
    fn succeeded(&self) -> i64 {
        count(self.results.iter().filter(|row| row.success).count())
    }

    fn failed(&self) -> i64 {
        count(self.results.iter().filter(|row| !row.success).count())
    }

    fn encoded(&self) -> CallMutatingToolsBatchOutput {
        CallMutatingToolsBatchOutput {
            dry_run: self.dry_run,
            failed: self.failed(),
            on_error: self.on_error.to_string(),
            results: self.results.iter().map(advertised_row).collect(),
            skipped: self.skipped.clone(),
            stopped_at: self.stopped_at,
            succeeded: self.succeeded(),
            truncated: self.truncated_bytes.is_some(),
            truncated_bytes: count(self.truncated_bytes.unwrap_or(0)),
        }
    }
}

pub(super) fn mode(dry_run: Option<bool>) -> Mode {
    if dry_run == Some(true) {
        Mode::DryRun
    } else {
        Mode::Run
    }
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// `call_mutating_tools_batch`: see `schemas/tools/call_mutating_tools_batch.json`.
///
/// # Errors
/// A row that fails the checks made before any row runs (nothing ran), or a fault in
/// paneward; a row that fails while running is a failed row.
pub async fn call_mutating_tools_batch(
    gate: &ChangeGate<'_>,
    input: CallMutatingToolsBatchInput,
) -> Result<CallMutatingToolsBatchOutput, ToolError> {
    let CallMutatingToolsBatchInput {
        dry_run,
        on_error,
        operations,
    } = input;
    let stop = on_error.is_none_or(|on_error| on_error == CallMutatingToolsBatchInputOnError::Stop);
    let calls = operations
        .into_iter()
        .map(|operation| Call {
            tool: operation.tool,
            arguments: operation.arguments,
            references: references_of(operation.references, |r| (r.row, r.field)),
        })
        .collect();
    let reply = run_batch(&gate.rows(), gate.context(), calls, stop, mode(dry_run)).await?;
    Ok(fit(gate.context(), reply, REPLY_LINE_MAX_BYTES)?.encoded())
}

/// `call_destructive_tools_batch`: see `schemas/tools/call_destructive_tools_batch.json`.
///
/// # Errors
/// As [`call_mutating_tools_batch`]; also a row that would end what holds the caller
/// pane (nothing ran).
pub async fn call_destructive_tools_batch(
    gate: &EndGate<'_>,
    input: CallDestructiveToolsBatchInput,
) -> Result<CallDestructiveToolsBatchOutput, ToolError> {
    let CallDestructiveToolsBatchInput {
        dry_run,
        on_error,
        operations,
    } = input;
    let stop = on_error.is_none_or(|on_error| on_error == CallDestructiveToolsBatchInputOnError::Stop);
    let calls: Vec<Call> = operations
        .into_iter()
        .map(|operation| Call {
            tool: operation.tool,
            arguments: operation.arguments,
            references: references_of(operation.references, |r| (r.row, r.field)),
        })
        .collect();
    let endings = calls
        .iter()
        .enumerate()
        .filter_map(|(index, call)| ending_of(call).map(|ending| (index, ending)))
        .collect::<Vec<_>>();
    if let Some((index, ending)) = gate.first_reaching_caller(&endings).await? {
        return Err(ran_nothing(
            index,
            "tool",
            format!(
                "{ending} holds the pane paneward itself runs in, which a batch never ends (the tool called on its own with confirm_self: true can ask the person)"
            ),
        ));
    }
    let reply = run_batch(&gate.rows(), gate.context(), calls, stop, mode(dry_run)).await?;
    // Both batches advertise the same reply; the generated types differ only by name.
    let encoded = encode_output(&fit(gate.context(), reply, REPLY_LINE_MAX_BYTES)?.encoded())?;
    serde_json::from_value(encoded).map_err(|e| ToolError::internal(format!("cannot encode the reply: {e}")))
}

/// What a row would end, read from its arguments (already checked against the tool's
/// schema) and its file's `dryRun.closes` (the object an argument names, when the row
/// ends it); `None` for a row that ends nothing.
fn ending_of(call: &Call) -> Option<Ending> {
    // A live respawn ends the pane's program but keeps the pane; its own call is
    // refused for the caller pane when it runs.
    let closes = ToolSpec::find(&TOOLS, &call.tool)?.dry_run?.closes?;
    if closes.by != CloseBy::Ending {
        return None;
    }
    let id = call.arguments.get(closes.argument).and_then(Value::as_str)?;
    match id.chars().next()? {
        '%' => id.parse::<PaneId>().ok().map(Ending::KillPane),
        '@' => id.parse::<WindowId>().ok().map(Ending::KillWindow),
        '$' => id.parse::<SessionId>().ok().map(Ending::KillSession),
        _ => None,
    }
}

/// The error for a batch refused before any row ran.
fn ran_nothing(index: usize, field: &str, rule: impl std::fmt::Display) -> ToolError {
    ToolError::invalid_argument(
        &format!("/operations/{index}/{field}"),
        format!("{rule}; so this batch ran nothing"),
    )
}

/// Checks every row as the request path would check it as a direct call at `tier`,
/// plus the batch's own rules, before any row runs.
async fn check_all(rows: &Rows<'_>, calls: &[Call]) -> Result<(), ToolError> {
    let tier = rows.tier();
    let tools: Vec<&str> = calls.iter().map(|call| call.tool.as_str()).collect();
    for (index, call) in calls.iter().enumerate() {
        let tool = call.tool.as_str();
        // Batches, tools called on their own, and waits, as their files say.
        if let Some(refusal) = holds::refusal(tool, &call.arguments) {
            return Err(ran_nothing(index, "tool", refusal));
        }
        // A referenced id gets a stand-in of its kind here, and its real value at the row's turn.
        let arguments = Value::Object(refs::check(index, tool, &call.arguments, &call.references, &tools)?);
        let ids = if call.references.is_empty() {
            Ids::Given
        } else {
            Ids::Later
        };
        // Tier, input schema, escalations and --scope, as the row's own call would check them.
        match rows.admit(tool, &arguments, ids).await {
            Ok(()) => {}
            Err(Refusal::UnknownTool) => {
                return Err(ran_nothing(index, "tool", format!("there is no tool `{tool}`")));
            }
            Err(Refusal::NotServed) => {
                return Err(ran_nothing(
                    index,
                    "tool",
                    format!("`{tool}` is not served here (--toolsets, --tools, --exclude-tools)"),
                ));
            }
            Err(Refusal::AboveTier(above)) => {
                return Err(ran_nothing(
                    index,
                    "tool",
                    format!("`{tool}` is a {above} tool, above this batch's tier ({tier})"),
                ));
            }
            Err(Refusal::Input(error)) => {
                return Err(ToolError::invalid_argument(
                    &format!("/operations/{index}/arguments"),
                    format!("{}; so this batch ran nothing", error.message()),
                ));
            }
            Err(Refusal::BeyondSchema(error)) => {
                return Err(ToolError::new(
                    error.kind(),
                    format!("/operations/{index}: {}; so this batch ran nothing", error.message()),
                ));
            }
        }
    }
    Ok(())
}

/// Checks every row, then runs them in order, each as a direct call at `tier`.
pub(super) async fn run_batch(
    rows: &Rows<'_>,
    context: &CallContext,
    calls: Vec<Call>,
    stop_on_error: bool,
    mode: Mode,
) -> Result<Reply, ToolError> {
    check_all(rows, &calls).await?;
    let on_error = if stop_on_error { "stop" } else { "continue" };
    if mode == Mode::DryRun {
        return dry_run(rows, context, calls, on_error).await;
    }
    let started = Instant::now();
    let mut results = Vec::with_capacity(calls.len());
    let mut stopped_at = None;
    let mut calls = calls.into_iter().enumerate();
    for (index, call) in calls.by_ref() {
        let row_context = context.row_of();
        let outcomes: Vec<Outcome<'_>> = results.iter().map(outcome).collect();
        let result = match refs::resolve(index, &call.tool, &call.arguments, &call.references, &outcomes) {
            Ok(arguments) => rows.call(&call.tool, Some(arguments), &row_context).await,
            Err(error) => Err(error),
        };
        let index = count(index);
        let failed = result.is_err();
        context.note_change();
        results.push(match result {
            Ok(result) => BatchRow {
                index,
                tool: call.tool,
                success: true,
                error: None,
                result,
                result_truncated: false,
            },
            Err(error) => BatchRow {
                index,
                tool: call.tool,
                success: false,
                error: Some(error.message().to_string()),
                result: Value::Null,
                result_truncated: false,
            },
        });
        if failed && stop_on_error {
            stopped_at = Some(index);
            break;
        }
        // The row put a question off to a repeat of the whole call: no later row may
        // run now, or the repeat would run it twice.
        if context.awaits_answer() {
            tracing::info!(
                rows = results.len(),
                "the batch waits for the person's answer: the rows left are skipped"
            );
            stopped_at = Some(index);
            break;
        }
        if context.is_cancelled() {
            tracing::info!(
                rows = results.len(),
                "batch cancelled by the client: the rows left are skipped"
            );
            break;
        }
    }
    tracing::debug!(elapsed = ?started.elapsed(), rows = results.len(), "write batch ran");
    Ok(Reply {
        results,
        on_error,
        stopped_at,
        skipped: calls.map(|(_, call)| call.tool).collect(),
        truncated_bytes: None,
        dry_run: false,
    })
}

fn outcome(row: &BatchRow) -> Outcome<'_> {
    if row.success {
        Outcome::Replied(&row.result)
    } else {
        Outcome::Failed
    }
}

/// The reply of a dry run: every row, checked, with what it would do as its result.
async fn dry_run(
    rows: &Rows<'_>,
    context: &CallContext,
    calls: Vec<Call>,
    on_error: &'static str,
) -> Result<Reply, ToolError> {
    let planned: Vec<Planned<'_>> = calls
        .iter()
        .map(|call| Planned {
            tool: &call.tool,
            arguments: &call.arguments,
            references: &call.references,
        })
        .collect();
    let previews = preview(rows, context, &planned).await?;
    let results = calls
        .iter()
        .zip(previews)
        .enumerate()
        .map(|(index, (call, result))| BatchRow {
            index: count(index),
            tool: call.tool.clone(),
            success: true,
            error: None,
            result,
            result_truncated: false,
        })
        .collect();
    Ok(Reply {
        results,
        on_error,
        stopped_at: None,
        skipped: Vec::new(),
        truncated_bytes: None,
        dry_run: true,
    })
}
