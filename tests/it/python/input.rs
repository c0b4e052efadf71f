//! `--profile python`: the input tools (typing, running, waiting, options, buffers),
//! adapted onto paneward's own handlers: libtmux-mcp's replies and errors, paneward's
//! rules.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use super::{ok, refused, PROFILE};
use crate::support::{Client, TmuxServer};

/// paneward serving `--profile python` on `tmux`, initialized; `caller` makes it run
/// as if in that pane.
fn python(tmux: &TmuxServer, caller: Option<&str>) -> Client {
    let env = caller.map(|pane| [("TMUX", tmux.tmux_env()), ("TMUX_PANE", pane.to_string())]);
    let env: Vec<(&str, &str)> = env
        .iter()
        .flatten()
        .map(|(key, value)| (*key, value.as_str()))
        .collect();
    let mut client = tmux.paneward_with(&PROFILE, &env);
    client.initialize();
    client
}

#[test]
fn send_keys_types_text_or_one_key_into_the_pane_named_by_session() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = python(&tmux, None);
    let reply = ok(
        &mut client,
        "send_keys",
        json!({"keys": "echo typed-$((6*7))", "session_name": "main"}),
    );
    assert_eq!(reply["result"], format!("Keys sent to pane {pane}"));
    tmux.wait_for_text(&pane, "typed-42");
    // A whole word that names a key is pressed: C-c ends the shell's `cat`.
    ok(&mut client, "send_keys", json!({"keys": "cat", "pane_id": pane}));
    crate::support::wait_for("cat to run", || {
        (tmux.pane_value(&pane, "#{pane_current_command}") == "cat").then_some(())
    });
    ok(
        &mut client,
        "send_keys",
        json!({"keys": "C-c", "pane_id": pane, "enter": false}),
    );
    // A line typed while the interrupted program is still going can be lost with it:
    // wait for the shell (in the foreground again) at its prompt.
    tmux.wait_for_prompt(&pane);
    ok(
        &mut client,
        "send_keys",
        json!({"keys": "echo after-cat", "pane_id": pane}),
    );
    tmux.wait_for_echo(&pane, "after-cat");
}

#[test]
fn send_keys_with_suppress_history_types_a_leading_space() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = python(&tmux, None);
    ok(
        &mut client,
        "send_keys",
        json!({"keys": "echo spaced", "pane_id": pane, "enter": false, "suppress_history": true}),
    );
    // The prompt ends with a space; the typed one follows it.
    tmux.wait_for_text(&pane, "  echo spaced");
}

#[test]
fn send_keys_refuses_a_missing_pane_a_name_prefix_and_the_caller_pane() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let other = tmux.window_running("/bin/sh");
    let mut client = python(&tmux, Some(&pane));
    let (text, error_type) = refused(&mut client, "send_keys", json!({"keys": "x", "pane_id": "%999"}));
    assert!(text.starts_with("Pane not found: Pane not found: %999"), "{text}");
    assert_eq!(error_type, "PaneNotFound");
    let (text, error_type) = refused(
        &mut client,
        "send_keys",
        json!({"keys": "echo no", "session_name": "mai"}),
    );
    assert!(
        text.starts_with("Object not found: Could not find session_name=mai"),
        "{text}"
    );
    assert_eq!(error_type, "TmuxObjectDoesNotExist");
    let (text, _) = refused(&mut client, "send_keys", json!({"keys": "echo mine", "pane_id": pane}));
    assert!(text.contains("caller"), "{text}");
    // The pane beside it takes the keys.
    ok(
        &mut client,
        "send_keys",
        json!({"keys": "echo beside", "pane_id": other}),
    );
    tmux.wait_for_echo(&other, "beside");
    assert!(!tmux.capture(&pane).contains("mine"));
}

