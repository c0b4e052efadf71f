//! The session → window → pane inspect tools and get_server_info, against real tmux
//! servers on private sockets, through the built binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::control::{control_clients, RawControl};
use crate::support::{wait_for, TmuxServer};
use serde_json::{json, Value};

/// Finds the element of `list` whose `id` is `id`.
fn by_id<'a>(list: &'a Value, id: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|item| item["id"] == id)
        .unwrap_or_else(|| panic!("{id} not in {list}"))
}

/// Attaches a `tmux -C` client to `main` (the kind of client paneward itself will
/// attach) and waits until tmux lists it; it is killed on drop, even if a test fails.
fn control_client(tmux: &TmuxServer) -> RawControl {
    let client = RawControl::attach(tmux, "main");
    wait_for("the control client to attach", || {
        (!control_clients(tmux).is_empty()).then_some(())
    });
    client
}

/// Attaches a real terminal client to `inner`'s session `main`, running in a pane of
/// `outer`, and waits until `inner` lists it.
fn terminal_client(outer: &TmuxServer, inner: &TmuxServer) {
    outer.window_running(&format!("env -u TMUX tmux -L {} attach -t main", inner.name));
    wait_for("the terminal client to attach", || {
        inner
            .tmux(&["list-clients", "-F", "#{client_control_mode}"])
            .contains('0')
            .then_some(())
    });
}

#[test]
fn list_panes_shows_a_split_pane_with_its_geometry() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let second = tmux.split(&first, "-h", "exec sleep 100000");
    let mut client = tmux.paneward();
    let reply = client.call_ok("list_panes", json!({"detail": "full"}));
    assert_eq!(reply["total"], 2);
    assert_eq!(reply["truncated"], false);
    let pane = by_id(&reply["panes"], &second);
    assert_eq!(
        pane["geometry"],
        json!({
            "left": tmux.pane_value(&second, "#{pane_left}").parse::<i64>().unwrap(),
            "top": 0,
            "width": tmux.pane_value(&second, "#{pane_width}").parse::<i64>().unwrap(),
            "height": 24,
        })
    );
    assert!(pane["geometry"]["left"].as_i64().unwrap() > 0, "split to the right");
    assert_eq!(pane["session"], "main");
    assert_eq!(pane["sessionId"], json!(tmux.pane_value(&second, "#{session_id}")));
    assert_eq!(pane["windowId"], json!(tmux.pane_value(&first, "#{window_id}")));
    assert_eq!(
        pane["pid"],
        json!(tmux.pane_value(&second, "#{pane_pid}").parse::<i64>().unwrap())
    );
    assert_eq!(pane["active"], false);
    assert_eq!(pane["dead"], false);
    assert_eq!(pane["isCaller"], false);
    wait_for("sleep to be the foreground command", || {
        (tmux.pane_value(&second, "#{pane_current_command}") == "sleep").then_some(())
    });
    let reply = client.call_ok("list_panes", json!({}));
    assert_eq!(by_id(&reply["panes"], &second)["currentCommand"], "sleep");
    assert_eq!(by_id(&reply["panes"], &first)["active"], true);
}

/// Both separators, and a forged terminator (a unit separator and 16 hex digits).
const HOSTILE: &str = "\u{1e}x\u{1f}y\u{1e}\n\u{1f}0123456789abcdef\u{1f}z";

