//! Ending paneward a few milliseconds into a call, as an MCP host does when it restarts
//! or closes its server (SIGKILL or SIGTERM): the tmux server outlives it every time,
//! and lets its connections go, in control mode (the hidden client is made during the
//! first call), in control mode through a `tmux -C` process, and without control mode
//! (issue 51; docs/tmux-quirks.md, "A control client that goes before it is done
//! identifying crashes the server").
//!
//! The short form runs in CI; `soak_of_ends_mid_call` ends paneward 500 times in each
//! of the three modes (250 with the test's own environment, 250 with a large one) and
//! runs on demand (BENCHMARKS.md, "Ending paneward mid-call").

use std::time::{Duration, Instant};

use rustix::process::Signal;
use serde_json::{json, Value};

use crate::support::descriptors::{back_to_or_died, descriptors_while_running, settled_descriptors};
use crate::support::TmuxServer;

/// The ways paneward reaches tmux: a name for messages and command-line arguments.
/// `--no-hidden-client` makes the control client a `tmux -C attach-session` process,
/// tmux's own client, which sends its flags first.
const MODES: [(&str, &[&str]); 3] = [
    ("control mode", &[]),
    ("control mode through `tmux -C`", &["--no-hidden-client"]),
    ("--no-control-mode", &["--no-control-mode"]),
];

/// A large environment, as some hosts pass: a control client sends its whole
/// environment while identifying (a `tmux -C` process does too), so the opening takes
/// several writes and milliseconds, and an end that lands in it is likely. Each entry
/// fits tmux's message size.
fn large_environment() -> Vec<(String, String)> {
    (0..400)
        .map(|i| (format!("PANEWARD_TEST_FILLER_{i}"), "x".repeat(2000)))
        .collect()
}

/// The `i`th end: its call, its signal, and how long after tmux takes paneward's first
/// connection it comes. The four pairs of call and signal take turns; the delay sweeps
/// 0 to 5 ms in steps of 0.1 ms, in an order that visits the whole range early.
fn ending(i: u64, pane: &str) -> (Value, Signal, Duration) {
    let call = if i % 4 < 2 {
        json!({"name": "run_command", "arguments": {"pane_id": pane, "command": "echo J", "timeout_seconds": 5}})
    } else {
        json!({"name": "list_panes", "arguments": {}})
    };
    let signal = if i.is_multiple_of(2) {
        Signal::KILL
    } else {
        Signal::TERM
    };
    let tenths_of_ms = (i * 37) % 51;
    (call, signal, Duration::from_micros(100 * tenths_of_ms))
}

/// Spins until tmux (`pid`) holds more than `alone` descriptors, that is, has taken a
/// connection of paneward's (made during the call, not at start-up), or a second has
/// passed (paneward answered without one, or before tmux looked); then `delay` more.
///
/// Timed from that moment rather than from the call, the ends land around the opening
/// of paneward's connection whatever the call costs before it (a debug build spends
/// tens of milliseconds there, a release build a few).
fn spin_until_taken_then(pid: &str, alone: usize, delay: Duration) {
    let start = Instant::now();
    while descriptors_while_running(pid).is_some_and(|open| open <= alone) && start.elapsed() < Duration::from_secs(1) {
        // Busy, but other work on a loaded machine (paneward itself) goes first.
        std::thread::yield_now();
    }
    let taken = Instant::now();
    while taken.elapsed() < delay {
        std::hint::spin_loop();
    }
}

/// Starts paneward `ends` times in each mode, sends a call, ends paneward 0 to 5 ms
/// after tmux took its connection, and checks after each end that the tmux server let
/// paneward's connections go and still runs, with the same pid.
fn end_mid_call(ends: u64, environment: &[(String, String)]) {
    let server = TmuxServer::start();
    let pane = server.first_pane();
    let pid = server.tmux(&["display-message", "-p", "#{pid}"]).trim().to_string();
    let environment: Vec<(&str, &str)> = environment.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    for (mode, args) in MODES {
        let alone = settled_descriptors(&pid);
        for i in 0..ends {
            let (call, signal, delay) = ending(i, &pane);
            let mut client = server.paneward_with(args, &environment);
            client.initialize();
            client.send(&json!({"jsonrpc": "2.0", "id": 100, "method": "tools/call", "params": call}));
            // Not a wait for anything: where the end lands is what the test varies.
            spin_until_taken_then(&pid, alone, delay);
            client.end_with(signal);
            assert!(
                back_to_or_died(&pid, alone),
                "{mode}: the tmux server died when paneward was ended ({signal:?}) {delay:?} after tmux took its connection, during {} (end {i})",
                call["name"]
            );
        }
        assert_eq!(
            server.tmux(&["display-message", "-p", "#{pid}"]).trim(),
            pid,
            "{mode}: the same server answers"
        );
    }
}

#[test]
fn ending_paneward_mid_call_leaves_the_tmux_server_up() {
    end_mid_call(24, &large_environment());
}

#[test]
#[ignore = "a soak: 1500 ends, one to five minutes; run on demand (BENCHMARKS.md)"]
fn soak_of_ends_mid_call() {
    end_mid_call(250, &[]);
    end_mid_call(250, &large_environment());
}
