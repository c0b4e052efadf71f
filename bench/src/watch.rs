//! `paneward-bench watch`: what resource subscriptions cost and how soon they tell.
//!
//! On a private tmux with N idle panes (default 16), it measures the CPU time of the
//! paneward process and of the tmux server (utime + stime from /proc) over a window
//! with no subscriptions and over one with every pane's `tmux://panes/N/content`
//! subscribed, then the time from a write into a watched pane (from the start of the
//! tmux `send-keys` process that makes it) to the `notifications/resources/updated` line, and how many
//! notifications a 500-line burst gives.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::fixture::{Fixture, Shape};
use crate::mcp::{Launch, Server};
use crate::stats::Samples;

/// Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

/// CPU seconds used so far by process `pid` (user + system).
fn cpu_seconds(pid: u32) -> Result<f64, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // Fields after the command name (which may hold spaces) start at state, field 3.
    let rest = stat.rsplit_once(") ").map(|(_, rest)| rest).ok_or("odd /proc stat")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |index: usize| fields.get(index).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15: indexes 11 and 12 from state.
    Ok((ticks(11) + ticks(12)) / TICKS_PER_SECOND)
}

/// Percent of one core each process used over `window`.
fn usage(pids: [u32; 2], window: Duration) -> Result<[f64; 2], String> {
    let before = [cpu_seconds(pids[0])?, cpu_seconds(pids[1])?];
    let started = Instant::now();
    std::thread::sleep(window);
    let elapsed = started.elapsed().as_secs_f64();
    let after = [cpu_seconds(pids[0])?, cpu_seconds(pids[1])?];
    Ok([
        100.0 * (after[0] - before[0]) / elapsed,
        100.0 * (after[1] - before[1]) / elapsed,
    ])
}

fn content_uri(pane: &str) -> String {
    format!("tmux://panes/{}/content", pane.trim_start_matches('%'))
}

/// Runs the measurement and returns its Markdown table.
///
/// # Errors
/// tmux or paneward failed.
pub fn run(paneward: &Path, panes: usize, seconds: u64, samples: usize) -> Result<String, String> {
    let fixture = Fixture::start(
        Shape {
            panes,
            one_window: false,
            sessions: 1,
        },
        false,
    )?;
    let launch = Launch {
        program: paneward.to_string_lossy().into_owned(),
        args: vec!["--socket-name".into(), fixture.socket.clone()],
        env: vec![("PANEWARD_LOG".into(), "error".into())],
        http_token: None,
    };
    let mut server = Server::start(&launch)?.server;
    server.request("resources/read", &json!({"uri": "tmux://sessions"}))?;
    let tmux_pid: u32 = fixture
        .tmux(&["display-message", "-p", "#{pid}"])?
        .trim()
        .parse()
        .map_err(|_| "tmux printed no pid")?;
    let pids = [server.pid(), tmux_pid];
    let window = Duration::from_secs(seconds);
    eprintln!("idle, nothing subscribed ({seconds} s)");
    let idle = usage(pids, window)?;
    for pane in &fixture.panes {
        server.request("resources/subscribe", &json!({"uri": content_uri(pane)}))?;
    }
    eprintln!("idle, {panes} panes subscribed ({seconds} s)");
    let watching = usage(pids, window)?;

    eprintln!("write-to-notification latency ({samples} writes)");
    let watched = &fixture.panes[panes / 2];
    let uri = content_uri(watched);
    let mut latencies = Samples::default();
    for sample in 0..samples {
        // Past the coalescing interval, so each write is told at once; 437 ms, not a
        // multiple of the probe interval, so the writes fall at every phase of it.
        std::thread::sleep(Duration::from_millis(437));
        // From before the tmux process that writes starts: an upper bound.
        let written = Instant::now();
        fixture.tmux(&["send-keys", "-t", watched, "-l", &format!("w{sample} ")])?;
        let arrived = server.wait_update(&uri)?;
        latencies.push(arrived.saturating_duration_since(written));
    }

    eprintln!("a 500-line burst");
    std::thread::sleep(Duration::from_secs(1));
    server.updates.clear();
    fixture.tmux(&[
        "respawn-pane",
        "-k",
        "-t",
        watched,
        "seq -f 'burst line %g' 1 500; exec sleep 1000000",
    ])?;
    std::thread::sleep(Duration::from_secs(2));
    server.request("ping", &json!({}))?;
    let burst = server.updates.iter().filter(|(u, _)| *u == uri).count();

    Ok(format!(
        "| {panes} panes | paneward % of a core | tmux server % of a core |\n\
         |---|---:|---:|\n\
         | nothing subscribed | {:.2} | {:.2} |\n\
         | every pane's content subscribed | {:.2} | {:.2} |\n\
         | cost of watching | **{:.2}** | **{:.2}** |\n\n\
         write to `notifications/resources/updated`, {samples} writes: median {:.1} ms, p95 {:.1} ms, max {:.1} ms\n\n\
         a 500-line burst: {burst} notifications\n",
        idle[0],
        idle[1],
        watching[0],
        watching[1],
        watching[0] - idle[0],
        watching[1] - idle[1],
        ms(latencies.median()),
        ms(latencies.quantile(0.95)),
        ms(latencies.quantile(1.0)),
    ))
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
