//! `history_limit` of `create_session`, `create_window` and `split_window` against a
//! real tmux 3.3a: the new pane keeps more lines than the default 2000 (proved by
//! printing more and reading the first back), the reply says the limit tmux reports,
//! and neither the server's global setting nor the session's own one changes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::TmuxServer;
use serde_json::{json, Value};

/// More lines than tmux's default `history-limit` (2000) keeps.
const PRINTED: u32 = 4_500;
/// What the tests ask for: room for all of them.
const ASKED: u32 = 6_000;

/// A shell line that prints 1..=PRINTED, says so, and then waits.
fn printer() -> String {
    format!("seq 1 {PRINTED}; echo printed-all; exec cat")
}

/// Waits for the printer in `pane` to finish, then returns the pane's whole history.
fn history_of(tmux: &TmuxServer, pane: &str) -> Vec<String> {
    tmux.wait_for_text(pane, "printed-all");
    tmux.tmux(&["capture-pane", "-p", "-S", "-", "-E", "-", "-t", pane])
        .lines()
        .map(str::to_string)
        .collect()
}

/// Whether the pane's history still holds the first line printed.
fn keeps_the_first_line(history: &[String]) -> bool {
    history.iter().any(|line| line == "1") && history.iter().any(|line| line == &PRINTED.to_string())
}

fn pane_of(reply: &Value) -> String {
    reply["paneId"].as_str().unwrap().to_string()
}

fn global_limit(tmux: &TmuxServer) -> String {
    tmux.tmux(&["show-options", "-gv", "history-limit"]).trim().to_string()
}

/// The session's own value ("" when it inherits).
fn session_limit(tmux: &TmuxServer, session: &str) -> String {
    tmux.tmux(&["show-options", "-qv", "-t", session, "history-limit"])
        .trim()
        .to_string()
}

#[test]
fn each_create_tool_gives_only_the_new_pane_the_scrollback_asked_for() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let global = global_limit(&tmux);
    assert_eq!(global, "2000", "the test assumes tmux's default");

    // Without history_limit: the default, and the start of the output is lost.
    let plain = client.call_ok("create_session", json!({"shell": printer()}));
    assert_eq!(plain["historyLimit"], json!(2000), "{plain}");
    assert!(!keeps_the_first_line(&history_of(&tmux, &pane_of(&plain))));

    let session = client.call_ok("create_session", json!({"shell": printer(), "history_limit": ASKED}));
    assert_eq!(session["historyLimit"], json!(ASKED), "{session}");
    let session_id = session["sessionId"].as_str().unwrap().to_string();
    assert!(keeps_the_first_line(&history_of(&tmux, &pane_of(&session))));
    assert_eq!(
        tmux.pane_value(&pane_of(&session), "#{history_limit}"),
        ASKED.to_string()
    );
    // One window, the real one: the placeholder is gone, and its session inherits again.
    assert_eq!(tmux.tmux(&["list-windows", "-t", &session_id]).lines().count(), 1);
    assert_eq!(session_limit(&tmux, &session_id), "");

    // A session with a value of its own keeps it.
    tmux.tmux(&["set-option", "-t", "main", "history-limit", "3000"]);
    let main = tmux
        .tmux(&["display-message", "-p", "-t", "main:", "#{session_id}"])
        .trim()
        .to_string();
    let window = client.call_ok(
        "create_window",
        json!({"session_id": main, "shell": printer(), "history_limit": ASKED}),
    );
    assert_eq!(window["historyLimit"], json!(ASKED), "{window}");
    assert!(keeps_the_first_line(&history_of(&tmux, &pane_of(&window))));
    assert_eq!(session_limit(&tmux, "main"), "3000");

    let split = client.call_ok(
        "split_window",
        json!({"pane_id": pane_of(&window), "shell": printer(), "history_limit": ASKED + 1}),
    );
    assert_eq!(split["historyLimit"], json!(ASKED + 1), "{split}");
    assert!(keeps_the_first_line(&history_of(&tmux, &pane_of(&split))));
    assert_eq!(session_limit(&tmux, "main"), "3000");

    // Panes made afterwards, and the server, have what they had.
    let after = client.call_ok("split_window", json!({"pane_id": pane_of(&window)}));
    assert_eq!(after["historyLimit"], json!(3000), "{after}");
    assert_eq!(global_limit(&tmux), global);
}

#[test]
fn a_limit_out_of_bounds_is_refused_by_name_and_nothing_is_created() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let before = tmux.tmux(&["list-panes", "-a"]);
    let error = client.call_err("create_session", json!({"history_limit": 100_001}));
    assert!(error.contains("history_limit"), "{error}");
    let error = client.call_err(
        "split_window",
        json!({"pane_id": tmux.first_pane(), "history_limit": -1}),
    );
    assert!(error.contains("history_limit"), "{error}");
    assert_eq!(tmux.tmux(&["list-panes", "-a"]), before);

    // A create that tmux refuses after the limit was set puts the session's value back.
    let main = tmux
        .tmux(&["display-message", "-p", "-t", "main:", "#{session_id}"])
        .trim()
        .to_string();
    let error = client.call_err(
        "create_window",
        json!({"session_id": main, "index": 0, "history_limit": ASKED}),
    );
    assert!(error.contains("index 0"), "{error}");
    assert_eq!(session_limit(&tmux, "main"), "", "the session inherits again");
    assert_eq!(tmux.tmux(&["list-panes", "-a"]), before);
}
