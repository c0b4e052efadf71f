//! A minimal MCP client over a child's stdio, timing each request from the write of
//! its line to the arrival of the response line (parsed only after the clock stops);
//! or over Streamable HTTP ([`crate::http`]) to `paneward serve --http`, timing from
//! the write of the POST to the arrival of the event that carries the response.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::http::HttpWire;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How to start one MCP server.
#[derive(Debug, Clone)]
pub struct Launch {
    pub program: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// The bearer token of a `serve --http` server, which says on standard error
    /// where it listens; `None`: MCP on the child's stdio.
    pub http_token: Option<String>,
}

impl Launch {
    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env_remove("TMUX")
            .env_remove("TMUX_PANE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if self.http_token.is_some() {
                Stdio::piped()
            } else if std::env::var_os("BENCH_STDERR").is_some() {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        command
    }
}

pub struct Server {
    child: Child,
    wire: Wire,
    line: Vec<u8>,
    next_id: u64,
    /// `notifications/resources/updated` read while waiting for responses: URI and
    /// when its line arrived.
    pub updates: Vec<(String, Instant)>,
}

enum Wire {
    Stdio {
        stdin: ChildStdin,
        stdout: BufReader<ChildStdout>,
    },
    Http(HttpWire),
}

/// What the handshake measured.
pub struct Started {
    pub server: Server,
    /// From spawn to the `tools/list` response.
    pub startup: Duration,
    /// Bytes of the `tools/list` response line.
    pub tools_list_bytes: usize,
    /// The tool names listed.
    pub tools: Vec<String>,
}

