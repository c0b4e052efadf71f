//! `hand_to_person`: the person (played by the test, typing through tmux as a second
//! client would) answers a password prompt themselves; the reply is what the pane
//! printed after, and neither it nor the audit log holds the secret. A client that
//! cannot ask is refused with the pane named; a 2026-07-28 client is asked in a second
//! round.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::{wait_for, Client, Scratch, TmuxServer};

const SECRET: &str = "hunter2-not-for-agents";

/// A bash pane asking for a password, waiting for it (the kernel says so).
fn asking_pane(tmux: &TmuxServer, client: &mut Client) -> String {
    let pane = tmux.bash_pane();
    let line = "read -rs -p 'Password: ' secret; echo; echo \"took ${#secret} characters\"; echo after-the-read";
    tmux.tmux(&["send-keys", "-t", &pane, "-l", line]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    wait_for(&format!("{pane} reading a password"), || {
        let listed = client.call_ok("list_pane_activity", json!({}));
        let activity = listed["panes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == pane)
            .cloned()?;
        (activity["readsAs"] == "password").then_some(())
    });
    pane
}

/// The person types the secret into `pane` and presses Enter, through tmux.
fn person_types(tmux: &TmuxServer, pane: &str) {
    tmux.tmux(&["send-keys", "-t", pane, "-l", SECRET]);
    tmux.tmux(&["send-keys", "-t", pane, "Enter"]);
}

fn legacy_client(tmux: &TmuxServer, args: &[&str], elicit: bool) -> Client {
    let mut client = tmux.paneward_with(args, &[]);
    let capabilities = if elicit {
        json!({"elicitation": {"form": {}}})
    } else {
        json!({})
    };
    client.send(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": capabilities,
        "clientInfo": {"name": "paneward-tests", "version": "0"}
    }}));
    assert!(client.response(&json!(0)).get("result").is_some());
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    client
}

#[test]
fn the_person_types_the_password_and_the_agent_gets_only_what_the_pane_printed_after() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let audit = scratch.path("audit.log");
    let mut client = legacy_client(&tmux, &["--audit-log", &audit], true);
    let pane = asking_pane(&tmux, &mut client);

    client.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "hand_to_person",
        "arguments": {"pane_id": pane, "reason": "sudo needs your password", "timeout_seconds": 60}}}));
    let mut questions = Vec::new();
    let result = loop {
        let message: Value = serde_json::from_str(&client.next_raw_line().expect("stdout open")).unwrap();
        if message["method"] == "elicitation/create" {
            questions.push(message["params"]["message"].as_str().unwrap().to_string());
            // The person goes to the pane, types, then answers the question.
            person_types(&tmux, &pane);
            client.send(&json!({"jsonrpc": "2.0", "id": message["id"],
                "result": {"action": "accept", "content": {"allow": true}}}));
        } else if message["id"] == json!(7) && message.get("method").is_none() {
            break message["result"].clone();
        }
    };
    assert_eq!(questions.len(), 1, "{questions:?}");
    assert!(
        questions[0].contains(&format!("tmux pane {pane}"))
            && questions[0].contains("echo off")
            && questions[0].contains("sudo needs your password"),
        "{}",
        questions[0]
    );
    assert_ne!(result["isError"], true, "{result}");
    let reply = &result["structuredContent"];
    assert_eq!(reply["outcome"], "waitingAgain", "back at the prompt: {reply}");
    assert_eq!(reply["readsAs"], "password", "{reply}");
    let lines: Vec<&str> = reply["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let took = format!("took {} characters", SECRET.len());
    assert!(
        lines.contains(&took.as_str()) && lines.contains(&"after-the-read"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("Password:")),
        "only what came after: {lines:?}"
    );
    assert!(
        !result.to_string().contains(SECRET),
        "the secret is in the reply: {result}"
    );
    let logged = std::fs::read_to_string(&audit).unwrap();
    assert!(logged.contains("hand_to_person"), "{logged}");
    assert!(!logged.contains(SECRET), "the secret is in the audit log: {logged}");
}

#[test]
fn a_client_that_cannot_ask_is_told_which_pane_and_a_pane_not_waiting_is_refused() {
    let tmux = TmuxServer::start();
    let mut client = legacy_client(&tmux, &[], false);
    let pane = asking_pane(&tmux, &mut client);
    let refused = client.call("hand_to_person", json!({"pane_id": pane, "reason": "your password"}));
    assert_eq!(refused["isError"], true, "{refused}");
    let text = refused["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("this client cannot ask its person") && text.contains(&format!("type in tmux pane {pane}")),
        "{text}"
    );
    // Nothing was typed: the read still waits.
    let listed = client.call_ok("list_pane_activity", json!({}));
    let still = listed["panes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == pane)
        .unwrap()
        .clone();
    assert_eq!(still["readsAs"], "password", "{still}");

    let busy = tmux.window_running("exec sh -c 'while :; do :; done'");
    tmux.wait_for_value(&busy, "#{pane_current_command}", "sh");
    let refused = client.call("hand_to_person", json!({"pane_id": busy, "reason": "x"}));
    let text = refused["content"][0]["text"].as_str().unwrap();
    assert!(text.contains(&format!("{busy} is not waiting for input")), "{text}");
}

#[test]
fn a_current_client_is_asked_in_a_second_round_and_the_repeat_returns_what_followed() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    client.initialize();
    let pane = asking_pane(&tmux, &mut client);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}
    });
    let params = json!({"_meta": meta, "name": "hand_to_person",
        "arguments": {"pane_id": pane, "reason": "type your password", "timeout_seconds": 60}});
    let first = client.request("tools/call", params.clone());
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    person_types(&tmux, &pane);
    let mut repeat = params;
    repeat["requestState"] = first["result"]["requestState"].clone();
    repeat["inputResponses"] = json!({"consent": {"action": "accept", "content": {"allow": true}}});
    let second = client.request("tools/call", repeat);
    let reply = &second["result"]["structuredContent"];
    assert_eq!(reply["outcome"], "waitingAgain", "{second}");
    let lines = reply["lines"].to_string();
    assert!(lines.contains("after-the-read") && !lines.contains(SECRET), "{second}");
}
