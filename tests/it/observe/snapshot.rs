//! `snapshot_pane` against real tmux servers on private sockets, through the binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::TmuxServer;
use serde_json::json;

#[test]
fn a_snapshot_returns_the_printed_text_and_the_pane() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("printf 'alpha\\nbeta  gamma\\n'; exec sleep 100000");
    tmux.wait_for_text(&pane, "gamma");
    // printf is the shell's own: the text is out before the shell execs sleep.
    tmux.wait_for_value(&pane, "#{pane_current_command}", "sleep");
    let mut client = tmux.paneward();
    let reply = client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    assert_eq!(reply["lines"], json!(["alpha", "beta  gamma"]));
    assert_eq!(reply["dead"], false);
    assert_eq!(reply["truncated"], false);
    assert_eq!(reply["truncatedLines"], 0);
    let info = &reply["pane"];
    assert_eq!(info["id"], json!(pane));
    assert_eq!(info["session"], "main");
    assert_eq!(info["currentCommand"], "sleep");
    assert_eq!(info["isCaller"], false);
    assert_eq!(
        info["geometry"],
        json!({"left": 0, "top": 0, "width": 80, "height": 24})
    );
    assert_eq!(info["windowId"], json!(tmux.pane_value(&pane, "#{window_id}")));
}

#[test]
fn max_lines_keeps_the_newest_lines_and_counts_the_rest() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("seq 1 100; exec sleep 100000");
    tmux.wait_for_text(&pane, "100");
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "snapshot_pane",
        json!({"pane_id": pane, "history": true, "max_lines": 5}),
    );
    assert_eq!(reply["lines"], json!(["96", "97", "98", "99", "100"]));
    assert_eq!(reply["truncated"], true);
    assert_eq!(reply["truncatedLines"], 95);
    // Only the newest history rows were read: the older ones' bytes are not counted.
    assert_eq!(reply.get("truncatedBytes"), None, "{reply}");
    let most = client.call_ok(
        "snapshot_pane",
        json!({"pane_id": pane, "history": true, "max_lines": 90}),
    );
    assert_eq!(most["truncatedLines"], 10);
    // With all of history read, they are: 1..9 take 2 bytes with their newline, 10 takes 3.
    assert_eq!(most["truncatedBytes"], 9 * 2 + 3);

    let all = client.call_ok("snapshot_pane", json!({"pane_id": pane, "history": true}));
    assert_eq!(all["lines"].as_array().unwrap().len(), 100);
    assert_eq!(all["truncated"], false);

    // Without history only the visible screen (24 rows) is read.
    let screen = client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    let lines = screen["lines"].as_array().unwrap();
    assert!(lines.len() <= 24, "{} lines", lines.len());
    assert_eq!(lines.last().unwrap(), "100");
}

#[test]
fn a_dead_pane_reports_its_exit_status() {
    let tmux = TmuxServer::start();
    let pane = tmux.dead_pane(3);
    let mut client = tmux.paneward();
    // tmux writes its "Pane is dead" banner at the bottom, scrolling the screen by a
    // line: ask for history to see the program's output too.
    let reply = client.call_ok("snapshot_pane", json!({"pane_id": pane, "history": true}));
    assert_eq!(reply["dead"], true);
    assert_eq!(reply["exitStatus"], 3);
    let lines = crate::support::strings(&reply["lines"]);
    assert_eq!(lines[0], "bye");
    assert!(lines.last().unwrap().starts_with("Pane is dead (status 3"), "{lines:?}");
}

#[test]
fn a_missing_pane_is_an_error_that_names_it() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let text = client.call_err("snapshot_pane", json!({"pane_id": "%9999"}));
    assert!(text.contains("%9999") && text.contains("can't find pane"), "{text}");
}

