//! The native client (tmux's own socket protocol, no process) against real tmux
//! servers: where it is used, what it leaves behind (nothing), that what it returns and
//! the errors it reports match a `tmux` process, output of any size, the bound on
//! clients at once, and the fallback to processes when tmux cannot be spoken to.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::process::Stdio;
use std::sync::Arc;

use crate::support::control::{display, text};
use crate::support::{Client, Scratch, TmuxServer};
use paneward::tmux::{Command, ErrorKind, Launcher, Options, ReadCommand, ReadVerb, ServerAddress, Tmux, Transport};
use serde_json::json;

fn native_only(server: &TmuxServer, max_clients: usize) -> Tmux {
    let options = Options {
        control: false,
        native: true,
        hidden: false,
        max_clients,
    };
    Tmux::launched(
        Launcher::local("tmux"),
        ServerAddress::Name(server.name.clone()),
        options,
    )
}

/// A server where control mode is refused: two detached sessions.
fn two_detached_sessions() -> TmuxServer {
    let server = TmuxServer::start();
    server.tmux(&["new-session", "-d", "-s", "second", "/bin/sh"]);
    server
}

fn client_count(server: &TmuxServer) -> usize {
    server.tmux(&["list-clients", "-F", "#{client_name}"]).lines().count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn where_control_mode_is_refused_the_native_client_answers_and_nothing_attaches() {
    let server = two_detached_sessions();
    // Without the hidden client (tests/it/tmux/hidden.rs), the attach policy decides.
    let tmux = crate::support::control::tmux_for(&server);
    for round in 0..3 {
        let out = tmux.run(display(&format!("round {round}"))).await.unwrap();
        assert_eq!(text(&out), format!("round {round}\n"));
        assert_eq!(tmux.last_transport().await, Some(Transport::Native));
    }
    assert_eq!(client_count(&server), 0, "no client stays on the server");
    let attached = server.tmux(&["list-sessions", "-F", "#{session_attached}"]);
    assert_eq!(attached, "0\n0\n");
    let report = tmux.transport_report().await;
    assert_eq!(report.transport, Transport::Native);
    assert!(report.why.contains("refused"), "{}", report.why);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arguments_and_outputs_match_a_tmux_process() {
    let server = TmuxServer::start();
    let native = native_only(&server, 8);
    let process = Tmux::launched(
        Launcher::local("tmux"),
        ServerAddress::Name(server.name.clone()),
        Options::processes_only(),
    );
    for value in [
        "plain",
        "it's \"quoted\" $HOME ~ #{session_name} ; \\ end",
        "line\nbreak\ttab\u{1f}unit",
        "ends in a semicolon;",
        "ends in an escaped one\\;",
        "ünïcödé ✓",
    ] {
        native
            .run(Command::new("set-buffer").arg("-b").arg("pw").sensitive_arg(value))
            .await
            .unwrap();
        assert_eq!(native.last_transport().await, Some(Transport::Native));
        assert_eq!(server.tmux(&["show-buffer", "-b", "pw"]), value, "{value:?}");
        // show-buffer writes to its own stream with no newline added, so it goes alone.
        let shown = native
            .run(Command::new("show-buffer").arg("-b").arg("pw"))
            .await
            .unwrap();
        assert_eq!(shown, value.as_bytes(), "{value:?}");
        let commands = [
            Command::new("display-message").arg("-p").arg("#{buffer_sample}"),
            Command::new("list-buffers").arg("-F").arg("#{buffer_name}"),
            Command::new("display-message").arg("-p").arg("#{session_name}"),
        ];
        let ours = native.run_all(&commands).await.unwrap();
        let theirs = process.run_all(&commands).await.unwrap();
        assert_eq!(ours, theirs, "{value:?}");
        assert_eq!(text(&ours[2]), "main\n");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_reported_as_a_tmux_process_reports_them() {
    let server = TmuxServer::start();
    let native = native_only(&server, 8);
    let process = Tmux::launched(
        Launcher::local("tmux"),
        ServerAddress::Name(server.name.clone()),
        Options::processes_only(),
    );
    let cases = [
        vec![Command::new("capture-pane").arg("-p").arg("-t").arg("%99")],
        // (tmux 3.3a's server crashes on `select-layout zigzag`, so not that one.)
        vec![Command::new("set-option").arg("-g").arg("no-such-option-pw").arg("1")],
        vec![Command::new("no-such-command")],
        vec![display("first"), Command::new("kill-window").arg("-t").arg("@99")],
    ];
    for commands in cases {
        let ours = native.run_all(&commands).await.unwrap_err();
        let theirs = process.run_all(&commands).await.unwrap_err();
        assert_eq!(ours.kind(), theirs.kind(), "{commands:?}");
        assert_eq!(ours.to_string(), theirs.to_string(), "{commands:?}");
    }
    drop(server);
    let gone = native.run(display("x")).await.unwrap_err();
    assert_eq!(gone.kind(), ErrorKind::ServerGone, "{gone}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_megabytes_come_back_whole_and_more_than_the_cap_fails_at_once() {
    let server = TmuxServer::start();
    let scratch = Scratch::new();
    let line = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz012345678\n";
    let big = line.repeat(50 * 1024 * 1024 / line.len());
    std::fs::write(scratch.path("big"), &big).unwrap();
    server.tmux(&["load-buffer", "-b", "big", &scratch.path("big")]);
    let native = native_only(&server, 8);
    let out = native
        .run(Command::new("show-buffer").arg("-b").arg("big"))
        .await
        .unwrap();
    assert_eq!(out.len(), big.len());
    assert!(out == big.as_bytes(), "the bytes differ");
    drop(out);
    let huge = line.repeat(70 * 1024 * 1024 / line.len());
    std::fs::write(scratch.path("huge"), &huge).unwrap();
    server.tmux(&["load-buffer", "-b", "huge", &scratch.path("huge")]);
    let error = native
        .run(Command::new("show-buffer").arg("-b").arg("huge"))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Transport);
    assert!(error.to_string().contains("passed"), "{error}");
    // The server is not left waiting on us.
    assert_eq!(text(&native.run(display("after")).await.unwrap()), "after\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_parallel_calls_never_hold_more_than_the_configured_clients() {
    let server = TmuxServer::start();
    for (tmux, used) in [
        (native_only(&server, 3), Transport::Native),
        (
            Tmux::launched(
                Launcher::local("tmux"),
                ServerAddress::Name(server.name.clone()),
                Options {
                    control: false,
                    native: false,
                    hidden: false,
                    max_clients: 3,
                },
            ),
            Transport::Subprocess,
        ),
    ] {
        let tmux = Arc::new(tmux);
        let calls = (0..64).map(|i| {
            let tmux = Arc::clone(&tmux);
            tokio::spawn(async move { tmux.run(display(&format!("call {i}"))).await })
        });
        for (i, call) in calls.collect::<Vec<_>>().into_iter().enumerate() {
            assert_eq!(text(&call.await.unwrap().unwrap()), format!("call {i}\n"));
        }
        assert_eq!(tmux.last_transport().await, Some(used));
        let peak = tmux.peak_one_shot_clients();
        assert!((1..=3).contains(&peak), "{peak} clients at once with a bound of 3");
    }
}

#[test]
fn a_protocol_mismatch_falls_back_to_tmux_processes_and_says_why_once() {
    let server = two_detached_sessions();
    let scratch = Scratch::new();
    let log = std::fs::File::create(scratch.path("log")).unwrap();
    // Announcing protocol 7 to a real tmux 3.x makes it answer with MSG_VERSION.
    let env = [
        ("PANEWARD_NATIVE_PROTOCOL", "7"),
        ("PANEWARD_NO_NATIVE_CLIENT", "0"),
        ("PANEWARD_LOG", "warn"),
    ];
    let mut client = Client::spawn_with_stderr(&["-L", &server.name], &env, Stdio::from(log));
    client.initialize();
    for _ in 0..3 {
        let panes = client.call_ok("list_panes", json!({"detail": "full"}));
        assert!(panes.to_string().contains("main"), "{panes}");
    }
    client.close();
    let log = scratch.read("log");
    let warnings: Vec<&str> = log.lines().filter(|l| l.contains("protocol version")).collect();
    assert_eq!(warnings.len(), 1, "{log}");
    assert!(warnings[0].contains("tmux speaks client protocol version 8"), "{log}");
}

/// Drives `calls` together on this task (as a batch's rows are) and returns their
/// results in order.
async fn all_together<'a, T>(
    mut calls: Vec<std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>>,
) -> Vec<T> {
    let mut done: Vec<Option<T>> = calls.iter().map(|_| None).collect();
    std::future::poll_fn(|context| {
        let mut pending = false;
        for (call, slot) in calls.iter_mut().zip(done.iter_mut()) {
            if slot.is_none() {
                match call.as_mut().poll(context) {
                    std::task::Poll::Ready(value) => *slot = Some(value),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    done.into_iter().map(Option::unwrap).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gathered_reads_share_one_connection_and_those_after_a_failure_are_sent_again() {
    let server = TmuxServer::start();
    let processes = Options {
        control: false,
        native: false,
        hidden: false,
        max_clients: 8,
    };
    let by_process = Tmux::launched(
        Launcher::local("tmux"),
        ServerAddress::Name(server.name.clone()),
        processes,
    );
    for (tmux, used) in [
        (native_only(&server, 8), Transport::Native),
        (by_process, Transport::Subprocess),
    ] {
        let reads: Vec<Vec<Command>> = (0..16)
            .map(|i| vec![display(&format!("row {i} a")), display(&format!("row {i} b"))])
            .collect();
        let before = tmux.one_shot_round_trips();
        let calls = reads.iter().map(|read| Box::pin(tmux.run_all(read)) as _).collect();
        let outputs: Vec<Result<Vec<Vec<u8>>, paneward::tmux::TmuxError>> = tmux.gathered(all_together(calls)).await;
        assert_eq!(
            tmux.one_shot_round_trips() - before,
            1,
            "{used:?}: one connection for 16 reads"
        );
        assert_eq!(tmux.last_transport().await, Some(used));
        for (i, output) in outputs.into_iter().enumerate() {
            let output: Vec<String> = output.unwrap().iter().map(|o| text(o)).collect();
            assert_eq!(output, [format!("row {i} a\n"), format!("row {i} b\n")], "{used:?}");
        }

        // Row 7 fails at its second command: tmux drops the rest of the list, so rows 8
        // to 15 go again, in a second list; each row's answer is what it gets alone.
        let mut reads = reads;
        reads[7][1] = ReadCommand::new(ReadVerb::CapturePane).arg("-t").arg("%9999").into();
        let alone = tmux.run_all(&reads[7]).await.unwrap_err().to_string();
        let before = tmux.one_shot_round_trips();
        let calls = reads.iter().map(|read| Box::pin(tmux.run_all(read)) as _).collect();
        let outputs: Vec<Result<Vec<Vec<u8>>, paneward::tmux::TmuxError>> = tmux.gathered(all_together(calls)).await;
        assert_eq!(
            tmux.one_shot_round_trips() - before,
            2,
            "{used:?}: the rest sent once more"
        );
        for (i, output) in outputs.into_iter().enumerate() {
            if i == 7 {
                assert_eq!(output.unwrap_err().to_string(), alone, "{used:?}");
                continue;
            }
            let output: Vec<String> = output.unwrap().iter().map(|o| text(o)).collect();
            assert_eq!(output, [format!("row {i} a\n"), format!("row {i} b\n")], "{used:?}");
        }
    }
}
