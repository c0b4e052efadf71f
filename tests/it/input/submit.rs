//! `confirm_submit` on `send_keys` and `paste_text`, against real programs: a POSIX
//! shell, bash with a slow rc file, `less`, and a TUI-like reader that ignores input at
//! first. Each test checks the verdict and that no line arrived twice.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::control::kill_and_wait;
use crate::support::{root, wait_for, Client, Scratch, TmuxServer};
use serde_json::{json, Value};

/// The reader fixture, run by the system Python (a version manager's shim starts slowly).
fn reader(window_seconds: u32, ignores: &str) -> String {
    let script = root().join("tests/fixtures/input/late_reader.py");
    format!("exec /usr/bin/python3 {} {window_seconds} {ignores}", script.display())
}

/// The slow reader fixture: it logs each line it takes to `log` at once, and is slow to
/// show anything (see the script for `mode`); `channel` releases it.
fn slow_reader(log: &str, channel: &str, mode: &str) -> String {
    let script = root().join("tests/fixtures/input/slow_reader.py");
    format!("exec /usr/bin/python3 {} {log} {channel} {mode}", script.display())
}

/// Starts a confirmed `send_keys` of `keys` to `pane` without waiting for its reply;
/// returns the request's id.
fn send_confirmed(client: &mut Client, pane: &str, keys: &str, timeout_ms: u64) -> Value {
    let id = json!("confirmed");
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "send_keys", "arguments": {"pane_id": pane, "keys": keys, "literal": true,
            "confirm_submit": true, "confirm_timeout_ms": timeout_ms}}}));
    id
}

/// The reply to a confirmation whose pane or server went away after the keys went in:
/// a success whose verdict is `unknown` and says the input was typed, never a failure
/// that is safe to send again.
#[track_caller]
fn assert_typed_then_unknown(response: &Value, why: &str) {
    let result = &response["result"];
    assert_ne!(result["isError"], true, "a failure after the keys went in: {response}");
    let reply = &result["structuredContent"];
    assert_verdict(reply, "unknown", false);
    let evidence = reply["evidence"].as_str().unwrap();
    assert!(
        evidence.contains("text and Enter were typed") && evidence.contains(why),
        "{evidence}"
    );
}

/// How many rows of `pane`'s screen are exactly `row`.
fn rows_equal(tmux: &TmuxServer, pane: &str, row: &str) -> usize {
    tmux.capture(pane).lines().filter(|line| line.trim_end() == row).count()
}

#[track_caller]
fn assert_verdict(reply: &Value, submitted: &str, retried: bool) {
    assert_eq!(reply["submitted"], submitted, "{reply}");
    assert_eq!(reply["retried"], retried, "{reply}");
    assert!(reply["evidence"].as_str().is_some_and(|e| !e.is_empty()), "{reply}");
}

#[test]
fn a_posix_shell_takes_a_confirmed_line_and_a_confirmed_paste_once_each() {
    let tmux = TmuxServer::start();
    let shell = tmux.first_pane();
    let mut client = tmux.paneward();
    // Without Enter there is nothing to confirm: refused, and nothing typed (a stray `x`
    // would turn the next line into `xecho`, whose output never shows).
    let error = client.call_err(
        "send_keys",
        json!({"pane_id": shell, "keys": "x", "enter": false, "confirm_submit": true}),
    );
    assert!(
        error.contains("/confirm_submit") && error.contains("enter is false"),
        "{error}"
    );
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": shell, "keys": "echo typed-$((6*7))", "literal": true, "confirm_submit": true}),
    );
    assert_verdict(&reply, "true", false);
    tmux.wait_for_text(&shell, "\ntyped-42");
    let reply = client.call_ok(
        "paste_text",
        json!({"pane_id": shell, "text": "echo pasted-$((6*7))", "enter": true, "confirm_submit": true}),
    );
    assert_verdict(&reply, "true", false);
    tmux.wait_for_text(&shell, "\npasted-42");
    assert_eq!(rows_equal(&tmux, &shell, "typed-42"), 1);
    assert_eq!(rows_equal(&tmux, &shell, "pasted-42"), 1);

    // Without the option the reply is as before.
    let plain = client.call_ok("send_keys", json!({"pane_id": shell, "keys": "true", "literal": true}));
    assert_eq!(plain, json!({"paneId": shell, "resolvedPaneIds": [shell]}));
}

