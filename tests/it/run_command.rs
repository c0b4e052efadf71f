//! `run_command` and `get_job` against real tmux servers: the command's own output and
//! exit status, refusals of panes that run no shell, jobs across a timeout and a
//! paneward restart, nothing left behind, and cancellation with progress.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{wait_for, Client, TmuxServer};
use serde_json::{json, Value};

/// Runs `command` in `pane` and returns the reply, which must be `finished`.
#[track_caller]
fn run(client: &mut Client, pane: &str, command: &str) -> Value {
    let reply = client.call_ok("run_command", json!({"pane_id": pane, "command": command}));
    assert_eq!(reply["state"], "finished", "{reply}");
    reply
}

/// Every paneward option and buffer left in `tmux` (pane options of `pane`, server
/// and global options, buffers).
fn leftovers(tmux: &TmuxServer, pane: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for args in [
        vec!["show-options", "-p", "-t", pane],
        vec!["show-options", "-s"],
        vec!["show-options", "-g"],
        vec!["list-buffers", "-F", "#{buffer_name}"],
    ] {
        found.extend(
            tmux.tmux(&args)
                .lines()
                .filter(|line| line.contains("paneward"))
                .map(str::to_string),
        );
    }
    found
}

#[test]
fn exit_statuses_are_the_commands_own_in_dash_and_bash() {
    let tmux = TmuxServer::start();
    let dash = tmux.first_pane();
    let bash = tmux.window_running("exec bash --norc --noprofile");
    tmux.wait_for_value(&bash, "#{pane_current_command}", "bash");
    let mut client = tmux.paneward();
    for pane in [dash, bash] {
        exit_statuses_in(&mut client, &pane);
    }
}

fn exit_statuses_in(client: &mut Client, pane: &str) {
    for (command, status) in [
        ("true", 0),
        ("false", 1),
        ("exit 7", 7),
        ("(exit 9); echo $?; (exit 3)", 3),
        ("sh -c 'kill -TERM $$'", 143),
        ("if then", 2),
    ] {
        let reply = run(client, pane, command);
        assert_eq!(reply["exitStatus"], status, "{pane} {command}: {reply}");
        assert_eq!(reply["jobId"], Value::Null);
    }
    // `exit` ended the subshell only: the pane's shell is still there and runs more.
    let reply = run(client, pane, "echo still here");
    assert_eq!(reply["output"], json!(["still here"]));
    // Ctrl-C ends the command, and the status still comes back.
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": "echo waiting; sleep 100000", "timeout_seconds": 0.5}),
    );
    let job = reply["jobId"].as_str().unwrap().to_string();
    wait_for("the sleep to start", || {
        let reply = client.call_ok("get_job", json!({"job_id": job}));
        (reply["output"] == json!(["waiting"])).then_some(())
    });
    client.call_ok("send_keys", json!({"paneId": pane, "keys": "C-c", "enter": false}));
    let stopped = client.call_ok("get_job", json!({"job_id": job, "timeout_seconds": 10}));
    assert_eq!(stopped["exitStatus"], 130, "{stopped}");
}

#[test]
fn the_output_is_exactly_the_commands_rows() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    tmux.tmux(&["send-keys", "-t", &pane, "echo earlier text", "Enter"]);
    tmux.wait_for_text(&pane, "earlier text\n");
    let reply = run(
        &mut client,
        &pane,
        "printf 'first\\n\\n  indented  and spaced\\n'\necho second line; printf 'no newline'",
    );
    assert_eq!(
        reply["output"],
        json!(["first", "", "  indented  and spaced", "second line", "no newline"])
    );
    assert_eq!(reply["truncated"], false);
    assert_eq!(reply["linesMissed"], false);
    // A line longer than the pane is one row, joined.
    let long = "x".repeat(200);
    let reply = run(&mut client, &pane, &format!("echo {long}"));
    assert_eq!(reply["output"], json!([long]));
    // Nothing at all is an empty list.
    assert_eq!(run(&mut client, &pane, "true")["output"], json!([]));
}

#[test]
fn output_larger_than_the_screen_keeps_the_newest_lines_and_counts_the_rest() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    let reply = run(&mut client, &pane, "seq 1 300");
    let all: Vec<String> = (1..=300).map(|n| n.to_string()).collect();
    assert_eq!(reply["output"], json!(all));
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": "seq 1 300", "max_lines": 100}),
    );
    assert_eq!(reply["output"], json!(all[200..].to_vec()));
    assert_eq!(reply["truncated"], true);
    assert_eq!(reply["truncatedLines"], 200);
    let dropped: usize = all[..200].iter().map(|line| line.len() + 1).sum();
    assert_eq!(reply["truncatedBytes"], dropped);
}

