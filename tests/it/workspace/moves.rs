//! `move_window` and `move_pane` against real tmux: moves report where things were and
//! what closed, and never close the window or session holding the caller pane.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::TmuxServer;
use serde_json::json;

/// A new detached session `name` with one window; returns (session id, window id, pane).
fn session(tmux: &TmuxServer, name: &str) -> (String, String, String) {
    let out = tmux.tmux(&[
        "new-session",
        "-d",
        "-P",
        "-F",
        "#{session_id} #{window_id} #{pane_id}",
        "-s",
        name,
        "-x",
        "80",
        "-y",
        "24",
        "exec sleep 100000",
    ]);
    let fields: Vec<String> = out.split_whitespace().map(str::to_string).collect();
    (fields[0].clone(), fields[1].clone(), fields[2].clone())
}

#[test]
fn move_window_reports_its_old_place_and_the_session_it_closed_and_moving_back_undoes_it() {
    let tmux = TmuxServer::start();
    let main_session = tmux.pane_value(&tmux.first_pane(), "#{session_id}");
    let (lone, lone_window, lone_pane) = session(&tmux, "lone");
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "move_window",
        json!({"window_id": lone_window, "to_session_id": main_session, "to_index": 5}),
    );
    assert_eq!(
        reply,
        json!({"windowId": lone_window, "sessionId": main_session, "index": 5,
               "previousSessionId": lone, "previousIndex": 0, "closed": [lone]})
    );
    assert_eq!(
        tmux.pane_value(&lone_pane, "#{session_id}:#{window_index}"),
        format!("{main_session}:5")
    );
    assert!(!tmux.try_tmux(&["has-session", "-t", &lone]));
    // The current window of main was not changed by the move.
    assert_eq!(tmux.pane_value(&lone_pane, "#{window_active}"), "0");
    // An index in use is tmux's error, and nothing moves.
    let text = client.call_err("move_window", json!({"window_id": lone_window, "to_index": 0}));
    assert!(text.contains("index"), "{text}");
    // Within the session, to the old index: the undo of the index part.
    let reply = client.call_ok("move_window", json!({"window_id": lone_window, "to_index": 7}));
    assert_eq!(
        (reply["previousIndex"].as_u64(), reply["index"].as_u64()),
        (Some(5), Some(7))
    );
    assert_eq!(reply["closed"], json!([]));
}

#[test]
fn move_window_refuses_to_close_the_session_holding_the_caller_pane() {
    let tmux = TmuxServer::start();
    let main_session = tmux.pane_value(&tmux.first_pane(), "#{session_id}");
    let (own, own_window, caller) = session(&tmux, "own");
    let mut client = tmux.paneward_in(&caller);
    let text = client.call_err(
        "move_window",
        json!({"window_id": own_window, "to_session_id": main_session}),
    );
    assert!(
        text.contains("refused") && text.contains(&caller) && text.contains("close its session"),
        "{text}"
    );
    assert_eq!(tmux.pane_value(&caller, "#{session_id}"), own);
    // Moving it within its own session closes nothing and is allowed.
    let reply = client.call_ok("move_window", json!({"window_id": own_window, "to_index": 3}));
    assert_eq!(reply["closed"], json!([]));
    // With a second window in the session, the caller's window may leave it.
    tmux.tmux(&["new-window", "-d", "-t", &own, "exec sleep 100000"]);
    let reply = client.call_ok(
        "move_window",
        json!({"window_id": own_window, "to_session_id": main_session}),
    );
    assert_eq!(reply["sessionId"], main_session.as_str());
    assert_eq!(reply["closed"], json!([]));
}

#[test]
fn move_pane_joins_and_breaks_out_reporting_the_old_window_and_what_closed() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let target = tmux.pane_value(&first, "#{window_id}");
    let main_session = tmux.pane_value(&first, "#{session_id}");
    let (lone, lone_window, lone_pane) = session(&tmux, "lone");
    let layout = tmux.pane_value(&lone_pane, "#{window_layout}");
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "move_pane",
        json!({"pane_id": lone_pane, "to_window_id": target, "side": "right", "size_percent": 25}),
    );
    assert_eq!(
        reply,
        json!({"paneId": lone_pane, "windowId": target, "previousWindowId": lone_window,
               "previousLayout": layout, "closed": [lone_window, lone]})
    );
    assert_eq!(
        tmux.pane_value(&lone_pane, "#{window_id}:#{pane_at_right}"),
        format!("{target}:1")
    );
    // The joined pane did not take the focus.
    assert_eq!(tmux.pane_value(&first, "#{pane_active}"), "1");
    let reply = client.call_ok("move_pane", json!({"pane_id": lone_pane}));
    let new_window = reply["windowId"].as_str().unwrap().to_string();
    assert_ne!(new_window, target);
    assert_eq!(reply["previousWindowId"], target.as_str());
    assert_eq!(reply["closed"], json!([]));
    assert_eq!(
        tmux.pane_value(&lone_pane, "#{session_id}:#{window_panes}"),
        format!("{main_session}:1")
    );
    // Breaking out a pane that is already alone changes nothing.
    let text = client.call_err("move_pane", json!({"pane_id": lone_pane}));
    assert!(text.contains("already the only pane"), "{text}");
    let text = client.call_err("move_pane", json!({"pane_id": lone_pane, "side": "left"}));
    assert!(text.contains("/to_window_id"), "{text}");
}

#[test]
fn move_pane_refuses_to_close_the_callers_window_but_moves_the_caller_pane_from_a_shared_one() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let target = tmux.pane_value(&first, "#{window_id}");
    let (_, caller_window, caller) = session(&tmux, "own");
    let mut client = tmux.paneward_in(&caller);
    let text = client.call_err("move_pane", json!({"pane_id": caller, "to_window_id": target}));
    assert!(
        text.contains("refused") && text.contains(&caller) && text.contains("close its window"),
        "{text}"
    );
    assert_eq!(tmux.pane_value(&caller, "#{window_id}"), caller_window);
    // Another pane beside it: the caller pane may leave, its window stays.
    tmux.split(&caller, "-v", "exec sleep 100000");
    let reply = client.call_ok("move_pane", json!({"pane_id": caller, "to_window_id": target}));
    assert_eq!(reply["closed"], json!([]));
    assert_eq!(tmux.pane_value(&caller, "#{window_id}"), target);
    let text = client.call_err("move_pane", json!({"pane_id": "%999999", "to_window_id": target}));
    assert!(text.contains("%999999"), "{text}");
}
