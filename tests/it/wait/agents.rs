//! The known agents' table (`schemas/agents/agents.json`) against the fixture that
//! draws each agent's screens (`tests/fixtures/agents/fake-agent.sh`): waiting for
//! input at its empty box, an Enter confirmed by the box emptying, and a turn whose
//! busy line stands still longer than the quiet asked for, with the prompt flashing
//! between its tool calls, not taken for idle. A program in no entry keeps the generic
//! rule.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::json;

use crate::support::{Client, Scratch, TmuxServer};

/// Submits a prompt with `confirm_submit`; returns the reply.
fn submit(client: &mut Client, pane: &str) -> serde_json::Value {
    client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "run the tests", "literal": true, "enter": true, "confirm_submit": true}),
    )
}

fn phase(file: &str) -> String {
    std::fs::read_to_string(file).unwrap().trim().to_string()
}

fn a_known_agent_is_idle_only_when_its_turn_is_over(agent: &str, program: &str) {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let (pane, phase_file) = tmux.fake_agent(&scratch, agent, program);
    let mut client = tmux.paneward();
    let ready = client.call_ok(
        "wait_for_idle",
        json!({"pane_id": pane, "until": "input", "timeout_seconds": 30}),
    );
    assert_eq!(ready["outcome"], "input", "{agent}: {ready}");
    let sent = submit(&mut client, &pane);
    assert_eq!(sent["submitted"], "true", "{agent}: {sent}");
    // The busy line stands still for 1.5 s, longer than the quiet asked for; the
    // prompt shows alone between the two tool calls.
    let idle = client.call_ok(
        "wait_for_idle",
        json!({"pane_id": pane, "quiet_seconds": 1, "timeout_seconds": 60}),
    );
    assert_eq!(idle["outcome"], "quiet", "{agent}: {idle}");
    assert_eq!(
        phase(&phase_file),
        "idle",
        "{agent}: reported idle while the turn still ran: {idle}"
    );
}

#[test]
fn claude_code_is_idle_only_when_its_turn_is_over() {
    a_known_agent_is_idle_only_when_its_turn_is_over("claude", "claude");
}

#[test]
fn codex_is_idle_only_when_its_turn_is_over() {
    a_known_agent_is_idle_only_when_its_turn_is_over("codex", "codex");
}

#[test]
fn gemini_cli_is_idle_only_when_its_turn_is_over() {
    a_known_agent_is_idle_only_when_its_turn_is_over("gemini", "gemini");
}

#[test]
fn opencode_is_idle_only_when_its_turn_is_over() {
    a_known_agent_is_idle_only_when_its_turn_is_over("opencode", "opencode");
}

#[test]
fn a_program_in_no_entry_keeps_the_generic_quiet_rule() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let (pane, phase_file) = tmux.fake_agent(&scratch, "claude", "someagent");
    let mut client = tmux.paneward();
    submit(&mut client, &pane);
    // Half a second of quiet fits in each 1.5 s busy line with a second to spare for a
    // busy machine's late call, and never in the 0.2 s flash between them.
    let quiet = client.call_ok(
        "wait_for_idle",
        json!({"pane_id": pane, "quiet_seconds": 0.5, "timeout_seconds": 60}),
    );
    assert_eq!(quiet["outcome"], "quiet", "{quiet}");
    assert_eq!(
        phase(&phase_file),
        "working",
        "the generic rule takes a still screen for quiet, mid-turn: {quiet}"
    );
}

#[test]
fn an_enter_that_leaves_the_text_in_a_known_agent_s_box_is_not_confirmed() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let (pane, phase_file) = tmux.fake_agent(&scratch, "claude", "claude");
    let mut client = tmux.paneward();
    // Enter picks from the command menu: the menu row changes, the box keeps the text.
    let sent = client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "/te", "literal": true, "enter": true,
               "confirm_submit": true, "confirm_timeout_ms": 1500}),
    );
    assert_ne!(sent["submitted"], "true", "the box still holds /test: {sent}");
    assert_eq!(sent["retried"], false, "nothing pressed again: {sent}");
    assert_eq!(phase(&phase_file), "idle");
    assert!(tmux.capture(&pane).contains("│ > /test"), "{}", tmux.capture(&pane));
}
