//! `wait_for_text` against real tmux servers, through the binary.
//!
//! A wait is started with a progress token; its first progress notification proves it
//! has taken its entry reading, so text written after that is new to it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::waits::{finish_wait, start_wait};
use crate::support::TmuxServer;
use serde_json::json;

fn type_line(tmux: &TmuxServer, pane: &str, line: &str) {
    tmux.tmux(&["send-keys", "-t", pane, "-l", line]);
    tmux.tmux(&["send-keys", "-t", pane, "Enter"]);
}

fn shell(tmux: &TmuxServer) -> String {
    let pane = tmux.window_running("/bin/sh");
    // Its prompt drawn later would be new output to a wait already under way.
    tmux.wait_for_prompt(&pane);
    pane
}

#[test]
fn new_text_matches_and_the_reply_names_pane_pattern_rows_and_times() {
    let tmux = TmuxServer::start();
    let pane = shell(&tmux);
    let mut client = tmux.paneward();
    let (id, progress) = start_wait(
        &mut client,
        "w1",
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["BUILD-42"], "timeout_seconds": 20}),
    );
    assert_eq!(progress["total"], json!(20.0));
    assert!(
        progress["message"]
            .as_str()
            .unwrap()
            .ends_with(&format!("of 20.0 s, pane {pane}")),
        "{progress}"
    );
    type_line(&tmux, &pane, "echo BUILD-$((40+2))");
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "matched");
    assert_eq!(reply["paneId"], json!(pane));
    assert_eq!(reply["pattern"], "BUILD-42");
    assert_eq!(reply["lines"], json!(["BUILD-42"]));
    assert_eq!(reply["alreadyOnScreen"], false);
    assert_eq!(reply["sawNewOutput"], true);
    assert_eq!(reply["timeoutSeconds"], json!(20.0));
    assert_eq!(reply["timeoutClamped"], false);
    assert!(reply["elapsedSeconds"].as_f64().unwrap() > 0.0, "{reply}");
}

#[test]
fn text_already_on_screen_is_reported_but_not_returned_as_new_unless_asked() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_showing("printf 'READY-7\\n'", "READY-7");
    let mut client = tmux.paneward();
    let waited = client.call_ok(
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["READY-7"], "timeout_seconds": 0.5}),
    );
    assert_eq!(waited["outcome"], "timeout");
    assert_eq!(waited["alreadyOnScreen"], true);
    assert_eq!(waited["sawNewOutput"], false);
    assert_eq!(waited["lines"], json!([]));

    // since_entry: false takes the screen as it is, at once; a huge timeout is clamped.
    let at_once = client.call_ok(
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["READY-\\d"], "regex": true, "since_entry": false, "timeout_seconds": 1e9}),
    );
    assert_eq!(at_once["outcome"], "matched");
    assert_eq!(at_once["lines"], json!(["READY-7"]));
    assert_eq!(at_once["alreadyOnScreen"], true);
    assert_eq!(at_once["timeoutClamped"], true);
    assert_eq!(at_once["timeoutSeconds"], json!(300.0));
}

#[test]
fn stop_markers_win_and_escape_sequences_never_match() {
    let tmux = TmuxServer::start();
    let pane = shell(&tmux);
    let mut client = tmux.paneward();
    let (id, _) = start_wait(
        &mut client,
        "w1",
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["\u{1b}[31m", "[31m", "abcd"]}),
    );
    // The escape is made by printf, so the typed line does not hold "[31m" either.
    type_line(&tmux, &pane, "printf 'ab\\033[%dmcd\\033[0m\\n' 31");
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "matched");
    assert_eq!(reply["pattern"], "abcd");
    assert_eq!(reply["lines"], json!(["abcd"]));

    let (id, _) = start_wait(
        &mut client,
        "w2",
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["SUCC-\\d"], "stop": ["FAIL(ED)?-\\d"], "regex": true}),
    );
    // One write shows both rows in the same reading: the stop marker wins the tie.
    type_line(&tmux, &pane, "printf 'SUCC-%d\\nFAILED-%d\\n' 1 3");
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "stopped");
    assert_eq!(reply["pattern"], "FAIL(ED)?-\\d");
    assert_eq!(reply["lines"], json!(["FAILED-3"]));
}

#[test]
fn the_first_of_several_panes_to_write_wins() {
    let tmux = TmuxServer::start();
    let quiet = shell(&tmux);
    let busy = shell(&tmux);
    let mut client = tmux.paneward();
    let (id, _) = start_wait(
        &mut client,
        "w1",
        "wait_for_text",
        json!({"pane_ids": [quiet, busy], "patterns": ["DONE-9"]}),
    );
    type_line(&tmux, &busy, "echo DONE-$((3*3))");
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "matched");
    assert_eq!(reply["paneId"], json!(busy));
}

