//! Listing the tools a running MCP server advertises: start it as a child process,
//! speak JSON-RPC over its stdio (`initialize`, `notifications/initialized`, then every
//! page of `tools/list`), and stop it again. `paneward conform` and
//! `paneward-codegen import --from-server` both read servers through [`list_tools`].
//!
//! Only as much of MCP as that takes: requests the server sends us get "method not
//! found" (or an empty result for `ping`), notifications are read past. Every wait is
//! bounded, so a silent server cannot hang a CI job.

use std::ffi::OsStr;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The largest JSON-RPC line accepted from the server: a whole tools/list page fits
/// many times over, a server streaming garbage without newlines does not.
pub const MAX_LINE_BYTES: u64 = 64 * 1024 * 1024;
/// How long a server may take to exit once its stdin is closed before it is killed.
pub const EXIT_GRACE: Duration = Duration::from_secs(5);
/// A server that keeps handing out new cursors past this many pages is looping.
pub const MAX_PAGES: usize = 1000;
/// How much of the server's stderr an error quotes.
const STDERR_TAIL_BYTES: usize = 2000;
/// How much of a line that is not JSON-RPC an error quotes.
const EXCERPT_CHARS: usize = 200;
/// How often the exit of a server is polled while waiting for it.
const EXIT_POLL: Duration = Duration::from_millis(10);

/// What happens to the server's stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerStderr {
    /// It goes where ours goes, as the server writes it.
    Inherit,
    /// It is read, and its end is quoted in an error.
    Quote,
}

/// Who the client says it is, and how it waits.
#[derive(Debug, Clone)]
pub struct ListOptions<'a> {
    /// `clientInfo.name`, also named when refusing the server's own requests.
    pub client_name: &'a str,
    pub client_version: &'a str,
    /// The protocol revision offered in `initialize`; tools/list is the same in all.
    pub protocol_version: &'a str,
    /// How long the server may take to answer one request.
    pub reply_timeout: Duration,
    pub stderr: ServerStderr,
}

/// What the server said.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// The result of `initialize` (`serverInfo`, `protocolVersion`, …).
    pub initialized: Value,
    /// Every entry of every tools/list page, in order, unchecked.
    pub tools: Vec<Value>,
}

/// Why listing failed, and the end of the server's stderr when it was quoted.
#[derive(Debug)]
pub struct ListError {
    pub problem: Problem,
    /// Empty unless the stderr was [`ServerStderr::Quote`]d and the server wrote some.
    pub stderr_tail: String,
}

