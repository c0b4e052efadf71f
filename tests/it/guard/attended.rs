//! The attended-pane rule against a real tmux with a real terminal client attached (on
//! a pseudo terminal): input to a pane that terminal shows is refused on every input
//! path, and allowed once the terminal detaches or shows another window, for a pane a
//! zoom hides, for a pane handed over with `paneward grant`, and with
//! `--allow-attended-input`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::process::Command;

use crate::support::asking::yes;
use crate::support::{clean_env, wait_for, Client, TmuxServer};
use serde_json::{json, Value};

/// A window of two panes running `cat` (the first active), and its id.
fn window_of_two_cats(tmux: &TmuxServer) -> (String, String, String) {
    let first = tmux.window_running("cat");
    let second = tmux.split(&first, "-v", "cat");
    let window = tmux.pane_value(&first, "#{window_id}");
    (window, first, second)
}

/// Types `word` with tmux itself, then checks that `pane` shows it and nothing paneward
/// was refused: the refused text never reached the pane.
#[track_caller]
fn assert_only_then_typed(tmux: &TmuxServer, pane: &str, refused: &str, word: &str) {
    tmux.tmux(&["send-keys", "-t", pane, "-l", word]);
    tmux.wait_for_text(pane, word);
    assert!(!tmux.capture(pane).contains(refused), "{refused} reached {pane}");
}

fn refusal(client: &mut Client, tool: &str, arguments: Value) -> String {
    let text = client.call_err(tool, arguments);
    assert!(text.contains("terminal attached to tmux"), "{tool}: {text}");
    text
}

