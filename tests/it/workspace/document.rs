//! `load_workspace` and `freeze_workspace` against real tmux: a tmuxp-style document
//! builds a session in one checked batch, unsupported keys are refused by name with
//! nothing created, a dry run changes nothing, and a frozen session loads back.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{wait_for, Scratch, TmuxServer};
use serde_json::{json, Value};

fn sessions(tmux: &TmuxServer) -> String {
    tmux.tmux(&["list-sessions", "-F", "#{session_id} #{session_name}"])
}

fn document(directory: &str) -> String {
    format!(
        "session_name: built by document
start_directory: {directory}
windows:
  - window_name: edit
    layout: main-vertical
    panes:
      - echo typed-$((2*3))
      -
      - command: [sleep, '600']
        start_directory: /
  - window_name: logs
"
    )
}

#[test]
fn a_document_builds_its_session_in_one_call_and_replies_ids_only() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let directory = scratch.path("");
    let directory = directory.trim_end_matches('/');
    let mut client = tmux.paneward();
    let reply = client.call_ok("load_workspace", json!({"document": document(directory)}));
    let session = reply["sessionId"].as_str().unwrap().to_string();
    assert!(session.starts_with('$'), "{reply}");
    let windows = reply["windows"].as_array().unwrap().clone();
    assert_eq!(windows.len(), 2, "{reply}");
    // Ids only: no name the document gave comes back.
    assert!(
        !reply.to_string().contains("edit") && !reply.to_string().contains("built by"),
        "{reply}"
    );
    let value = |target: &str, format: &str| tmux.pane_value(target, format);
    let edit = windows[0]["windowId"].as_str().unwrap();
    assert_eq!(
        value(edit, "#{session_id} #{session_name} #{window_name}"),
        format!("{session} built by document edit")
    );
    assert_eq!(
        value(windows[1]["windowId"].as_str().unwrap(), "#{window_name}"),
        "logs"
    );
    let panes: Vec<String> = windows[0]["paneIds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    assert_eq!(panes.len(), 3);
    let listed = tmux.tmux(&["list-panes", "-t", edit, "-F", "#{pane_id}"]);
    assert_eq!(listed.lines().count(), 3, "{listed}");
    assert_eq!(value(&panes[1], "#{pane_start_path}"), directory);
    assert_eq!(value(&panes[2], "#{pane_start_path}"), "/");
    assert_eq!(value(&panes[2], "#{pane_current_command}"), "sleep");
    // The typed line ran in the first pane as a job.
    let job = reply["jobs"][0].as_str().unwrap().to_string();
    assert!(job.starts_with(&format!("{}:", panes[0])), "{job}");
    let finished = wait_for("the typed line to finish", || {
        let reply = client.call_ok("get_job", json!({"job_id": job, "timeout_seconds": 2.0}));
        (reply["state"] == "finished").then_some(reply)
    });
    assert_eq!(finished["output"], json!(["typed-6"]));
}

#[test]
fn unsupported_keys_and_bad_steps_are_refused_before_anything_is_created() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let before = sessions(&tmux);
    let cases = [
        (
            "session_name: a\nwindows:\n  - window_name: w\n    options: {automatic-rename: false}\n",
            "`options`",
        ),
        (
            "session_name: a\nbefore_script: ./bootstrap\nwindows: [{}]\n",
            "`before_script`",
        ),
        ("session_name: a\nwindows:\n  - layout: spiral\n", "neither a preset"),
        // The document is fine; the step's own tool refuses it (a relative command path
        // is fine, an over-long window name is not): nothing is created either.
        (
            &*format!(
                "session_name: a\nwindows:\n  - window_name: w\n  - window_name: {}\n",
                "n".repeat(300)
            ),
            "/windows/1",
        ),
    ];
    for (text, expected) in cases {
        let error = client.call_err("load_workspace", json!({"document": text}));
        assert!(error.contains(expected), "{text}: {error}");
        assert!(error.contains("nothing was created"), "{error}");
    }
    assert_eq!(sessions(&tmux), before, "a refused document changed tmux");
}

