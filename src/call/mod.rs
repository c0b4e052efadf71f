//! The request path of a tool call, independent of the MCP library: find the tool,
//! check the tier, validate the arguments against the advertised input schema, run
//! the handler, and (in debug builds) check the reply against the output schema.

use rmcp::model::JsonObject;
use serde_json::Value;

pub mod catalog;
pub mod error;
pub mod runtime;
pub mod schema;

use crate::app::App;
use crate::call::runtime::{CallContext, Tier, ToolError};
use crate::generated;

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
    let entry = app.catalog.get(name).ok_or_else(|| ToolError::unknown_tool(name))?;
    if entry.spec.tier > tier {
        return Err(ToolError::not_allowed(name, entry.spec.tier, tier));
    }
    let arguments = Value::Object(arguments.unwrap_or_default());
    entry.input.check(&arguments)?;
    let output = generated::dispatch(app, context, name, arguments).await?;
    // A reply that breaks its own contract is our bug; catch it where it is made.
    #[cfg(debug_assertions)]
    if let Some((pointer, rule)) = entry.output.problems(&output).into_iter().next() {
        return Err(ToolError::internal(format!(
            "the reply of `{name}` breaks its outputSchema at {pointer}: {rule}"
        )));
    }
    Ok(output)
}
