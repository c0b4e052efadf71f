//! The protocol layer both transports pass through before rmcp: one message is looked
//! at once ([`triage`]), and what rmcp 3.11 would answer wrongly (malformed JSON,
//! unserved methods, params that do not fit, ids it cannot carry) is answered here with
//! the JSON-RPC error the client can match. stdio (`super::stdio`) and Streamable
//! HTTP (`super::http`) give the same message the same answer. See docs/mcp-quirks.md.

pub mod params;
pub mod revision;
pub mod triage;

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage};

/// The refusal of a request (its text, with the id rmcp will see) that rmcp would
/// answer without the client's id or with the wrong code; `echo` is the client's id as
/// written. `None`: rmcp reads it as the request it is.
pub fn rmcp_refusal(text: &[u8], echo: &[u8]) -> Option<String> {
    match serde_json::from_slice::<ClientJsonRpcMessage>(text) {
        Ok(JsonRpcMessage::Request(parsed)) if matches!(parsed.request, ClientRequest::CustomRequest(_)) => {
            Some(triage::invalid_params(echo, "the params do not fit the method"))
        }
        Ok(_) => None,
        Err(error) => Some(triage::unreadable(echo, &error)),
    }
}