#[test]
fn send_keys_batch_reports_each_row_and_stops_or_goes_on() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = python(&tmux, None);
    let operations = json!([
        {"keys": "echo one", "pane_id": pane},
        {"keys": "echo two", "pane_id": "%999"},
        {"keys": "echo three", "pane_id": pane},
    ]);
    let reply = ok(
        &mut client,
        "send_keys_batch",
        json!({"operations": operations, "on_error": "continue"}),
    );
    assert_eq!(
        (reply["succeeded"].clone(), reply["failed"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(reply["stopped_at"], Value::Null);
    assert_eq!(reply["results"][1]["success"], false);
    assert_eq!(reply["results"][2]["pane_id"], pane);
    assert!(reply["results"][1]["error"]
        .as_str()
        .unwrap()
        .starts_with("Pane not found: Pane not found: %999"));
    tmux.wait_for_echo(&pane, "three");

    let reply = ok(&mut client, "send_keys_batch", json!({"operations": operations}));
    assert_eq!(reply["stopped_at"], 1);
    assert_eq!(reply["results"].as_array().unwrap().len(), 2);
}

#[test]
fn send_keys_batch_refuses_an_empty_list_and_a_bad_row_before_typing_anything() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = python(&tmux, None);
    let (text, error_type) = refused(&mut client, "send_keys_batch", json!({"operations": []}));
    assert_eq!(
        (text.as_str(), error_type.as_str()),
        ("operations must not be empty", "ExpectedToolError")
    );
    let (text, _) = refused(
        &mut client,
        "send_keys_batch",
        json!({"operations": [{"keys": "echo first", "pane_id": pane}, {"keys": "a\u{0}b", "literal": true}]}),
    );
    assert!(text.contains("/operations/1/keys"), "{text}");
    // Nothing was typed: the first row would have printed `first`.
    ok(
        &mut client,
        "send_keys",
        json!({"keys": "echo marker", "pane_id": pane}),
    );
    tmux.wait_for_echo(&pane, "marker");
    assert!(!tmux.capture(&pane).contains("first"));
}

#[test]
fn run_command_returns_the_commands_output_and_status_and_times_out() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = python(&tmux, None);
    let reply = ok(
        &mut client,
        "run_command",
        json!({"command": "echo out-$((2+3)); false"}),
    );
    assert_eq!(reply["pane_id"], pane);
    assert_eq!(reply["exit_status"], 1);
    assert_eq!(reply["timed_out"], false);
    assert_eq!(reply["output"], json!(["out-5"]));
    assert_eq!(reply["effective_timeout"], 30.0);

    let reply = ok(
        &mut client,
        "run_command",
        json!({"command": "sleep 30", "timeout": 0.2}),
    );
    assert_eq!(reply["timed_out"], true);
    assert_eq!(reply["exit_status"], Value::Null);
    assert_eq!(reply["effective_timeout"], 0.2);
}

#[test]
fn run_command_refuses_an_empty_command_and_a_multiline_one_out_of_history() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    let (text, error_type) = refused(&mut client, "run_command", json!({"command": "  "}));
    assert_eq!(
        (text.as_str(), error_type.as_str()),
        ("command must not be empty", "ExpectedToolError")
    );
    let (text, _) = refused(
        &mut client,
        "run_command",
        json!({"command": "echo a\necho b", "suppress_history": true}),
    );
    assert_eq!(text, "command must be a single line when suppress_history=True");
    let (text, _) = refused(&mut client, "run_command", json!({"command": "true", "timeout": 0}));
    assert_eq!(text, "timeout must be positive");
}