#[test]
fn every_input_path_is_refused_for_a_pane_a_terminal_shows() {
    let tmux = TmuxServer::start();
    let (window, first, second) = window_of_two_cats(&tmux);
    let shell = tmux.split(&first, "-h", "/bin/sh");
    // Its prompt drawn (the window keeps the name of its first pane, `cat`).
    wait_for("the shell's prompt", || {
        (tmux.pane_value(&shell, "#{pane_current_command} #{cursor_x}") == "sh 2").then_some(())
    });
    let _terminal = tmux.attach_terminal(&window, &window);
    let mut client = tmux.paneward();
    let text = refusal(
        &mut client,
        "send_keys",
        json!({"pane_id": first, "keys": "refused-a", "literal": true}),
    );
    assert!(text.contains(&format!("pane {first}")), "{text}");
    refusal(
        &mut client,
        "send_keys",
        json!({"pane_id": second, "keys": "refused-b", "literal": true, "force": true}),
    );
    let batch = client.call_ok(
        "send_keys_batch",
        json!({"operations": [{"paneId": first, "keys": "refused-c", "literal": true}]}),
    );
    assert_eq!(batch["completed"], 0, "{batch}");
    assert!(
        batch["failures"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("terminal attached to tmux"),
        "{batch}"
    );
    refusal(
        &mut client,
        "paste_text",
        json!({"pane_id": second, "text": "refused-d"}),
    );
    refusal(
        &mut client,
        "run_command",
        json!({"pane_id": shell, "command": "echo refused-e"}),
    );
    let rows = client.call(
        "call_mutating_tools_batch",
        json!({"operations": [{"tool": "send_keys", "arguments": {"pane_id": first, "keys": "refused-f", "literal": true}}]}),
    );
    assert!(rows.to_string().contains("terminal attached to tmux"), "{rows}");
    assert_only_then_typed(&tmux, &first, "refused-", "first-typed-by-tmux");
    assert_only_then_typed(&tmux, &second, "refused-", "second-typed-by-tmux");
    assert!(!tmux.capture(&shell).contains("refused-e"), "run_command typed nothing");
}

#[test]
fn a_pane_out_of_the_terminal_s_sight_takes_input() {
    let tmux = TmuxServer::start();
    let (window, first, second) = window_of_two_cats(&tmux);
    let (other_window, other, _) = window_of_two_cats(&tmux);
    let terminal = tmux.attach_terminal(&window, &window);
    let mut client = tmux.paneward();
    // Another window than the one the terminal shows.
    client.call_ok(
        "send_keys",
        json!({"pane_id": other, "keys": "other-window", "literal": true}),
    );
    tmux.wait_for_text(&other, "other-window");
    // Zoomed, the window shows its active pane alone: the other one is out of sight.
    tmux.tmux(&["resize-pane", "-Z", "-t", &first]);
    tmux.wait_for_value(&first, "#{window_zoomed_flag}", "1");
    client.call_ok(
        "send_keys",
        json!({"pane_id": second, "keys": "hidden-by-zoom", "literal": true}),
    );
    tmux.wait_for_text(&second, "hidden-by-zoom");
    refusal(
        &mut client,
        "send_keys",
        json!({"pane_id": first, "keys": "zoomed-in-sight", "literal": true}),
    );
    tmux.tmux(&["resize-pane", "-Z", "-t", &first]);
    tmux.wait_for_value(&first, "#{window_zoomed_flag}", "0");
    refusal(
        &mut client,
        "send_keys",
        json!({"pane_id": second, "keys": "unzoomed", "literal": true}),
    );
    // The terminal switches to the other window: the first one is out of sight.
    tmux.tmux(&["select-window", "-t", &other_window]);
    wait_for("the terminal to show the other window", || {
        tmux.terminal_clients()
            .iter()
            .any(|(_, shown)| *shown == other_window)
            .then_some(())
    });
    client.call_ok(
        "send_keys",
        json!({"pane_id": second, "keys": "now-unwatched", "literal": true}),
    );
    tmux.wait_for_text(&second, "now-unwatched");
    refusal(
        &mut client,
        "send_keys",
        json!({"pane_id": other, "keys": "now-watched", "literal": true}),
    );
    // Detached, nothing is in sight.
    drop(terminal);
    wait_for("the terminal to detach", || {
        tmux.terminal_clients().is_empty().then_some(())
    });
    client.call_ok(
        "send_keys",
        json!({"pane_id": other, "keys": "detached", "literal": true}),
    );
    tmux.wait_for_text(&other, "detached");
    assert!(!tmux.capture(&first).contains("zoomed-in-sight"));
    assert!(!tmux.capture(&second).contains("unzoomed"));
    assert!(!tmux.capture(&other).contains("now-watched"));
}

#[test]
fn a_pane_the_person_granted_and_a_server_with_the_rule_off_take_input_in_sight() {
    let tmux = TmuxServer::start();
    let (window, first, second) = window_of_two_cats(&tmux);
    let _terminal = tmux.attach_terminal(&window, &window);
    let mut client = tmux.paneward();
    refusal(
        &mut client,
        "send_keys",
        json!({"pane_id": first, "keys": "before-grant", "literal": true}),
    );
    let mut grant = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut grant);
    let status = grant.args(["-L", &tmux.name, "grant", &first]).status().unwrap();
    assert!(status.success());
    client.call_ok(
        "send_keys",
        json!({"pane_id": first, "keys": "granted", "literal": true}),
    );
    tmux.wait_for_text(&first, "granted");
    refusal(
        &mut client,
        "send_keys",
        json!({"pane_id": second, "keys": "not-granted", "literal": true}),
    );

    let mut allowing = tmux.paneward_with(&["--allow-attended-input"], &[]);
    allowing.initialize();
    allowing.call_ok(
        "send_keys",
        json!({"pane_id": second, "keys": "rule-off", "literal": true}),
    );
    tmux.wait_for_text(&second, "rule-off");
    assert!(!tmux.capture(&first).contains("before-grant"));
    assert!(!tmux.capture(&second).contains("not-granted"));
}

