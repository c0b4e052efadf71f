//! The family's two batches under `--profile libtmux`, `call_read_tools_batch` and
//! `send_keys_batch`: a row that fails is reported in its place (the family's JSON-RPC
//! error object), counted, and ends the batch under `on_error: stop` only.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::{Client, TmuxServer};

/// Calls `tool` with a failing row then a good one under `on_error`, and checks the
/// reply's account of the rows; returns the reply.
fn failing_then_good(client: &mut Client, tool: &str, operations: Value, on_error: &str) -> Value {
    let reply = client.call(tool, json!({"on_error": on_error, "operations": operations}));
    assert_eq!(reply["isError"], json!(false), "{reply}");
    let batch = reply["structuredContent"].clone();
    let stop = on_error == "stop";
    let results = batch["results"].as_array().unwrap();
    assert_eq!(results.len(), if stop { 1 } else { 2 }, "{batch}");
    assert_eq!(batch["onError"], on_error, "{batch}");
    assert_eq!(batch["failed"], 1, "{batch}");
    assert_eq!(batch["succeeded"], if stop { 0 } else { 1 }, "{batch}");
    assert_eq!(batch["stoppedAt"], if stop { json!(0) } else { Value::Null }, "{batch}");
    let failed = &results[0];
    assert_eq!(failed["index"], 0, "{batch}");
    assert_eq!(failed["success"], false, "{batch}");
    assert_eq!(failed["result"], Value::Null, "{batch}");
    assert_eq!(failed["error"]["code"], -32602, "the caller's move: {batch}");
    assert!(failed["error"]["message"].as_str().unwrap().contains("%999"), "{batch}");
    if !stop {
        assert_eq!(results[1]["index"], 1, "{batch}");
        assert_eq!(results[1]["success"], true, "{batch}");
        assert_eq!(results[1]["error"], Value::Null, "{batch}");
    }
    batch
}

#[test]
fn a_failed_row_is_reported_in_its_place_and_stops_the_batch_only_under_stop() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    tmux.wait_for_prompt(&pane);
    let mut client = tmux.paneward_with(&super::PROFILE, &[]);
    client.initialize();

    let reads = json!([
        {"tool": "get_pane_info", "arguments": {"pane": "%999"}},
        {"tool": "list_sessions"}
    ]);
    failing_then_good(&mut client, "call_read_tools_batch", reads.clone(), "stop");
    let read = failing_then_good(&mut client, "call_read_tools_batch", reads, "continue");
    // A read row's result is the whole tool result, its text the structured content's JSON.
    let listed = &read["results"][1]["result"];
    assert_eq!(listed["isError"], false, "{read}");
    let text: Value = serde_json::from_str(listed["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, listed["structuredContent"], "{read}");
    assert_eq!(listed["structuredContent"]["sessions"][0]["name"], "main", "{read}");

    let typing = json!([
        {"pane": "%999", "text": "never-typed"},
        {"pane": pane, "text": "typed-after-the-failure"}
    ]);
    failing_then_good(&mut client, "send_keys_batch", typing.clone(), "stop");
    assert!(!tmux.capture(&pane).contains("typed-after-the-failure"));
    let sent = failing_then_good(&mut client, "send_keys_batch", typing, "continue");
    assert_eq!(sent["results"][1]["result"]["pane"], pane, "{sent}");
    tmux.wait_for_text(&pane, "typed-after-the-failure");
}
