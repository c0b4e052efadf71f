//! `--profile python`: the workspace tools' relative selection, window placement and
//! history-less shells, built in paneward's own layer (`tools::workspace::relative`,
//! `create::Placement`; the history variables in `tools::python::spawn`) and checked
//! against what tmux itself does.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::json;

use super::{ok, refused, PROFILE};
use crate::support::{Client, TmuxServer};

fn python(tmux: &TmuxServer) -> Client {
    let mut client = tmux.paneward_with(&PROFILE, &[]);
    client.initialize();
    client
}

fn active_pane(tmux: &TmuxServer, window: &str) -> String {
    tmux.pane_value(window, "#{pane_id}")
}

#[test]
fn a_pane_direction_lands_where_tmux_own_select_pane_lands() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let window = tmux.pane_value(&first, "#{window_id}");
    for _ in 0..3 {
        tmux.split(&first, "-h", "sleep 600");
    }
    // A 2x2 grid: every step, wrapping ones included, has exactly one pane to land on,
    // so tmux's choice does not depend on which pane was active most recently.
    tmux.tmux(&["select-layout", "-t", &window, "tiled"]);
    let panes: Vec<String> = tmux
        .tmux(&["list-panes", "-t", &window, "-F", "#{pane_id}"])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(panes.len(), 4);
    let mut client = python(&tmux);
    for from in &panes {
        for (direction, flag) in [("up", "-U"), ("down", "-D"), ("left", "-L"), ("right", "-R")] {
            tmux.tmux(&["select-pane", "-t", from]);
            let reply = ok(
                &mut client,
                "select_pane",
                json!({"direction": direction, "window_id": window}),
            );
            let by_paneward = active_pane(&tmux, &window);
            assert_eq!(
                reply["pane_id"],
                json!(by_paneward),
                "the reply names the pane selected"
            );
            tmux.tmux(&["select-pane", "-t", from]);
            tmux.tmux(&["select-pane", "-t", from, flag]);
            assert_eq!(by_paneward, active_pane(&tmux, &window), "{direction} from {from}");
            assert_ne!(&by_paneward, from, "a grid always has a pane {direction} of {from}");
        }
    }
}

#[test]
fn last_next_and_previous_panes_and_windows_follow_tmux() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let window = tmux.pane_value(&first, "#{window_id}");
    let mut client = python(&tmux);
    // One pane: tmux has no last pane, and says so in its words.
    let (text, kind) = refused(
        &mut client,
        "select_pane",
        json!({"direction": "last", "session_name": "main"}),
    );
    assert_eq!(
        (text.as_str(), kind.as_str()),
        ("tmux error: select-pane: no last pane", "LibTmuxException")
    );
    let second = tmux.split(&first, "-v", "sleep 600");
    tmux.tmux(&["select-pane", "-t", &second]);
    tmux.tmux(&["select-pane", "-t", &first]);
    let reply = ok(
        &mut client,
        "select_pane",
        json!({"direction": "last", "window_id": window}),
    );
    assert_eq!(reply["pane_id"], json!(second));
    let reply = ok(
        &mut client,
        "select_pane",
        json!({"direction": "next", "window_id": window}),
    );
    assert_eq!(reply["pane_id"], json!(first), "next wraps past the last index");
    let reply = ok(
        &mut client,
        "select_pane",
        json!({"direction": "previous", "window_id": window}),
    );
    assert_eq!(reply["pane_id"], json!(second));

    // One window: no next, no last.
    let (text, _) = refused(
        &mut client,
        "select_window",
        json!({"direction": "next", "session_name": "main"}),
    );
    assert_eq!(text, "tmux error: next-window: no next window");
    let other = tmux
        .tmux(&[
            "new-window",
            "-d",
            "-t",
            "main",
            "-P",
            "-F",
            "#{window_id}",
            "sleep 600",
        ])
        .trim()
        .to_string();
    let reply = ok(
        &mut client,
        "select_window",
        json!({"direction": "next", "session_name": "main"}),
    );
    assert_eq!(reply["window_id"], json!(other));
    assert_eq!(tmux.pane_value("main", "#{window_id}"), other);
    let reply = ok(
        &mut client,
        "select_window",
        json!({"direction": "last", "session_name": "main"}),
    );
    assert_eq!(reply["window_id"], json!(window), "the previously current window");
    let (text, _) = refused(&mut client, "select_window", json!({}));
    assert_eq!(text, "Provide window_id, window_index, or direction.");
}

#[test]
fn a_window_made_before_or_after_the_current_one_takes_tmux_places_and_is_owned() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let current = tmux.pane_value(&first, "#{window_id}");
    tmux.tmux(&["new-window", "-d", "-t", "main:1", "sleep 600"]);
    let mut client = python(&tmux);
    let before = ok(
        &mut client,
        "create_window",
        json!({"session_name": "main", "window_name": "before", "direction": "before"}),
    );
    let after = ok(
        &mut client,
        "create_window",
        json!({"session_name": "main", "window_name": "after", "direction": "after"}),
    );
    let order: Vec<String> = tmux
        .tmux(&["list-windows", "-t", "main", "-F", "#{window_name}"])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(order[0], "before");
    assert_eq!(
        tmux.pane_value("main:1", "#{window_id}"),
        current,
        "the current window moved up"
    );
    assert_eq!(order[2], "after");
    assert_eq!(order.len(), 4);
    assert_eq!(
        tmux.pane_value("main", "#{window_id}"),
        current,
        "still the current window"
    );
    for made in [&before, &after] {
        let id = made["window_id"].as_str().unwrap();
        let mark = tmux.tmux(&["show-options", "-qv", "-w", "-t", id, "@paneward_owned_window"]);
        assert!(!mark.trim().is_empty(), "window {id} is marked as paneward's");
    }
}

#[test]
fn a_shell_started_without_saved_history_gets_the_history_controls() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux);
    let made = ok(
        &mut client,
        "create_window",
        json!({
            "session_name": "main",
            "suppress_persistent_history": true,
            "environment": {"HISTCONTROL": "ignoredups"},
        }),
    );
    let pane = made["active_pane_id"].as_str().unwrap().to_string();
    tmux.wait_for_prompt(&pane);
    tmux.tmux(&[
        "send-keys",
        "-t",
        &pane,
        "-l",
        "echo \"[${HISTFILE-unset}]$HISTCONTROL\"",
    ]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    tmux.wait_for_text(&pane, "\n[]ignoredups:ignorespace");

    // A caller's own HISTFILE would undo the request: refused by name, nothing made.
    let windows = tmux.tmux(&["list-windows", "-a", "-F", "#{window_id}"]);
    let (text, kind) = refused(
        &mut client,
        "create_window",
        json!({
            "session_name": "main",
            "suppress_persistent_history": true,
            "environment": {"HISTFILE": "/tmp/kept"},
        }),
    );
    assert_eq!(kind, "ExpectedToolError");
    assert_eq!(
        text,
        "environment variable HISTFILE conflicts with suppress_persistent_history=True; omit it or set it to an empty string"
    );
    assert_eq!(tmux.tmux(&["list-windows", "-a", "-F", "#{window_id}"]), windows);
}
