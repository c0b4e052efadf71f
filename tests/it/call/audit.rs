//! `--audit-log`: one line per call of a tool that may change tmux and per batch row,
//! in a file only its owner can read, without what was typed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::os::unix::fs::PermissionsExt;

use serde_json::{json, Value};

use crate::support::TmuxServer;

fn lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn the_audit_log_records_calls_and_rows_but_never_the_typed_text() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("exec cat");
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("audit-{}", tmux.name));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("audit.jsonl");
    let _ = std::fs::remove_file(&path);
    let secret = "s3cr3t-Pa55w0rd-typed";
    {
        let mut client = tmux.paneward_with(&["--audit-log", path.to_str().unwrap()], &[]);
        client.initialize();
        client.call_ok(
            "send_keys",
            json!({"pane_id": pane, "keys": secret, "literal": true, "enter": true}),
        );
        tmux.wait_for_text(&pane, secret);
        client.call_ok("list_sessions", json!({}));
        client.call_ok(
            "call_read_tools_batch",
            json!({"operations": [{"tool": "list_sessions"}, {"tool": "capture_pane", "arguments": {"pane_id": pane}}]}),
        );
        client.close();
    }
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains(secret), "the typed text is in the log:\n{text}");
    assert!(!text.contains("s3cr3t"), "{text}");
    let logged = lines(&path);
    // send_keys, then the batch's two rows; list_sessions alone only reads.
    let tools: Vec<&str> = logged.iter().map(|l| l["tool"].as_str().unwrap()).collect();
    assert_eq!(tools, ["send_keys", "list_sessions", "capture_pane"]);
    let send = &logged[0];
    assert_eq!(send["outcome"], "ok");
    assert_eq!(send["batch_row"], false);
    assert_eq!(send["arguments"]["pane_id"], json!(pane));
    assert_eq!(send["arguments"]["enter"], true);
    assert_eq!(send["arguments"]["keys"]["len"], secret.len());
    assert!(send["arguments"]["keys"]["hash"].is_string());
    assert!(send["time"].as_str().unwrap().ends_with('Z'));
    assert!(send["duration_ms"].is_u64());
    assert!(send["request_id"].is_number());
    assert_eq!(logged[1]["batch_row"], true);
    assert_eq!(logged[1]["request_id"], logged[2]["request_id"]);
    assert_ne!(logged[1]["request_id"], send["request_id"]);
    assert_eq!(logged[2]["arguments"]["pane_id"], json!(pane));

    // A second run appends, and a refusal is logged as refused.
    {
        let mut client = tmux.paneward_with(&["--audit-log", path.to_str().unwrap(), "--safety", "readonly"], &[]);
        client.initialize();
        client.call_err("send_keys", json!({"pane_id": pane, "keys": secret}));
        client.close();
    }
    let logged = lines(&path);
    assert_eq!(logged.len(), 4, "appended, not truncated");
    assert_eq!(logged[3]["outcome"], "refused");
    assert!(!std::fs::read_to_string(&path).unwrap().contains(secret));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_audit_log_others_can_read_stops_start_up() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("audit-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("shared.log");
    std::fs::write(&path, "").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_paneward"));
    crate::support::clean_env(&mut command);
    let out = command
        .args(["tools", "--audit-log", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("may be read by others"));
    std::fs::remove_dir_all(&dir).unwrap();
}
