//! `call_mutating_tools_batch` and `call_destructive_tools_batch` against real tmux:
//! rows run in order through the request path, every row is checked before any runs,
//! and a bad batch changes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{wait_for, TmuxServer};
use serde_json::{json, Value};

fn set_user_option(pane: &str, name: &str, value: &str) -> Value {
    json!({"tool": "set_option", "arguments": {"name": name, "scope": "pane", "target": pane, "value": value}})
}

fn user_option(tmux: &TmuxServer, pane: &str, name: &str) -> String {
    tmux.tmux(&["show-options", "-pqv", "-t", pane, name])
}

fn pane_exists(tmux: &TmuxServer, pane: &str) -> bool {
    tmux.tmux(&["list-panes", "-a", "-F", "#{pane_id}"])
        .lines()
        .any(|line| line == pane)
}

#[test]
fn rows_run_in_order_each_as_a_direct_call() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "call_mutating_tools_batch",
        json!({"operations": [
            set_user_option(&pane, "@first", "one"),
            set_user_option(&pane, "@first", "two"),
            {"tool": "show_option", "arguments": {"name": "@first", "scope": "pane", "target": pane}},
        ]}),
    );
    assert_eq!(
        (reply["succeeded"].clone(), reply["failed"].clone()),
        (json!(3), json!(0))
    );
    assert_eq!(reply["skipped"], json!([]));
    // The second row saw what the first stored: they ran in order.
    assert_eq!(reply["results"][1]["result"]["previous"], json!("one"));
    assert_eq!(reply["results"][2]["tool"], json!("show_option"));
    assert_eq!(user_option(&tmux, &pane, "@first"), "two\n");
}

#[test]
fn a_bad_row_anywhere_refuses_the_batch_before_any_row_runs() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    let cases = [
        (
            json!({"tool": "set_option", "arguments": {"name": "@x", "scope": "pane", "target": "not-a-pane", "value": "v"}}),
            "/operations/1/arguments",
        ),
        (json!({"tool": "no_such_tool"}), "there is no tool `no_such_tool`"),
        (
            json!({"tool": "call_read_tools_batch", "arguments": {"operations": [{"tool": "list_panes"}]}}),
            "cannot run inside a batch",
        ),
        (
            json!({"tool": "wait_for_text", "arguments": {}}),
            "waits are not run inside a batch",
        ),
        (
            json!({"tool": "run_command", "arguments": {"pane_id": pane, "command": "true"}}),
            "run_command only with detach: true",
        ),
        (
            json!({"tool": "call_destructive_tools_batch", "arguments": {"operations": []}}),
            "cannot run inside a batch",
        ),
    ];
    for (bad, expected) in cases {
        let error = client.call_err(
            "call_mutating_tools_batch",
            json!({"operations": [set_user_option(&pane, "@untouched", "set"), bad]}),
        );
        assert!(error.contains(expected), "{error}");
        assert!(error.contains("so this batch ran nothing"), "{error}");
        assert_eq!(
            user_option(&tmux, &pane, "@untouched"),
            "",
            "the first row ran: {error}"
        );
    }
}

#[test]
fn a_set_option_row_whose_value_a_format_would_expand_again_refuses_the_batch() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    let before = tmux.tmux(&["show-options", "-gw"]);
    for value in ["#{E:pane_title}", "#{T:pane_title}", "#{=/9/…;E:pane_title}"] {
        let error = client.call_err(
            "call_mutating_tools_batch",
            json!({"operations": [
                set_user_option(&pane, "@untouched", "set"),
                {"tool": "set_option", "arguments": {"name": "automatic-rename-format", "scope": "global", "value": value}},
            ]}),
        );
        assert!(
            error.contains("/operations/1/arguments") && error.contains("/value") && error.contains("format modifier"),
            "{value}: {error}"
        );
        assert!(error.contains("so this batch ran nothing"), "{error}");
        assert_eq!(
            user_option(&tmux, &pane, "@untouched"),
            "",
            "the first row ran: {error}"
        );
    }
    assert_eq!(tmux.tmux(&["show-options", "-gw"]), before);
}

#[test]
fn a_row_above_the_batch_tier_is_refused_before_anything_runs() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let doomed = tmux.window_running("sleep 600");
    let mut client = tmux.paneward_with(&["--safety", "destructive"], &[]);
    client.initialize();
    for (row, expected) in [
        (
            json!({"tool": "kill_pane", "arguments": {"pane_id": doomed}}),
            "above this batch's tier",
        ),
        // An argument escalation is a tier too: a live respawn needs destructive.
        (
            json!({"tool": "respawn_pane", "arguments": {"pane_id": doomed, "kill": true}}),
            "`kill: true`",
        ),
    ] {
        let error = client.call_err(
            "call_mutating_tools_batch",
            json!({"operations": [set_user_option(&pane, "@untouched", "set"), row]}),
        );
        assert!(
            error.contains(expected) && error.contains("so this batch ran nothing"),
            "{error}"
        );
        assert_eq!(user_option(&tmux, &pane, "@untouched"), "");
        assert!(pane_exists(&tmux, &doomed));
    }
}

