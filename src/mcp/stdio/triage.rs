//! What to do with one line from the client before rmcp sees it.
//!
//! rmcp 3.11 drops malformed JSON without a word, answers an unknown method sent
//! before `initialize` with -32602 ("_meta is missing"), and ends the whole server on
//! a notification that arrives before `initialize`. Clients probing with
//! `server/discover` wait on, or misread, those answers. So these cases are settled
//! here, and everything else goes to rmcp unchanged. See docs/mcp-quirks.md.

use serde::Serialize;
use serde_json::{Map, Value};

/// The request methods paneward serves; any other request gets -32601 at once.
pub const SERVED_METHODS: [&str; 4] = ["initialize", "ping", "tools/list", "tools/call"];

/// JSON-RPC's error codes used here.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;

/// The longest method name echoed back in an error message.
const METHOD_ECHO_CHARS: usize = 100;

/// The decision for one line.
#[derive(Debug, PartialEq)]
pub enum Triage {
    /// Hand the line to rmcp; `initialize` says it is the handshake request.
    Forward { initialize: bool },
    /// Answer the client with this message (one JSON line) and give rmcp nothing.
    Answer(String),
    /// Ignore the line; the reason goes to the debug log.
    Ignore(&'static str),
}

/// Decides what happens to `line` (one message, without its newline);
/// `initialize_seen` says whether an `initialize` request was already forwarded.
pub fn triage(line: &[u8], initialize_seen: bool) -> Triage {
    // RFC 8259 lets a parser skip a byte order mark; rmcp does.
    let text = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if text.iter().all(u8::is_ascii_whitespace) {
        return Triage::Ignore("blank line");
    }
    let message = match serde_json::from_slice::<Value>(text) {
        Ok(Value::Object(message)) => message,
        // Valid JSON of the wrong shape: rmcp answers it as an invalid request.
        Ok(_) => return Triage::Forward { initialize: false },
        Err(error) => return Triage::Answer(parse_error(&error)),
    };
    let method = message.get("method").and_then(Value::as_str);
    let id = usable_id(&message);
    match (method, id) {
        (Some(method), Some(id)) if !SERVED_METHODS.contains(&method) => Triage::Answer(method_not_found(id, method)),
        (Some(method), Some(_)) => Triage::Forward {
            initialize: method == "initialize",
        },
        // Before the handshake rmcp ends the session on anything but a request.
        (Some(_), None) if !initialize_seen && !message.contains_key("id") => {
            Triage::Ignore("a notification before initialize")
        }
        (None, Some(_)) if !initialize_seen && is_response(&message) => Triage::Ignore("a response before initialize"),
        _ => Triage::Forward { initialize: false },
    }
}

/// A request id rmcp can route: a string or an integer.
fn usable_id(message: &Map<String, Value>) -> Option<&Value> {
    message
        .get("id")
        .filter(|id| id.is_string() || id.is_i64() || id.is_u64())
}

fn is_response(message: &Map<String, Value>) -> bool {
    message.contains_key("result") || message.contains_key("error")
}

/// The answer to a line that is not JSON: there is no id to answer, so it is null.
pub fn parse_error(error: &serde_json::Error) -> String {
    error_message(
        &Value::Null,
        PARSE_ERROR,
        format!("parse error: the line is not JSON ({error})"),
    )
}

/// The answer to a message line longer than the transport accepts.
pub fn line_too_long(limit: usize) -> String {
    error_message(
        &Value::Null,
        INVALID_REQUEST,
        format!("invalid request: a message line may hold at most {limit} bytes"),
    )
}

fn method_not_found(id: &Value, method: &str) -> String {
    let method: String = method.chars().take(METHOD_ECHO_CHARS).collect();
    error_message(id, METHOD_NOT_FOUND, format!("method not found: {method}"))
}

/// A JSON-RPC error response, fields in the order the specification shows them.
#[derive(Serialize)]
struct ErrorResponse<'a> {
    jsonrpc: &'static str,
    id: &'a Value,
    error: ErrorObject,
}

#[derive(Serialize)]
struct ErrorObject {
    code: i64,
    message: String,
}

