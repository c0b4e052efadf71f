//! Ownership against a real tmux: the inspect tools report paneward's marks (each at
//! its own level, never inherited), and `--scope owned` keeps every tool above readonly
//! to marked panes, windows and sessions, refusing by name with nothing changed.
//! The marks are set here with tmux itself, as paneward's create tools set them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::{Client, Scratch, TmuxServer};

fn mark(tmux: &TmuxServer, level: &str, target: &str) {
    let option = match level {
        "-p" => "@paneward_owned_pane",
        "-w" => "@paneward_owned_window",
        _ => "@paneward_owned_session",
    };
    let mut args = vec!["set-option"];
    if level != "-s" {
        args.push(level);
    }
    args.extend(["-t", target, option, "1"]);
    tmux.tmux(&args);
}

fn owned_scope(tmux: &TmuxServer, safety: &str) -> Client {
    let mut client = tmux.paneward_with(&["--safety", safety], &[("PANEWARD_SCOPE", "owned")]);
    client.initialize();
    client
}

/// The kind and text of a failed call.
fn failed(client: &mut Client, tool: &str, arguments: Value) -> (String, String) {
    let result = client.call(tool, arguments);
    assert_eq!(result["isError"], json!(true), "{tool} should have failed: {result}");
    let kind = result["_meta"]["paneward/error"]["kind"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    (
        kind,
        result["content"][0]["text"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn the_inspect_tools_report_each_mark_at_its_own_level() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("sleep 600");
    let window = tmux.pane_value(&pane, "#{window_id}");
    let sibling = tmux.split(&pane, "-h", "sleep 600");
    mark(&tmux, "-w", &window);
    mark(&tmux, "-p", &pane);
    let mut client = tmux.paneward();
    let panes = client.call_ok("list_panes", json!({}));
    for listed in panes["panes"].as_array().unwrap() {
        let id = listed["id"].as_str().unwrap();
        assert_eq!(
            listed["owned"],
            json!(id == pane),
            "pane {id}: a window's mark is not its panes'"
        );
    }
    assert_eq!(
        client.call_ok("get_pane_info", json!({"pane_id": pane}))["pane"]["owned"],
        json!(true)
    );
    assert_eq!(
        client.call_ok("get_pane_info", json!({"pane_id": sibling}))["pane"]["owned"],
        json!(false)
    );
    let windows = client.call_ok("list_windows", json!({}));
    for listed in windows["windows"].as_array().unwrap() {
        assert_eq!(listed["owned"], json!(listed["id"] == json!(window)), "{listed}");
    }
    let sessions = client.call_ok("list_sessions", json!({}));
    assert_eq!(sessions["sessions"][0]["owned"], json!(false));
    mark(&tmux, "-s", "main");
    let sessions = client.call_ok("list_sessions", json!({}));
    assert_eq!(sessions["sessions"][0]["owned"], json!(true));
}

#[test]
fn scope_owned_refuses_input_to_a_pane_paneward_did_not_create_and_allows_its_own() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let theirs = tmux.recorder(&scratch.path("theirs"));
    let ours = tmux.recorder(&scratch.path("ours"));
    mark(&tmux, "-p", &ours);
    let mut client = owned_scope(&tmux, "mutating");
    let (kind, text) = failed(&mut client, "send_keys", json!({"paneId": theirs, "keys": "nope"}));
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(
        text.contains(&format!("pane {theirs}")) && text.contains("--scope owned"),
        "{text}"
    );
    // A batch row is checked the same way: one unowned pane among owned ones refuses all.
    let (kind, text) = failed(
        &mut client,
        "send_keys_batch",
        json!({"operations": [{"paneId": ours, "keys": "a"}, {"paneId": theirs, "keys": "b"}]}),
    );
    assert_eq!(kind, "notAllowed", "{text}");
    client.call_ok("send_keys", json!({"paneId": ours, "keys": "mine", "literal": true}));
    assert_eq!(scratch.wait_for_lines("ours", 1), "mine\n");
    assert_eq!(scratch.read("theirs"), "", "nothing reached the unowned pane");
    // Server-wide changes name no object: refused.
    let (kind, text) = failed(
        &mut client,
        "set_option",
        json!({"name": "@x", "scope": "global", "value": "1"}),
    );
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(text.contains("whole tmux server"), "{text}");
    // Reads are never limited.
    client.call_ok("get_pane_info", json!({"pane_id": theirs}));
}

#[test]
fn scope_owned_refuses_killing_what_paneward_did_not_create() {
    let tmux = TmuxServer::start();
    let theirs = tmux.window_running("sleep 600");
    let ours = tmux.window_running("sleep 600");
    mark(&tmux, "-p", &ours);
    let mut client = owned_scope(&tmux, "destructive");
    let (kind, text) = failed(&mut client, "kill_pane", json!({"pane_id": theirs}));
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(
        text.contains(&format!("pane {theirs}")) && text.contains("--scope owned"),
        "{text}"
    );
    assert!(tmux.try_tmux(&["display-message", "-p", "-t", &theirs, "x"]));
    // A window is its own object: a marked pane does not make its window paneward's.
    let window = tmux.pane_value(&ours, "#{window_id}");
    let (kind, text) = failed(&mut client, "kill_window", json!({"window_id": window}));
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(text.contains(&format!("window {window}")), "{text}");
    let (kind, text) = failed(&mut client, "kill_server", json!({"confirm": true}));
    assert_eq!(kind, "notAllowed", "{text}");
    let killed = client.call_ok("kill_pane", json!({"pane_id": ours}));
    assert_eq!(killed["killed"], json!(ours));
    // The doctor says which scope runs.
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_paneward"));
    crate::support::clean_env(&mut command);
    let output = command
        .args(["-L", &tmux.name, "--scope", "owned", "doctor"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("scope") && text.contains("owned"), "{text}");
}
