//! Toolsets and tool lists through the built binary: `--toolsets`, `--tools` and
//! `--exclude-tools` (and their variables) narrow what is served within the tier; a
//! tool not served is neither listed nor callable, alone or as a batch row; an unknown
//! name stops start-up; `tmux://capabilities` reports the surface.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::process::Command;

use crate::support::{clean_env, Client, TmuxServer};
use serde_json::{json, Value};

fn listed(client: &mut Client) -> Vec<String> {
    client.list_tools()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

fn started(tmux: &TmuxServer, args: &[&str], env: &[(&str, &str)]) -> Client {
    let mut client = tmux.paneward_with(args, env);
    client.initialize();
    client
}

/// The tool files' toolset of `name`, read from `schemas/tools`.
fn toolset_of(name: &str) -> String {
    let path = crate::support::root().join(format!("schemas/tools/{name}.json"));
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    file["toolset"].as_str().unwrap().to_string()
}

#[test]
fn toolsets_narrow_the_listing_within_the_tier_and_named_tools_join_them() {
    let tmux = TmuxServer::start();
    let mut inspect = started(&tmux, &["--safety", "destructive", "--toolsets", "inspect"], &[]);
    let names = listed(&mut inspect);
    assert!(names.contains(&"capture_pane".to_string()), "{names:?}");
    assert!(names.iter().all(|name| toolset_of(name) == "inspect"), "{names:?}");

    let mut narrowed = started(
        &tmux,
        &[
            "--toolsets",
            "inspect",
            "--tools",
            "send_keys",
            "--exclude-tools",
            "capture_pane,list_panes",
        ],
        &[],
    );
    let names = listed(&mut narrowed);
    assert!(names.contains(&"send_keys".to_string()), "{names:?}");
    assert!(!names.contains(&"capture_pane".to_string()) && !names.contains(&"list_panes".to_string()));
    assert!(
        !names.contains(&"kill_pane".to_string()),
        "the tier still holds: {names:?}"
    );

    // libtmux-mcp's variables, when neither flag nor PANEWARD_* is set; an empty toolset
    // list serves only the tools named.
    let mut exact = started(
        &tmux,
        &[],
        &[
            ("LIBTMUX_TOOLSETS", ""),
            ("LIBTMUX_TOOLS", "list_sessions,get_server_info"),
        ],
    );
    assert_eq!(listed(&mut exact), ["get_server_info", "list_sessions"]);
    let mut ours_first = started(
        &tmux,
        &[],
        &[
            ("PANEWARD_TOOLSETS", "teardown"),
            ("LIBTMUX_TOOLSETS", "inspect"),
            ("PANEWARD_SAFETY", "destructive"),
        ],
    );
    assert!(listed(&mut ours_first)
        .iter()
        .all(|name| toolset_of(name) == "teardown"));
}

#[test]
fn a_tool_not_served_answers_as_an_unknown_one_and_changes_nothing() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = started(&tmux, &["--exclude-tools", "set_option"], &[]);
    let refused = client.call_err(
        "set_option",
        json!({"name": "@hidden", "scope": "pane", "target": pane, "value": "set"}),
    );
    let unknown = client.call_err("no_such_tool", json!({}));
    assert_eq!(
        refused.replace("set_option", "NAME"),
        unknown.replace("no_such_tool", "NAME"),
        "not served reads as unknown"
    );
    assert_eq!(tmux.tmux(&["show-options", "-pqv", "-t", &pane, "@hidden"]), "");
}

#[test]
fn a_batch_row_of_a_tool_not_served_refuses_the_whole_batch() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = started(&tmux, &["--exclude-tools", "rename_window"], &[]);
    let window = tmux.tmux(&["display-message", "-p", "-t", &pane, "#{window_id}"]);
    let error = client.call_err(
        "call_mutating_tools_batch",
        json!({"operations": [
            {"tool": "set_option", "arguments": {"name": "@untouched", "scope": "pane", "target": pane, "value": "set"}},
            {"tool": "rename_window", "arguments": {"window_id": window.trim(), "name": "hidden"}},
        ]}),
    );
    assert!(error.contains("`rename_window` is not served here"), "{error}");
    assert!(error.contains("so this batch ran nothing"), "{error}");
    assert_eq!(tmux.tmux(&["show-options", "-pqv", "-t", &pane, "@untouched"]), "");
}