#[test]
fn wait_for_text_matches_new_rows_ignoring_case_unless_asked_and_stops() {
    let tmux = TmuxServer::start();
    // Prints a new row every fifth of a second for as long as the test runs.
    let pane = tmux.window_running("while :; do echo TICK; sleep 0.2; done");
    let mut client = python(&tmux, None);
    let reply = ok(
        &mut client,
        "wait_for_text",
        json!({"patterns": ["never", "tick"], "pane_id": pane, "timeout": 20}),
    );
    assert_eq!(reply["outcome"], "matched");
    assert_eq!(reply["found"], true);
    assert_eq!(reply["matched_index"], 1);
    assert!(strings(&reply["matched_lines"]).contains(&"TICK".to_string()));

    let reply = ok(
        &mut client,
        "wait_for_text",
        json!({"patterns": ["tick"], "stop": ["nope", "TICK"], "match_case": true, "pane_id": pane, "timeout": 20}),
    );
    assert_eq!(reply["outcome"], "stopped");
    assert_eq!(reply["found"], false);
    assert_eq!(reply["matched_index"], 1);

    let reply = ok(
        &mut client,
        "wait_for_text",
        json!({"patterns": ["never printed"], "pane_id": pane, "timeout": 0.3}),
    );
    assert_eq!(reply["outcome"], "timeout");
    assert_eq!(reply["found"], false);
    assert_eq!(reply["effective_timeout"], 0.3);
}

#[test]
fn wait_for_text_refuses_what_libtmux_mcp_refuses() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    for (arguments, expected) in [
        (
            json!({"interval": 0.001}),
            "interval must be at least 0.01 s (received 0.001)",
        ),
        (json!({"timeout": -1}), "timeout must be positive (received -1.0)"),
        (
            json!({"patterns": []}),
            "patterns must be a non-empty list, or null to wait for any new output",
        ),
        (json!({"patterns": [""]}), "patterns pattern must be a non-empty string"),
    ] {
        let (text, error_type) = refused(&mut client, "wait_for_text", arguments);
        assert_eq!((text.as_str(), error_type.as_str()), (expected, "ExpectedToolError"));
    }
    let (text, error_type) = refused(&mut client, "wait_for_text", json!({"pane_id": "%999"}));
    assert!(text.starts_with("Pane not found: Pane not found: %999"), "{text}");
    assert_eq!(error_type, "PaneNotFound");
}

fn strings(value: &Value) -> Vec<String> {
    crate::support::strings(value)
}

#[test]
fn show_option_reads_typed_values_at_the_scope_asked() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["set-option", "-g", "history-limit", "1234"]);
    tmux.tmux(&["set-option", "-t", "main", "status", "off"]);
    let window = tmux.tmux(&["display-message", "-p", "-t", "main:0", "#{window_id}"]);
    let mut client = python(&tmux, None);
    let reply = ok(
        &mut client,
        "show_option",
        json!({"option": "history-limit", "global_": true}),
    );
    assert_eq!(reply, json!({"option": "history-limit", "value": 1234}));
    let reply = ok(
        &mut client,
        "show_option",
        json!({"option": "status", "scope": "session", "target": "main"}),
    );
    assert_eq!(reply["value"], false);
    // Not set at the window itself.
    let reply = ok(
        &mut client,
        "show_option",
        json!({"option": "pane-border-status", "scope": "window", "target": window.trim()}),
    );
    assert_eq!(reply["value"], Value::Null);
}

#[test]
fn show_option_refuses_an_unknown_option_a_session_prefix_and_a_target_without_scope() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    let (text, error_type) = refused(&mut client, "show_option", json!({"option": "no-such-option"}));
    assert_eq!(text, "tmux error: invalid option: no-such-option");
    assert_eq!(error_type, "InvalidOption");
    let (text, error_type) = refused(&mut client, "show_option", json!({"option": "@unset"}));
    assert_eq!(
        (text.as_str(), error_type.as_str()),
        ("tmux error: invalid option: @unset", "InvalidOption")
    );
    let (text, error_type) = refused(
        &mut client,
        "show_option",
        json!({"option": "status", "scope": "session", "target": "mai"}),
    );
    assert!(
        text.starts_with("Object not found: Could not find session_name=mai"),
        "{text}"
    );
    assert_eq!(error_type, "TmuxObjectDoesNotExist");
    let (text, _) = refused(
        &mut client,
        "show_option",
        json!({"option": "status", "target": "main"}),
    );
    assert_eq!(text, "scope is required when target is specified");
}

