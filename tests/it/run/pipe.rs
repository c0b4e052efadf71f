//! `pipe_pane` against real tmux servers, through the binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{wait_for, Client, Scratch, TmuxServer};
use serde_json::json;

fn mutating(tmux: &TmuxServer) -> Client {
    let mut client = tmux.paneward_with(&["--safety", "mutating"], &[]);
    client.initialize();
    client
}

fn shell(tmux: &TmuxServer) -> String {
    let pane = tmux.window_running("/bin/sh");
    tmux.wait_for_value(&pane, "#{pane_current_command}", "sh");
    pane
}

fn type_line(tmux: &TmuxServer, pane: &str, line: &str) {
    tmux.tmux(&["send-keys", "-t", pane, "-l", line]);
    tmux.tmux(&["send-keys", "-t", pane, "Enter"]);
}

/// Waits until `path` holds `text`, and returns the file.
fn wait_for_file(path: &std::path::Path, text: &str) -> String {
    wait_for(&format!("{text:?} in {}", path.display()), || {
        let body = std::fs::read_to_string(path).unwrap_or_default();
        body.contains(text).then_some(body)
    })
}

#[test]
fn a_path_with_format_time_shell_and_quote_characters_is_written_literally() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let dir = std::path::PathBuf::from(scratch.path("d #{pid} #(id) 100%d %H"));
    std::fs::create_dir_all(&dir).unwrap();
    let name = "q'x\"$(touch pwned)`touch pwned2`; ##s %%.log";
    let path = dir.join(name);
    let pane = shell(&tmux);
    let mut client = mutating(&tmux);
    let reply = client.call_ok("pipe_pane", json!({"pane_id": pane, "path": path.to_str().unwrap()}));
    assert_eq!(
        reply,
        json!({"paneId": pane, "piping": true, "path": path.to_str().unwrap(), "wasPiping": false})
    );
    assert_eq!(tmux.pane_value(&pane, "#{pane_pipe}"), "1");
    type_line(&tmux, &pane, "echo PIPED-$((6*7))");
    wait_for_file(&path, "PIPED-42");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [name]);
}

#[test]
fn a_pipe_the_user_has_is_kept_unless_replace_and_stop_says_what_was_there() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = shell(&tmux);
    let users = scratch.path("users.log");
    tmux.tmux(&["pipe-pane", "-t", &pane, &format!("cat >> {users}")]);
    let mut client = mutating(&tmux);
    let mine = scratch.path("mine.log");
    let error = client.call_err("pipe_pane", json!({"pane_id": pane, "path": mine}));
    assert!(
        error.contains("already pipes") && error.contains("replace: true"),
        "{error}"
    );
    // The user's pipe still runs.
    type_line(&tmux, &pane, "echo STILL-$((1+1))");
    wait_for_file(std::path::Path::new(&users), "STILL-2");

    let replaced = client.call_ok("pipe_pane", json!({"pane_id": pane, "path": mine, "replace": true}));
    assert_eq!(replaced["wasPiping"], true);
    type_line(&tmux, &pane, "echo MINE-$((1+2))");
    wait_for_file(std::path::Path::new(&mine), "MINE-3");
    assert!(!scratch.read("users.log").contains("MINE-3"));

    let stopped = client.call_ok("pipe_pane", json!({"pane_id": pane, "stop": true}));
    assert_eq!(stopped, json!({"paneId": pane, "piping": false, "wasPiping": true}));
    assert_eq!(tmux.pane_value(&pane, "#{pane_pipe}"), "0");
    let again = client.call_ok("pipe_pane", json!({"pane_id": pane}));
    assert_eq!(again["wasPiping"], false);
}

#[test]
fn append_keeps_the_file_and_append_false_truncates_it() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = shell(&tmux);
    let path = scratch.path("out.log");
    std::fs::write(&path, "OLD\n").unwrap();
    let mut client = mutating(&tmux);
    client.call_ok("pipe_pane", json!({"pane_id": pane, "path": path}));
    type_line(&tmux, &pane, "echo NEW-$((2+2))");
    assert!(wait_for_file(std::path::Path::new(&path), "NEW-4").starts_with("OLD\n"));
    client.call_ok("pipe_pane", json!({"pane_id": pane, "stop": true}));

    std::fs::write(&path, "OLD\n").unwrap();
    client.call_ok("pipe_pane", json!({"pane_id": pane, "path": path, "append": false}));
    type_line(&tmux, &pane, "echo FRESH-$((2+3))");
    assert!(!wait_for_file(std::path::Path::new(&path), "FRESH-5").contains("OLD"));
}

#[test]
fn relative_paths_a_path_with_stop_and_missing_panes_are_refused() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = mutating(&tmux);
    for (arguments, expected) in [
        (json!({"pane_id": pane, "path": "out.log"}), "/path"),
        (json!({"pane_id": pane, "path": "/tmp/"}), "/path: must name a file"),
        (
            json!({"pane_id": pane, "path": "/tmp/x\ny"}),
            "/path: must not contain control",
        ),
        (
            json!({"pane_id": pane, "path": "/tmp/x", "stop": true}),
            "/path: must be left out",
        ),
        (json!({"pane_id": "%999", "path": "/tmp/x"}), "%999"),
    ] {
        let error = client.call_err("pipe_pane", arguments.clone());
        assert!(error.contains(expected), "{arguments}: {error}");
    }
    assert_eq!(tmux.pane_value(&pane, "#{pane_pipe}"), "0");
}

/// The pipe's shell opens the file only after `pipe-pane` succeeded, and tmux reports
/// nothing when it cannot (issue 30, 14): such paths are refused first.
#[test]
fn a_path_the_shell_cannot_open_is_refused_and_nothing_pipes() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = shell(&tmux);
    let mut client = mutating(&tmux);
    let directory = scratch.path("");
    let under_missing = scratch.path("missing/out.log");
    let too_long = format!("{}/{}", scratch.path("").trim_end_matches('/'), "d/".repeat(2100));
    let long_name = scratch.path(&"n".repeat(256));
    for (path, rule) in [
        (directory.trim_end_matches('/'), "is a directory"),
        (under_missing.as_str(), "no directory"),
        (too_long.as_str(), "at most"),
        (long_name.as_str(), "at most 255"),
    ] {
        let error = client.call_err("pipe_pane", json!({"pane_id": pane, "path": path}));
        assert!(
            error.contains("/path") && error.contains(rule),
            "{}: {error}",
            &path[..60.min(path.len())]
        );
        assert_eq!(tmux.pane_value(&pane, "#{pane_pipe}"), "0");
    }
    // A style-like `#[` in the name is written as it is.
    let path = scratch.path("s#[x ##[y.log");
    client.call_ok("pipe_pane", json!({"pane_id": pane, "path": path}));
    type_line(&tmux, &pane, "echo STYLED-$((6*7))");
    wait_for_file(std::path::Path::new(&path), "STYLED-42");
}