#[test]
fn a_hostile_working_directory_or_window_name_comes_back_exactly_and_breaks_no_list() {
    let tmux = TmuxServer::start();
    let dir = std::env::temp_dir().join(format!("pw-evil-{HOSTILE}-{}", tmux.name));
    std::fs::create_dir_all(&dir).unwrap();
    // `new-window -n` keeps control characters raw (a rename would escape them).
    let window_name = format!("w{HOSTILE}");
    let pane = tmux
        .tmux(&[
            "new-window",
            "-d",
            "-P",
            "-F",
            "#{pane_id}",
            "-n",
            &window_name,
            "-c",
            dir.to_str().unwrap(),
            "exec sleep 100000",
        ])
        .trim()
        .to_string();
    tmux.split(&pane, "-h", "exec sleep 100000");
    let mut client = tmux.paneward();
    let reply = client.call_ok("list_panes", json!({"detail": "full"}));
    let listed = by_id(&reply["panes"], &pane).clone();
    let windows = client.call_ok("list_windows", json!({}));
    std::fs::remove_dir(&dir).unwrap();
    assert_eq!(reply["total"], 3, "{reply}");
    assert_eq!(listed["currentPath"], dir.to_str().unwrap());
    assert_eq!(listed["window"], window_name.as_str());
    assert_eq!(windows["total"], 2, "{windows}");
    let window = by_id(&windows["windows"], listed["windowId"].as_str().unwrap());
    assert_eq!(window["name"], window_name.as_str());
    assert_eq!(window["paneCount"], 2);
}

#[test]
fn list_sessions_counts_terminal_clients_but_never_control_mode_ones() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["new-session", "-d", "-s", "work", "-x", "100", "-y", "30", "/bin/sh"]);
    tmux.tmux(&["new-window", "-d", "-t", "work:", "/bin/sh"]);
    let control = control_client(&tmux);
    assert_eq!(tmux.pane_value("main", "#{session_attached}"), "1", "tmux counts it");
    let mut client = tmux.paneward();
    let reply = client.call_ok("list_sessions", json!({"detail": "full"}));
    assert_eq!(reply["total"], 2);
    let work = by_id(&reply["sessions"], &tmux.pane_value("work", "#{session_id}"));
    assert_eq!(work["name"], "work");
    assert_eq!(work["windowCount"], 2);
    assert_eq!(work.get("group"), None, "not grouped");
    let main = by_id(&reply["sessions"], &tmux.pane_value("main", "#{session_id}"));
    assert_eq!(main["attachedClients"], 0, "the control-mode client is not counted");

    let outer = TmuxServer::start();
    terminal_client(&outer, &tmux);
    let reply = client.call_ok("list_sessions", json!({}));
    let main = by_id(&reply["sessions"], &tmux.pane_value("main", "#{session_id}"));
    assert_eq!(main["attachedClients"], 1, "the terminal client is, in a brief row too");
    drop(control);
}

#[test]
fn list_windows_matches_the_session_name_exactly() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["new-session", "-d", "-s", "alphabet", "/bin/sh"]);
    tmux.tmux(&["new-session", "-d", "-s", "alpha", "/bin/sh"]);
    tmux.tmux(&["rename-window", "-t", "alpha:0", "editor"]);
    let mut client = tmux.paneward();
    let reply = client.call_ok("list_windows", json!({"session": "alpha", "detail": "full"}));
    assert_eq!(reply["session"], "alpha");
    assert_eq!(reply["total"], 1);
    let window = &reply["windows"][0];
    assert_eq!(window["name"], "editor");
    assert_eq!(window["session"], "alpha");
    assert_eq!(window["id"], json!(tmux.pane_value("alpha:0", "#{window_id}")));
    assert_eq!(window["activePaneId"], json!(tmux.pane_value("alpha:0", "#{pane_id}")));
    assert_eq!(window["paneCount"], 1);
    assert_eq!(window["active"], true);
    assert_eq!(window["zoomed"], false);
    assert_eq!(window["layout"], json!(tmux.pane_value("alpha:0", "#{window_layout}")));

    let all = client.call_ok("list_windows", json!({}));
    assert_eq!(all["total"], 3);
    assert_eq!(all.get("session"), None, "no session asked for");

    // tmux itself would take "alp" as a prefix of a session name.
    for name in ["alp", "alpha*", "=alpha"] {
        let text = client.call_err("list_windows", json!({"session": name}));
        assert!(
            text.contains("/session") && text.contains("no session is named"),
            "{text}"
        );
    }
}

