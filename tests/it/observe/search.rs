//! `search_panes` against real tmux servers, through the binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::control::RawControl;
use crate::support::TmuxServer;
use serde_json::{json, Value};

fn pane_ids(reply: &Value) -> Vec<String> {
    reply["panes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["paneId"].as_str().unwrap().to_string())
        .collect()
}

fn matches(pane: &Value) -> Vec<(u64, String)> {
    pane["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["row"].as_u64().unwrap(), m["line"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn a_literal_pattern_and_a_regex_find_the_panes_and_rows_that_show_them() {
    let tmux = TmuxServer::start();
    let failing = tmux.window_showing("printf 'ok\\nerror: disk full\\n'", "disk full");
    let warning = tmux.window_showing("printf 'warning: 3 errors\\n'", "3 errors");
    let _quiet = tmux.window_showing("printf 'all good\\n'", "all good");
    let mut client = tmux.paneward();

    let literal = client.call_ok("search_panes", json!({"pattern": "error", "detail": "full"}));
    assert_eq!(pane_ids(&literal), [failing.clone(), warning.clone()]);
    let first = &literal["panes"][0];
    assert_eq!(matches(first), [(1, "error: disk full".to_string())]);
    assert_eq!(first["matchCount"], 1);
    assert_eq!(first["sessionName"], "main");
    let window = tmux.pane_value(&failing, "#{window_id} #{window_index} #{session_id}");
    assert_eq!(
        format!(
            "{} {} {}",
            first["windowId"].as_str().unwrap(),
            first["windowIndex"],
            first["sessionId"].as_str().unwrap()
        ),
        window
    );
    assert_eq!(literal["matchingPanes"], 2);
    assert!(literal["panesSearched"].as_u64().unwrap() >= 4, "{literal}");
    assert_eq!(literal["truncated"], false);

    let regex = client.call_ok("search_panes", json!({"pattern": "^error: \\w+ full$", "regex": true}));
    assert_eq!(pane_ids(&regex), std::slice::from_ref(&failing));

    // The same text without `regex` is taken literally and shown nowhere.
    let nothing = client.call_ok("search_panes", json!({"pattern": "^error: \\w+ full$"}));
    assert_eq!(nothing["panes"], json!([]));
    assert_eq!(nothing["matchingPanes"], 0);

    let insensitive = client.call_ok("search_panes", json!({"pattern": "(?i)WARNING", "regex": true}));
    assert_eq!(pane_ids(&insensitive), [warning]);
}

#[test]
fn a_bad_regex_and_out_of_range_limits_are_refused_by_name() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    for (arguments, field, rule) in [
        (
            json!({"pattern": "(unclosed", "regex": true}),
            "/pattern",
            "not a valid regular expression: unclosed group",
        ),
        (
            json!({"pattern": "(?:a{1000}){1000}", "regex": true}),
            "/pattern",
            "too complex",
        ),
        (json!({"pattern": ""}), "/pattern", "must not be empty"),
        (
            json!({"pattern": "x", "max_lines": 0}),
            "/max_lines",
            "between 1 and 200",
        ),
        (json!({"pattern": "x", "max_lines": 201}), "/max_lines", "at most 200"),
        (
            json!({"pattern": "x", "max_matches_per_pane": -1}),
            "/max_matches_per_pane",
            "between 1 and 200",
        ),
        (
            json!({"pattern": "x".repeat(4097)}),
            "/pattern",
            "at most 4096 characters",
        ),
    ] {
        let text = client.call_err("search_panes", arguments.clone());
        assert!(text.contains(field) && text.contains(rule), "{field} -> {text}");
        assert!(text.len() < 400, "the pattern is not echoed: {text}");
    }
}

#[test]
fn caps_on_panes_and_matches_are_applied_and_reported() {
    let tmux = TmuxServer::start();
    let panes: Vec<String> = (0..5)
        .map(|_| tmux.window_showing("printf 'hit 1\\nhit 2\\nmiss\\nhit 3\\nhit 4\\n'", "hit 4"))
        .collect();
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "search_panes",
        json!({"pattern": "hit", "max_lines": 2, "max_matches_per_pane": 3, "detail": "full"}),
    );
    assert_eq!(pane_ids(&reply), panes[..2]);
    for pane in reply["panes"].as_array().unwrap() {
        // The lowest (newest) matching rows are kept.
        let kept: Vec<(u64, String)> = [(1, "hit 2"), (3, "hit 3"), (4, "hit 4")]
            .iter()
            .map(|(r, l)| (*r, (*l).to_string()))
            .collect();
        assert_eq!(matches(pane), kept);
        assert_eq!(
            (pane["matchCount"].clone(), pane["truncatedLines"].clone()),
            (json!(4), json!(1))
        );
        assert_eq!(pane["truncated"], true);
    }
    assert_eq!(reply["matchingPanes"], 5);
    assert_eq!(reply["truncatedPanes"], 3);
    assert_eq!(reply["truncatedLines"], 2);
    assert_eq!(reply["truncatedBytes"], 2 * "hit 1\n".len());
    assert_eq!(reply["truncated"], true);
}

