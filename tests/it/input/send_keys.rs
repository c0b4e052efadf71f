//! Typing into panes with `send_keys` and `send_keys_batch`, against real tmux servers:
//! what arrives, key names, Enter, bounds, and rows refused or stopped.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{Scratch, TmuxServer};
use serde_json::{json, Value};

/// A batch row typing `text` exactly.
fn literal(pane: &str, text: &str) -> Value {
    json!({"paneId": pane, "keys": text, "literal": true})
}

#[test]
fn literal_text_with_shell_metacharacters_arrives_byte_for_byte() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let pwned = scratch.path("pwned");
    let texts = [
        "it's \"quoted\" $HOME $(id) `id` && || | > < * ? [a] {b} ~ # \\ \\\\ \t %1 ünïcødé 中文 😀 end;".to_string(),
        format!("#{{pane_id}} #(touch {pwned}) #[fg=red] ##"),
        "-x --help -l".to_string(),
        ";".to_string(),
        "a\\;".to_string(),
        "  leading and trailing spaces  ".to_string(),
    ];
    let mut client = tmux.paneward();
    let operations: Vec<Value> = texts.iter().map(|t| literal(&pane, t)).collect();
    let reply = client.call_ok("send_keys_batch", json!({"operations": operations}));
    assert_eq!(reply["completed"], texts.len());
    assert_eq!(reply["failures"], json!([]));
    let typed = scratch.wait_for_lines("typed", texts.len());
    let expected: String = texts.iter().map(|t| format!("{t}\n")).collect();
    assert_eq!(typed, expected);
    // The text arrived byte for byte, so tmux expanded no format in it (`#(...)` would
    // also have run a shell command, but in the background: its absence proves nothing).

    // The single-row tool types the same way.
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "-n 'one;two' \"$PATH\";", "literal": true}),
    );
    assert_eq!(reply, json!({"paneId": pane, "resolvedPaneIds": [pane]}));
    let typed = scratch.wait_for_lines("typed", texts.len() + 1);
    assert!(typed.ends_with("\n-n 'one;two' \"$PATH\";\n"), "{typed:?}");
}

#[test]
fn key_names_are_key_presses_and_c_c_interrupts_a_running_sleep() {
    let tmux = TmuxServer::start();
    let shell = tmux.first_pane();
    let mut client = tmux.paneward();
    client.call_ok(
        "send_keys",
        json!({"pane_id": shell, "keys": "sleep 100000", "literal": true}),
    );
    tmux.wait_for_value(&shell, "#{pane_current_command}", "sleep");
    let reply = client.call_ok("send_keys", json!({"pane_id": shell, "keys": "C-c", "enter": false}));
    assert_eq!(reply["resolvedPaneIds"], json!([shell]));
    tmux.wait_for_value(&shell, "#{pane_current_command}", "sh");

    // Escape, Up, single characters, Space and Enter, each one key press, shown by cat -v.
    // Typed only once echo is off: the terminal's own echo of `^[^[[A` is not cat's.
    let viewer = tmux.window_showing("stty -echo; echo ready; exec cat -v", "ready");
    client.call_ok(
        "send_keys",
        json!({"pane_id": viewer, "keys": "Escape Up x Space ; q", "enter": true}),
    );
    tmux.wait_for_text(&viewer, "^[^[[Ax ;q");
}

#[test]
fn a_word_that_is_not_a_key_name_is_an_error_naming_the_row_and_nothing_is_typed() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward();
    let text = client.call_err(
        "send_keys_batch",
        json!({"operations": [literal(&pane, "first"), {"paneId": pane, "keys": "Up ls -la"}]}),
    );
    assert!(
        text.contains("/operations/1/keys") && text.contains("word 2 is not a tmux key name"),
        "{text}"
    );
    assert!(text.contains("literal: true") && !text.contains("-la"), "{text}");
    let text = client.call_err("send_keys", json!({"pane_id": pane, "keys": "C-cc"}));
    assert!(text.contains("/keys") && text.contains("word 1"), "{text}");
    // Input is ordered: once a later line arrives, an earlier one would have too.
    client.call_ok("send_keys", json!({"pane_id": pane, "keys": "after", "literal": true}));
    assert_eq!(scratch.wait_for_lines("typed", 1), "after\n");
}