#[test]
fn get_session_info_describes_the_session_its_windows_and_clients() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["new-window", "-d", "-t", "main:", "-n", "second", "/bin/sh"]);
    let outer = TmuxServer::start();
    terminal_client(&outer, &tmux);
    let mut client = tmux.paneward();
    let id = tmux.pane_value("main", "#{session_id}");
    let reply = client.call_ok("get_session_info", json!({"session_id": id}));
    assert_eq!(reply["session"]["id"], json!(id));
    assert_eq!(reply["session"]["name"], "main");
    assert_eq!(reply["session"]["windowCount"], 2);
    assert_eq!(reply["session"]["attachedClients"], 1);
    assert_eq!(
        reply["session"]["activeWindowId"],
        json!(tmux.pane_value("main", "#{window_id}"))
    );
    let names: Vec<&str> = reply["windows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2);
    assert_eq!(names[1], "second");
    assert_eq!(reply["clients"].as_array().unwrap().len(), 1);
    assert_eq!(reply["clients"][0]["session"], "main");
    assert_eq!(reply["clients"][0]["width"], 80);

    let text = client.call_err("get_session_info", json!({"session_id": "$999"}));
    assert!(text.contains("can't find session: $999"), "{text}");
    let text = client.call_err("get_session_info", json!({"session_id": "main"}));
    assert!(text.contains("/session_id") && text.contains("session id"), "{text}");
}

#[test]
fn get_window_info_names_a_renamed_window_and_lists_its_panes() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let below = tmux.split(&first, "-v", "/bin/sh");
    tmux.tmux(&["rename-window", "-t", &first, "logs"]);
    tmux.tmux(&["set-option", "-w", "-t", &first, "synchronize-panes", "on"]);
    let window = tmux.pane_value(&first, "#{window_id}");
    let mut client = tmux.paneward();
    let reply = client.call_ok("get_window_info", json!({"window_id": window}));
    assert_eq!(reply["window"]["id"], json!(window));
    assert_eq!(reply["window"]["name"], "logs");
    assert_eq!(reply["window"]["paneCount"], 2);
    assert_eq!(reply["window"]["activePaneId"], json!(first));
    assert_eq!(reply["synchronizePanes"], true);
    assert_eq!(reply["linkedSessions"], 1);
    let panes = reply["panes"].as_array().unwrap();
    assert_eq!(panes.len(), 2);
    assert!(panes
        .iter()
        .all(|p| p["window"] == "logs" && p["windowId"] == json!(window)));
    assert_eq!(panes[1]["id"], json!(below));
    let top = tmux.pane_value(&below, "#{pane_top}").parse::<i64>().unwrap();
    assert!(top > 0, "split below");
    assert_eq!(panes[1]["geometry"]["top"], top);

    let text = client.call_err("get_window_info", json!({"window_id": "@999"}));
    assert!(text.contains("can't find window: @999"), "{text}");
    let text = client.call_err("get_window_info", json!({"window_id": "%1"}));
    assert!(text.contains("/window_id") && text.contains("window id"), "{text}");
}

#[test]
fn get_pane_info_reports_detail_for_a_dead_pane_and_one_in_copy_mode() {
    let tmux = TmuxServer::start();
    let dead = tmux.dead_pane(7);
    let live = tmux.first_pane();
    tmux.tmux(&["select-pane", "-t", &live, "-T", "my title"]);
    tmux.tmux(&["copy-mode", "-t", &live]);
    let mut client = tmux.paneward();

    let reply = client.call_ok("get_pane_info", json!({"pane_id": dead}));
    assert_eq!(reply["pane"]["id"], json!(dead));
    assert_eq!(reply["pane"]["dead"], true);
    assert_eq!(reply["exitStatus"], 7);
    assert_eq!(reply["mode"], Value::Null);

    let reply = client.call_ok("get_pane_info", json!({"pane_id": live}));
    assert_eq!(reply["pane"]["dead"], false);
    assert_eq!(reply["exitStatus"], Value::Null);
    assert_eq!(reply["pane"]["inMode"], true);
    assert_eq!(reply["mode"], "copy-mode");
    assert_eq!(reply["title"], "my title");
    assert_eq!(reply["tty"], json!(tmux.pane_value(&live, "#{pane_tty}")));
    assert_eq!(
        reply["historyLimit"],
        json!(tmux.pane_value(&live, "#{history_limit}").parse::<i64>().unwrap())
    );
    assert_eq!(reply["windowZoomed"], false);

    let text = client.call_err("get_pane_info", json!({"pane_id": "%999"}));
    assert!(text.contains("can't find pane: %999"), "{text}");
}