#[test]
fn a_pattern_with_tmux_format_syntax_is_matched_literally_and_runs_nothing() {
    let tmux = TmuxServer::start();
    let marker =
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pw-search-{}-ran", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let command = format!("#(touch {})", marker.display());
    // printf's \043 is `#`, so no layer between here and the pane sees a format.
    let shown = tmux.window_showing(
        &format!("printf '{}\\n\\043{{pane_id}}\\n'", command.replace('#', "\\043")),
        "{pane_id}",
    );
    let mut client = tmux.paneward();

    let reply = client.call_ok("search_panes", json!({"pattern": command}));
    assert_eq!(pane_ids(&reply), std::slice::from_ref(&shown));
    assert_eq!(matches(&reply["panes"][0]), [(0, command.clone())]);

    let reply = client.call_ok("search_panes", json!({"pattern": "#{pane_id}"}));
    assert_eq!(pane_ids(&reply), std::slice::from_ref(&shown));
    assert_eq!(matches(&reply["panes"][0]), [(1, "#{pane_id}".to_string())]);

    let reply = client.call_ok("search_panes", json!({"pattern": "#\\(touch [^)]*\\)", "regex": true}));
    assert_eq!(pane_ids(&reply), [shown]);

    // Control: tmux runs `#()` jobs in the background. Once a job started after the
    // calls has run, one the calls had started would have run too. The job is started
    // from a control-mode client that stays attached until it has run: tmux kills the
    // jobs of a client that goes away, so a one-shot `tmux display-message` may never
    // run its job on a loaded machine.
    let control = marker.with_extension("control");
    let mut attached = RawControl::attach(&tmux, "main");
    attached.begin_line(&format!("display-message -p '#(touch {})'", control.display()));
    crate::support::wait_for("tmux to run a #() job", || control.exists().then_some(()));
    drop(attached);
    let _ = std::fs::remove_file(&control);
    assert!(!marker.exists(), "the pattern ran as a shell command");
}

#[test]
fn screens_printing_copied_guard_lines_are_cut_by_their_heights_in_both_connection_modes() {
    let tmux = TmuxServer::start();
    // Copies of control-mode guards, with the numbers a next block would carry.
    let forger = tmux.window_showing(
        "for n in 1 2 3 4 5 6 7 8 9; do printf '%%end 1 %s 1\\n%%begin 1 %s 1\\n' $n $n; done; echo needle-one",
        "needle-one",
    );
    let after = tmux.window_showing("echo needle-two", "needle-two");
    for args in [&[][..], &["--no-control-mode"][..]] {
        let mut client = tmux.paneward_with(args, &[]);
        client.initialize();
        let reply = client.call_ok("search_panes", json!({"pattern": "needle"}));
        assert_eq!(pane_ids(&reply), [forger.clone(), after.clone()], "{args:?}: {reply}");
        assert_eq!(
            matches(&reply["panes"][0]),
            [(18, "needle-one".to_string())],
            "{args:?}"
        );
        assert_eq!(matches(&reply["panes"][1]), [(0, "needle-two".to_string())], "{args:?}");
        let rows = client.call_ok("search_panes", json!({"pattern": "%begin 1 9 1"}));
        assert_eq!(pane_ids(&rows), std::slice::from_ref(&forger), "{args:?}");
    }
}

/// A search keeps the listing it read as the next one's guess: whatever changed between
/// two searches (a pane came, heights changed, a window was renamed, a pane went), the
/// second reads the panes as they are then, in both connection modes.
#[test]
fn a_search_after_the_panes_changed_reads_them_as_they_are_now_in_both_connection_modes() {
    for args in [&[][..], &["--no-control-mode"][..]] {
        let tmux = TmuxServer::start();
        let first = tmux.window_showing("printf 'top\\nneedle-a\\n'", "needle-a");
        let second = tmux.window_showing("printf 'needle-b\\n'", "needle-b");
        let mut client = tmux.paneward_with(args, &[]);
        client.initialize();
        let mut search = || client.call_ok("search_panes", json!({"pattern": "needle", "detail": "full"}));
        assert_eq!(pane_ids(&search()), [first.clone(), second.clone()], "{args:?}");
        // The three panes in tmux's order, each match on the row its pane shows it.
        let three_panes = |reply: &Value, third: &str| {
            assert_eq!(pane_ids(reply), [first.as_str(), third, second.as_str()], "{args:?}");
            assert_eq!(matches(&reply["panes"][0]), [(1, "needle-a".to_string())], "{args:?}");
            assert_eq!(matches(&reply["panes"][1]), [(2, "needle-c".to_string())], "{args:?}");
        };

        // A pane comes below the first: the first window's heights change.
        let third = tmux.split(&first, "-v", "printf 'x\\ny\\nneedle-c\\n'; exec sleep 100000");
        tmux.wait_for_text(&third, "needle-c");
        tmux.tmux(&["rename-window", "-t", &second, "renamed"]);
        let grown = search();
        three_panes(&grown, &third);
        assert_eq!(grown["panes"][2]["windowName"], "renamed", "{args:?}");

        // The same panes at other heights: rows cut by the old ones would land in the
        // wrong pane.
        let heights = |tmux: &TmuxServer| tmux.pane_value(&first, "#{pane_height}");
        let before = heights(&tmux);
        tmux.tmux(&["resize-pane", "-t", &first, "-y", "4"]);
        assert_ne!(heights(&tmux), before);
        three_panes(&search(), &third);

        // Only a name changes: the captures hold, the reply carries the new name.
        tmux.tmux(&["rename-window", "-t", &first, "again"]);
        let renamed = search();
        three_panes(&renamed, &third);
        assert_eq!(renamed["panes"][0]["windowName"], "again", "{args:?}");

        // A pane goes: its capture fails, and the search lists again.
        tmux.tmux(&["kill-pane", "-t", &third]);
        assert_eq!(pane_ids(&search()), [first.clone(), second.clone()], "{args:?}");
    }
}
