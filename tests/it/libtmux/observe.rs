//! The family's inspect tools under `--profile libtmux` that the differential script
//! reaches on one window only: a search narrowed to a window or a session reads exactly
//! the panes tmux lists there.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::TmuxServer;

fn matched_panes(reply: &Value) -> Vec<String> {
    let mut panes: Vec<String> = reply["structuredContent"]["matches"]
        .as_array()
        .unwrap_or_else(|| panic!("{reply}"))
        .iter()
        .map(|found| found["pane"].as_str().unwrap().to_string())
        .collect();
    panes.sort();
    panes
}

#[test]
fn search_panes_reads_only_the_window_or_session_it_names() {
    let tmux = TmuxServer::start();
    let here = tmux.window_showing("echo fam-$((40+2))", "fam-42");
    let there = tmux.window_showing("echo fam-$((40+2))", "fam-42");
    let here_window = tmux.pane_value(&here, "#{window_id}");
    let mut client = tmux.paneward_with(&super::PROFILE, &[]);
    client.initialize();
    let window = client.call("search_panes", json!({"pattern": "fam-42", "window": here_window}));
    assert_eq!(matched_panes(&window), vec![here.clone()]);
    assert_eq!(window["structuredContent"]["panes_searched"], 1, "{window}");
    let session = client.call("search_panes", json!({"pattern": "fam-42", "session": "main"}));
    let mut both = vec![here, there];
    both.sort();
    assert_eq!(matched_panes(&session), both);
}
