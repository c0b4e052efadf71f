//! Ownership against a real tmux: the inspect tools report paneward's marks (each at
//! its own level, never inherited), and `--scope owned` keeps every tool above readonly
//! to marked panes, windows and sessions, refusing by name with nothing changed.
//! The marks are set here with tmux itself, as paneward's create tools set them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::{Client, Scratch, TmuxServer};

fn mark(tmux: &TmuxServer, level: &str, target: &str) {
    let option = match level {
        "-p" => "@paneward_owned_pane",
        "-w" => "@paneward_owned_window",
        _ => "@paneward_owned_session",
    };
    let mut args = vec!["set-option"];
    if level != "-s" {
        args.push(level);
    }
    args.extend(["-t", target, option, "1"]);
    tmux.tmux(&args);
}

fn owned_scope(tmux: &TmuxServer, safety: &str) -> Client {
    let mut client = tmux.paneward_with(&["--safety", safety], &[("PANEWARD_SCOPE", "owned")]);
    client.initialize();
    client
}

#[test]
fn the_inspect_tools_report_each_mark_at_its_own_level() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("sleep 600");
    let window = tmux.pane_value(&pane, "#{window_id}");
    let sibling = tmux.split(&pane, "-h", "sleep 600");
    mark(&tmux, "-w", &window);
    mark(&tmux, "-p", &pane);
    let mut client = tmux.paneward();
    let panes = client.call_ok("list_panes", json!({"detail": "full"}));
    for listed in panes["panes"].as_array().unwrap() {
        let id = listed["id"].as_str().unwrap();
        assert_eq!(
            listed["owned"],
            json!(id == pane),
            "pane {id}: a window's mark is not its panes'"
        );
    }
    assert_eq!(
        client.call_ok("get_pane_info", json!({"pane_id": pane}))["pane"]["owned"],
        json!(true)
    );
    assert_eq!(
        client.call_ok("get_pane_info", json!({"pane_id": sibling}))["pane"]["owned"],
        json!(false)
    );
    let windows = client.call_ok("list_windows", json!({"detail": "full"}));
    for listed in windows["windows"].as_array().unwrap() {
        assert_eq!(listed["owned"], json!(listed["id"] == json!(window)), "{listed}");
    }
    let sessions = client.call_ok("list_sessions", json!({"detail": "full"}));
    assert_eq!(sessions["sessions"][0]["owned"], json!(false));
    mark(&tmux, "-s", "main");
    let sessions = client.call_ok("list_sessions", json!({}));
    assert_eq!(sessions["sessions"][0]["owned"], json!(true));
}

#[test]
fn scope_owned_refuses_input_to_a_pane_paneward_did_not_create_and_allows_its_own() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let theirs = tmux.recorder(&scratch.path("theirs"));
    let ours = tmux.recorder(&scratch.path("ours"));
    mark(&tmux, "-p", &ours);
    let mut client = owned_scope(&tmux, "mutating");
    let (kind, text) = client.call_failed("send_keys", json!({"pane_id": theirs, "keys": "nope"}));
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(
        text.contains(&format!("pane {theirs}")) && text.contains("--scope owned"),
        "{text}"
    );
    // A batch row is checked the same way: one unowned pane among owned ones refuses all.
    let (kind, text) = client.call_failed(
        "send_keys_batch",
        json!({"operations": [{"paneId": ours, "keys": "a"}, {"paneId": theirs, "keys": "b"}]}),
    );
    assert_eq!(kind, "notAllowed", "{text}");
    client.call_ok("send_keys", json!({"pane_id": ours, "keys": "mine", "literal": true}));
    assert_eq!(scratch.wait_for_lines("ours", 1), "mine\n");
    assert_eq!(scratch.read("theirs"), "", "nothing reached the unowned pane");
    // Server-wide changes name no object: refused.
    let (kind, text) = client.call_failed("set_option", json!({"name": "@x", "scope": "global", "value": "1"}));
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(text.contains("whole tmux server"), "{text}");
    // Reads are never limited.
    client.call_ok("get_pane_info", json!({"pane_id": theirs}));
}

