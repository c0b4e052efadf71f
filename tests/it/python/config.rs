//! `--profile python`: libtmux-mcp's configuration variables carry over.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::process::Command;

use serde_json::{json, Value};

use super::{ok, refused};
use crate::support::{clean_env, Client, Scratch, TmuxServer, FIRST_SESSION};

fn names(list: &Value) -> Vec<String> {
    list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_toolsets_default_to_all_but_teardown_and_libtmux_toolsets_widens_them() {
    let tmux = TmuxServer::start();
    let mut default = tmux.paneward_with(&["--profile", "python", "--safety", "destructive"], &[]);
    default.initialize();
    let served = names(&default.list_tools());
    assert!(served.contains(&"send_keys".to_string()), "{served:?}");
    for teardown in [
        "kill_server",
        "kill_session",
        "kill_window",
        "kill_pane",
        "clear_pane",
        "delete_buffer",
    ] {
        assert!(!served.contains(&teardown.to_string()), "{teardown} in {served:?}");
    }
    let mut all = tmux.paneward_with(
        &["--profile", "python", "--safety", "destructive"],
        &[("LIBTMUX_TOOLSETS", "inspect,manage,execute,teardown")],
    );
    all.initialize();
    assert_eq!(names(&all.list_tools()).len(), 54);
    let mut narrowed = tmux.paneward_with(
        &["--profile", "python"],
        &[
            ("LIBTMUX_TOOLSETS", "inspect"),
            ("LIBTMUX_EXCLUDE_TOOLS", "list_servers"),
        ],
    );
    narrowed.initialize();
    let served = names(&narrowed.list_tools());
    assert!(served.contains(&"list_panes".to_string()) && !served.contains(&"send_keys".to_string()));
    assert!(!served.contains(&"list_servers".to_string()), "{served:?}");
}

#[test]
fn libtmux_suppress_history_is_run_commands_advertised_default() {
    let tmux = TmuxServer::start();
    let default_of = |env: &[(&str, &str)]| {
        let mut client = tmux.paneward_with(&["--profile", "python"], env);
        client.initialize();
        let list = client.list_tools();
        let tool = list["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == "run_command")
            .unwrap()
            .clone();
        tool["inputSchema"]["properties"]["suppress_history"]["default"].clone()
    };
    assert_eq!(default_of(&[]), Value::Bool(true));
    assert_eq!(default_of(&[("LIBTMUX_SUPPRESS_HISTORY", "0")]), Value::Bool(false));
}

#[test]
fn libtmux_safety_stops_start_up_under_the_profile() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    let output = command
        .args(["--profile", "python"])
        .env("LIBTMUX_SAFETY", "readonly")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty(), "stdout stays protocol only");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("LIBTMUX_SAFETY has been removed"), "{stderr}");
}

