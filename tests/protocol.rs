//! MCP over a real stdio pipe to the built binary: handshake, ping, unknown methods,
//! routing errors, and a clean exit on EOF. Nothing but protocol reaches stdout.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

mod support;

use serde_json::{json, Value};
use support::Client;

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
fn a_newer_protocol_version_gets_a_counter_offer() {
    let mut client = Client::spawn(&["-L", "pw-unused-version"], &[]);
    let result = client.initialize_with("2099-01-01");
    assert_eq!(result["protocolVersion"], "2025-11-25");
}

#[test]
fn ping_unknown_methods_and_discover_are_answered_at_once() {
    let mut client = Client::spawn(&["-L", "pw-unused-methods"], &[]);
    let discover = client.request("server/discover", json!({}));
    assert!(
        discover["error"]["code"].is_i64(),
        "server/discover must get an error: {discover}"
    );
    client.initialize();
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
    let unknown = client.request("paneward/nonsense", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    // Still serving.
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
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
    let mut client = client;
    // Every remaining line is JSON-RPC (Client::response already parsed the earlier ones).
    let line = client.next_raw_line().expect("ping response");
    let message: Value = serde_json::from_str(&line).expect("JSON");
    assert_eq!(message["jsonrpc"], "2.0");
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