#[test]
fn scope_owned_refuses_killing_what_paneward_did_not_create() {
    let tmux = TmuxServer::start();
    let theirs = tmux.window_running("sleep 600");
    let ours = tmux.window_running("sleep 600");
    mark(&tmux, "-p", &ours);
    let mut client = owned_scope(&tmux, "destructive");
    let (kind, text) = client.call_failed("kill_pane", json!({"pane_id": theirs}));
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(
        text.contains(&format!("pane {theirs}")) && text.contains("--scope owned"),
        "{text}"
    );
    assert!(tmux.try_tmux(&["display-message", "-p", "-t", &theirs, "x"]));
    // A window is its own object: a marked pane does not make its window paneward's.
    let window = tmux.pane_value(&ours, "#{window_id}");
    let (kind, text) = client.call_failed("kill_window", json!({"window_id": window}));
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(text.contains(&format!("window {window}")), "{text}");
    let (kind, text) = client.call_failed("kill_server", json!({"confirm": true}));
    assert_eq!(kind, "notAllowed", "{text}");
    // Killing a window's last pane closes the window: it must be paneward's too.
    let (kind, text) = client.call_failed("kill_pane", json!({"pane_id": ours}));
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(text.contains(&format!("close window {window}")), "{text}");
    mark(&tmux, "-w", &window);
    let killed = client.call_ok("kill_pane", json!({"pane_id": ours}));
    assert_eq!(killed["killed"], json!(ours));
    // The doctor says which scope runs.
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_paneward"));
    crate::support::clean_env(&mut command);
    let output = command
        .args(["-L", &tmux.name, "--scope", "owned", "doctor"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("scope") && text.contains("owned"), "{text}");
}

/// The number of panes tmux lists for `target` (a window, or with `-s` a session).
fn pane_count(tmux: &TmuxServer, args: &[&str]) -> usize {
    let mut all = vec!["list-panes", "-F", "#{pane_id}"];
    all.extend(args);
    tmux.tmux(&all).lines().count()
}

#[test]
fn no_call_sets_a_mark_and_a_mark_one_level_up_makes_nothing_below_it_owned() {
    let tmux = TmuxServer::start();
    let ours = tmux.window_running("sleep 600");
    let window = tmux.pane_value(&ours, "#{window_id}");
    let theirs = tmux.split(&ours, "-h", "sleep 600");
    let their_window = tmux.pane_value(&tmux.window_running("sleep 600"), "#{window_id}");
    mark(&tmux, "-w", &window);
    mark(&tmux, "-p", &ours);
    let mut client = owned_scope(&tmux, "mutating");
    for (scope, target, name) in [
        ("window", window.as_str(), "@paneward_owned_pane"),
        ("pane", ours.as_str(), "@paneward_owned_window"),
        ("window", window.as_str(), "@paneward_anything"),
    ] {
        let (kind, text) = client.call_failed(
            "set_option",
            json!({"name": name, "scope": scope, "target": target, "value": "1"}),
        );
        assert_eq!(kind, "invalidArguments", "{text}");
        assert!(text.contains(name) && text.contains("nothing changed"), "{text}");
    }
    let shown = tmux.tmux(&["show-options", "-w", "-t", &window]);
    assert!(!shown.contains("@paneward_owned_pane"), "{shown}");
    // A mark set one level up by hand (as a forger would) is read at its own level only:
    // the person's pane in the owned window, and their window, stay theirs.
    tmux.tmux(&["set-option", "-w", "-t", &window, "@paneward_owned_pane", "1"]);
    tmux.tmux(&["set-option", "-t", "main", "@paneward_owned_pane", "1"]);
    tmux.tmux(&["set-option", "-t", "main", "@paneward_owned_window", "1"]);
    let (kind, text) = client.call_failed("send_keys", json!({"pane_id": theirs, "keys": "nope"}));
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(text.contains(&format!("pane {theirs}")), "{text}");
    let (kind, text) = client.call_failed("rename_window", json!({"window_id": their_window, "name": "x"}));
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(text.contains(&format!("window {their_window}")), "{text}");
    client.call_ok("send_keys", json!({"pane_id": ours, "keys": "ok", "literal": true}));
}

#[test]
fn scope_owned_refuses_input_that_synchronize_panes_would_carry_to_a_pane_outside_it() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let ours = tmux.recorder(&scratch.path("ours"));
    let window = tmux.pane_value(&ours, "#{window_id}");
    let theirs = tmux.split(
        &ours,
        "-h",
        &format!(
            "while IFS= read -r line; do printf '%s\\n' \"$line\" >> {}; done",
            scratch.path("theirs")
        ),
    );
    mark(&tmux, "-w", &window);
    mark(&tmux, "-p", &ours);
    tmux.tmux(&["set-option", "-w", "-t", &window, "synchronize-panes", "on"]);
    let mut client = owned_scope(&tmux, "mutating");
    let (kind, text) = client.call_failed(
        "send_keys",
        json!({"pane_id": ours, "keys": "nope", "literal": true, "enter": true}),
    );
    assert_eq!(kind, "notAllowed", "{text}");
    assert!(
        text.contains(&format!("pane {theirs}"))
            && text.contains("synchronize-panes")
            && text.contains("--scope owned"),
        "{text}"
    );
    // Without synchronize-panes (tmux's own send-keys is synchronized too), input that
    // had reached the person's pane would be read before this line.
    tmux.tmux(&["set-option", "-w", "-t", &window, "synchronize-panes", "off"]);
    tmux.tmux(&["send-keys", "-t", &theirs, "-l", "after"]);
    tmux.tmux(&["send-keys", "-t", &theirs, "Enter"]);
    assert_eq!(scratch.wait_for_lines("theirs", 1), "after\n");
    client.call_ok(
        "send_keys",
        json!({"pane_id": ours, "keys": "mine", "literal": true, "enter": true}),
    );
    assert_eq!(scratch.wait_for_lines("ours", 1), "mine\n");
}

