//! What to do with one line from the client before rmcp sees it.
//!
//! rmcp 3.11 drops malformed JSON without a word, answers an unknown method sent
//! before the lifecycle starts with -32602 ("_meta is missing"), and ends the whole
//! server on a notification that arrives before it starts. So these cases are settled
//! here. The lifecycle starts with `initialize` (revisions up to 2025-11-25) or with
//! the first request that carries a stateless revision's `_meta` (2026-07-28;
//! `server/discover` is a probe and starts nothing). A request whose `_meta` names a
//! handshake revision starts nothing and, before `initialize`, is refused: served, it
//! would start a stateless session that no later `initialize` could turn into a
//! handshake one. A method 2026-07-28 removed is not found for a request that names that
//! revision, whatever its params. Requests with an id are checked further (`jsonrpc`,
//! params) and handed back for the id swap (see `ids`); cancellations are the stdio
//! layer's own business. Everything else goes to rmcp unchanged. Every answer given here
//! carries the client's id exactly as written. See docs/mcp-quirks.md.

use crate::limits::METHOD_ECHO_MAX_CHARS;
use std::ops::Range;

use serde_json::{Map, Value};

use crate::mcp::protocol::revision::{self, Era};
use crate::mcp::protocol::spans;

/// The request methods paneward serves; any other request gets -32601 at once.
pub const SERVED_METHODS: [&str; 20] = [
    "initialize",
    "server/discover",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "subscriptions/listen",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "skills/list",
    "skills/get",
];

