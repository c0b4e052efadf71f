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
pub mod peer;
pub mod report;

use std::collections::HashSet;

use serde_json::{json, Value};

pub use options::Options;
pub use report::Report;

use peer::Peer;

/// The most `tools/list` pages followed before the server is taken to loop.
const MAX_PAGES: usize = 1_000;

/// Runs the comparison that `options` describes.
///
/// # Errors
/// The contract cannot be loaded, or the server cannot be started, initialized or
/// listed (it failed, answered with an error or nonsense, or did not answer in time).
pub fn run(options: &Options) -> Result<Report, String> {
    let contract = match &options.schemas {
        Some(dir) => contract::from_dir(dir)?,
        None => contract::compiled()?,
    };
    let mut peer = Peer::spawn(&options.command, options.timeout)?;
    let initialized = peer.request(
        "initialize",
        json!({
            "protocolVersion": crate::server::PROTOCOL_VERSION.as_str(),
            "capabilities": {},
            "clientInfo": {"name": "paneward-conform", "version": env!("CARGO_PKG_VERSION")}
        }),
    )?;
    peer.notify("notifications/initialized")?;
    let listed = list_tools(&mut peer)?;
    peer.close();
    let expected = contract::at_tier(contract.clone(), options.tier).len();
    Ok(Report {
        server: describe_server(&initialized),
        tier: options.tier,
        expected,
        listed: listed.len(),
        findings: report::compare(&contract, options.tier, &listed),
    })
}

/// Every tool the server lists, page after page, each with its name.
fn list_tools(peer: &mut Peer) -> Result<Vec<(String, Value)>, String> {
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    let mut cursors_seen = HashSet::new();
    for _ in 0..MAX_PAGES {
        let params = cursor.as_ref().map_or_else(|| json!({}), |c| json!({"cursor": c}));
        let page = peer.request("tools/list", params)?;
        let Some(entries) = page.get("tools").and_then(Value::as_array) else {
            return Err(format!(
                "the tools/list result has no tools array: {}",
                peer::cut(&page.to_string())
            ));
        };
        for (index, tool) in entries.iter().enumerate() {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                return Err(format!("tools/list entry {index} has no string name"));
            };
            tools.push((name.to_string(), tool.clone()));
        }
        match page.get("nextCursor") {
            None | Some(Value::Null) => return Ok(tools),
            Some(Value::String(next)) if cursors_seen.insert(next.clone()) => cursor = Some(next.clone()),
            Some(Value::String(next)) => return Err(format!("tools/list returned cursor {next:?} twice")),
            Some(other) => return Err(format!("tools/list nextCursor is not a string: {other}")),
        }
    }
    Err(format!("tools/list did not end after {MAX_PAGES} pages"))
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
