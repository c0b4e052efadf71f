//! MCP over a real stdio pipe to the built binary: handshake and version negotiation,
//! ping, `_meta`, unknown methods and `server/discover`, malformed input, routing
//! errors, and a clean exit on EOF. Nothing but protocol reaches stdout.
//! Why each of these needs pinning: docs/mcp-quirks.md.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{Client, Scratch, TmuxServer};
use serde_json::{json, Value};

#[test]
fn the_handshake_names_the_server_and_agrees_a_version() {
    let mut client = Client::spawn(&["-L", "pw-unused-handshake"], &[]);
    let result = client.initialize_with("2025-06-18");
    assert_eq!(result["serverInfo"]["name"], "paneward");
    assert_eq!(result["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(result["protocolVersion"], "2025-06-18");
    assert!(result["capabilities"]["tools"].is_object());
    let instructions = result["instructions"].as_str().unwrap();
    assert!(
        instructions.contains("untrusted") && instructions.contains("5000"),
        "{instructions}"
    );
    assert_eq!(client.close().code(), Some(0));
}

#[test]
fn every_supported_protocol_version_is_agreed_as_offered() {
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut client = Client::spawn(&["-L", "pw-unused-versions"], &[]);
        let result = client.initialize_with(version);
        assert_eq!(result["protocolVersion"], version);
        assert!(
            client.list_tools()["tools"].is_array(),
            "{version}: serving after the handshake"
        );
    }
}

#[test]
fn a_newer_protocol_version_gets_a_counter_offer() {
    let mut client = Client::spawn(&["-L", "pw-unused-version"], &[]);
    let result = client.initialize_with("2099-01-01");
    assert_eq!(result["protocolVersion"], "2025-11-25");
}

#[test]
fn ping_is_answered_before_and_after_the_handshake() {
    let mut client = Client::spawn(&["-L", "pw-unused-ping"], &[]);
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
    client.initialize();
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
}

#[test]
fn a_progress_token_in_meta_is_accepted() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let meta = json!({"progressToken": "progress-1"});
    let listed = client.request("tools/list", json!({"_meta": meta}));
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    let pane = tmux.first_pane();
    let called = client.request(
        "tools/call",
        json!({"name": "snapshot_pane", "arguments": {"pane_id": pane}, "_meta": {"progressToken": 7}}),
    );
    assert_eq!(
        called["result"]["structuredContent"]["pane"]["id"],
        json!(pane),
        "{called}"
    );
    crate::support::assert_valid_output("snapshot_pane", &called["result"]["structuredContent"]);
    assert_eq!(client.request("ping", json!({"_meta": meta}))["result"], json!({}));
}

#[test]
fn unknown_methods_get_method_not_found_at_once_before_and_after_the_handshake() {
    let mut client = Client::spawn(&["-L", "pw-unused-methods"], &[]);
    for method in ["paneward/nonsense", "prompts/nothing"] {
        let answer = client.request(method, json!({}));
        assert_eq!(answer["error"]["code"], -32601, "{method} before initialize: {answer}");
    }
    client.initialize();
    for method in ["paneward/nonsense", "sampling/createMessage"] {
        let answer = client.request(method, json!({}));
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
    assert_eq!(client.request("ping", json!({}))["result"], json!({}), "still serving");
}

#[test]
fn server_discover_is_answered_before_and_after_the_handshake() {
    let mut client = Client::spawn(&["-L", "pw-unused-discover"], &[]);
    // As the official Python SDK (2.x) opens, with its `_meta`.
    let sdk_probe = json!({"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "mcp", "version": "0.1.0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    }});
    let answer = client.request("server/discover", sdk_probe.clone());
    assert!(
        crate::support::strings(&answer["result"]["supportedVersions"]).contains(&"2025-06-18".to_string()),
        "{answer}"
    );
    // A bare probe lacks the revision's required `_meta`: -32602 naming it, and the
    // handshake still follows (a legacy client falls back on any error but -32022).
    let answer = client.request("server/discover", json!({}));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains("protocolVersion"));
    assert_eq!(client.initialize()["protocolVersion"], "2025-06-18");
    let answer = client.request("server/discover", sdk_probe);
    assert!(
        answer["result"]["supportedVersions"].is_array(),
        "after initialize: {answer}"
    );
}

