//! `capture_pane` and `capture_since` against real tmux servers, through the binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{assert_valid_output, strings, wait_for, Client, TmuxServer};
use serde_json::{json, Value};

/// A pane that prints each line typed into it once: `cat` with the terminal's echo off.
fn echo_pane(tmux: &TmuxServer) -> String {
    let pane = tmux.window_running("stty -echo; echo ready; exec cat");
    tmux.wait_for_text(&pane, "ready");
    pane
}

/// Types `lines` into an [`echo_pane`] and waits until the last one is printed.
fn print(tmux: &TmuxServer, pane: &str, lines: &[String]) {
    let mut text = lines.join("\n");
    text.push('\n');
    tmux.tmux(&["send-keys", "-t", pane, "-l", &text]);
    let last = lines.last().unwrap();
    wait_for(&format!("{last:?} in {pane}"), || {
        let all = tmux.tmux(&["capture-pane", "-p", "-S", "-", "-t", pane]);
        all.lines().any(|l| l == last).then_some(())
    });
}

fn numbered(prefix: &str, range: std::ops::RangeInclusive<u32>) -> Vec<String> {
    range.map(|i| format!("{prefix} {i}")).collect()
}

fn since(client: &mut Client, pane: &str, cursor: Option<&Value>) -> Value {
    let mut arguments = json!({"pane_id": pane});
    if let Some(cursor) = cursor {
        arguments["cursor"] = cursor.clone();
    }
    client.call_ok("capture_since", arguments)
}

#[test]
fn capture_pane_reads_the_screen_or_the_scrollback_and_keeps_the_newest_lines() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("seq 1 100; exec sleep 100000");
    tmux.wait_for_text(&pane, "100");
    let mut client = tmux.paneward();

    let screen = client.call_ok("capture_pane", json!({"pane_id": pane}));
    let visible = strings(&screen["lines"]);
    assert_eq!(visible.len(), 23, "24 rows, the last (the cursor's) blank: {visible:?}");
    assert_eq!(visible.first().unwrap(), "78");
    assert_eq!(visible.last().unwrap(), "100");
    assert_eq!(screen["history"], false);
    assert_eq!(screen["paneId"], json!(pane));
    assert_eq!(screen["truncated"], false);

    let all = client.call_ok("capture_pane", json!({"pane_id": pane, "history": true}));
    let expected: Vec<String> = (1..=100).map(|i| i.to_string()).collect();
    assert_eq!(strings(&all["lines"]), expected);

    let newest = client.call_ok(
        "capture_pane",
        json!({"pane_id": pane, "history": true, "max_lines": 3}),
    );
    assert_eq!(newest["lines"], json!(["98", "99", "100"]));
    assert_eq!(newest["truncated"], true);
    assert_eq!(newest["truncatedLines"], 97);
    // Only the newest history rows were read: the older ones' bytes are not counted.
    assert_eq!(newest.get("truncatedBytes"), None, "{newest}");
    assert_valid_output("capture_pane", &newest);

    // Asking for more rows than history holds reads it all, so the bytes are counted.
    let most = client.call_ok(
        "capture_pane",
        json!({"pane_id": pane, "history": true, "max_lines": 90}),
    );
    assert_eq!(strings(&most["lines"]), expected[10..]);
    assert_eq!(most["truncatedLines"], 10);
    // "1".."9" take 2 bytes with their newline, "10" takes 3.
    assert_eq!(most["truncatedBytes"], 9 * 2 + 3);
}

/// A pane whose scrollback holds `seq 1 200000` (most of it history), the prompt after.
fn long_history(tmux: &TmuxServer) -> (String, u64) {
    tmux.tmux(&["set-option", "-g", "history-limit", "250000"]);
    let pane = tmux.window_running("seq 1 200000; echo done; exec sleep 100000");
    tmux.wait_for_text(&pane, "done");
    let history_size: u64 = tmux.pane_value(&pane, "#{history_size}").parse().unwrap();
    assert!(history_size > 190_000, "{history_size}");
    (pane, history_size)
}