#[test]
fn a_destructive_batch_builds_and_tears_down_and_kill_server_stays_out() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let first = tmux.window_running("sleep 600");
    let second = tmux.window_running("sleep 600");
    let mut client = tmux.paneward_with(&["--safety", "destructive"], &[]);
    client.initialize();
    let reply = client.call_ok(
        "call_destructive_tools_batch",
        json!({"operations": [
            set_user_option(&pane, "@tidy", "yes"),
            {"tool": "kill_pane", "arguments": {"pane_id": first}},
            {"tool": "kill_pane", "arguments": {"pane_id": second}},
        ]}),
    );
    assert_eq!(reply["succeeded"], json!(3), "{reply}");
    assert_eq!(reply["results"][1]["result"]["killed"], json!(first));
    assert!(!pane_exists(&tmux, &first) && !pane_exists(&tmux, &second));
    let error = client.call_err(
        "call_destructive_tools_batch",
        json!({"operations": [set_user_option(&pane, "@x", "v"), {"tool": "kill_server", "arguments": {"confirm": true}}]}),
    );
    assert!(error.contains("cannot run inside a batch"), "{error}");
    assert_eq!(user_option(&tmux, &pane, "@x"), "");
}

#[test]
fn a_kill_of_what_holds_the_caller_pane_refuses_the_whole_batch_before_any_kill() {
    let tmux = TmuxServer::start();
    let caller = tmux.first_pane();
    let window = tmux.pane_value(&caller, "#{window_id}");
    let other = tmux.window_running("sleep 600");
    let env = tmux.tmux_env();
    let mut client = tmux.paneward_with(
        &["--safety", "destructive"],
        &[("TMUX", env.as_str()), ("TMUX_PANE", caller.as_str())],
    );
    client.initialize();
    let error = client.call_err(
        "call_destructive_tools_batch",
        json!({"operations": [
            {"tool": "kill_pane", "arguments": {"pane_id": other}},
            {"tool": "kill_window", "arguments": {"window_id": window}},
        ]}),
    );
    assert!(
        error.contains("/operations/1/tool") && error.contains("so this batch ran nothing"),
        "{error}"
    );
    // The first row, harmless on its own, did not run either.
    assert!(pane_exists(&tmux, &other));
}

