//! `--profile python`: libtmux-mcp's contract advertised exactly as the server lists
//! it, and `call_read_tools_batch` answered in its envelope.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::TmuxServer;

fn python_schema(member: &str) -> Value {
    let text =
        std::fs::read_to_string(crate::support::root().join("schemas/profiles/python/call_read_tools_batch.json"))
            .unwrap();
    serde_json::from_str::<Value>(&text).unwrap()[member].clone()
}

#[track_caller]
fn assert_valid_python_batch(value: &Value) {
    let validator = jsonschema::validator_for(&python_schema("outputSchema")).unwrap();
    let problems: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(problems.is_empty(), "{problems:?}\n{value}");
}

#[test]
fn the_python_profile_advertises_libtmux_mcp_exactly_as_the_server_lists_it() {
    let tmux = TmuxServer::start();
    let mut python = tmux.paneward_with(
        &[
            "--profile",
            "python",
            "--safety",
            "destructive",
            "--toolsets",
            "inspect,manage,execute,teardown",
        ],
        &[],
    );
    python.initialize();
    let list = python.list_tools();
    let captured: Value = serde_json::from_str(
        &std::fs::read_to_string(crate::support::root().join("schemas/upstream/libtmux-mcp-0.1.0a22.tools.json"))
            .unwrap(),
    )
    .unwrap();
    let by_name = |list: &Value| -> std::collections::BTreeMap<String, Value> {
        list["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| (tool["name"].as_str().unwrap().to_string(), tool.clone()))
            .collect()
    };
    let (ours, theirs) = (by_name(&list), by_name(&captured));
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>());
    assert_eq!(ours.len(), 54);
    for (name, tool) in &theirs {
        for member in ["inputSchema", "outputSchema", "annotations", "title", "description"] {
            assert_eq!(ours[name].get(member), tool.get(member), "{name}: {member}");
        }
    }
    insta::with_settings!({snapshot_path => "../../../snapshots", prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_json_snapshot!("tools_list_python_destructive", list);
    });
}

