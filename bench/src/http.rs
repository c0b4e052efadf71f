//! A minimal Streamable HTTP client for `paneward serve --http`: one kept-alive
//! HTTP/1.1 connection, the session id from `initialize`, and the response read from
//! the server-sent-event stream of each POST (chunked; the clock stops at the event
//! that carries the response, and the rest of the stream is read after).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::ChildStderr;
use std::time::{Duration, Instant};

use serde_json::Value;

pub struct HttpWire {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    authority: String,
    token: String,
    session: Option<String>,
}

impl HttpWire {
    /// Reads the server's log until it says where it listens (then keeps draining it on
    /// a thread of its own), and connects.
    ///
    /// # Errors
    /// The server ended before saying so, or cannot be reached.
    pub fn connect(stderr: ChildStderr, token: &str) -> Result<Self, String> {
        let mut log = BufReader::new(stderr);
        let mut line = String::new();
        let authority = loop {
            line.clear();
            if log.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                return Err("the server ended before it listened".into());
            }
            if let Some((_, rest)) = line.split_once("Streamable HTTP at http://") {
                if let Some((authority, _)) = rest.split_once("/mcp") {
                    break authority.to_string();
                }
            }
        };
        std::thread::spawn(move || std::io::copy(&mut log, &mut std::io::sink()));
        let writer = TcpStream::connect(&authority).map_err(|e| format!("connect {authority}: {e}"))?;
        writer.set_nodelay(true).map_err(|e| e.to_string())?;
        let reader = BufReader::with_capacity(1 << 20, writer.try_clone().map_err(|e| e.to_string())?);
        Ok(Self {
            reader,
            writer,
            authority,
            token: token.to_string(),
            session: None,
        })
    }

    fn post(&mut self, message: &Value) -> Result<(), String> {
        let body = message.to_string();
        let mut head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nAuthorization: Bearer {}\r\nContent-Length: {}\r\n",
            self.authority,
            self.token,
            body.len()
        );
        if let Some(session) = &self.session {
            head.push_str(&format!("Mcp-Session-Id: {session}\r\n"));
        }
        head.push_str("\r\n");
        head.push_str(&body);
        self.writer
            .write_all(head.as_bytes())
            .map_err(|e| format!("writing to the server: {e}"))
    }

    /// Status and headers (names lower-cased) of the next response.
    fn head(&mut self) -> Result<(u16, Vec<(String, String)>), String> {
        let mut line = String::new();
        self.reader.read_line(&mut line).map_err(|e| e.to_string())?;
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("no status line: {line:?}"))?;
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).map_err(|e| e.to_string())?;
            let trimmed = line.trim_end();
            if trimmed.is_empty() {
                break;
            }
            if let Some((name, value)) = trimmed.split_once(':') {
                headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
            }
        }
        Ok((status, headers))
    }

    /// The next chunk of a chunked body; empty at its end.
    fn chunk(&mut self) -> Result<Vec<u8>, String> {
        let mut line = String::new();
        self.reader.read_line(&mut line).map_err(|e| e.to_string())?;
        let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
            .map_err(|_| format!("bad chunk size {line:?}"))?;
        let mut data = vec![0; size + 2];
        self.reader.read_exact(&mut data).map_err(|e| e.to_string())?;
        data.truncate(size);
        Ok(data)
    }

    fn body(&mut self, headers: &[(String, String)]) -> Result<Option<Vec<u8>>, String> {
        let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        if let Some(length) = header("content-length") {
            let mut data = vec![0; length.parse().map_err(|_| "bad content-length")?];
            self.reader.read_exact(&mut data).map_err(|e| e.to_string())?;
            return Ok(Some(data));
        }
        Ok(None)
    }

    /// Sends a notification (answered 202, no body).
    ///
    /// # Errors
    /// The exchange failed or was refused.
    pub fn notify(&mut self, message: &Value) -> Result<(), String> {
        self.post(message)?;
        let (status, headers) = self.head()?;
        if self.body(&headers)?.is_none() {
            while !self.chunk()?.is_empty() {}
        }
        if status >= 300 {
            return Err(format!("notification answered {status}"));
        }
        Ok(())
    }

    /// Sends a request; returns its latency, the response event's size and the response.
    ///
    /// # Errors
    /// The exchange failed, was refused, or ended without the response.
    pub fn request(&mut self, message: &Value, id: u64) -> Result<(Duration, usize, Value), String> {
        let started = Instant::now();
        self.post(message)?;
        let (status, headers) = self.head()?;
        if let Some((_, session)) = headers.iter().find(|(n, _)| n == "mcp-session-id") {
            self.session = Some(session.clone());
        }
        if let Some(body) = self.body(&headers)? {
            let elapsed = started.elapsed();
            let value: Value = serde_json::from_slice(&body).map_err(|e| format!("{status}: {e}"))?;
            return Ok((elapsed, body.len(), value));
        }
        // Server-sent events: `data:` lines; the response is the one with our id.
        let mut pending = Vec::new();
        let mut found = None;
        loop {
            let chunk = self.chunk()?;
            if chunk.is_empty() {
                break;
            }
            if found.is_some() {
                continue;
            }
            pending.extend_from_slice(&chunk);
            while let Some(end) = pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                let Some(data) = line.strip_prefix(b"data:") else {
                    continue;
                };
                let Ok(value) = serde_json::from_slice::<Value>(data.trim_ascii()) else {
                    continue;
                };
                if value["id"].as_u64() == Some(id) {
                    found = Some((started.elapsed(), data.len(), value));
                    break;
                }
            }
        }
        found.ok_or_else(|| format!("HTTP {status}: the stream ended without the response"))
    }
}
