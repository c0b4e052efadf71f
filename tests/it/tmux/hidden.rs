//! The hidden control client: control mode in no session, on any local server. It must
//! answer like any control client, and the user's tmux must not be able to tell it is
//! there: no client listed, no session attached or touched, `tmux attach` unchanged.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::time::{SystemTime, UNIX_EPOCH};

use crate::support::control::{display, kill_and_wait, start_main_again, text, tmux_hidden, wait_for_async};
use crate::support::descriptors::{back_to_or_died, descriptors, settled_descriptors};
use crate::support::{wait_for, TmuxServer};
use paneward::tmux::native::hidden::Identifying;
use paneward::tmux::native::imsg::PROTOCOL_VERSION;
use paneward::tmux::native::{Identity, Place};
use paneward::tmux::{Command, ErrorKind, Transport};
use serde_json::json;

/// What a person could see of the clients and sessions: `list-clients`, and each
/// session's attached count and activity time.
fn visible(server: &TmuxServer) -> (String, String) {
    (
        server.tmux(&["list-clients"]),
        server.tmux(&[
            "list-sessions",
            "-F",
            "#{session_name} #{session_attached} #{session_activity} #{session_last_attached}",
        ]),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_detached_sessions_are_served_in_control_mode_and_nobody_can_tell() {
    let server = TmuxServer::start();
    server.tmux(&["new-session", "-d", "-s", "second", "/bin/sh"]);
    let before = visible(&server);
    // Activity counts whole seconds: once the clock is past the second `before` was read
    // in, a session touched by the calls below would read differently.
    let now = || SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
    let read_in = now();
    wait_for("the clock to pass into the next second", || {
        (now() > read_in).then_some(())
    });
    let tmux = tmux_hidden(&server);
    for word in ["one", "two"] {
        assert_eq!(text(&tmux.run(display(word)).await.unwrap()), format!("{word}\n"));
        assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    }
    let report = tmux.transport_report().await;
    assert!(report.why.contains("hidden"), "{}", report.why);
    assert_eq!(
        visible(&server),
        before,
        "no client listed, no session attached or touched"
    );
    // A command without a target means what it means to a `tmux` run outside tmux.
    let session = tmux
        .run(Command::new("display-message").arg("-p").arg("#{session_name}"))
        .await
        .unwrap();
    let outside = server.tmux(&["display-message", "-p", "#{session_name}"]);
    assert_eq!(text(&session), outside);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_command_is_reported_and_the_client_stays_in_step() {
    let server = TmuxServer::start();
    let tmux = tmux_hidden(&server);
    let error = tmux
        .run_all(&[
            display("a"),
            Command::new("capture-pane").arg("-p").arg("-t").arg("%999"),
            display("b"),
        ])
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ObjectGone, "{error}");
    assert_eq!(text(&tmux.run(display("next")).await.unwrap()), "next\n");
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hidden_client_comes_back_after_the_server_restarts() {
    let server = TmuxServer::start();
    let tmux = tmux_hidden(&server);
    tmux.run(display("before")).await.unwrap();
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
    kill_and_wait(&server);
    let error = tmux.run(display("between")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ServerGone, "{error}");
    start_main_again(&server);
    assert_eq!(text(&tmux.run(display("after")).await.unwrap()), "after\n");
    wait_for_async("control mode to come back", async || {
        tmux.run(display("again")).await.unwrap();
        (tmux.last_transport().await == Some(Transport::Control)).then_some(())
    })
    .await;
    assert!(server.tmux(&["list-clients"]).is_empty());
}

#[test]
fn the_hidden_client_goes_when_paneward_does() {
    let server = TmuxServer::start();
    server.tmux(&["new-session", "-d", "-s", "second", "/bin/sh"]);
    let pane = server.first_pane();
    let pid = server.tmux(&["display-message", "-p", "#{pid}"]).trim().to_string();
    let alone = settled_descriptors(&pid);
    let mut client = server.paneward();
    client.initialize();
    client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    client.call_ok("snapshot_pane", json!({"pane_id": pane}));
    // The socket and the two pipes, held while paneward runs.
    assert_eq!(settled_descriptors(&pid), alone + 3);
    drop(client);
    wait_for("tmux to drop the hidden client", || {
        (descriptors(&pid) == alone).then_some(())
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_client_that_dies_part_way_through_identifying_leaves_the_server_up() {
    // tmux 3.3a segfaults when a client that said it was a control client goes before
    // it said it was done identifying (docs/tmux-quirks.md): what a paneward killed
    // during its first call left. Cut the opening after each of its writes in turn.
    let server = TmuxServer::start();
    let pid = server.tmux(&["display-message", "-p", "#{pid}"]).trim().to_string();
    let socket = std::path::PathBuf::from(server.tmux(&["display-message", "-p", "#{socket_path}"]).trim());
    let place = Place::here();
    let identity = || place.identity(PROTOCOL_VERSION, false, Identity::environment(true, true));
    let alone = settled_descriptors(&pid);
    let writes = Identifying::connect(&socket, &identity()).await.unwrap().writes_left();
    assert_eq!(
        settled_descriptors(&pid),
        alone,
        "tmux dropped the client that wrote nothing"
    );
    assert!(writes > 1, "the opening goes in several writes");
    for cut in 1..writes {
        let mut client = Identifying::connect(&socket, &identity()).await.unwrap();
        for _ in 0..cut {
            client.write_next().await.unwrap();
        }
        // Once tmux has taken the connection, it reads all that was written before it
        // sees the client go.
        wait_for("tmux to take the connection", || {
            (descriptors(&pid) > alone).then_some(())
        });
        drop(client);
        // tmux closes the client's socket and pipes once it has seen it go, or dies.
        assert!(
            back_to_or_died(&pid, alone),
            "the tmux server died when a client went after {cut} of its {writes} opening writes"
        );
    }
    assert_eq!(server.tmux(&["display-message", "-p", "#{pid}"]).trim(), pid);
    // The whole opening still makes a client that answers.
    let tmux = tmux_hidden(&server);
    assert_eq!(text(&tmux.run(display("whole")).await.unwrap()), "whole\n");
    assert_eq!(tmux.last_transport().await, Some(Transport::Control));
}
