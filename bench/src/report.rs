//! The Markdown tables and the check of the targets.

use std::fmt::Write as _;
use std::time::Duration;

use crate::cases::{Case, Flavour};
use crate::measure::{Figures, Run, SLOW_STARTUPS, WARM_UP_CALLS};
use crate::stats::{ratio, show};
use crate::Options;

fn cell(figures: Option<&Result<Figures, String>>, case: Case, ours: Option<Duration>) -> String {
    let Some(figures) = figures else {
        return "not run".into();
    };
    let figures = match figures {
        Ok(figures) => figures,
        Err(error) => return format!("failed: {}", error.chars().take(60).collect::<String>()),
    };
    match figures.calls.iter().find(|(c, _)| *c == case).map(|(_, r)| r) {
        Some(Ok(samples)) => {
            let mut text = format!("{} / {}", show(samples.median()), show(samples.p99()));
            if let Some(ours) = ours {
                let _ = write!(text, " ({})", ratio(samples.median(), ours));
            }
            text
        }
        Some(Err(why)) if why.contains("not implemented") => "n/a: not implemented".into(),
        Some(Err(why)) => why.chars().take(80).collect(),
        None => "n/a".into(),
    }
}

pub fn report(runs: &[Run], options: &Options) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Latency per call, median / p99 over {} calls ({} warm-up calls first); paneward's calls alternate with the raw floor's, each peer runs a loop of its own; peers show peer/paneward in brackets.\n",
        options.calls, WARM_UP_CALLS
    );
    let _ = writeln!(
        out,
        "| panes | call | raw control mode | paneward | {} | {} | {} |",
        Flavour::TmuxMcp.name(),
        Flavour::LibtmuxMcp.name(),
        Flavour::PanewardPython.name()
    );
    out.push_str("|---:|---|---:|---:|---:|---:|---:|\n");
    for run in runs {
        let server = |f: Flavour| run.servers.iter().find(|(g, _)| *g == f).map(|(_, r)| r);
        for (case, floor) in &run.floors {
            let ours = server(Flavour::Paneward)
                .and_then(|r| r.as_ref().ok())
                .and_then(|f| f.median(*case));
            let floor_cell = if !case.has_floor() {
                "none to compare".to_string()
            } else if floor.is_empty() {
                "not run (it would attach)".to_string()
            } else {
                format!("{} / {}", show(floor.median()), show(floor.p99()))
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                run.panes,
                case.label(),
                floor_cell,
                cell(server(Flavour::Paneward), *case, None),
                cell(server(Flavour::TmuxMcp), *case, ours),
                cell(server(Flavour::LibtmuxMcp), *case, ours),
                cell(server(Flavour::PanewardPython), *case, ours),
            );
        }
    }
    let _ = writeln!(
        out,
        "\nStart-up (spawn to the tools/list reply, median of {} runs; {SLOW_STARTUPS} for libtmux-mcp), MCP `ping` round trip (median; the protocol layer alone), tools/list size, peak RSS (VmHWM of the server process after its calls).\n",
        options.startups
    );
    out.push_str(
        "| panes | server | start-up | MCP ping | tools/list bytes | peak RSS |\n|---:|---|---:|---:|---:|---:|\n",
    );
    for run in runs {
        for (flavour, figures) in &run.servers {
            let row = match figures {
                Ok(f) => format!(
                    "{} | {} | {} | {}",
                    show(f.startup.median()),
                    show(f.ping.median()),
                    f.tools_list_bytes,
                    f.peak_rss_kib
                        .map_or("n/a".into(), |k| format!("{:.1} MB", k as f64 / 1024.0))
                ),
                Err(error) => format!("failed: {error} | | | "),
            };
            let _ = writeln!(out, "| {} | {} | {row} |", run.panes, flavour.name());
        }
    }
    out.push_str("\nWhere snapshot_pane's time goes (medians): the bare commands on a raw control client; the same through paneward's library (its framing: two nonce lines, a task hop); the whole MCP call.\n\n| panes | raw | library | MCP call |\n|---:|---:|---:|---:|\n");
    for run in runs {
        let floor = run
            .floors
            .iter()
            .find(|(c, s)| *c == Case::SnapshotPane && !s.is_empty())
            .map(|(_, s)| s.median());
        let call = run
            .servers
            .iter()
            .find(|(f, _)| *f == Flavour::Paneward)
            .and_then(|(_, r)| r.as_ref().ok())
            .and_then(|f| f.median(Case::SnapshotPane));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            run.panes,
            floor.map_or("n/a".into(), show),
            show(run.library.median()),
            call.map_or("n/a".into(), show)
        );
    }
    out.push_str(&transports(runs));
    out.push_str(&cpu(runs));
    out.push_str(&jobs(runs));
    out.push_str(&loads(runs));
    out.push_str(&profile(runs));
    out.push_str(&targets(runs));
    out
}

