//! The filters of `list_sessions`, `list_windows` and `list_panes`, against real tmux
//! servers: each narrows, the reply counts what it left out, and caller text (names,
//! commands, paths) is compared after parsing, never read as tmux format syntax.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{Scratch, TmuxServer};
use serde_json::{json, Value};

/// The `id`s of a list, in order.
fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_str().unwrap().to_string())
        .collect()
}

/// Opens a window in `folder` running `exec sleep 100000`; returns its pane once
/// sleep is its foreground command.
fn sleeper_in(tmux: &TmuxServer, folder: &str) -> String {
    let pane = tmux
        .tmux(&[
            "new-window",
            "-d",
            "-P",
            "-F",
            "#{pane_id}",
            "-t",
            "main:",
            "-c",
            folder,
            "exec sleep 100000",
        ])
        .trim()
        .to_string();
    tmux.wait_for_value(&pane, "#{pane_current_command}", "sleep");
    pane
}

#[test]
fn list_panes_narrows_by_command_folder_dead_and_active_and_counts_what_it_left_out() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let app = scratch.path("app");
    let web = scratch.path("app/web");
    let application = scratch.path("application");
    for folder in [&app, &web, &application] {
        std::fs::create_dir_all(folder).unwrap();
    }
    let shell = tmux.first_pane();
    let in_app = sleeper_in(&tmux, &app);
    let in_web = sleeper_in(&tmux, &web);
    let in_application = sleeper_in(&tmux, &application);
    let dead = tmux.dead_pane(3);
    let mut client = tmux.paneward();

    let reply = client.call_ok("list_panes", json!({"current_command": "sleep"}));
    assert_eq!(
        ids(&reply["panes"]),
        [in_app.clone(), in_web.clone(), in_application.clone()]
    );
    assert_eq!(
        (reply["total"].clone(), reply["filteredOut"].clone()),
        (json!(5), json!(2))
    );
    assert_eq!(reply.get("truncated"), None, "brief: only when true");

    // Whole path components: `app` holds app and app/web, not `application`.
    let reply = client.call_ok("list_panes", json!({"path_under": app}));
    assert_eq!(ids(&reply["panes"]), [in_app.as_str(), in_web.as_str()]);
    assert_eq!(reply["filteredOut"], 3);

    let reply = client.call_ok("list_panes", json!({"dead": true}));
    assert_eq!(ids(&reply["panes"]), [dead.as_str()]);
    let reply = client.call_ok(
        "list_panes",
        json!({"dead": false, "current_command": "sleep", "path_under": web}),
    );
    assert_eq!(ids(&reply["panes"]), [in_web.as_str()]);

    // Every window here has one pane, its active one; a split adds an inactive one.
    let split = tmux.split(&shell, "-h", "exec sleep 100000");
    let reply = client.call_ok("list_panes", json!({"active": false}));
    assert_eq!(ids(&reply["panes"]), [split.as_str()]);
    assert_eq!(
        (reply["total"].clone(), reply["filteredOut"].clone()),
        (json!(6), json!(5))
    );
    let reply = client.call_ok("list_panes", json!({"session": "main", "active": true}));
    assert_eq!(reply["panes"].as_array().unwrap().len(), 5);

    // No filter: everything, nothing left out (a zero count is in full replies only).
    let reply = client.call_ok("list_panes", json!({}));
    assert_eq!((reply["total"].clone(), reply.get("filteredOut")), (json!(6), None));
    let reply = client.call_ok("list_panes", json!({"detail": "full"}));
    assert_eq!(
        (reply["filteredOut"].clone(), reply["truncated"].clone()),
        (json!(0), json!(false))
    );

    let text = client.call_err("list_panes", json!({"path_under": "relative/dir"}));
    assert!(text.contains("/path_under") && text.contains("absolute"), "{text}");
}

/// Names tmux accepts that mean something in a format, a target or a shell (no `:` or
/// `.`: tmux stores those as `_` in a session name).
const HOSTILE: [&str; 8] = [
    "#{session_name}",
    "#{?1,yes,no}",
    "a,b}c",
    "*",
    "=main",
    "x #(true) y",
    "it's \"q\" ;",
    "ünï 中 😀",
];

#[test]
fn hostile_names_filter_sessions_windows_and_commands_literally() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    // Made through paneward, which hands tmux the names as literal text (tmux would
    // expand them as formats: docs/tmux-quirks.md).
    for name in HOSTILE {
        let made = client.call_ok("create_session", json!({"name": name, "window_name": name}));
        assert_eq!(made["name"], name);
    }
    let sessions = HOSTILE.len() + 1;
    for name in HOSTILE {
        let reply = client.call_ok("list_sessions", json!({"name": name}));
        let names: Vec<&Value> = reply["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["name"])
            .collect();
        assert_eq!(names, [name], "session {name:?}");
        assert_eq!(reply["filteredOut"], sessions - 1, "session {name:?}");

        let reply = client.call_ok("list_windows", json!({"name": name, "detail": "full"}));
        let windows = reply["windows"].as_array().unwrap();
        assert_eq!(windows.len(), 1, "window {name:?}: {reply}");
        assert_eq!(
            (windows[0]["name"].clone(), windows[0]["session"].clone()),
            (json!(name), json!(name))
        );

        // The scope (session) and a filter (name) together.
        let reply = client.call_ok("list_windows", json!({"session": name, "name": name}));
        assert_eq!(reply["windows"].as_array().unwrap().len(), 1, "{name:?}");
        assert_eq!(reply.get("filteredOut"), None, "none left out");
        let reply = client.call_ok("list_panes", json!({"session": name}));
        assert_eq!(reply["panes"].as_array().unwrap().len(), 1, "panes of {name:?}");
    }
    // A command filter holding format syntax matches no program's name.
    for command in ["#{pane_current_command}", "#{?1,sh,sh}", "*", "s*"] {
        let reply = client.call_ok("list_panes", json!({"current_command": command}));
        assert_eq!(reply["panes"], json!([]), "{command:?}");
        assert_eq!(reply["filteredOut"], reply["total"]);
    }
    // A filter that passes nothing is an empty list, not an error.
    let reply = client.call_ok("list_windows", json!({"session": "main", "name": "no such window"}));
    assert_eq!(
        (reply["windows"].clone(), reply["filteredOut"].clone()),
        (json!([]), json!(1))
    );
}

#[test]
fn list_sessions_narrows_by_attached_clients_and_folder() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let work = scratch.path("work");
    std::fs::create_dir_all(&work).unwrap();
    tmux.tmux(&["new-session", "-d", "-s", "work", "-c", &work, "/bin/sh"]);
    let mut client = tmux.paneward();
    let reply = client.call_ok("list_sessions", json!({"path_under": work}));
    let names: Vec<&Value> = reply["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["name"])
        .collect();
    assert_eq!(names, ["work"]);
    assert_eq!(
        (reply["total"].clone(), reply["filteredOut"].clone()),
        (json!(2), json!(1))
    );
    // No terminal client is attached (paneward's control client does not count).
    let reply = client.call_ok("list_sessions", json!({"attached": true}));
    assert_eq!(
        (reply["sessions"].clone(), reply["filteredOut"].clone()),
        (json!([]), json!(2))
    );
    let reply = client.call_ok("list_sessions", json!({"attached": false}));
    assert_eq!(reply["sessions"].as_array().unwrap().len(), 2);
}
