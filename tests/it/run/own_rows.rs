//! paneward's own rows after `run_command`: its markers and the echo of the line it
//! typed are in the pane (tmux's own capture has them), and no reading paneward returns
//! holds any of them, in a wide pane and in one so narrow that the typed line wraps.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{strings, Client, TmuxServer};
use serde_json::{json, Value};

/// Text only paneward's own rows hold.
const OWN_TEXT: [&str; 4] = ["show-buffer", "paneward_", "PW", "delete-buffer"];

fn holds_own_text(rows: &[String]) -> Option<String> {
    rows.iter()
        .find(|row| OWN_TEXT.iter().any(|own| row.contains(own)))
        .cloned()
}

/// Every reading paneward returns of `pane`, as rows.
fn readings(client: &mut Client, pane: &str) -> Vec<(&'static str, Vec<String>)> {
    let capture = client.call_ok("capture_pane", json!({"pane_id": pane, "history": true}));
    let snapshot = client.call_ok("snapshot_pane", json!({"pane_id": pane, "history": true}));
    let since = client.call_ok("capture_since", json!({"pane_id": pane}));
    let waited = client.call_ok(
        "wait_for_text",
        json!({"pane_ids": [pane], "patterns": ["out-"], "since_entry": false, "timeout_seconds": 5}),
    );
    assert_eq!(waited["outcome"], "matched", "{waited}");
    let mut found = vec![
        ("capture_pane", strings(&capture["lines"])),
        ("snapshot_pane", strings(&snapshot["lines"])),
        ("capture_since", strings(&since["lines"])),
        ("wait_for_text", strings(&waited["lines"])),
    ];
    for own in OWN_TEXT {
        let search = client.call_ok("search_panes", json!({"pattern": own}));
        let rows: Vec<String> = search["panes"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|pane: &Value| pane["matches"].as_array().unwrap().iter())
            .map(|m| m["line"].as_str().unwrap().to_string())
            .collect();
        found.push(("search_panes", rows));
    }
    found
}

#[test]
fn no_reading_returns_the_markers_or_the_typed_line_of_run_command() {
    let tmux = TmuxServer::start();
    let wide = tmux.first_pane();
    let narrow = tmux.window_running("/bin/sh");
    tmux.tmux(&["resize-window", "-t", &narrow, "-x", "33", "-y", "20"]);
    let mut client = tmux.paneward();
    for pane in [&wide, &narrow] {
        let reply = client.call_ok(
            "run_command",
            json!({"pane_id": pane, "command": "echo out-one; printf out-two"}),
        );
        assert_eq!(reply["output"], json!(["out-one", "out-two"]), "{reply}");
        // The pane itself holds them: what is checked below can fail.
        let raw = tmux.tmux(&["capture-pane", "-p", "-J", "-t", pane, "-S", "-"]);
        assert!(raw.contains("show-buffer") && raw.contains("PW"), "{raw}");
        for (tool, rows) in readings(&mut client, pane) {
            assert_eq!(holds_own_text(&rows), None, "{tool} in {pane}: {rows:?}");
            if tool != "search_panes" {
                assert!(
                    rows.iter().any(|row| row.contains("out-one")),
                    "{tool} in {pane}: {rows:?}"
                );
            }
        }
    }
}

#[test]
fn show_command_prints_the_command_for_a_person_and_keeps_it_out_of_output_and_history() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("HISTFILE=/dev/null HISTCONTROL=ignorespace exec bash --norc --noprofile");
    tmux.wait_for_value(&pane, "#{pane_current_command}", "bash");
    let plain = tmux.first_pane();
    // A line a person types is in the history: the check below can fail.
    tmux.tmux(&["send-keys", "-t", &pane, "-l", "echo VISIBLE-HIST"]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    tmux.wait_for_echo(&pane, "VISIBLE-HIST");
    // Per server, with a call that says otherwise.
    let mut client = tmux.paneward_with(&["--show-commands"], &[]);
    client.initialize();
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": "echo SHOWN-$((1+1))\n: \"\u{1b}[2J\"tab\tend"}),
    );
    assert_eq!(reply["output"][0], "SHOWN-2", "{reply}");
    let screen = tmux.capture(&pane);
    assert!(screen.contains("# echo SHOWN-$((1+1))\n"), "{screen}");
    assert!(screen.contains("# : \"^[[2J\"tab end\n"), "{screen}");
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": plain, "command": "echo QUIET-$((1+2))", "show_command": false}),
    );
    assert_eq!(reply["output"], json!(["QUIET-3"]), "{reply}");
    assert!(
        !tmux.capture(&plain).contains("# echo QUIET"),
        "{}",
        tmux.capture(&plain)
    );
    // Neither the shown command nor the typed line reached bash's history.
    let history = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": "history", "show_command": false}),
    );
    let history = strings(&history["output"]).join("\n");
    assert!(history.contains("echo VISIBLE-HIST"), "{history}");
    assert!(!history.contains("SHOWN") && !history.contains("eval"), "{history}");
    drop(client);
    // Per call, on a server without the flag.
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": plain, "command": "echo ASKED-$((2+2))", "show_command": true}),
    );
    assert_eq!(reply["output"], json!(["ASKED-4"]), "{reply}");
    assert!(
        tmux.capture(&plain).contains("# echo ASKED-$((2+2))\n"),
        "{}",
        tmux.capture(&plain)
    );
}
