//! Shared test helpers: a private tmux server per test, a client that drives the
//! built `paneward` binary over a real stdio pipe, and schema checks against the
//! files in `schemas/` (read from disk, independent of the server's own copy).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod asking;
pub mod control;
pub mod descriptors;
pub mod differential;
pub mod http;
pub mod sshd;
pub mod terminal;
pub mod waits;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use paneward::catalog::schema::strict_copy;
use paneward::runtime::reply_text;
use serde_json::{json, Value};

/// How long any wait in a test may take before it fails instead of hanging.
pub const PATIENCE: Duration = Duration::from_secs(20);

static NEXT_SERVER: AtomicUsize = AtomicUsize::new(0);

/// What a test's tmux server starts with: no user config, one session `main` of 80x24
/// running `/bin/sh`.
pub const FIRST_SESSION: [&str; 11] = [
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "main",
    "-x",
    "80",
    "-y",
    "24",
    "/bin/sh",
];

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Polls `check` until it returns `Some`, or fails the test after [`PATIENCE`].
#[track_caller]
pub fn wait_for<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    wait_showing(what, || check().ok_or_else(String::new))
}

/// [`wait_for`] whose `check` says, when it fails, what it saw instead (`Err`); the
/// last of those is in the failure message.
#[track_caller]
pub fn wait_showing<T>(what: &str, mut check: impl FnMut() -> Result<T, String>) -> T {
    let start = Instant::now();
    loop {
        let seen = match check() {
            Ok(value) => return value,
            Err(seen) => seen,
        };
        assert!(start.elapsed() < PATIENCE, "timed out waiting for {what}{seen}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A tmux server on a private socket (`tmux -L <unique name>`), killed and its socket
/// removed on drop. It starts with one session `main` running `/bin/sh`, no user config.
pub struct TmuxServer {
    pub name: String,
    socket_path: Option<PathBuf>,
}

impl TmuxServer {
    #[track_caller]
    pub fn start() -> Self {
        let name = format!(
            "pw-{}-{}",
            std::process::id(),
            NEXT_SERVER.fetch_add(1, Ordering::SeqCst)
        );
        let mut server = Self {
            name,
            socket_path: None,
        };
        server.tmux(&FIRST_SESSION);
        server.tmux(&["set-option", "-g", "default-shell", "/bin/sh"]);
        server.tmux(&["set-option", "-g", "default-command", "/bin/sh"]);
        server.socket_path = Some(PathBuf::from(
            server.tmux(&["display-message", "-p", "#{socket_path}"]).trim(),
        ));
        server
    }

    /// A server on socket `name` that paneward is to start (none runs there yet): the
    /// handle only kills it, and removes its socket, on drop.
    pub fn to_be_started(name: String) -> Self {
        Self {
            name,
            socket_path: None,
        }
    }

    /// A socket name no other test uses.
    pub fn unique_name(prefix: &str) -> String {
        format!(
            "{prefix}{}-{}",
            std::process::id(),
            NEXT_SERVER.fetch_add(1, Ordering::SeqCst)
        )
    }

    /// A `tmux` command aimed at this server, with a minimal environment.
    pub fn command(&self) -> Command {
        let mut command = Command::new("tmux");
        command.arg("-L").arg(&self.name);
        clean_env(&mut command);
        command
    }

    /// Runs tmux with `args`; fails the test if tmux fails.
    #[track_caller]
    pub fn tmux(&self, args: &[&str]) -> String {
        let output = self.command().args(args).output().expect("run tmux");
        assert!(
            output.status.success(),
            "tmux {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Runs tmux with `args` and returns whether it succeeded.
    pub fn try_tmux(&self, args: &[&str]) -> bool {
        self.command().args(args).output().is_ok_and(|o| o.status.success())
    }

    /// The first pane of session `main`.
    pub fn first_pane(&self) -> String {
        self.tmux(&["display-message", "-p", "-t", "main:0.0", "#{pane_id}"])
            .trim()
            .to_string()
    }

    /// Opens a window running `shell_command` (through /bin/sh) and returns its pane id.
    pub fn window_running(&self, shell_command: &str) -> String {
        self.tmux(&[
            "new-window",
            "-d",
            "-P",
            "-F",
            "#{pane_id}",
            "-t",
            "main:",
            shell_command,
        ])
        .trim()
        .to_string()
    }

    /// A new window running bash without startup files (prompt `bash$ `), once its
    /// prompt shows: for what `/bin/sh` cannot do (`read -s`).
    pub fn bash_pane(&self) -> String {
        let pane = self.window_running("PS1='bash$ ' exec bash --norc --noprofile -i");
        self.wait_for_text(&pane, "bash$");
        pane
    }

    /// The fixture drawing `agent`'s screens (`tests/fixtures/agents/fake-agent.sh`) as
    /// the program `program`, started by an interactive bash as a job of its own (as a
    /// person starts an agent): its pane, and the file where it says "working" or "idle".
    pub fn fake_agent(&self, scratch: &Scratch, agent: &str, program: &str) -> (String, String) {
        let pane = self.bash_pane();
        let phase = scratch.path("phase");
        let script = root().join("tests/fixtures/agents/fake-agent.sh");
        let line = format!("(exec -a {program} bash {} {agent} {phase})", script.display());
        self.tmux(&["send-keys", "-t", &pane, "-l", &line]);
        self.tmux(&["send-keys", "-t", &pane, "Enter"]);
        self.wait_for_value(&pane, "#{pane_current_command}", program);
        self.wait_for_text(&pane, "(fixture)");
        (pane, phase)
    }

    /// Opens a window that runs `shell_command` and then stays open, and returns its pane
    /// id once `marker` shows on its screen.
    #[track_caller]
    pub fn window_showing(&self, shell_command: &str, marker: &str) -> String {
        let pane = self.window_running(&format!("{shell_command}; exec sleep 100000"));
        self.wait_for_text(&pane, marker);
        pane
    }

    /// Splits `pane` (`direction` is `-h` or `-v`) with a new pane running `shell_command`
    /// and returns the new pane's id; the active pane stays where it was.
    pub fn split(&self, pane: &str, direction: &str, shell_command: &str) -> String {
        self.tmux(&[
            "split-window",
            direction,
            "-d",
            "-P",
            "-F",
            "#{pane_id}",
            "-t",
            pane,
            shell_command,
        ])
        .trim()
        .to_string()
    }

    /// Waits until `pane` is dead and tmux knows its exit status is `status`.
    ///
    /// `pane_dead` can read 1 before tmux has reaped the program, and a tmux built with
    /// libutempter can miss that SIGCHLD for good (tmux#311, see docs/tmux-quirks.md):
    /// while the pane reads dead without a status, nudge the server with SIGCHLD.
    #[track_caller]
    pub fn wait_for_exit_status(&self, pane: &str, status: u8) {
        let wanted = status.to_string();
        wait_for(&format!("pane {pane} to die with status {status}"), || {
            let state = self.pane_value(pane, "#{pane_dead}:#{pane_dead_status}:#{pid}");
            let mut fields = state.split(':');
            let (dead, known, server_pid) = (fields.next()?, fields.next()?, fields.next()?);
            if dead == "1" && known.is_empty() {
                let nudged = Command::new("kill").args(["-CHLD", server_pid]).status();
                assert!(nudged.is_ok_and(|s| s.success()), "kill -CHLD {server_pid}");
            }
            (dead == "1" && known == wanted).then_some(())
        });
    }

    /// Opens a window whose program prints `bye` and exits with `status`, kept by
    /// `remain-on-exit`; returns its pane id once tmux knows the status.
    #[track_caller]
    pub fn dead_pane(&self, status: u8) -> String {
        self.tmux(&["set-option", "-g", "remain-on-exit", "on"]);
        // The program waits for a line before exiting, so its output is on screen first
        // (tmux drops what a program prints just before it exits).
        let pane = self.window_running(&format!("echo bye; read line; exit {status}"));
        self.wait_for_text(&pane, "bye");
        self.tmux(&["send-keys", "-t", &pane, "Enter"]);
        self.wait_for_exit_status(&pane, status);
        pane
    }

    /// The visible text of `pane`, as tmux itself captures it.
    pub fn capture(&self, pane: &str) -> String {
        self.tmux(&["capture-pane", "-p", "-t", pane])
    }

    /// Waits until `pane` shows `text` on its visible screen.
    #[track_caller]
    pub fn wait_for_text(&self, pane: &str, text: &str) {
        // The screen as it was is what tells a slow shell from a lost line.
        wait_showing(&format!("{text:?} in pane {pane}"), || {
            let screen = self.capture(pane);
            if screen.contains(text) {
                Ok(())
            } else {
                Err(format!("; its screen:\n{screen}"))
            }
        });
    }

    /// Waits until the output of a typed `echo WORD` shows in `pane`: `word` twice on the
    /// screen, the typed line and its output. A line typed ahead of a shell still
    /// starting (or still running the line before) is echoed at once, and its output
    /// then follows a prompt rather than a newline, so "\nWORD" would miss it.
    #[track_caller]
    pub fn wait_for_echo(&self, pane: &str, word: &str) {
        wait_for(&format!("the output of echo {word} in pane {pane}"), || {
            (self.capture(pane).matches(word).count() >= 2).then_some(())
        });
    }

    /// Starts paneward on this server with extra command-line arguments and environment.
    pub fn paneward_with(&self, args: &[&str], env: &[(&str, &str)]) -> Client {
        let mut all = vec!["-L", self.name.as_str()];
        all.extend_from_slice(args);
        Client::spawn(&all, env)
    }

    /// Starts paneward on this server and completes the MCP handshake.
    pub fn paneward(&self) -> Client {
        let mut client = self.paneward_with(&[], &[]);
        client.initialize();
        client
    }

    /// [`TmuxServer::paneward`] whose control client attaches to a session where the
    /// policy allows (`--no-hidden-client`): the attaching client's own tests.
    pub fn paneward_attaching(&self) -> Client {
        let mut client = self.paneward_with(&["--no-hidden-client"], &[]);
        client.initialize();
        client
    }
}

impl Drop for TmuxServer {
    fn drop(&mut self) {
        if self.socket_path.is_none() {
            // A server paneward started: where its socket is, if it runs.
            let path = self
                .command()
                .args(["display-message", "-p", "#{socket_path}"])
                .output();
            self.socket_path = path
                .ok()
                .filter(|o| o.status.success())
                .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
        }
        let _ = self.command().arg("kill-server").output();
        // tmux 3.3a leaves its socket file behind after kill-server.
        if let Some(path) = &self.socket_path {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The variable that runs every paneward the tests start without control mode:
/// `native` (tmux's socket protocol per call) or `subprocess` (a tmux process per call).
/// CI runs the tmux-facing tests once more with it set (see `.ci/run`).
pub const FORCED_TRANSPORT_VAR: &str = "PANEWARD_TEST_TRANSPORT";

/// The forced transport, if the tests run with one.
pub fn forced_transport_name() -> Option<String> {
    std::env::var(FORCED_TRANSPORT_VAR).ok().filter(|v| !v.is_empty())
}

/// Turns control mode (and for `subprocess` the native client) off in `command`, as
/// [`FORCED_TRANSPORT_VAR`] asks.
fn forced_transport(command: &mut Command) {
    match forced_transport_name().as_deref() {
        None => {}
        Some("native") => {
            command.env("PANEWARD_NO_CONTROL_MODE", "1");
        }
        Some("subprocess") => {
            command
                .env("PANEWARD_NO_CONTROL_MODE", "1")
                .env("PANEWARD_NO_NATIVE_CLIENT", "1");
        }
        Some(other) => panic!("{FORCED_TRANSPORT_VAR}={other}: use native or subprocess"),
    }
}

/// Clears the environment but for what tmux and a shell need, so that an outer tmux
/// (`TMUX`, `TMUX_PANE`) or user settings never leak into a test.
pub fn clean_env(command: &mut Command) {
    command.env_clear();
    for key in ["PATH", "HOME", "USER", "LOGNAME"] {
        if let Ok(value) = std::env::var(key) {
            command.env(key, value);
        }
    }
    command.env("TERM", "xterm-256color").env("LC_ALL", "C.UTF-8");
}

/// The lines `stdout` produces, read on a thread of their own so that a test can wait
/// for them with a timeout instead of hanging.
pub fn line_channel(stdout: ChildStdout) -> Receiver<String> {
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// The strings of a JSON array (a reply's `lines`, a list of ids).
pub fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("a JSON array")
        .iter()
        .map(|item| item.as_str().expect("a string").to_string())
        .collect()
}

/// Which text a server writes beside a structured result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextStyle {
    /// paneward's own rendering (`runtime::reply_text::render`).
    Compact,
    /// The compact JSON, as libtmux-mcp's FastMCP and `tmux-mcp`'s rmcp write it
    /// (`--profile python`, `--profile libtmux`).
    Json,
}

/// Fails the test unless the text of a successful `CallToolResult` is what paneward
/// writes beside its structured content: the model's text, or the JSON for a profile
/// that mirrors another server.
#[track_caller]
pub fn assert_text_of(result: &Value, style: TextStyle) {
    let structured = &result["structuredContent"];
    let text = result["content"][0]["text"].as_str().expect("a text block");
    match style {
        TextStyle::Json => assert_eq!(
            &serde_json::from_str::<Value>(text).expect("the text is JSON"),
            structured
        ),
        TextStyle::Compact => assert_eq!(text, reply_text::render(structured), "the text of {structured}"),
    }
}

/// The first key or scalar of `structured` that `text` does not hold (a string as
/// written or as a JSON string, a number by its digits), if any: a text that holds
/// none missing keeps every fact of the structured content.
pub fn fact_missing_from(text: &str, structured: &Value) -> Option<String> {
    let holds = |s: &str| text.contains(s) || text.contains(&Value::from(s).to_string());
    match structured {
        Value::Object(fields) => fields.iter().find_map(|(key, value)| {
            if holds(key) {
                fact_missing_from(text, value)
            } else {
                Some(format!("the key {key:?}"))
            }
        }),
        Value::Array(items) => items.iter().find_map(|item| fact_missing_from(text, item)),
        Value::String(s) => (!holds(s)).then(|| format!("the string {s:?}")),
        scalar => (!text.contains(&scalar.to_string())).then(|| format!("the value {scalar}")),
    }
}

/// Fails the test unless `line` is a JSON-RPC 2.0 message; returns it parsed.
#[track_caller]
pub fn assert_json_rpc(line: &str) -> Value {
    let message: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {line}"));
    assert_eq!(
        message["jsonrpc"], "2.0",
        "stdout holds JSON that is not JSON-RPC: {line}"
    );
    message
}

/// The built `paneward` binary, driven over a real stdio pipe.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: i64,
    /// Which text its successful replies carry (`--profile python` keeps the JSON).
    reply_text: TextStyle,
}

impl Client {
    /// Spawns the binary with `args` and `env` on top of a clean environment.
    pub fn spawn(args: &[&str], env: &[(&str, &str)]) -> Self {
        Self::spawn_with_stderr(args, env, Stdio::inherit())
    }

    /// [`Client::spawn`] with paneward's standard error (its log) going to `stderr`.
    pub fn spawn_with_stderr(args: &[&str], env: &[(&str, &str)], stderr: Stdio) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
        clean_env(&mut command);
        command.env("PANEWARD_LOG", "error");
        forced_transport(&mut command);
        for (key, value) in env {
            command.env(key, value);
        }
        Self::spawn_command(command, args, stderr)
    }

    /// Spawns another MCP server, `program` with `args` and `env` beside the few
    /// variables a host passes on (the differential suite's libtmux-mcp).
    pub fn spawn_program(program: &Path, args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(program);
        clean_env(&mut command);
        command.envs(env.iter().copied());
        Self::spawn_command(command, args, Stdio::null())
    }

    fn spawn_command(mut command: Command, args: &[&str], stderr: Stdio) -> Self {
        // The python and libtmux profiles write their upstream's JSON text.
        let json_profile = |name: &str| {
            args.windows(2).any(|pair| pair == ["--profile", name])
                || args.contains(&format!("--profile={name}").as_str())
                || command
                    .get_envs()
                    .any(|(k, v)| k == "PANEWARD_PROFILE" && v.is_some_and(|v| v == name))
        };
        let reply_text = if json_profile("python") || json_profile("libtmux") {
            TextStyle::Json
        } else {
            TextStyle::Compact
        };
        let mut child = command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("spawn paneward");
        let lines = line_channel(child.stdout.take().expect("stdout"));
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            next_id: 1,
            reply_text,
        }
    }

    /// Spawns the binary with `args` and only the variables MCP hosts pass on by default
    /// (the official SDKs keep HOME, LOGNAME, PATH, SHELL, TERM and USER): no locale.
    pub fn spawn_like_a_host(args: &[&str]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
        command.env_clear();
        for key in ["HOME", "LOGNAME", "PATH", "SHELL", "USER"] {
            if let Ok(value) = std::env::var(key) {
                command.env(key, value);
            }
        }
        command.env("TERM", "xterm-256color").env("PANEWARD_LOG", "error");
        forced_transport(&mut command);
        Self::spawn_command(command, args, Stdio::inherit())
    }

    /// Writes one raw line to the server.
    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    /// Sends a JSON message.
    pub fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    /// The next line the server writes, raw, or `None` at EOF; fails after [`PATIENCE`].
    pub fn next_raw_line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => panic!("paneward did not answer within {PATIENCE:?}"),
        }
    }

    /// The next line the server writes within `wait`, raw; `None` if none came (or at EOF).
    pub fn next_raw_line_within(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// Waits for the response to request `id`, skipping notifications.
    pub fn response(&mut self, id: &Value) -> Value {
        self.response_line(id).1
    }

    /// Waits for the response to request `id`, skipping notifications; returns the line
    /// as written (to measure it) and parsed.
    pub fn response_line(&mut self, id: &Value) -> (String, Value) {
        loop {
            let line = self.next_raw_line().expect("paneward closed stdout");
            let message = assert_json_rpc(&line);
            if message.get("id") == Some(id) {
                return (line, message);
            }
        }
    }

    /// Sends a request and returns the whole JSON-RPC response.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = json!(self.next_id);
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(&id)
    }

    /// `initialize` with `version`, then `notifications/initialized`; returns the result.
    pub fn initialize_with(&mut self, version: &str) -> Value {
        let response = self.request(
            "initialize",
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "paneward-tests", "version": "0"}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        response["result"].clone()
    }

    pub fn initialize(&mut self) -> Value {
        self.initialize_with("2025-06-18")
    }

    /// `tools/list`, the result object.
    pub fn list_tools(&mut self) -> Value {
        let response = self.request("tools/list", json!({}));
        response["result"].clone()
    }

    /// `tools/call`; returns the `CallToolResult`.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        assert!(
            response.get("error").is_none(),
            "tools/call {tool} got a protocol error: {response}"
        );
        response["result"].clone()
    }

    /// Calls `tool`, requires success, checks the reply against the tool's advertised
    /// output schema and its text against the structured content, and returns
    /// `structuredContent`.
    #[track_caller]
    pub fn call_ok(&mut self, tool: &str, arguments: Value) -> Value {
        let result = self.call(tool, arguments);
        assert_ne!(result["isError"], json!(true), "{tool} failed: {result}");
        let structured = result["structuredContent"].clone();
        assert_valid_output(tool, &structured);
        assert_text_of(&result, self.reply_text);
        structured
    }

    /// Calls `tool`, requires `isError: true`, and returns the error text.
    #[track_caller]
    pub fn call_err(&mut self, tool: &str, arguments: Value) -> String {
        let result = self.call(tool, arguments);
        assert_eq!(result["isError"], json!(true), "{tool} should have failed: {result}");
        result["content"][0]["text"].as_str().expect("error text").to_string()
    }

    /// Calls `tool`, requires `isError: true`, and returns the error's kind (from
    /// `_meta`, empty when none) and text.
    #[track_caller]
    pub fn call_failed(&mut self, tool: &str, arguments: Value) -> (String, String) {
        let result = self.call(tool, arguments);
        assert_eq!(result["isError"], json!(true), "{tool} should have failed: {result}");
        let kind = result["_meta"]["paneward/error"]["kind"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let text = result["content"][0]["text"].as_str().unwrap_or_default().to_string();
        (kind, text)
    }

    /// Closes stdin, reads stdout to its end, failing the test on any line that is not
    /// a JSON-RPC message, and returns the exit status.
    pub fn close(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        // Nothing but protocol may reach stdout, not even on the way out.
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(line) => {
                    assert_json_rpc(&line);
                }
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("paneward kept stdout open after EOF"),
            }
        }
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(start.elapsed() < PATIENCE, "paneward did not exit after EOF");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Client {
    /// Ends paneward with `signal`, as an MCP host that restarts or closes its server
    /// does, whatever it is doing, and waits for it to exit.
    /// Sends paneward `signal` and goes on (SIGSTOP, say).
    pub fn signal(&self, signal: rustix::process::Signal) {
        rustix::process::kill_process(rustix::process::Pid::from_child(&self.child), signal).expect("signal paneward");
    }

    pub fn end_with(mut self, signal: rustix::process::Signal) {
        rustix::process::kill_process(rustix::process::Pid::from_child(&self.child), signal).expect("signal paneward");
        self.child.wait().expect("wait for paneward");
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The tool file `schemas/tools/<tool>.json`, parsed.
pub fn tool_file(tool: &str) -> Value {
    let path = root().join("schemas/tools").join(format!("{tool}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("tool file is JSON")
}

/// The safety tiers, lowest first.
pub const TIERS: [&str; 3] = ["readonly", "mutating", "destructive"];

/// The names of the tool files in `schemas/tools` whose tier is one of `tiers`, sorted.
pub fn tools_of_tier(tiers: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("schemas/tools"))
        .unwrap()
        .map(|entry| {
            entry
                .unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|stem| {
            let tool = tool_file(stem);
            // A tool is listed by the name inside its file, which the file is named after.
            assert_eq!(tool["name"], json!(stem), "schemas/tools/{stem}.json");
            let tier = tool["tier"].as_str().unwrap();
            assert!(TIERS.contains(&tier), "{stem}: unknown tier {tier}");
            tiers.contains(&tier)
        })
        .collect();
    names.sort();
    names
}

/// Fails the test unless `value` validates against the output schema in the tool's file,
/// closed: a reply names no field its contract does not.
#[track_caller]
pub fn assert_valid_output(tool: &str, value: &Value) {
    let schema = strict_copy(&tool_file(tool)["outputSchema"]);
    let validator = jsonschema::validator_for(&schema).expect("output schema compiles");
    let problems: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(
        problems.is_empty(),
        "{tool} reply breaks its outputSchema: {problems:?}\nreply: {value}"
    );
}

/// The upstream pages the contracts were imported from, kept in the repository.
pub fn seeds_dir() -> PathBuf {
    root().join("schemas/upstream")
}

/// The JSON blocks of a seed page in [`seeds_dir`], in page order: fenced
/// ```json blocks, or (for the unfenced rendering) every top-level `{` … `}` block.
pub fn seed_blocks(file: &str) -> Vec<Value> {
    let path = seeds_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut blocks = Vec::new();
    if text.contains("```json") {
        for chunk in text.split("```json").skip(1) {
            let body = chunk.split("```").next().unwrap_or_default();
            blocks.push(serde_json::from_str(body).unwrap_or_else(|e| panic!("{file}: bad JSON block: {e}")));
        }
    } else {
        let mut rest = text.as_str();
        while let Some(start) = rest.find("\n{") {
            let candidate = &rest[start + 1..];
            let mut stream = serde_json::Deserializer::from_str(candidate).into_iter::<Value>();
            let value = stream.next().expect("a block").expect("block is JSON");
            let used = stream.byte_offset();
            blocks.push(value);
            rest = &candidate[used..];
        }
    }
    blocks
}

/// A private directory for files a test's panes write, removed on drop.
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    pub fn new() -> Self {
        let dir = std::env::temp_dir().join(format!(
            "paneward-test-{}-{}",
            std::process::id(),
            NEXT_SERVER.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        Self { dir }
    }

    /// A path inside the directory; shell-safe (letters, digits, `-`, `/`, `.`).
    pub fn path(&self, name: &str) -> String {
        self.dir.join(name).to_string_lossy().into_owned()
    }

    /// The file's bytes as text, or empty if it does not exist yet.
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(name)).unwrap_or_default()
    }

    /// Waits until the file holds at least `lines` complete lines, and returns it.
    #[track_caller]
    pub fn wait_for_lines(&self, name: &str, lines: usize) -> String {
        wait_for(&format!("{lines} lines in {name}"), || {
            let text = self.read(name);
            (text.matches('\n').count() >= lines).then_some(text)
        })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl TmuxServer {
    /// Opens a window whose pane appends every line typed into it, byte for byte, to
    /// `file`; returns the pane id.
    pub fn recorder(&self, file: &str) -> String {
        self.window_running(&format!(
            "while IFS= read -r line; do printf '%s\\n' \"$line\" >> {file}; done"
        ))
    }

    /// The value of a tmux format for `pane`, such as `#{pane_current_command}`; a session
    /// or window target reads its active pane.
    pub fn pane_value(&self, pane: &str, format: &str) -> String {
        self.tmux(&["display-message", "-p", "-t", pane, format])
            .trim_end_matches('\n')
            .to_string()
    }

    /// Waits until a format for `pane` has `value`.
    #[track_caller]
    pub fn wait_for_value(&self, pane: &str, format: &str, value: &str) {
        wait_for(&format!("{format} = {value:?} in pane {pane}"), || {
            (self.pane_value(pane, format) == value).then_some(())
        });
    }

    /// Waits until the shell in `pane` sits idle at its prompt and tmux has named its
    /// window after it. A shell still starting changes things on its own while a test
    /// runs: its prompt appears on the screen, and tmux's automatic rename moves the
    /// window's name from `tmux` (the fork before it execs the shell) to `sh` up to half
    /// a second later. Read state that a test compares before and after only once this
    /// returns.
    #[track_caller]
    pub fn wait_for_prompt(&self, pane: &str) {
        let window = self.pane_value(pane, "#{window_id}");
        wait_for(&format!("the shell in pane {pane} at its prompt"), || {
            // The prompt moved the cursor off the first column; nothing was typed yet.
            let at_prompt = self.pane_value(pane, "#{pane_current_command} #{cursor_x}");
            let at_prompt = at_prompt.starts_with("sh ") && at_prompt != "sh 0";
            // A window target reads its active pane, the one the window is named after.
            let naming = self.pane_value(
                &window,
                "#{automatic-rename}|#{window_name}|#{E:automatic-rename-format}",
            );
            let named = naming.starts_with("0|") || naming.split('|').nth(1) == naming.split('|').nth(2);
            (at_prompt && named).then_some(())
        });
    }

    /// The `TMUX` value tmux gives programs in its panes: socket path, pid, session.
    pub fn tmux_env(&self) -> String {
        self.tmux(&["display-message", "-p", "#{socket_path},#{pid},0"])
            .trim()
            .to_string()
    }

    /// paneward started as if it ran in `caller`, a pane of this server, and initialized.
    pub fn paneward_in(&self, caller: &str) -> Client {
        let mut client = self.paneward_with(&[], &[("TMUX", &self.tmux_env()), ("TMUX_PANE", caller)]);
        client.initialize();
        client
    }
}