#[test]
fn the_python_batch_answers_in_the_python_envelope() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward_with(&["--profile", "python"], &[]);
    client.initialize();
    let result = client.call(
        "call_read_tools_batch",
        json!({"operations": [
            {"tool": "list_sessions"},
            {"tool": "capture_pane", "arguments": {"pane_id": pane}},
            {"tool": "get_pane_info", "arguments": {"pane_id": "%999999"}},
            {"tool": "list_panes"}
        ]}),
    );
    assert_ne!(result["isError"], json!(true), "{result}");
    // The profile mirrors libtmux-mcp, whose text (FastMCP's) is the JSON of the reply.
    crate::support::assert_text_of(&result, crate::support::TextStyle::Json);
    let reply = &result["structuredContent"];
    assert_valid_python_batch(reply);
    assert_eq!(
        (reply["succeeded"].clone(), reply["failed"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(reply["stopped_at"], 2, "on_error defaults to stop");
    assert_eq!(reply["response_truncated"], false);
    let rows = reply["results"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["tool"], "list_sessions");
    assert_eq!(rows[0]["index"], 0);
    assert!(rows[0]["elapsed_seconds"].is_number());
    // Each row is the profile's own tool's reply: libtmux-mcp's wrapped list.
    assert_eq!(rows[0]["structured_content"]["result"][0]["session_name"], "main");
    assert_eq!(rows[0]["meta"]["fastmcp"]["wrap_result"], true);
    let text = rows[0]["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(text).unwrap(),
        rows[0]["structured_content"]["result"]
    );
    assert_eq!(rows[1]["structured_content"]["result"], rows[1]["content"][0]["text"]);
    assert_eq!(rows[2]["success"], false);
    assert!(rows[2]["error"].as_str().unwrap().contains("%999999"), "{}", rows[2]);
    assert_eq!(rows[2]["meta"]["error_type"], "PaneNotFound");
    assert_eq!(rows[2]["structured_content"], Value::Null);

    // continue runs every row; a tool that changes tmux is refused as a row.
    let result = client.call(
        "call_read_tools_batch",
        json!({"on_error": "continue", "operations": [
            {"tool": "send_keys", "arguments": {"pane_id": pane, "keys": "x"}},
            {"tool": "call_read_tools_batch", "arguments": {"operations": []}},
            {"tool": "list_sessions"}
        ]}),
    );
    let reply = result["structuredContent"].clone();
    assert_valid_python_batch(&reply);
    assert_eq!(
        (reply["succeeded"].clone(), reply["failed"].clone()),
        (json!(1), json!(2))
    );
    assert_eq!(reply["stopped_at"], Value::Null);
    // Input that breaks the input schema is refused as Pydantic refuses it, by path.
    let error = client.call_err(
        "call_read_tools_batch",
        json!({"operations": [{"tool": "x", "extra": 1}]}),
    );
    assert!(
        error.contains("operations.0.extra\n  Extra inputs are not permitted [type=extra_forbidden]"),
        "{error}"
    );
}

#[test]
fn a_python_batch_over_the_line_cap_elides_the_largest_payloads() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["set-option", "-g", "history-limit", "10000"]);
    // 6,000 rows of 79 characters, numbered: 16 captures of 1,500 rows are megabytes (a
    // row travels four times: as content text and structured, each again in the text copy).
    let pane = tmux.window_running(
        "awk 'BEGIN { s = sprintf(\"%74s\", \"\"); gsub(/ /, \"x\", s); \
         for (i = 1; i <= 6000; i++) printf \"%05d%s\\n\", i, s }'; exec sleep 100000",
    );
    tmux.wait_for_text(&pane, "06000x");
    let mut client = tmux.paneward_with(&["--profile", "python"], &[]);
    client.initialize();
    let operations: Vec<Value> = (0..16)
        .map(|_| json!({"tool": "capture_pane", "arguments": {"pane_id": pane, "start": -6000, "max_lines": 1500}}))
        .collect();
    client.send(&json!({"jsonrpc": "2.0", "id": 100, "method": "tools/call",
        "params": {"name": "call_read_tools_batch", "arguments": {"operations": operations}}}));
    let (line, response) = client.response_line(&json!(100));
    let written = line.len() + 1;
    assert!(written <= 1_000_000, "{written} bytes");
    let reply = &response["result"]["structuredContent"];
    assert_valid_python_batch(reply);
    assert_eq!(reply["response_truncated"], true);
    assert_eq!(reply["succeeded"], 16);
    let rows = reply["results"].as_array().unwrap();
    let kept: Vec<&Value> = rows.iter().filter(|r| !r["structured_content"].is_null()).collect();
    assert!(!kept.is_empty() && kept.len() < 16, "{} rows kept", kept.len());
    // Each kept row is whole; the earliest of equal rows is the one kept.
    assert!(!rows[0]["structured_content"].is_null());
    // 1,500 rows under libtmux-mcp's truncation header.
    let text = kept[0]["structured_content"]["result"].as_str().unwrap();
    assert_eq!(text.lines().count(), 1501);
    assert!(text.starts_with("[... truncated "), "{}", &text[..40]);
    let elided = rows.iter().find(|r| r["structured_content"].is_null()).unwrap();
    assert_eq!(elided["content"][0]["text"], "[... batch truncated nested content ...]");
    let each = {
        let row = kept[0];
        row["content"].to_string().len() + row["structured_content"].to_string().len()
    };
    assert_eq!(reply["response_truncated_bytes"], json!((16 - kept.len()) * each));
}

#[test]
fn conform_compares_with_the_profile() {
    let tmux = TmuxServer::start();
    let paneward = env!("CARGO_BIN_EXE_paneward");
    let conform = |profile_args: &[&str], server_args: &[&str]| {
        let mut command = std::process::Command::new(paneward);
        crate::support::clean_env(&mut command);
        command
            .arg("conform")
            .args(profile_args)
            .arg("--")
            .arg(paneward)
            .args(["-L", &tmux.name])
            .args(server_args);
        command.output().unwrap()
    };
    // The profile is compared whole: every toolset, every tier.
    let whole = [
        "--profile",
        "python",
        "--safety",
        "destructive",
        "--toolsets",
        "inspect,manage,execute,teardown",
    ];
    let same = conform(&["--profile", "python"], &whole);
    assert_eq!(same.status.code(), Some(0), "{}", String::from_utf8_lossy(&same.stdout));
    let differs = conform(&["--profile", "python"], &[]);
    assert_eq!(differs.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&differs.stdout).contains("call_read_tools_batch"));
}
