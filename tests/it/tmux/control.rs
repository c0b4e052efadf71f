//! The control-mode connection against real tmux servers: how it survives restarts,
//! killed clients and hanging commands, concurrency, floods, hooks, and forged framing
//! in pane text. Which session it attaches to is in `control_sessions.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::time::Duration;

use crate::support::control::{
    control_clients, display, guard_time_and_number, kill_and_wait, restart, start_main_again, text, tmux_for,
    wait_for_async,
};
use crate::support::{wait_for, TmuxServer};
use paneward::tmux::{Command, ErrorKind, ReadCommand, ReadVerb, Tmux, Transport};
use serde_json::{json, Value};

/// The library handle is shared between tool calls on several threads.
const _: fn() = || {
    fn shared<T: Send + Sync + Clone>() {}
    shared::<Tmux>();
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_go_over_one_control_client_that_leaves_window_sizes_alone() {
    let server = TmuxServer::start();
    let tmux = tmux_for(&server);
    for round in 0..5 {
        let out = tmux.run(display(&format!("round {round}"))).await.unwrap();
        assert_eq!(text(&out), format!("round {round}\n"));
    }
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    let clients = control_clients(&server);
    assert_eq!(clients.len(), 1, "one connection for every call: {clients:?}");
    let flags = &clients[0].2;
    assert!(flags.contains("ignore-size") && flags.contains("no-output"), "{flags}");
    assert_eq!(server.pane_value("main:", "#{window_width}x#{window_height}"), "80x24");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arguments_reach_tmux_unchanged_through_the_control_line() {
    let server = TmuxServer::start();
    let tmux = tmux_for(&server);
    for value in [
        "plain",
        "it's \"quoted\" $HOME ~ #{session_name} ; \\ end",
        "line\nbreak\ttab\u{1f}unit",
        "%end 1 2 1",
        "ends in a semicolon;",
        "ends in an escaped one\\;",
        "ünïcödé ✓",
    ] {
        tmux.run(Command::new("set-buffer").arg("-b").arg("pw").arg(value))
            .await
            .unwrap();
        // Read back by a tmux process: in control mode show-buffer escapes what it prints.
        assert_eq!(server.tmux(&["show-buffer", "-b", "pw"]), value, "{value:?}");
    }
    let shown = tmux.run(Command::new("show-buffer").arg("-b").arg("pw")).await.unwrap();
    assert_eq!(
        text(&shown),
        "ünïcödé ✓\n",
        "non-ASCII passes, and a newline ends the block"
    );
    tmux.run(Command::new("set-buffer").arg("-b").arg("pw").arg("a\u{1f}b"))
        .await
        .unwrap();
    let shown = tmux.run(Command::new("show-buffer").arg("-b").arg("pw")).await.unwrap();
    assert_eq!(
        text(&shown),
        "a\\037b\n",
        "control-mode show-buffer escapes control characters"
    );
    {}
    let empty = tmux
        .run(Command::new("display-message").arg("-p").arg(""))
        .await
        .unwrap();
    assert_eq!(text(&empty), "\n", "an empty argument stays an argument");
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_command_stops_the_chain_and_the_connection_stays_in_step() {
    let server = TmuxServer::start();
    let tmux = tmux_for(&server);
    let error = tmux
        .run_all(&[
            display("first"),
            Command::new("capture-pane").arg("-p").arg("-t").arg("%999"),
            display("never"),
        ])
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ObjectGone, "{error}");
    assert!(error.to_string().contains("%999"), "{error}");
    let outputs = tmux.run_all(&[display("a"), display("b")]).await.unwrap();
    assert_eq!(outputs, vec![b"a\n".to_vec(), b"b\n".to_vec()]);
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_trip_ends_without_making_tmux_run_a_command_of_its_own() {
    let server = TmuxServer::start();
    // Every display-message tmux runs, for any client, appends to @pw-ran.
    server.tmux(&["set-hook", "-g", "after-display-message", "set-option -ga @pw-ran x"]);
    let pane = server.first_pane();
    let tmux = tmux_for(&server);
    // Opening the connection asks tmux a few questions of its own; count after it.
    tmux.run(display("connected")).await.unwrap();
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    server.tmux(&["set-option", "-gu", "@pw-ran"]);
    for _ in 0..10 {
        tmux.run(Command::new("capture-pane").arg("-p").arg("-t").arg(&pane))
            .await
            .unwrap();
    }
    let error = tmux
        .run(Command::new("capture-pane").arg("-p").arg("-t").arg("%999"))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ObjectGone, "{error}");
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    assert_eq!(
        server.tmux(&["show-options", "-gqv", "@pw-ran"]),
        "",
        "the end lines of eleven round trips ran no display-message"
    );
    let out = tmux.run(display("still in step")).await.unwrap();
    assert_eq!(text(&out), "still in step\n");
    assert_eq!(
        server.tmux(&["show-options", "-gqv", "@pw-ran"]),
        "x\n",
        "the hook counts"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_connection_survives_kill_server_and_a_restart() {
    let server = TmuxServer::start();
    let tmux = tmux_for(&server);
    tmux.run(display("before")).await.unwrap();
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    kill_and_wait(&server);
    let error = tmux.run(display("between")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ServerGone, "{error}");
    start_main_again(&server);
    // The failed attach above waits CONTROL_ATTACH_RETRY before control mode is tried again;
    // calls in between still succeed, through subprocesses.
    let out = tmux.run(display("after")).await.unwrap();
    assert_eq!(text(&out), "after\n");
    wait_for_async("control mode to come back", async || {
        tmux.run(display("again")).await.unwrap();
        (tmux.last_transport().await == Some(Transport::Control)).then_some(())
    })
    .await;
    assert_eq!(control_clients(&server).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_is_reached_by_the_very_next_call() {
    let server = TmuxServer::start();
    let tmux = tmux_for(&server);
    tmux.run(display("before")).await.unwrap();
    restart(&server);
    // The old connection is dead; a read is retried on a new one, not failed.
    let out = tmux.run(display("after")).await.unwrap();
    assert_eq!(text(&out), "after\n");
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_control_client_is_replaced_without_failing_a_read() {
    let server = TmuxServer::start();
    let tmux = tmux_for(&server);
    tmux.run(display("first")).await.unwrap();
    let before = control_clients(&server);
    assert_eq!(before.len(), 1);
    server.tmux(&["detach-client", "-t", &before[0].1]);
    wait_for("the detached client to go", || {
        control_clients(&server).is_empty().then_some(())
    });
    assert_eq!(text(&tmux.run(display("second")).await.unwrap()), "second\n");
    let after = control_clients(&server);
    assert_eq!(after.len(), 1);
    assert_ne!(after[0].0, before[0].0, "a new client process");

    // A client killed by a signal, with no chance to say goodbye.
    std::process::Command::new("kill")
        .args(["-KILL", &after[0].0])
        .status()
        .unwrap();
    assert_eq!(text(&tmux.run(display("third")).await.unwrap()), "third\n");
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_that_changes_something_is_reported_lost_not_repeated() {
    let server = TmuxServer::start();
    let tmux = tmux_for(&server);
    tmux.run(display("warm")).await.unwrap();
    // `wait-for` blocks this client's queue until the channel is signalled. The option
    // set first shows the line has reached tmux; killing the client then loses it.
    let waiting = {
        let tmux = tmux.clone();
        tokio::spawn(async move {
            tmux.run_all(&[
                Command::new("set-option").arg("-g").arg("@pw-mark").arg("reached"),
                Command::new("wait-for").arg("pw-channel"),
            ])
            .await
        })
    };
    wait_for("the command to reach tmux", || {
        (server.tmux(&["show-options", "-gqv", "@pw-mark"]).trim() == "reached").then_some(())
    });
    let pid = control_clients(&server)[0].0.clone();
    std::process::Command::new("kill")
        .args(["-KILL", &pid])
        .status()
        .unwrap();
    let error = waiting.await.unwrap().unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::Transport),
        "a lost wait-for must not be retried: {error}"
    );
    assert_eq!(text(&tmux.run(display("next")).await.unwrap()), "next\n");
}

/// A connection that stops answering is wedged (issue 30): closed, and later calls go
/// through a one-shot client until control mode is tried again. `wait-for` on a
/// channel nobody signals blocks the client's queue, so nothing after it is answered:
/// a deterministic wedge (stopping the `tmux -C` process is not one, see
/// docs/tmux-quirks.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wedged_connection_is_closed_and_calls_fall_back_until_control_is_tried_again() {
    let server = TmuxServer::start();
    let tmux = tmux_for(&server);
    tmux.run(display("warm")).await.unwrap();
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    let error = tmux
        .run_all_within(
            &[Command::new("wait-for").arg("never-signalled")],
            Duration::from_millis(300),
        )
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
    assert_eq!(text(&tmux.run(display("alive")).await.unwrap()), "alive\n");
    assert_ne!(
        tmux.last_transport().await,
        Some(Transport::Control),
        "the call after a wedge goes through the fallback"
    );
    let report = tmux.transport_report().await;
    assert!(report.why.contains("stopped answering"), "{report:?}");
    wait_for("the wedged client to be gone", || {
        control_clients(&server).is_empty().then_some(())
    });
    // Later, control mode is tried again, on a fresh connection.
    wait_for_async("control mode again", async || {
        tmux.run(display("again")).await.unwrap();
        (tmux.last_transport().await == Some(Transport::Control)).then_some(())
    })
    .await;
    assert_eq!(control_clients(&server).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_concurrent_callers_each_get_their_own_replies() {
    let server = TmuxServer::start();
    let tmux = tmux_for(&server);
    let mut callers = Vec::new();
    for caller in 0..8 {
        let tmux = tmux.clone();
        callers.push(tokio::spawn(async move {
            for call in 0..40 {
                let a = format!("caller {caller} call {call} a");
                let b = format!("caller {caller} call {call} b");
                let outputs = tmux.run_all(&[display(&a), display(&b)]).await.unwrap();
                assert_eq!(
                    outputs,
                    vec![format!("{a}\n").into_bytes(), format!("{b}\n").into_bytes()]
                );
            }
        }));
    }
    for caller in callers {
        caller.await.unwrap();
    }
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    assert_eq!(control_clients(&server).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pane_flooding_output_does_not_disturb_replies() {
    let server = TmuxServer::start();
    let quiet = server.window_running("printf 'steady text\\n'; exec sleep 100000");
    server.wait_for_text(&quiet, "steady text");
    let flood = server.window_running("exec yes '%end 1 1 1'");
    server.wait_for_text(&flood, "%end 1 1 1");
    let window = server.pane_value(&flood, "#{window_id}");
    let tmux = tmux_for(&server);
    // The control client asks for no %output, so tmux's notifications come from changes:
    // a second client renames the window and opens and closes windows all along.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let rounds = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
    let churn = {
        let (stop, rounds, name, window) = (stop.clone(), rounds.clone(), server.name.clone(), window.clone());
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let run = |args: &[&str]| {
                    let _ = std::process::Command::new("tmux")
                        .arg("-L")
                        .arg(&name)
                        .args(args)
                        .output();
                };
                let round = rounds.load(std::sync::atomic::Ordering::Relaxed);
                run(&["rename-window", "-t", &window, &format!("flood-{round}")]);
                run(&["new-window", "-d", "-t", "main:", "-n", "churn", "exec sleep 100000"]);
                run(&["kill-window", "-t", "main:churn"]);
                rounds.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        })
    };
    // At least 100 calls, and until the churn has changed things ten times over.
    let mut calls = 0;
    while calls < 100 || rounds.load(std::sync::atomic::Ordering::Relaxed) < 10 {
        calls += 1;
        assert!(calls < 100_000, "the churn never ran");
        let outputs = tmux
            .run_all(&[
                Command::new("capture-pane").arg("-p").arg("-t").arg(&quiet),
                Command::new("capture-pane").arg("-p").arg("-t").arg(&flood),
                display("#{pane_id}"),
            ])
            .await
            .unwrap();
        assert_eq!(outputs.len(), 3);
        assert!(text(&outputs[0]).starts_with("steady text\n"));
        // Rows the flood is drawing right now may be half written, but never empty all.
        let flooded = text(&outputs[1]);
        assert!(flooded.contains("%end 1 1 1"), "{flooded:?}");
        assert!(flooded.lines().all(|l| "%end 1 1 1".starts_with(l)));
        let id = text(&outputs[2]);
        assert!(
            id.trim_end()
                .strip_prefix('%')
                .is_some_and(|n| n.parse::<u32>().is_ok()),
            "{id:?}"
        );
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    churn.join().unwrap();
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
}

/// Guard numbers the forged lines cover: the calls of the test below use about 30.
const FORGED_NUMBERS: u64 = 150;
/// Seconds of guard times the forged lines cover.
const FORGED_SECONDS: u64 = 30;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_framing_in_pane_text_cannot_end_a_block_or_forge_a_reply() {
    let server = TmuxServer::start();
    server.tmux(&["set-option", "-g", "history-limit", "50000"]);
    // Learn the guard numbers and time tmux is using now, as a hostile program could.
    let (time, number) = guard_time_and_number(&server);
    // For every number the next few hundred commands may get: end the block early, open
    // a fake one holding a fake pane record and a fake failure, then close both.
    // Under load the calls below can take a while: forge for half a minute of times.
    let script = format!(
        "for n in $(seq {number} {}); do for t in $(seq {time} {}); do \
         printf '%%end %s %s 1\\n%%begin %s %s 1\\n%%999\\037@9\\036\\n%%error %s %s 1\\n%%end %s %s 1\\n' \
         $t $n $t $((n+1)) $t $((n+1)) $t $n; done; done; echo forged-done; exec sleep 100000",
        number + FORGED_NUMBERS,
        time + FORGED_SECONDS
    );
    let pane = server.window_running(&script);
    server.wait_for_text(&pane, "forged-done");
    let expected = server.tmux(&["capture-pane", "-p", "-S", "-", "-E", "-", "-t", &pane]);
    assert!(expected.contains(&format!("%end {time} {number} 1")));

    let tmux = tmux_for(&server);
    for _ in 0..5 {
        let outputs = tmux
            .run_all(&[
                Command::new("capture-pane")
                    .arg("-p")
                    .arg("-S")
                    .arg("-")
                    .arg("-E")
                    .arg("-")
                    .arg("-t")
                    .arg(&pane),
                Command::new("display-message")
                    .arg("-p")
                    .arg("-t")
                    .arg(&pane)
                    .arg("#{pane_id}"),
            ])
            .await
            .unwrap();
        assert_eq!(
            text(&outputs[0]),
            expected,
            "the pane text comes back whole and unchanged"
        );
        assert_eq!(
            text(&outputs[1]),
            format!("{pane}\n"),
            "the second reply is tmux's, not the pane's"
        );
    }
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    // The forged lines covered the real guards: every call above fell in their range.
    let (time_after, number_after) = guard_time_and_number(&server);
    assert!(
        number_after <= number + FORGED_NUMBERS,
        "{number_after} > {number} + {FORGED_NUMBERS}"
    );
    assert!(
        time_after <= time + FORGED_SECONDS,
        "{time_after} > {time} + {FORGED_SECONDS}"
    );

    // The same through the server: the snapshot's pane state is the real one.
    let mut client = server.paneward_attaching();
    let reply = client.call_ok(
        "snapshot_pane",
        json!({"pane_id": pane, "history": true, "max_lines": 5000}),
    );
    assert_eq!(reply["pane"]["id"], json!(pane));
    assert_eq!(reply["dead"], false);
    let lines = crate::support::strings(&reply["lines"]);
    assert!(
        lines.iter().any(|l| l.starts_with("%error ")),
        "the forged lines are pane text"
    );
    assert_eq!(lines.last().map(String::as_str), Some("forged-done"));
}

#[test]
fn concurrent_requests_on_one_stdio_connection_get_their_own_replies() {
    let server = TmuxServer::start();
    let panes: Vec<String> = (0..8)
        .map(|i| server.window_running(&format!("printf 'pane number {i}\\n'; exec sleep 100000")))
        .collect();
    for (i, pane) in panes.iter().enumerate() {
        server.wait_for_text(pane, &format!("pane number {i}"));
    }
    let mut client = server.paneward_attaching();
    for round in 0..5 {
        // Send all eight before reading any reply.
        for (i, pane) in panes.iter().enumerate() {
            client.send(&json!({
                "jsonrpc": "2.0", "id": round * 100 + i, "method": "tools/call",
                "params": {"name": "snapshot_pane", "arguments": {"pane_id": pane}}
            }));
        }
        let mut seen = 0;
        while seen < panes.len() {
            let line = client.next_raw_line().expect("a reply");
            let message: Value = serde_json::from_str(&line).unwrap();
            let Some(id) = message["id"].as_u64() else { continue };
            let i = usize::try_from(id % 100).unwrap();
            let reply = &message["result"]["structuredContent"];
            crate::support::assert_valid_output("snapshot_pane", reply);
            assert_eq!(reply["pane"]["id"], json!(panes[i]));
            assert_eq!(reply["lines"], json!([format!("pane number {i}")]));
            seen += 1;
        }
    }
    assert_eq!(control_clients(&server).len(), 1);
}

#[test]
fn records_and_text_survive_a_server_started_without_a_utf8_locale() {
    let server = TmuxServer::start();
    let pane = server.window_running("printf 'caf\\303\\251 \\342\\234\\223\\n'; exec sleep 100000");
    server.wait_for_text(&pane, "caf");
    // Some hosts start MCP servers with almost no environment; C is not UTF-8.
    let mut client = server.paneward_with(&["--no-hidden-client"], &[("LC_ALL", "C"), ("LANG", "C")]);
    client.initialize();
    let reply = client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    assert_eq!(reply["lines"], json!(["café ✓"]));
    assert_eq!(control_clients(&server).len(), 1);

    // The same through one tmux process per command (two detached sessions keep the
    // control client away).
    let other = TmuxServer::start();
    other.tmux(&["new-session", "-d", "-s", "second", "/bin/sh"]);
    let pane = other.window_running("printf 'caf\\303\\251\\n'; exec sleep 100000");
    other.wait_for_text(&pane, "caf");
    let mut client = other.paneward_with(&["--no-hidden-client"], &[("LC_ALL", "C"), ("LANG", "C")]);
    client.initialize();
    let reply = client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    assert_eq!(reply["lines"], json!(["café"]));
    assert!(control_clients(&other).is_empty());
}

/// Sixteen two-command reads, each a task of its own on `tmux`, all queued before the
/// connection's task runs (on a current-thread runtime the tasks run in the order they
/// were spawned, and the connection's task, woken by the first, after them); each reply
/// must hold its own pane's text and its own row number.
async fn sixteen_reads_together(tmux: &Tmux, panes: &[String]) -> Vec<(String, String)> {
    let mut calls = tokio::task::JoinSet::new();
    for row in 0..16 {
        let tmux = tmux.clone();
        let pane = panes[row % panes.len()].clone();
        calls.spawn(async move {
            let capture = ReadCommand::new(ReadVerb::CapturePane).arg("-p").arg("-t").arg(pane);
            let outputs = tmux.run_all(&[capture.into(), display(&format!("row {row}"))]).await;
            (row, outputs.unwrap())
        });
    }
    let mut replies = vec![(String::new(), String::new()); 16];
    while let Some(done) = calls.join_next().await {
        let (row, outputs) = done.unwrap();
        replies[row] = (text(&outputs[0]).trim_end().to_string(), text(&outputs[1]));
    }
    replies
}

#[tokio::test]
async fn reads_written_together_share_an_end_line_unless_pane_text_copies_a_guard() {
    let server = TmuxServer::start();
    let words = ["alpha", "bravo", "charlie", "delta"];
    let panes: Vec<String> = words
        .iter()
        .map(|word| server.window_showing(&format!("echo {word}"), word))
        .collect();
    let tmux = tmux_for(&server);
    tmux.run(display("connected")).await.unwrap();
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    let before = tmux.control_end_lines().await.unwrap();
    for (row, (screen, said)) in sixteen_reads_together(&tmux, &panes).await.into_iter().enumerate() {
        assert_eq!((screen.as_str(), said), (words[row % 4], format!("row {row}\n")));
    }
    assert_eq!(
        tmux.control_end_lines().await.unwrap() - before,
        1,
        "the sixteen round trips went out together and shared one end line"
    );

    // A pane that prints copies of our guard lines: the shared reply cannot be cut with
    // certainty, so each round trip goes again alone, and every reply is still its own.
    let forged = "%end 1 2 1\n%begin 1 3 1\nforged\n%error 1 3 1";
    let shown = format!("printf '{}\\n'", forged.replace('%', "%%").replace('\n', "\\n"));
    let mut panes = panes;
    panes[1] = server.window_showing(&shown, "%error 1 3 1");
    let before = tmux.control_end_lines().await.unwrap();
    for (row, (screen, said)) in sixteen_reads_together(&tmux, &panes).await.into_iter().enumerate() {
        let expected = if row % 4 == 1 { forged } else { words[row % 4] };
        assert_eq!((screen.as_str(), said), (expected, format!("row {row}\n")));
    }
    assert_eq!(
        tmux.control_end_lines().await.unwrap() - before,
        17,
        "one shared end line, then one for each round trip sent again"
    );
    let out = tmux.run(display("still in step")).await.unwrap();
    assert_eq!(text(&out), "still in step\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hooks_that_run_after_our_commands_do_not_shift_replies() {
    let server = TmuxServer::start();
    for hook in ["after-display-message", "after-capture-pane"] {
        server.tmux(&["set-hook", "-g", hook, "set-option -g @pw-hooked yes"]);
    }
    let pane = server.first_pane();
    let tmux = tmux_for(&server);
    for round in 0..20 {
        let outputs = tmux
            .run_all(&[
                Command::new("capture-pane").arg("-p").arg("-t").arg(&pane),
                display(&format!("round {round}")),
            ])
            .await
            .unwrap();
        assert_eq!(text(&outputs[1]), format!("round {round}\n"));
        let error = tmux
            .run_all(&[
                display("x"),
                Command::new("capture-pane").arg("-p").arg("-t").arg("%999"),
            ])
            .await
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::ObjectGone, "{error}");
    }
    assert_eq!(
        server.tmux(&["show-options", "-gv", "@pw-hooked"]),
        "yes\n",
        "the hooks ran"
    );
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
}

#[test]
fn a_batch_over_the_connection_keeps_rows_in_order_and_stops_at_a_failure() {
    let server = TmuxServer::start();
    let words = ["alpha", "bravo", "charlie", "delta"];
    let panes: Vec<String> = words
        .iter()
        .map(|word| server.window_showing(&format!("echo {word}"), word))
        .collect();
    let mut client = server.paneward_attaching();
    // A first call makes the connection; the batch then sends its operations together.
    client.call_ok("snapshot_pane", json!({"pane_id": panes[0]}));
    assert_eq!(control_clients(&server).len(), 1);
    let operations = |failing: Option<usize>| -> Value {
        let operations: Vec<Value> = (0..16)
            .map(|i| {
                let pane = if Some(i) == failing {
                    "%999"
                } else {
                    panes[i % 4].as_str()
                };
                let tool = if i % 2 == 0 { "capture_pane" } else { "snapshot_pane" };
                json!({"tool": tool, "arguments": {"pane_id": pane}})
            })
            .collect();
        json!(operations)
    };
    for _ in 0..10 {
        let reply = client.call_ok("call_read_tools_batch", json!({"operations": operations(None)}));
        let rows = reply["results"].as_array().unwrap();
        assert_eq!(rows.len(), 16);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row["index"], i);
            assert_eq!(row["result"]["lines"], json!([words[i % 4]]), "row {i}");
        }
    }
    let reply = client.call_ok(
        "call_read_tools_batch",
        json!({"operations": operations(Some(5)), "on_error": "stop"}),
    );
    assert_eq!(reply["results"].as_array().unwrap().len(), 6);
    assert_eq!(
        (reply["stoppedAt"].clone(), reply["failed"].clone()),
        (json!(5), json!(1))
    );
    let reply = client.call_ok(
        "call_read_tools_batch",
        json!({"operations": operations(Some(5)), "on_error": "continue"}),
    );
    let rows = reply["results"].as_array().unwrap();
    assert_eq!(rows.len(), 16);
    assert_eq!(rows[5]["success"], false);
    assert_eq!(rows[6]["result"]["lines"], json!([words[2]]));
    assert_eq!(control_clients(&server).len(), 1);
}