#[test]
fn a_missing_tmux_server_is_an_error_that_names_the_socket() {
    let mut client = crate::support::Client::spawn(&["-L", "pw-no-such-server"], &[]);
    client.initialize();
    let text = client.call_err("snapshot_pane", json!({"pane_id": "%0"}));
    assert!(
        text.contains("no tmux server") && text.contains("pw-no-such-server"),
        "{text}"
    );
}

#[test]
fn bad_arguments_name_the_field_and_the_server_keeps_serving() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let layout_before = tmux.tmux(&["list-panes", "-a", "-F", "#{pane_id} #{pane_dead} #{pane_in_mode}"]);
    let mut client = tmux.paneward();
    let cases = [
        (json!({"pane_id": pane, "bogus": 1}), "/bogus", "not a known field"),
        (json!({"pane_id": pane, "max_lines": "5"}), "/max_lines", "integer"),
        (json!({"pane_id": pane, "history": "yes"}), "/history", "boolean"),
        (
            json!({"pane_id": pane, "max_lines": -1}),
            "/max_lines",
            "between 1 and 5000",
        ),
        (
            json!({"pane_id": pane, "max_lines": 5001}),
            "/max_lines",
            "between 1 and 5000",
        ),
        (json!({}), "/pane_id", "is required"),
        (json!({"pane_id": 7}), "/pane_id", "string"),
        (json!({"pane_id": "main:0.0"}), "/pane_id", "must be a pane id"),
    ];
    for (arguments, field, rule) in cases {
        let text = client.call_err("snapshot_pane", arguments.clone());
        assert!(text.contains(field) && text.contains(rule), "{arguments} -> {text}");
        // The server still answers, and correctly.
        let reply = client.call_ok("snapshot_pane", json!({"pane_id": pane, "max_lines": 1}));
        assert_eq!(reply["pane"]["id"], json!(pane));
    }
    let layout_after = tmux.tmux(&["list-panes", "-a", "-F", "#{pane_id} #{pane_dead} #{pane_in_mode}"]);
    assert_eq!(layout_before, layout_after, "bad calls changed nothing in tmux");
}

#[test]
fn the_pane_paneward_runs_in_is_marked_as_the_caller() {
    let tmux = TmuxServer::start();
    let caller = tmux.first_pane();
    let other = tmux.window_running("exec sleep 100000");
    let mut client = tmux.paneward_in(&caller);
    let mine = client.call_ok("snapshot_pane", json!({"pane_id": caller}));
    assert_eq!(mine["pane"]["isCaller"], true);
    let theirs = client.call_ok("snapshot_pane", json!({"pane_id": other}));
    assert_eq!(theirs["pane"]["isCaller"], false);

    // Same pane id, but TMUX names another server: not the caller.
    let mut elsewhere = tmux.paneward_with(&[], &[("TMUX", "/tmp/elsewhere,1,0"), ("TMUX_PANE", caller.as_str())]);
    elsewhere.initialize();
    let reply = elsewhere.call_ok("snapshot_pane", json!({"pane_id": caller}));
    assert_eq!(reply["pane"]["isCaller"], false);
}

#[test]
fn pane_text_that_is_not_utf8_is_returned_lossily() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("printf 'ok \\303\\251 \\377 end\\n'; exec sleep 100000");
    tmux.wait_for_text(&pane, "end");
    let mut client = tmux.paneward();
    let reply = client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    let line = reply["lines"][0].as_str().unwrap();
    assert!(line.starts_with("ok é") && line.ends_with("end"), "{line:?}");
}

#[test]
fn a_host_that_passes_no_locale_still_gets_the_text_and_the_pane() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("printf 'h\\303\\251llo w\\303\\266rld\\n'; exec sleep 100000");
    tmux.wait_for_text(&pane, "llo w");
    let mut client = crate::support::Client::spawn_like_a_host(&["-L", &tmux.name]);
    client.initialize();
    let reply = client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    assert_eq!(reply["lines"], json!(["héllo wörld"]));
    assert_eq!(reply["pane"]["id"], json!(pane));
}