#[test]
fn set_option_sets_at_the_scope_asked_or_where_the_option_lives() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    let reply = ok(&mut client, "set_option", json!({"option": "@mine", "value": "v1"}));
    assert_eq!(reply, json!({"option": "@mine", "status": "set", "value": "v1"}));
    assert_eq!(tmux.tmux(&["show-options", "-v", "-t", "main", "@mine"]).trim(), "v1");
    ok(
        &mut client,
        "set_option",
        json!({"option": "history-limit", "value": "777", "global_": true}),
    );
    assert_eq!(tmux.tmux(&["show-options", "-gv", "history-limit"]).trim(), "777");
    ok(
        &mut client,
        "set_option",
        json!({"option": "status", "value": "off", "scope": "session", "target": "main"}),
    );
    assert_eq!(tmux.tmux(&["show-options", "-v", "-t", "main", "status"]).trim(), "off");
}

#[test]
fn set_option_refuses_an_unknown_option_and_what_paneward_never_sets() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    let (text, error_type) = refused(&mut client, "set_option", json!({"option": "nope-opt", "value": "1"}));
    assert_eq!(
        (text.as_str(), error_type.as_str()),
        ("tmux error: invalid option: nope-opt", "InvalidOption")
    );
    let (text, error_type) = refused(
        &mut client,
        "set_option",
        json!({"option": "mouse", "value": "maybe", "global_": true}),
    );
    assert_eq!(
        (text.as_str(), error_type.as_str()),
        ("tmux error: bad value: maybe", "OptionError")
    );
    let (text, _) = refused(
        &mut client,
        "set_option",
        json!({"option": "default-command", "value": "sh -c 'echo owned'", "global_": true}),
    );
    assert!(text.contains("default-command holds a command"), "{text}");
    assert_eq!(tmux.tmux(&["show-options", "-gv", "default-command"]).trim(), "/bin/sh");
}

#[test]
fn set_option_refuses_a_modifier_that_expands_a_pane_title_again() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    let before = tmux.tmux(&["show-options", "-gw"]) + &tmux.tmux(&["show-options", "-g"]);
    for (option, value) in [
        ("automatic-rename-format", "#{E:pane_title}"),
        ("automatic-rename-format", "#{T:pane_title}"),
        ("automatic-rename-format", "#{b;E:pane_current_path}"),
        ("status-left", "#{?1,#{E:pane_title},}"),
    ] {
        let (text, _) = refused(
            &mut client,
            "set_option",
            json!({"option": option, "value": value, "global_": true}),
        );
        assert!(
            text.contains("/value") && text.contains("format modifier"),
            "{option} = {value}: {text}"
        );
    }
    assert_eq!(
        tmux.tmux(&["show-options", "-gw"]) + &tmux.tmux(&["show-options", "-g"]),
        before
    );
}