#[test]
fn enter_false_leaves_the_line_unsent_until_a_later_enter() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward();
    client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "partial", "literal": true, "enter": false}),
    );
    tmux.wait_for_text(&pane, "partial");
    client.call_ok(
        "send_keys_batch",
        json!({"operations": [
            {"paneId": pane, "keys": " and more", "literal": true, "enter": false},
            {"paneId": pane, "keys": ""}
        ]}),
    );
    // Had the first call pressed Enter, "partial" would be a line of its own.
    assert_eq!(scratch.wait_for_lines("typed", 1), "partial and more\n");
}

#[test]
fn the_longest_keys_allowed_fit_in_one_tmux_command() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let file = scratch.path("typed");
    // Raw input: a cooked terminal would cut a line at 4095 bytes.
    let pane = tmux.window_running(&format!("stty -icanon && exec head -c 16001 > {file}"));
    tmux.wait_for_value(&pane, "#{pane_current_command}", "head");
    let mut client = tmux.paneward();
    let longest = "😀".repeat(4_000);
    client.call_ok("send_keys", json!({"pane_id": pane, "keys": longest, "literal": true}));
    assert_eq!(scratch.wait_for_lines("typed", 1), format!("{longest}\n"));

    let text = client.call_err(
        "send_keys",
        json!({"pane_id": pane, "keys": "x".repeat(4_001), "literal": true}),
    );
    assert!(text.contains("/keys") && text.contains("at most 4000"), "{text}");
    let text = client.call_err(
        "send_keys_batch",
        json!({"operations": [literal(&pane, &"x".repeat(4_001))]}),
    );
    assert!(
        text.contains("/operations/0/keys") && text.contains("at most 4000"),
        "{text}"
    );
}

#[test]
fn on_error_stop_leaves_later_rows_unsent_and_continue_sends_them() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let first = tmux.recorder(&scratch.path("first"));
    let last = tmux.recorder(&scratch.path("last"));
    let mut client = tmux.paneward();
    let rows = |tag: &str| {
        json!([
            literal(&first, &format!("{tag} row 0")),
            literal("%99999", &format!("{tag} row 1")),
            literal(&last, &format!("{tag} row 2")),
        ])
    };

    let stopped = client.call_ok("send_keys_batch", json!({"operations": rows("stop")}));
    assert_eq!(stopped["completed"], 1);
    assert_eq!(stopped["targets"], json!([{"index": 0, "resolvedPaneIds": [first]}]));
    let failures = stopped["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0]["index"], 1);
    let reason = failures[0]["reason"].as_str().unwrap();
    assert!(reason.contains("pane %99999 does not exist"), "{reason}");

    let continued = client.call_ok(
        "send_keys_batch",
        json!({"operations": rows("continue"), "onError": "continue"}),
    );
    assert_eq!(continued["completed"], 2);
    assert_eq!(
        continued["targets"],
        json!([{"index": 0, "resolvedPaneIds": [first]}, {"index": 2, "resolvedPaneIds": [last]}])
    );
    assert_eq!(continued["failures"][0]["index"], 1);
    assert_eq!(scratch.wait_for_lines("first", 2), "stop row 0\ncontinue row 0\n");
    // The stopped batch's row 2 never reached the pane: the first line there is this one.
    assert_eq!(scratch.wait_for_lines("last", 1), "continue row 2\n");
}

