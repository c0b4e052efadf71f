//! `hand_to_person`: the person (played by the test, typing through tmux as a second
//! client would) answers a password prompt themselves; the reply is what the pane
//! printed after, and neither it nor the audit log holds the secret. A client that
//! cannot ask is refused with the pane named; a 2026-07-28 client is asked in a second
//! round.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::json;

use crate::support::asking::yes;
use crate::support::{strings, wait_for, Client, Scratch, TmuxServer};

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

#[test]
fn the_person_types_the_password_and_the_agent_gets_only_what_the_pane_printed_after() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let audit = scratch.path("audit.log");
    let mut client = tmux.paneward_with(&["--audit-log", &audit], &[]);
    client.initialize_legacy(true);
    let pane = asking_pane(&tmux, &mut client);

    let arguments = json!({"pane_id": pane, "reason": "sudo needs your password", "timeout_seconds": 60});
    let (questions, result) = client.call_answering(7, "hand_to_person", arguments, |_| {
        // The person goes to the pane, types, then answers the question.
        person_types(&tmux, &pane);
        yes()
    });
    assert_eq!(questions.len(), 1, "{questions:?}");
    let question = questions[0]["message"].as_str().unwrap();
    assert!(
        question.contains(&format!("tmux pane {pane}"))
            && question.contains("echo off")
            && question.contains("sudo needs your password"),
        "{question}"
    );
    assert_ne!(result["isError"], true, "{result}");
    let reply = &result["structuredContent"];
    assert_eq!(reply["outcome"], "waitingAgain", "back at the prompt: {reply}");
    assert_eq!(reply["readsAs"], "password", "{reply}");
    let lines = strings(&reply["lines"]);
    let took = format!("took {} characters", SECRET.len());
    assert!(
        lines.contains(&took) && lines.iter().any(|l| l == "after-the-read"),
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
    let mut client = tmux.paneward_with(&[], &[]);
    client.initialize_legacy(false);
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
    let arguments = json!({"pane_id": pane, "reason": "type your password", "timeout_seconds": 60});
    let first = client.call_current("hand_to_person", &arguments, None, None);
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    person_types(&tmux, &pane);
    let state = first["result"]["requestState"].as_str();
    let second = client.call_current("hand_to_person", &arguments, state, Some(yes()));
    let reply = &second["result"]["structuredContent"];
    assert_eq!(reply["outcome"], "waitingAgain", "{second}");
    let lines = reply["lines"].to_string();
    assert!(lines.contains("after-the-read") && !lines.contains(SECRET), "{second}");
}
