//! `wait_for_idle` against real programs: a shell quiet at its prompt with nothing
//! printed, a loop that prints until told to stop, a command that ends back at the
//! prompt, a full-screen pager, and a pane whose program exits.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{Client, Scratch, TmuxServer};
use serde_json::{json, Value};

/// Sends a `wait_for_idle` call without waiting for its reply; returns its id.
fn start_wait(client: &mut Client, arguments: Value) -> Value {
    let id = json!(900);
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "wait_for_idle", "arguments": arguments}}));
    id
}

fn reply_of(client: &mut Client, id: &Value) -> Value {
    let response = client.response(id);
    let result = &response["result"];
    assert_ne!(result["isError"], true, "{response}");
    result["structuredContent"].clone()
}

#[test]
fn a_shell_at_its_prompt_that_prints_nothing_is_quiet_and_at_a_prompt() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    tmux.wait_for_prompt(&pane);
    let mut client = tmux.paneward();
    let quiet = client.call_ok("wait_for_idle", json!({"pane_id": pane, "quiet_seconds": 0.3}));
    assert_eq!(quiet["outcome"], "quiet", "{quiet}");
    assert_eq!(quiet["sawChange"], false, "{quiet}");
    assert_eq!(quiet["program"], "sh", "{quiet}");
    assert_eq!(quiet["alternateScreen"], false, "{quiet}");
    let prompt = client.call_ok("wait_for_idle", json!({"pane_id": pane, "until": "prompt"}));
    assert_eq!(prompt["outcome"], "prompt", "{prompt}");
}

#[test]
fn a_printing_loop_is_quiet_only_once_it_stops_and_a_command_ends_back_at_the_prompt() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.first_pane();
    tmux.wait_for_prompt(&pane);
    let go = scratch.path("go");
    let line = format!("while [ ! -e {go} ]; do echo tick; sleep 0.05; done; echo finished");
    tmux.tmux(&["send-keys", "-t", &pane, "-l", &line]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    tmux.wait_for_text(&pane, "tick\ntick");
    let mut client = tmux.paneward();
    let id = start_wait(
        &mut client,
        json!({"pane_id": pane, "until": "prompt", "timeout_seconds": 20}),
    );
    std::fs::write(&go, "").unwrap();
    let reply = reply_of(&mut client, &id);
    assert_eq!(reply["outcome"], "prompt", "{reply}");
    // Back at the prompt means the loop ended: its last line is on the screen.
    assert!(tmux.capture(&pane).contains("\nfinished\n"), "{}", tmux.capture(&pane));
    let quiet = client.call_ok("wait_for_idle", json!({"pane_id": pane, "quiet_seconds": 0.2}));
    assert_eq!(quiet["outcome"], "quiet", "{quiet}");
}

#[test]
fn a_full_screen_pager_is_reported_as_such_and_an_exit_ends_the_wait() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let file = scratch.path("text");
    std::fs::write(&file, "one\ntwo\n").unwrap();
    tmux.tmux(&["set-option", "-g", "remain-on-exit", "on"]);
    let pager = tmux.window_running(&format!("exec less {file}"));
    tmux.wait_for_value(&pager, "#{alternate_on}", "1");
    let mut client = tmux.paneward();
    let quiet = client.call_ok("wait_for_idle", json!({"pane_id": pager, "quiet_seconds": 0.2}));
    assert_eq!(quiet["outcome"], "quiet", "{quiet}");
    assert_eq!(quiet["alternateScreen"], true, "{quiet}");
    assert_eq!(quiet["program"], "less", "{quiet}");
    // The pager quits while a wait for the prompt runs: the pane is dead, not quiet.
    let id = start_wait(
        &mut client,
        json!({"pane_id": pager, "until": "prompt", "timeout_seconds": 20}),
    );
    tmux.tmux(&["send-keys", "-t", &pager, "q"]);
    let died = reply_of(&mut client, &id);
    assert_eq!(died["outcome"], "paneDied", "{died}");
    let error = client.call_err("wait_for_idle", json!({"pane_id": "%999"}));
    assert!(error.contains("%999"), "{error}");
}

#[test]
fn until_input_returns_once_the_program_blocks_reading_and_says_it_reads_a_password() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.bash_pane();
    let go = scratch.path("go");
    // Busy first (never reading), then a password read.
    let line = format!("while [ ! -e {go} ]; do :; done; read -rs -p 'Password: ' secret");
    tmux.tmux(&["send-keys", "-t", &pane, "-l", &line]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    tmux.wait_for_value(&pane, "#{cursor_x}", "0");
    let mut client = tmux.paneward();
    let id = start_wait(
        &mut client,
        json!({"pane_id": pane, "until": "input", "timeout_seconds": 30}),
    );
    std::fs::write(&go, "").unwrap();
    let reply = reply_of(&mut client, &id);
    assert_eq!(reply["outcome"], "input", "{reply}");
    assert_eq!(reply["readsAs"], "password", "{reply}");
    // It returned because the read began: the question is on the screen.
    assert!(tmux.capture(&pane).contains("Password:"), "{}", tmux.capture(&pane));
}