#[test]
fn a_history_capture_of_a_long_scrollback_returns_exactly_the_newest_rows_and_counts_the_rest() {
    let tmux = TmuxServer::start();
    let (pane, history_size) = long_history(&tmux);
    let mut client = tmux.paneward();
    for (tool, max_lines) in [("capture_pane", 5000), ("snapshot_pane", 5000), ("capture_pane", 1)] {
        let reply = client.call_ok(tool, json!({"pane_id": pane, "history": true, "max_lines": max_lines}));
        assert_valid_output(tool, &reply);
        let lines = strings(&reply["lines"]);
        // Every row tmux holds is a number or the final "done"; blank rows below it are
        // not returned.
        let mut expected: Vec<String> = (200_001 - max_lines + 1..=200_000).map(|i| i.to_string()).collect();
        expected.push("done".into());
        expected.drain(..expected.len() - usize::try_from(max_lines).unwrap());
        assert_eq!(lines, expected, "{tool} max_lines {max_lines}");
        // Rows written: the history, and the 23 screen rows that are not blank.
        let written = history_size + 23;
        assert_eq!(reply["truncated"], true);
        assert_eq!(reply["truncatedLines"], json!(written - max_lines), "{tool}");
        assert_eq!(reply.get("truncatedBytes"), None, "{tool}");
    }
}

#[test]
fn blank_rows_below_the_text_do_not_shorten_a_history_capture() {
    let tmux = TmuxServer::start();
    // 300 numbered rows, then far more blank rows than max_lines above an empty screen.
    let pane = tmux.window_running("seq 1 300; i=0; while [ $i -lt 60 ]; do echo; i=$((i+1)); done; exec sleep 100000");
    wait_for("the blank rows", || {
        (tmux.pane_value(&pane, "#{history_size}") == "337").then_some(())
    });
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "capture_pane",
        json!({"pane_id": pane, "history": true, "max_lines": 5}),
    );
    assert_eq!(reply["lines"], json!(["296", "297", "298", "299", "300"]));
    assert_eq!(reply["truncatedLines"], 295);
}

#[test]
fn capture_pane_refuses_a_missing_pane_and_bad_arguments_by_name() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let text = client.call_err("capture_pane", json!({"pane_id": "%9999"}));
    assert!(text.contains("can't find pane: %9999"), "{text}");
    let pane = tmux.first_pane();
    for (arguments, field, rule) in [
        (json!({"pane_id": "main:0.0"}), "/pane_id", "must be a pane id"),
        (
            json!({"pane_id": pane, "max_lines": 0}),
            "/max_lines",
            "between 1 and 5000",
        ),
        (json!({"pane_id": pane, "history": 1}), "/history", "boolean"),
    ] {
        let text = client.call_err("capture_pane", arguments.clone());
        assert!(text.contains(field) && text.contains(rule), "{arguments} -> {text}");
    }
}

#[test]
fn two_calls_around_printed_output_return_exactly_the_new_lines() {
    let tmux = TmuxServer::start();
    let pane = echo_pane(&tmux);
    let mut client = tmux.paneward();

    let first = since(&mut client, &pane, None);
    assert_eq!(first["lines"], json!(["ready"]), "without a cursor: the screen");
    assert_eq!(first["linesMissed"], false);
    assert_eq!(first["missedReason"], Value::Null);
    assert_eq!(first["alternateScreen"], false);

    print(&tmux, &pane, &["one".into(), "two  spaced".into()]);
    let second = since(&mut client, &pane, Some(&first["cursor"]));
    assert_eq!(second["lines"], json!(["one", "two  spaced"]));
    assert_eq!(second["linesMissed"], false);

    let quiet = since(&mut client, &pane, Some(&second["cursor"]));
    assert_eq!(quiet["lines"], json!([]), "nothing new");

    // Output that scrolls far past the screen between two calls comes back whole.
    let many = numbered("row", 1..=60);
    print(&tmux, &pane, &many);
    let third = since(&mut client, &pane, Some(&quiet["cursor"]));
    assert_eq!(strings(&third["lines"]), many);
    assert_eq!(third["linesMissed"], false);

    // max_lines keeps the newest and counts the rest; the cursor still moves on.
    print(&tmux, &pane, &numbered("more", 1..=10));
    let bounded = client.call_ok(
        "capture_since",
        json!({"pane_id": pane, "cursor": third["cursor"], "max_lines": 2}),
    );
    assert_eq!(bounded["lines"], json!(["more 9", "more 10"]));
    assert_eq!(
        (bounded["truncated"].clone(), bounded["truncatedLines"].clone()),
        (json!(true), json!(8))
    );
    let after = since(&mut client, &pane, Some(&bounded["cursor"]));
    assert_eq!(after["lines"], json!([]));
}

