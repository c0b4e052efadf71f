//! `run_shell_command` under `--profile libtmux` is paneward's `run_command`: it runs on
//! the tmux of this machine (3.2 to 3.5 included), where `tmux-mcp` 0.1.2 answers
//! `unsupported_version` below 3.7, and reports the command's own output and exit status.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::json;

use crate::support::TmuxServer;

#[test]
fn run_shell_command_reports_the_commands_output_and_exit_status() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    tmux.wait_for_prompt(&pane);
    let mut client = tmux.paneward_with(&super::PROFILE, &[]);
    client.initialize();
    let ran = client.call(
        "run_shell_command",
        json!({"pane": pane, "command": "echo fam-$((40+2))"}),
    );
    assert_eq!(ran["isError"], json!(false), "{ran}");
    let reply = &ran["structuredContent"];
    assert_eq!(reply["outcome"], "completed", "{reply}");
    assert_eq!(reply["exit_status"], 0, "{reply}");
    assert_eq!(reply["output"], "fam-42", "{reply}");
    assert_eq!(reply["bytes"], 6, "{reply}");
    // The command runs in a subshell: its exit ends the subshell, not the pane's shell.
    let failed = client.call("run_shell_command", json!({"pane": pane, "command": "exit 3"}));
    assert_eq!(failed["structuredContent"]["exit_status"], 3, "{failed}");
    assert_eq!(failed["structuredContent"]["outcome"], "completed", "{failed}");
}

#[test]
fn the_go_manifests_pane_id_is_refused_naming_the_familys_pane() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward_with(&super::PROFILE, &[]);
    client.initialize();
    let refused = client.call("get_pane_info", json!({"pane_id": tmux.first_pane()}));
    assert_eq!(refused["isError"], json!(true), "{refused}");
    let body: serde_json::Value = serde_json::from_str(refused["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(body["data"]["kind"], "invalid_input", "{body}");
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("/pane_id") && message.contains("pane"), "{message}");
}
