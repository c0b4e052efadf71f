//! The tools/list client against scripted servers (`sh -c`): the handshake, pages, the
//! server's own requests, and bounded waits. `paneward conform` and `paneward-codegen
//! import --from-server` test their use of it against paneward and fixtures.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::time::{Duration, Instant};

use paneward_contract::client::{list_tools, ListError, ListOptions, Listing, Problem, ServerStderr, EXIT_GRACE};
use serde_json::json;

/// Generous: the machine is shared, and only the timeout test waits for it to pass.
const PATIENCE: Duration = Duration::from_secs(20);

fn options(reply_timeout: Duration) -> ListOptions<'static> {
    ListOptions {
        client_name: "client-test",
        client_version: "0",
        protocol_version: "2025-06-18",
        reply_timeout,
        stderr: ServerStderr::Quote,
    }
}

fn run(script: &str) -> Result<Listing, ListError> {
    list_tools(&["sh", "-c", script], &options(PATIENCE))
}

/// A line the script prints, as a shell word.
fn say(json: &str) -> String {
    format!("printf '%s\\n' '{json}'")
}

/// The initialize handshake: read the request, answer it, read `initialized`.
fn handshake() -> String {
    [
        "read l".to_string(),
        say(r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","serverInfo":{"name":"fixture","version":"1"}}}"#),
        "read l".to_string(),
    ]
    .join("; ")
}

#[test]
fn every_page_is_listed_in_order_and_the_servers_requests_are_answered() {
    // The script exits (failing the listing) unless the cursor comes back and its own
    // requests get the answers MCP asks for: a result for ping, method-not-found else.
    let script = [
        "read l".to_string(),
        say(r#"{"jsonrpc":"2.0","id":"s1","method":"ping"}"#),
        r#"read r; case "$r" in *'"s1"'*) ;; *) exit 9;; esac; case "$r" in *'"result"'*) ;; *) exit 9;; esac"#.into(),
        say(r#"{"jsonrpc":"2.0","id":"s2","method":"sampling/createMessage","params":{}}"#),
        r#"read r; case "$r" in *'-32601'*) ;; *) exit 9;; esac"#.into(),
        say(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}"#),
        say(r#"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"fixture","version":"1"}}}"#),
        "read l; read l".into(),
        say(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a"}],"nextCursor":"c1"}}"#),
        r#"read l; case "$l" in *'"cursor":"c1"'*) ;; *) exit 9;; esac"#.into(),
        "echo".into(),
        say(r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"b"},{"name":"c"}],"nextCursor":null}}"#),
        "read l".into(),
    ]
    .join("; ");
    let listing = run(&script).unwrap();
    assert_eq!(listing.initialized["serverInfo"]["name"], "fixture");
    assert_eq!(
        listing.tools,
        vec![json!({"name": "a"}), json!({"name": "b"}), json!({"name": "c"})]
    );
}

#[test]
fn a_page_without_tools_or_with_a_bad_cursor_is_refused() {
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":2,"result":{}}"#,
            "the tools/list result has no `tools` array",
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[],"nextCursor":7}}"#,
            "tools/list returned a `nextCursor` that is not a string",
        ),
    ];
    for (page, expected) in cases {
        let script = format!("{}; read l; {}; read l", handshake(), say(page));
        let error = run(&script).unwrap_err();
        assert_eq!(error.to_string(), expected);
    }
}

#[test]
fn a_server_that_never_answers_is_stopped_after_the_timeout_and_its_stderr_quoted() {
    let start = Instant::now();
    let error = list_tools(
        &["sh", "-c", "echo warming up >&2; exec sleep 600"],
        &options(Duration::from_secs(1)),
    )
    .unwrap_err();
    assert!(matches!(error.problem, Problem::Timeout { .. }), "{error}");
    assert_eq!(
        error.to_string(),
        "no answer to `initialize` within 1 s\nthe server's stderr ended with:\nwarming up"
    );
    // One second of waiting, the grace for exiting after stdin closes, then the kill.
    assert!(start.elapsed() < EXIT_GRACE + PATIENCE, "took {:?}", start.elapsed());
}

#[test]
fn no_command_is_an_error_and_starts_nothing() {
    let error = list_tools::<&str>(&[], &options(PATIENCE)).unwrap_err();
    assert!(matches!(error.problem, Problem::NoCommand));
}
