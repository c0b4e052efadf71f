//! Starting a wait with a progress token and reading its end: shared by the tests of
//! `wait_for_text` and `wait_for_channel`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use super::{assert_json_rpc, assert_valid_output, Client};

/// Sends `tool` with a progress token and returns its request id once the first
/// progress notification has arrived (the wait is under way).
#[track_caller]
pub fn start_wait(client: &mut Client, id: &str, tool: &str, arguments: Value) -> (Value, Value) {
    let id = json!(id);
    let token = json!(format!("progress-{}", id.as_str().unwrap()));
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments, "_meta": {"progressToken": token}}}));
    loop {
        let line = client.next_raw_line().expect("paneward closed stdout");
        let message = assert_json_rpc(&line);
        assert_ne!(
            message.get("id"),
            Some(&id),
            "{tool} ended before any progress: {message}"
        );
        if message["method"] == "notifications/progress" && message["params"]["progressToken"] == token {
            return (id, message["params"].clone());
        }
    }
}

/// The structured result of the call `id`, checked against the tool's output schema.
#[track_caller]
pub fn finish_wait(client: &mut Client, id: &Value, tool: &str) -> Value {
    let response = client.response(id);
    let result = &response["result"];
    assert_ne!(result["isError"], json!(true), "{tool} failed: {response}");
    let structured = result["structuredContent"].clone();
    assert_valid_output(tool, &structured);
    structured
}
