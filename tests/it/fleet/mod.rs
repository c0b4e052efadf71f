//! Several tmux servers behind one paneward (`--target`): two local servers, and one
//! over ssh to a loopback sshd where one is installed (always in CI). Ids name their
//! target, fan-out reads cover every target and report a dead one, input reaches only
//! the target named, and one target is exactly today's surface.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

mod surface;

use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::support::sshd::Sshd;
use crate::support::{clean_env, strings, Client, Scratch, TmuxServer};

/// The fleet's targets and the servers behind them (kept alive while the test runs).
struct Fleet {
    a: TmuxServer,
    b: TmuxServer,
    /// The third, over ssh: (its server, the sshd, the target's name `far`).
    far: Option<(TmuxServer, Sshd)>,
}

impl Fleet {
    fn start(with_ssh: bool) -> Self {
        let far = if with_ssh {
            Sshd::start().map(|sshd| (TmuxServer::start(), sshd))
        } else {
            None
        };
        Self {
            a: TmuxServer::start(),
            b: TmuxServer::start(),
            far,
        }
    }

    /// The command-line arguments naming every target.
    fn args(&self) -> Vec<String> {
        let mut args = vec![
            "--target".to_string(),
            format!("a=-L:{}", self.a.name),
            "--target".to_string(),
            format!("b=-L:{}", self.b.name),
        ];
        if let Some((server, sshd)) = &self.far {
            args.extend([
                "--target".to_string(),
                format!("far={}/-L:{}", sshd.destination(), server.name),
                "--ssh-config".to_string(),
                sshd.client_config(),
            ]);
        }
        args
    }

    fn names(&self) -> Vec<&'static str> {
        if self.far.is_some() {
            vec!["a", "b", "far"]
        } else {
            vec!["a", "b"]
        }
    }

    fn paneward(&self, extra: &[&str]) -> Client {
        let args = self.args();
        let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
        all.extend_from_slice(&["--safety", "destructive"]);
        all.extend_from_slice(extra);
        let mut client = Client::spawn(&all, &[]);
        client.initialize();
        client
    }
}

/// Calls `tool`, requires success, checks the reply against the schema the fleet
/// advertises for it (`tools`: its tools/list), and returns the structured content.
#[track_caller]
fn fleet_ok(client: &mut Client, tools: &Value, tool: &str, arguments: Value) -> Value {
    let result = client.call(tool, arguments);
    assert_ne!(result["isError"], json!(true), "{tool} failed: {result}");
    let structured = result["structuredContent"].clone();
    let listed = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == tool)
        .unwrap();
    let validator = jsonschema::validator_for(&listed["outputSchema"]).unwrap();
    let problems: Vec<String> = validator.iter_errors(&structured).map(|e| e.to_string()).collect();
    assert!(problems.is_empty(), "{tool}: {problems:?}\n{structured}");
    structured
}

