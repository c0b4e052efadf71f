//! The way back into the request path for calls made on a caller's behalf (the rows of
//! a batch). The request path (`crate::call`) implements [`RequestPath`] and hands it
//! to the generated dispatch, which puts it in the tool's gate; a gate lends it out
//! only held to its own tier (`guard::Rows`). So a batch handler never names the
//! request path, and the request path never names a tool.

use std::future::Future;
use std::pin::Pin;

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::runtime::{CallContext, Tier, ToolError};

/// A boxed future: the request path can lead back to a batch, so a row's future would
/// otherwise contain itself.
pub type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The request path, as a batch row re-enters it.
pub trait RequestPath: Send + Sync {
    /// Calls `tool` as a direct call on a server at `tier` would run it (find, tier,
    /// validate, escalations, scope, dispatch, audit).
    fn call<'a>(
        &'a self,
        tier: Tier,
        tool: &'a str,
        arguments: Option<JsonObject>,
        context: &'a CallContext,
    ) -> Boxed<'a, Result<Value, ToolError>>;

    /// Checks `tool` with `arguments` as a direct call at `tier` would be checked,
    /// without running it: so a batch can refuse every row before any row runs.
    fn admit<'a>(&'a self, tier: Tier, tool: &'a str, arguments: &'a Value, ids: Ids)
        -> Boxed<'a, Result<(), Refusal>>;
}

/// Whether the ids in the arguments [`RequestPath::admit`] checks are the ones the call
/// will name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ids {
    /// They are: every check runs, `--scope owned` included.
    Given,
    /// Some are stand-ins for ids an earlier batch row will return: `--scope owned`
    /// cannot be judged yet, and is checked when the row runs, on the real ids.
    Later,
}

/// Why [`RequestPath::admit`] refused a call, for the batch to say which rule of which row.
#[derive(Debug)]
pub enum Refusal {
    /// No tool has that name.
    UnknownTool,
    /// The tool's tier is above the one asked for.
    AboveTier(Tier),
    /// The operator's toolsets and tool lists do not serve the tool.
    NotServed,
    /// The arguments break the tool's input schema, or the check of them alone its
    /// file declares (`checkedAlone`).
    Input(ToolError),
    /// An argument escalation or `--scope owned` refused the call.
    BeyondSchema(ToolError),
}

/// The path of a gate made outside a call (resources, prompts, clean-up): it has no
/// request path to re-enter, so a batch run through it refuses every row.
pub struct NoRequestPath;

impl RequestPath for NoRequestPath {
    fn call<'a>(
        &'a self,
        _: Tier,
        tool: &'a str,
        _: Option<JsonObject>,
        _: &'a CallContext,
    ) -> Boxed<'a, Result<Value, ToolError>> {
        Box::pin(async move { Err(ToolError::internal(format!("`{tool}` cannot be called from here"))) })
    }

    fn admit<'a>(&'a self, _: Tier, _: &'a str, _: &'a Value, _: Ids) -> Boxed<'a, Result<(), Refusal>> {
        Box::pin(async { Err(Refusal::UnknownTool) })
    }
}
