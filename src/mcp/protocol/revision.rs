//! Which revision a request speaks, read from the request alone.
//!
//! MCP 2026-07-28 is stateless: every request names its protocol version and the
//! client's capabilities in `_meta` (`io.modelcontextprotocol/protocolVersion`,
//! `io.modelcontextprotocol/clientCapabilities`, both required). Nothing is inferred
//! from an earlier request on the same connection; the transports ask this module.

use rmcp::model::{ProtocolVersion, RequestMetaObject};
use serde_json::{Map, Value};

use crate::mcp::server::NEWEST_PROTOCOL_VERSION;

/// Whether `message` (a request) carries the keys 2026-07-28 requires in its `_meta`,
/// well formed, naming a revision paneward serves: rmcp serves such a request without
/// a handshake.
pub fn current_revision_request(message: &Map<String, Value>) -> bool {
    let Some(meta) = request_meta(message) else {
        return false;
    };
    let served = ProtocolVersion::known_up_to(&NEWEST_PROTOCOL_VERSION);
    meta.missing_required_keys(&NEWEST_PROTOCOL_VERSION).is_empty()
        && meta.protocol_version().is_some_and(|version| served.contains(&version))
}

fn request_meta(message: &Map<String, Value>) -> Option<RequestMetaObject> {
    let meta = message.get("params")?.get("_meta")?.as_object()?;
    Some(RequestMetaObject::from(meta.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(meta: Value) -> Map<String, Value> {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}})
            .as_object()
            .cloned()
            .unwrap_or_default()
    }

    #[test]
    fn the_required_keys_name_a_served_revision() {
        let complete = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        });
        assert!(current_revision_request(&request(complete)));
        let malformed = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": "all"
        });
        assert!(!current_revision_request(&request(malformed)));
        let only_version = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"});
        assert!(!current_revision_request(&request(only_version)));
        assert!(!current_revision_request(&request(json!({"progressToken": 1}))));
    }
}
