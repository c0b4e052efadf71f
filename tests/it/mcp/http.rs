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
            // One line a person reads in the client's error, naming what is missing.
            assert_eq!(reply.body.lines().count(), 1, "{reply:?}");
            let said = if authorization.is_none() {
                "missing header Authorization: Bearer"
            } else {
                "does not match"
            };
            assert!(
                reply.body.starts_with("401 Unauthorized: ") && reply.body.contains(said),
                "{reply:?}"
            );
            assert!(!reply.body.contains(&server.token), "the 401 shows the token");
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
    // The log filter a user gets without PANEWARD_LOG.
    let server = HttpServer::start(
        &["-L", &tmux.name, "--allow-origin", "https://app.example:443"],
        &[("PANEWARD_LOG", paneward::cli::DEFAULT_LOG_FILTER)],
    );
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
    // One line per refusal, in words, naming the value and the flag that allows it.
    let log = server.stop();
    let origin_lines: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("Origin") || l.contains("origin"))
        .collect();
    assert_eq!(origin_lines.len(), 1, "{log}");
    assert!(
        origin_lines[0].contains("origin http://evil.example: not an allowed origin")
            && origin_lines[0].contains("--allow-origin"),
        "{log}"
    );
    let host_lines: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("evil.example") && !l.contains("origin"))
        .collect();
    assert_eq!(host_lines.len(), 1, "{log}");
    assert!(
        host_lines[0].contains("host evil.example: not an allowed Host") && host_lines[0].contains("--allow-host"),
        "{log}"
    );
    assert!(
        !log.contains("NormalizedOrigin") && !log.contains("Tuple {"),
        "a Debug value in the log: {log}"
    );
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
    std::fs::set_permissions(
        scratch.path("short"),
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .unwrap();
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
fn a_token_file_group_or_others_may_read_is_refused() {
    let scratch = Scratch::new();
    let good = "f".repeat(40);
    for mode in [0o640, 0o604, 0o644] {
        std::fs::write(scratch.path("token"), format!("{good}\n")).unwrap();
        std::fs::set_permissions(
            scratch.path("token"),
            std::os::unix::fs::PermissionsExt::from_mode(mode),
        )
        .unwrap();
        let (code, stderr) = run(&["serve", "--http", "0", "--token-file", &scratch.path("token")], &[]);
        assert_eq!(code, Some(1), "mode {mode:o}: {stderr}");
        assert!(
            stderr.contains("may be read by group or others") && stderr.contains("chmod 600"),
            "mode {mode:o}: {stderr}"
        );
        assert!(!stderr.contains(&good), "the refusal shows the token: {stderr}");
    }
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

#[test]
fn two_host_headers_or_a_host_with_userinfo_get_400() {
    let tmux = TmuxServer::start();
    let server = HttpServer::start(&["-L", &tmux.name], &[]);
    let post = |hosts: &[&str]| {
        let mut headers = vec![JSON.to_string(), ACCEPT.to_string(), server.bearer()];
        headers.extend(hosts.iter().map(|h| (*h).to_string()));
        server.exchange("POST", MCP, &headers, &initialize()).status
    };
    // rmcp checks only the first Host against its allowlist.
    assert_eq!(post(&["Host: localhost", "Host: evil.example"]), 400);
    assert_eq!(post(&["Host: evil.example@localhost"]), 400);
    assert_eq!(post(&["Host: localhost"]), 200, "one allowed Host still passes");
}

/// An initialized MCP session over HTTP: the headers each later request carries.
fn session(server: &HttpServer) -> Vec<String> {
    let reply = server.exchange(
        "POST",
        MCP,
        &[JSON.into(), ACCEPT.into(), server.bearer()],
        &initialize(),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    let headers = vec![
        JSON.to_string(),
        ACCEPT.to_string(),
        server.bearer(),
        format!("Mcp-Session-Id: {}", reply.header("mcp-session-id").unwrap()),
        "MCP-Protocol-Version: 2025-06-18".to_string(),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    assert_eq!(server.exchange("POST", MCP, &headers, &initialized).status, 202);
    headers
}

/// The JSON-RPC message of an HTTP reply, whether a JSON body or an event stream.
fn message_of(reply: &crate::support::http::Reply) -> serde_json::Value {
    if reply.header("content-type") == Some("application/json") {
        return serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {reply:?}"));
    }
    reply
        .body
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .find_map(|data| serde_json::from_str::<serde_json::Value>(data).ok())
        .unwrap_or_else(|| panic!("no JSON-RPC message in {reply:?}"))
}

#[test]
fn malformed_messages_get_the_same_json_rpc_error_over_http_as_over_stdio() {
    let tmux = TmuxServer::start();
    let server = HttpServer::start(&["-L", &tmux.name], &[]);
    let headers = session(&server);
    let mut stdio = tmux.paneward();
    stdio.initialize();
    let cases = [
        // (message, code, HTTP status)
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#,
            -32602,
            200,
        ),
        (
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x","arguments":[1]}}"#,
            -32602,
            200,
        ),
        // `server/discover` is served (rmcp answers it, per revision): tests/it/mcp/current.rs.
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":[]}"#,
            -32602,
            200,
        ),
        (r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#, -32600, 200),
        (r#"{"jsonrpc":"#, -32700, 400),
        ("this is not json", -32700, 400),
    ];
    for (message, code, status) in cases {
        let reply = server.exchange("POST", MCP, &headers, message);
        assert_eq!(reply.status, status, "{message}: {reply:?}");
        let over_http = message_of(&reply);
        stdio.send_line(message);
        let over_stdio = crate::support::assert_json_rpc(&stdio.next_raw_line().unwrap());
        assert_eq!(over_http["error"]["code"], code, "{message}: {over_http}");
        assert_eq!(over_http, over_stdio, "{message}: HTTP and stdio differ");
    }
    // stdio swaps an id rmcp cannot carry; over HTTP it is refused, as JSON-RPC.
    for id in ["2.5", "18446744073709551615"] {
        let message = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
        let reply = server.exchange("POST", MCP, &headers, &message);
        let answer = message_of(&reply);
        assert_eq!(answer["error"]["code"], -32600, "{id}: {reply:?}");
        assert_eq!(answer["id"].to_string(), id, "{reply:?}");
    }
    let ping = json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}).to_string();
    let answer = message_of(&server.exchange("POST", MCP, &headers, &ping));
    assert_eq!(answer["result"], json!({}), "still serving: {answer}");
}

#[test]
fn a_header_that_never_completes_is_closed() {
    let tmux = TmuxServer::start();
    let server = HttpServer::start(&["-L", &tmux.name], &[]);
    let mut stream = std::net::TcpStream::connect(&server.authority).unwrap();
    stream
        .set_read_timeout(Some(crate::support::http::EXCHANGE_PATIENCE))
        .unwrap();
    std::io::Write::write_all(&mut stream, b"POST /mcp HTTP/1.1\r\nHost: localhost\r\n").unwrap();
    let mut rest = Vec::new();
    let ended = std::io::Read::read_to_end(&mut stream, &mut rest);
    let timed_out = ended
        .as_ref()
        .is_err_and(|e| matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut));
    assert!(!timed_out, "the server still held the half-sent request: {ended:?}");
}

/// Raises this process's soft limit on open files to at least `wanted` (the hard
/// limit allowing), to hold the sockets of a test.
fn allow_open_files(wanted: u64) {
    use rustix::process::{getrlimit, setrlimit, Resource};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current.is_some_and(|current| current < wanted) {
        limit.current = Some(limit.maximum.map_or(wanted, |maximum| maximum.min(wanted)));
        setrlimit(Resource::Nofile, limit).unwrap();
    }
}

#[test]
fn a_client_with_the_token_is_served_while_1100_half_sent_requests_are_open() {
    const STRANGERS: usize = 1_100;
    allow_open_files(STRANGERS as u64 + 256);
    let tmux = TmuxServer::start();
    // As many descriptors as a default account gets: fewer than the strangers.
    let server = HttpServer::start_with_descriptor_limit(&["-L", &tmux.name], &[], 1_024);
    let strangers: Vec<std::net::TcpStream> = (0..STRANGERS)
        .map(|_| {
            let mut stream = std::net::TcpStream::connect(&server.authority).unwrap();
            // The server may already have closed it to make room: that is its right.
            let _ = std::io::Write::write_all(&mut stream, b"POST /mcp HTTP/1.1\r\nHost: localhost\r\n");
            stream
        })
        .collect();
    let reply = server.exchange(
        "POST",
        MCP,
        &[JSON.into(), ACCEPT.into(), server.bearer()],
        &initialize(),
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.body.contains("\"serverInfo\""), "{reply:?}");
    drop(strangers);
    let log = server.stop();
    let accept_lines = log.matches("cannot accept").count();
    assert!(accept_lines <= 10, "{accept_lines} lines about failed accepts");
}
