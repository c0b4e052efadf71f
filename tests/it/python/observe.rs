//! `--profile python`: the observe tools (listing, reading, capturing and searching),
//! each against a real tmux on a private socket. Debug builds check every reply against
//! its outputSchema already, so these assert what the replies say.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use super::{ok, refused as err};
use crate::support::{Client, TmuxServer};

fn python(tmux: &TmuxServer) -> Client {
    let mut client = tmux.paneward_with(&["--profile", "python"], &[]);
    client.initialize();
    client
}

/// A successful call's text (the reply of a tool whose upstream declares no schema).
#[track_caller]
fn text(client: &mut Client, tool: &str, arguments: Value) -> String {
    let result = client.call(tool, arguments);
    assert_ne!(result["isError"], json!(true), "{tool} failed: {result}");
    result["content"][0]["text"].as_str().unwrap().to_string()
}

fn names(list: &Value, key: &str) -> Vec<String> {
    list["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item[key].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn list_sessions_applies_django_style_filters() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["new-session", "-d", "-s", "dev-api", "/bin/sh"]);
    tmux.tmux(&["new-session", "-d", "-s", "Dev-web", "/bin/sh"]);
    let mut client = python(&tmux);
    let all = ok(&mut client, "list_sessions", json!({}));
    assert_eq!(names(&all, "session_name"), ["Dev-web", "dev-api", "main"]);
    let dev = ok(
        &mut client,
        "list_sessions",
        json!({"filters": {"session_name__startswith": "dev"}}),
    );
    assert_eq!(names(&dev, "session_name"), ["dev-api"]);
    let any_case = ok(
        &mut client,
        "list_sessions",
        json!({"filters": {"session_name__icontains": "DEV"}}),
    );
    assert_eq!(names(&any_case, "session_name"), ["Dev-web", "dev-api"]);
    // The JSON-string form, a list for `in`, and the tmux variable's name for a field.
    let listed = ok(
        &mut client,
        "list_sessions",
        json!({"filters": "{\"session_name__in\": [\"main\", \"nope\"], \"session_windows\": \"1\"}"}),
    );
    assert_eq!(names(&listed, "session_name"), ["main"]);
    assert_eq!(listed["result"][0]["window_count"], 1);

    let (message, kind) = err(
        &mut client,
        "list_sessions",
        json!({"filters": {"session_name__near": "x"}}),
    );
    assert!(
        message.starts_with("Invalid filter operator 'near' in 'session_name__near'. Valid operators: contains"),
        "{message}"
    );
    assert_eq!(kind, "ExpectedToolError");
    let (message, _) = err(&mut client, "list_sessions", json!({"filters": {"colour": "red"}}));
    assert!(message.contains("Unknown filter field 'colour'"), "{message}");
    let (message, _) = err(&mut client, "list_sessions", json!({"filters": "[1]"}));
    assert_eq!(message, "filters must be a JSON object, got list");
}

#[test]
fn list_windows_and_get_window_info_resolve_by_exact_name() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["new-window", "-d", "-t", "main:", "-n", "logs", "/bin/sh"]);
    tmux.tmux(&["new-session", "-d", "-s", "other", "/bin/sh"]);
    let mut client = python(&tmux);
    let all = ok(&mut client, "list_windows", json!({}));
    assert_eq!(all["result"].as_array().unwrap().len(), 3);
    let main = ok(&mut client, "list_windows", json!({"session_name": "main"}));
    assert_eq!(main["result"].as_array().unwrap().len(), 2);
    let logs = ok(
        &mut client,
        "list_windows",
        json!({"session_name": "main", "filters": {"window_name": "logs"}}),
    );
    assert_eq!(logs["result"][0]["window_index"], "1");
    assert_eq!(logs["result"][0]["session_name"], "main");
    let id = logs["result"][0]["window_id"].as_str().unwrap().to_string();
    let info = ok(
        &mut client,
        "get_window_info",
        json!({"session_name": "main", "window_index": "1"}),
    );
    assert_eq!(info["window_id"], id.as_str());
    assert_eq!(info["window_name"], "logs");
    assert_eq!(info["pane_count"], 1);

    // A prefix is not a name.
    let (message, kind) = err(&mut client, "list_windows", json!({"session_name": "mai"}));
    assert_eq!(kind, "TmuxObjectDoesNotExist");
    assert!(message.contains("session_name=mai"), "{message}");
    let (message, _) = err(&mut client, "get_window_info", json!({"window_id": "@999"}));
    assert!(message.contains("window_id=@999"), "{message}");
}