#[test]
fn on_error_stop_skips_the_rest_and_continue_runs_it() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    // Valid for the schema, fails in tmux: the pane does not exist.
    let failing = set_user_option("%999999", "@x", "v");
    let reply = client.call_ok(
        "call_mutating_tools_batch",
        json!({"operations": [set_user_option(&pane, "@a", "1"), failing.clone(), set_user_option(&pane, "@b", "2")]}),
    );
    assert_eq!(reply["stoppedAt"], json!(1));
    assert_eq!(reply["skipped"], json!(["set_option"]));
    assert_eq!(reply["results"][1]["success"], json!(false));
    assert!(
        reply["results"][1]["error"].as_str().unwrap().contains("%999999"),
        "{reply}"
    );
    assert_eq!(user_option(&tmux, &pane, "@b"), "");

    let reply = client.call_ok(
        "call_mutating_tools_batch",
        json!({"on_error": "continue", "operations": [failing, set_user_option(&pane, "@b", "2")]}),
    );
    assert_eq!(
        (reply["succeeded"].clone(), reply["failed"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(reply["stoppedAt"], json!(null));
    assert_eq!(user_option(&tmux, &pane, "@b"), "2\n");
}

#[test]
fn the_reply_stays_under_the_line_cap_and_says_what_it_cut() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("seq -f 'row %06g ................................................................................................................' 1 20000; sleep 600");
    tmux.wait_for_text(&pane, "row 020000");
    let mut client = tmux.paneward();
    let capture = json!({"tool": "capture_pane", "arguments": {"pane_id": pane, "history": true, "max_lines": 5000}});
    client.send(&json!({"jsonrpc": "2.0", "id": 900, "method": "tools/call",
        "params": {"name": "call_mutating_tools_batch", "arguments": {"operations": vec![capture; 4]}}}));
    let (line, response) = client.response_line(&json!(900));
    assert!(line.len() <= 1_000_000, "{}", line.len());
    let reply = &response["result"]["structuredContent"];
    crate::support::assert_valid_output("call_mutating_tools_batch", reply);
    assert_eq!(reply["truncated"], json!(true));
    assert!(reply["truncatedBytes"].as_i64().unwrap() > 0);
    let shortened = reply["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["resultTruncated"] == json!(true));
    assert!(shortened.count() > 0, "{reply}");
}

#[test]
fn the_mutating_batch_is_not_served_at_readonly() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward_with(&["--safety", "readonly"], &[]);
    client.initialize();
    let error = client.call_err(
        "call_mutating_tools_batch",
        json!({"operations": [set_user_option(&pane, "@x", "v")]}),
    );
    assert!(error.contains("mutating"), "{error}");
    assert_eq!(user_option(&tmux, &pane, "@x"), "");
}

#[test]
fn one_batch_of_create_split_and_layout_rows_builds_a_workspace() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let window = tmux.pane_value(&pane, "#{window_id}");
    let session = tmux.pane_value(&pane, "#{session_id}");
    let mut client = tmux.paneward();
    let split = json!({"tool": "split_window", "arguments": {"pane_id": pane, "direction": "right"}});
    let reply = client.call_ok(
        "call_mutating_tools_batch",
        json!({"operations": [
            split.clone(),
            split.clone(),
            split,
            {"tool": "select_layout", "arguments": {"window_id": window, "layout": "tiled"}},
            {"tool": "create_window", "arguments": {"session_id": session, "name": "logs"}},
        ]}),
    );
    assert_eq!(reply["succeeded"], json!(5), "{reply}");
    let panes = tmux.tmux(&["list-panes", "-t", &window, "-F", "#{pane_id}"]);
    assert_eq!(panes.lines().count(), 4, "{panes}");
    // The split rows' new panes are paneward's, marked in the list that made them.
    for row in 0..3 {
        let made = reply["results"][row]["result"]["paneId"].as_str().unwrap().to_string();
        assert_eq!(
            tmux.tmux(&["show-options", "-pqv", "-t", &made, "@paneward_owned_pane"]),
            "1\n"
        );
    }
    let logs = reply["results"][4]["result"]["windowId"].as_str().unwrap().to_string();
    assert_eq!(tmux.pane_value(&logs, "#{window_name}"), "logs");
    assert_eq!(
        reply["results"][3]["result"]["layout"].as_str().map(|l| l.is_empty()),
        Some(false)
    );
}

/// A row's reference to the field `field` of row `row`'s reply.
fn reference(row: usize, field: &str) -> Value {
    json!({"row": row, "field": field})
}

/// What a batch could change of the server's shape: sessions with their names, windows
/// with their layouts, panes. (Not window names: automatic-rename changes them by itself
/// as a window's program starts.)
fn server_state(tmux: &TmuxServer) -> String {
    tmux.tmux(&[
        "list-panes",
        "-a",
        "-F",
        "#{session_id} #{session_name} #{window_id} #{window_layout} #{pane_id}",
    ])
}

#[test]
fn one_call_builds_a_session_window_split_layout_and_runs_in_the_new_pane() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "call_mutating_tools_batch",
        json!({"operations": [
            {"tool": "create_session", "arguments": {"name": "built"}},
            {"tool": "create_window", "arguments": {"name": "work"}, "references": {"session_id": reference(0, "sessionId")}},
            {"tool": "split_window", "arguments": {"direction": "right"}, "references": {"pane_id": reference(1, "paneId")}},
            {"tool": "select_layout", "arguments": {"layout": "even-horizontal"}, "references": {"window_id": reference(1, "windowId")}},
            {"tool": "run_command", "arguments": {"command": "echo built-$((6*7))", "detach": true},
             "references": {"pane_id": reference(2, "paneId")}},
        ]}),
    );
    assert_eq!(reply["succeeded"], json!(5), "{reply}");
    assert_eq!(reply["dryRun"], json!(false));
    let result = |row: usize, field: &str| reply["results"][row]["result"][field].as_str().unwrap().to_string();
    let (session, window, split) = (result(0, "sessionId"), result(1, "windowId"), result(2, "paneId"));
    assert_eq!(
        tmux.pane_value(&window, "#{session_id} #{window_name}"),
        format!("{session} work")
    );
    let panes = tmux.tmux(&["list-panes", "-t", &window, "-F", "#{pane_id}"]);
    assert_eq!(panes.lines().count(), 2, "{panes}");
    assert!(panes.lines().any(|pane| pane == split), "{panes}");
    assert_eq!(result(4, "paneId"), split);
    let job = result(4, "jobId");
    let finished = wait_for("the command in the new pane to finish", || {
        let reply = client.call_ok("get_job", json!({"job_id": job, "timeout_seconds": 2.0}));
        (reply["state"] == "finished").then_some(reply)
    });
    assert_eq!(finished["output"], json!(["built-42"]));
}

