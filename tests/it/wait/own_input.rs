//! Waits and paneward's own typing: the echo of a line paneward typed into a pane is
//! not that pane's output to `wait_for_text` and no change to `wait_for_idle`, unless
//! `include_own_input`; the same text printed by the program after the echo still is.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::waits::{finish_wait, start_wait};
use crate::support::{assert_json_rpc, strings, Client, TmuxServer};
use serde_json::{json, Value};

fn shell(tmux: &TmuxServer) -> String {
    let pane = tmux.window_running("/bin/sh");
    tmux.wait_for_prompt(&pane);
    pane
}

/// Types `keys` through paneward while the wait `wait` runs, and returns the wait's
/// result, whichever of the two replies comes first.
fn type_during(client: &mut Client, wait: &Value, pane: &str, keys: &str, enter: bool) -> Value {
    let typing = json!("typing");
    client.send(&json!({"jsonrpc": "2.0", "id": typing, "method": "tools/call",
        "params": {"name": "send_keys", "arguments": {"pane_id": pane, "keys": keys, "literal": true, "enter": enter}}}));
    let (mut typed, mut waited) = (None, None);
    while typed.is_none() || waited.is_none() {
        let message = assert_json_rpc(&client.next_raw_line().expect("paneward closed stdout"));
        if message.get("id") == Some(&typing) {
            assert_ne!(message["result"]["isError"], true, "{message}");
            typed = Some(());
        } else if message.get("id") == Some(wait) {
            assert_ne!(message["result"]["isError"], true, "{message}");
            waited = Some(message["result"]["structuredContent"].clone());
        }
    }
    waited.unwrap()
}

#[test]
fn the_echo_of_a_line_paneward_typed_matches_only_with_include_own_input() {
    let tmux = TmuxServer::start();
    let pane = shell(&tmux);
    let mut client = tmux.paneward();
    // Typed, not submitted: the row holds only its echo.
    client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "OWN-ECHO-ONLY", "literal": true, "enter": false}),
    );
    tmux.wait_for_text(&pane, "OWN-ECHO-ONLY");
    let wait = |include: bool| {
        json!({"pane_ids": [pane], "patterns": ["OWN-ECHO-ONLY"], "since_entry": false,
               "timeout_seconds": 0.5, "include_own_input": include})
    };
    let hidden = client.call_ok("wait_for_text", wait(false));
    assert_eq!(hidden["outcome"], "timeout", "{hidden}");
    let counted = client.call_ok("wait_for_text", wait(true));
    assert_eq!(counted["outcome"], "matched", "{counted}");
    let lines = strings(&counted["lines"]);
    assert!(lines.len() == 1 && lines[0].ends_with(" OWN-ECHO-ONLY"), "{counted}");
}

#[test]
fn output_printed_after_the_echo_counts_even_when_it_is_the_typed_text() {
    let tmux = TmuxServer::start();
    let pane = shell(&tmux);
    let mut client = tmux.paneward();
    // While the wait runs: the echo `$ echo OWN-LIVE` comes first, then the output.
    let (id, _) = start_wait(
        &mut client,
        "live",
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["OWN-LIVE"], "timeout_seconds": 20}),
    );
    let reply = type_during(&mut client, &id, &pane, "echo OWN-LIVE", true);
    assert_eq!(reply["outcome"], "matched", "{reply}");
    assert_eq!(strings(&reply["lines"]), ["OWN-LIVE"], "{reply}");
    // `cat` prints exactly the line typed, right below the terminal's echo of it: the
    // first row is the echo, the second the program's output.
    tmux.tmux(&["send-keys", "-t", &pane, "-l", "cat"]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    tmux.wait_for_value(&pane, "#{pane_current_command}", "cat");
    client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "DUP-LINE", "literal": true, "enter": true}),
    );
    tmux.wait_for_text(&pane, "DUP-LINE\nDUP-LINE\n");
    let wait = |include: bool| {
        json!({"pane_ids": [pane], "patterns": ["DUP-LINE"], "since_entry": false, "timeout_seconds": 5,
               "include_own_input": include})
    };
    let reply = client.call_ok("wait_for_text", wait(false));
    assert_eq!(reply["outcome"], "matched", "{reply}");
    assert_eq!(strings(&reply["lines"]), ["DUP-LINE"], "{reply}");
    let reply = client.call_ok("wait_for_text", wait(true));
    assert_eq!(strings(&reply["lines"]), ["DUP-LINE", "DUP-LINE"], "{reply}");
}