#[test]
fn scope_owned_refuses_ending_or_arranging_what_would_reach_the_persons_objects() {
    let tmux = TmuxServer::start();
    // An owned window holding a person's pane.
    let ours = tmux.window_running("sleep 600");
    let window = tmux.pane_value(&ours, "#{window_id}");
    let theirs = tmux.split(&ours, "-h", "sleep 600");
    mark(&tmux, "-w", &window);
    mark(&tmux, "-p", &ours);
    // An owned session holding a person's window.
    let session = tmux
        .tmux(&[
            "new-session",
            "-d",
            "-s",
            "ours",
            "-P",
            "-F",
            "#{session_id}",
            "sleep 600",
        ])
        .trim()
        .to_string();
    let session_pane = tmux.pane_value(&session, "#{pane_id}");
    mark(&tmux, "-s", &session);
    mark(&tmux, "-w", &tmux.pane_value(&session, "#{window_id}"));
    mark(&tmux, "-p", &session_pane);
    let their_window = tmux
        .tmux(&[
            "new-window",
            "-d",
            "-P",
            "-F",
            "#{window_id}",
            "-t",
            "ours:",
            "sleep 600",
        ])
        .trim()
        .to_string();
    // A person's window whose only pane is owned, and a person's window with an owned pane.
    let lone = tmux.window_running("sleep 600");
    let lone_window = tmux.pane_value(&lone, "#{window_id}");
    mark(&tmux, "-p", &lone);
    let guest = tmux.split(&tmux.first_pane(), "-h", "sleep 600");
    mark(&tmux, "-p", &guest);
    let mut client = owned_scope(&tmux, "destructive");

    let refused = |client: &mut Client, tool: &str, arguments: Value, object: &str| {
        let (kind, text) = client.call_failed(tool, arguments);
        assert_eq!(kind, "notAllowed", "{tool}: {text}");
        assert!(
            text.contains(object) && text.contains("--scope owned"),
            "{tool}: {text}"
        );
    };
    refused(
        &mut client,
        "kill_window",
        json!({"window_id": window}),
        &format!("pane {theirs}"),
    );
    assert_eq!(pane_count(&tmux, &["-t", &window]), 2);
    refused(
        &mut client,
        "kill_session",
        json!({"session_id": session}),
        &format!("window {their_window}"),
    );
    assert_eq!(pane_count(&tmux, &["-s", "-t", &session]), 2);
    refused(
        &mut client,
        "move_pane",
        json!({"pane_id": lone, "to_window_id": window}),
        &format!("window {lone_window}"),
    );
    assert_eq!(pane_count(&tmux, &["-t", &lone_window]), 1);
    refused(
        &mut client,
        "kill_pane",
        json!({"pane_id": lone}),
        &format!("window {lone_window}"),
    );
    let main_window = tmux.pane_value(&guest, "#{window_id}");
    refused(
        &mut client,
        "split_window",
        json!({"pane_id": guest}),
        &format!("window {main_window}"),
    );
    assert_eq!(pane_count(&tmux, &["-t", &main_window]), 2);
    refused(
        &mut client,
        "resize_pane",
        json!({"pane_id": guest, "zoom": true}),
        &format!("window {main_window}"),
    );
    assert_eq!(tmux.pane_value(&guest, "#{window_zoomed_flag}"), "0");
    // What holds only paneward's objects is still paneward's to arrange and end.
    let made = client.call_ok("split_window", json!({"pane_id": session_pane}));
    let made = made["paneId"].as_str().unwrap_or_default().to_string();
    client.call_ok("kill_pane", json!({"pane_id": made}));
    let spare = tmux.window_running("sleep 600");
    let spare_window = tmux.pane_value(&spare, "#{window_id}");
    mark(&tmux, "-w", &spare_window);
    mark(&tmux, "-p", &spare);
    client.call_ok("kill_window", json!({"window_id": spare_window}));
    let windows = tmux.tmux(&["list-windows", "-a", "-F", "#{window_id}"]);
    assert!(!windows.lines().any(|w| w == spare_window), "{windows}");
}
