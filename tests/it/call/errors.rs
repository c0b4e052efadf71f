//! Tool errors say what to do: the text for the model, and `_meta["paneward/error"]`
//! with a machine-readable `kind` and whether sending the same call again is safe.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::{Client, TmuxServer};

/// The `_meta["paneward/error"]` of a failed call.
fn error_meta(client: &mut Client, tool: &str, arguments: Value) -> Value {
    let result = client.call(tool, arguments);
    assert_eq!(result["isError"], json!(true), "{tool} should have failed: {result}");
    result["_meta"]["paneward/error"].clone()
}

#[test]
fn each_error_carries_its_kind_and_whether_a_retry_is_safe() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    assert_eq!(
        error_meta(&mut client, "snapshot_pane", json!({"pane_id": "%999"})),
        json!({"kind": "notFound", "retrySafe": false})
    );
    assert_eq!(
        error_meta(&mut client, "snapshot_pane", json!({"pane_id": "main"})),
        json!({"kind": "invalidArguments", "retrySafe": false})
    );
    assert_eq!(
        error_meta(&mut client, "no_such_tool", json!({})),
        json!({"kind": "unknownTool", "retrySafe": false})
    );
    let pane = tmux.first_pane();
    tmux.tmux(&["copy-mode", "-t", &pane]);
    assert_eq!(
        error_meta(
            &mut client,
            "send_keys",
            json!({"pane_id": pane, "keys": "x", "literal": true})
        ),
        json!({"kind": "blocked", "retrySafe": false})
    );
}

#[test]
fn a_server_that_is_not_there_yet_is_safe_to_retry() {
    let mut client = Client::spawn(&["-L", "pw-no-server-for-errors"], &[]);
    client.initialize();
    assert_eq!(
        error_meta(&mut client, "list_panes", json!({})),
        json!({"kind": "tmuxUnavailable", "retrySafe": true})
    );
}

#[test]
fn a_tool_above_the_tier_is_not_allowed_and_not_worth_retrying() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward_with(&["--safety", "readonly"], &[]);
    client.initialize();
    assert_eq!(
        error_meta(
            &mut client,
            "send_keys",
            json!({"pane_id": tmux.first_pane(), "keys": "x"})
        ),
        json!({"kind": "notAllowed", "retrySafe": false})
    );
}