#[test]
fn buffers_are_loaded_shown_pasted_and_deleted_under_libtmux_mcps_names() {
    let tmux = TmuxServer::start();
    let cat = tmux.window_running("cat");
    let mut client = python(&tmux, None);
    let loaded = ok(
        &mut client,
        "load_buffer",
        json!({"content": "hello\nworld\n", "logical_name": "note"}),
    );
    let name = loaded["buffer_name"].as_str().unwrap().to_string();
    assert!(name.starts_with("libtmux_mcp_") && name.ends_with("_note"), "{name}");
    assert_eq!(loaded["logical_name"], "note");
    // Staged as paneward's own buffer, with the same random part and label.
    let own = name.replacen("libtmux_mcp_", "paneward_", 1);
    assert_eq!(tmux.tmux(&["show-buffer", "-b", &own]), "hello\nworld\n");

    let shown = client.call("show_buffer", json!({"buffer_name": name}));
    let shown: Value = serde_json::from_str(shown["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(shown["content"], "hello\nworld\n");
    assert_eq!(shown["content_truncated"], false);
    let shown = client.call("show_buffer", json!({"buffer_name": name, "max_lines": 1}));
    let shown: Value = serde_json::from_str(shown["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        (shown["content"].clone(), shown["content_truncated_lines"].clone()),
        (json!("world"), json!(1))
    );

    let pasted = ok(
        &mut client,
        "paste_buffer",
        json!({"buffer_name": name, "pane_id": cat}),
    );
    assert_eq!(pasted["result"], format!("Buffer '{name}' pasted to pane {cat}"));
    tmux.wait_for_text(&cat, "world");
    let deleted = ok(&mut client, "delete_buffer", json!({"buffer_name": name}));
    assert_eq!(deleted["result"], format!("Buffer '{name}' deleted"));
    assert!(!tmux.try_tmux(&["show-buffer", "-b", &own]));
    let (text, error_type) = refused(&mut client, "delete_buffer", json!({"buffer_name": name}));
    assert!(text.starts_with("delete-buffer failed for"), "{text}");
    assert_eq!(error_type, "CalledProcessError");
}

#[test]
fn buffers_refuse_other_names_and_never_read_a_buffer_paneward_did_not_stage() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    let (text, error_type) = refused(&mut client, "show_buffer", json!({"buffer_name": "mine"}));
    assert_eq!(
        (text.as_str(), error_type.as_str()),
        ("Invalid buffer name: 'mine'", "ExpectedToolError")
    );
    let (text, _) = refused(
        &mut client,
        "load_buffer",
        json!({"content": "x", "logical_name": "bad name"}),
    );
    assert_eq!(text, "Invalid logical buffer name: 'bad name'");
    // A buffer someone else made under libtmux-mcp's naming is not paneward's.
    let theirs = format!("libtmux_mcp_{}_x", "0".repeat(32));
    tmux.tmux(&["set-buffer", "-b", &theirs, "a person's copy"]);
    let (text, _) = refused(&mut client, "show_buffer", json!({"buffer_name": theirs}));
    assert!(text.starts_with("show-buffer failed for"), "{text}");
    assert!(!text.contains("person's copy"));
    let (text, _) = refused(&mut client, "paste_buffer", json!({"buffer_name": theirs}));
    assert_eq!(text, format!("tmux error: paste-buffer: no buffer {theirs}"));
}

#[test]
fn paste_text_pastes_without_submitting_and_refuses_the_caller_pane() {
    let tmux = TmuxServer::start();
    let caller = tmux.first_pane();
    let cat = tmux.window_running("cat");
    let mut client = python(&tmux, Some(&caller));
    let reply = ok(
        &mut client,
        "paste_text",
        json!({"text": "pasted words", "pane_id": cat}),
    );
    assert_eq!(reply["result"], format!("Text pasted to pane {cat}"));
    tmux.wait_for_text(&cat, "pasted words");
    let (text, _) = refused(
        &mut client,
        "paste_text",
        json!({"text": "echo mine", "pane_id": caller}),
    );
    assert!(text.contains("caller"), "{text}");
    let (text, error_type) = refused(&mut client, "paste_text", json!({"text": "x", "pane_id": "%999"}));
    assert!(text.starts_with("Pane not found: Pane not found: %999"), "{text}");
    assert_eq!(error_type, "PaneNotFound");
}

#[test]
fn copy_mode_is_entered_and_left_answering_with_the_panes_record() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_showing("seq 1 100", "100");
    let mut client = python(&tmux, None);
    let reply = ok(&mut client, "enter_copy_mode", json!({"pane_id": pane, "scroll_up": 5}));
    assert_eq!(reply["pane_id"], pane);
    assert_eq!(tmux.pane_value(&pane, "#{pane_in_mode}:#{scroll_position}"), "1:5");
    let reply = ok(&mut client, "exit_copy_mode", json!({"pane_id": pane}));
    assert_eq!(reply["pane_id"], pane);
    assert_eq!(tmux.pane_value(&pane, "#{pane_in_mode}"), "0");
}

#[test]
fn copy_mode_refuses_a_missing_pane_and_the_caller_pane() {
    let tmux = TmuxServer::start();
    let caller = tmux.first_pane();
    let mut client = python(&tmux, Some(&caller));
    let (text, error_type) = refused(&mut client, "enter_copy_mode", json!({"pane_id": "%999"}));
    assert!(text.starts_with("Pane not found: Pane not found: %999"), "{text}");
    assert_eq!(error_type, "PaneNotFound");
    let (text, _) = refused(&mut client, "enter_copy_mode", json!({"pane_id": caller}));
    assert!(text.contains("caller pane"), "{text}");
    assert_eq!(tmux.pane_value(&caller, "#{pane_in_mode}"), "0");
}

#[test]
fn pipe_pane_pipes_to_a_file_and_stops() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let dir = std::env::temp_dir().join(TmuxServer::unique_name("pyio-pipe-"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("out's %s.txt");
    let path = file.to_str().unwrap();
    let mut client = python(&tmux, None);
    let reply = ok(&mut client, "pipe_pane", json!({"output_path": path, "pane_id": pane}));
    assert_eq!(reply["result"], format!("Piping pane {pane} to {path}"));
    assert_eq!(tmux.pane_value(&pane, "#{pane_pipe}"), "1");
    ok(
        &mut client,
        "send_keys",
        json!({"keys": "echo piped-$((1+1))", "pane_id": pane}),
    );
    crate::support::wait_for("the piped output", || {
        std::fs::read_to_string(&file)
            .ok()
            .filter(|text| text.contains("piped-2"))
    });
    let reply = ok(&mut client, "pipe_pane", json!({"pane_id": pane}));
    assert_eq!(reply["result"], format!("Piping stopped for pane {pane}"));
    assert_eq!(tmux.pane_value(&pane, "#{pane_pipe}"), "0");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pipe_pane_refuses_an_empty_path_and_a_relative_one() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = python(&tmux, None);
    let (text, error_type) = refused(&mut client, "pipe_pane", json!({"output_path": " "}));
    assert_eq!(text, "output_path must be a non-empty path, or None to stop piping.");
    assert_eq!(error_type, "ExpectedToolError");
    let (text, _) = refused(&mut client, "pipe_pane", json!({"output_path": "relative.txt"}));
    assert!(text.contains("absolute path"), "{text}");
    assert_eq!(tmux.pane_value(&pane, "#{pane_pipe}"), "0");
}

#[test]
fn channels_are_signalled_and_waited_for() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    // A wait-for started by tmux itself, held until the signal.
    let mut waiter = tmux.command().args(["wait-for", "py-io-done"]).spawn().unwrap();
    let reply = ok(&mut client, "signal_channel", json!({"channel": "py-io-done"}));
    assert_eq!(reply["result"], "Channel 'py-io-done' signalled");
    assert!(waiter.wait().unwrap().success());
    // A signal sent from a pane ends the wait.
    tmux.window_running("tmux wait-for -S py-io-ready || true; exec sleep 100000");
    let reply = ok(
        &mut client,
        "wait_for_channel",
        json!({"channel": "py-io-ready", "timeout": 20}),
    );
    assert_eq!(reply["result"], "Channel 'py-io-ready' was signalled (timeout 20.0s)");
}

#[test]
fn channels_refuse_a_bad_name_and_a_wait_no_one_signals_times_out() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    let (text, error_type) = refused(&mut client, "signal_channel", json!({"channel": "bad name"}));
    assert_eq!(
        (text.as_str(), error_type.as_str()),
        ("Invalid channel name: 'bad name'", "ExpectedToolError")
    );
    let (text, _) = refused(
        &mut client,
        "wait_for_channel",
        json!({"channel": "py-io-never", "timeout": 0.2}),
    );
    assert_eq!(
        text,
        "wait-for timeout: channel 'py-io-never' was not signalled within 0.2s"
    );
}