#[test]
fn a_pane_whose_program_is_not_a_posix_shell_is_refused_by_name() {
    let tmux = TmuxServer::start();
    let python = tmux.window_running("exec /usr/bin/python3 -q");
    tmux.wait_for_value(&python, "#{pane_current_command}", "python3");
    // Each draws its screen after it starts: compare screens once drawn.
    tmux.wait_for_text(&python, ">>>");
    let vim = tmux.window_running("exec vim -u NONE -N");
    tmux.wait_for_value(&vim, "#{pane_current_command}", "vim");
    wait_for("vim's screen down to its last row", || {
        (tmux.capture(&vim).lines().nth(22) == Some("~")).then_some(())
    });
    let mut client = tmux.paneward();
    for (pane, program) in [(&python, "python3"), (&vim, "vim")] {
        let before = tmux.capture(pane);
        let error = client.call_err("run_command", json!({"pane_id": pane, "command": "echo hi"}));
        assert!(error.contains(&format!("\"{program}\"")), "{error}");
        assert!(error.contains("not a POSIX-like shell"), "{error}");
        assert_eq!(tmux.capture(pane), before, "nothing was typed");
        assert_eq!(leftovers(&tmux, pane), Vec::<String>::new());
    }
    let error = client.call_err("run_command", json!({"pane_id": "%999", "command": "true"}));
    assert!(error.contains("%999"), "{error}");
}

#[test]
fn a_job_that_outlives_its_timeout_is_read_with_get_job_even_after_a_restart() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    tmux.tmux(&["set-option", "-p", "-t", &pane, "@keep", "mine"]);
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": "echo started; read go; echo \"got $go\"; exit 4", "timeout_seconds": 0.3}),
    );
    assert!(
        matches!(reply["state"].as_str(), Some("running" | "pending")),
        "{reply}"
    );
    assert_eq!(reply["exitStatus"], Value::Null);
    assert_eq!(reply["timeoutSeconds"], 0.3);
    let job = reply["jobId"].as_str().unwrap().to_string();
    // The pane is busy: another command is refused, naming the job.
    let error = client.call_err("run_command", json!({"pane_id": pane, "command": "true"}));
    assert!(error.contains(&job), "{error}");
    let running = wait_for("the command to start", || {
        let reply = client.call_ok("get_job", json!({"job_id": job}));
        (reply["output"] == json!(["started"])).then_some(reply)
    });
    assert_eq!(running["state"], "running");

    tmux.tmux(&["send-keys", "-t", &pane, "-l", "yes"]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    let finished = client.call_ok("get_job", json!({"job_id": job, "timeout_seconds": 10}));
    assert_eq!(finished["state"], "finished", "{finished}");
    assert_eq!(finished["exitStatus"], 4);
    assert_eq!(finished["output"], json!(["started", "yes", "got yes"]));
    let read = client.call_ok("get_job", json!({"job_id": job}));
    assert_eq!(read, client.call_ok("get_job", json!({"job_id": job})));
    assert_eq!(read["output"], finished["output"]);
    assert_eq!(read["elapsedSeconds"], finished["elapsedSeconds"]);
    let finished = read;

    // A new paneward reads the same job from tmux.
    client.close();
    let mut client = tmux.paneward();
    assert_eq!(client.call_ok("get_job", json!({"job_id": job})), finished);

    // The next command in the pane collects it; then nothing of paneward's is left, in
    // tmux or among processes.
    run(&mut client, &pane, "true");
    let error = client.call_err("get_job", json!({"job_id": job}));
    assert!(error.contains("holds no job"), "{error}");
    assert_eq!(leftovers(&tmux, &pane), Vec::<String>::new());
    let helpers = wait_for("the wrapper's tmux clients to exit", || {
        let found = processes_mentioning(&tmux.name);
        found
            .iter()
            .all(|p| !p.contains("wait-for") && !p.contains("paneward_"))
            .then_some(found)
    });
    assert!(helpers.iter().all(|p| !p.contains("show-buffer")), "{helpers:?}");
    assert_eq!(tmux.tmux(&["show-options", "-p", "-t", &pane]).trim(), "@keep mine");
}