/// The methods MCP 2026-07-28 removed: a request naming that revision gets -32601
/// for them (HTTP 404), as for a method never served, before its params are read.
pub const REMOVED_IN_STATELESS: [&str; 5] = [
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// The requests a client of a handshake revision may send before `initialize`.
const BEFORE_THE_HANDSHAKE: [&str; 3] = ["initialize", "server/discover", "ping"];

/// JSON-RPC's error codes used here.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;

/// The decision for one line.
#[derive(Debug, PartialEq)]
pub enum Triage {
    /// Hand the line to rmcp unchanged; `starts` says rmcp starts serving with it, and
    /// in which era (see [`Request::starts`]).
    Forward { starts: Option<Era> },
    /// A well-formed request for a served method: hand it to rmcp under a new id.
    Request(Request),
    /// `notifications/cancelled` for the request the client called `key`.
    Cancel { key: String },
    /// Answer the client with this message (one JSON line) and give rmcp nothing.
    Answer(String),
    /// Ignore the line; the reason goes to the debug log.
    Ignore(&'static str),
}

/// A request to forward.
#[derive(Debug, PartialEq)]
pub struct Request {
    /// The client's id as canonical JSON, to compare ids.
    pub key: String,
    /// Where the id stands in the line, to echo it as written and to swap it.
    pub id_span: Range<usize>,
    /// A tool call, which may change tmux and so waits for its turn.
    pub tool_call: bool,
    /// rmcp starts serving with this request, in this era: `initialize` (the
    /// handshake), or a request whose `_meta` names a stateless revision with the keys
    /// 2026-07-28 requires. Before that, rmcp answers requests one at a time and ends on
    /// a notification.
    pub starts: Option<Era>,
    /// The object of `params.arguments` of a `tools/call` or `prompts/get`, taken out
    /// of the message read here, so that the stdio layer hands it to rmcp without
    /// reading it again ([`crate::mcp::protocol::rmcp_message`]).
    pub arguments: Option<Map<String, Value>>,
}

/// Decides what happens to `text` (one message, without its newline or a leading
/// byte order mark); `lifecycle_started` says whether a request that starts the
/// lifecycle ([`Request::starts`]) was already forwarded.
pub fn triage(text: &[u8], lifecycle_started: bool) -> Triage {
    if text.iter().all(u8::is_ascii_whitespace) {
        return Triage::Ignore("blank line");
    }
    let mut message = match serde_json::from_slice::<Value>(text) {
        Ok(Value::Object(message)) => message,
        // Valid JSON of the wrong shape: rmcp answers it as an invalid request.
        Ok(_) => return Triage::Forward { starts: None },
        Err(error) => return Triage::Answer(parse_error(&error)),
    };
    let method = message.get("method").and_then(Value::as_str);
    let id = usable_id(&message);
    let holds_arguments = matches!(method, Some("tools/call" | "prompts/get"));
    let verdict = match (method, id) {
        (Some(method), Some(id)) if !SERVED_METHODS.contains(&method) => {
            Triage::Answer(method_not_found(&as_written(text, id), method))
        }
        (Some(method), Some(id))
            if REMOVED_IN_STATELESS.contains(&method) && revision::names_stateless_revision(&message) =>
        {
            Triage::Answer(method_not_found(&as_written(text, id), method))
        }
        (Some(method), Some(id))
            if !lifecycle_started
                && !BEFORE_THE_HANDSHAKE.contains(&method)
                && revision::named_era(&message) == Some(Era::Handshake) =>
        {
            Triage::Answer(handshake_first(&as_written(text, id), &message))
        }
        (Some(method), Some(id)) => request(text, &message, method, id),
        (Some("notifications/cancelled"), None) if lifecycle_started && !message.contains_key("id") => {
            match message.get("params").and_then(|params| params.get("requestId")) {
                Some(id) if id.is_string() || id.is_number() => Triage::Cancel { key: id.to_string() },
                _ => Triage::Ignore("a cancellation without a request id"),
            }
        }
        // Before the lifecycle starts rmcp ends the session on anything but a request.
        (Some(_), None) if !lifecycle_started && !message.contains_key("id") => {
            Triage::Ignore("a notification before the lifecycle started")
        }
        (None, Some(_)) if !lifecycle_started && is_response(&message) => {
            Triage::Ignore("a response before the lifecycle started")
        }
        _ => Triage::Forward { starts: None },
    };
    match verdict {
        Triage::Request(mut request) if holds_arguments => {
            request.arguments = take_arguments(&mut message);
            Triage::Request(request)
        }
        verdict => verdict,
    }
}

/// The object of `params.arguments`, taken out of `message`; `None` where it holds none.
fn take_arguments(message: &mut Map<String, Value>) -> Option<Map<String, Value>> {
    match message.get_mut("params")?.as_object_mut()?.remove("arguments")? {
        Value::Object(arguments) => Some(arguments),
        _ => None,
    }
}

/// A request id JSON-RPC allows and the client can match: a string or a number.
fn usable_id(message: &Map<String, Value>) -> Option<&Value> {
    message.get("id").filter(|id| id.is_string() || id.is_number())
}

/// The id of `text` exactly as the client wrote it (`"\u0061"` stays so, `7.7e1`
/// too), so that every answer matches the request byte for byte; `id` is the same id
/// read, written out only if the span cannot be found (a line serde_json read as an
/// object with an id always has one).
fn as_written(text: &[u8], id: &Value) -> Vec<u8> {
    match spans::id_span(text) {
        Some(span) => text[span].to_vec(),
        None => id.to_string().into_bytes(),
    }
}

/// Checks a request for a served method; rmcp would refuse these without the id.
fn request(text: &[u8], message: &Map<String, Value>, method: &str, id: &Value) -> Triage {
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        let problem = "invalid request: /jsonrpc must be \"2.0\"";
        return Triage::Answer(error_message(&as_written(text, id), INVALID_REQUEST, problem));
    }
    if let Some(problem) = crate::mcp::protocol::params::problem(method, message) {
        let problem = format!("invalid params: {problem}");
        return Triage::Answer(error_message(&as_written(text, id), INVALID_PARAMS, &problem));
    }
    match spans::id_span(text) {
        Some(id_span) => Triage::Request(Request {
            key: id.to_string(),
            id_span,
            tool_call: method == "tools/call",
            starts: starts(method, message),
            arguments: None,
        }),
        // Cannot happen for a line serde_json read as an object with an id.
        None => Triage::Forward {
            starts: starts(method, message),
        },
    }
}

/// Whether rmcp starts serving with this request, and in which era (see
/// [`Request::starts`]).
fn starts(method: &str, message: &Map<String, Value>) -> Option<Era> {
    match method {
        "initialize" => Some(Era::Handshake),
        // A probe: rmcp answers it and waits for the lifecycle to start.
        "server/discover" | "ping" => None,
        _ => revision::current_revision_request(message).then_some(Era::Stateless),
    }
}

/// The refusal of a request, before `initialize`, whose `_meta` names a handshake
/// revision: served without a handshake it would start a stateless session.
fn handshake_first(id: &[u8], message: &Map<String, Value>) -> String {
    let named = message
        .get("params")
        .and_then(|params| params.get("_meta"))
        .and_then(|meta| meta.get("io.modelcontextprotocol/protocolVersion"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let message = format!(
        "invalid request: _meta names protocol version {named}, a revision that begins with initialize; \
         send initialize first, or name 2026-07-28 in _meta to be served without a handshake"
    );
    error_message(id, INVALID_REQUEST, &message)
}

/// The refusal of `initialize` on a connection whose lifecycle started without a
/// handshake: rmcp would answer it and go on serving statelessly, so the client's
/// requests without 2026-07-28's `_meta` would all be refused after it.
pub fn handshake_after_stateless(id: &[u8]) -> String {
    let message = "invalid request: this connection already serves 2026-07-28 without a handshake \
                   (its first request named that revision in _meta); initialize is not served on it: \
                   name the revision in every request's _meta, or start paneward again to use a handshake";
    error_message(id, INVALID_REQUEST, message)
}

fn is_response(message: &Map<String, Value>) -> bool {
    message.contains_key("result") || message.contains_key("error")
}

/// The answer to a line that is not JSON: there is no id to answer, so it is null.
pub fn parse_error(error: &serde_json::Error) -> String {
    error_message(
        NULL_ID,
        PARSE_ERROR,
        &format!("parse error: the line is not JSON ({error})"),
    )
}

/// The answer to a message line longer than the transport accepts.
pub fn line_too_long(limit: usize) -> String {
    error_message(
        NULL_ID,
        INVALID_REQUEST,
        &format!("invalid request: a message line may hold at most {limit} bytes"),
    )
}

/// The answer to a request whose id (`id`, as written) is already taken by one in flight.
pub fn id_in_flight(id: &[u8]) -> String {
    let shown = String::from_utf8_lossy(id);
    let message = format!("invalid request: id {shown} belongs to a request still in flight; use a new id");
    error_message(id, INVALID_REQUEST, &message)
}

/// The answer to a request rmcp could not read, with the client's id as written.
pub fn unreadable(id: &[u8], error: &serde_json::Error) -> String {
    error_message(id, INVALID_REQUEST, &format!("invalid request: {error}"))
}

/// The answer to a request whose id rmcp cannot carry (over HTTP, where ids are not
/// swapped): a number with a fraction or past 64 bits.
pub fn id_not_carried(id: &[u8]) -> String {
    let shown = String::from_utf8_lossy(id);
    let message = format!(
        "invalid request: id {shown} cannot be carried over HTTP; use a string or an integer from -2^63 to 2^63-1"
    );
    error_message(id, INVALID_REQUEST, &message)
}

/// The answer to a request whose params rmcp would not read as its method's.
pub fn invalid_params(id: &[u8], problem: &str) -> String {
    error_message(id, INVALID_PARAMS, &format!("invalid params: {problem}"))
}

/// The answer to JSON that is no JSON-RPC message rmcp reads (no method and no
/// result, an id that is no string or number, a batch): its id cannot be told, so it
/// is null.
pub fn not_a_message(error: &serde_json::Error) -> String {
    error_message(
        NULL_ID,
        INVALID_REQUEST,
        &format!("invalid request: not a JSON-RPC message ({error})"),
    )
}

fn method_not_found(id: &[u8], method: &str) -> String {
    let method: String = method.chars().take(METHOD_ECHO_MAX_CHARS).collect();
    error_message(id, METHOD_NOT_FOUND, &format!("method not found: {method}"))
}

/// The id of an answer to input whose id cannot be told.
const NULL_ID: &[u8] = b"null";

/// A JSON-RPC error response, fields in the order the specification shows them;
/// `id` is a JSON token as the client wrote it (a string or a number), or `null`.
fn error_message(id: &[u8], code: i64, message: &str) -> String {
    // A string: encoding cannot fail.
    let message = serde_json::to_string(message).unwrap_or_default();
    let id = String::from_utf8_lossy(id);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":{message}}}}}"#)
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
            let line = br#"{"jsonrpc":"2.0","id":"a-1","method":"sampling/createMessage","params":{"_meta":{}}}"#;
            assert_eq!(answer_code(triage(line, initialized)), (METHOD_NOT_FOUND, json!("a-1")));
            let line = br#"{"jsonrpc":"2.0","id":7,"method":"prompts/nothing"}"#;
            assert_eq!(answer_code(triage(line, initialized)), (METHOD_NOT_FOUND, json!(7)));
        }
    }

    fn request_of(triage: Triage) -> Request {
        match triage {
            Triage::Request(request) => request,
            other => panic!("expected a request, got {other:?}"),
        }
    }

    #[test]
    fn served_requests_are_handed_back_with_their_id_and_where_it_stands() {
        let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
        let request = request_of(triage(init, false));
        assert!(request.starts == Some(Era::Handshake) && !request.tool_call);
        assert_eq!(&init[request.id_span], b"0");
        let call = br#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":1}}}"#;
        let request = request_of(triage(call, true));
        assert!(request.tool_call);
        assert_eq!(request.key, "18446744073709551615");
        let list = br#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#;
        assert_eq!(request_of(triage(list, true)).key, "\"a\"");
    }

    #[test]
    fn a_request_with_the_current_revisions_meta_starts_the_lifecycle_and_a_probe_does_not() {
        let meta = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
        let list = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{meta}}}}}"#);
        assert_eq!(request_of(triage(list.as_bytes(), false)).starts, Some(Era::Stateless));
        let discover = format!(r#"{{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{{"_meta":{meta}}}}}"#);
        assert_eq!(request_of(triage(discover.as_bytes(), false)).starts, None);
        let bare = br#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#;
        assert_eq!(request_of(triage(bare, false)).starts, None);
        let unserved = list.replace("2026-07-28", "2099-01-01");
        assert_eq!(request_of(triage(unserved.as_bytes(), false)).starts, None);
        let no_capabilities = list.replace(r#","io.modelcontextprotocol/clientCapabilities":{}"#, "");
        assert_eq!(request_of(triage(no_capabilities.as_bytes(), false)).starts, None);
    }

    #[test]
    fn bad_params_and_a_bad_version_are_answered_here_with_the_id() {
        let bad_params = br#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":[]}"#;
        assert_eq!(answer_code(triage(bad_params, true)), (INVALID_PARAMS, json!(7)));
        let no_name = br#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":5}}"#;
        assert_eq!(answer_code(triage(no_name, true)), (INVALID_PARAMS, json!("c")));
        let old = br#"{"jsonrpc":"1.0","id":8,"method":"ping"}"#;
        assert_eq!(answer_code(triage(old, true)), (INVALID_REQUEST, json!(8)));
    }

    #[test]
    fn cancellations_after_the_handshake_are_kept_and_odd_shapes_go_to_rmcp() {
        let note = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"k"}}"#;
        assert_eq!(triage(note, true), Triage::Cancel { key: "\"k\"".into() });
        // Odd ids and odd shapes are rmcp's to refuse.
        for line in [
            &br#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#[..],
            b"[1,2]",
            b"{\"foo\":1}",
        ] {
            assert_eq!(triage(line, false), Triage::Forward { starts: None });
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
    fn a_method_2026_removed_is_not_found_for_a_request_naming_2026_whatever_its_params() {
        let meta = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
        for method in REMOVED_IN_STATELESS {
            for started in [false, true] {
                let line = format!(r#"{{"jsonrpc":"2.0","id":500,"method":"{method}","params":{{"_meta":{meta}}}}}"#);
                assert_eq!(
                    answer_code(triage(line.as_bytes(), started)),
                    (METHOD_NOT_FOUND, json!(500)),
                    "{method}"
                );
            }
        }
        // Without 2026's _meta they are what they were: a handshake and its methods.
        let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert_eq!(request_of(triage(ping, true)).starts, None);
    }

    #[test]
    fn a_request_naming_a_handshake_revision_before_initialize_is_refused() {
        let meta = r#"{"io.modelcontextprotocol/protocolVersion":"2025-06-18","io.modelcontextprotocol/clientCapabilities":{}}"#;
        let list = format!(r#"{{"jsonrpc":"2.0","id":"l","method":"tools/list","params":{{"_meta":{meta}}}}}"#);
        let Triage::Answer(answer) = triage(list.as_bytes(), false) else {
            panic!("expected an answer")
        };
        assert!(answer.contains("send initialize first"), "{answer}");
        assert_eq!(
            answer_code(triage(list.as_bytes(), false)),
            (INVALID_REQUEST, json!("l"))
        );
        // After the handshake it is an ordinary request of that session.
        assert_eq!(request_of(triage(list.as_bytes(), true)).starts, None);
        let ping = format!(r#"{{"jsonrpc":"2.0","id":2,"method":"ping","params":{{"_meta":{meta}}}}}"#);
        assert_eq!(request_of(triage(ping.as_bytes(), false)).starts, None);
    }

    #[test]
    fn answers_carry_the_id_as_written() {
        for (id, line) in [
            (r#""\u0061""#, r#"{"jsonrpc":"2.0","id":"\u0061","method":"no/such"}"#),
            ("7.7e1", r#"{"jsonrpc":"2.0","id":7.7e1,"method":"no/such"}"#),
            (
                "7.7e1",
                r#"{"jsonrpc":"2.0","id":7.7e1,"method":"tools/list","params":[]}"#,
            ),
            ("1E2", r#"{"jsonrpc":"1.0","id":1E2,"method":"ping"}"#),
        ] {
            let Triage::Answer(answer) = triage(line.as_bytes(), true) else {
                panic!("expected an answer to {line}")
            };
            assert!(answer.contains(&format!(r#""id":{id},"#)), "{answer}");
        }
        let in_flight = id_in_flight(br#""\u0061""#);
        assert!(
            in_flight.starts_with(r#"{"jsonrpc":"2.0","id":"\u0061","#),
            "{in_flight}"
        );
        let _: Value = serde_json::from_str(&in_flight).unwrap();
        assert!(id_in_flight(b"7.7e1").starts_with(r#"{"jsonrpc":"2.0","id":7.7e1,"#));
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
}