#[test]
fn hooks_are_listed_and_read_one_by_name() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["set-hook", "-g", "after-new-window", "display-message new"]);
    tmux.tmux(&[
        "set-hook",
        "-t",
        "main",
        "session-renamed[3]",
        "display-message renamed",
    ]);
    let mut client = python(&tmux, None);
    let reply = ok(&mut client, "show_hooks", json!({"scope": "session", "target": "main"}));
    assert_eq!(
        reply["entries"],
        json!([{"hook_name": "session-renamed", "index": 3, "command": "display-message renamed"}])
    );
    let reply = ok(
        &mut client,
        "show_hook",
        json!({"hook_name": "after-new-window", "global_": true}),
    );
    assert_eq!(
        reply["entries"],
        json!([{"hook_name": "after-new-window", "index": 0, "command": "display-message new"}])
    );
    let reply = ok(&mut client, "show_hook", json!({"hook_name": "pane-exited"}));
    assert!(
        reply.get("entries").is_none_or(|entries| entries == &json!([])),
        "{reply}"
    );
}

#[test]
fn hooks_refuse_an_unknown_hook_a_prefix_and_a_target_without_scope() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    let (text, error_type) = refused(&mut client, "show_hook", json!({"hook_name": "no-such-hook"}));
    assert_eq!(
        (text.as_str(), error_type.as_str()),
        ("tmux error: invalid option: no-such-hook", "InvalidOption")
    );
    let (text, _) = refused(&mut client, "show_hook", json!({"hook_name": "after-new"}));
    assert_eq!(text, "tmux error: invalid option: after-new");
    let (text, _) = refused(&mut client, "show_hooks", json!({"target": "main"}));
    assert_eq!(text, "scope is required when target is specified");
}

