//! Reading the contract a running MCP server advertises: start it as a child process,
//! speak JSON-RPC over its stdio (`initialize`, `notifications/initialized`, then every
//! page of `tools/list`), and stop it again.
//!
//! Only as much of MCP as that takes: requests the server sends us get "method not
//! found" (or an empty result for `ping`), notifications and stderr logs are ignored
//! except that the end of stderr is quoted when something goes wrong.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::ContractTool;
use crate::error::CodegenError;

/// How long the server may take to answer one request: long enough for a slow start on
/// a busy machine, short enough that a server that never answers is reported.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a server may take to exit once its stdin is closed before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(5);
/// A server that keeps handing out cursors past this many pages is looping.
const MAX_PAGES: usize = 1000;
/// The largest JSON-RPC line accepted from the server (a whole tools/list page).
const MAX_LINE_BYTES: u64 = 64 * 1024 * 1024;
/// How much of the server's stderr an error message quotes.
const STDERR_TAIL_BYTES: usize = 2000;
/// The protocol revision we offer; servers may counter-offer, tools/list is the same.
const PROTOCOL_VERSION: &str = "2025-06-18";

/// The tools `command` advertises, every page of them.
///
/// # Errors
/// The command cannot be started, exits or stops answering, answers with a JSON-RPC
/// error, writes something other than JSON-RPC on stdout, or lists a malformed tool.
pub fn list_tools(command: &[String]) -> Result<Vec<ContractTool>, CodegenError> {
    let label = PathBuf::from(format!("server `{}`", command.join(" ")));
    let Some((program, args)) = command.split_first() else {
        return Err(CodegenError::new(
            &label,
            "",
            "--from-server needs a command after `--`",
        ));
    };
    let mut session = Session::start(&label, program, args)?;
    let result = session.list_all();
    let stderr = session.stop();
    result.map_err(|mut error| {
        if !stderr.trim().is_empty() {
            error.message = format!(
                "{}\nthe server's stderr ended with:\n{}",
                error.message,
                stderr.trim_end()
            );
        }
        error
    })
}

/// A running server and the pipes to it.
struct Session {
    label: PathBuf,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<Vec<u8>, String>>,
    stderr: Receiver<String>,
    next_id: u64,
}