#[test]
fn a_bad_reference_refuses_the_batch_before_any_row_runs_naming_row_and_field() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    let before = server_state(&tmux);
    let cases = [
        (
            json!({"pane_id": reference(2, "paneId")}),
            "row 2 is not an earlier row",
        ),
        (
            json!({"pane_id": reference(1, "paneId")}),
            "row 1 is not an earlier row",
        ),
        (json!({"pane_id": reference(9, "paneId")}), "there is no row 9"),
        (json!({"pane_id": reference(0, "newPane")}), "has no field `newPane`"),
        (
            json!({"direction": reference(0, "paneId")}),
            "only ids take a reference",
        ),
        (json!({"pane": reference(0, "paneId")}), "takes no argument `pane`"),
    ];
    for (references, expected) in cases {
        let error = client.call_err(
            "call_mutating_tools_batch",
            json!({"operations": [
                {"tool": "split_window", "arguments": {"pane_id": pane}},
                {"tool": "split_window", "arguments": {}, "references": references},
                {"tool": "split_window", "arguments": {"pane_id": pane}},
            ]}),
        );
        assert!(error.contains(expected), "{error}");
        let argument = references.as_object().unwrap().keys().next().unwrap().clone();
        assert!(
            error.contains(&format!("/operations/1/references/{argument}")),
            "{error}"
        );
        assert!(error.contains("ran nothing"), "{error}");
    }
    // The arguments a row leaves to its references must still pass its schema otherwise.
    let error = client.call_err(
        "call_mutating_tools_batch",
        json!({"operations": [
            {"tool": "split_window", "arguments": {"pane_id": pane}},
            {"tool": "split_window", "arguments": {"direction": "sideways"}, "references": {"pane_id": reference(0, "paneId")}},
        ]}),
    );
    assert!(error.contains("/operations/1/arguments"), "{error}");
    assert_eq!(server_state(&tmux), before, "a refused batch changed tmux");
}

#[test]
fn a_reference_takes_only_id_fields_never_a_title_a_program_set() {
    let tmux = TmuxServer::start();
    let scratch = crate::support::Scratch::new();
    let typed_into = tmux.recorder(&scratch.path("typed"));
    // A program sets its own pane's title to the id of another pane.
    let titled = tmux.window_running(&format!(
        "printf '\\033]2;%s\\033\\\\' '{typed_into}'; exec sleep 100000"
    ));
    tmux.wait_for_value(&titled, "#{pane_title}", &typed_into);
    let mut client = tmux.paneward();
    let batch = |references: Value| {
        json!({"operations": [
            {"tool": "get_pane_info", "arguments": {"pane_id": titled}},
            {"tool": "send_keys", "arguments": {"keys": "echo typed-by-reference", "literal": true}, "references": references},
        ]})
    };
    let error = client.call_err(
        "call_mutating_tools_batch",
        batch(json!({"pane_id": reference(0, "title")})),
    );
    assert!(
        error.contains("/operations/1/references/pane_id")
            && error.contains("`title`")
            && error.contains("not an id field"),
        "{error}"
    );
    assert!(error.contains("so this batch ran nothing"), "{error}");
    // An id field of another kind is refused too.
    let error = client.call_err(
        "call_mutating_tools_batch",
        json!({"operations": [
            {"tool": "split_window", "arguments": {"pane_id": titled}},
            {"tool": "send_keys", "arguments": {"keys": "echo x", "literal": true}, "references": {"pane_id": reference(0, "windowId")}},
        ]}),
    );
    assert!(
        error.contains("holds a window id") && error.contains("ran nothing"),
        "{error}"
    );
    assert_eq!(tmux.tmux(&["list-panes", "-t", &titled]).lines().count(), 1);
    // Nothing reached the pane the title named: a marker typed after is the first line.
    tmux.tmux(&["send-keys", "-t", &typed_into, "-l", "marker"]);
    tmux.tmux(&["send-keys", "-t", &typed_into, "Enter"]);
    assert_eq!(scratch.wait_for_lines("typed", 1), "marker\n");
}

