//! The list tools' `detail`: brief rows by default (what an agent acts on, false flags
//! and zero counts left out), every field with `detail: "full"`, and what that costs a
//! model in bytes beside tmux-mcp 0.1.2 on the same tmux.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{Client, TmuxServer};
use serde_json::{json, Map, Value};

/// What a brief row of each list may hold, and what it always holds.
const BRIEF: [(&str, &str, &[&str], &[&str]); 4] = [
    (
        "list_panes",
        "panes",
        &["id", "windowId", "currentCommand", "currentPath"],
        &["active", "dead", "inMode", "isCaller", "owned"],
    ),
    (
        "list_windows",
        "windows",
        &["id", "index", "name", "sessionId", "paneCount"],
        &["active", "zoomed", "owned"],
    ),
    (
        "list_sessions",
        "sessions",
        &["id", "name", "windowCount"],
        &["attachedClients", "owned", "group"],
    ),
    ("search_panes", "panes", &["paneId", "matches"], &["truncatedLines"]),
];

/// Both replies of `tool`: brief (no `detail`) and full.
fn both(client: &mut Client, tool: &str, arguments: &Value) -> (Value, Value) {
    let brief = client.call_ok(tool, arguments.clone());
    let mut full_arguments = arguments.clone();
    full_arguments["detail"] = json!("full");
    (brief, client.call_ok(tool, full_arguments))
}

fn members(row: &Value) -> &Map<String, Value> {
    row.as_object().unwrap()
}

/// A window of two panes showing `marker-`, a dead pane and a second session: the
/// dead pane and the server.
fn server_with_a_bit_of_everything() -> (String, TmuxServer) {
    let tmux = TmuxServer::start();
    let shown = tmux.window_showing("echo marker-one", "marker-one");
    let split = tmux.split(&shown, "-h", "echo marker-two; exec sleep 100000");
    tmux.wait_for_text(&split, "marker-two");
    let dead = tmux.dead_pane(3);
    tmux.tmux(&["new-session", "-d", "-s", "other", "/bin/sh"]);
    (dead, tmux)
}

