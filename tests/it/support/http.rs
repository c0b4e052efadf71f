//! paneward serving MCP over Streamable HTTP (`serve --http`) on a loopback port the
//! kernel picks, with a fresh token, its log kept in a file; killed on drop. Also a
//! bare HTTP/1.1 exchange, so tests see exactly the status, headers and body sent.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::{clean_env, wait_for, Scratch};

/// How long [`HttpServer::exchange`] waits for a whole reply.
pub const EXCHANGE_PATIENCE: Duration = Duration::from_secs(120);

pub struct HttpServer {
    child: Child,
    scratch: Scratch,
    pub token: String,
    /// `host:port` it listens on.
    pub authority: String,
}

impl HttpServer {
    /// `paneward serve --http 127.0.0.1:0 --token-file F ARGS...` with `env`.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> Self {
        Self::start_limited(args, env, None)
    }

    /// [`HttpServer::start`] with at most `descriptors` open files (`ulimit -n`, set by
    /// a shell that then execs paneward: a test-only way without unsafe code).
    pub fn start_with_descriptor_limit(args: &[&str], env: &[(&str, &str)], descriptors: u32) -> Self {
        Self::start_limited(args, env, Some(descriptors))
    }

    fn start_limited(args: &[&str], env: &[(&str, &str)], descriptors: Option<u32>) -> Self {
        let scratch = Scratch::new();
        let mut random = [0u8; 24];
        std::fs::File::open("/dev/urandom")
            .unwrap()
            .read_exact(&mut random)
            .unwrap();
        let token: String = random.iter().map(|b| format!("{b:02x}")).collect();
        let token_file = scratch.path("token");
        std::fs::write(&token_file, format!("{token}\n")).unwrap();
        // paneward refuses a token file that group or others may read.
        std::fs::set_permissions(&token_file, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
        let log = std::fs::File::create(scratch.path("stderr.log")).unwrap();
        let binary = env!("CARGO_BIN_EXE_paneward");
        let mut command = match descriptors {
            None => Command::new(binary),
            Some(limit) => {
                let mut shell = Command::new("sh");
                shell.args(["-c", &format!("ulimit -n {limit} && exec \"$0\" \"$@\""), binary]);
                shell
            }
        };
        clean_env(&mut command);
        command.env("PANEWARD_LOG", "info");
        for (key, value) in env {
            command.env(key, value);
        }
        let child = command
            .args(["serve", "--http", "127.0.0.1:0", "--token-file", &token_file])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("spawn paneward serve --http");
        let mut server = Self {
            child,
            scratch,
            token,
            authority: String::new(),
        };
        server.authority = wait_for("paneward to say where it listens", || {
            let log = server.log();
            let (_, rest) = log.split_once("Streamable HTTP at http://")?;
            let authority = rest.split_once("/mcp")?.0.to_string();
            Some(authority)
        });
        server
    }

    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.authority)
    }

    /// paneward's standard error so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.scratch.path("stderr.log")).unwrap_or_default()
    }

    /// Stops the server the way a service manager does (SIGTERM) and returns its log.
    pub fn stop(mut self) -> String {
        let _ = Command::new("kill").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
        self.log()
    }

    /// One request on a fresh connection; `headers` as `Name: value` lines.
    pub fn exchange(&self, method: &str, path: &str, headers: &[String], body: &str) -> Reply {
        let mut stream = TcpStream::connect(&self.authority).unwrap();
        // Generous: a reply that never comes fails the test instead of hanging it.
        stream.set_read_timeout(Some(EXCHANGE_PATIENCE)).unwrap();
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        if !headers.iter().any(|h| h.to_ascii_lowercase().starts_with("host:")) {
            request.push_str(&format!("Host: {}\r\n", self.authority));
        }
        for header in headers {
            request.push_str(header);
            request.push_str("\r\n");
        }
        request.push_str("\r\n");
        request.push_str(body);
        stream.write_all(request.as_bytes()).unwrap();
        let mut raw = Vec::new();
        // The server may close before it has read an oversized body: keep what came.
        let _ = stream.read_to_end(&mut raw);
        Reply::parse(&String::from_utf8_lossy(&raw))
    }

    pub fn bearer(&self) -> String {
        format!("Authorization: Bearer {}", self.token)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response as received.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    /// Header lines, lower-cased names.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    fn parse(raw: &str) -> Self {
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw, ""));
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|line| line.split(' ').nth(1))
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("no HTTP status line in {raw:?}"));
        let headers = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
            .collect();
        Self {
            status,
            headers,
            body: body.to_string(),
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_str())
    }
}
