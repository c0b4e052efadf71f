//! `import --from-server` against scripted servers (`tests/fixtures/paged_server.sh`
//! and one-liners): the handshake, pagination, requests from the server, and every way
//! a server can fail. The import from the real paneward binary is tested in the main
//! crate (`tests/import_from_server.rs`), where Cargo builds that binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::path::Path;

use crate::common::{codegen, schemas_copy, stderr, stdout, tree};
use paneward_codegen::import::{import, Options, Source};
use paneward_codegen::load::{load_file, Tier};
use serde_json::json;

fn fixture() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/paged_server.sh")
        .display()
        .to_string()
}

fn server(command: &[&str]) -> Source {
    Source::Server(command.iter().map(|s| s.to_string()).collect())
}

fn options(schemas: &Path) -> Options {
    let mut options = Options::new(schemas);
    options.tier = Some(Tier::Readonly);
    options.source = Some("https://example.org/fixture/".into());
    options
}

#[test]
fn every_page_of_a_servers_tools_list_is_imported() {
    let (_guard, copy) = schemas_copy();
    let outcome = import(&[server(&["sh", &fixture()])], &options(&copy)).unwrap();
    let first = load_file(&copy.join("tools/first_tool.json")).unwrap();
    assert_eq!(first.title.as_deref(), Some("First"));
    assert_eq!(first.tier, Tier::Readonly);
    assert_eq!(first.source, "https://example.org/fixture/");
    assert_eq!(first.annotations, json!({"readOnlyHint": true}));
    let second = load_file(&copy.join("tools/second_tool.json")).unwrap();
    assert_eq!(
        second.output_schema.as_ref().unwrap()["properties"]["n"],
        json!({"type": "integer"})
    );
    let rules: Vec<(String, String)> = outcome
        .changes()
        .iter()
        .map(|c| (c.tool.clone(), c.rule.as_str()))
        .collect();
    assert_eq!(
        rules,
        vec![
            ("first_tool".into(), "tool-added".into()),
            ("second_tool".into(), "tool-added".into())
        ]
    );
    let notes = outcome.notes.join("\n");
    assert!(notes.contains("a tool file cannot hold icons"), "{notes}");
    assert!(notes.contains("the server does not offer `snapshot_pane`"), "{notes}");
}

/// The error of importing from `command`, after checking `schemas/` was not touched.
fn server_error(command: &[&str]) -> String {
    let (_guard, copy) = schemas_copy();
    let before = tree(&copy);
    let error = import(&[server(command)], &options(&copy)).unwrap_err().to_string();
    assert_eq!(tree(&copy), before);
    error
}

#[test]
fn a_server_that_cannot_start_is_named() {
    let error = server_error(&["/nonexistent/mcp-server"]);
    assert!(
        error.starts_with("server `/nonexistent/mcp-server`: cannot start `/nonexistent/mcp-server`"),
        "{error}"
    );
}

#[test]
fn an_empty_server_command_is_refused_before_anything_starts() {
    // The command line refuses it too; this is the library's own guard (the client's).
    assert_eq!(server_error(&[]), "server ``: no server command was given");
}

#[test]
fn a_server_that_exits_at_once_is_reported_with_its_status_and_stderr() {
    let error = server_error(&["sh", "-c", "echo 'no tmux here' >&2; exit 7"]);
    assert!(error.contains("exit status: 7"), "{error}");
    assert!(
        error.ends_with("the server's stderr ended with:\nno tmux here"),
        "{error}"
    );
}

#[test]
fn a_server_that_writes_something_else_on_stdout_is_reported() {
    let error = server_error(&["sh", "-c", "read line; echo 'Welcome to my server'; read line"]);
    assert!(
        error.contains("the server wrote something that is not JSON-RPC on stdout: Welcome to my server"),
        "{error}"
    );
}

#[test]
fn a_json_rpc_error_from_tools_list_is_reported() {
    let script = r#"read l; printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{}}'; read l; read l;
                    printf '%s\n' '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"tools are off"}}'; read l"#;
    let error = server_error(&["sh", "-c", script]);
    assert!(error.contains("`tools/list` failed: tools are off"), "{error}");
}

#[test]
fn a_server_that_repeats_a_cursor_is_stopped() {
    let page = r#"{"jsonrpc":"2.0","id":ID,"result":{"tools":[],"nextCursor":"again"}}"#;
    let script = format!(
        "read l; printf '%s\\n' '{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{}}}}'; read l; \
         read l; printf '%s\\n' '{}'; read l; printf '%s\\n' '{}'; read l",
        page.replace("ID", "2"),
        page.replace("ID", "3")
    );
    let error = server_error(&["sh", "-c", &script]);
    assert!(
        error.contains("tools/list handed out the cursor `again` twice"),
        "{error}"
    );
}

#[test]
fn the_command_line_imports_from_a_server_after_a_double_dash_and_exits_as_diff() {
    let (_guard, copy) = schemas_copy();
    let fixture = fixture();
    let import = || {
        codegen(&[
            "import",
            "--schemas",
            copy.to_str().unwrap(),
            "--tier",
            "mutating",
            "--source",
            "paneward",
            "--from-server",
            "--",
            "sh",
            &fixture,
        ])
    };
    let output = import();
    // Two tools added: compatible changes only.
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "compatible first_tool: tool added\ncompatible second_tool: tool added\n2 changes: 0 breaking, 2 compatible\n"
    );
    assert_eq!(
        load_file(&copy.join("tools/second_tool.json")).unwrap().tier,
        Tier::Mutating
    );
    // The same contract again: nothing changes.
    let output = import();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "no changes\n");
}