#[test]
fn detach_returns_a_job_at_once_and_an_unfinished_wait_clamps_to_max_wait() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward_with(&["--max-wait", "2"], &[]);
    client.initialize();
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": "read line; echo \"$line\"", "detach": true}),
    );
    assert!(
        matches!(reply["state"].as_str(), Some("running" | "pending")),
        "{reply}"
    );
    assert_eq!(reply["timeoutSeconds"], 0.0);
    let job = reply["jobId"].as_str().unwrap().to_string();
    let waited = client.call_ok("get_job", json!({"job_id": job, "timeout_seconds": 100}));
    assert_eq!(waited["state"], "running");
    assert_eq!(waited["timeoutSeconds"], 2.0);
    assert_eq!(waited["timeoutClamped"], true);
    tmux.tmux(&["send-keys", "-t", &pane, "-l", "typed later"]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    let finished = wait_for("the job to finish", || {
        let reply = client.call_ok("get_job", json!({"job_id": job}));
        (reply["state"] == "finished").then_some(reply)
    });
    assert_eq!(finished["output"], json!(["typed later", "typed later"]));
    assert_eq!(finished["exitStatus"], 0);
}

#[test]
fn unknown_foreign_and_malformed_job_ids_are_refused_with_the_reason() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let other = tmux.window_running("/bin/sh");
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": "echo up; sleep 100000", "timeout_seconds": 0}),
    );
    let job = reply["jobId"].as_str().unwrap().to_string();
    wait_for("the sleep to start", || {
        let reply = client.call_ok("get_job", json!({"job_id": job}));
        (reply["output"] == json!(["up"])).then_some(())
    });
    let random = job.split_once(':').unwrap().1;
    let moved = format!("{other}:{random}");
    let error = client.call_err("get_job", json!({"job_id": moved}));
    assert!(error.contains("holds no job") && error.contains(&other), "{error}");
    let unknown = format!("{pane}:{}", "0".repeat(32));
    assert!(client
        .call_err("get_job", json!({"job_id": unknown}))
        .contains("holds no job"));
    let gone = format!("%999:{random}");
    assert!(client
        .call_err("get_job", json!({"job_id": gone}))
        .contains("no longer exists"));
    let error = client.call_err("get_job", json!({"job_id": "job-1"}));
    assert!(error.contains("/job_id"), "{error}");
    tmux.tmux(&["send-keys", "-t", &pane, "C-c"]);
    let stopped = client.call_ok("get_job", json!({"job_id": job, "timeout_seconds": 10}));
    assert_eq!(stopped["exitStatus"], 130, "{stopped}");
}

#[test]
fn the_command_text_is_in_no_process_arguments() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    let secret = "pw-secret-7d1e";
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": format!("echo up; sleep 100000 || : {secret}"), "timeout_seconds": 0.5}),
    );
    assert!(
        matches!(reply["state"].as_str(), Some("running" | "pending")),
        "{reply}"
    );
    let job = reply["jobId"].as_str().unwrap().to_string();
    wait_for("the sleep to start", || {
        let reply = client.call_ok("get_job", json!({"job_id": job}));
        (reply["output"] == json!(["up"])).then_some(())
    });
    let mut seen = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains(secret) {
            seen.push(String::from_utf8_lossy(&cmdline).replace('\0', " "));
        }
    }
    assert_eq!(seen, Vec::<String>::new());
    assert!(
        !tmux.capture(&pane).contains(secret),
        "the typed line shows no command text"
    );
    tmux.tmux(&["send-keys", "-t", &pane, "C-c"]);
}

/// The argument vectors of the processes whose arguments hold `text`.
fn processes_mentioning(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let args = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if args.contains(text) {
            found.push(args);
        }
    }
    found
}

#[test]
fn a_line_the_shell_never_fetches_is_pending_and_the_next_command_clears_it() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    // Without TMUX, the shell's own tmux cannot reach this server.
    tmux.tmux(&["send-keys", "-t", &pane, "unset TMUX; echo unset-done", "Enter"]);
    tmux.wait_for_text(&pane, "unset-done\n");
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": "echo never", "timeout_seconds": 1}),
    );
    assert_eq!(reply["state"], "pending", "{reply}");
    assert_eq!(reply["output"], json!([]), "the screen is not the output");
    let job = reply["jobId"].as_str().unwrap().to_string();
    assert_eq!(client.call_ok("get_job", json!({"job_id": job}))["state"], "pending");
    // With a shell in front, the next call takes the pending job as lost and clears it.
    let socket = tmux.tmux(&["display-message", "-p", "#{socket_path},#{pid},0"]);
    tmux.tmux(&[
        "send-keys",
        "-t",
        &pane,
        "-l",
        &format!("export TMUX={}", socket.trim()),
    ]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    let reply = run(&mut client, &pane, "echo back");
    assert_eq!(reply["output"], json!(["back"]));
    assert!(client
        .call_err("get_job", json!({"job_id": job}))
        .contains("holds no job"));
    assert_eq!(leftovers(&tmux, &pane), Vec::<String>::new());
}

