//! `--readme`: the runs behind every speed figure README.md states, and those figures
//! printed as the README words them, with the commit, the date and the machine's load,
//! so that a reader can check them on their own machine with one command.

use std::fmt::Write as _;

use crate::cases::{Case, Flavour};
use crate::measure::Run;
use crate::stats::{ratio, show};

/// The pane counts the README quotes.
pub const PANES: [usize; 2] = [16, 256];

/// The calls the README quotes; start-up and peak memory come with every run.
pub const CASES: [Case; 2] = [Case::SnapshotPane, Case::AgentJob];

/// The peers, in the order the README names them.
const PEERS: [Flavour; 2] = [Flavour::TmuxMcp, Flavour::LibtmuxMcp];

/// The README's figures from `runs`, as Markdown.
pub fn summary(runs: &[Run]) -> String {
    let mut out = String::from("\n## The README's figures (`paneward-bench --readme`)\n\n");
    let _ = writeln!(
        out,
        "Measured {} at commit `{}`, {} cores; load average (1, 5, 15 min) per pane count, at its start and end: {}.\n",
        command_output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]).unwrap_or_else(|| "(date unknown)".into()),
        command_output("git", &["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into()),
        std::thread::available_parallelism().map_or(0, usize::from),
        runs.iter()
            .map(|run| format!("{} panes {} → {}", run.panes, run.load.0, run.load.1))
            .collect::<Vec<_>>()
            .join("; ")
    );
    for run in runs {
        for case in CASES {
            let _ = writeln!(
                out,
                "- {} panes, {}: {}",
                run.panes,
                case.label(),
                beside_peers(run, case)
            );
        }
    }
    for run in runs {
        let startups: Vec<String> = [Flavour::Paneward]
            .into_iter()
            .chain(PEERS)
            .filter_map(|flavour| {
                let figures = server(run, flavour)?;
                let memory = figures
                    .peak_rss_kib
                    .map_or("n/a".into(), |kib| format!("{:.1} MB", kib as f64 / 1024.0));
                Some(format!(
                    "{} start-up {} median (fastest {}), peak RSS {memory}",
                    flavour.name(),
                    show(figures.startup.median()),
                    show(figures.startup.quantile(0.0)),
                ))
            })
            .collect();
        let _ = writeln!(out, "- {} panes: {}", run.panes, startups.join("; "));
    }
    out
}

/// paneward's median for `case`, then each peer's with its factor.
fn beside_peers(run: &Run, case: Case) -> String {
    let Some(ours) = server(run, Flavour::Paneward).and_then(|f| f.median(case)) else {
        return "paneward not measured".into();
    };
    let mut text = format!("paneward {}", show(ours));
    for peer in PEERS {
        let cell = server(run, peer).and_then(|f| f.median(case)).map_or_else(
            || "not measured".to_string(),
            |theirs| format!("{} ({} slower)", show(theirs), ratio(theirs, ours)),
        );
        let _ = write!(text, ", {} {cell}", peer.name());
    }
    text
}

fn server(run: &Run, flavour: Flavour) -> Option<&crate::measure::Figures> {
    run.servers
        .iter()
        .find(|(f, _)| *f == flavour)
        .and_then(|(_, r)| r.as_ref().ok())
}

/// The first line a command prints, if it runs and succeeds.
fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let output = std::process::Command::new(program)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines().next().map(str::to_string)
}