#[test]
fn a_reference_to_a_row_that_failed_or_did_not_run_fails_its_row_clearly() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let before = server_state(&tmux);
    let reply = client.call_ok(
        "call_mutating_tools_batch",
        json!({"on_error": "continue", "operations": [
            {"tool": "split_window", "arguments": {"pane_id": "%999"}},
            {"tool": "split_window", "arguments": {}, "references": {"pane_id": reference(0, "paneId")}},
            {"tool": "select_layout", "arguments": {"layout": "tiled"}, "references": {"window_id": reference(1, "windowId")}},
        ]}),
    );
    assert_eq!(reply["failed"], json!(3), "{reply}");
    let error = |row: usize| reply["results"][row]["error"].as_str().unwrap().to_string();
    assert!(error(1).contains("/operations/1/references/pane_id"), "{}", error(1));
    assert!(
        error(1).contains("row 0 failed, so this row did not run"),
        "{}",
        error(1)
    );
    assert!(
        error(2).contains("row 1 failed, so this row did not run"),
        "{}",
        error(2)
    );
    assert_eq!(server_state(&tmux), before);
}

#[test]
fn a_dry_run_says_what_each_row_would_do_and_changes_nothing() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let doomed_pane = tmux.window_running("sleep 600");
    let doomed = tmux.pane_value(&doomed_pane, "#{window_id}");
    tmux.tmux(&["new-session", "-d", "-s", "doomed", "sleep 600"]);
    let doomed_session = tmux.pane_value("doomed", "#{session_id} #{window_id} #{pane_id}");
    let [session, session_window, session_pane] = doomed_session.split(' ').collect::<Vec<_>>()[..] else {
        panic!("{doomed_session}");
    };
    let mut client = tmux.paneward_with(&["--safety", "destructive"], &[]);
    client.initialize();
    let before = server_state(&tmux);
    let reply = client.call_ok(
        "call_destructive_tools_batch",
        json!({"dry_run": true, "operations": [
            {"tool": "create_session", "arguments": {"name": "planned one", "command": ["sleep", "60"]}},
            {"tool": "split_window", "arguments": {"direction": "right"}, "references": {"pane_id": reference(0, "paneId")}},
            {"tool": "kill_window", "arguments": {"window_id": doomed}},
            {"tool": "set_option", "arguments": {"name": "@planned", "scope": "pane", "target": pane, "value": "v"}},
            {"tool": "kill_session", "arguments": {"session_id": session}},
        ]}),
    );
    assert_eq!(reply["dryRun"], json!(true), "{reply}");
    assert_eq!(reply["succeeded"], json!(5), "{reply}");
    let row = |index: usize| reply["results"][index]["result"].clone();
    assert_eq!(row(0)["tmux"], json!(["new-session -d -s 'planned one' -- sleep 60"]));
    assert_eq!(row(1)["tmux"], json!(["split-window -d -t <row0.paneId> -h"]));
    assert!(row(1)["does"].as_str().unwrap().contains("<row0.paneId>"), "{}", row(1));
    assert_eq!(row(2)["tmux"], json!([format!("kill-window -t {doomed}")]));
    assert_eq!(row(2)["closes"], json!([doomed_pane, doomed]));
    assert_eq!(row(3)["closes"], json!([]));
    assert_eq!(row(4)["closes"], json!([session_pane, session_window, session]));
    assert_eq!(server_state(&tmux), before, "a dry run changed tmux");
    assert_eq!(tmux.tmux(&["show-options", "-pqv", "-t", &pane, "@planned"]), "");
}

#[test]
fn under_scope_owned_rows_with_references_are_checked_on_the_ids_they_get() {
    let tmux = TmuxServer::start();
    let theirs = tmux.first_pane();
    let mut client = tmux.paneward_with(&["--scope", "owned"], &[]);
    client.initialize();
    // The ids a reference gets are paneward's own: the rows run.
    let reply = client.call_ok(
        "call_mutating_tools_batch",
        json!({"operations": [
            {"tool": "create_session", "arguments": {"name": "ours"}},
            {"tool": "split_window", "arguments": {}, "references": {"pane_id": reference(0, "paneId")}},
        ]}),
    );
    assert_eq!(reply["succeeded"], json!(2), "{reply}");
    // An id given outright is still checked before any row runs.
    let error = client.call_err(
        "call_mutating_tools_batch",
        json!({"operations": [
            {"tool": "create_session", "arguments": {"name": "second"}},
            {"tool": "split_window", "arguments": {"pane_id": theirs}},
        ]}),
    );
    assert!(
        error.contains("--scope owned") && error.contains("/operations/1"),
        "{error}"
    );
    assert_eq!(
        tmux.tmux(&["list-sessions", "-F", "#{session_name}"])
            .lines()
            .filter(|s| *s == "second")
            .count(),
        0
    );
}
