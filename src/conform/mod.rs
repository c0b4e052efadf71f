//! `paneward conform`: does an MCP server advertise exactly the contract?
//!
//! It starts the server command, initializes, lists every tool (following
//! pagination) and compares each with the contract, by default the `schemas/tools`
//! files compiled into this binary: missing and extra tools, and every changed member
//! of a tool by JSON pointer. A server at a lower safety tier lists fewer tools, so
//! the comparison is at a tier (`--tier`).

pub mod contract;
pub mod diff;
pub mod options;
pub mod report;

use paneward_contract::client::{self, ListOptions, Problem, ServerStderr};
use serde_json::Value;

pub use options::Options;
pub use report::Report;

/// Runs the comparison that `options` describes.
///
/// # Errors
/// The contract cannot be loaded, or the server cannot be started, initialized or
/// listed (it failed, answered with an error or nonsense, or did not answer in time).
pub fn run(options: &Options) -> Result<Report, String> {
    // A folder given is the whole contract (a profile's folder included).
    let contract = match &options.schemas {
        Some(dir) => contract::from_dir(dir)?,
        None => contract::compiled(options.profile)?,
    };
    let client_options = ListOptions {
        client_name: "paneward-conform",
        client_version: env!("CARGO_PKG_VERSION"),
        protocol_version: crate::mcp::server::PROTOCOL_VERSION.as_str(),
        reply_timeout: options.timeout,
        // The server's logs reach the terminal as it writes them.
        stderr: ServerStderr::Inherit,
    };
    let listing = client::list_tools(&options.command, &client_options).map_err(|error| match error.problem {
        Problem::Timeout { .. } => format!("{error} (see --timeout)"),
        _ => error.to_string(),
    })?;
    let listed = named(listing.tools)?;
    let expected = contract::at_tier(&contract, options.tier).count();
    Ok(Report {
        server: describe_server(&listing.initialized),
        tier: options.tier,
        expected,
        listed: listed.len(),
        findings: report::compare(&contract, options.tier, &listed),
    })
}

/// Each listed tool with its name.
fn named(tools: Vec<Value>) -> Result<Vec<(String, Value)>, String> {
    tools
        .into_iter()
        .enumerate()
        .map(|(index, tool)| match tool.get("name").and_then(Value::as_str) {
            Some(name) => Ok((name.to_string(), tool)),
            None => Err(format!("tools/list entry {index} has no string name")),
        })
        .collect()
}

fn describe_server(initialized: &Value) -> String {
    let text = |value: &Value| value.as_str().unwrap_or("?").to_string();
    let info = &initialized["serverInfo"];
    format!(
        "{} {} (protocol {})",
        text(&info["name"]),
        text(&info["version"]),
        text(&initialized["protocolVersion"])
    )
}