/// The next line on stdout, parsed.
fn next_message(client: &mut Client) -> Value {
    let line = client.next_raw_line().expect("a line");
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {line}"))
}

#[test]
fn a_malformed_line_gets_a_parse_error_and_the_next_request_still_works() {
    let mut client = Client::spawn(&["-L", "pw-unused-malformed"], &[]);
    client.send_line("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
    let answer = next_message(&mut client);
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    assert!(
        answer.as_object().unwrap().contains_key("id") && answer["id"].is_null(),
        "{answer}"
    );
    client.initialize();
    client.send_line("not json at all");
    let answer = next_message(&mut client);
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    assert!(client.list_tools()["tools"].is_array());
}

#[test]
fn json_that_is_not_a_message_or_is_a_batch_gets_invalid_request_with_a_null_id() {
    let mut client = Client::spawn(&["-L", "pw-unused-invalid"], &[]);
    client.initialize();
    // A JSON-RPC batch (allowed by protocol 2025-03-26 only) is refused the same way.
    let batch = json!([{"jsonrpc": "2.0", "id": 50, "method": "ping"}]);
    for message in [json!({"hello": "world"}), batch] {
        client.send(&message);
        let answer = next_message(&mut client);
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        assert!(
            answer.as_object().unwrap().contains_key("id") && answer["id"].is_null(),
            "{answer}"
        );
    }
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
}

#[test]
fn a_notification_that_does_not_fit_its_method_gets_no_answer() {
    let mut client = Client::spawn(&["-L", "pw-unused-unfit-note"], &[]);
    client.initialize();
    client.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":5}"#);
    client.send_line(r#"{"jsonrpc":"2.0","id":"after","method":"ping"}"#);
    let answer = next_message(&mut client);
    assert_eq!(
        (&answer["id"], &answer["result"]),
        (&json!("after"), &json!({})),
        "{answer}"
    );
}

#[test]
fn a_notification_before_the_handshake_does_not_end_the_server() {
    let mut client = Client::spawn(&["-L", "pw-unused-early"], &[]);
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}));
    client.send(&json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert_eq!(client.initialize()["serverInfo"]["name"], "paneward");
    assert_eq!(client.close().code(), Some(0));
}

#[test]
fn eof_before_the_handshake_is_a_clean_exit() {
    let client = Client::spawn(&["-L", "pw-unused-early-eof"], &[]);
    assert_eq!(client.close().code(), Some(0));
}

#[test]
fn an_unknown_tool_is_a_tool_error_that_names_it() {
    let mut client = Client::spawn(&["-L", "pw-unused-unknown"], &[]);
    client.initialize();
    let text = client.call_err("no_such_tool", json!({}));
    assert!(text.contains("`no_such_tool`") && text.contains("tools/list"), "{text}");
}

#[test]
fn eof_on_stdin_ends_the_process_cleanly_and_stdout_held_only_protocol() {
    let mut client = Client::spawn(&["-L", "pw-unused-eof"], &[]);
    client.initialize();
    let id = json!(99);
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}));
    let response = client.response(&id);
    assert!(response["result"]["tools"].is_array());
    client.send(&json!({"jsonrpc": "2.0", "id": 100, "method": "ping"}));
    assert_eq!(client.response(&json!(100))["result"], json!({}));
    // Client::response checked every line so far; close() checks the rest, to EOF.
    assert_eq!(client.close().code(), Some(0));
}

#[test]
fn a_bad_command_line_exits_with_usage_and_a_hint() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_paneward"))
        .arg("--safety=everything")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty(), "usage errors go to stderr");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown safety tier") && stderr.contains("--help"),
        "{stderr}"
    );
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_paneward"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("--socket-name"));
}