#[test]
fn too_many_rows_or_a_bad_pane_id_are_rejected_before_any_input() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward();
    let rows: Vec<Value> = (0..65).map(|i| literal(&pane, &format!("row {i}"))).collect();
    let text = client.call_err("send_keys_batch", json!({"operations": rows}));
    assert!(
        text.contains("/operations") && text.contains("at most 64 items"),
        "{text}"
    );
    let text = client.call_err(
        "send_keys_batch",
        json!({"operations": [literal(&pane, "row ok"), literal("main:0.0", "row bad")]}),
    );
    assert!(
        text.contains("/operations/1/paneId") && text.contains("pattern"),
        "{text}"
    );
    let text = client.call_err("send_keys", json!({"pane_id": "{last}", "keys": "x", "literal": true}));
    assert!(text.contains("/pane_id") && text.contains("pattern"), "{text}");
    let text = client.call_err("send_keys_batch", json!({"operations": []}));
    assert!(
        text.contains("/operations") && text.contains("at least 1 item"),
        "{text}"
    );
    let text = client.call_err(
        "send_keys",
        json!({"pane_id": pane, "keys": "x", "literal": true, "bogus": 1}),
    );
    assert!(text.contains("/bogus") && text.contains("not a known field"), "{text}");

    // 64 rows is the limit, and the first line to arrive is row 0 of that batch.
    let rows: Vec<Value> = (0..64).map(|i| literal(&pane, &format!("row {i}"))).collect();
    let reply = client.call_ok("send_keys_batch", json!({"operations": rows}));
    assert_eq!(reply["completed"], 64);
    let typed = scratch.wait_for_lines("typed", 64);
    assert!(
        typed.starts_with("row 0\nrow 1\n") && typed.ends_with("row 63\n"),
        "{typed:?}"
    );
    assert_eq!(typed.lines().count(), 64);
}

#[test]
fn typed_text_never_appears_in_the_arguments_of_a_tmux_process() {
    // With neither control mode nor the native client every round trip is a tmux
    // process (the native client spawns none); a wrapper records the
    // arguments each one was started with, as any local user could read them in /proc.
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let argv_log = scratch.path("argv");
    let wrapper = scratch.path("tmux");
    std::fs::write(
        &wrapper,
        format!("#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{argv_log}'\nexec tmux \"$@\"\n"),
    )
    .unwrap();
    let executable = <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755);
    std::fs::set_permissions(&wrapper, executable).unwrap();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward_with(&["--tmux", &wrapper, "--no-control-mode", "--no-native-client"], &[]);
    client.initialize();

    let secret = "hunter2-correct-horse";
    client.call_ok("send_keys", json!({"pane_id": pane, "keys": secret, "literal": true}));
    assert_eq!(scratch.wait_for_lines("typed", 1), format!("{secret}\n"));
    let argv = scratch.read("argv");
    assert!(
        argv.contains("source-file -"),
        "the wrapper saw paneward's tmux runs: {argv}"
    );
    assert!(
        !argv.contains("hunter2"),
        "the typed text was on a command line: {argv}"
    );
}

/// Text that tmux's command parser would change if the gate's nesting quoted it wrong:
/// quotes, escapes, formats, `;`, braces, a leading `-`, and the longest quote runs.
fn texts_the_gate_must_carry_exactly() -> Vec<String> {
    vec![
        "it's \"quoted\" $HOME `id` ; a\\;b {x} } { ~ # \\ \\\\ \t %1 %% ünïcødé 中文 😀".to_string(),
        "#{pane_id} #{?1,a,b} #{P:x} ## #[fg=red]".to_string(),
        "-l -- --help".to_string(),
        "'\\''".to_string(),
        "'".repeat(4_000),
        "\\".repeat(4_000),
    ]
}

fn every_text_arrives_exactly_through_the_gate(flags: &[&str]) {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward_with(flags, &[]);
    client.initialize();
    let texts = texts_the_gate_must_carry_exactly();
    for text in &texts {
        let reply = client.call_ok("send_keys", literal(&pane, text));
        assert_eq!(reply["resolvedPaneIds"], json!([pane]));
    }
    // A newline inside the text is typed as one too.
    client.call_ok("send_keys", literal(&pane, "first\nsecond"));
    let typed = scratch.wait_for_lines("typed", texts.len() + 2);
    let mut expected: String = texts.iter().map(|t| format!("{t}\n")).collect();
    expected.push_str("first\nsecond\n");
    assert_eq!(typed, expected);
}