#[test]
fn a_window_paneward_created_is_its_own_even_while_a_terminal_shows_it() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let created = client.call_ok("create_window", json!({"session_id": "$0", "shell": "cat"}));
    let pane = created["paneId"].as_str().unwrap().to_string();
    let window = created["windowId"].as_str().unwrap().to_string();
    let _terminal = tmux.attach_terminal(&window, &window);
    client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "ours-in-sight", "literal": true}),
    );
    tmux.wait_for_text(&pane, "ours-in-sight");
}

#[test]
fn where_the_client_can_ask_the_person_decides_and_force_does_not() {
    let tmux = TmuxServer::start();
    let scratch = crate::support::Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let window = tmux.pane_value(&pane, "#{window_id}");
    let _terminal = tmux.attach_terminal(&window, &window);
    let mut client = tmux.paneward_with(&[], &[]);
    client.initialize_legacy(true);
    let (questions, result) = client.call_answering(
        1,
        "send_keys",
        json!({"paneId": pane, "keys": "declined-text", "literal": true, "force": true}),
        |_| json!({"action": "decline"}),
    );
    let question = questions.last().cloned().unwrap_or_default();
    let message = question["message"].as_str().expect("the person was asked");
    assert!(
        message.contains(&format!("pane {pane}")) && message.contains("terminal attached to tmux"),
        "{message}"
    );
    assert!(!message.contains("declined-text"), "the text is never shown: {message}");
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("the person was asked and declined"), "{text}");
    let (_, result) = client.call_answering(
        2,
        "send_keys",
        json!({"paneId": pane, "keys": "allowed-text", "literal": true}),
        |_| yes(),
    );
    assert_ne!(result["isError"], json!(true), "{result}");
    assert_eq!(
        scratch.wait_for_lines("typed", 1),
        "allowed-text\n",
        "only the allowed text"
    );
}

#[test]
fn control_clients_showing_the_window_attend_nothing_but_a_terminal_beside_them_does() {
    let tmux = TmuxServer::start();
    let (window, first, _) = window_of_two_cats(&tmux);
    // A control client (as a program driving tmux would attach) shows the window.
    let _control = crate::support::control::RawControl::attach(&tmux, &window);
    wait_for("the control client", || {
        (crate::support::control::control_clients(&tmux).len() == 1).then_some(())
    });
    let mut client = tmux.paneward();
    let showing = tmux.tmux(&["list-clients", "-F", "#{client_control_mode} #{window_id}"]);
    assert!(showing.lines().any(|line| line == format!("1 {window}")), "{showing}");
    client.call_ok(
        "send_keys",
        json!({"pane_id": first, "keys": "control-only", "literal": true}),
    );
    tmux.wait_for_text(&first, "control-only");
    let _terminal = tmux.attach_terminal(&window, &window);
    refusal(
        &mut client,
        "send_keys",
        json!({"pane_id": first, "keys": "with-a-terminal", "literal": true}),
    );
    assert_only_then_typed(&tmux, &first, "with-a-terminal", "typed-by-tmux");
}

#[test]
fn request_pane_asks_for_a_pane_a_terminal_shows_even_under_scope_all() {
    let tmux = TmuxServer::start();
    let scratch = crate::support::Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let window = tmux.pane_value(&pane, "#{window_id}");
    let mut client = tmux.paneward_with(&[], &[]);
    client.initialize_legacy(true);
    // Out of any terminal's sight the grant would change nothing: nobody is asked.
    let unseen = client.call_ok("request_pane", json!({"pane_id": pane}));
    assert_eq!(unseen["outcome"], "scopeAll", "{unseen}");
    let _terminal = tmux.attach_terminal(&window, &window);
    let (questions, result) = client.call_answering(7, "request_pane", json!({"pane_id": pane}), |_| yes());
    assert_eq!(questions.len(), 1);
    assert_eq!(result["structuredContent"]["outcome"], "granted", "{result}");
    client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "handed-over", "literal": true}),
    );
    assert_eq!(scratch.wait_for_lines("typed", 1), "handed-over\n");
}
