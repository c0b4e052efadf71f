//! Which revision a request speaks, read from the request alone.
//!
//! MCP 2026-07-28 is stateless: every request names its protocol version and the
//! client's capabilities in `_meta` (`io.modelcontextprotocol/protocolVersion`,
//! `io.modelcontextprotocol/clientCapabilities`, both required). Nothing is inferred
//! from an earlier request on the same connection; the transports ask this module.
//! A request whose `_meta` names an earlier revision (2025-11-25 and before) names a
//! revision that begins with `initialize`: it starts nothing by itself.

use rmcp::model::{ProtocolVersion, RequestMetaObject};
use serde_json::{Map, Value};

use crate::mcp::server::NEWEST_PROTOCOL_VERSION;

/// The era of MCP a request or a connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// Revisions up to 2025-11-25: `initialize` first, then the session.
    Handshake,
    /// 2026-07-28 and later: every request names its revision in `_meta`.
    Stateless,
}

/// Whether `message` (a request) carries the keys 2026-07-28 requires in its `_meta`,
/// well formed, naming a stateless revision paneward serves: rmcp serves such a
/// request without a handshake.
pub fn current_revision_request(message: &Map<String, Value>) -> bool {
    let Some(meta) = request_meta(message) else {
        return false;
    };
    meta.missing_required_keys(&NEWEST_PROTOCOL_VERSION).is_empty() && names_stateless_revision(message)
}

/// Whether the `_meta` of `message` names a stateless revision paneward serves,
/// whatever else it holds or lacks: such a request speaks 2026-07-28, and a method
/// that revision removed is not found for it.
pub fn names_stateless_revision(message: &Map<String, Value>) -> bool {
    named_era(message) == Some(Era::Stateless)
}

/// The era of the served revision the `_meta` of `message` names, if it names one.
pub fn named_era(message: &Map<String, Value>) -> Option<Era> {
    let version = request_meta(message)?.protocol_version()?;
    if !ProtocolVersion::known_up_to(&NEWEST_PROTOCOL_VERSION).contains(&version) {
        return None;
    }
    // Revisions are dates, written so that their order is the order of their strings.
    Some(if version.as_str() < ProtocolVersion::V_2026_07_28.as_str() {
        Era::Handshake
    } else {
        Era::Stateless
    })
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
        assert!(!current_revision_request(&request(only_version.clone())));
        assert!(names_stateless_revision(&request(only_version)));
        assert!(!current_revision_request(&request(json!({"progressToken": 1}))));
    }

    #[test]
    fn a_handshake_revision_in_meta_is_not_a_stateless_request() {
        let legacy = json!({
            "io.modelcontextprotocol/protocolVersion": "2025-06-18",
            "io.modelcontextprotocol/clientCapabilities": {}
        });
        assert!(!current_revision_request(&request(legacy.clone())));
        assert_eq!(named_era(&request(legacy)), Some(Era::Handshake));
        let unknown = json!({
            "io.modelcontextprotocol/protocolVersion": "2099-01-01",
            "io.modelcontextprotocol/clientCapabilities": {}
        });
        assert_eq!(named_era(&request(unknown)), None);
    }
}