#[test]
fn version_and_the_tools_listing_say_what_this_build_offers() {
    let run = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_paneward"))
            .args(args)
            .env_remove("PANEWARD_SAFETY")
            .env_remove("LIBTMUX_SAFETY")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(
        run(&["--version"]).trim(),
        format!("paneward {}", env!("CARGO_PKG_VERSION"))
    );
    let readonly = run(&["tools", "--safety", "readonly"]);
    // The counts come from the schema files, so adding a tool does not edit this test.
    let count = |tiers: &[&str]| crate::support::tools_of_tier(tiers).len();
    let heading = format!(
        "{} tools at safety tier readonly, toolsets inspect,manage,execute,teardown:",
        count(&["readonly"])
    );
    assert!(readonly.starts_with(&heading), "{readonly}");
    assert!(
        readonly.contains("snapshot_pane") && !readonly.contains("send_keys"),
        "{readonly}"
    );
    let mutating = run(&["tools"]);
    let heading = format!(
        "{} tools at safety tier mutating, toolsets inspect,manage,execute,teardown:",
        count(&["readonly", "mutating"])
    );
    assert!(mutating.starts_with(&heading), "{mutating}");
    assert!(
        mutating
            .lines()
            .any(|l| l.split_whitespace().take(2).eq(["send_keys", "mutating"])),
        "{mutating}"
    );
}

/// Reads lines until `done` says the replies seen so far are all that is wanted;
/// returns every reply, by id.
fn replies_until(client: &mut Client, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let mut replies = Vec::new();
    while !done(&replies) {
        replies.push(next_message(client));
    }
    replies
}

fn replies_to<'a>(replies: &'a [Value], id: &Value) -> Vec<&'a Value> {
    replies.iter().filter(|reply| &reply["id"] == id).collect()
}

fn send_keys_line(id: &Value, pane: &str, text: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "send_keys",
        "arguments": {"pane_id": pane, "keys": text, "literal": true, "enter": true}}})
    .to_string()
}

fn cancel_line(id: &Value) -> String {
    json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "test"}})
        .to_string()
}

/// 100 numbered lines typed by pipelined `send_keys` reach the pane in request order.
fn pipelined_input_keeps_its_order(tmux: &TmuxServer, args: &[&str]) {
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward_with(args, &[]);
    client.initialize();
    let ids: Vec<Value> = (0..100).map(|i| json!(1000 + i)).collect();
    let lines: Vec<String> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| send_keys_line(id, &pane, &format!("line {i}")))
        .collect();
    client.send_line(&lines.join("\n"));
    let replies = replies_until(&mut client, |seen| seen.len() == ids.len());
    for reply in &replies {
        assert_ne!(reply["result"]["isError"], json!(true), "{reply}");
    }
    let typed = scratch.wait_for_lines("typed", 100);
    let expected: Vec<String> = (0..100).map(|i| format!("line {i}")).collect();
    assert_eq!(typed.lines().collect::<Vec<_>>(), expected, "{args:?}");
}

#[test]
fn pipelined_input_arrives_in_request_order_without_control_mode() {
    let tmux = TmuxServer::start();
    pipelined_input_keeps_its_order(&tmux, &["--no-control-mode"]);
}

#[test]
fn pipelined_input_arrives_in_request_order_when_control_mode_is_refused() {
    let tmux = TmuxServer::start();
    // Two detached sessions: paneward answers through its native client, one connection per call.
    tmux.tmux(&["new-session", "-d", "-s", "second", "/bin/sh"]);
    pipelined_input_keeps_its_order(&tmux, &[]);
}