#[test]
fn the_row_the_terminal_cursor_is_on_is_returned_again_once_complete() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("PS1='prompt> ' exec sh");
    tmux.wait_for_text(&pane, "prompt>");
    let mut client = tmux.paneward();
    let first = since(&mut client, &pane, None);
    assert_eq!(first["lines"], json!(["prompt>"]));
    tmux.tmux(&["send-keys", "-t", &pane, "echo hel''lo", "Enter"]);
    tmux.wait_for_text(&pane, "hello\nprompt>");
    let second = since(&mut client, &pane, Some(&first["cursor"]));
    assert_eq!(second["lines"], json!(["prompt> echo hel''lo", "hello", "prompt>"]));
}

#[test]
fn a_cursor_from_before_clear_history_reports_lines_missed() {
    let tmux = TmuxServer::start();
    let pane = echo_pane(&tmux);
    let mut client = tmux.paneward();
    let first = since(&mut client, &pane, None);
    // Enough rows that the cursor's anchor scrolls into history, which is then cleared.
    print(&tmux, &pane, &numbered("gone", 1..=40));
    tmux.tmux(&["clear-history", "-t", &pane]);
    let reply = since(&mut client, &pane, Some(&first["cursor"]));
    assert_eq!(reply["linesMissed"], true);
    assert_eq!(reply["missedReason"], "historyLost");
    // What tmux still holds is returned: the rows left on the screen.
    assert_eq!(strings(&reply["lines"]), numbered("gone", 18..=40));
    // The new cursor picks up from there without loss.
    print(&tmux, &pane, &["next".into()]);
    let next = since(&mut client, &pane, Some(&reply["cursor"]));
    assert_eq!(
        (next["lines"].clone(), next["linesMissed"].clone()),
        (json!(["next"]), json!(false))
    );
}

#[test]
fn clear_history_below_the_cursor_loses_nothing() {
    let tmux = TmuxServer::start();
    let pane = echo_pane(&tmux);
    print(&tmux, &pane, &numbered("old", 1..=40));
    let mut client = tmux.paneward();
    let first = since(&mut client, &pane, None);
    // Every row renumbers (history is gone) but the anchor is still on the screen.
    tmux.tmux(&["clear-history", "-t", &pane]);
    print(&tmux, &pane, &["new".into()]);
    let reply = since(&mut client, &pane, Some(&first["cursor"]));
    assert_eq!(
        (reply["lines"].clone(), reply["linesMissed"].clone()),
        (json!(["new"]), json!(false))
    );
}

#[test]
fn a_history_limit_trim_past_the_cursor_reports_lines_missed_but_one_short_of_it_does_not() {
    let tmux = TmuxServer::start();
    // history-limit applies to panes created after it is set; tmux trims a tenth at a time.
    tmux.tmux(&["set-option", "-g", "history-limit", "100"]);
    let pane = echo_pane(&tmux);
    let mut client = tmux.paneward();

    print(&tmux, &pane, &numbered("a", 1..=110));
    let cursor = since(&mut client, &pane, None)["cursor"].clone();
    // History reaches the limit and is trimmed by 10 rows; the anchor ("a 110") stays.
    print(&tmux, &pane, &numbered("b", 1..=20));
    let kept = since(&mut client, &pane, Some(&cursor));
    assert_eq!(strings(&kept["lines"]), numbered("b", 1..=20));
    assert_eq!(kept["linesMissed"], false);

    // Now far more than the limit: the anchor itself is trimmed away.
    print(&tmux, &pane, &numbered("c", 1..=300));
    let lost = since(&mut client, &pane, Some(&kept["cursor"]));
    assert_eq!(lost["linesMissed"], true);
    assert_eq!(lost["missedReason"], "historyLost");
    let lines = strings(&lost["lines"]);
    assert_eq!(lines.last().unwrap(), "c 300");
    assert!(lines.len() <= 100 + 24, "{} rows", lines.len());
}

#[test]
fn a_respawned_pane_reports_lines_missed() {
    let tmux = TmuxServer::start();
    let pane = echo_pane(&tmux);
    let mut client = tmux.paneward();
    let first = since(&mut client, &pane, None);
    tmux.tmux(&["respawn-pane", "-k", "-t", &pane, "stty -echo; echo again; exec cat"]);
    tmux.wait_for_text(&pane, "again");
    let reply = since(&mut client, &pane, Some(&first["cursor"]));
    assert_eq!(reply["linesMissed"], true);
    assert_eq!(reply["missedReason"], "paneRespawned");
    assert!(strings(&reply["lines"]).contains(&"again".to_string()), "{reply}");
}

