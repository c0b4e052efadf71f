//! Tests of `--profile python` (`src/tools/python`): libtmux-mcp's tools answered by
//! paneward, against a real tmux on a private socket. The differential suite beside
//! them drives the real libtmux-mcp too.

mod config;
mod differential;
mod input;
mod observe;
mod workspace;

use serde_json::{json, Value};

use crate::support::Client;

/// Every toolset at the destructive tier: each tool of the profile can be called.
pub const PROFILE: [&str; 6] = [
    "--profile",
    "python",
    "--toolsets",
    "inspect,manage,execute,teardown",
    "--safety",
    "destructive",
];

/// Calls `tool`, requires success, and returns the structured content (the debug build
/// has already checked it against the profile's outputSchema).
#[track_caller]
pub fn ok(client: &mut Client, tool: &str, arguments: Value) -> Value {
    let result = client.call(tool, arguments);
    assert_ne!(result["isError"], json!(true), "{tool} failed: {result}");
    result["structuredContent"].clone()
}

/// Calls `tool`, requires failure, and returns its text and libtmux-mcp's
/// `_meta.error_type`.
#[track_caller]
pub fn refused(client: &mut Client, tool: &str, arguments: Value) -> (String, String) {
    let result = client.call(tool, arguments);
    assert_eq!(result["isError"], json!(true), "{tool} should have failed: {result}");
    let text = result["content"][0]["text"].as_str().unwrap_or_default().to_string();
    let error_type = result["_meta"]["error_type"].as_str().unwrap_or_default().to_string();
    (text, error_type)
}
