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
    let light = with_arguments_emptied(text);
    match serde_json::from_slice::<ClientJsonRpcMessage>(light.as_deref().unwrap_or(text)) {
        Ok(JsonRpcMessage::Request(parsed)) if matches!(parsed.request, ClientRequest::CustomRequest(_)) => {
            Some(triage::invalid_params(echo, "the params do not fit the method"))
        }
        Ok(_) => None,
        Err(error) => Some(triage::unreadable(echo, &error)),
    }
}

/// `text` (a valid JSON object) with the object of `params.arguments` written `{}`, or
/// `None` where it holds none. rmcp reads any object as a tool call's arguments, and
/// every other member, repeated ones included, is left as written, so rmcp reads the
/// light line exactly when it reads `text`, and as the same kind of message; reading it
/// spares rmcp's buffered copies of every argument (a batch's sixteen operations).
fn with_arguments_emptied(text: &[u8]) -> Option<Vec<u8>> {
    use crate::mcp::stdio::ids::member_span;
    let params = member_span(text, "params")?;
    let inner = member_span(&text[params.clone()], "arguments")?;
    let arguments = params.start + inner.start..params.start + inner.end;
    if text.get(arguments.start) != Some(&b'{') {
        return None;
    }
    let mut light = Vec::with_capacity(text.len() - arguments.len() + 2);
    light.extend_from_slice(&text[..arguments.start]);
    light.extend_from_slice(b"{}");
    light.extend_from_slice(&text[arguments.end..]);
    Some(light)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_object_of_arguments_is_emptied_and_the_answer_is_the_same() {
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,{"}":"{"}]},"_meta":{}}}"#;
        assert_eq!(
            with_arguments_emptied(call).unwrap(),
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{},"_meta":{}}}"#
        );
        assert_eq!(with_arguments_emptied(br#"{"id":1,"params":{"arguments":[1]}}"#), None);
        assert_eq!(with_arguments_emptied(br#"{"id":1,"arguments":{"a":1}}"#), None);
        let cases: [&[u8]; 5] = [
            call,
            // A repeated member stays repeated: rmcp refuses the line either way.
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":1},"arguments":{"b":2}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"x","arguments":{"a":1}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5,"arguments":{"a":1}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":{"a":1,"a":2}}}}"#,
        ];
        for text in cases {
            let whole = match serde_json::from_slice::<ClientJsonRpcMessage>(text) {
                Ok(JsonRpcMessage::Request(parsed)) => Some(matches!(parsed.request, ClientRequest::CustomRequest(_))),
                Ok(_) => Some(false),
                Err(_) => None,
            };
            let refused = rmcp_refusal(text, b"1").is_some();
            assert_eq!(refused, whole != Some(false), "{}", String::from_utf8_lossy(text));
        }
    }
}