#[test]
fn list_panes_scopes_to_a_window_or_session_and_filters() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let second = tmux.split(&first, "-h", "/bin/sh");
    tmux.window_running("/bin/sh");
    let mut client = python(&tmux);
    assert_eq!(
        ok(&mut client, "list_panes", json!({}))["result"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let window = ok(&mut client, "list_panes", json!({"window_index": "0"}));
    assert_eq!(names(&window, "pane_id"), [first.as_str(), second.as_str()]);
    let session = ok(&mut client, "list_panes", json!({"session_name": "main"}));
    assert_eq!(session["result"].as_array().unwrap().len(), 3);
    let right = ok(
        &mut client,
        "list_panes",
        json!({"window_index": "0", "filters": {"pane_at_left": "0"}}),
    );
    assert_eq!(names(&right, "pane_id"), [second.as_str()]);
    let (message, kind) = err(&mut client, "list_panes", json!({"window_id": "@999"}));
    assert_eq!(kind, "TmuxObjectDoesNotExist");
    assert!(message.contains("@999"), "{message}");
}

#[test]
fn get_session_info_and_the_server_tools_describe_the_served_server() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["new-window", "-d", "-t", "main:", "/bin/sh"]);
    let mut client = python(&tmux);
    let session = ok(&mut client, "get_session_info", json!({"session_name": "main"}));
    assert_eq!(session["window_count"], 2);
    assert_eq!(session["active_pane_id"], tmux.first_pane().as_str());
    let (message, kind) = err(&mut client, "get_session_info", json!({"session_id": "$999"}));
    assert_eq!(kind, "TmuxObjectDoesNotExist");
    assert!(message.contains("session_id=$999"), "{message}");

    let server = ok(&mut client, "get_server_info", json!({}));
    assert_eq!(server["is_alive"], true);
    assert_eq!(server["socket_name"], tmux.name.as_str());
    assert_eq!(server["session_count"], 1);
    assert!(server["version"].as_str().is_some_and(|v| !v.is_empty()), "{server}");
    let servers = ok(&mut client, "list_servers", json!({}));
    assert_eq!(servers["result"], json!([server]));
    let (message, _) = err(&mut client, "get_server_info", json!({"socket_name": "not-this-one"}));
    assert!(message.contains("not the server this paneward serves"), "{message}");
}

#[test]
fn capture_pane_reads_line_ranges_and_marks_what_it_cuts() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_showing("printf 'l1\\nl2\\nl3\\n'", "l3");
    let mut client = python(&tmux);
    assert_eq!(
        text(&mut client, "capture_pane", json!({"pane_id": pane})),
        "l1\nl2\nl3"
    );
    assert_eq!(
        text(&mut client, "capture_pane", json!({"pane_id": pane, "max_lines": 2})),
        "[... truncated 1 lines ...]\nl2\nl3"
    );
    assert_eq!(
        text(
            &mut client,
            "capture_pane",
            json!({"pane_id": pane, "start": 1, "end": 1})
        ),
        "l2"
    );
    let (message, kind) = err(&mut client, "capture_pane", json!({"pane_id": "%999"}));
    assert_eq!(kind, "PaneNotFound");
    assert!(message.contains("%999"), "{message}");
    let (message, _) = err(&mut client, "capture_pane", json!({"pane_id": pane, "max_lines": 0}));
    assert!(message.contains("at least 1"), "{message}");
}