/// What went wrong while talking to the server.
#[derive(Debug)]
pub enum Problem {
    /// No program was given.
    NoCommand,
    /// The program could not be started.
    Start { program: String, error: std::io::Error },
    /// Writing to the server failed; it had exited, if `status` says so.
    Write {
        error: std::io::Error,
        status: Option<ExitStatus>,
    },
    /// No answer to `method` within the reply timeout.
    Timeout { method: String, after: Duration },
    /// The server closed its stdout (and exited, if `status` says so) while `method` was pending.
    Closed { method: String, status: Option<ExitStatus> },
    /// Reading the server's stdout failed, or a line was longer than [`MAX_LINE_BYTES`].
    Read { method: String, detail: String },
    /// The server wrote a line that is not JSON; an excerpt of it.
    NotJsonRpc { excerpt: String },
    /// The server answered `method` with a JSON-RPC error.
    Failed { method: String, error: Value },
    /// The answer to `method` has neither `result` nor `error`.
    NoResult { method: String },
    /// A tools/list result without a `tools` array.
    NoToolsArray,
    /// tools/list handed out this cursor a second time.
    CursorRepeated(String),
    /// tools/list returned a `nextCursor` that is not a string.
    CursorNotString,
    /// tools/list still had more pages after [`MAX_PAGES`].
    TooManyPages,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NoCommand => f.write_str("no server command was given"),
            Problem::Start { program, error } => write!(f, "cannot start `{program}`: {error}"),
            Problem::Write {
                status: Some(status), ..
            } => {
                write!(f, "the server exited ({status}) instead of answering")
            }
            Problem::Write { error, status: None } => write!(f, "cannot write to the server: {error}"),
            Problem::Timeout { method, after } => {
                write!(f, "no answer to `{method}` within {} s", after.as_secs_f64())
            }
            Problem::Closed { method, status } => {
                let exited = status.map(|s| format!(" and exited ({s})")).unwrap_or_default();
                write!(f, "the server closed its stdout{exited} before answering `{method}`")
            }
            Problem::Read { method, detail } => write!(f, "while waiting for `{method}`: {detail}"),
            Problem::NotJsonRpc { excerpt } => {
                write!(
                    f,
                    "the server wrote something that is not JSON-RPC on stdout: {excerpt}"
                )
            }
            Problem::Failed { method, error } => {
                let message = error.get("message").and_then(Value::as_str).unwrap_or("(no message)");
                write!(f, "`{method}` failed: {message}")?;
                match error.get("code") {
                    Some(code) => write!(f, " (code {code})"),
                    None => Ok(()),
                }
            }
            Problem::NoResult { method } => write!(f, "the answer to `{method}` has neither result nor error"),
            Problem::NoToolsArray => f.write_str("the tools/list result has no `tools` array"),
            Problem::CursorRepeated(cursor) => write!(f, "tools/list handed out the cursor `{cursor}` twice"),
            Problem::CursorNotString => f.write_str("tools/list returned a `nextCursor` that is not a string"),
            Problem::TooManyPages => write!(f, "tools/list still had more pages after {MAX_PAGES}"),
        }
    }
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.problem)?;
        let tail = self.stderr_tail.trim_end();
        if !tail.trim_start().is_empty() {
            write!(f, "\nthe server's stderr ended with:\n{tail}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ListError {}

/// Starts `command` (program, then arguments), initializes, lists every page of its
/// tools, and stops it (closing its stdin, killing it after [`EXIT_GRACE`]).
///
/// # Errors
/// The command cannot be started, exits or stops answering, answers with a JSON-RPC
/// error, writes something other than JSON-RPC on stdout, or paginates without end.
pub fn list_tools<S: AsRef<OsStr>>(command: &[S], options: &ListOptions<'_>) -> Result<Listing, ListError> {
    let fail = |problem| ListError {
        problem,
        stderr_tail: String::new(),
    };
    let (program, args) = command.split_first().ok_or_else(|| fail(Problem::NoCommand))?;
    let mut session = Session::start(program.as_ref(), args, options).map_err(fail)?;
    let result = session.list_all();
    let stderr_tail = session.stop();
    result.map_err(|problem| ListError { problem, stderr_tail })
}

/// A running server and the pipes to it.
struct Session<'a> {
    options: &'a ListOptions<'a>,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<Vec<u8>, String>>,
    stderr: Option<Receiver<String>>,
    next_id: u64,
}

impl<'a> Session<'a> {
    fn start<S: AsRef<OsStr>>(program: &OsStr, args: &[S], options: &'a ListOptions<'a>) -> Result<Self, Problem> {
        let stderr = match options.stderr {
            ServerStderr::Inherit => Stdio::inherit(),
            ServerStderr::Quote => Stdio::piped(),
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|error| Problem::Start {
                program: program.to_string_lossy().into_owned(),
                error,
            })?;
        let (sender, lines) = mpsc::channel();
        if let Some(stdout) = child.stdout.take() {
            std::thread::spawn(move || forward_lines(stdout, &sender));
        }
        let stderr = child.stderr.take().map(|pipe| {
            let (sender, tail) = mpsc::channel();
            std::thread::spawn(move || {
                let _ = sender.send(read_tail(pipe));
            });
            tail
        });
        Ok(Self {
            options,
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            next_id: 1,
        })
    }

    fn list_all(&mut self) -> Result<Listing, Problem> {
        let initialized = self.request(
            "initialize",
            json!({
                "protocolVersion": self.options.protocol_version,
                "capabilities": {},
                "clientInfo": {"name": self.options.client_name, "version": self.options.client_version},
            }),
        )?;
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen_cursors = std::collections::HashSet::new();
        for _ in 0..MAX_PAGES {
            let params = cursor.as_ref().map_or_else(|| json!({}), |c| json!({"cursor": c}));
            let mut page = self.request("tools/list", params)?;
            let Some(Value::Array(entries)) = page.get_mut("tools").map(Value::take) else {
                return Err(Problem::NoToolsArray);
            };
            tools.extend(entries);
            match page.get("nextCursor") {
                None | Some(Value::Null) => return Ok(Listing { initialized, tools }),
                Some(Value::String(next)) if seen_cursors.insert(next.clone()) => cursor = Some(next.clone()),
                Some(Value::String(next)) => return Err(Problem::CursorRepeated(next.clone())),
                Some(_) => return Err(Problem::CursorNotString),
            }
        }
        Err(Problem::TooManyPages)
    }

    fn send(&mut self, message: &Value) -> Result<(), Problem> {
        let mut line = message.to_string();
        line.push('\n');
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("stdin is closed")),
        };
        written.map_err(|error| Problem::Write {
            error,
            status: self.exit_status_soon(),
        })
    }

    /// The server's exit status, if it exits within [`EXIT_GRACE`] (its pipes close a
    /// moment before it can be reaped).
    fn exit_status_soon(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + EXIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(EXIT_POLL),
                _ => return None,
            }
        }
    }

    /// Sends a request and waits for its response, answering the server's own requests
    /// meanwhile.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, Problem> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let deadline = Instant::now() + self.options.reply_timeout;
        loop {
            let message = self.next_message(method, deadline)?;
            if let (Some(request_id), Some(their_method)) = (message.get("id"), message.get("method")) {
                let reply = if their_method == "ping" {
                    json!({"jsonrpc": "2.0", "id": request_id, "result": {}})
                } else {
                    let refusal = format!("{} only lists tools", self.options.client_name);
                    json!({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": refusal}})
                };
                self.send(&reply)?;
                continue;
            }
            if message.get("method").is_some() || message.get("id") != Some(&json!(id)) {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(Problem::Failed {
                    method: method.to_string(),
                    error: error.clone(),
                });
            }
            return match message {
                Value::Object(mut object) if object.contains_key("result") => {
                    Ok(object.remove("result").unwrap_or_default())
                }
                _ => Err(Problem::NoResult {
                    method: method.to_string(),
                }),
            };
        }
    }

    /// The next JSON message from the server, skipping blank lines.
    fn next_message(&mut self, method: &str, deadline: Instant) -> Result<Value, Problem> {
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(wait) {
                Ok(Ok(line)) => line,
                Ok(Err(detail)) => {
                    return Err(Problem::Read {
                        method: method.to_string(),
                        detail,
                    })
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Problem::Timeout {
                        method: method.to_string(),
                        after: self.options.reply_timeout,
                    })
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Problem::Closed {
                        method: method.to_string(),
                        status: self.exit_status_soon(),
                    })
                }
            };
            if line.trim_ascii().is_empty() {
                continue;
            }
            return serde_json::from_slice(&line).map_err(|_| Problem::NotJsonRpc {
                excerpt: crate::excerpt(String::from_utf8_lossy(&line).trim(), EXCERPT_CHARS),
            });
        }
    }

    /// Closes stdin, gives the server [`EXIT_GRACE`] to exit, kills it otherwise;
    /// returns the end of its stderr when that is quoted.
    fn stop(mut self) -> String {
        drop(self.stdin.take());
        if self.exit_status_soon().is_none() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        // A grandchild may still hold stderr open: do not wait for it forever.
        self.stderr
            .take()
            .and_then(|tail| tail.recv_timeout(EXIT_GRACE).ok())
            .unwrap_or_default()
    }
}