#[test]
fn any_output_and_output_then_quiet_end_the_wait() {
    let tmux = TmuxServer::start();
    let pane = shell(&tmux);
    let mut client = tmux.paneward();
    let (id, _) = start_wait(&mut client, "w1", "wait_for_text", json!({"pane_ids": [pane]}));
    type_line(&tmux, &pane, "echo one");
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "output");
    assert_eq!(reply["sawNewOutput"], true);
    assert!(!reply["lines"].as_array().unwrap().is_empty(), "{reply}");

    // The terminal echoes a typed line at once, and the shell runs it when it gets to
    // it: on a busy machine the echo alone can be followed by 0.3 s of quiet. With echo
    // off, the command's own output is the first new text the wait sees.
    type_line(&tmux, &pane, "stty -echo; echo ECHO-$((0))-OFF");
    tmux.wait_for_text(&pane, "ECHO-0-OFF");
    tmux.wait_for_prompt(&pane);
    let (id, _) = start_wait(
        &mut client,
        "w2",
        "wait_for_text",
        json!({"pane_ids": [pane], "idle_seconds": 0.3}),
    );
    type_line(&tmux, &pane, "echo QUIET-$((2+2))");
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "idle");
    // Without echo the newline is not shown either: the output follows the prompt.
    assert!(
        reply["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|line| line.as_str().unwrap().ends_with(" QUIET-4")),
        "{reply}"
    );
}

#[test]
fn a_pane_that_dies_or_goes_full_screen_ends_the_wait_at_once() {
    let tmux = TmuxServer::start();
    let pane = shell(&tmux);
    let mut client = tmux.paneward();
    let (id, _) = start_wait(
        &mut client,
        "w1",
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["never"]}),
    );
    type_line(&tmux, &pane, "printf '\\033[?1049h'");
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "alternateScreen");
    assert_eq!(reply["paneId"], json!(pane));

    let gone = shell(&tmux);
    let (id, _) = start_wait(
        &mut client,
        "w2",
        "wait_for_text",
        json!({"pane_ids": [gone], "patterns": ["never"]}),
    );
    tmux.tmux(&["kill-pane", "-t", &gone]);
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "paneDied");
    assert_eq!(reply["paneId"], json!(gone));

    let dying = shell(&tmux);
    tmux.tmux(&["set-option", "-p", "-t", &dying, "remain-on-exit", "on"]);
    let (id, _) = start_wait(
        &mut client,
        "w3",
        "wait_for_text",
        json!({"pane_ids": [dying], "patterns": ["never"]}),
    );
    type_line(&tmux, &dying, "exit 3");
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "paneDied");
}

#[test]
fn a_wait_attaches_no_client() {
    let tmux = TmuxServer::start();
    let pane = shell(&tmux);
    let mut client = tmux.paneward();
    // paneward's own connection (a control client, where it attaches) is made first.
    client.call_ok("list_panes", json!({}));
    let before = tmux.tmux(&["list-clients", "-F", "#{client_name} #{client_pid}"]);
    let (id, _) = start_wait(
        &mut client,
        "w1",
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["END-1"]}),
    );
    let during = tmux.tmux(&["list-clients", "-F", "#{client_name} #{client_pid}"]);
    assert_eq!(during, before);
    type_line(&tmux, &pane, "echo END-$((0+1))");
    assert_eq!(finish_wait(&mut client, &id, "wait_for_text")["outcome"], "matched");
}

#[test]
fn bad_patterns_panes_and_missing_panes_are_refused_by_name() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    for (arguments, expected) in [
        (
            json!({"pane_ids": [pane], "patterns": ["ok", "(open"], "regex": true}),
            "/patterns/1: is not a valid regular expression",
        ),
        (json!({"pane_ids": [pane], "stop": [""]}), "/stop/0: must not be empty"),
        (json!({"pane_ids": [pane, pane]}), "/pane_ids/1"),
        (json!({"pane_ids": ["main:0"]}), "/pane_ids/0"),
        (json!({"pane_ids": [pane], "timeout_seconds": 0}), "/timeout_seconds"),
        (json!({"pane_ids": ["%999"]}), "%999"),
    ] {
        let error = client.call_err("wait_for_text", arguments.clone());
        assert!(error.contains(expected), "{arguments}: {error}");
    }
}

#[test]
fn rows_that_scroll_past_between_two_readings_are_still_matched() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["set-option", "-g", "history-limit", "50000"]);
    let pane = shell(&tmux);
    let mut client = tmux.paneward();
    let (id, _) = start_wait(
        &mut client,
        "w1",
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["^2500$"], "regex": true}),
    );
    type_line(&tmux, &pane, "seq 1 5000");
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "matched");
    assert_eq!(reply["lines"], json!(["2500"]));
}

#[test]
fn a_row_rewritten_in_place_without_moving_the_cursor_is_seen() {
    let tmux = TmuxServer::start();
    let channel = format!("{}.go", tmux.name);
    // After the signal the pane writes a row and returns the cursor to where it was.
    let pane = tmux.window_running(&format!(
        "tmux wait-for {channel}; printf 'DONE-77\\r'; exec sleep 100000"
    ));
    let mut client = tmux.paneward();
    let (id, _) = start_wait(
        &mut client,
        "w1",
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["DONE-77"]}),
    );
    tmux.tmux(&["wait-for", "-S", &channel]);
    let reply = finish_wait(&mut client, &id, "wait_for_text");
    assert_eq!(reply["outcome"], "matched");
    assert_eq!(reply["lines"], json!(["DONE-77"]));
}
