//! The protocol layer both transports pass through before rmcp: one message is looked
//! at once ([`triage`]), and what rmcp 3.11 would answer wrongly (malformed JSON,
//! unserved methods, params that do not fit, ids it cannot carry) is answered here with
//! the JSON-RPC error the client can match. stdio (`super::stdio`) and Streamable
//! HTTP (`super::http`) give the same message the same answer. See docs/mcp-quirks.md.

pub mod params;
pub mod revision;
pub mod spans;
pub mod triage;

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage};
use serde_json::{Map, Value};

/// The refusal of a request (its text, with the id rmcp will see) that rmcp would
/// answer without the client's id or with the wrong code; `echo` is the client's id as
/// written. `None`: rmcp reads it as the request it is.
pub fn rmcp_refusal(text: &[u8], echo: &[u8]) -> Option<String> {
    let light = with_arguments_emptied(text);
    read_as_rmcp(light.as_deref().unwrap_or(text), echo).err()
}

/// A request for a served method (`text`, with the id rmcp will see) as rmcp reads it,
/// or the refusal of [`rmcp_refusal`]. `arguments` is the object of `params.arguments`
/// that [`triage::triage`] took out of the same text: the rest is read with that
/// object written `{}` and the object is then put in its place, so the arguments are
/// read once, not once more for rmcp.
pub fn rmcp_message(
    text: &[u8],
    echo: &[u8],
    arguments: Option<Map<String, Value>>,
) -> Result<ClientJsonRpcMessage, String> {
    let Some(arguments) = arguments else {
        return read_as_rmcp(text, echo);
    };
    let light = with_arguments_emptied(text);
    let mut message = read_as_rmcp(light.as_deref().unwrap_or(text), echo)?;
    if let JsonRpcMessage::Request(request) = &mut message {
        match &mut request.request {
            ClientRequest::CallToolRequest(call) => call.params.arguments = Some(arguments),
            ClientRequest::GetPromptRequest(get) => get.params.arguments = Some(arguments),
            _ => {}
        }
    }
    Ok(message)
}

fn read_as_rmcp(text: &[u8], echo: &[u8]) -> Result<ClientJsonRpcMessage, String> {
    match serde_json::from_slice::<ClientJsonRpcMessage>(text) {
        Ok(JsonRpcMessage::Request(parsed)) if matches!(parsed.request, ClientRequest::CustomRequest(_)) => {
            Err(triage::invalid_params(echo, "the params do not fit the method"))
        }
        Ok(message) => Ok(message),
        Err(error) => Err(triage::unreadable(echo, &error)),
    }
}

/// `text` (a valid JSON object) with the object of `params.arguments` written `{}`, or
/// `None` where it holds none. rmcp reads any object as a tool call's arguments, and
/// every other member, repeated ones included, is left as written, so rmcp reads the
/// light line exactly when it reads `text`, and as the same kind of message; reading it
/// spares rmcp's buffered copies of every argument (a batch's sixteen operations).
fn with_arguments_emptied(text: &[u8]) -> Option<Vec<u8>> {
    use crate::mcp::protocol::spans::member_span;
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

    #[test]
    fn a_message_read_with_its_arguments_put_back_is_the_message_rmcp_reads_from_the_whole_line() {
        let cases: [&[u8]; 6] = [
            br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{"ops":[{"tool":"a","arguments":{"n":1.5,"s":"\u00e9\n"}}],"z":{}},"_meta":{"progressToken":"p"}}}"#,
            br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{"a":{"a":1,"a":2}},"name":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"p","arguments":{"pane":"%1"}}}"#,
            br#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":null}}"#,
            br#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"arguments":{"a":1}}}"#,
        ];
        for text in cases {
            let shown = String::from_utf8_lossy(text);
            let triage::Triage::Request(request) = triage::triage(text, true) else {
                panic!("a request: {shown}")
            };
            let rmcp = serde_json::from_slice::<ClientJsonRpcMessage>(text).expect("rmcp reads it");
            let ours = rmcp_message(text, b"1", request.arguments).expect("read here too");
            assert_eq!(
                serde_json::to_value(&ours).unwrap(),
                serde_json::to_value(&rmcp).unwrap(),
                "{shown}"
            );
        }
        let custom = br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":5,"arguments":{}}}"#;
        assert!(rmcp_message(custom, b"9", Some(Map::new())).is_err());
    }
}