#[test]
fn bash_still_reading_a_slow_rc_file_takes_a_line_typed_before_its_prompt() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let rc = scratch.path("slow.bashrc");
    std::fs::write(&rc, "sleep 1\nPS1='slow$ '\n").unwrap();
    let pane = tmux.window_running(&format!("exec bash --noprofile --rcfile {rc} -i"));
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "echo slow-$((6*7))", "literal": true, "confirm_submit": true}),
    );
    // The terminal took the line (its echo moved the cursor); bash reads it once it starts.
    assert_verdict(&reply, "true", false);
    tmux.wait_for_text(&pane, "\nslow-42");
    tmux.wait_for_text(&pane, "slow$ ");
    assert_eq!(rows_equal(&tmux, &pane, "slow-42"), 1);
}

#[test]
fn less_takes_an_enter_as_a_one_line_scroll() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let file = scratch.path("numbers");
    let numbers: String = (1..=500).map(|n| format!("line-{n}\n")).collect();
    std::fs::write(&file, numbers).unwrap();
    let pane = tmux.window_running(&format!("exec less {file}"));
    tmux.wait_for_text(&pane, "line-20\n");
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "", "confirm_submit": true}),
    );
    assert_verdict(&reply, "true", false);
    // One Enter, one line: the screen starts at line 2, not 3.
    wait_for("less to scroll one line", || {
        tmux.capture(&pane).starts_with("line-2\n").then_some(())
    });
}

#[test]
fn a_reader_that_drops_enter_at_first_gets_it_once_more_and_the_line_arrives_once() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running(&reader(2, "enter"));
    tmux.wait_for_text(&pane, "reader>");
    let mut client = tmux.paneward();
    // The wait (3 s of an unchanged screen) outlasts the reader's first two seconds.
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "hello reader", "literal": true,
               "confirm_submit": true, "confirm_timeout_ms": 3000}),
    );
    assert_verdict(&reply, "true", true);
    let evidence = reply["evidence"].as_str().unwrap();
    assert!(evidence.contains("nothing changed but the typed text"), "{evidence}");
    assert!(evidence.contains("is blocked reading the terminal"), "{evidence}");
    tmux.wait_for_text(&pane, "got: hello reader");
    // Once the reader reads, a confirmed line goes in with no retry.
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "second", "literal": true, "confirm_submit": true}),
    );
    assert_verdict(&reply, "true", false);
    tmux.wait_for_text(&pane, "got: second");
    assert_eq!(rows_equal(&tmux, &pane, "got: hello reader"), 1);
    assert_eq!(rows_equal(&tmux, &pane, "got: second"), 1);
    assert_eq!(tmux.capture(&pane).matches("got:").count(), 2);
}

#[test]
fn a_reader_that_ignores_everything_is_not_retried_and_the_verdict_is_unknown() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running(&reader(100_000, "all"));
    tmux.wait_for_text(&pane, "reader>");
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "lost", "literal": true,
               "confirm_submit": true, "confirm_timeout_ms": 300}),
    );
    // The text never showed, so nothing proves the Enter alone was dropped.
    assert_verdict(&reply, "unknown", false);
    let evidence = reply["evidence"].as_str().unwrap();
    assert!(evidence.contains("did not show"), "{evidence}");
}

#[test]
fn vim_in_insert_mode_takes_one_enter_and_the_file_holds_one_new_line() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let file = scratch.path("notes");
    let pane = tmux.window_running(&format!("exec vim -u NONE -i NONE -N -n {file}"));
    tmux.wait_for_value(&pane, "#{alternate_on}", "1");
    tmux.wait_for_text(&pane, "[New]");
    let mut client = tmux.paneward();
    client.call_ok("send_keys", json!({"pane_id": pane, "keys": "i", "enter": false}));
    tmux.wait_for_text(&pane, "-- INSERT --");
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "hello vim", "literal": true, "confirm_submit": true}),
    );
    assert_verdict(&reply, "true", false);
    client.call_ok("send_keys", json!({"pane_id": pane, "keys": "Escape : w q"}));
    let written = wait_for("vim to write the file", || {
        std::fs::read_to_string(&file).ok().filter(|text| text.ends_with('\n'))
    });
    // One Enter: the typed line and the empty one it opened, no third.
    assert_eq!(written, "hello vim\n\n");
}

#[test]
fn a_batch_row_may_confirm_within_the_batch_wait_bound() {
    let tmux = TmuxServer::start();
    let shell = tmux.first_pane();
    let mut client = tmux.paneward();
    let row = |timeout: u64| {
        json!({"tool": "send_keys", "arguments": {"pane_id": shell, "keys": "echo row-$((6*7))",
               "literal": true, "confirm_submit": true, "confirm_timeout_ms": timeout}})
    };
    let reply = client.call_ok("call_mutating_tools_batch", json!({"operations": [row(6000)]}));
    assert_eq!(reply["failed"], json!(1), "{reply}");
    assert!(reply.to_string().contains("/confirm_timeout_ms"), "{reply}");
    let reply = client.call_ok("call_mutating_tools_batch", json!({"operations": [row(2000)]}));
    assert_eq!(reply["succeeded"], json!(1), "{reply}");
    assert_verdict(&reply["results"][0]["result"], "true", false);
    tmux.wait_for_text(&shell, "\nrow-42");
    assert_eq!(rows_equal(&tmux, &shell, "row-42"), 1);
}