#[test]
fn the_alternate_screen_is_reported_and_tailing_resumes_after_it() {
    let tmux = TmuxServer::start();
    let pane = echo_pane(&tmux);
    let mut client = tmux.paneward();
    let first = since(&mut client, &pane, None);
    print(&tmux, &pane, &["before".into()]);
    // cat echoes the escape sequences: the pane switches to the alternate screen and
    // writes at its top left.
    tmux.tmux(&["send-keys", "-t", &pane, "-l", "\x1b[?1049h\x1b[HFULLSCREEN\n"]);
    tmux.wait_for_text(&pane, "FULLSCREEN");

    let during = since(&mut client, &pane, Some(&first["cursor"]));
    assert_eq!(during["alternateScreen"], true);
    assert_eq!(during["lines"], json!(["before"]), "rows of the normal screen only");
    let screen = since(&mut client, &pane, None);
    assert_eq!(
        screen["lines"],
        json!(["FULLSCREEN"]),
        "without a cursor: what is shown"
    );

    tmux.tmux(&["send-keys", "-t", &pane, "-l", "\x1b[?1049lafter\n"]);
    tmux.wait_for_text(&pane, "after");
    let back = since(&mut client, &pane, Some(&during["cursor"]));
    assert_eq!(back["alternateScreen"], false);
    assert_eq!(
        (back["lines"].clone(), back["linesMissed"].clone()),
        (json!(["after"]), json!(false))
    );
}

#[test]
fn altered_foreign_and_stale_cursors_are_refused_by_name() {
    let tmux = TmuxServer::start();
    let pane = echo_pane(&tmux);
    let other = echo_pane(&tmux);
    let mut client = tmux.paneward();
    let cursor = since(&mut client, &pane, None)["cursor"].as_str().unwrap().to_string();

    // One hex digit changed, anywhere past the issuer id.
    let mut altered = cursor.clone().into_bytes();
    let at = altered.len() - 40;
    altered[at] = if altered[at] == b'0' { b'1' } else { b'0' };
    let altered = String::from_utf8(altered).unwrap();
    let text = client.call_err("capture_since", json!({"pane_id": pane, "cursor": altered}));
    assert!(text.contains("/cursor") && text.contains("altered"), "{text}");

    let text = client.call_err("capture_since", json!({"pane_id": other, "cursor": cursor}));
    assert!(
        text.contains("/cursor") && text.contains(&format!("issued for pane {pane}, not {other}")),
        "{text}"
    );

    let text = client.call_err("capture_since", json!({"pane_id": pane, "cursor": "%1 please"}));
    assert!(
        text.contains("/cursor") && text.contains("not a cursor paneward issued"),
        "{text}"
    );

    // A cursor does not outlive the process that issued it.
    let mut restarted = tmux.paneward();
    let text = restarted.call_err("capture_since", json!({"pane_id": pane, "cursor": cursor}));
    assert!(
        text.contains("/cursor") && text.contains("another paneward process") && text.contains("without a cursor"),
        "{text}"
    );

    // Still serving, and the genuine cursor still works.
    let ok = since(&mut client, &pane, Some(&json!(cursor)));
    assert_eq!(ok["linesMissed"], false);
    let text = client.call_err("capture_since", json!({"pane_id": "%9999"}));
    assert!(text.contains("can't find pane: %9999"), "{text}");
}

#[test]
fn a_number_the_schema_allows_but_the_field_cannot_hold_is_refused_by_name() {
    // `max_lines` is an unbounded JSON Schema integer, which admits 1.0 and 1e20; the
    // handler's field is an i64. The error must still say which argument is wrong.
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    for value in [json!(1.0), json!(1e20), json!(18_446_744_073_709_551_615_u64)] {
        let text = client.call_err("capture_pane", json!({"pane_id": pane, "max_lines": value}));
        assert!(text.contains("/max_lines"), "{value}: {text}");
    }
    let reply = client.call_ok("capture_pane", json!({"pane_id": pane, "max_lines": 3}));
    assert_eq!(reply["paneId"], json!(pane), "the server keeps serving");
}
