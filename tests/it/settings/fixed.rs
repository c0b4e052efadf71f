//! The libtmux family's settings tools (`set_history_limit`, `set_mouse_enabled`,
//! `set_synchronize_panes`) against a real tmux: what tmux stores at which level, the
//! value returned for undo, what the setting then does, the tiers and `--scope owned`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::TmuxServer;
use serde_json::json;

/// The value `option` holds at a level itself ("" when it inherits).
fn own(tmux: &TmuxServer, flags: &[&str], option: &str) -> String {
    let mut args = vec!["show-options", "-qv"];
    args.extend_from_slice(flags);
    args.push(option);
    tmux.tmux(&args).trim().to_string()
}

#[test]
fn set_history_limit_sets_the_session_or_global_limit_and_only_later_panes_take_it() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let session = tmux.pane_value(&pane, "#{session_id}");
    let before = tmux.pane_value(&pane, "#{history_limit}");
    let mut client = tmux.paneward_with(&["--safety", "destructive"], &[]);
    client.initialize();
    let reply = client.call_ok("set_history_limit", json!({"session_id": session, "limit": 4321}));
    assert_eq!(
        reply,
        json!({"name": "history-limit", "sessionId": session, "value": 4321, "previous": null, "appliesTo": "new-panes"})
    );
    assert_eq!(own(&tmux, &["-t", &session], "history-limit"), "4321");
    // tmux sizes a pane's scrollback when it creates it: the existing pane keeps its own.
    assert_eq!(tmux.pane_value(&pane, "#{history_limit}"), before);
    let later = tmux.split(&pane, "-v", "exec cat");
    assert_eq!(tmux.pane_value(&later, "#{history_limit}"), "4321");

    let again = client.call_ok("set_history_limit", json!({"session_id": session, "limit": 100}));
    assert_eq!(again["previous"], json!(4321), "{again}");
    let global_before: i64 = own(&tmux, &["-g"], "history-limit").parse().unwrap();
    let global = client.call_ok("set_history_limit", json!({"limit": 777}));
    assert_eq!(
        (global["sessionId"].clone(), global["previous"].clone()),
        (json!(null), json!(global_before))
    );
    assert_eq!(own(&tmux, &["-g"], "history-limit"), "777");
}

#[test]
fn set_history_limit_is_destructive_bounded_and_names_what_it_refuses() {
    let tmux = TmuxServer::start();
    let session = tmux.pane_value(&tmux.first_pane(), "#{session_id}");
    let global_before = own(&tmux, &["-g"], "history-limit");
    // The default tier does not list it, as the family keeps it in its teardown toolset.
    let mut client = tmux.paneward();
    let text = client.call_err("set_history_limit", json!({"limit": 10}));
    assert!(text.contains("destructive"), "{text}");
    let mut client = tmux.paneward_with(&["--safety", "destructive"], &[]);
    client.initialize();
    let text = client.call_err("set_history_limit", json!({"limit": 100_001}));
    assert!(text.contains("/limit"), "{text}");
    let text = client.call_err("set_history_limit", json!({"session_id": "$99", "limit": 10}));
    assert!(text.contains("$99"), "{text}");
    assert_eq!(own(&tmux, &["-g"], "history-limit"), global_before, "nothing changed");
    assert_eq!(own(&tmux, &["-t", &session], "history-limit"), "");
}

#[test]
fn set_mouse_enabled_sets_the_session_or_global_flag_and_returns_the_one_before() {
    let tmux = TmuxServer::start();
    let session = tmux.pane_value(&tmux.first_pane(), "#{session_id}");
    let mut client = tmux.paneward();
    let reply = client.call_ok("set_mouse_enabled", json!({"session_id": session, "enabled": true}));
    assert_eq!(
        reply,
        json!({"name": "mouse", "sessionId": session, "value": true, "previous": null})
    );
    assert_eq!(own(&tmux, &["-t", &session], "mouse"), "on");
    let reply = client.call_ok("set_mouse_enabled", json!({"session_id": session, "enabled": false}));
    assert_eq!(reply["previous"], json!(true));
    assert_eq!(own(&tmux, &["-t", &session], "mouse"), "off");
    let reply = client.call_ok("set_mouse_enabled", json!({"enabled": true}));
    assert_eq!(
        (reply["sessionId"].clone(), reply["previous"].clone()),
        (json!(null), json!(false))
    );
    assert_eq!(own(&tmux, &["-g"], "mouse"), "on");
    let text = client.call_err("set_mouse_enabled", json!({"session_id": "main", "enabled": true}));
    assert!(text.contains("session_id"), "a name is not an id: {text}");
}

#[test]
fn set_synchronize_panes_makes_input_reach_every_pane_of_the_window_and_back() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let window = tmux.pane_value(&first, "#{window_id}");
    let second = tmux.split(&first, "-v", "exec cat");
    let mut client = tmux.paneward();
    let reply = client.call_ok("set_synchronize_panes", json!({"window_id": window, "enabled": true}));
    assert_eq!(
        reply,
        json!({"name": "synchronize-panes", "windowId": window, "value": true, "previous": null})
    );
    assert_eq!(own(&tmux, &["-w", "-t", &window], "synchronize-panes"), "on");
    let sent = client.call_ok(
        "send_keys",
        json!({"pane_id": second, "keys": "x", "literal": true, "enter": false}),
    );
    assert_eq!(sent["resolvedPaneIds"], json!([second, first]), "{sent}");
    let reply = client.call_ok("set_synchronize_panes", json!({"window_id": window, "enabled": false}));
    assert_eq!(reply["previous"], json!(true));
    let sent = client.call_ok(
        "send_keys",
        json!({"pane_id": second, "keys": "y", "literal": true, "enter": false}),
    );
    assert_eq!(sent["resolvedPaneIds"], json!([second]), "{sent}");
}

#[test]
fn under_scope_owned_the_settings_tools_touch_only_what_paneward_created() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let session = tmux.pane_value(&pane, "#{session_id}");
    let window = tmux.pane_value(&pane, "#{window_id}");
    let mut client = tmux.paneward_with(&["--scope", "owned", "--safety", "destructive"], &[]);
    client.initialize();
    for (tool, arguments) in [
        ("set_mouse_enabled", json!({"enabled": true})),
        ("set_mouse_enabled", json!({"session_id": session, "enabled": true})),
        ("set_history_limit", json!({"limit": 10})),
        ("set_synchronize_panes", json!({"window_id": window, "enabled": true})),
        ("clear_pane_scrollback", json!({"pane_id": pane})),
    ] {
        let text = client.call_err(tool, arguments.clone());
        assert!(text.contains("--scope owned"), "{tool} {arguments}: {text}");
    }
    assert_eq!(own(&tmux, &["-g"], "mouse"), "off");
    assert_eq!(own(&tmux, &["-w", "-t", &window], "synchronize-panes"), "");
    // What paneward created is its own to change.
    let created = client.call_ok("create_session", json!({"name": "ours"}));
    let ours = created["sessionId"].as_str().unwrap().to_string();
    client.call_ok("set_mouse_enabled", json!({"session_id": ours, "enabled": true}));
    assert_eq!(own(&tmux, &["-t", &ours], "mouse"), "on");
}