fn error_message(id: &Value, code: i64, message: String) -> String {
    let response = ErrorResponse {
        jsonrpc: "2.0",
        id,
        error: ErrorObject { code, message },
    };
    // Strings, integers and a JSON value: serializing cannot fail.
    serde_json::to_string(&response).unwrap_or_default()
}

/// rmcp writes its "Invalid request" answer without an `id`; JSON-RPC requires
/// `"id": null` when the id could not be read. Returns the repaired line, if needed.
pub fn with_null_id(line: &[u8]) -> Option<Vec<u8>> {
    const ID_LESS_ERROR: &[u8] = br#"{"jsonrpc":"2.0","error":"#;
    let rest = line.strip_prefix(ID_LESS_ERROR)?;
    let mut fixed = Vec::with_capacity(line.len() + 10);
    fixed.extend_from_slice(br#"{"jsonrpc":"2.0","id":null,"error":"#);
    fixed.extend_from_slice(rest);
    Some(fixed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer_code(triage: Triage) -> (i64, Value) {
        match triage {
            Triage::Answer(line) => {
                let message: Value = serde_json::from_str(&line).unwrap();
                assert_eq!(message["jsonrpc"], "2.0");
                (message["error"]["code"].as_i64().unwrap(), message["id"].clone())
            }
            other => panic!("expected an answer, got {other:?}"),
        }
    }

    #[test]
    fn text_that_is_not_json_gets_a_parse_error_with_a_null_id() {
        for line in [&b"this is not json"[..], b"{\"jsonrpc\":", b"\xff\xfe"] {
            assert_eq!(answer_code(triage(line, true)), (PARSE_ERROR, Value::Null));
        }
    }

    #[test]
    fn requests_for_unserved_methods_are_answered_here_with_their_id() {
        for initialized in [false, true] {
            let line = br#"{"jsonrpc":"2.0","id":"a-1","method":"server/discover","params":{"_meta":{}}}"#;
            assert_eq!(answer_code(triage(line, initialized)), (METHOD_NOT_FOUND, json!("a-1")));
            let line = br#"{"jsonrpc":"2.0","id":7,"method":"resources/list"}"#;
            assert_eq!(answer_code(triage(line, initialized)), (METHOD_NOT_FOUND, json!(7)));
        }
    }

    #[test]
    fn served_methods_and_everything_after_the_handshake_go_to_rmcp() {
        let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#;
        assert_eq!(triage(init, false), Triage::Forward { initialize: true });
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1}}}"#;
        assert_eq!(triage(call, true), Triage::Forward { initialize: false });
        let note = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
        assert_eq!(triage(note, true), Triage::Forward { initialize: false });
        // Odd ids and odd shapes are rmcp's to refuse.
        for line in [
            &br#"{"jsonrpc":"2.0","id":1.5,"method":"foo"}"#[..],
            b"[1,2]",
            b"{\"foo\":1}",
        ] {
            assert_eq!(triage(line, false), Triage::Forward { initialize: false });
        }
    }

    #[test]
    fn notifications_and_responses_before_the_handshake_are_ignored() {
        let note = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
        assert!(matches!(triage(note, false), Triage::Ignore(_)));
        let response = br#"{"jsonrpc":"2.0","id":3,"result":{}}"#;
        assert!(matches!(triage(response, false), Triage::Ignore(_)));
        assert!(matches!(triage(b"  ", false), Triage::Ignore(_)));
    }

    #[test]
    fn a_long_method_name_is_cut_in_the_answer() {
        let method = "x".repeat(5000);
        let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}"}}"#);
        let Triage::Answer(message) = triage(line.as_bytes(), true) else {
            panic!("expected an answer")
        };
        assert!(message.len() < 300, "{message}");
    }

    #[test]
    fn only_an_id_less_error_gets_a_null_id() {
        let fixed = with_null_id(br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}"#).unwrap();
        let fixed: Value = serde_json::from_slice(&fixed).unwrap();
        assert_eq!(fixed["id"], Value::Null);
        assert_eq!(fixed["error"]["code"], INVALID_REQUEST);
        assert_eq!(with_null_id(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#), None);
    }
}
