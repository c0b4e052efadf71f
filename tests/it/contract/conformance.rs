//! Conformance with the MCP clients people use: the official Python SDK and the
//! official TypeScript SDK drive the built binary over stdio, on a private tmux server,
//! through every case of `tests/conformance/cases.json` (see `conformance/suite.rs`).
//! The clients are installed by `tests/conformance/install` (`.ci/run` runs it); without
//! them these tests say so loudly and pass, except in CI, where they fail.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

mod expected;

mod prompt_cases;

mod suite;

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::root;
use serde_json::Value;

const PANEWARD: &str = env!("CARGO_BIN_EXE_paneward");

/// Whether the clients are installed; if not, says so loudly, and fails under CI.
fn clients_installed() -> bool {
    let missing = suite::missing_clients();
    if missing.is_empty() {
        return true;
    }
    let message =
        format!("conformance SKIPPED: the clients are not installed (no {missing:?}); run tests/conformance/install");
    assert!(
        std::env::var_os("CI").is_none(),
        "{message}. CI installs them and never skips."
    );
    suite::show(&format!("\n!!!!!!!!!! {message} !!!!!!!!!!\n\n"));
    false
}

#[test]
fn the_official_python_and_typescript_clients_accept_every_tool() {
    if !clients_installed() {
        return;
    }
    let report = suite::run(
        Path::new(PANEWARD),
        "paneward",
        &suite::data("cases.json"),
        &suite::data("expected-failures.yaml"),
    );
    suite::show(&report.text);
    assert!(report.passed(), "the conformance suite failed: {:#?}", report.problems);
}

/// The same cases, with both SDK clients on their Streamable HTTP transports against
/// `paneward serve --http`, sending the bearer token.
#[test]
fn the_official_clients_accept_every_tool_over_streamable_http() {
    if !clients_installed() {
        return;
    }
    let report = suite::run_over_http(
        Path::new(PANEWARD),
        "http",
        &suite::data("cases.json"),
        &suite::data("expected-failures.yaml"),
    );
    suite::show(&report.text);
    assert!(
        report.passed(),
        "the conformance suite over HTTP failed: {:#?}",
        report.problems
    );
}

/// Without the token, or with a wrong one, neither SDK client gets past the first
/// request: each fails to connect, the server logs a 401 for it and opens no session.
/// (The TypeScript SDK's error carries the 401 as its code; the Python SDK 2.3.0
/// reports any HTTP error as "Server returned an error response", docs/mcp-quirks.md.)
#[test]
fn the_official_clients_are_refused_over_http_without_the_token() {
    if !clients_installed() {
        return;
    }
    let tmux = crate::support::TmuxServer::start();
    let server = crate::support::http::HttpServer::start(&["-L", &tmux.name], &[]);
    let wrong = "f".repeat(48);
    let refusals = |log: &str| log.matches("(401)").count();
    for client in suite::CLIENTS {
        for token in [None, Some(wrong.as_str())] {
            let before = refusals(&server.log());
            let sessions = server.log().matches("create new session").count();
            let events = suite::connect_over_http(client, &server.url(), token);
            assert_eq!(events.len(), 1, "{client} with {token:?}: {events:?}");
            assert_eq!(events[0]["event"], "failed", "{client}: {events:?}");
            let detail = events[0]["detail"].as_str().unwrap();
            if client == "node" {
                assert!(
                    detail.starts_with("code 401:"),
                    "{client} with {token:?} does not report the 401: {detail}"
                );
            }
            let log = server.log();
            assert!(
                refusals(&log) > before,
                "{client} with {token:?}: no 401 in the server's log"
            );
            assert_eq!(
                log.matches("create new session").count(),
                sessions,
                "a refused client got a session: {log}"
            );
        }
        let events = suite::connect_over_http(client, &server.url(), Some(&server.token));
        let kinds: Vec<&str> = events.iter().map(|e| e["event"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            ["connected", "listed", "done"],
            "{client} with the token: {events:?}"
        );
    }
}

/// `--profile python`: libtmux-mcp's tools, each with the cases of
/// `cases-python-profile.json` (in libtmux-mcp's argument names); the resource and prompt
/// cases are `cases.json`'s, since the profile serves paneward's resources and prompts.
/// With `PANEWARD_CONFORMANCE_LIBTMUX_MCP` naming libtmux-mcp's command, the same tool
/// cases first run against it, judged by `expected-failures-libtmux-mcp.yaml` (where
/// paneward differs on purpose): the proof that the cases expect what libtmux-mcp does.
/// paneward runs with `--reveal-environment`, as libtmux-mcp shows environment values.
#[test]
fn the_official_clients_accept_the_python_profile() {
    if !clients_installed() {
        return;
    }
    let read =
        |file: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(suite::data(file)).unwrap()).unwrap() };
    let (profile, default) = (read("cases-python-profile.json"), read("cases.json"));
    let cases = serde_json::json!({
        "tools": profile["tools"],
        "resources": default["resources"],
        "prompts": default["prompts"],
    });
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("conformance-python-profile-cases.json");
    std::fs::write(&path, cases.to_string()).unwrap();
    if let Some(peer) = std::env::var_os("PANEWARD_CONFORMANCE_LIBTMUX_MCP") {
        let report = suite::run_libtmux_mcp(
            Path::new(&peer),
            "libtmux-mcp",
            &path,
            &suite::data("expected-failures-libtmux-mcp.yaml"),
        );
        suite::show(&report.text);
        assert!(
            report.passed(),
            "libtmux-mcp does not do what the cases expect: {:#?}",
            report.problems
        );
    }
    // paneward withholds environment values unless told (libtmux-mcp shows them):
    // show_environment's success case needs the switch.
    let report = suite::run_with(
        Path::new(PANEWARD),
        &[
            "--profile",
            "python",
            "--reveal-environment",
            "--toolsets",
            "inspect,manage,execute,teardown",
        ],
        "python-profile",
        &path,
        &suite::data("expected-failures.yaml"),
    );
    suite::show(&report.text);
    assert!(report.passed(), "the conformance suite failed: {:#?}", report.problems);
}