#[test]
fn text_arrives_byte_for_byte_through_the_gate_over_control_mode() {
    every_text_arrives_exactly_through_the_gate(&[]);
}

#[test]
fn text_arrives_byte_for_byte_through_the_gate_without_control_mode() {
    every_text_arrives_exactly_through_the_gate(&["--no-control-mode"]);
}

#[test]
fn a_misspelt_field_at_any_level_is_refused_by_pointer_and_nothing_is_typed() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward();
    let error = client.call_err(
        "send_keys_batch",
        json!({"operations": [{"paneId": pane, "keys": "X", "literal": true, "enterr": false}], "onError": "continue"}),
    );
    assert!(
        error.starts_with("invalid arguments: /operations/0/enterr: is not a known field"),
        "{error}"
    );
    assert!(error.contains("enter, force, keys, literal, paneId"), "{error}");
    let error = client.call_err(
        "send_keys_batch",
        json!({"operations": [literal(&pane, "Y")], "onerror": "continue"}),
    );
    assert!(
        error.starts_with("invalid arguments: /onerror: is not a known field"),
        "{error}"
    );
    client.call_ok("send_keys", literal(&pane, "only-this"));
    assert_eq!(scratch.wait_for_lines("typed", 1), "only-this\n");
}

#[test]
fn a_nul_in_literal_text_is_refused_by_row_and_position_and_nothing_is_typed() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward();
    let error = client.call_err("send_keys", literal(&pane, "nul\u{0}byte"));
    assert!(
        error.starts_with("invalid arguments: /keys: character 4 is a NUL"),
        "{error}"
    );
    assert!(!error.contains("byte"), "the text is never echoed: {error}");
    let error = client.call_err(
        "send_keys_batch",
        json!({"operations": [literal(&pane, "first"), literal(&pane, "\u{0}")]}),
    );
    assert!(
        error.starts_with("invalid arguments: /operations/1/keys: character 1 is a NUL"),
        "{error}"
    );
    client.call_ok("send_keys", literal(&pane, "only-this"));
    assert_eq!(scratch.wait_for_lines("typed", 1), "only-this\n");
}

#[test]
fn send_keys_takes_pane_id_and_for_one_release_its_former_name_pane_id_in_camel_case() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward();
    client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "current", "literal": true}),
    );
    assert_eq!(scratch.wait_for_lines("typed", 1), "current\n");
    // The former spelling still types, and both names of one pane are one pane.
    let reply = client.call_ok("send_keys", json!({"paneId": pane, "keys": "former", "literal": true}));
    assert_eq!(reply, json!({"paneId": pane, "resolvedPaneIds": [pane]}));
    client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "paneId": pane, "keys": "both", "literal": true}),
    );
    assert_eq!(scratch.wait_for_lines("typed", 3), "current\nformer\nboth\n");

    // Two different panes under the two names: refused, naming both, nothing typed.
    let other = tmux.first_pane();
    let text = client.call_err(
        "send_keys",
        json!({"pane_id": pane, "paneId": other, "keys": "never", "literal": true}),
    );
    assert!(
        text.contains("/pane_id") && text.contains("`pane_id`") && text.contains("`paneId`"),
        "{text}"
    );
    // A later line arriving alone shows the refused one never did.
    client.call_ok("send_keys", json!({"pane_id": pane, "keys": "after", "literal": true}));
    assert_eq!(scratch.wait_for_lines("typed", 4), "current\nformer\nboth\nafter\n");

    // The advertised schema names only today's spelling.
    let listed = client.list_tools();
    let send_keys = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "send_keys")
        .unwrap();
    assert_eq!(send_keys["inputSchema"]["required"], json!(["pane_id", "keys"]));
    assert!(send_keys["inputSchema"]["properties"].get("paneId").is_none());
}
