//! Waiting for a job and reading back what it did: its record polled until it
//! finishes, the budget runs out or the client cancels; then its output, bounded, in a
//! [`Report`].

use std::time::{Duration, Instant};

use crate::guard::ReadGate;
use crate::limits::{RUN_END_MARKER_GRACE, RUN_POLL_FIRST, RUN_POLL_MAX};
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tools::budget::{Budget, Progress};
use crate::tools::observe::text::keep_newest;

use super::record::Exit;
use super::{lost, read_job, rows, script, vanished, JobId, Standing};

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// Typed; the shell has not fetched the wrapper yet.
    Pending,
    Running,
    Finished,
}

/// What a reply says about a job.
pub(super) struct Report {
    pub(super) state: State,
    pub(super) exit_status: Option<i64>,
    pub(super) lines: Vec<String>,
    pub(super) lines_missed: bool,
    pub(super) truncated_lines: i64,
    pub(super) truncated_bytes: i64,
    pub(super) elapsed: Duration,
}

/// How a wait ended.
pub(super) enum Waited {
    Finished(Exit),
    TimedOut,
    Cancelled,
}

/// Polls job `job` until it finishes, `budget` runs out, or the client cancels; sends
/// progress meanwhile when the client asked for it.
///
/// # Errors
/// A missing pane, a job whose record went or that never ran, or tmux failing.
pub(super) async fn wait_for_exit(gate: &ReadGate<'_>, job: &JobId, budget: &Budget) -> Result<Waited, ToolError> {
    let context = gate.context();
    let mut progress = Progress::new(context);
    let what = format!("pane {}", job.pane);
    let mut pause = RUN_POLL_FIRST;
    loop {
        match read_job(gate, job).await? {
            None => return Err(vanished(job)),
            Some((_, Standing::Finished(exit))) => return Ok(Waited::Finished(exit)),
            Some((_, Standing::Lost)) => return Err(lost(job)),
            Some((_, Standing::Pending | Standing::Running)) => {}
        }
        if budget.is_over() {
            return Ok(Waited::TimedOut);
        }
        progress.tick(budget, &what).await;
        let sleep = pause.min(budget.left());
        tokio::select! {
            () = tokio::time::sleep(sleep) => {}
            () = context.cancelled() => return Ok(Waited::Cancelled),
        }
        pause = (pause + pause / 4).min(RUN_POLL_MAX);
    }
}

/// Reads a job's output (for a finished one, its end marker being `end`, waiting up to
/// [`RUN_END_MARKER_GRACE`] for tmux to show it) and bounds it.
///
/// # Errors
/// A missing pane, or tmux failing.
async fn output(gate: &ReadGate<'_>, job: &JobId, end: Option<&str>, max_lines: usize) -> Result<Report, ToolError> {
    let start = script::start_marker(&job.random);
    let wanted = u64::try_from(max_lines).unwrap_or(u64::MAX).saturating_add(64);
    let deadline = Instant::now() + RUN_END_MARKER_GRACE;
    let located = loop {
        let located = rows::read_output(gate, job.pane, (&start, end), wanted)
            .await
            .map_err(|error| match error.kind() {
                ToolErrorKind::NotFound => ToolError::new(
                    ToolErrorKind::NotFound,
                    format!("pane {} of job {job} no longer exists", job.pane),
                ),
                _ => error,
            })?;
        if located.ended || end.is_none() || Instant::now() >= deadline {
            break located;
        }
        tokio::time::sleep(RUN_POLL_FIRST).await;
    };
    let bounded = keep_newest(located.lines, max_lines);
    Ok(Report {
        state: if end.is_some() { State::Finished } else { State::Running },
        exit_status: None,
        truncated_lines: bounded.truncated_lines,
        truncated_bytes: bounded.truncated_bytes,
        lines: bounded.lines,
        lines_missed: located.lines_missed,
        elapsed: Duration::ZERO,
    })
}

/// The report on a finished job: its output and status.
pub(super) async fn finished(
    gate: &ReadGate<'_>,
    job: &JobId,
    exit: &Exit,
    max_lines: usize,
) -> Result<Report, ToolError> {
    let end = script::end_marker(&exit.seal);
    let mut report = output(gate, job, Some(&end), max_lines).await?;
    report.exit_status = Some(exit.status);
    Ok(report)
}

/// The report on a job that had not finished at the last look: pending (no output
/// yet), or running with the output so far; or finished after all, with its exit.
///
/// # Errors
/// A job that never ran or whose record went, a missing pane, or tmux failing.
pub(super) async fn unfinished(
    gate: &ReadGate<'_>,
    job: &JobId,
    max_lines: usize,
) -> Result<(Report, Option<Exit>), ToolError> {
    let report = match read_job(gate, job).await? {
        None => Err(vanished(job)),
        Some((_, Standing::Lost)) => Err(lost(job)),
        Some((_, Standing::Finished(exit))) => {
            let report = finished(gate, job, &exit, max_lines).await?;
            return Ok((report, Some(exit)));
        }
        Some((_, Standing::Pending)) => Ok(Report {
            state: State::Pending,
            exit_status: None,
            lines: Vec::new(),
            lines_missed: false,
            truncated_lines: 0,
            truncated_bytes: 0,
            elapsed: Duration::ZERO,
        }),
        Some((_, Standing::Running)) => output(gate, job, None, max_lines).await,
    };
    Ok((report?, None))
}
