//! A minimal MCP client for one server process on stdio: enough to initialize and
//! list tools, with every wait bounded so a silent server cannot hang a CI job.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The longest line accepted from the server; a tools/list page is far smaller.
const MAX_LINE_BYTES: u64 = 64 * 1024 * 1024;

/// How long a server may take to exit once its standard input is closed.
const EXIT_GRACE: Duration = Duration::from_secs(5);

/// The longest excerpt of server output quoted in an error.
const EXCERPT_CHARS: usize = 200;

/// A server process spoken to over its standard input and output.
pub struct Peer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<String, String>>,
    next_id: u64,
    timeout: Duration,
}

impl Peer {
    /// Starts `command` (program and arguments) with piped stdin/stdout; its stderr is ours.
    ///
    /// # Errors
    /// No command, or it cannot be started.
    pub fn spawn(command: &[OsString], timeout: Duration) -> Result<Self, String> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| "no server command was given".to_string())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.to_string_lossy()))?;
        let stdout = child.stdout.take().ok_or("the server's stdout is not piped")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || forward_lines(stdout, &sender));
        Ok(Self {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 1,
            timeout,
        })
    }

    /// Sends a request and returns its `result`.
    ///
    /// # Errors
    /// The server answered with an error, wrote something that is not JSON-RPC, closed
    /// its output, or did not answer within the timeout.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let deadline = Instant::now() + self.timeout;
        loop {
            let message = self.next_message(method, deadline)?;
            if message.get("method").is_some() {
                self.answer_server_message(&message)?;
                continue;
            }
            if message.get("id") != Some(&json!(id)) {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(format!(
                    "the server answered {method} with an error: {}",
                    excerpt(error)
                ));
            }
            return message.get("result").cloned().ok_or_else(|| {
                format!(
                    "the answer to {method} has neither result nor error: {}",
                    excerpt(&message)
                )
            });
        }
    }

    /// Sends a notification.
    ///
    /// # Errors
    /// The server's standard input is closed.
    pub fn notify(&mut self, method: &str) -> Result<(), String> {
        self.send(&json!({"jsonrpc": "2.0", "method": method}))
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("the server's stdin is closed")?;
        let mut line = message.to_string();
        line.push('\n');
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot write to the server: {e}"))
    }

    fn next_message(&mut self, method: &str, deadline: Instant) -> Result<Value, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        let line = match self.lines.recv_timeout(wait) {
            Ok(line) => line?,
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "no answer to {method} within {} s (see --timeout)",
                    self.timeout.as_secs_f64()
                ))
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(format!("the server closed its output while {method} was pending"))
            }
        };
        serde_json::from_str(&line)
            .map_err(|e| format!("the server wrote a line that is not JSON ({e}): {}", cut(&line)))
    }

    /// Pings are answered; other server requests get method-not-found; notifications
    /// are read past.
    fn answer_server_message(&mut self, message: &Value) -> Result<(), String> {
        let Some(id) = message.get("id") else {
            return Ok(());
        };
        let reply = if message.get("method") == Some(&json!("ping")) {
            json!({"jsonrpc": "2.0", "id": id, "result": {}})
        } else {
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "not supported by paneward conform"}})
        };
        self.send(&reply)
    }

    /// Closes the server's input and waits (bounded) for it to exit, then kills it.
    pub fn close(mut self) {
        drop(self.stdin.take());
        let start = Instant::now();
        while start.elapsed() < EXIT_GRACE {
            if matches!(self.child.try_wait(), Ok(Some(_)) | Err(_)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Sends each line of `stdout` (bounded) until it closes or the receiver is gone.
fn forward_lines(stdout: impl Read, sender: &mpsc::Sender<Result<String, String>>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        match (&mut reader).take(MAX_LINE_BYTES + 1).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let item = if line.len() as u64 > MAX_LINE_BYTES {
            Err(format!("the server wrote a line longer than {MAX_LINE_BYTES} bytes"))
        } else {
            String::from_utf8(line)
                .map(|text| text.trim_end_matches(['\n', '\r']).to_string())
                .map_err(|_| "the server wrote a line that is not UTF-8".to_string())
        };
        let failed = item.is_err();
        if sender.send(item).is_err() || failed {
            return;
        }
    }
}

fn excerpt(value: &Value) -> String {
    cut(&value.to_string())
}

/// At most [`EXCERPT_CHARS`] characters of `text`.
pub fn cut(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}
