//! Where the control-mode client attaches, and when paneward runs one tmux process per
//! command instead: the user's tmux must not be able to tell it is there.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::io::Write;
use std::process::Stdio;
use std::time::{SystemTime, UNIX_EPOCH};

use rustix::process::Signal;

use paneward::limits::CONTROL_ATTACH_RETRY;

use crate::support::control::{control_clients, display, text, tmux_for, wait_for_async, RawControl};
use crate::support::{wait_for, TmuxServer};
use paneward::tmux::{Command, ErrorKind, Launcher, Options, ServerAddress, Tmux, Transport};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_with_no_session_is_driven_by_the_native_client() {
    let server = TmuxServer::start();
    server.tmux(&["set-option", "-s", "exit-empty", "off"]);
    server.tmux(&["kill-session", "-t", "main"]);
    let tmux = tmux_for(&server);
    let out = tmux
        .run(Command::new("list-sessions").arg("-F").arg("#{session_id}"))
        .await;
    assert_eq!(text(&out.unwrap()), "");
    assert_eq!(tmux.last_transport().await, Some(Transport::Native));

    // Once a session exists, the next attempt after CONTROL_ATTACH_RETRY attaches.
    server.tmux(&["new-session", "-d", "-s", "late", "/bin/sh"]);
    wait_for_async("control mode to start", async || {
        tmux.run(display("x")).await.unwrap();
        (tmux.last_transport().await == Some(Transport::Control)).then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_server_at_all_is_reported_by_the_subprocess_fallback() {
    let tmux = Tmux::new("tmux", ServerAddress::Name(format!("pw-absent-{}", std::process::id())));
    let error = tmux.run(display("x")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ServerGone, "{error}");
    assert_eq!(tmux.last_transport().await, Some(Transport::Subprocess));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_newest_detached_session_is_not_taken_when_another_is_detached() {
    let server = TmuxServer::start();
    server.tmux(&["new-session", "-d", "-s", "second", "/bin/sh"]);
    let activity = || {
        server.tmux(&[
            "list-sessions",
            "-F",
            "#{session_name} #{session_activity} #{session_attached}",
        ])
    };
    let before = activity();
    // session_activity counts whole seconds: once the clock is past the second `before`
    // was read in, a session touched by the call below would read differently.
    let now = || SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
    let read_in = now();
    wait_for("the clock to pass into the next second", || {
        (now() > read_in).then_some(())
    });
    let tmux = tmux_for(&server);
    tmux.run(display("x")).await.unwrap();
    assert_eq!(tmux.last_transport().await, Some(Transport::Native));
    assert!(control_clients(&server).is_empty());
    assert_eq!(activity(), before, "no session was touched");
}

/// An agent calls a second or more apart: each call then finds a retry of control mode
/// due. The retry's facts ride in the call's own round trip, so a refused server costs
/// one tmux connection per call, and the call's output is its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_pause_a_refused_server_costs_one_connection_per_call() {
    let server = TmuxServer::start();
    server.tmux(&["new-session", "-d", "-s", "second", "/bin/sh"]);
    let tmux = tmux_for(&server);
    // The very first attempt reads the facts alone (so an allowed server's first call
    // goes over control mode): two round trips.
    assert_eq!(text(&tmux.run(display("0")).await.unwrap()), "0\n");
    assert_eq!(tmux.one_shot_round_trips(), 2);
    // With TMUX_PANE passed on, a call's round trip would see the caller's session as
    // the current one, so the facts keep a round trip of their own.
    let per_call = if std::env::var_os("TMUX_PANE").is_none() { 1 } else { 2 };
    for call in 1..=3 {
        // The retry falls due CONTROL_ATTACH_RETRY after the last refusal at the latest.
        tokio::time::sleep(CONTROL_ATTACH_RETRY).await;
        let before = tmux.one_shot_round_trips();
        let out = tmux.run(display(&format!("call {call}"))).await.unwrap();
        assert_eq!(text(&out), format!("call {call}\n"));
        assert_eq!(tmux.one_shot_round_trips() - before, per_call, "call {call}");
        assert_eq!(tmux.last_transport().await, Some(Transport::Native));
        assert!(control_clients(&server).is_empty(), "refused: never attached");
    }
    // Once the policy allows it, the ridden facts attach for the calls after.
    server.tmux(&["kill-session", "-t", "second"]);
    tokio::time::sleep(CONTROL_ATTACH_RETRY).await;
    let before = tmux.one_shot_round_trips();
    assert_eq!(text(&tmux.run(display("x")).await.unwrap()), "x\n");
    assert_eq!(text(&tmux.run(display("y")).await.unwrap()), "y\n");
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    assert_eq!(tmux.one_shot_round_trips() - before, 1, "one round trip for both calls");
    assert_eq!(control_clients(&server).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_someone_is_attached_to_is_shared_and_left_when_they_leave() {
    let server = TmuxServer::start();
    server.tmux(&["new-session", "-d", "-s", "second", "/bin/sh"]);
    // A client of someone else on the newest session: attaching there changes nothing.
    let user = RawControl::attach(&server, "second");
    wait_for("the other client", || {
        (control_clients(&server).len() == 1).then_some(())
    });
    let second = server.pane_value("second", "#{session_id}");
    let tmux = tmux_for(&server);
    tmux.run(display("x")).await.unwrap();
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    let sessions: Vec<String> = control_clients(&server).into_iter().map(|c| c.3).collect();
    assert_eq!(sessions, vec![second; 2]);

    // When that client leaves, `main` is detached too: staying would hide `second` from
    // a bare `tmux attach`, so paneward leaves at its next call.
    drop(user);
    wait_for("the other client to go", || {
        (control_clients(&server).len() == 1).then_some(())
    });
    wait_for_async("paneward to leave the session", async || {
        tmux.run(display("y")).await.unwrap();
        (tmux.last_transport().await == Some(Transport::Native)).then_some(())
    })
    .await;
    wait_for("paneward's client to go", || {
        control_clients(&server).is_empty().then_some(())
    });
}

#[test]
fn the_control_client_does_not_copy_its_environment_into_the_session() {
    let server = TmuxServer::start();
    let pane = server.first_pane();
    let mut client = server.paneward_with(
        &["--no-hidden-client"],
        &[("DISPLAY", ":pw-test"), ("SSH_AUTH_SOCK", "/tmp/pw-test")],
    );
    client.initialize();
    client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    assert_eq!(control_clients(&server).len(), 1);
    let environment = server.tmux(&["show-environment", "-t", "main"]);
    assert!(!environment.contains("pw-test"), "{environment}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_its_session_is_killed_the_client_attaches_to_another() {
    let server = TmuxServer::start();
    server.tmux(&["new-session", "-d", "-s", "second", "/bin/sh"]);
    // Someone works in both sessions; `main` is the most recent.
    let _in_second = RawControl::attach(&server, "second");
    wait_for("the client in second", || {
        (control_clients(&server).len() == 1).then_some(())
    });
    let _in_main = RawControl::attach(&server, "main");
    wait_for("both clients", || (control_clients(&server).len() == 2).then_some(()));
    let id = |name: &str| server.pane_value(name, "#{session_id}");
    let (main, second) = (id("main"), id("second"));
    let tmux = tmux_for(&server);
    tmux.run(display("x")).await.unwrap();
    let ours = |server: &TmuxServer| {
        let users: Vec<String> = control_clients(server).into_iter().map(|c| c.3).collect();
        users
    };
    assert_eq!(
        ours(&server).iter().filter(|s| **s == main).count(),
        2,
        "paneward joined main"
    );

    server.tmux(&["kill-session", "-t", "main"]);
    assert_eq!(text(&tmux.run(display("y")).await.unwrap()), "y\n");
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    wait_for("paneward on the other session", || {
        (ours(&server) == vec![second.clone(), second.clone()]).then_some(())
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_destroy_unattached_session_is_never_attached_to() {
    let server = TmuxServer::start();
    // tmux collects such a session as soon as nobody is attached: someone must be.
    let user = RawControl::attach(&server, "main");
    wait_for("the user's client", || {
        (control_clients(&server).len() == 1).then_some(())
    });
    server.tmux(&["set-option", "-t", "main", "destroy-unattached", "on"]);
    let tmux = tmux_for(&server);
    assert_eq!(text(&tmux.run(display("x")).await.unwrap()), "x\n");
    assert_eq!(tmux.last_transport().await, Some(Transport::Native));
    assert_eq!(control_clients(&server).len(), 1, "only the user's client");
    // When the user leaves, the session goes, as it would without paneward.
    drop(user);
    wait_for("the session to be destroyed", || {
        (!server.try_tmux(&["has-session", "-t", "main"])).then_some(())
    });
}

/// A `tmux -C` client gets no death signal (one before it is done identifying would
/// crash tmux 3.3a): when paneward is killed, its closed input ends the client. tmux
/// lets a control client go only once it has written all its output; written to a
/// closed pipe it never is, so the relay that outlives paneward reads it instead
/// (docs/tmux-quirks.md). Here paneward stops reading and tmux has far more output
/// for the client than the pipes hold when paneward is killed.
#[test]
fn a_control_client_whose_paneward_was_killed_goes_away() {
    let server = TmuxServer::start();
    let pane = server.first_pane();
    let mut client = server.paneward_attaching();
    client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    let ours = control_clients(&server);
    assert_eq!(ours.len(), 1);
    let client_pid = ours[0].0.clone();
    client.signal(Signal::STOP);
    // Each rename is a `%window-renamed` line of about 230 bytes for the client: 4000
    // of them are about 900 KiB, many times what the pipes and the relay hold.
    let mut flood = server.command();
    flood
        .args(["source-file", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null());
    let mut flood = flood.spawn().unwrap();
    let mut script = String::new();
    for i in 0..4000 {
        script.push_str(&format!("rename-window -t {pane} {i:0>200}\n"));
    }
    flood.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    assert!(flood.wait().unwrap().success());
    client.end_with(Signal::KILL); // as an impatient MCP host would
    wait_for("tmux to drop the client", || {
        control_clients(&server).is_empty().then_some(())
    });
    // Gone, or a zombie waiting for whoever adopted it to reap it.
    wait_for("the tmux -C process to exit", || {
        std::fs::read_to_string(format!("/proc/{client_pid}/stat"))
            .map_or(true, |stat| {
                stat.rsplit(") ").next().is_some_and(|rest| rest.starts_with('Z'))
            })
            .then_some(())
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subprocess_only_handle_never_attaches() {
    let server = TmuxServer::start();
    let tmux = Tmux::launched(
        Launcher::local("tmux"),
        ServerAddress::Name(server.name.clone()),
        Options::processes_only(),
    );
    assert_eq!(text(&tmux.run(display("x")).await.unwrap()), "x\n");
    assert_eq!(tmux.last_transport().await, Some(Transport::Subprocess));
    assert!(control_clients(&server).is_empty());
}

#[test]
fn no_control_mode_keeps_paneward_from_attaching_a_control_client() {
    let server = TmuxServer::start();
    let pane = server.first_pane();
    let mut client = server.paneward_with(&["--no-control-mode"], &[]);
    client.initialize();
    client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    assert!(control_clients(&server).is_empty());
    let mut client = server.paneward_with(&[], &[("PANEWARD_NO_CONTROL_MODE", "1")]);
    client.initialize();
    client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    assert!(control_clients(&server).is_empty());
}
