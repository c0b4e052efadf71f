//! The contract with several targets (derived from the default one and locked by a
//! snapshot), one target being exactly today's surface, and the fleet behind a gateway:
//! stateless 2026-07-28 requests over HTTP and a short deployment name.

use std::process::Command;

use serde_json::{json, Value};

use super::Fleet;
use crate::mcp::current::{body, current, current_headers, message_of};
use crate::support::http::HttpServer;
use crate::support::{Client, TmuxServer};

fn tools_json(args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_paneward"))
        .args(["tools", "--json", "--safety", "destructive"])
        .args(args)
        .env_remove("PANEWARD_SAFETY")
        .output()
        .expect("run paneward tools");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("tools --json prints JSON")
}

#[test]
fn the_multi_target_tools_list_is_locked_by_a_snapshot() {
    let fleet = tools_json(&["--target", "a=-L:one", "--target", "b=ssh://me@host/-L:two"]);
    insta::with_settings!({snapshot_path => "../../../snapshots", prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_json_snapshot!("tools_list_fleet_destructive", fleet);
    });
    // The same tools as one server serves, each with the fleet's schemas.
    let names = |list: &Value| -> Vec<Value> {
        list["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].clone())
            .collect()
    };
    assert_eq!(names(&fleet), names(&tools_json(&[])));
}

#[test]
fn one_target_is_todays_surface_byte_for_byte() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_showing("printf 'same\\n'; exec cat", "same");
    // A fixed name: tmux's automatic rename would change it between the two readings.
    tmux.tmux(&["rename-window", "-t", &pane, "fixed"]);
    tmux.tmux(&["rename-window", "-t", "main:0", "first"]);
    let target = format!("x=-L:{}", tmux.name);
    assert_eq!(
        tools_json(&["--target", &target]),
        tools_json(&["-L", &tmux.name]),
        "tools --json"
    );
    let mut replies = Vec::new();
    for args in [vec!["--target", target.as_str()], vec!["-L", tmux.name.as_str()]] {
        let mut client = Client::spawn(&args, &[]);
        client.initialize();
        client.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {}}));
        let (listed, _) = client.response_line(&json!(7));
        client.send(&json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "list_panes", "arguments": {}}}));
        let (panes, _) = client.response_line(&json!(8));
        replies.push((listed, panes));
        client.close();
    }
    assert_eq!(replies[0].0, replies[1].0, "tools/list differs");
    assert_eq!(replies[0].1, replies[1].1, "a list_panes reply differs");
}

#[test]
fn over_http_a_stateless_request_reaches_the_fleet_and_server_info_names_the_deployment() {
    let fleet = Fleet::start(false);
    let args = fleet.args();
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend(["--deployment", "lab"]);
    let server = HttpServer::start(&all, &[]);
    let discover = body(json!(1), "server/discover", current(json!({})));
    let reply = server.exchange(
        "POST",
        "/mcp",
        &current_headers(&server, "server/discover", None),
        &discover,
    );
    let discovered = message_of(&reply);
    assert_eq!(
        discovered["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "lab",
        "{discovered}"
    );
    let call = body(
        json!(2),
        "tools/call",
        current(json!({"name": "list_panes", "arguments": {}})),
    );
    let reply = server.exchange(
        "POST",
        "/mcp",
        &current_headers(&server, "tools/call", Some("list_panes")),
        &call,
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    let called = message_of(&reply);
    let ids: Vec<&str> = called["result"]["structuredContent"]["panes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pane| pane["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"a/%0") && ids.contains(&"b/%0"), "{called}");
    server.stop();
}