#[test]
fn snapshot_pane_gives_content_cursor_and_geometry() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_showing("printf 'a1\\na2\\na3\\n'", "a3");
    let mut client = python(&tmux);
    let snapshot: Value = serde_json::from_str(&text(
        &mut client,
        "snapshot_pane",
        json!({"pane_id": pane, "max_lines": 1}),
    ))
    .unwrap();
    assert_eq!(snapshot["pane_id"], pane.as_str());
    assert_eq!(snapshot["content"], "a3");
    assert_eq!(snapshot["content_truncated"], true);
    assert_eq!(snapshot["content_truncated_lines"], 2);
    assert_eq!(snapshot["cursor_y"], 3);
    assert_eq!(snapshot["pane_width"], 80);
    assert_eq!(snapshot["pane_in_mode"], false);
    assert_eq!(snapshot["pane_dead"], false);
    let (_, kind) = err(&mut client, "snapshot_pane", json!({"session_name": "nope"}));
    assert_eq!(kind, "TmuxObjectDoesNotExist");
}

#[test]
fn search_panes_matches_pages_and_caps() {
    let tmux = TmuxServer::start();
    let one = tmux.window_showing("printf 'Needle one\\nneedle two\\n'", "two");
    let two = tmux.window_showing("printf 'needle three\\n'", "three");
    let mut client = python(&tmux);
    let search = |client: &mut Client, arguments: Value| -> Value {
        serde_json::from_str(&text(client, "search_panes", arguments)).unwrap()
    };
    let found = search(&mut client, json!({"pattern": "needle"}));
    assert_eq!(found["total_panes_matched"], 2);
    assert_eq!(found["matches"][0]["pane_id"], one.as_str());
    assert_eq!(
        found["matches"][0]["matched_lines"],
        json!(["Needle one", "needle two"])
    );
    assert_eq!(found["matches"][0]["session_name"], "main");
    assert_eq!(found["truncated"], false);
    let cased = search(&mut client, json!({"pattern": "Needle", "match_case": true}));
    assert_eq!(cased["total_panes_matched"], 1);
    let paged = search(&mut client, json!({"pattern": "needle", "offset": 1, "limit": 1}));
    assert_eq!(paged["matches"][0]["pane_id"], two.as_str());
    assert_eq!(paged["offset"], 1);
    let capped = search(
        &mut client,
        json!({"pattern": "needle", "limit": 1, "max_matched_lines_per_pane": 1}),
    );
    assert_eq!(capped["matches"][0]["matched_lines"], json!(["needle two"]));
    assert_eq!(capped["truncated_panes"], json!([two]));
    assert_eq!(capped["truncated"], true);
    let regex = search(&mut client, json!({"pattern": "^needle t", "regex": true}));
    assert_eq!(regex["total_panes_matched"], 2);
    let (message, kind) = err(&mut client, "search_panes", json!({"pattern": "((", "regex": true}));
    assert!(message.starts_with("Invalid regex pattern"), "{message}");
    assert_eq!(kind, "error");
}

#[test]
fn display_message_reads_plain_variables_and_refuses_format_syntax() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("/bin/sh");
    let mut client = python(&tmux);
    let shown = ok(
        &mut client,
        "display_message",
        json!({"pane_id": pane, "format_string": "id=#{pane_id} w=#{window_index} x=#{no_such_variable}."}),
    );
    assert_eq!(shown["result"], format!("id={pane} w=1 x=."));
    for format in ["#{E:pane_id}", "#(touch /tmp/x)", "#{?pane_dead,a,b}", "##"] {
        let (message, kind) = err(&mut client, "display_message", json!({"format_string": format}));
        assert!(
            message.contains("carries other tmux format syntax"),
            "{format}: {message}"
        );
        assert_eq!(kind, "ExpectedToolError");
    }
}

#[test]
fn find_pane_by_position_picks_the_corner_pane() {
    let tmux = TmuxServer::start();
    let left = tmux.first_pane();
    let right = tmux.split(&left, "-h", "/bin/sh");
    let bottom_right = tmux.split(&right, "-v", "/bin/sh");
    let mut client = python(&tmux);
    let at = |client: &mut Client, corner: &str| {
        ok(client, "find_pane_by_position", json!({"corner": corner}))["pane_id"].clone()
    };
    assert_eq!(at(&mut client, "bottom-right"), bottom_right.as_str());
    assert_eq!(at(&mut client, "top-right"), right.as_str());
    assert_eq!(at(&mut client, "bottom-left"), left.as_str());
    let (message, kind) = err(
        &mut client,
        "find_pane_by_position",
        json!({"corner": "top-left", "window_index": "9"}),
    );
    assert_eq!(kind, "TmuxObjectDoesNotExist");
    assert!(message.contains("window_index=9"), "{message}");
}

