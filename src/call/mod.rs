//! The request path of a tool call, independent of the MCP library: find the tool,
//! check the tier, validate the arguments against the advertised input schema, run
//! the handler, encode the reply in the served envelope, (in debug builds) check it
//! against the output schema, and record it in the audit log when one is kept.

mod fleet;
mod former;
mod libtmux;
mod python;

/// What `initialize` tells a client of `--profile python`.
pub use python::instructions::instructions as python_instructions;

use std::time::Instant;

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::app::App;
use crate::audit::{CallRecord, Outcome};
use crate::catalog::profile::Envelope;
use crate::catalog::Catalog;
use crate::config::Scope;
use crate::generated;
use crate::guard::state::GuardState;
use crate::runtime::reentry::{Boxed, Ids, Refusal, RequestPath};
use crate::runtime::reply_text::ReplyText;
use crate::runtime::{CallContext, Tier, ToolError};

/// Calls tool `name` as a server at `tier` would.
///
/// # Errors
/// Unknown tool, a tool above `tier`, arguments that break the input schema, or the
/// handler's own error.
pub async fn run(
    app: &App,
    tier: Tier,
    name: &str,
    arguments: Option<JsonObject>,
    context: &CallContext,
) -> Result<Value, ToolError> {
    let arguments = Value::Object(arguments.unwrap_or_default());
    match &app.fleet {
        // Several targets: one layer finds the target (or every target) and comes back
        // through `run_on` for each.
        Some(fleet) => fleet::run(app, fleet, tier, name, arguments, context).await,
        None => run_on(app, On::single(app), tier, name, arguments, context).await,
    }
}

/// Where a call runs: the catalogue its arguments are checked against, the state of
/// the tmux server it reaches, and the target's name when there are several.
#[derive(Clone, Copy)]
struct On<'a> {
    catalog: &'a Catalog,
    guard: &'a GuardState,
    target: Option<&'a str>,
    /// Whether the calls a batch makes while this call runs stay on this target (a
    /// one-target call), rather than finding their own (a batch of the fleet's rows).
    pinned: bool,
}

impl<'a> On<'a> {
    fn single(app: &'a App) -> Self {
        Self {
            catalog: &app.catalog,
            guard: &app.guard,
            target: None,
            pinned: false,
        }
    }
}

/// Calls tool `name` on one server, and records it in the audit log when one is kept.
async fn run_on(
    app: &App,
    on: On<'_>,
    tier: Tier,
    name: &str,
    arguments: Value,
    context: &CallContext,
) -> Result<Value, ToolError> {
    let Some(audit) = app.audit.as_ref().filter(|_| audited(on.catalog, name, context)) else {
        return checked(app, on, tier, name, arguments, context).await;
    };
    let started = Instant::now();
    let logged = arguments.clone();
    let result = checked(app, on, tier, name, arguments, context).await;
    audit.write(&CallRecord {
        request_id: context.audit_request_id(),
        tool: name,
        batch_row: context.is_batch_row(),
        outcome: Outcome::of(&result),
        duration: started.elapsed(),
        arguments: &logged,
        target: on.target,
    });
    result
}

/// How results of the contract `app` serves are written for the client (the text
/// beside the structured content, an error's `_meta`): paneward's own, or, for a
/// profile's contract, as its upstream writes them. The transport sets it on every
/// call's context; a batch's rows inherit it.
pub fn reply_text(app: &App) -> ReplyText {
    match app.config.profile.envelope() {
        Envelope::Native => ReplyText::COMPACT,
        Envelope::Python => ReplyText::new(&python::fastmcp::FastMcp),
        Envelope::Libtmux => ReplyText::new(&libtmux::Rmcp),
    }
}

/// Whether the audit log records this call: a tool that may change tmux, or a batch row.
fn audited(catalog: &Catalog, name: &str, context: &CallContext) -> bool {
    context.is_batch_row() || catalog.get(name).is_some_and(|entry| entry.tier > Tier::Readonly)
}

/// The checks of a call that its input schema cannot express: argument escalations
/// and `--scope owned`. Batches make them for every row before any row runs
/// ([`RequestPath::admit`]).
///
/// # Errors
/// An argument that needs a tier above `tier`, or an object outside the scope.
async fn admit_beyond_schema(
    app: &App,
    guard: &GuardState,
    tier: Tier,
    entry: &crate::catalog::CatalogEntry,
    name: &str,
    arguments: &Value,
    ids: Ids,
) -> Result<(), ToolError> {
    // The one place argument escalations are enforced: the handler gets the gate of
    // the tool's reach, so a call that reaches above this server's tier stops here.
    if let Some(escalation) = entry.escalation_above(tier, arguments) {
        return Err(ToolError::escalation_not_allowed(name, escalation, tier));
    }
    // The one place --scope owned is enforced, from the ids the input schema declares.
    if app.config.scope == Scope::Owned && entry.tier > Tier::Readonly && ids == Ids::Given {
        crate::guard::scope::check(guard, entry.spec, entry.input.schema(), arguments).await?;
    }
    Ok(())
}