#[test]
fn wait_for_idle_sees_no_change_in_its_own_echo_unless_asked() {
    let tmux = TmuxServer::start();
    let pane = shell(&tmux);
    let mut client = tmux.paneward();
    for (include, keys) in [(false, "IDLE-OWN-A"), (true, "IDLE-OWN-B")] {
        let (id, _) = start_wait(
            &mut client,
            &format!("idle-{include}"),
            "wait_for_idle",
            json!({"pane_id": pane, "quiet_seconds": 4, "timeout_seconds": 30, "include_own_input": include}),
        );
        let reply = type_during(&mut client, &id, &pane, keys, false);
        assert_eq!(reply["outcome"], "quiet", "{reply}");
        assert_eq!(reply["sawChange"], include, "include_own_input {include}: {reply}");
        assert!(tmux.capture(&pane).contains(keys), "{}", tmux.capture(&pane));
        client.call_ok("send_keys", json!({"pane_id": pane, "keys": "C-u", "enter": false}));
        wait_for_cleared(&tmux, &pane, keys);
    }
}

fn wait_for_cleared(tmux: &TmuxServer, pane: &str, keys: &str) {
    crate::support::wait_for("the typed line cleared", || {
        (!tmux.capture(pane).contains(keys)).then_some(())
    });
}

/// A pane whose program reads with the terminal's echo off and answers each line by
/// printing it back once `channel` is signalled; returns the pane once it reads.
fn echo_off_replier(tmux: &TmuxServer, channel: &str) -> String {
    let pane = tmux.window_running(&format!(
        "stty -echo; echo reading; while read l; do tmux wait-for {channel}; echo \"$l\"; done"
    ));
    tmux.wait_for_text(&pane, "reading\n");
    pane
}

#[test]
fn a_line_printed_back_by_a_program_with_echo_off_is_output_to_wait_for_text() {
    let tmux = TmuxServer::start();
    let pane = echo_off_replier(&tmux, "replier-text");
    let mut client = tmux.paneward();
    client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "SAID-BACK", "literal": true, "enter": true}),
    );
    // Nothing showed at the typing; the program prints the word only once released,
    // while the wait runs.
    let (id, _) = start_wait(
        &mut client,
        "said-back",
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["SAID-BACK"], "timeout_seconds": 5}),
    );
    tmux.tmux(&["wait-for", "-S", "replier-text"]);
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "matched", "{reply}");
    assert_eq!(reply["sawNewOutput"], true, "{reply}");
    assert_eq!(strings(&reply["lines"]), ["SAID-BACK"], "{reply}");
}

#[test]
fn a_line_printed_back_by_a_program_with_echo_off_is_a_change_to_wait_for_idle() {
    let tmux = TmuxServer::start();
    let pane = echo_off_replier(&tmux, "replier-idle");
    let mut client = tmux.paneward();
    client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "IDLE-BACK", "literal": true, "enter": true}),
    );
    let (id, _) = start_wait(
        &mut client,
        "idle-back",
        "wait_for_idle",
        json!({"pane_id": pane, "quiet_seconds": 4, "timeout_seconds": 30}),
    );
    tmux.tmux(&["wait-for", "-S", "replier-idle"]);
    tmux.wait_for_text(&pane, "\nIDLE-BACK\n");
    let reply = finish_wait(&mut client, &id, "wait_for_idle");
    assert_eq!(reply["outcome"], "quiet", "{reply}");
    assert_eq!(reply["sawChange"], true, "the printed line went unseen: {reply}");
}