#[test]
fn libtmux_tmux_bin_is_the_tmux_paneward_runs() {
    let tmux = TmuxServer::start();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pw-tmux-bin-{}", tmux.name));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("ran");
    let wrapper = dir.join("tmux-wrapper");
    std::fs::write(
        &wrapper,
        format!("#!/bin/sh\necho ran >> '{}'\nexec tmux \"$@\"\n", log.display()),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&wrapper).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&wrapper, permissions).unwrap();
    // Without the hidden and native clients every way to tmux runs the binary.
    let mut client = tmux.paneward_with(
        &["--profile", "python", "--no-hidden-client", "--no-native-client"],
        &[("LIBTMUX_TMUX_BIN", wrapper.to_str().unwrap())],
    );
    client.initialize();
    let result = client.call("list_sessions", serde_json::json!({}));
    assert_ne!(result["isError"], Value::Bool(true), "{result}");
    assert!(std::fs::read_to_string(&log).unwrap().contains("ran"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs paneward with `args` and `env` where it must refuse to start; its message.
fn refused_start(args: &[&str], env: &[(&str, &str)]) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    let output = command.args(args).envs(env.iter().copied()).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{args:?} {env:?} started");
    assert!(output.stdout.is_empty(), "stdout stays protocol only");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn tool_names_are_checked_against_the_profiles_own_tools() {
    let tmux = TmuxServer::start();
    // The profile's own tools that paneward's contract lacks are taken, by flag and by
    // libtmux-mcp's variables.
    let mut named = tmux.paneward_with(
        &["--profile", "python", "--toolsets", "", "--tools", "display_message"],
        &[("LIBTMUX_EXCLUDE_TOOLS", "show_hook")],
    );
    named.initialize();
    assert_eq!(names(&named.list_tools()), ["display_message"]);
    let mut from_variable = tmux.paneward_with(
        &["--profile", "python"],
        &[("LIBTMUX_TOOLSETS", ""), ("LIBTMUX_TOOLS", "show_hook,display_message")],
    );
    from_variable.initialize();
    let mut served = names(&from_variable.list_tools());
    served.sort();
    assert_eq!(served, ["display_message", "show_hook"]);
    // A tool only paneward's own contract has names nothing here: start-up stops and
    // says which setting named it.
    for (args, env, origin) in [
        (
            &["--profile", "python", "--exclude-tools", "get_job"][..],
            &[][..],
            "--exclude-tools",
        ),
        (
            &["--profile", "python"][..],
            &[("LIBTMUX_EXCLUDE_TOOLS", "get_job")][..],
            "LIBTMUX_EXCLUDE_TOOLS",
        ),
        (
            &["--profile", "python"][..],
            &[("LIBTMUX_TOOLS", "wait_for_idle")][..],
            "LIBTMUX_TOOLS",
        ),
        (
            &["--profile", "python", "--tools", "load_workspace"][..],
            &[][..],
            "--tools",
        ),
    ] {
        let stderr = refused_start(args, env);
        assert!(stderr.contains(&format!("{origin}: unknown tool")), "{stderr}");
        assert!(stderr.contains("of profile python"), "{stderr}");
    }
    let stderr = refused_start(&["--profile", "python"], &[("LIBTMUX_TOOLS", "show_hoook")]);
    assert!(
        stderr.contains("\"show_hoook\" of profile python (did you mean show_hook?)"),
        "{stderr}"
    );
    // And the default profile still refuses the python profile's own.
    let stderr = refused_start(&["--tools", "show_hook"], &[]);
    assert!(stderr.contains("--tools: unknown tool \"show_hook\""), "{stderr}");
}

/// paneward as started in one of `server`'s panes: no socket named, the pane's `TMUX`
/// and `TMUX_PANE` (and `extra` variables) in its environment.
fn python_in_pane(socket: &str, pid: &str, pane: &str, extra: &[(&str, &str)]) -> Client {
    let tmux = format!("{socket},{pid},0");
    let mut env = vec![("TMUX", tmux.as_str()), ("TMUX_PANE", pane)];
    env.extend_from_slice(extra);
    let mut client = Client::spawn(&["--profile", "python"], &env);
    client.initialize();
    client
}

/// Asserts that `client` takes `accepted` as the server it serves and refuses
/// `others` in libtmux-mcp's error shape, naming the server it does serve.
#[track_caller]
fn names_only(client: &mut Client, accepted: &[&str], others: &[&str], serving: &str) {
    for name in accepted {
        let sessions = ok(client, "list_sessions", serde_json::json!({"socket_name": name}));
        assert_eq!(sessions["result"][0]["session_name"], "main", "{name}: {sessions}");
    }
    for name in others {
        let (message, error_type) = refused(client, "get_server_info", serde_json::json!({"socket_name": name}));
        assert_eq!(error_type, "ExpectedToolError", "{name}: {message}");
        assert!(message.contains("is not the server this paneward serves"), "{message}");
        assert!(message.contains(serving), "{name}: {message}");
    }
}

#[test]
fn inside_a_pane_the_served_server_is_named_by_its_real_socket_name() {
    // A pane of `tmux -L NAME`: NAME is the server, and "default" another one.
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let socket = tmux.pane_value(&pane, "#{socket_path}");
    let pid = tmux.pane_value(&pane, "#{pid}");
    let mut client = python_in_pane(&socket, &pid, &pane, &[]);
    let info = ok(&mut client, "get_server_info", serde_json::json!({}));
    assert_eq!(info["socket_name"], tmux.name.as_str(), "{info}");
    assert_eq!(info["socket_path"], socket.as_str(), "{info}");
    assert_eq!(info["is_alive"], true);
    let serving = format!("socket name {:?}", tmux.name);
    names_only(
        &mut client,
        &[&tmux.name, &socket],
        &["default", "pw-elsewhere", "/tmp/x/default"],
        &serving,
    );
}

/// A server started by a plain `tmux` (no -L, no -S), in a socket folder of the test's
/// own (`TMUX_TMPDIR`), so the person's default server is never touched; killed on drop.
struct PlainServer {
    folder: Scratch,
}

impl PlainServer {
    fn start() -> Self {
        let server = Self { folder: Scratch::new() };
        server.tmux(&FIRST_SESSION);
        server
    }

    fn tmpdir(&self) -> String {
        self.folder.path("")
    }

    #[track_caller]
    fn tmux(&self, args: &[&str]) -> String {
        let mut command = Command::new("tmux");
        clean_env(&mut command);
        let output = command.env("TMUX_TMPDIR", self.tmpdir()).args(args).output().unwrap();
        assert!(
            output.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim_end().to_string()
    }
}

impl Drop for PlainServer {
    fn drop(&mut self) {
        let mut command = Command::new("tmux");
        clean_env(&mut command);
        let _ = command.env("TMUX_TMPDIR", self.tmpdir()).arg("kill-server").output();
    }
}

#[test]
fn the_server_a_plain_tmux_starts_is_named_default_from_its_panes() {
    let server = PlainServer::start();
    let pane = server.tmux(&["display-message", "-p", "#{pane_id}"]);
    let socket = server.tmux(&["display-message", "-p", "#{socket_path}"]);
    let pid = server.tmux(&["display-message", "-p", "#{pid}"]);
    assert!(socket.ends_with("/default"), "{socket}");
    let tmpdir = server.tmpdir();
    let mut client = python_in_pane(&socket, &pid, &pane, &[("TMUX_TMPDIR", &tmpdir)]);
    let info = ok(&mut client, "get_server_info", serde_json::json!({}));
    assert_eq!(info["socket_name"], "default", "{info}");
    names_only(
        &mut client,
        &["default", &socket],
        &["main", "pw-other"],
        "socket name \"default\"",
    );
}

#[test]
fn with_no_server_yet_the_lists_are_empty_and_create_session_starts_one() {
    let server = TmuxServer::to_be_started(TmuxServer::unique_name("pw-py-none-"));
    let mut client = Client::spawn(&["--profile", "python"], &[("LIBTMUX_SOCKET", server.name.as_str())]);
    client.initialize();
    for tool in ["list_sessions", "list_windows", "list_panes"] {
        assert_eq!(ok(&mut client, tool, json!({})), json!({"result": []}), "{tool}");
    }
    let made = ok(&mut client, "create_session", json!({"session_name": "first"}));
    assert_eq!(made["session_name"], "first");
    let listed = ok(&mut client, "list_sessions", json!({}));
    assert_eq!(listed["result"][0]["session_id"], made["session_id"], "{listed}");
}

#[test]
fn libtmux_mcp_wait_max_seconds_is_the_wait_ceiling() {
    let tmux = TmuxServer::start();
    let mut default = tmux.paneward_with(&["--profile", "python"], &[]);
    default.initialize();
    ok(&mut default, "signal_channel", json!({"channel": "pw-ceiling"}));
    let waited = ok(
        &mut default,
        "wait_for_channel",
        json!({"channel": "pw-ceiling", "timeout": 100}),
    );
    assert_eq!(waited["result"], "Channel 'pw-ceiling' was signalled (timeout 30.0s)");
    let mut lowered = tmux.paneward_with(&["--profile", "python"], &[("LIBTMUX_MCP_WAIT_MAX_SECONDS", "1.5")]);
    lowered.initialize();
    let (text, error_type) = refused(
        &mut lowered,
        "wait_for_channel",
        json!({"channel": "pw-never", "timeout": 100}),
    );
    assert_eq!(
        text,
        "wait-for timeout: channel 'pw-never' was not signalled within 1.5s"
    );
    assert_eq!(error_type, "TimeoutError");
}

#[test]
fn libtmux_mcp_prompts_as_tools_stops_start_up_under_the_profile() {
    let message = refused_start(&["--profile", "python"], &[("LIBTMUX_MCP_PROMPTS_AS_TOOLS", "1")]);
    assert!(
        message.contains("LIBTMUX_MCP_PROMPTS_AS_TOOLS=1 is not served"),
        "{message}"
    );
}

#[test]
fn initialize_guides_in_the_profiles_own_names() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward_with(&["--profile", "python"], &[("LIBTMUX_MCP_WAIT_MAX_SECONDS", "12")]);
    let reply = client.initialize();
    let text = reply["instructions"].as_str().unwrap_or_default().to_string();
    assert!(text.len() <= 2048, "{} bytes", text.len());
    for said in [
        "--profile python",
        "pane_id first",
        "inspect, manage, execute (of",
        "suppress_history=true",
        "at most (LIBTMUX_MCP_WAIT_MAX_SECONDS)",
        "after 12 s",
    ] {
        assert!(text.contains(said), "{said:?} missing from {text}");
    }
    for unserved in ["isCaller", "force", "truncatedLines", "max_lines"] {
        assert!(!text.contains(unserved), "{unserved:?} is not this profile's: {text}");
    }
}