/// `--python-profile` against the default profile, call by equivalent call: each
/// profile call should take at most 1.5 × the default's + 0.2 ms (issue 45).
fn profile(runs: &[Run]) -> String {
    let mut rows = String::new();
    for run in runs {
        let find = |f: Flavour| {
            run.servers
                .iter()
                .find(|(g, _)| *g == f)
                .and_then(|(_, r)| r.as_ref().ok())
        };
        let (Some(default), Some(python)) = (find(Flavour::Paneward), find(Flavour::PanewardPython)) else {
            continue;
        };
        for (case, _) in &run.floors {
            let (Some(ours), Some(theirs)) = (default.median(*case), python.median(*case)) else {
                continue;
            };
            let limit = ours.mul_f64(1.5) + Duration::from_micros(200);
            let _ = writeln!(
                rows,
                "| {} | {} | {} | {} | {} | {} | {} |",
                run.panes,
                case.label(),
                show(ours),
                show(theirs),
                ratio(theirs, ours),
                show(limit),
                if theirs <= limit { "met" } else { "MISSED" }
            );
        }
    }
    if rows.is_empty() {
        return rows;
    }
    format!(
        "\n`--profile python` against the default profile (medians; the target: 1.5 × the default's + 0.2 ms):\n\n| panes | call | default | --profile python | ratio | target | |\n|---:|---|---:|---:|---:|---:|---|\n{rows}"
    )
}

/// CPU per call: the tmux server's beside the MCP server's own.
fn cpu(runs: &[Run]) -> String {
    let mut out = format!(
        "\nCPU per call (mean over the measured calls; scheduler time of every thread, plus reaped children): tmux server's / the MCP server's own. The raw floor is tmux's alone.\n\n| panes | call | raw: tmux | paneward | {} | {} |\n|---:|---|---:|---:|---:|---:|\n",
        Flavour::TmuxMcp.name(),
        Flavour::LibtmuxMcp.name()
    );
    for run in runs {
        let server = |f: Flavour| {
            run.servers
                .iter()
                .find(|(g, _)| *g == f)
                .and_then(|(_, r)| r.as_ref().ok())
        };
        for (case, floor) in &run.floor_cpu {
            let pair = |f: Flavour| {
                server(f)
                    .and_then(|figures| figures.cpu(*case))
                    .map_or("n/a".into(), |(own, tmux)| format!("{} / {}", show(tmux), show(own)))
            };
            let raw = floor.per_call().map_or("n/a".into(), |(_, tmux)| show(tmux));
            let _ = writeln!(
                out,
                "| {} | {} | {raw} | {} | {} | {} |",
                run.panes,
                case.label(),
                pair(Flavour::Paneward),
                pair(Flavour::TmuxMcp),
                pair(Flavour::LibtmuxMcp)
            );
        }
    }
    out
}

/// The agent's whole job on each server.
fn jobs(runs: &[Run]) -> String {
    let mut rows = String::new();
    for run in runs {
        for (flavour, figures) in &run.servers {
            let Ok(figures) = figures else { continue };
            let Some((calls, exact)) = figures.job else { continue };
            let Some(median) = figures.median(Case::AgentJob) else {
                continue;
            };
            let (own, tmux) = figures.cpu(Case::AgentJob).unwrap_or_default();
            let _ = writeln!(
                rows,
                "| {} | {} | {calls} | {} | {} | {} | {} |",
                run.panes,
                flavour.name(),
                show(median),
                show(own),
                show(tmux),
                if exact { "yes" } else { "no" }
            );
        }
    }
    if rows.is_empty() {
        return rows;
    }
    format!(
        "\nThe agent's whole job (make a window, run a command that prints 300 lines and exits 3, read its output and status, kill the window), with each server's own tools (bench/src/job.rs); median wall time, mean CPU; exact: every line in order and the status 3.\n\n| panes | server | calls | wall time | server CPU | tmux CPU | exact |\n|---:|---|---:|---:|---:|---:|---|\n{rows}"
    )
}

/// The load average around each run.
fn loads(runs: &[Run]) -> String {
    let mut out =
        String::from("\nLoad average (1, 5, 15 min; /proc/loadavg) at the start and the end of each run:\n\n");
    for run in runs {
        let _ = writeln!(out, "- {} panes: {} → {}", run.panes, run.load.0, run.load.1);
    }
    out
}

