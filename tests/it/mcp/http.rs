//! `paneward serve --http`: the bearer token, the Host and Origin allowlists and the
//! body limit, seen as raw HTTP exchanges. (Both official SDK clients on their
//! Streamable HTTP transports run the whole case list in `conformance.rs`.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::process::{Command, Stdio};

use serde_json::json;

use crate::support::http::HttpServer;
use crate::support::{clean_env, Scratch, TmuxServer};

const MCP: &str = "/mcp";
const JSON: &str = "Content-Type: application/json";
const ACCEPT: &str = "Accept: application/json, text/event-stream";

fn initialize() -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "paneward-test", "version": "0"}}})
    .to_string()
}

fn window_count(tmux: &TmuxServer) -> usize {
    tmux.tmux(&["list-windows", "-a", "-F", "#{window_id}"]).lines().count()
}

#[test]
fn a_request_without_the_right_token_gets_401_and_nothing_else_and_no_log_shows_a_token() {
    let tmux = TmuxServer::start();
    // Everything rmcp and paneward log, to show the token is in none of it.
    let server = HttpServer::start(
        &["-L", &tmux.name, "--safety", "destructive"],
        &[("PANEWARD_LOG", "trace")],
    );
    let windows = window_count(&tmux);
    let wrong = format!("{}0", &server.token[1..]);
    // A call that would change tmux, sent as the first message of a session.
    let create = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "create_window", "arguments": {"session_id": "$0"}}})
    .to_string();
    for authorization in [
        None,
        Some(format!("Authorization: Bearer {wrong}")),
        Some(format!("Authorization: Basic {}", server.token)),
        Some(format!("Authorization: Bearer {}x", server.token)),
        Some("Authorization: Bearer".to_string()),
    ] {
        for body in [initialize(), create.clone()] {
            let mut headers = vec![JSON.to_string(), ACCEPT.to_string()];
            headers.extend(authorization.clone());
            let reply = server.exchange("POST", MCP, &headers, &body);
            assert_eq!(reply.status, 401, "{authorization:?}: {reply:?}");
            assert_eq!(reply.body, "", "a 401 carries no body");
            assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
            assert_eq!(reply.header("mcp-session-id"), None, "no session for {authorization:?}");
        }
    }
    // The same refusal on every method and path: nothing is reachable without it.
    assert_eq!(server.exchange("GET", MCP, &[ACCEPT.to_string()], "").status, 401);
    assert_eq!(server.exchange("DELETE", MCP, &[], "").status, 401);
    assert_eq!(server.exchange("GET", "/", &[], "").status, 401);
    assert_eq!(window_count(&tmux), windows, "a refused call changed tmux");

    let reply = server.exchange(
        "POST",
        MCP,
        &[JSON.into(), ACCEPT.into(), server.bearer()],
        &initialize(),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.header("mcp-session-id").is_some(), "{reply:?}");
    assert!(reply.body.contains("\"serverInfo\""), "{reply:?}");
    assert_eq!(server.exchange("GET", "/elsewhere", &[server.bearer()], "").status, 404);

    let token = server.token.clone();
    let log = server.stop();
    assert!(log.contains("(401)"), "refusals are logged (without the token): {log}");
    assert!(log.contains("create new session"), "rmcp's own log is in it: {log}");
    assert!(!log.contains(&token), "the token is in the log");
    assert!(!log.contains(&wrong), "a presented token is in the log");
}

#[test]
fn host_and_origin_outside_the_allowlists_are_refused() {
    let tmux = TmuxServer::start();
    let server = HttpServer::start(&["-L", &tmux.name, "--allow-origin", "https://app.example:443"], &[]);
    let post = |extra: &[&str]| {
        let mut headers = vec![JSON.to_string(), ACCEPT.to_string(), server.bearer()];
        headers.extend(extra.iter().map(|h| (*h).to_string()));
        server.exchange("POST", MCP, &headers, &initialize()).status
    };
    // DNS rebinding: a page on evil.example whose name now points at 127.0.0.1.
    assert_eq!(post(&["Host: evil.example"]), 403);
    assert_eq!(post(&["Origin: http://evil.example"]), 403);
    assert_eq!(post(&["Origin: https://app.example"]), 200);
    assert_eq!(post(&["Origin: http://localhost:3000"]), 200);
    assert_eq!(post(&["Host: localhost"]), 200);
}

#[test]
fn a_request_body_past_the_limit_gets_413() {
    let tmux = TmuxServer::start();
    let server = HttpServer::start(&["-L", &tmux.name], &[]);
    let padding = "x".repeat(17 * 1024 * 1024);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": {"pad": padding}}}).to_string();
    let reply = server.exchange("POST", MCP, &[JSON.into(), ACCEPT.into(), server.bearer()], &body);
    assert_eq!(reply.status, 413, "{:?}", reply.headers);
}

/// Runs `paneward ARGS` to its end with `env`; returns its exit code and stderr.
fn run(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    command.envs(env.iter().copied());
    let output = command.args(args).stdin(Stdio::null()).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn start_up_refuses_a_missing_or_weak_token_and_says_how_to_make_one() {
    let (code, stderr) = run(&["serve", "--http", "0"], &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--token-file") && stderr.contains("openssl rand"),
        "{stderr}"
    );
    let (code, stderr) = run(&["serve", "--http", "0.0.0.0:0"], &[]);
    assert_eq!(code, Some(2), "a wildcard bind without a token: {stderr}");
    let scratch = Scratch::new();
    std::fs::write(scratch.path("short"), "secret\n").unwrap();
    let (code, stderr) = run(&["serve", "--http", "0", "--token-file", &scratch.path("short")], &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("32 to 4096 bytes") && !stderr.contains("secret\n"),
        "{stderr}"
    );
    let (code, stderr) = run(&["serve", "--http", "0"], &[("PANEWARD_TOKEN", "short")]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("PANEWARD_TOKEN"), "{stderr}");
}

#[test]
fn the_token_may_come_from_the_environment() {
    let tmux = TmuxServer::start();
    let token = "e".repeat(40);
    // An empty --token-file would be an error; the variable alone must do.
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    let scratch = Scratch::new();
    let log = std::fs::File::create(scratch.path("log")).unwrap();
    let mut child = command
        .args(["serve", "--http", "127.0.0.1:0", "-L", &tmux.name])
        .env("PANEWARD_TOKEN", &token)
        .env("PANEWARD_LOG", "info")
        .stdin(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let authority = crate::support::wait_for("the listening line", || {
        let log = scratch.read("log");
        Some(log.split_once("at http://")?.1.split_once("/mcp")?.0.to_string())
    });
    let ask = |token: &str| {
        let mut stream = std::net::TcpStream::connect(&authority).unwrap();
        let body = initialize();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n{JSON}\r\n{ACCEPT}\r\n\
             Authorization: Bearer {token}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        std::io::Write::write_all(&mut stream, request.as_bytes()).unwrap();
        let mut reply = String::new();
        let _ = std::io::Read::read_to_string(&mut stream, &mut reply);
        reply.lines().next().unwrap_or_default().to_string()
    };
    assert!(ask(&token).contains(" 200 "), "{}", ask(&token));
    assert!(ask(&"d".repeat(40)).contains(" 401 "));
    let _ = child.kill();
    let _ = child.wait();
}
