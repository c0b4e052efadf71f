//! `run_command` and `get_job` against real tmux servers: the command's own output and
//! exit status, refusals of panes that run no shell, jobs across a timeout and a
//! paneward restart, nothing left behind, and cancellation with progress.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{wait_for, Client, Scratch, TmuxServer};
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
    client.call_ok("send_keys", json!({"pane_id": pane, "keys": "C-c", "enter": false}));
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
fn a_line_the_shell_never_fetches_is_pending_blocks_the_pane_and_force_abandons_it() {
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
    let socket = tmux.tmux(&["display-message", "-p", "#{socket_path},#{pid},0"]);
    tmux.tmux(&[
        "send-keys",
        "-t",
        &pane,
        "-l",
        &format!("export TMUX={}; echo export-done", socket.trim()),
    ]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    tmux.wait_for_text(&pane, "export-done\n");
    // A pending job holds the pane: a slow shell may still fetch it.
    let error = client.call_err("run_command", json!({"pane_id": pane, "command": "echo back"}));
    assert!(error.contains(&job) && error.contains("not yet fetched"), "{error}");
    // force abandons it; get_job then names why it never ran.
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": "echo back", "force": true}),
    );
    assert_eq!(reply["output"], json!(["back"]), "{reply}");
    let error = client.call_err("get_job", json!({"job_id": job}));
    assert!(error.contains("never ran"), "{error}");
    // The next command collects that record too.
    run(&mut client, &pane, "true");
    assert!(client
        .call_err("get_job", json!({"job_id": job}))
        .contains("holds no job"));
    assert_eq!(leftovers(&tmux, &pane), Vec::<String>::new());
}

/// Waits until `pane`'s cursor row ends with `text` (what the shell echoed of a line
/// typed into it).
#[track_caller]
fn wait_for_cursor_row(tmux: &TmuxServer, pane: &str, text: &str) {
    wait_for(&format!("{text:?} at the cursor of {pane}"), || {
        let y: usize = tmux.pane_value(pane, "#{cursor_y}").parse().ok()?;
        let screen = tmux.capture(pane);
        let row = screen.lines().nth(y)?.trim_end().to_string();
        row.ends_with(text).then_some(())
    });
}

#[test]
fn a_line_a_person_has_half_typed_is_never_run() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let scratch = Scratch::new();
    let file = scratch.path("keep");
    std::fs::write(&file, "mine").unwrap();
    let mut client = tmux.paneward();
    // The first command proves the shell is up and drew its prompt.
    run(&mut client, &pane, "echo ready");
    let typed = format!("rm -f {file}");
    tmux.tmux(&["send-keys", "-t", &pane, "-l", &typed]);
    wait_for_cursor_row(&tmux, &pane, &typed);
    let before = tmux.capture(&pane);
    let error = client.call_err(
        "run_command",
        json!({"pane_id": pane, "command": "echo from-agent", "timeout_seconds": 2}),
    );
    assert!(error.contains("not an empty primary prompt"), "{error}");
    assert!(error.contains("nothing was typed"), "{error}");
    assert_eq!(tmux.capture(&pane), before, "nothing was typed");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    assert_eq!(leftovers(&tmux, &pane), Vec::<String>::new());
    // With the cursor moved back into the line, the text after it refuses too.
    tmux.tmux(&["send-keys", "-t", &pane, "C-a"]);
    let error = client.call_err("run_command", json!({"pane_id": pane, "command": "true"}));
    assert!(error.contains("nothing was typed"), "{error}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}

#[test]
fn a_shell_waiting_for_more_or_a_script_reading_input_is_not_typed_into() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    run(&mut client, &pane, "echo ready");
    // An open quote: the shell shows its continuation prompt.
    tmux.tmux(&["send-keys", "-t", &pane, "-l", "echo 'open"]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    wait_for_cursor_row(&tmux, &pane, ">");
    let before = tmux.capture(&pane);
    let error = client.call_err(
        "run_command",
        json!({"pane_id": pane, "command": "echo typed", "timeout_seconds": 1}),
    );
    assert!(error.contains("not an empty primary prompt"), "{error}");
    assert_eq!(tmux.capture(&pane), before, "nothing was typed");
    // A script in the foreground reading a line, with its own prompt or none.
    for (script, shown) in [
        ("printf 'Name: '; read x; echo \"got $x\"", "Name:"),
        ("echo asks; read x", "asks"),
    ] {
        let reader = tmux.window_running(&format!("sh -c '{}'", script.replace('\'', "'\\''")));
        tmux.wait_for_text(&reader, shown);
        let error = client.call_err(
            "run_command",
            json!({"pane_id": reader, "command": "echo typed", "timeout_seconds": 1}),
        );
        assert!(error.contains("nothing was typed"), "{script}: {error}");
        assert!(!tmux.capture(&reader).contains("eval"), "{script}: nothing was typed");
        assert_eq!(leftovers(&tmux, &reader), Vec::<String>::new());
    }
}

#[test]
fn pipelined_commands_in_one_pane_never_lose_one() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    run(&mut client, &pane, "echo ready");
    for round in 0..3 {
        let ids = [json!(200 + round * 2), json!(201 + round * 2)];
        for (id, word) in ids.iter().zip(["first", "second"]) {
            client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "run_command",
                "arguments": {"pane_id": pane, "command": format!("echo {word}-{round}"), "timeout_seconds": 20}}}));
        }
        let mut responses = std::collections::HashMap::new();
        while responses.len() < 2 {
            let line = client.next_raw_line().expect("paneward closed stdout");
            let message: Value = serde_json::from_str(&line).unwrap();
            if let Some(id) = message.get("id").filter(|id| ids.contains(id)) {
                responses.insert(id.to_string(), message.clone());
            }
        }
        for (id, word) in ids.iter().zip(["first", "second"]) {
            let response = &responses[&id.to_string()];
            let result = &response["result"];
            if result["isError"] == true {
                // Refused while the other was pending or running: said so, nothing typed.
                let text = result["content"][0]["text"].as_str().unwrap_or_default();
                assert!(text.contains("nothing was typed"), "{text}");
                continue;
            }
            let reply = &result["structuredContent"];
            let reply = if reply["state"] == "finished" {
                reply.clone()
            } else {
                let job = reply["jobId"].as_str().unwrap();
                client.call_ok("get_job", json!({"job_id": job, "timeout_seconds": 20}))
            };
            assert_eq!(reply["state"], "finished", "{word}: {reply}");
            assert_eq!(reply["output"], json!([format!("{word}-{round}")]), "{reply}");
        }
    }
}

