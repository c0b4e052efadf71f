//! `--wait`: what a `wait_for_text` costs while it waits, and how soon it answers.
//!
//! - **Detection latency**: a wait for `MARK-<n>` on a pane running `cat` is under way
//!   (300 ms after the call, past its entry reading); the benchmark types the marker
//!   over its own control client and times from that write to paneward's reply line.
//! - **Cancellation**: a `wait_for_channel` is under way (its `tmux wait-for` process
//!   runs); the benchmark sends `notifications/cancelled` and times until no process
//!   runs `wait-for` on that channel any more.
//! - **CPU while waiting**: one wait for text that never comes, `--wait-seconds` long
//!   (30), on a quiet pane; the CPU time (user + system, `/proc/<pid>/stat`) paneward
//!   and the tmux server spent meanwhile, as a share of one core.
//! - With `--tmux-mcp` / `--libtmux-mcp`, the same detection latency and quiet wait for
//!   each peer's `wait_for_text` (their cancellation is not measured).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::cases::Flavour;
use crate::fixture::{Fixture, Shape};
use crate::mcp::Server;
use crate::raw::RawControl;
use crate::stats::{show, Samples};
use crate::Options;

/// From the call to the typing of the marker: past every server's entry reading.
const SETTLE: Duration = Duration::from_millis(300);

/// Clock ticks per second of `/proc/<pid>/stat` (`getconf CLK_TCK`; 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

/// User + system CPU time of process `pid` so far.
fn cpu_time(pid: u32) -> Result<Duration, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or_default();
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |index: usize| -> Result<f64, String> {
        fields
            .get(index)
            .and_then(|f| f.parse::<f64>().ok())
            .ok_or_else(|| format!("/proc/{pid}/stat has no field {index}"))
    };
    // utime, stime, cutime, cstime are fields 14-17 of the whole line: 12-15 after
    // ')'. Reaped children count: a peer may run a tmux process per probe.
    Ok(Duration::from_secs_f64(
        (ticks(11)? + ticks(12)? + ticks(13)? + ticks(14)?) / TICKS_PER_SECOND,
    ))
}