/// Reads lines until the response to `id`, returning it and the progress notifications
/// seen for `token` on the way.
fn response_and_progress(client: &mut Client, id: &Value, token: &str) -> (Value, usize) {
    let mut progress = 0;
    loop {
        let line = client.next_raw_line().expect("paneward closed stdout");
        let message: Value = serde_json::from_str(&line).unwrap();
        if message.get("id") == Some(id) {
            return (message, progress);
        }
        if message["method"] == "notifications/progress" && message["params"]["progressToken"] == token {
            progress += 1;
        }
    }
}

#[test]
fn a_cancelled_wait_stops_reporting_and_the_command_goes_on_as_a_job() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    client.send(&json!({"jsonrpc": "2.0", "id": 100, "method": "tools/call", "params": {
        "name": "run_command",
        "arguments": {"pane_id": pane, "command": "read line; echo \"late $line\"", "timeout_seconds": 60},
        "_meta": {"progressToken": "wait-1"}}}));
    // Progress arrives while it waits.
    loop {
        let line = client.next_raw_line().expect("open");
        let message: Value = serde_json::from_str(&line).unwrap();
        if message["method"] == "notifications/progress" {
            assert_eq!(message["params"]["progressToken"], "wait-1");
            assert_eq!(message["params"]["total"], 60.0);
            assert!(message["params"]["message"].as_str().unwrap().contains(&pane));
            break;
        }
    }
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 100}}));
    let options = tmux.tmux(&["show-options", "-p", "-t", &pane]);
    let random = options
        .lines()
        .find_map(|line| line.strip_prefix("@paneward_job_"))
        .and_then(|rest| rest.split(' ').next())
        .unwrap()
        .to_string();
    let job = format!("{pane}:{random}");
    // While get_job waits three seconds, a wait still running would report twice.
    client.send(&json!({"jsonrpc": "2.0", "id": 101, "method": "tools/call", "params": {
        "name": "get_job", "arguments": {"job_id": job, "timeout_seconds": 3}}}));
    let (reply, progress) = response_and_progress(&mut client, &json!(101), "wait-1");
    assert_eq!(progress, 0, "the cancelled wait went on");
    let state = reply["result"]["structuredContent"]["state"].as_str();
    assert!(matches!(state, Some("running" | "pending")), "{reply}");
    tmux.tmux(&["send-keys", "-t", &pane, "-l", "now"]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    let finished = client.call_ok("get_job", json!({"job_id": job, "timeout_seconds": 10}));
    assert_eq!(finished["output"], json!(["now", "late now"]));
}

#[test]
fn get_tmux_variables_reads_the_pane_asked_for() {
    let tmux = TmuxServer::start();
    let other = tmux.window_running("/bin/sh");
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "get_tmux_variables",
        json!({"names": ["pane_id", "window_index"], "pane_id": other}),
    );
    assert_eq!(reply["context"]["paneId"], other);
    assert_eq!(reply["variables"][0]["value"], other);
    assert_eq!(reply["variables"][1]["value"], "1");
    let error = client.call_err("get_tmux_variables", json!({"names": null, "pane_id": "%999"}));
    assert!(error.contains("%999"), "{error}");
    let error = client.call_err("get_tmux_variables", json!({"names": null, "pane_id": "main"}));
    assert!(error.contains("/pane_id"), "{error}");
}

#[test]
fn in_a_batch_a_command_runs_detached_and_get_job_waits_briefly_at_most() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "call_mutating_tools_batch",
        json!({"operations": [{"tool": "run_command", "arguments": {"pane_id": pane, "command": "echo batched", "detach": true}}]}),
    );
    assert_eq!(reply["succeeded"], 1, "{reply}");
    let job = reply["results"][0]["result"]["jobId"].as_str().unwrap().to_string();
    let read = |timeout: f64| json!({"tool": "get_job", "arguments": {"job_id": job, "timeout_seconds": timeout}});
    let reply = client.call_ok("call_mutating_tools_batch", json!({"operations": [read(60.0)]}));
    assert_eq!(reply["failed"], 1, "{reply}");
    let error = reply["results"][0]["error"].as_str().unwrap();
    assert!(error.contains("/timeout_seconds") && error.contains("batch"), "{error}");
    let finished = wait_for("the batched command to finish", || {
        let reply = client.call_ok("call_mutating_tools_batch", json!({"operations": [read(2.0)]}));
        let result = reply["results"][0]["result"].clone();
        (result["state"] == "finished").then_some(result)
    });
    assert_eq!(finished["output"], json!(["batched"]));
}
