//! Runs a batch's rows: each operation as a top-level call at the readonly tier would
//! run it, all sent at once over a control connection, one after another without it.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::guard::ReadGate;
use crate::guard::Rows;
use crate::runtime::error::ToolError;
use crate::runtime::facts::BatchRefusal;
use crate::runtime::join;
use crate::runtime::{CallContext, Tier, ToolSpec};

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
    rows: &'a Rows<'a>,
    batch: &'a CallContext,
    started: Instant,
    tool: &'a str,
    arguments: Option<JsonObject>,
) -> NestedCall<'a> {
    Box::pin(async move {
        let context = batch.row_of();
        let result = if is_a_batch(tool, rows.tier()) {
            Err(ToolError::invalid_argument("/tool", "a batch cannot hold a batch"))
        } else {
            rows.call(tool, arguments, &context).await
        };
        RowOutcome {
            result,
            elapsed: started.elapsed(),
        }
    })
}

/// Whether `tool` is a batch (its file says so) that rows at `tier` could call, which
/// no batch holds; one above `tier` is refused for its tier, as any tool there. Every
/// envelope's rows are checked against paneward's own table: a profile's batch has
/// its name.
fn is_a_batch(tool: &str, tier: Tier) -> bool {
    ToolSpec::find(&crate::generated::TOOLS, tool)
        .filter(|spec| spec.tier <= tier)
        .and_then(|spec| spec.batch)
        .is_some_and(|batch| batch.refused == BatchRefusal::Batch)
}

/// Runs the operations together, in order. Over a control connection they are all
/// sent at once: tmux still runs them one after another, in order, but none waits for
/// the previous reply. Without one, the reads they send whenever all of them wait go
/// as one command list over one one-shot client (`Backend::gathered`), in row order.
/// They only read, so those after a failure that stops the batch change nothing
/// (their outcomes are dropped). Every envelope of the batch runs its rows here.
pub async fn run_rows(gate: &ReadGate<'_>, calls: &[(String, Option<JsonObject>)]) -> Vec<RowOutcome> {
    let started = Instant::now();
    let context = gate.context();
    let rows = gate.rows();
    let nested = calls
        .iter()
        .map(|(tool, arguments)| call_nested(&rows, context, started, tool, arguments.clone()))
        .collect();
    let backend = &gate.state().backend;
    if backend.keeps_order().await {
        return join::all(nested).await;
    }
    backend.gathered(join::all(nested)).await
}