#[test]
fn malformed_tool_calls_get_invalid_params_naming_the_field() {
    let mut client = Client::spawn(&["-L", "pw-unused-params"], &[]);
    client.initialize();
    let cases = [
        (json!(null), "/params"),
        (json!({}), "/params"),
        (json!({"name": 5}), "/params/name"),
        (json!({"name": "list_sessions", "arguments": [1]}), "/params/arguments"),
        (json!({"name": "list_sessions", "arguments": "a"}), "/params/arguments"),
        (json!({"name": "list_sessions", "arguments": 3}), "/params/arguments"),
    ];
    for (i, (params, field)) in cases.into_iter().enumerate() {
        let id = json!(100 + i);
        let mut request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call"});
        if !params.is_null() {
            request["params"] = params.clone();
        }
        client.send(&request);
        let answer = client.response(&id);
        assert_eq!(answer["error"]["code"], -32602, "{params}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(&format!("{field}:")), "{params}: {message}");
    }
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
}

#[test]
fn every_id_that_parsed_is_echoed_even_where_rmcp_cannot_carry_it() {
    let mut client = Client::spawn(&["-L", "pw-unused-ids"], &[]);
    client.initialize();
    client.send_line(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":[]}"#);
    let answer = next_message(&mut client);
    assert_eq!(
        (answer["id"].clone(), answer["error"]["code"].clone()),
        (json!(7), json!(-32602))
    );
    // Too large for rmcp's i64, and a float: answered with the id as written.
    for (id, method) in [("18446744073709551615", "ping"), ("2.5", "ping"), ("-9", "tools/list")] {
        client.send_line(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#));
        let line = client.next_raw_line().unwrap();
        assert!(
            line.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"#)),
            "{line}"
        );
    }
    client.send_line(r#"{"jsonrpc":"1.0","id":"old","method":"ping"}"#);
    let answer = next_message(&mut client);
    assert_eq!(
        (answer["id"].clone(), answer["error"]["code"].clone()),
        (json!("old"), json!(-32600))
    );
}

/// A ping line of exactly `len` bytes before its newline, padded with spaces.
fn ping_of_length(id: u32, len: usize) -> String {
    let mut line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
    line.push_str(&" ".repeat(len - line.len()));
    line
}

#[test]
fn every_line_is_answered_up_to_the_limit_and_beyond_it() {
    const LIMIT: usize = 16 * 1024 * 1024;
    let mut client = Client::spawn(&["-L", "pw-unused-long"], &[]);
    client.initialize();
    // Enough requests that the arrival number rmcp sees is longer than the id below.
    for _ in 0..12 {
        client.request("ping", json!({}));
    }
    // With its newline, a line may hold LIMIT bytes: rmcp's own limit.
    client.send_line(&ping_of_length(5, LIMIT - 1));
    let answer = next_message(&mut client);
    assert_eq!((answer["id"].clone(), answer["result"].clone()), (json!(5), json!({})));
    for len in [LIMIT, LIMIT + 1] {
        client.send_line(&ping_of_length(6, len));
        let answer = next_message(&mut client);
        assert_eq!(answer["error"]["code"], -32600, "{len}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(&LIMIT.to_string()), "{message}");
    }
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
}

#[test]
fn a_request_whose_id_is_in_flight_is_refused_and_not_run() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward();
    let k = json!("k");
    let end = json!("end");
    let lines = [
        send_keys_line(&k, &pane, "dup 0"),
        send_keys_line(&k, &pane, "dup 1"),
        send_keys_line(&k, &pane, "dup 2"),
        send_keys_line(&end, &pane, "end"),
    ];
    client.send_line(&lines.join("\n"));
    let replies = replies_until(&mut client, |seen| {
        replies_to(seen, &k).len() == 3 && !replies_to(seen, &end).is_empty()
    });
    let codes: Vec<Value> = replies_to(&replies, &k)
        .iter()
        .map(|reply| reply["error"]["code"].clone())
        .collect();
    assert_eq!(
        codes.iter().filter(|code| **code == json!(-32600)).count(),
        2,
        "{replies:?}"
    );
    let typed = scratch.wait_for_lines("typed", 2);
    assert_eq!(typed, "dup 0\nend\n");
}

#[test]
fn a_cancelled_request_that_has_not_started_never_runs_and_gets_no_reply() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward_with(&["--no-control-mode"], &[]);
    client.initialize();
    let mut lines: Vec<String> = (1..=50)
        .map(|i| send_keys_line(&json!(i), &pane, &format!("row {i}")))
        .collect();
    lines.extend((26..=50).map(|i| cancel_line(&json!(i))));
    lines.push(send_keys_line(&json!("end"), &pane, "end"));
    client.send_line(&lines.join("\n"));
    let replies = replies_until(&mut client, |seen| {
        !replies_to(seen, &json!("end")).is_empty() && seen.iter().filter(|reply| reply["id"].is_i64()).count() >= 25
    });
    let mut answered: Vec<Value> = replies.iter().map(|reply| reply["id"].clone()).collect();
    answered.sort_by_key(|id| id.as_i64().unwrap_or(i64::MAX));
    let mut expected: Vec<Value> = (1..=25).map(|i| json!(i)).collect();
    expected.push(json!("end"));
    assert_eq!(answered, expected);
    let typed = scratch.wait_for_lines("typed", 26);
    let mut rows: Vec<String> = (1..=25).map(|i| format!("row {i}")).collect();
    rows.push("end".into());
    assert_eq!(typed.lines().collect::<Vec<_>>(), rows);
}