#[test]
fn capture_since_returns_only_new_rows() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_showing("printf 'old\\n'; read line; printf 'new one\\nnew two\\n'", "old");
    let other = tmux.window_running("/bin/sh");
    let mut client = python(&tmux);
    let since = |client: &mut Client, arguments: Value| -> Value {
        serde_json::from_str(&text(client, "capture_since", arguments)).unwrap()
    };
    let first = since(&mut client, json!({"pane_id": pane}));
    assert_eq!(first["lines"], json!(["old"]));
    assert_eq!(first["lines_missed"], false);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    tmux.wait_for_text(&pane, "new two");
    let next = since(&mut client, json!({"cursor": first["cursor"], "max_bytes": 7}));
    assert_eq!(next["pane_id"], pane.as_str());
    assert_eq!(next["lines"], json!(["new two"]));
    assert_eq!(next["truncated"], true);
    let (message, _) = err(
        &mut client,
        "capture_since",
        json!({"cursor": first["cursor"], "pane_id": other}),
    );
    assert!(message.contains("does not match requested pane"), "{message}");
    let (message, _) = err(&mut client, "capture_since", json!({"pane_id": pane, "max_lines": 0}));
    assert_eq!(message, "max_lines must be positive or None (received 0)");
}

#[test]
fn call_read_tools_batch_runs_the_profiles_inspect_tools_and_refuses_the_rest() {
    let tmux = TmuxServer::start();
    let mut client = python(&tmux);
    let batch = ok(
        &mut client,
        "call_read_tools_batch",
        json!({"on_error": "continue", "operations": [
            {"tool": "get_session_info", "arguments": {"session_name": "main"}},
            {"tool": "wait_for_text", "arguments": {"pattern": "x"}},
            {"tool": "kill_server"},
            {"tool": "no_such_tool"},
            {"tool": "call_read_tools_batch", "arguments": {"operations": [{"tool": "list_panes"}]}},
            {"tool": "capture_pane"}
        ]}),
    );
    let rows = batch["results"].as_array().unwrap();
    assert_eq!(
        (batch["succeeded"].clone(), batch["failed"].clone()),
        (json!(2), json!(4))
    );
    assert_eq!(rows[0]["structured_content"]["session_name"], "main");
    assert_eq!(rows[0]["meta"], Value::Null);
    let errors: Vec<&str> = rows[1..5].iter().map(|row| row["error"].as_str().unwrap()).collect();
    assert_eq!(
        errors,
        [
            "Tool 'wait_for_text' enforces its own wait ceiling and cannot be batched; batching would multiply that ceiling by the operation count. Call it directly.",
            "Tool 'kill_server' is not an 'inspect' tool, so it cannot run in a read batch. Call it directly.",
            "Unknown tool: 'no_such_tool'",
            "Batch tools cannot call batch tools recursively.",
        ]
    );
    // A text reply is wrapped as libtmux-mcp's server wraps it.
    assert_eq!(rows[5]["meta"]["fastmcp"]["wrap_result"], true);
    assert!(rows[5]["structured_content"]["result"].is_string(), "{}", rows[5]);

    // Stopping on errors, nothing after the first refusal runs.
    let stopped = ok(
        &mut client,
        "call_read_tools_batch",
        json!({"operations": [{"tool": "list_sessions"}, {"tool": "kill_server"}, {"tool": "list_panes"}]}),
    );
    assert_eq!(stopped["stopped_at"], 1);
    assert_eq!(stopped["results"].as_array().unwrap().len(), 2);
    let (message, kind) = err(&mut client, "call_read_tools_batch", json!({"operations": []}));
    assert_eq!(message, "operations must contain at least one tool call");
    assert_eq!(kind, "ExpectedToolError");
}