async fn checked(
    app: &App,
    on: On<'_>,
    tier: Tier,
    name: &str,
    arguments: Value,
    context: &CallContext,
) -> Result<Value, ToolError> {
    let entry = on.catalog.callable(name, tier)?;
    let arguments = former::current_spelling(name, arguments)?;
    let arguments = match entry.envelope {
        Envelope::Native | Envelope::Libtmux => {
            entry.input.check(&arguments)?;
            arguments
        }
        // libtmux-mcp's tools take arguments as Pydantic does, and refuse as it does.
        Envelope::Python => python::arguments::admit(name, &entry.input, arguments)?,
    };
    admit_beyond_schema(app, on.guard, tier, entry, name, &arguments, Ids::Given).await?;
    let reentry = Reentry {
        app,
        on: Some(on).filter(|on| on.pinned),
    };
    let output = match entry.envelope {
        Envelope::Native => generated::dispatch(on.guard, &reentry, context, name, arguments).await,
        Envelope::Python => generated::python::dispatch(on.guard, &reentry, context, name, arguments)
            .await
            .map(|output| python::reply::with_defaults(entry.tool.output_schema.as_deref(), output)),
        Envelope::Libtmux => generated::libtmux::dispatch(on.guard, &reentry, context, name, arguments).await,
    };
    let output = match output {
        Ok(output) => output,
        // A tool above readonly changes tmux: an unanswered command may have run.
        Err(error) if entry.tier > Tier::Readonly => return Err(error.for_a_change()),
        Err(error) => return Err(error),
    };
    // A reply that breaks its own contract is our bug; catch it where it is made.
    #[cfg(debug_assertions)]
    if let Some((pointer, rule)) = entry.output.problems(&output).into_iter().next() {
        return Err(ToolError::internal(format!(
            "the reply of `{name}` breaks its outputSchema at {pointer}: {rule}"
        )));
    }
    Ok(output)
}

/// This request path, as the rows of a batch re-enter it (the gate of a batch lends it
/// out held to the batch's tier): on the target of the call that re-enters, when it
/// is pinned to one, else from the top, where each row finds its own target.
struct Reentry<'a> {
    app: &'a App,
    on: Option<On<'a>>,
}

impl RequestPath for Reentry<'_> {
    fn call<'a>(
        &'a self,
        tier: Tier,
        tool: &'a str,
        arguments: Option<JsonObject>,
        context: &'a CallContext,
    ) -> Boxed<'a, Result<Value, ToolError>> {
        match self.on {
            Some(on) => Box::pin(run_on(
                self.app,
                on,
                tier,
                tool,
                Value::Object(arguments.unwrap_or_default()),
                context,
            )),
            None => Box::pin(run(self.app, tier, tool, arguments, context)),
        }
    }

    fn admit<'a>(
        &'a self,
        tier: Tier,
        tool: &'a str,
        arguments: &'a Value,
        ids: Ids,
    ) -> Boxed<'a, Result<(), Refusal>> {
        Box::pin(async move {
            let app = self.app;
            let on = match (self.on, &app.fleet) {
                (Some(on), _) => on,
                (None, None) => On::single(app),
                (None, Some(fleet)) => return fleet::admit(app, fleet, tier, tool, arguments, ids).await,
            };
            admit_on(app, on, tier, tool, arguments, ids).await
        })
    }
}

/// [`RequestPath::admit`] on one server.
async fn admit_on(app: &App, on: On<'_>, tier: Tier, tool: &str, arguments: &Value, ids: Ids) -> Result<(), Refusal> {
    let entry = on.catalog.get(tool).ok_or(Refusal::UnknownTool)?;
    if !entry.served {
        return Err(Refusal::NotServed);
    }
    if entry.tier > tier {
        return Err(Refusal::AboveTier(entry.tier));
    }
    let arguments = former::current_spelling(tool, arguments.clone()).map_err(Refusal::Input)?;
    let arguments = match entry.envelope {
        Envelope::Native | Envelope::Libtmux => entry.input.check(&arguments).map(|()| arguments),
        Envelope::Python => python::arguments::admit(tool, &entry.input, arguments),
    }
    .map_err(Refusal::Input)?;
    // What the tool's file says its handler checks of the arguments alone, so a
    // batch refuses such a row before any row runs, not at its turn.
    if entry.envelope == Envelope::Native {
        generated::check_alone(tool, &arguments).map_err(Refusal::Input)?;
    }
    admit_beyond_schema(app, on.guard, tier, entry, tool, &arguments, ids)
        .await
        .map_err(Refusal::BeyondSchema)
}