#[test]
fn environment_is_set_and_read_where_paneward_reveals_values() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward_with(&[PROFILE.as_slice(), &["--reveal-environment"]].concat(), &[]);
    client.initialize();
    let reply = ok(
        &mut client,
        "set_environment",
        json!({"name": "PYIO_VAR", "value": "one two", "session_name": "main"}),
    );
    assert_eq!(reply, json!({"name": "PYIO_VAR", "status": "set", "value": "one two"}));
    tmux.tmux(&["set-environment", "-t", "main", "-r", "PYIO_GONE"]);
    let reply = ok(&mut client, "show_environment", json!({"session_name": "main"}));
    assert_eq!(reply["variables"]["PYIO_VAR"], "one two");
    assert_eq!(reply["variables"]["-PYIO_GONE"], true);
    ok(
        &mut client,
        "set_environment",
        json!({"name": "PYIO_GLOBAL", "value": "g"}),
    );
    assert_eq!(
        tmux.tmux(&["show-environment", "-g", "PYIO_GLOBAL"]).trim(),
        "PYIO_GLOBAL=g"
    );
    let reply = ok(&mut client, "show_environment", json!({}));
    assert_eq!(reply["variables"]["PYIO_GLOBAL"], "g");
}

#[test]
fn environment_values_are_withheld_by_default_and_steering_variables_refused() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux, None);
    let (text, _) = refused(&mut client, "show_environment", json!({"session_name": "main"}));
    assert!(text.contains("--reveal-environment"), "{text}");
    let (text, _) = refused(
        &mut client,
        "set_environment",
        json!({"name": "PATH", "value": "/nowhere"}),
    );
    assert!(text.contains("PATH steers every shell"), "{text}");
    assert!(!tmux.tmux(&["show-environment", "-g", "PATH"]).contains("/nowhere"));
    let (text, error_type) = refused(
        &mut client,
        "set_environment",
        json!({"name": "X", "value": "1", "session_name": "mai"}),
    );
    assert!(
        text.starts_with("Object not found: Could not find session_name=mai"),
        "{text}"
    );
    assert_eq!(error_type, "TmuxObjectDoesNotExist");
}
