//! TEST-ONLY, behind the cargo feature `conformance-fault`: a deliberately broken reply.
//!
//! `snapshot_pane`'s `dead` becomes a string, which its outputSchema forbids. The break
//! happens after [`crate::request::call`], so the debug build's own output check does
//! not see it and the broken reply reaches the client: `tests/it/contract/conformance.rs` shows that
//! the official MCP clients reject it and the suite fails naming the tool.

#[cfg(not(debug_assertions))]
compile_error!("the conformance-fault feature breaks replies on purpose; it is for debug test builds only");

use serde_json::Value;

/// The tool whose replies are broken.
pub const BROKEN_TOOL: &str = "snapshot_pane";

/// `reply` of `tool`, broken if `tool` is [`BROKEN_TOOL`].
pub fn break_reply(tool: &str, mut reply: Value) -> Value {
    if tool == BROKEN_TOOL {
        if let Some(members) = reply.as_object_mut() {
            members.insert("dead".into(), Value::String("not a boolean".into()));
        }
    }
    reply
}
