//! The family's configuration under `--profile libtmux`: its retired settings stop
//! start-up with the family's reason, `LIBTMUX_TOOLSETS`, `LIBTMUX_TOOLS` and
//! `LIBTMUX_EXCLUDE_TOOLS` choose the tools as the family defines them, and the one
//! resource the family has, `tmux://capabilities`, carries each served tool's
//! capability record.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::process::Command;

use serde_json::{json, Value};

use crate::support::{clean_env, TmuxServer};

#[test]
fn the_familys_retired_safety_settings_stop_start_up_with_its_reason() {
    for retired in ["LIBTMUX_SAFETY", "TMUX_MCP_SAFETY"] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
        clean_env(&mut command);
        let output = command
            .args(["--profile", "libtmux"])
            .env(retired, "readonly")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{retired}");
        assert!(output.stdout.is_empty(), "stdout stays protocol only");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!("{retired} has been removed; use LIBTMUX_TOOLSETS")),
            "{stderr}"
        );
    }
}

#[test]
fn the_familys_variables_choose_the_tools_and_an_unknown_name_stops_start_up() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward_with(
        &["--profile", "libtmux"],
        &[
            ("LIBTMUX_TOOLSETS", "inspect"),
            ("LIBTMUX_TOOLS", "send_keys"),
            ("LIBTMUX_EXCLUDE_TOOLS", "capture_pane,send_keys_batch"),
        ],
    );
    client.initialize();
    let names: Vec<String> = client.list_tools()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_string())
        .collect();
    // The 18 inspect tools, capture_pane excluded, send_keys added.
    assert_eq!(names.len(), 18, "{names:?}");
    assert!(names.contains(&"send_keys".to_string()) && !names.contains(&"capture_pane".to_string()));
    // A tool left out is not callable either.
    let result = client.call("capture_pane", json!({"pane": tmux.first_pane()}));
    assert_eq!(result["isError"], json!(true), "{result}");

    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    let output = command
        .args(["--profile", "libtmux"])
        .env("LIBTMUX_TOOLS", "run_command")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("LIBTMUX_TOOLS: unknown tool \"run_command\" of profile libtmux"),
        "{stderr}"
    );
}

#[test]
fn tmux_capabilities_carries_each_served_tools_capability_record() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward_with(&["--profile", "libtmux"], &[]);
    client.initialize();
    let read = client.request("resources/read", json!({"uri": "tmux://capabilities"}));
    let text = read["result"]["contents"][0]["text"].as_str().unwrap();
    let document: Value = serde_json::from_str(text).unwrap();
    assert_eq!(document["profile"], "libtmux");
    let tools = document["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 40);
    let run = tools.iter().find(|tool| tool["name"] == "run_shell_command").unwrap();
    assert_eq!(run["capability"]["processReach"], "pane-command");
    assert_eq!(run["capability"]["toolset"], "execute");
}