#[test]
fn a_command_cannot_forge_its_end_or_its_status() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    // The command finds its job's id in the pane's options, prints the end marker it
    // would have had and sets the exit option to 0; its wrapper reports 9 later.
    let forger = "x=$(tmux show-options -p -t \"$TMUX_PANE\" | sed -n 's/^@paneward_job_\\([0-9a-f]*\\).*/\\1/p'); \
                  echo before; printf '\\033[8mPW%s.\\033[0m\\n' \"$x\"; echo after; \
                  tmux set-option -p -t \"$TMUX_PANE\" \"@paneward_exit_$x\" \"0 $(date +%s)\"; sleep 2; exit 9";
    let reply = run(&mut client, &pane, forger);
    assert_eq!(reply["exitStatus"], 9, "{reply}");
    let output = reply["output"].as_array().unwrap();
    assert_eq!(output.first(), Some(&json!("before")), "{reply}");
    assert_eq!(output.last(), Some(&json!("after")), "{reply}");
    assert_eq!(reply["truncated"], false);
}

#[test]
fn trailing_spaces_a_program_wrote_come_back() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    let reply = run(&mut client, &pane, "printf 'a  \\nb \\n   \\nc\\n'; printf 'end  '");
    assert_eq!(reply["output"], json!(["a  ", "b ", "   ", "c", "end  "]), "{reply}");
}

#[test]
fn a_raw_terminal_leaves_no_all_space_rows_in_the_output() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    // Raw, a newline moves down without returning: the end marker starts mid-row,
    // after the blanks under `abc`.
    let reply = run(&mut client, &pane, "stty raw; printf 'abc\\n'");
    assert_eq!(reply["output"], json!(["abc"]), "{reply}");
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

#[test]
fn a_job_staged_by_a_paneward_killed_before_typing_is_cleared_and_the_next_command_runs() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    // paneward running in `pane` must ask the person before typing there: it stages the
    // job, then waits for the answer. Killed while it waits, it leaves exactly what a
    // paneward that died between staging and typing leaves.
    let mut asking = tmux.paneward_with(&[], &[("TMUX", &tmux.tmux_env()), ("TMUX_PANE", &pane)]);
    asking.initialize_legacy(true);
    asking.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "run_command", "arguments": {"pane_id": pane, "command": "echo staged-never-typed"}}}));
    loop {
        let line = asking.next_raw_line().expect("paneward closed stdout");
        let message: Value = serde_json::from_str(&line).unwrap();
        assert_ne!(
            message["id"],
            json!(1),
            "run_command answered without asking: {message}"
        );
        if message["method"] == "elicitation/create" {
            break;
        }
    }
    let staged = leftovers(&tmux, &pane);
    assert!(
        staged.iter().any(|l| l.starts_with("@paneward_job_")) && staged.iter().any(|l| l.ends_with("_job")),
        "a record and a buffer are staged: {staged:?}"
    );
    drop(asking);
    assert_eq!(leftovers(&tmux, &pane), staged, "a killed paneward cleans nothing");

    // The next paneward sees that nothing was typed, clears the job, and runs.
    let mut client = tmux.paneward();
    let reply = run(&mut client, &pane, "echo after");
    assert_eq!(reply["output"], json!(["after"]), "{reply}");
    assert_eq!(leftovers(&tmux, &pane), Vec::<String>::new());
    assert!(!tmux.capture(&pane).contains("staged-never-typed"));
}