/// Builds paneward with the test-only feature `conformance-fault`, which breaks
/// `snapshot_pane`'s reply *after* the request path's own output-schema check (that check
/// would otherwise turn it into an isError), so that only the clients can catch it.
fn build_fault_binary() -> PathBuf {
    // A target folder of its own: the outer `cargo test` holds the lock on ours.
    let target = suite::install_dir().join("fault-build");
    let start = std::time::Instant::now();
    let status = Command::new(env!("CARGO"))
        // Debug info is not needed to serve a broken reply, and costs build time.
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        .args(["build", "--quiet", "--locked", "--offline", "--bin", "paneward"])
        .args(["--features", "conformance-fault", "--target-dir"])
        .arg(&target)
        .current_dir(root())
        .status()
        .expect("run cargo build");
    assert!(status.success(), "cargo build --features conformance-fault failed");
    suite::show(&format!(
        "conformance fault-build: built with --features conformance-fault in {} s\n",
        start.elapsed().as_secs()
    ));
    target.join("debug/paneward")
}

#[test]
fn the_suite_fails_and_names_the_tool_when_a_reply_breaks_its_output_schema() {
    if !clients_installed() {
        return;
    }
    let report = suite::run(
        &build_fault_binary(),
        "fault-build",
        &suite::data("cases.json"),
        &suite::data("expected-failures.yaml"),
    );
    suite::show(&format!(
        "conformance fault-build: this run MUST fail, naming snapshot_pane (its replies are broken on purpose):\n{}",
        report.text
    ));
    assert!(
        !report.passed(),
        "the suite passed a binary whose snapshot_pane replies are broken"
    );
    for (client, tool, what) in &report.problems {
        assert_eq!(tool, "snapshot_pane", "{client}: only the broken tool fails: {what}");
        assert!(
            what.contains("the client rejected the reply as breaking the outputSchema"),
            "{client} {tool}: {what}"
        );
    }
    for client in suite::CLIENTS {
        assert!(
            report
                .problems
                .iter()
                .any(|(c, tool, what)| c == client && tool == "snapshot_pane" && what.starts_with("printed-text:")),
            "{client} did not catch the broken snapshot_pane reply: {:#?}",
            report.problems
        );
    }
}