/// Whether a live process runs `wait-for <channel>`.
fn waits_on(channel: &str) -> bool {
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

/// The `wait_for_text` call of `flavour` for `pattern` in `pane`, as read from each
/// server's tools/list: the pane is `pane_ids` / `pane` / `pane_id`, the time limit
/// `timeout_seconds` / `seconds` / `timeout`.
fn wait_call(flavour: Flavour, pane: &str, pattern: &str, timeout: f64) -> Value {
    let arguments = match flavour.contract() {
        // tmux-mcp takes whole seconds.
        Flavour::TmuxMcp => json!({"pane": pane, "patterns": [pattern], "seconds": timeout.ceil() as u64}),
        Flavour::LibtmuxMcp => json!({"pane_id": pane, "patterns": [pattern], "timeout": timeout}),
        _ => json!({"pane_ids": [pane], "patterns": [pattern], "timeout_seconds": timeout}),
    };
    json!({"name": "wait_for_text", "arguments": arguments})
}

/// How a wait ended: `structuredContent.outcome` on all three servers.
fn outcome(response: &Value) -> String {
    response["result"]["structuredContent"]["outcome"]
        .as_str()
        .unwrap_or("an error")
        .to_string()
}

/// Detection latency of `samples` waits for a marker typed into `pane`.
fn latency(
    server: &mut Server,
    flavour: Flavour,
    typist: &mut RawControl,
    pane: &str,
    samples: usize,
) -> Result<Samples, String> {
    let mut latency = Samples::default();
    for n in 0..samples {
        let marker = format!("MARK-{}-{n}", flavour as u8);
        let id = server.begin("tools/call", &wait_call(flavour, pane, &marker, 10.0))?;
        std::thread::sleep(SETTLE);
        let typed = Instant::now();
        typist.round_trip(&format!("send-keys -t {pane} -l '{marker}'"), 1)?;
        let (arrived, response) = server.finish(id)?;
        typist.round_trip(&format!("send-keys -t {pane} Enter"), 1)?;
        if outcome(&response) != "matched" {
            let text = response["result"]["content"][0]["text"].as_str().unwrap_or_default();
            return Err(format!("the wait for {marker} ended as {}: {text}", outcome(&response)));
        }
        latency.push(arrived - typed);
    }
    Ok(latency)
}

/// CPU time of `server` (and its reaped children) and of the tmux server during one
/// wait of `seconds` for text that never comes; and the wait's length.
fn quiet_wait(
    server: &mut Server,
    flavour: Flavour,
    pane: &str,
    tmux_pid: u32,
    seconds: f64,
) -> Result<(Duration, Duration, f64), String> {
    let id = server.begin("tools/call", &wait_call(flavour, pane, "never printed", seconds))?;
    let started = Instant::now();
    let (ours, theirs) = (cpu_time(server.pid())?, cpu_time(tmux_pid)?);
    let (arrived, response) = server.finish(id)?;
    let (ours, theirs) = (cpu_time(server.pid())? - ours, cpu_time(tmux_pid)? - theirs);
    if matches!(outcome(&response).as_str(), "matched" | "an error") {
        return Err(format!("the quiet wait ended as {}: {response}", outcome(&response)));
    }
    Ok((ours, theirs, (arrived - started).as_secs_f64()))
}

/// Runs both measurements and returns the Markdown that BENCHMARKS.md records.
///
/// # Errors
/// tmux or paneward failed, or a wait ended otherwise than expected.
pub fn run(options: &Options) -> Result<String, String> {
    let (samples, wait_seconds) = (options.wait_samples, options.wait_seconds);
    let shape = Shape {
        panes: 1,
        one_window: false,
        sessions: 1,
    };
    let fixture = Fixture::start(shape, false)?;
    let pane = fixture
        .tmux(&["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "bench:", "exec cat"])?
        .trim()
        .to_string();
    let tmux_pid: u32 = fixture
        .tmux(&["display-message", "-p", "#{pid}"])?
        .trim()
        .parse()
        .map_err(|_| "no tmux pid")?;
    let mut servers = Vec::new();
    for (flavour, launch) in crate::launches(options, &fixture.socket) {
        if matches!(
            flavour,
            Flavour::Paneward | Flavour::TmuxMcp | Flavour::LibtmuxMcp | Flavour::PanewardPython
        ) {
            let mut server = Server::start(&launch)?.server;
            // paneward's own connection is made before the benchmark's client attaches.
            server.call("list_panes", &json!({}))?;
            servers.push((flavour, server));
        }
    }
    let mut typist = RawControl::attach(&fixture.socket, "bench")?;

    let mut latencies = String::new();
    for (flavour, server) in &mut servers {
        let row = match latency(server, *flavour, &mut typist, &pane, samples) {
            Ok(latency) => format!("{} | {}", show(latency.median()), show(latency.p99())),
            Err(error) => format!("failed: {error} |"),
        };
        latencies.push_str(&format!(
            "| {}: text typed → reply ({samples} waits) | {row} |\n",
            flavour.name()
        ));
    }

    let Some((_, server)) = servers.iter_mut().find(|(flavour, _)| *flavour == Flavour::Paneward) else {
        return Err("no paneward".into());
    };
    let mut cancel = Samples::default();
    for n in 0..samples {
        let channel = format!("{}.cancel.{n}", fixture.socket);
        let call = json!({"name": "wait_for_channel", "arguments": {"channel": channel, "timeout_seconds": 20}});
        let id = server.begin("tools/call", &call)?;
        let waiting = Instant::now();
        while !waits_on(&channel) {
            if waiting.elapsed() > Duration::from_secs(10) {
                return Err("no tmux wait-for process appeared".into());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let sent = Instant::now();
        server.cancel(id)?;
        while waits_on(&channel) {
            if sent.elapsed() > Duration::from_secs(10) {
                return Err("the tmux wait-for process outlived the cancel by 10 s".into());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        cancel.push(sent.elapsed());
    }

    let mut quiet = String::new();
    for (flavour, server) in &mut servers {
        let row = match quiet_wait(server, *flavour, &pane, tmux_pid, wait_seconds) {
            Ok((ours, theirs, span)) => {
                let share = |cpu: Duration| format!("{:.2} %", 100.0 * cpu.as_secs_f64() / span);
                format!(
                    "{} | {} | {} | {}",
                    show(ours),
                    share(ours),
                    show(theirs),
                    share(theirs)
                )
            }
            Err(error) => format!("failed: {} | | |", error.chars().take(200).collect::<String>()),
        };
        quiet.push_str(&format!("| {} | {row} |\n", flavour.name()));
    }
    Ok(format!(
        "| wait_for_text | median | p99 |\n|---|---:|---:|\n{latencies}\
         | paneward: cancel sent → its `tmux wait-for` gone ({samples} waits) | {} | {} |\n\n\
         | one {wait_seconds:.0} s wait on a quiet pane | server CPU | server share of one core | tmux server CPU | tmux share |\n\
         |---|---:|---:|---:|---:|\n{quiet}",
        show(cancel.median()),
        show(cancel.p99()),
    ))
}