#[test]
fn a_layout_string_in_a_later_window_is_refused_before_anything_is_created() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let windows = || tmux.tmux(&["list-windows", "-a", "-F", "#{session_id} #{window_id}"]);
    let before = (sessions(&tmux), windows());
    for (layout, expected) in [
        (
            "0000,80x24,0,0{40x24,0,0,0,39x24,41,0,1}",
            "the layout string's checksum is 0000 but its body sums to 8205",
        ),
        ("b25d,80x24,0,0,0", "has 1 pane cells but this window has 2 panes"),
        (
            "8205,80x24,0,0{40x24,0,0,0,39x24,41,0,1}",
            "the panes a document makes are new",
        ),
    ] {
        let text = format!(
            "session_name: laid out\nwindows:\n  - window_name: first\n  - window_name: second\n    layout: '{layout}'\n    panes: [echo a, echo b]\n"
        );
        let error = client.call_err("load_workspace", json!({"document": text}));
        assert!(
            error.contains("/windows/1/layout") && error.contains(expected),
            "{layout}: {error}"
        );
        assert!(error.contains("nothing was created"), "{error}");
        assert_eq!(
            (sessions(&tmux), windows()),
            before,
            "{layout}: a refused document changed tmux"
        );
    }
}

#[test]
fn a_dry_run_of_a_document_says_each_step_and_changes_nothing() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let before = sessions(&tmux);
    let reply = client.call_ok("load_workspace", json!({"document": document("/tmp"), "dry_run": true}));
    assert_eq!(reply["dryRun"], json!(true));
    assert_eq!(reply["sessionId"], Value::Null);
    let tools: Vec<&str> = reply["plan"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["tool"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "create_session",
            "split_window",
            "select_layout",
            "split_window",
            "select_layout",
            "create_window",
            "run_command"
        ],
        "{reply}"
    );
    assert_eq!(
        reply["plan"][0]["tmux"],
        json!(["new-session -d -s 'built by document' -n edit -c /tmp"])
    );
    assert!(
        reply["plan"][6]["does"]
            .as_str()
            .unwrap()
            .starts_with("/windows/0/panes/0: type into pane <row0.paneId>"),
        "{reply}"
    );
    assert_eq!(sessions(&tmux), before, "a dry run changed tmux");
}

#[test]
fn a_frozen_session_loads_back_as_the_same_shape() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let loaded = client.call_ok("load_workspace", json!({"document": document("/tmp")}));
    let session = loaded["sessionId"].as_str().unwrap();
    let frozen = client.call_ok("freeze_workspace", json!({"session_id": session}));
    assert_eq!(
        (frozen["windows"].clone(), frozen["panes"].clone()),
        (json!(2), json!(4)),
        "{frozen}"
    );
    let text = frozen["document"].as_str().unwrap();
    assert!(text.contains("session_name: built by document"), "{text}");
    let again = text.replace("session_name: built by document", "session_name: built again");
    let reloaded = client.call_ok("load_workspace", json!({"document": again}));
    let shape = |reply: &Value| -> Vec<(String, usize, String)> {
        reply["windows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                let id = w["windowId"].as_str().unwrap();
                (
                    tmux.pane_value(id, "#{window_name}"),
                    w["paneIds"].as_array().unwrap().len(),
                    tmux.pane_value(w["paneIds"][0].as_str().unwrap(), "#{pane_start_path}"),
                )
            })
            .collect()
    };
    assert_eq!(shape(&reloaded), shape(&loaded));
    let error = client.call_err("freeze_workspace", json!({"session_id": "$999"}));
    assert!(error.contains("no session $999"), "{error}");
}

#[test]
fn a_typed_line_a_shell_never_got_is_an_error_not_a_job() {
    let tmux = TmuxServer::start();
    // Every new pane's shell takes 10 s to draw its first prompt, as a slow startup
    // file would make it: longer than a batch row's wait for a new pane (5 s) and
    // run_command's own grace for a prompt after it (3 s).
    tmux.tmux(&["set-option", "-g", "default-command", "sleep 10; exec /bin/sh"]);
    let mut client = tmux.paneward();
    let document = "session_name: slow shell\nwindows:\n  - panes:\n      - echo typed\n";
    let (kind, message) = client.call_failed("load_workspace", json!({"document": document}));
    assert!(
        message.contains("typed nothing") && message.contains("/windows/0/panes/0") && message.contains("kill_session"),
        "{kind}: {message}"
    );
    // The session it made is there, as the error says.
    assert!(sessions(&tmux).contains("slow shell"), "{}", sessions(&tmux));
}