#[test]
fn get_pane_info_counts_history_bytes_only_when_asked() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("seq 1 3000; exec sleep 100000");
    wait_for("the output to reach the scrollback", || {
        (tmux.pane_value(&pane, "#{history_size}").parse::<i64>().unwrap() > 1000).then_some(())
    });
    let mut client = tmux.paneward();
    let reply = client.call_ok("get_pane_info", json!({"pane_id": pane}));
    assert_eq!(reply["historyBytes"], Value::Null);
    let reply = client.call_ok("get_pane_info", json!({"pane_id": pane, "history_bytes": true}));
    let bytes = reply["historyBytes"].as_i64().unwrap();
    assert_eq!(
        bytes,
        tmux.pane_value(&pane, "#{history_bytes}").parse::<i64>().unwrap()
    );
    assert!(bytes > 0, "{reply}");
}

#[test]
fn find_pane_by_position_picks_each_corner_of_a_split_window() {
    let tmux = TmuxServer::start();
    let left = tmux.first_pane();
    let right_top = tmux.split(&left, "-h", "/bin/sh");
    let right_bottom = tmux.split(&right_top, "-v", "/bin/sh");
    let window = tmux.pane_value(&left, "#{window_id}");
    let single = tmux.window_running("exec sleep 100000");
    let single_window = tmux.pane_value(&single, "#{window_id}");
    let mut client = tmux.paneward();
    for (position, expected) in [
        ("top-left", &left),
        ("bottom-left", &left),
        ("top-right", &right_top),
        ("bottom-right", &right_bottom),
    ] {
        let reply = client.call_ok(
            "find_pane_by_position",
            json!({"window_id": window, "position": position}),
        );
        assert_eq!(reply["position"], position);
        assert_eq!(reply["pane"]["id"], json!(expected), "{position}");
        // tmux's own edge flags agree.
        let at = |flag: &str| tmux.pane_value(expected, flag) == "1";
        let (top, side) = position.split_once('-').unwrap();
        assert!(
            at(&format!("#{{pane_at_{top}}}")) && at(&format!("#{{pane_at_{side}}}")),
            "{position}"
        );
    }
    for position in ["top-left", "top-right", "bottom-left", "bottom-right"] {
        let reply = client.call_ok(
            "find_pane_by_position",
            json!({"window_id": single_window, "position": position}),
        );
        assert_eq!(reply["pane"]["id"], json!(single), "a lone pane is at every corner");
    }

    tmux.tmux(&["resize-pane", "-Z", "-t", &right_bottom]);
    let reply = client.call_ok(
        "find_pane_by_position",
        json!({"window_id": window, "position": "top-left"}),
    );
    assert_eq!(reply["windowZoomed"], true);
    assert_eq!(
        reply["pane"]["id"],
        json!(right_bottom),
        "the zoomed pane fills the window"
    );

    let text = client.call_err(
        "find_pane_by_position",
        json!({"window_id": "@999", "position": "top-left"}),
    );
    assert!(text.contains("can't find window: @999"), "{text}");
    let text = client.call_err(
        "find_pane_by_position",
        json!({"window_id": window, "position": "middle"}),
    );
    assert!(text.contains("/position"), "{text}");
}

