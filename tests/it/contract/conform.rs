//! `paneward conform` against real server processes: paneward itself (no differences),
//! paneward at a lower tier, a fixture server whose contract differs on purpose
//! (`tests/fixtures/conform/differing_server.py`), and servers that fail.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{root, tools_of_tier};
use std::process::{Command, Output};

const PANEWARD: &str = env!("CARGO_BIN_EXE_paneward");

fn conform(args: &[&str]) -> Output {
    Command::new(PANEWARD)
        .arg("conform")
        .args(args)
        .env("PANEWARD_LOG", "error")
        .env_remove("PANEWARD_SAFETY")
        .env_remove("LIBTMUX_SAFETY")
        .output()
        .expect("run paneward conform")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn paneward_lists_exactly_its_own_contract() {
    let output = conform(&["--", PANEWARD, "-L", "pw-unused-conform"]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(text.starts_with("server: paneward "), "{text}");
    let tools = tools_of_tier(&["readonly", "mutating"]).len();
    assert!(
        text.ends_with(&format!(
            "no differences: the server lists the contract's {tools} tools at tier mutating unchanged\n"
        )),
        "{text}"
    );
    // The tool files themselves, read from the folder, are the same contract.
    let schemas = root().join("schemas/tools");
    let output = conform(&[
        "--schemas",
        schemas.to_str().unwrap(),
        "--",
        PANEWARD,
        "-L",
        "pw-unused-conform",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn a_server_at_a_lower_tier_is_compared_at_that_tier() {
    let readonly_server = [PANEWARD, "-L", "pw-unused-conform", "--safety", "readonly"];
    let mut args = vec!["--tier", "readonly", "--"];
    args.extend(readonly_server);
    let output = conform(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));

    // At the default tier, every mutating tool is missing, and nothing else differs.
    let mut args = vec!["--"];
    args.extend(readonly_server);
    let output = conform(&args);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let findings: Vec<&str> = text.lines().skip(1).filter(|l| l.contains(": ")).collect();
    let expected: Vec<String> = tools_of_tier(&["mutating"])
        .iter()
        .map(|name| {
            format!("{name}: missing: the contract has this tool at tier mutating; the server does not list it")
        })
        .collect();
    assert!(!expected.is_empty(), "the contract has mutating tools");
    assert_eq!(findings, expected, "{text}");
}

#[test]
fn a_server_whose_contract_differs_gets_each_difference_by_tool_and_pointer() {
    let fixture = root().join("tests/fixtures/conform/differing_server.py");
    let schemas = root().join("schemas/tools");
    let output = conform(&["--", "python3", fixture.to_str().unwrap(), schemas.to_str().unwrap()]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let tools = tools_of_tier(&["readonly", "mutating"]).len();
    assert_eq!(
        text,
        format!(
            "server: differing-fixture 1.0 (protocol 2025-11-25)\n\
             call_read_tools_batch /inputSchema/properties/operations/maxItems: expected 16, got 32\n\
             frobnicate_pane: extra: the server lists this tool; the contract does not have it\n\
             send_keys_batch: missing: the contract has this tool at tier mutating; the server does not list it\n\
             snapshot_pane /annotations/readOnlyHint: unexpected true\n\
             snapshot_pane /outputSchema/properties/dead/type: expected \"boolean\", got \"string\"\n\
             snapshot_pane /outputSchema/required/3: missing, expected \"truncated\"\n\
             snapshot_pane /title: expected \"Snapshot a pane\", got \"Snapshot\"\n\
             7 differences in 4 tools (the contract has {tools} tools at tier mutating; the server lists {tools})\n"
        )
    );
}

#[test]
fn a_server_that_cannot_start_or_never_answers_within_the_timeout_is_reported() {
    let output = conform(&["--", "/nonexistent/mcp-server"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot start `/nonexistent/mcp-server`"));

    // The message names the timeout: conform gave up on it, not on `sleep` ending.
    let output = conform(&["--timeout", "1", "--", "sleep", "600"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no answer to `initialize` within 1 s (see --timeout)"),
        "{stderr}"
    );
}

#[test]
fn a_schemas_folder_is_checked_as_the_build_checks_it() {
    let dir =
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("conform-schemas-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut tool = crate::support::tool_file("snapshot_pane");
    tool["outputSchema"]["properties"]["dead"] = serde_json::json!({"$ref": "#/definitions/flag"});
    std::fs::write(dir.join("snapshot_pane.json"), tool.to_string()).unwrap();
    let output = conform(&[
        "--schemas",
        dir.to_str().unwrap(),
        "--",
        PANEWARD,
        "-L",
        "pw-unused-conform",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "snapshot_pane.json at /outputSchema/properties/dead/$ref: references are not supported, except to the schema's own `#/$defs/NAME`"
        ),
        "{stderr}"
    );
}

#[test]
fn a_conform_command_line_without_a_server_is_a_usage_error() {
    let output = conform(&["--tier", "readonly"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("after --") && stderr.contains("--help"), "{stderr}");
}