impl Session {
    fn start(label: &std::path::Path, program: &str, args: &[String]) -> Result<Self, CodegenError> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| CodegenError::new(label, "", format!("cannot start `{program}`: {e}")))?;
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        if let Some(stdout) = child.stdout.take() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut line = Vec::new();
                    match reader.by_ref().take(MAX_LINE_BYTES + 1).read_until(b'\n', &mut line) {
                        Ok(0) => break,
                        Ok(n) if n as u64 > MAX_LINE_BYTES => {
                            let _ = sender.send(Err(format!("a line longer than {MAX_LINE_BYTES} bytes")));
                            break;
                        }
                        Ok(_) => {
                            if sender.send(Ok(line)).is_err() {
                                break;
                            }
                        }
                        Err(e) => {
                            let _ = sender.send(Err(format!("cannot read the server's stdout: {e}")));
                            break;
                        }
                    }
                }
            });
        }
        let (stderr_sender, stderr) = mpsc::channel();
        if let Some(mut pipe) = child.stderr.take() {
            std::thread::spawn(move || {
                let mut text = Vec::new();
                let mut chunk = [0u8; 4096];
                while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                    text.extend_from_slice(&chunk[..n]);
                    if text.len() > 2 * STDERR_TAIL_BYTES {
                        text.drain(..text.len() - STDERR_TAIL_BYTES);
                    }
                }
                let start = text.len().saturating_sub(STDERR_TAIL_BYTES);
                let _ = stderr_sender.send(String::from_utf8_lossy(&text[start..]).into_owned());
            });
        }
        Ok(Self {
            label: label.to_path_buf(),
            child,
            stdin,
            lines,
            stderr,
            next_id: 1,
        })
    }

    fn error(&self, message: impl Into<String>) -> CodegenError {
        CodegenError::new(&self.label, "", message)
    }

    fn list_all(&mut self) -> Result<Vec<ContractTool>, CodegenError> {
        self.request(
            "initialize",
            json!({
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "paneward-codegen", "version": env!("CARGO_PKG_VERSION")},
            }),
        )?;
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen_cursors = Vec::new();
        for _ in 0..MAX_PAGES {
            let params = match &cursor {
                Some(cursor) => json!({"cursor": cursor}),
                None => json!({}),
            };
            let result = self.request("tools/list", params)?;
            let Some(Value::Array(page)) = result.get("tools") else {
                return Err(self.error("the tools/list result has no `tools` array"));
            };
            for tool in page {
                let pointer = format!("/tools/{}", tools.len());
                tools.push(super::json::tool_at(&self.label, &pointer, tool)?);
            }
            match result.get("nextCursor") {
                None | Some(Value::Null) => return Ok(tools),
                Some(Value::String(next)) if seen_cursors.contains(next) => {
                    return Err(self.error(format!("tools/list handed out the cursor `{next}` twice")));
                }
                Some(Value::String(next)) => {
                    seen_cursors.push(next.clone());
                    cursor = Some(next.clone());
                }
                Some(_) => return Err(self.error("tools/list returned a `nextCursor` that is not a string")),
            }
        }
        Err(self.error(format!("tools/list still had more pages after {MAX_PAGES}")))
    }

    fn send(&mut self, message: &Value) -> Result<(), CodegenError> {
        let mut line = message.to_string();
        line.push('\n');
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("stdin is closed")),
        };
        written.map_err(|e| match self.exit_status_soon() {
            Some(status) => self.error(format!("the server exited ({status}) instead of answering")),
            None => self.error(format!("cannot write to the server: {e}")),
        })
    }

    /// The server's exit status, if it exits within [`EXIT_GRACE`] (its pipes close a
    /// moment before it can be reaped).
    fn exit_status_soon(&mut self) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + EXIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }

    /// Sends a request and waits for its response, answering the server's own requests
    /// meanwhile.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, CodegenError> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(remaining) {
                Ok(Ok(line)) => line,
                Ok(Err(problem)) => return Err(self.error(format!("while waiting for `{method}`: {problem}"))),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.error(format!("no answer to `{method}` within {} s", REPLY_TIMEOUT.as_secs())))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = match self.exit_status_soon() {
                        Some(status) => format!(" and exited ({status})"),
                        None => String::new(),
                    };
                    return Err(self.error(format!(
                        "the server closed its stdout{status} before answering `{method}`"
                    )));
                }
            };
            let text = String::from_utf8_lossy(&line);
            if text.trim().is_empty() {
                continue;
            }
            let message: Value = serde_json::from_str(&text).map_err(|_| {
                let excerpt: String = text.trim().chars().take(120).collect();
                self.error(format!(
                    "the server wrote something that is not JSON-RPC on stdout: {excerpt}"
                ))
            })?;
            if let (Some(request_id), Some(their_method)) = (message.get("id"), message.get("method")) {
                let reply = if their_method == "ping" {
                    json!({"jsonrpc": "2.0", "id": request_id, "result": {}})
                } else {
                    json!({"jsonrpc": "2.0", "id": request_id,
                           "error": {"code": -32601, "message": "paneward-codegen only lists tools"}})
                };
                self.send(&reply)?;
                continue;
            }
            if message.get("id") != Some(&json!(id)) {
                continue;
            }
            if let Some(error) = message.get("error") {
                let text = error.get("message").and_then(Value::as_str).unwrap_or("(no message)");
                return Err(self.error(format!("`{method}` failed: {text}")));
            }
            return message
                .get("result")
                .cloned()
                .ok_or_else(|| self.error(format!("the answer to `{method}` has neither result nor error")));
        }
    }

    /// Closes stdin, gives the server a moment to exit, kills it otherwise; returns the
    /// end of its stderr.
    fn stop(mut self) -> String {
        drop(self.stdin.take());
        if self.exit_status_soon().is_none() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        // A grandchild may still hold stderr open: do not wait for it forever.
        self.stderr.recv_timeout(EXIT_GRACE).unwrap_or_default()
    }
}