/// A start-up that must fail: arguments, environment, and what stderr must say.
type Refused<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);

#[test]
fn an_unknown_toolset_or_tool_stops_start_up_with_a_suggestion() {
    let cases: [Refused<'_>; 4] = [
        (
            &["--toolsets", "inspcet"],
            &[],
            "unknown toolset \"inspcet\" (did you mean inspect?)",
        ),
        (
            &[],
            &[("LIBTMUX_TOOLS", "capture_pain")],
            "LIBTMUX_TOOLS: unknown tool \"capture_pain\" (did you mean capture_pane?)",
        ),
        (&["--exclude-tools", "a,,b"], &[], "empty name"),
        (
            &["--tools", "kill_pane"],
            &[],
            "a destructive tool, above --safety mutating",
        ),
    ];
    for (args, env, expected) in cases {
        let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
        clean_env(&mut command);
        let output = command
            .args(["-L", "pw-unused-surface"])
            .args(args)
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert!(!output.status.success(), "{args:?} {env:?}");
        assert!(output.stdout.is_empty(), "{args:?} {env:?}: stdout must stay empty");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?} {env:?}: {stderr}");
    }
}

#[test]
fn the_capabilities_resource_reports_the_surface_served() {
    let tmux = TmuxServer::start();
    let mut client = started(
        &tmux,
        &[
            "--safety",
            "readonly",
            "--toolsets",
            "inspect",
            "--exclude-tools",
            "capture_pane",
        ],
        &[],
    );
    let listed_names = listed(&mut client);
    let response = client.request("resources/read", json!({"uri": "tmux://capabilities"}));
    let text = response["result"]["contents"][0]["text"].as_str().unwrap();
    let capabilities: Value = serde_json::from_str(text).unwrap();
    assert_eq!(capabilities["tier"], "readonly");
    assert_eq!(capabilities["toolsets"], json!(["inspect"]));
    let tools: Vec<&str> = capabilities["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, listed_names);
    assert!(capabilities["classes"]
        .as_array()
        .unwrap()
        .contains(&json!("content-read")));
    assert!(!capabilities["classes"]
        .as_array()
        .unwrap()
        .contains(&json!("tmux-destroy")));
    let connection = capabilities["connection"].as_str().unwrap();
    assert!(["control", "native", "per-call"].contains(&connection), "{connection}");
    let resources = client.request("resources/list", json!({}));
    assert!(resources.to_string().contains("tmux://capabilities"), "{resources}");
}

#[test]
fn the_whole_tools_list_stays_under_its_byte_budget() {
    let tmux = TmuxServer::start();
    // The default tier, what a session started with no --safety pays on every turn, and
    // the widest.
    for (args, budget) in [
        (&[][..], paneward::limits::TOOLS_LIST_MAX_BYTES),
        (
            &["--safety", "destructive"][..],
            paneward::limits::TOOLS_LIST_DESTRUCTIVE_MAX_BYTES,
        ),
    ] {
        let mut client = started(&tmux, args, &[]);
        let bytes = serde_json::to_vec(&client.list_tools()).unwrap().len();
        assert!(
            bytes <= budget,
            "tools/list {args:?} takes {bytes} bytes, above its budget ({budget})"
        );
    }
}

#[test]
fn the_discovery_tools_ask_to_be_loaded_on_every_turn_and_no_other_does() {
    let tmux = TmuxServer::start();
    let mut client = started(&tmux, &["--safety", "destructive"], &[]);
    let mut always: Vec<String> = client.list_tools()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|tool| tool["_meta"]["anthropic/alwaysLoad"] == json!(true))
        .map(|tool| tool["name"].as_str().unwrap().to_string())
        .collect();
    always.sort();
    assert_eq!(always, ["capture_pane", "get_server_info", "list_panes"]);
    // Narrowed away, a discovery tool is not listed, so nothing asks for it.
    let mut client = started(&tmux, &["--exclude-tools", "list_panes"], &[]);
    let names = listed(&mut client);
    assert!(!names.contains(&"list_panes".to_string()), "{names:?}");
}
