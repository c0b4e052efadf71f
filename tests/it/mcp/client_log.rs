//! The client's log: after `logging/setLevel`, a refusal reaches the client as
//! `notifications/message` with its reason, and typed text reaches no message at all.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::{Client, Scratch, TmuxServer};

/// Sends a request and returns every message up to and including its response.
fn exchange(client: &mut Client, id: i64, method: &str, params: Value) -> Vec<Value> {
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    let mut seen = Vec::new();
    loop {
        let line = client.next_raw_line().expect("paneward closed stdout");
        let message: Value = serde_json::from_str(&line).expect("JSON");
        let done = message.get("id") == Some(&json!(id)) && message.get("method").is_none();
        seen.push(message);
        if done {
            return seen;
        }
    }
}

/// Reads messages until one is a `notifications/message` about a call of `tool` (other
/// events, such as the control connection attaching, may come first); returns all read.
fn until_log_message(client: &mut Client, tool: &str, mut seen: Vec<Value>) -> (Value, Vec<Value>) {
    loop {
        if let Some(found) = seen
            .iter()
            .find(|m| m["method"] == "notifications/message" && m["params"]["data"]["tool"] == tool)
        {
            return (found.clone(), seen);
        }
        let line = client.next_raw_line().expect("paneward closed stdout");
        seen.push(serde_json::from_str(&line).expect("JSON"));
    }
}

#[test]
fn a_refusal_is_logged_to_the_client_with_its_reason_and_never_the_typed_text() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let caller = tmux.recorder(&scratch.path("typed"));
    let other = tmux.recorder(&scratch.path("other"));
    let log_file = scratch.path("stderr");
    let stderr = std::fs::File::create(&log_file).expect("a log file");
    // paneward's own events at debug; rmcp at debug prints whole requests, payload and all
    // (see docs/mcp-quirks.md), which is why its default filter is `rmcp=warn`.
    let mut client = Client::spawn_with_stderr(
        &["-L", &tmux.name],
        &[
            ("TMUX", &tmux.tmux_env()),
            ("TMUX_PANE", &caller),
            ("PANEWARD_LOG", "debug,rmcp=warn"),
        ],
        stderr.into(),
    );
    client.initialize();
    let secret = "hunter2-secret-text";
    let mut seen = exchange(&mut client, 100, "logging/setLevel", json!({"level": "info"}));
    // Typed into another pane: delivered, and logged nowhere.
    seen.extend(exchange(
        &mut client,
        101,
        "tools/call",
        json!({"name": "send_keys", "arguments": {"pane_id": other, "keys": secret, "literal": true}}),
    ));
    tmux.wait_for_text(&other, secret);
    // Aimed at the caller pane: refused, and the client's log says why.
    seen.extend(exchange(
        &mut client,
        102,
        "tools/call",
        json!({"name": "send_keys", "arguments": {"pane_id": caller, "keys": secret, "literal": true}}),
    ));
    let (message, seen) = until_log_message(&mut client, "send_keys", seen);
    let params = &message["params"];
    assert_eq!(params["level"], "info", "{message}");
    assert_eq!(params["logger"], "paneward");
    assert_eq!(params["data"]["tool"], "send_keys");
    assert_eq!(params["data"]["kind"], "blocked");
    let reason = params["data"]["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(&format!("pane {caller} is the caller pane")),
        "{reason}"
    );
    for message in &seen {
        assert!(
            !message.to_string().contains(secret),
            "typed text in a message: {message}"
        );
    }
    drop(client);
    let log = std::fs::read_to_string(&log_file).unwrap_or_default();
    assert!(
        log.contains("call refused"),
        "the refusal is on standard error too: {log}"
    );
    let leaked: Vec<&str> = log.lines().filter(|line| line.contains(secret)).collect();
    assert!(leaked.is_empty(), "typed text in the log: {leaked:?}");
}

#[test]
fn a_tool_above_the_tier_is_logged_as_refused() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward_with(&["--safety", "readonly"], &[]);
    client.initialize();
    let seen = exchange(&mut client, 100, "logging/setLevel", json!({"level": "debug"}));
    let mut seen_all = seen;
    seen_all.extend(exchange(
        &mut client,
        101,
        "tools/call",
        json!({"name": "send_keys", "arguments": {"pane_id": tmux.first_pane(), "keys": "x"}}),
    ));
    let (message, _) = until_log_message(&mut client, "send_keys", seen_all);
    assert_eq!(message["params"]["data"]["kind"], "notAllowed", "{message}");
}
