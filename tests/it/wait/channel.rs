//! `wait_for_channel` and `signal_channel` against real tmux servers, through the binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::waits::{finish_wait, start_wait};
use crate::support::Client;
use crate::support::{wait_for, TmuxServer};
use serde_json::json;

fn mutating(tmux: &TmuxServer) -> Client {
    let mut client = tmux.paneward_with(&["--safety", "mutating"], &[]);
    client.initialize();
    client
}

/// Whether any process (zombies aside) runs `tmux ... wait-for <channel>`.
pub(crate) fn wait_for_process_exists(channel: &str) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
        args.windows(2)
            .any(|pair| pair[0] == b"wait-for" && pair[1] == channel.as_bytes())
    })
}

#[test]
fn a_signal_from_tmux_ends_the_wait_which_attaches_no_client_and_sends_progress() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    client.call_ok("list_panes", json!({}));
    let clients = || tmux.tmux(&["list-clients", "-F", "#{client_name} #{client_pid}"]);
    let before = clients();
    let (id, progress) = start_wait(
        &mut client,
        "c1",
        "wait_for_channel",
        json!({"channel": "build.done:1", "timeout_seconds": 20}),
    );
    // The `tmux wait-for` process is a command client with no session: not listed.
    assert_eq!(clients(), before);
    assert_eq!(progress["total"], json!(20.0));
    assert!(
        progress["message"]
            .as_str()
            .unwrap()
            .ends_with("of 20.0 s, channel build.done:1"),
        "{progress}"
    );
    tmux.tmux(&["wait-for", "-S", "build.done:1"]);
    let reply = finish_wait(&mut client, &id, "wait_for_channel");
    assert_eq!(reply["signalled"], true);
    assert_eq!(reply["channel"], "build.done:1");
    assert_eq!(reply["timeoutSeconds"], json!(20.0));
}

#[test]
fn a_timeout_is_an_answer_not_an_error() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let channel = format!("{}.quiet", tmux.name);
    let reply = client.call_ok("wait_for_channel", json!({"channel": channel, "timeout_seconds": 0.3}));
    assert_eq!(reply["signalled"], false);
    assert_eq!(reply["timeoutSeconds"], json!(0.3));
    assert_eq!(reply["timeoutClamped"], false);
    wait_for("the timed-out wait-for to be gone", || {
        (!wait_for_process_exists(&channel)).then_some(())
    });
}

#[test]
fn signal_channel_wakes_a_tmux_waiter_and_a_signal_with_no_waiter_is_kept_once() {
    let tmux = TmuxServer::start();
    let mut client = mutating(&tmux);
    let go = format!("{}.go", tmux.name);
    let mut waiter = tmux.command().args(["wait-for", &go]).spawn().unwrap();
    wait_for("tmux wait-for to start", || wait_for_process_exists(&go).then_some(()));
    let reply = client.call_ok("signal_channel", json!({"channel": go}));
    assert_eq!(reply, json!({"channel": go}));
    let status = wait_for("the waiter to wake", || waiter.try_wait().unwrap());
    assert!(status.success());

    client.call_ok("signal_channel", json!({"channel": "kept"}));
    let reply = client.call_ok("wait_for_channel", json!({"channel": "kept", "timeout_seconds": 10}));
    assert_eq!(reply["signalled"], true);
}

#[test]
fn a_server_that_dies_during_the_wait_is_an_error_not_a_signal() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let (id, _) = start_wait(&mut client, "c1", "wait_for_channel", json!({"channel": "never"}));
    tmux.tmux(&["kill-server"]);
    let response = client.response(&id);
    let result = &response["result"];
    assert_eq!(result["isError"], true, "{response}");
    assert_eq!(
        result["_meta"]["paneward/error"]["kind"], "tmuxUnavailable",
        "{response}"
    );
    assert!(
        result["content"][0]["text"].as_str().unwrap().contains("not a signal"),
        "{response}"
    );
}

#[test]
fn a_cancelled_wait_leaves_no_tmux_process_behind() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let channel = format!("{}.cancel-me", tmux.name);
    let (id, _) = start_wait(&mut client, "c1", "wait_for_channel", json!({"channel": channel}));
    assert!(wait_for_process_exists(&channel));
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}}));
    wait_for("the cancelled wait-for to be gone", || {
        (!wait_for_process_exists(&channel)).then_some(())
    });
    // The server still answers.
    client.call_ok("wait_for_channel", json!({"channel": "other", "timeout_seconds": 0.1}));
}

/// tmux 3.3a keeps a killed `wait-for` client's wait queued on the channel, and the
/// next signal goes to it: a signal sent after a timed-out wait is not kept for the
/// next one (docs/tmux-quirks.md).
#[test]
fn tmux_gives_the_next_signal_to_a_wait_that_timed_out() {
    let tmux = TmuxServer::start();
    let mut client = mutating(&tmux);
    let first = client.call_ok("wait_for_channel", json!({"channel": "late", "timeout_seconds": 0.2}));
    assert_eq!(first["signalled"], false);
    client.call_ok("signal_channel", json!({"channel": "late"}));
    let second = client.call_ok("wait_for_channel", json!({"channel": "late", "timeout_seconds": 0.5}));
    assert_eq!(second["signalled"], false);
}

#[test]
fn bad_and_reserved_channel_names_are_refused_by_both_tools() {
    let tmux = TmuxServer::start();
    let mut client = mutating(&tmux);
    for tool in ["wait_for_channel", "signal_channel"] {
        for (channel, expected) in [
            ("paneward_run_1", "paneward's own channels"),
            ("PANEWARD", "paneward's own channels"),
            ("-S", "must not start with -"),
            ("two words", "/channel"),
            ("", "/channel"),
        ] {
            let error = client.call_err(tool, json!({"channel": channel}));
            assert!(error.contains(expected), "{tool} {channel:?}: {error}");
        }
    }
}