#[test]
fn a_tool_without_cases_and_a_stale_expected_failure_each_fail_the_suite() {
    if !clients_installed() {
        return;
    }
    // The real cases without send_keys_batch's, and expected failures naming a case that
    // passes and a case that no longer exists.
    let mut cases: Value = serde_json::from_str(&std::fs::read_to_string(suite::data("cases.json")).unwrap()).unwrap();
    cases["tools"]
        .as_object_mut()
        .unwrap()
        .remove("send_keys_batch")
        .expect("cases for send_keys_batch");
    // python keeps the real file's expected failures (asking a 2026-07-28 client).
    let expected = "python:\n  - snapshot_pane/printed-text\n  - send_keys_batch/type-into-scratch\n\
                    python-legacy:\n  - send_keys_batch/type-into-scratch\n\
                    node:\n  - send_keys_batch/type-into-scratch\n";
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let (cases_path, expected_path) = (dir.join("suite-meta-cases.json"), dir.join("suite-meta-expected.yaml"));
    std::fs::write(&cases_path, cases.to_string()).unwrap();
    std::fs::write(&expected_path, expected).unwrap();

    let report = suite::run(Path::new(PANEWARD), "suite-check", &cases_path, &expected_path);
    suite::show(&format!(
        "conformance suite-check: this run MUST fail (its case and expected-failure files are edited on purpose):\n{}",
        report.text
    ));
    let has = |client: &str, tool: &str, what: &str| {
        report
            .problems
            .iter()
            .any(|(c, t, w)| c == client && t == tool && w.contains(what))
    };
    for client in suite::CLIENTS {
        assert!(
            has(
                client,
                "send_keys_batch",
                "advertised without a success case and an error case"
            ),
            "{client}"
        );
        assert!(
            has(client, "send_keys_batch/type-into-scratch", "which is not a case"),
            "{client}"
        );
    }
    assert!(has(
        "python",
        "snapshot_pane",
        "passes, but expected-failures.yaml lists python: snapshot_pane/printed-text"
    ));
    assert_eq!(report.problems.len(), 7, "nothing else fails: {:#?}", report.problems);
}

/// The official Tasks requester (`@modelcontextprotocol/ext-tasks` on the TypeScript
/// SDK v2 client, `versionNegotiation: auto`; `tests/conformance/node/tasks.mjs`)
/// negotiates 2026-07-28, sees both extensions, drives a `run_command` task to
/// `run_command`'s own reply (its polls answered by a second paneward), and cancels
/// another, which ends `cancelled`.
#[test]
fn the_official_tasks_client_drives_run_command_as_a_task_to_its_end_and_cancels_one() {
    if !clients_installed() {
        return;
    }
    let tmux = crate::support::TmuxServer::start();
    let pane = tmux.first_pane();
    let mut command = Command::new("node");
    command
        .arg(suite::data("node/tasks.mjs"))
        .arg(suite::install_dir().join("node"))
        .arg(&pane)
        .arg("--")
        .arg(PANEWARD)
        .args(["-L", &tmux.name]);
    crate::support::clean_env(&mut command);
    let output = command.output().expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let events: Vec<Value> = stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let event = |name: &str| {
        events
            .iter()
            .find(|event| event["event"] == name)
            .unwrap_or_else(|| panic!("no {name} event: {stdout}"))
            .clone()
    };
    let connected = event("connected");
    assert_eq!(connected["protocolVersion"], "2026-07-28", "{stdout}");
    assert!(
        connected["extensions"]["io.modelcontextprotocol/tasks"].is_object(),
        "{stdout}"
    );
    assert!(
        connected["extensions"]["io.modelcontextprotocol/skills"].is_object(),
        "{stdout}"
    );
    let completed = event("completed");
    assert_eq!(completed["status"], "completed", "{stdout}");
    let structured = &completed["structured"];
    crate::support::assert_valid_output("run_command", structured);
    assert_eq!(structured["state"], "finished", "{stdout}");
    assert_eq!(structured["exitStatus"], 3, "{stdout}");
    assert_eq!(structured["output"], serde_json::json!(["late"]), "{stdout}");
    assert_eq!(event("cancelled")["outcome"]["status"], "cancelled", "{stdout}");
    assert_eq!(
        event("methods")["methods"],
        serde_json::json!(["tasks/cancel", "tasks/get", "tools/call"]),
        "the task traffic went through the second paneward: {stdout}"
    );
}