fn pane_ids(reply: &Value) -> Vec<String> {
    reply["panes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pane| pane["id"].as_str().or(pane["paneId"].as_str()).unwrap().to_string())
        .collect()
}

#[test]
fn lists_and_searches_cover_every_target_with_ids_that_name_it() {
    let fleet = Fleet::start(true);
    let mut servers = vec![("a", &fleet.a), ("b", &fleet.b)];
    if let Some((server, _)) = &fleet.far {
        servers.push(("far", server));
    }
    let mut shown = Vec::new();
    for (name, server) in &servers {
        let pane = server.window_showing(&format!("printf 'fleet-marker {name}\\n'; exec cat"), "fleet-marker");
        shown.push(format!("{name}/{pane}"));
    }
    let mut client = fleet.paneward(&[]);
    let tools = client.list_tools();
    let panes = fleet_ok(&mut client, &tools, "list_panes", json!({}));
    let ids = pane_ids(&panes);
    for id in &shown {
        assert!(ids.contains(id), "{id} missing from {ids:?}");
    }
    // Rows follow the targets' order, and every row names its target.
    let order: Vec<&str> = ids.iter().map(|id| id.split_once('/').unwrap().0).collect();
    let mut sorted = order.clone();
    sorted.sort_by_key(|name| fleet.names().iter().position(|n| n == name));
    assert_eq!(order, sorted, "{ids:?}");
    assert_eq!(panes["total"], json!(ids.len()));
    assert!(panes.get("unreachable").is_none(), "{panes}");

    let found = fleet_ok(&mut client, &tools, "search_panes", json!({"pattern": "fleet-marker"}));
    let found = pane_ids(&found);
    for id in &shown {
        assert!(found.contains(id), "{id} not found by search_panes: {found:?}");
    }
    let sessions = fleet_ok(&mut client, &tools, "list_sessions", json!({}));
    let session_ids: Vec<&str> = sessions["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    for name in fleet.names() {
        assert!(session_ids.contains(&format!("{name}/$0").as_str()), "{session_ids:?}");
    }
    // A one-target read of the ssh target reaches that server.
    if fleet.far.is_some() {
        let far = shown.last().unwrap();
        let snapshot = fleet_ok(&mut client, &tools, "snapshot_pane", json!({"pane_id": far}));
        assert!(
            strings(&snapshot["lines"]).iter().any(|l| l == "fleet-marker far"),
            "{snapshot}"
        );
    }
    // A filter only one target meets: the others have no rows, and are not unreachable.
    fleet.a.tmux(&["rename-session", "-t", "main", "only-on-a"]);
    let windows = fleet_ok(&mut client, &tools, "list_windows", json!({"session": "only-on-a"}));
    assert!(windows.get("unreachable").is_none(), "{windows}");
    let window_ids: Vec<&str> = windows["windows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap())
        .collect();
    assert!(
        !window_ids.is_empty() && window_ids.iter().all(|id| id.starts_with("a/")),
        "{windows}"
    );
    client.close();
}

#[test]
fn an_id_without_its_target_or_of_an_unknown_target_or_two_targets_is_refused() {
    let fleet = Fleet::start(false);
    let pane = fleet.a.first_pane();
    let mut client = fleet.paneward(&[]);
    let bare = client.call_err("capture_pane", json!({"pane_id": pane}));
    assert!(
        bare.contains("/pane_id") && bare.contains(&format!("NAME/{pane}")),
        "{bare}"
    );
    assert!(bare.contains("a, b"), "{bare}");
    let unknown = client.call_err("capture_pane", json!({"pane_id": format!("zz/{pane}")}));
    assert!(
        unknown.contains("no target `zz`") && unknown.contains("a, b"),
        "{unknown}"
    );
    let two = client.call_err(
        "swap_pane",
        json!({"pane_id": format!("a/{pane}"), "with_pane_id": format!("b/{pane}")}),
    );
    assert!(two.contains("one call acts on one target"), "{two}");
    let disagree = client.call_err("select_pane", json!({"pane_id": format!("a/{pane}"), "target": "b"}));
    assert!(disagree.contains("one call acts on one target"), "{disagree}");
    // A tool above the tier is refused as on one server, before its arguments are read.
    let mut readonly = fleet.paneward(&["--safety", "readonly"]);
    let above = readonly.call_err("send_keys", json!({"pane_id": pane, "keys": "x"}));
    assert!(above.contains("mutating"), "{above}");
    readonly.close();
    // A change that takes no id names its target, or is refused.
    let none = client.call_err("create_session", json!({"name": "nowhere"}));
    assert!(none.contains("target"), "{none}");
    assert!(!fleet.a.try_tmux(&["has-session", "-t", "=nowhere"]));
    assert!(!fleet.b.try_tmux(&["has-session", "-t", "=nowhere"]));
    let tools = client.list_tools();
    let made = fleet_ok(
        &mut client,
        &tools,
        "create_session",
        json!({"name": "made-on-b", "target": "b"}),
    );
    assert!(made["sessionId"].as_str().unwrap().starts_with("b/$"), "{made}");
    assert!(fleet.b.try_tmux(&["has-session", "-t", "=made-on-b"]));
    assert!(!fleet.a.try_tmux(&["has-session", "-t", "=made-on-b"]));
    client.close();
}

#[test]
fn keys_sent_to_one_target_reach_only_that_target() {
    let fleet = Fleet::start(false);
    let on_a = fleet.a.window_showing("printf 'ready a\\n'; exec cat", "ready a");
    let on_b = fleet.b.window_showing("printf 'ready b\\n'; exec cat", "ready b");
    // Both servers' panes carry the same id: only the target tells them apart.
    assert_eq!(on_a, on_b);
    let mut client = fleet.paneward(&[]);
    let tools = client.list_tools();
    let sent = fleet_ok(
        &mut client,
        &tools,
        "send_keys",
        json!({"pane_id": format!("b/{on_b}"), "keys": "only-for-b", "literal": true, "enter": true}),
    );
    assert_eq!(sent["paneId"], format!("b/{on_b}"), "{sent}");
    fleet.b.wait_for_text(&on_b, "only-for-b");
    assert!(
        !fleet.a.capture(&on_a).contains("only-for-b"),
        "{}",
        fleet.a.capture(&on_a)
    );
    client.close();
}

#[test]
fn a_target_whose_server_died_is_unreachable_while_the_others_answer() {
    let fleet = Fleet::start(false);
    let mut client = fleet.paneward(&[]);
    let tools = client.list_tools();
    fleet.b.tmux(&["kill-server"]);
    let panes = fleet_ok(&mut client, &tools, "list_panes", json!({}));
    let ids = pane_ids(&panes);
    assert!(!ids.is_empty() && ids.iter().all(|id| id.starts_with("a/")), "{ids:?}");
    let unreachable = panes["unreachable"].as_array().unwrap();
    assert_eq!(unreachable.len(), 1, "{panes}");
    assert_eq!(unreachable[0]["target"], "b");
    assert!(!unreachable[0]["reason"].as_str().unwrap().is_empty());
    // A call that names the dead target fails alone; the other target still serves.
    client.call_err("get_server_info", json!({"target": "b"}));
    let info = fleet_ok(&mut client, &tools, "get_server_info", json!({"target": "a"}));
    assert!(info["pid"].as_i64().is_some(), "{info}");
    client.close();
}

#[test]
fn the_audit_log_names_the_target_of_each_change() {
    let fleet = Fleet::start(false);
    let scratch = Scratch::new();
    let log = scratch.path("audit.log");
    let pane = fleet.b.window_showing("printf 'ready\\n'; exec cat", "ready");
    let mut client = fleet.paneward(&["--audit-log", &log]);
    let tools = client.list_tools();
    fleet_ok(
        &mut client,
        &tools,
        "send_keys",
        json!({"pane_id": format!("b/{pane}"), "keys": "x", "literal": true}),
    );
    client.close();
    let line: Value = serde_json::from_str(scratch.read("audit.log").lines().next().unwrap()).unwrap();
    assert_eq!(line["target"], "b", "{line}");
    assert_eq!(line["tool"], "send_keys", "{line}");
}

#[test]
fn doctor_reports_every_target_and_why_one_is_down() {
    let fleet = Fleet::start(false);
    fleet.b.tmux(&["kill-server"]);
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    let output = command
        .arg("doctor")
        .args(fleet.args())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    let line_of = |name: &str| {
        text.lines()
            .find(|line| line.starts_with("target") && line.contains(&format!(" {name}: ")))
            .unwrap_or_else(|| panic!("no line for target {name}:\n{text}"))
            .to_string()
    };
    assert!(line_of("a").contains("reachable"), "{text}");
    assert!(line_of("a").contains(&fleet.a.name), "{text}");
    assert!(line_of("b").contains("unreachable"), "{text}");
}

#[test]
fn beyond_the_connection_cap_the_least_recently_used_target_is_disconnected_and_reconnects() {
    // Only control connections persist between calls; without them there is nothing to cap.
    if crate::support::forced_transport_name().is_some() {
        return;
    }
    let fleet = Fleet::start(false);
    let scratch = Scratch::new();
    let log = std::fs::File::create(scratch.path("stderr.log")).unwrap();
    let args = fleet.args();
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend(["--max-connected-targets", "1"]);
    let mut client = Client::spawn_with_stderr(&all, &[("PANEWARD_LOG", "info")], Stdio::from(log));
    client.initialize();
    let tools = client.list_tools();
    let disconnected = |name: &str| {
        let line = format!("target={name}");
        crate::support::wait_for(&format!("{name} disconnected"), || {
            let said = scratch.read("stderr.log");
            said.lines()
                .any(|l| l.contains("disconnected: more than --max-connected-targets") && l.contains(&line))
                .then_some(())
        });
    };
    fleet_ok(&mut client, &tools, "get_server_info", json!({"target": "a"}));
    fleet_ok(&mut client, &tools, "get_server_info", json!({"target": "b"}));
    // a is the least recently used: let go for b.
    disconnected("a");
    // a connects again; now b is the least recently used.
    let info = fleet_ok(&mut client, &tools, "get_server_info", json!({"target": "a"}));
    assert!(info["pid"].as_i64().is_some(), "{info}");
    disconnected("b");
    client.close();
}

#[test]
fn a_batch_s_rows_each_find_their_own_target() {
    let fleet = Fleet::start(false);
    let on_a = fleet.a.window_showing("printf 'row on a\\n'; exec cat", "row on a");
    let on_b = fleet.b.window_showing("printf 'row on b\\n'; exec cat", "row on b");
    let mut client = fleet.paneward(&[]);
    let tools = client.list_tools();
    let batch = fleet_ok(
        &mut client,
        &tools,
        "call_read_tools_batch",
        json!({"operations": [
            {"tool": "list_panes"},
            {"tool": "capture_pane", "arguments": {"pane_id": format!("a/{on_a}")}},
            {"tool": "capture_pane", "arguments": {"pane_id": format!("b/{on_b}")}},
            {"tool": "get_window_info", "arguments": {"window_id": "b/@0"}}
        ]}),
    );
    let results = batch["results"].as_array().unwrap();
    assert!(results.iter().all(|row| row["success"] == json!(true)), "{batch}");
    let listed = pane_ids(&results[0]["result"]);
    assert!(
        listed.contains(&format!("a/{on_a}")) && listed.contains(&format!("b/{on_b}")),
        "{listed:?}"
    );
    let text = |row: &Value| strings(&row["result"]["lines"]).join("\n");
    assert!(text(&results[1]).contains("row on a") && !text(&results[1]).contains("row on b"));
    assert!(text(&results[2]).contains("row on b") && !text(&results[2]).contains("row on a"));
    assert_eq!(results[3]["result"]["window"]["id"], "b/@0", "{batch}");
    // A row with a bare id is refused before any row runs, naming the row's field.
    let refused = client.call_err(
        "call_read_tools_batch",
        json!({"operations": [{"tool": "capture_pane", "arguments": {"pane_id": on_a}}]}),
    );
    assert!(refused.contains("pane_id") && refused.contains("NAME/"), "{refused}");
    client.close();
}

#[test]
fn scope_owned_holds_on_each_target_by_that_target_s_own_marks() {
    let fleet = Fleet::start(false);
    let theirs = fleet.b.window_showing("printf 'theirs\\n'; exec cat", "theirs");
    let mut client = fleet.paneward(&["--scope", "owned"]);
    let tools = client.list_tools();
    let refused = client.call_err(
        "send_keys",
        json!({"pane_id": format!("b/{theirs}"), "keys": "x", "literal": true}),
    );
    assert!(refused.contains("--scope owned"), "{refused}");
    let made = fleet_ok(
        &mut client,
        &tools,
        "create_session",
        json!({"name": "ours", "target": "a"}),
    );
    let ours = made["paneId"].as_str().unwrap().to_string();
    assert!(ours.starts_with("a/"), "{made}");
    fleet_ok(
        &mut client,
        &tools,
        "send_keys",
        json!({"pane_id": ours, "keys": "echo typed-into-ours", "literal": true, "enter": true}),
    );
    let (_, id) = ours.split_once('/').unwrap();
    fleet.a.wait_for_text(id, "typed-into-ours");
    // The same pane id on b is not paneward's there: its mark lives in a's tmux only.
    assert_eq!(id, theirs, "both servers' second pane");
    let refused = client.call_err(
        "send_keys",
        json!({"pane_id": format!("b/{id}"), "keys": "x", "literal": true}),
    );
    assert!(refused.contains("--scope owned"), "{refused}");
    client.close();
}

/// The attention list as read now.
fn attention(client: &mut Client) -> Value {
    let read = client.request("resources/read", json!({"uri": "tmux://attention"}));
    let text = read["result"]["contents"][0]["text"].as_str();
    serde_json::from_str(text.unwrap_or_else(|| panic!("{read}"))).unwrap()
}

#[test]
fn the_attention_list_covers_every_target_and_says_which_one_is_down() {
    let fleet = Fleet::start(false);
    let asking = fleet.b.bash_pane();
    let mut client = fleet.paneward(&[]);
    fleet
        .b
        .tmux(&["send-keys", "-t", &asking, "read -rs -p 'Password: ' x", "Enter"]);
    let written = format!("b/{asking}");
    let list = crate::support::wait_for("b's password prompt in the attention list", || {
        let list = attention(&mut client);
        let listed = list["panes"].as_array().unwrap().iter().any(|entry| {
            entry["paneId"] == written.as_str() && entry["why"] == "input" && entry["readsAs"] == "password"
        });
        listed.then_some(list)
    });
    let ids: Vec<&str> = list["panes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["paneId"].as_str().unwrap())
        .collect();
    assert!(
        ids.iter().all(|id| id.starts_with("a/") || id.starts_with("b/")),
        "{list}"
    );
    assert!(list.get("unreachable").is_none(), "{list}");
    // One target gone: it is named, and the other's entries stand.
    fleet.a.tmux(&["kill-server"]);
    let list = attention(&mut client);
    assert_eq!(list["unreachable"][0]["target"], "a", "{list}");
    assert!(
        list["panes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|entry| entry["paneId"] == written.as_str()),
        "{list}"
    );
    client.close();
}