impl Drop for Session<'_> {
    /// A session dropped without [`Session::stop`] (a panic) still ends its server.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Sends each line of `stdout` (at most [`MAX_LINE_BYTES`]) until it closes, fails, or
/// the receiver is gone.
fn forward_lines(stdout: impl Read, sender: &mpsc::Sender<Result<Vec<u8>, String>>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        let item = match (&mut reader).take(MAX_LINE_BYTES + 1).read_until(b'\n', &mut line) {
            Ok(0) => return,
            Ok(n) if n as u64 > MAX_LINE_BYTES => Err(format!("a line longer than {MAX_LINE_BYTES} bytes")),
            Ok(_) => Ok(line),
            Err(e) => Err(format!("cannot read the server's stdout: {e}")),
        };
        let failed = item.is_err();
        if sender.send(item).is_err() || failed {
            return;
        }
    }
}

/// The last [`STDERR_TAIL_BYTES`] of `pipe`, read until it closes.
fn read_tail(mut pipe: impl Read) -> String {
    let mut text = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n @ 1..) = pipe.read(&mut chunk) {
        text.extend_from_slice(&chunk[..n]);
        if text.len() > 2 * STDERR_TAIL_BYTES {
            text.drain(..text.len() - STDERR_TAIL_BYTES);
        }
    }
    let start = text.len().saturating_sub(STDERR_TAIL_BYTES);
    String::from_utf8_lossy(&text[start..]).into_owned()
}