impl Server {
    /// Spawns the server, completes `initialize`, and lists its tools.
    ///
    /// # Errors
    /// The server could not start or did not answer as MCP.
    pub fn start(launch: &Launch) -> Result<Started, String> {
        let started = Instant::now();
        let mut child = launch
            .command()
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", launch.program))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("no pipes".into());
        };
        let wire = match &launch.http_token {
            None => Wire::Stdio {
                stdin,
                stdout: BufReader::with_capacity(1 << 20, stdout),
            },
            Some(token) => {
                let stderr = child.stderr.take().ok_or("no standard error")?;
                Wire::Http(HttpWire::connect(stderr, token)?)
            }
        };
        let mut server = Self {
            child,
            wire,
            line: Vec::new(),
            next_id: 1,
            updates: Vec::new(),
        };
        server.request(
            "initialize",
            &json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "paneward-bench", "version": "0"}}),
        )?;
        server.write(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        let (_, bytes, response) = server.request("tools/list", &json!({}))?;
        let startup = started.elapsed();
        let tools = response["result"]["tools"]
            .as_array()
            .map(|tools| {
                tools
                    .iter()
                    .filter_map(|t| t["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        Ok(Started {
            server,
            startup,
            tools_list_bytes: bytes,
            tools,
        })
    }

    fn write(&mut self, message: &Value) -> Result<(), String> {
        let stdin = match &mut self.wire {
            Wire::Stdio { stdin, .. } => stdin,
            Wire::Http(http) => return http.notify(message),
        };
        let mut text = message.to_string();
        text.push('\n');
        stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("writing to the server: {e}"))
    }

    /// Sends a request; returns its latency, the response line's size and the response.
    ///
    /// # Errors
    /// The server closed its output or wrote something that is not JSON.
    pub fn request(&mut self, method: &str, params: &Value) -> Result<(Duration, usize, Value), String> {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        if let Wire::Http(http) = &mut self.wire {
            return http.request(&message, id);
        }
        let started = Instant::now();
        self.write(&message)?;
        loop {
            self.line.clear();
            let read = self.read_line()?;
            let elapsed = started.elapsed();
            if read == 0 {
                return Err(format!("the server closed its output during {method}"));
            }
            let value: Value = serde_json::from_slice(&self.line)
                .map_err(|e| format!("the server wrote a line that is not JSON ({e})"))?;
            if value["id"].as_u64() == Some(id) {
                return Ok((elapsed, self.line.len(), value));
            }
            self.keep_update(&value);
        }
    }

    /// Appends the server's next stdout line to `self.line`; returns its length.
    fn read_line(&mut self) -> Result<usize, String> {
        match &mut self.wire {
            Wire::Stdio { stdout, .. } => stdout
                .read_until(b'\n', &mut self.line)
                .map_err(|e| format!("reading from the server: {e}")),
            Wire::Http(_) => Err("reading unrequested messages needs a stdio server".into()),
        }
    }

    fn keep_update(&mut self, message: &Value) {
        if message["method"] == "notifications/resources/updated" {
            if let Some(uri) = message["params"]["uri"].as_str() {
                self.updates.push((uri.to_string(), Instant::now()));
            }
        }
    }

    /// The next line the server writes, parsed, and when it arrived (updates kept).
    fn next_message(&mut self) -> Result<(Instant, Value), String> {
        self.line.clear();
        let read = self.read_line()?;
        let arrived = Instant::now();
        if read == 0 {
            return Err("the server closed its output".into());
        }
        let value: Value = serde_json::from_slice(&self.line)
            .map_err(|e| format!("the server wrote a line that is not JSON ({e})"))?;
        self.keep_update(&value);
        Ok((arrived, value))
    }

    /// Blocks until the server tells an update of `uri`; returns when its line arrived.
    ///
    /// # Errors
    /// The server closed its output or wrote something that is not JSON.
    pub fn wait_update(&mut self, uri: &str) -> Result<Instant, String> {
        loop {
            let (arrived, value) = self.next_message()?;
            if value["params"]["uri"] == uri && value["method"] == "notifications/resources/updated" {
                return Ok(arrived);
            }
        }
    }

    /// Sends a request without waiting for its response; returns its id.
    ///
    /// # Errors
    /// The server's input is closed.
    pub fn begin(&mut self, method: &str, params: &Value) -> Result<u64, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.write(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        Ok(id)
    }

    /// Waits for the response to request `id` (from [`Server::begin`]); returns when
    /// its line arrived, and the response.
    ///
    /// # Errors
    /// The server closed its output or wrote something that is not JSON.
    pub fn finish(&mut self, id: u64) -> Result<(Instant, Value), String> {
        loop {
            let (arrived, value) = self.next_message()?;
            if value["id"].as_u64() == Some(id) {
                return Ok((arrived, value));
            }
        }
    }

    /// Sends `notifications/cancelled` for request `id`.
    ///
    /// # Errors
    /// The server's input is closed.
    pub fn cancel(&mut self, id: u64) -> Result<(), String> {
        self.write(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}}))
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Calls a tool; fails on a protocol error or an `isError` result.
    ///
    /// # Errors
    /// As [`Server::request`], or the tool reported an error.
    pub fn call(&mut self, tool: &str, arguments: &Value) -> Result<Duration, String> {
        self.call_reply(tool, arguments).map(|(elapsed, _)| elapsed)
    }

    /// As [`Server::call`], and the response too.
    ///
    /// # Errors
    /// As [`Server::call`].
    pub fn call_reply(&mut self, tool: &str, arguments: &Value) -> Result<(Duration, Value), String> {
        let (elapsed, _, response) = self.request("tools/call", &json!({"name": tool, "arguments": arguments}))?;
        if let Some(error) = response.get("error") {
            return Err(format!("{tool}: protocol error {error}"));
        }
        if response["result"]["isError"] == json!(true) {
            let text = response["result"]["content"][0]["text"].as_str().unwrap_or_default();
            return Err(format!("{tool}: {}", text.chars().take(300).collect::<String>()));
        }
        Ok((elapsed, response))
    }

    /// The server process's peak resident memory (VmHWM), in KiB.
    pub fn peak_rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