/// paneward's own calls by MCP transport and tmux reach, when `--http` or `--ssh` ran.
fn transports(runs: &[Run]) -> String {
    let mut out = String::new();
    let ran = |f: Flavour| runs.iter().any(|run| run.servers.iter().any(|(g, _)| *g == f));
    if !ran(Flavour::PanewardHttp) && !ran(Flavour::PanewardSsh) && !ran(Flavour::PanewardOneShot) {
        return out;
    }
    let _ = writeln!(
        out,
        "\npaneward by transport, median / p99 (brackets: against stdio): stdio to a local tmux; Streamable HTTP on loopback (`serve --http`, one kept-alive connection, the reply read from its event stream); stdio with tmux reached through ssh on loopback (`--ssh`, one shared connection); stdio with control mode off (`--no-control-mode`, one native client per round trip).\n\n| panes | call | stdio | HTTP | SSH | one-shot clients |\n|---:|---|---:|---:|---:|---:|"
    );
    for run in runs {
        let server = |f: Flavour| run.servers.iter().find(|(g, _)| *g == f).map(|(_, r)| r);
        for (case, _) in &run.floors {
            let ours = server(Flavour::Paneward)
                .and_then(|r| r.as_ref().ok())
                .and_then(|f| f.median(*case));
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                run.panes,
                case.label(),
                cell(server(Flavour::Paneward), *case, None),
                cell(server(Flavour::PanewardHttp), *case, ours),
                cell(server(Flavour::PanewardSsh), *case, ours),
                cell(server(Flavour::PanewardOneShot), *case, ours),
            );
        }
    }
    out
}

/// The targets for paneward, checked against this run.
fn targets(runs: &[Run]) -> String {
    let mut out = String::from("\nTargets (paneward, medians):\n\n");
    let mut check = |ok: bool, what: String| {
        let _ = writeln!(out, "- [{}] {what}", if ok { "met" } else { "MISSED" });
    };
    for run in runs {
        let find = |f: Flavour| {
            run.servers
                .iter()
                .find(|(g, _)| *g == f)
                .and_then(|(_, r)| r.as_ref().ok())
        };
        let Some(ours) = find(Flavour::Paneward) else { continue };
        for (case, floor) in &run.floors {
            let Some(median) = ours.median(*case) else { continue };
            if !case.has_floor() {
                continue;
            }
            if floor.is_empty() {
                // Several detached sessions: no control mode; compare with paneward's
                // control-mode figure for the same panes in this run.
                let control = runs
                    .iter()
                    .filter(|r| r.shape.sessions == 1 && r.shape.panes == run.shape.panes)
                    .filter(|r| r.shape.one_window == run.shape.one_window)
                    .filter_map(|r| r.servers.iter().find(|(f, _)| *f == Flavour::Paneward))
                    .filter_map(|(_, r)| r.as_ref().ok())
                    .find_map(|f| f.median(*case));
                if let Some(control) = control {
                    check(
                        median.as_secs_f64() <= 1.5 * control.as_secs_f64(),
                        format!(
                            "{} panes, {}: {} ≤ 1.5 × control mode's {}",
                            run.panes,
                            case.label(),
                            show(median),
                            show(control)
                        ),
                    );
                }
                continue;
            }
            // 150 µs of framing allowed per MCP call in the sample.
            let calls = if *case == Case::Sequence { 16 } else { 1 };
            let limit = floor.median().mul_f64(1.5) + Duration::from_micros(150) * calls;
            check(
                median <= limit,
                format!(
                    "{} panes, {}: {} ≤ 1.5 × {} + {} × 150 µs = {}",
                    run.panes,
                    case.label(),
                    show(median),
                    show(floor.median()),
                    calls,
                    show(limit)
                ),
            );
            for (peer, factor) in [(Flavour::TmuxMcp, 3.0), (Flavour::LibtmuxMcp, 10.0)] {
                if let Some(theirs) = find(peer).and_then(|f| f.median(*case)) {
                    check(
                        theirs.as_secs_f64() >= factor * median.as_secs_f64(),
                        format!(
                            "{} panes, {}: {factor}× faster than {} ({})",
                            run.panes,
                            case.label(),
                            peer.name(),
                            ratio(theirs, median)
                        ),
                    );
                }
            }
        }
        if let Some(snapshot) = ours.median(Case::SnapshotPane) {
            check(
                snapshot < Duration::from_millis(1),
                format!("{} panes, snapshot_pane under 1 ms: {}", run.panes, show(snapshot)),
            );
        }
        check(
            ours.startup.median() < Duration::from_millis(20),
            format!(
                "{} panes, start-up under 20 ms: {}",
                run.panes,
                show(ours.startup.median())
            ),
        );
        if let Some(kib) = ours.peak_rss_kib {
            check(
                kib < 20 * 1024,
                format!(
                    "{} panes, peak RSS under 20 MB: {:.1} MB",
                    run.panes,
                    kib as f64 / 1024.0
                ),
            );
        }
    }
    out
}