#[test]
fn each_list_is_brief_by_default_and_gives_every_field_in_full() {
    let (dead, tmux) = server_with_a_bit_of_everything();
    let mut client = tmux.paneward();
    for (tool, key, always, when_set) in BRIEF {
        let arguments = if tool == "search_panes" {
            json!({"pattern": "marker-"})
        } else {
            json!({})
        };
        let (brief, full) = both(&mut client, tool, &arguments);
        let (brief_rows, full_rows) = (brief[key].as_array().unwrap(), full[key].as_array().unwrap());
        assert!(brief_rows.len() >= 2, "{tool}: {brief}");
        assert_eq!(brief_rows.len(), full_rows.len(), "{tool}");
        let most = full_rows.iter().map(|row| members(row).len()).max().unwrap();
        for (brief_row, full_row) in brief_rows.iter().zip(full_rows) {
            for name in always {
                assert!(
                    brief_row.get(*name).is_some(),
                    "{tool}: brief rows hold {name}: {brief_row}"
                );
            }
            for (name, value) in members(brief_row) {
                assert!(
                    always.contains(&name.as_str()) || when_set.contains(&name.as_str()),
                    "{tool}: {name} is not in brief rows: {brief_row}"
                );
                assert!(
                    always.contains(&name.as_str()) || (value != &json!(false) && value != &json!(0)),
                    "{tool}: a false flag or zero count in a brief row: {brief_row}"
                );
                assert_eq!(
                    Some(value),
                    full_row.get(name),
                    "{tool}: brief and full agree on {name}"
                );
            }
            // A full row has every field the brief one left out (its flags false).
            for name in when_set {
                if brief_row.get(*name).is_none() && *name != "group" {
                    assert!(
                        matches!(full_row.get(*name), Some(v) if v == &json!(false) || v == &json!(0)),
                        "{tool}: full rows hold {name}: {full_row}"
                    );
                }
            }
            assert!(members(brief_row).len() < members(full_row).len(), "{tool}");
        }
        // Every row of a list has the same fields in full (a session's group aside).
        assert!(
            full_rows.iter().all(|row| members(row).len() + 1 >= most),
            "{tool}: {full}"
        );
        assert_eq!(
            full.get("truncated"),
            Some(&json!(false)),
            "{tool}: a full reply's counts"
        );
        assert_eq!(brief.get("truncated"), None, "{tool}: a brief reply's false flag");
    }
    // What the fixture set is in the brief rows: the dead pane, the active pane.
    let panes = client.call_ok("list_panes", json!({}));
    let row = |id: &str| {
        panes["panes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(row(&dead)["dead"], true, "{panes}");
    assert_eq!(row(&tmux.first_pane())["active"], true, "{panes}");
    let full = client.call_ok("list_panes", json!({"detail": "full"}));
    assert!(full["panes"][0]["geometry"]["width"].as_i64().unwrap() > 0, "{full}");
}

#[test]
fn a_bad_detail_is_refused_by_name_and_the_server_keeps_serving() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    for tool in ["list_panes", "list_windows", "list_sessions", "search_panes"] {
        for detail in [json!("everything"), json!(1), json!(null)] {
            let mut arguments = json!({"detail": detail});
            if tool == "search_panes" {
                arguments["pattern"] = json!("x");
            }
            let text = client.call_err(tool, arguments);
            assert!(text.contains("/detail"), "{tool} {detail}: {text}");
        }
    }
    client.call_ok("list_panes", json!({"detail": "brief"}));
}

/// Sixteen panes, four a window, each showing a line with `benchmark` (the bench's
/// fixture, smaller).
fn sixteen_panes() -> TmuxServer {
    let tmux = TmuxServer::start();
    let filler = "printf 'a pane of the benchmark\\n'; exec sleep 100000";
    let mut last = String::new();
    for index in 1..16 {
        last = if index % 4 == 0 {
            tmux.window_running(filler)
        } else {
            let window = format!("main:{}", index / 4);
            let pane = tmux.split(&window, "-h", filler);
            tmux.tmux(&["select-layout", "-t", &window, "tiled"]);
            pane
        };
    }
    tmux.wait_for_text(&last, "benchmark");
    tmux
}

/// The bytes of a reply's text blocks and of its structured content as compact JSON.
fn bytes(result: &Value) -> (usize, usize) {
    let text = result["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|block| block["text"].as_str())
        .map(str::len)
        .sum();
    (text, result["structuredContent"].to_string().len())
}

/// The bar: for the same facts on the same tmux, neither channel of a list or
/// search is larger than tmux-mcp's, and paneward's text is no larger than its JSON.
#[test]
fn brief_lists_take_no_more_bytes_than_tmux_mcp_in_either_channel() {
    let tmux = sixteen_panes();
    let mut ours = tmux.paneward();
    let mut theirs = Client::spawn_program(&crate::libtmux::tmux_mcp(), &["-L", tmux.name.as_str()], &[]);
    theirs.initialize();
    for (tool, arguments) in [
        ("list_sessions", json!({})),
        ("list_windows", json!({})),
        ("list_panes", json!({})),
        ("search_panes", json!({"pattern": "benchmark"})),
    ] {
        let mine = ours.call(tool, arguments.clone());
        let peer = theirs.call(tool, arguments);
        assert_ne!(mine["isError"], json!(true), "{tool}: {mine}");
        assert_ne!(peer["isError"], json!(true), "{tool}: {peer}");
        let ((text, structured), (peer_text, peer_structured)) = (bytes(&mine), bytes(&peer));
        assert!(
            structured <= peer_structured,
            "{tool}: {structured} bytes of JSON, tmux-mcp {peer_structured}\n{mine}\n{peer}"
        );
        assert!(text <= peer_text, "{tool}: {text} bytes of text, tmux-mcp {peer_text}");
        assert!(text <= structured, "{tool}: text {text}, JSON {structured}");
    }
}