#[test]
fn get_server_info_counts_the_tree_and_describes_the_server() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["new-session", "-d", "-s", "work", "/bin/sh"]);
    tmux.tmux(&["split-window", "-d", "-t", "work:0", "/bin/sh"]);
    tmux.tmux(&["new-window", "-d", "-t", "main:", "/bin/sh"]);
    // A window linked into a second session counts once.
    tmux.tmux(&["link-window", "-d", "-s", "main:1", "-t", "work:5"]);
    let control = control_client(&tmux);
    let mut client = tmux.paneward();
    let reply = client.call_ok("get_server_info", json!({}));
    assert_eq!(reply["sessionCount"], 2);
    assert_eq!(reply["windowCount"], 3);
    assert_eq!(reply["paneCount"], 4);
    assert_eq!(
        reply["attachedClients"], 0,
        "a control-mode client is not an attached client"
    );
    assert_eq!(reply["clients"], json!([]));
    assert_eq!(reply["socketPath"], json!(tmux.pane_value("main", "#{socket_path}")));
    assert_eq!(
        reply["pid"],
        json!(tmux.pane_value("main", "#{pid}").parse::<i64>().unwrap())
    );
    assert_eq!(reply["version"], json!(tmux.pane_value("main", "#{version}")));
    assert_eq!(reply["callerPaneId"], Value::Null);
    assert_eq!(reply["safety"], "mutating");
    assert_eq!(reply["environmentValuesRevealed"], false);
    assert_eq!(reply["panewardVersion"], env!("CARGO_PKG_VERSION"));
    drop(control);

    let mut readonly = tmux.paneward_with(&["--safety", "readonly", "--reveal-environment"], &[]);
    readonly.initialize();
    let reply = readonly.call_ok("get_server_info", json!({}));
    assert_eq!(reply["safety"], "readonly");
    assert_eq!(reply["environmentValuesRevealed"], true);
}

#[test]
fn the_pane_paneward_runs_in_is_reported_as_the_caller() {
    let tmux = TmuxServer::start();
    let caller = tmux.first_pane();
    let other = tmux.window_running("exec sleep 100000");
    let mut client = tmux.paneward_in(&caller);
    let reply = client.call_ok("get_server_info", json!({}));
    assert_eq!(reply["callerPaneId"], json!(caller));
    let panes = client.call_ok("list_panes", json!({}));
    assert_eq!(by_id(&panes["panes"], &caller)["isCaller"], true);
    assert_eq!(
        by_id(&panes["panes"], &other).get("isCaller"),
        None,
        "brief rows leave false out"
    );
    let info = client.call_ok("get_pane_info", json!({"pane_id": caller}));
    assert_eq!(info["pane"]["isCaller"], true);

    // TMUX naming another server: no caller here.
    let mut elsewhere = tmux.paneward_with(&[], &[("TMUX", "/tmp/elsewhere,1,0"), ("TMUX_PANE", caller.as_str())]);
    elsewhere.initialize();
    let reply = elsewhere.call_ok("get_server_info", json!({}));
    assert_eq!(reply["callerPaneId"], Value::Null);
}

#[test]
fn list_pane_activity_says_what_each_pane_is_doing_from_tmux_alone() {
    let tmux = TmuxServer::start();
    let scratch = crate::support::Scratch::new();
    let file = scratch.path("text");
    std::fs::write(&file, "one\n").unwrap();
    let shell = tmux.first_pane();
    tmux.wait_for_prompt(&shell);
    let sleeper = tmux.window_running("exec sleep 100000");
    tmux.wait_for_value(&sleeper, "#{pane_current_command}", "sleep");
    let pager = tmux.window_running(&format!("exec less {file}"));
    tmux.wait_for_value(&pager, "#{alternate_on}", "1");
    let dead = tmux.dead_pane(3);
    let mut client = tmux.paneward();
    let listed = client.call_ok("list_pane_activity", json!({}));
    assert_eq!(listed["total"], 4, "{listed}");
    for (pane, state, program) in [
        (&shell, "shell", "sh"),
        (&sleeper, "program", "sleep"),
        (&pager, "fullScreen", "less"),
    ] {
        let activity = by_id(&listed["panes"], pane);
        assert_eq!(activity["state"], state, "{pane}: {activity}");
        assert_eq!(activity["program"], program, "{pane}: {activity}");
        assert!(activity["windowQuietSeconds"].as_i64().unwrap() >= 0, "{activity}");
    }
    assert_eq!(by_id(&listed["panes"], &dead)["state"], "dead");
}