#[test]
fn a_paste_whose_enter_the_reader_dropped_gets_enter_once_more_and_the_text_once() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running(&reader(2, "enter"));
    tmux.wait_for_text(&pane, "reader>");
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "paste_text",
        json!({"pane_id": pane, "text": "pasted words", "enter": true,
               "confirm_submit": true, "confirm_timeout_ms": 3000}),
    );
    assert_verdict(&reply, "true", true);
    tmux.wait_for_text(&pane, "got: pasted words");
    assert_eq!(
        tmux.capture(&pane).matches("pasted words").count(),
        2,
        "the echo and the reply, once each"
    );
}

#[test]
fn a_server_killed_during_the_confirmation_leaves_an_unknown_verdict_that_says_the_keys_were_typed() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let log = scratch.path("lines");
    let pane = tmux.window_running(&slow_reader(&log, "never", "silent"));
    tmux.wait_for_text(&pane, "reader>");
    let mut client = tmux.paneward();
    // The screen never changes, so the confirmation watches for all of its 10 s.
    let id = send_confirmed(&mut client, &pane, "typed before the kill", 10_000);
    assert_eq!(scratch.wait_for_lines("lines", 1), "typed before the kill\n");
    kill_and_wait(&tmux);
    assert_typed_then_unknown(&client.response(&id), "failed");
}

#[test]
fn a_program_that_ends_on_the_line_leaves_an_unknown_verdict_not_a_missing_pane() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let log = scratch.path("lines");
    let pane = tmux.window_running(&slow_reader(&log, "never", "exit"));
    tmux.wait_for_text(&pane, "reader>");
    let mut client = tmux.paneward();
    // It ends without drawing anything, so no look before its pane closes shows a sign.
    let id = send_confirmed(&mut client, &pane, "last words", 10_000);
    assert_typed_then_unknown(&client.response(&id), &format!("pane {pane} closed"));
    assert_eq!(scratch.read("lines"), "last words\n");

    // bash on `exit`: whatever the looks saw before its pane closed, the reply is no failure.
    let bash = tmux.window_running("exec bash --norc --noprofile -i");
    tmux.wait_for_value(&bash, "#{pane_current_command}", "bash");
    let result = client.call(
        "send_keys",
        json!({"pane_id": bash, "keys": "exit", "literal": true, "confirm_submit": true}),
    );
    assert_ne!(result["isError"], true, "{result}");
    let submitted = &result["structuredContent"]["submitted"];
    assert!(submitted == "true" || submitted == "unknown", "{result}");
    assert_eq!(result["structuredContent"]["retried"], false, "{result}");
}

/// A reader that takes the line at once and is slow to show anything (`mode`) gets
/// one Enter, and the verdict is `unknown`: the unchanged screen is no proof.
fn a_slow_reader_gets_one_enter(mode: &str) {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let log = scratch.path("lines");
    let channel = format!("slow-reader-{mode}");
    let pane = tmux.window_running(&slow_reader(&log, &channel, mode));
    tmux.wait_for_text(&pane, "reader>");
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "slow line", "literal": true,
               "confirm_submit": true, "confirm_timeout_ms": 200}),
    );
    assert_verdict(&reply, "unknown", false);
    let evidence = reply["evidence"].as_str().unwrap();
    assert!(evidence.contains("not reading the terminal"), "{evidence}");
    // Released only now, so it was busy with the line for the whole confirmation.
    tmux.tmux(&["wait-for", "-S", &channel]);
    if mode == "redraw" {
        tmux.wait_for_text(&pane, "got: slow line");
    }
    // A second Enter would sit in the terminal and come out as an empty line first.
    tmux.tmux(&["send-keys", "-t", &pane, "-l", "END"]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    assert_eq!(scratch.wait_for_lines("lines", 2), "slow line\nEND\n");
}

#[test]
fn a_reader_that_redraws_only_after_the_wait_gets_one_enter_and_an_unknown_verdict() {
    a_slow_reader_gets_one_enter("redraw");
}

#[test]
fn a_reader_that_takes_the_line_and_shows_nothing_gets_one_enter_and_an_unknown_verdict() {
    a_slow_reader_gets_one_enter("silent");
}
