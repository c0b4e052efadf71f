//! Reading the contract a running MCP server advertises, through the tools/list client
//! shared with `paneward conform` (`paneward_contract::client`): every page of its
//! tools, each read as an MCP `Tool`. The server's stderr is kept and its end quoted
//! when something goes wrong.

use std::path::PathBuf;
use std::time::Duration;

use paneward_contract::client::{self, ListOptions, ServerStderr};

use super::ContractTool;
use crate::error::CodegenError;

/// How long the server may take to answer one request: long enough for a slow start on
/// a busy machine, short enough that a server that never answers is reported.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(60);
/// The protocol revision we offer; servers may counter-offer, tools/list is the same.
const PROTOCOL_VERSION: &str = "2025-06-18";

/// The tools `command` advertises, every page of them; with `save`, also written there
/// as a `tools/list` result (`{"tools": [...]}`, as served), so the import can be
/// repeated from the file without the server.
///
/// # Errors
/// The command cannot be started, exits or stops answering, answers with a JSON-RPC
/// error, writes something other than JSON-RPC on stdout, or lists a malformed tool;
/// named as the server command.
pub fn list_tools(command: &[String], save: Option<&std::path::Path>) -> Result<Vec<ContractTool>, CodegenError> {
    let label = PathBuf::from(format!("server `{}`", command.join(" ")));
    let options = ListOptions {
        client_name: "paneward-codegen",
        client_version: env!("CARGO_PKG_VERSION"),
        protocol_version: PROTOCOL_VERSION,
        reply_timeout: REPLY_TIMEOUT,
        stderr: ServerStderr::Quote,
    };
    let listing = client::list_tools(command, &options).map_err(|e| CodegenError::new(&label, "", e.to_string()))?;
    if let Some(save) = save {
        save_listing(save, &listing.tools)?;
    }
    listing
        .tools
        .iter()
        .enumerate()
        .map(|(index, tool)| super::json::tool_at(&label, &format!("/tools/{index}"), tool))
        .collect()
}

/// Writes `tools` to `path` as a `tools/list` result, pretty-printed, ending in a newline.
fn save_listing(path: &std::path::Path, tools: &[serde_json::Value]) -> Result<(), CodegenError> {
    let listing = serde_json::json!({ "tools": tools });
    let text = serde_json::to_string_pretty(&listing).map_err(|e| CodegenError::new(path, "", e.to_string()))? + "\n";
    crate::canonical::write_atomically(path, &text)
}
