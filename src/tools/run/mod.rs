//! `run_command` and `get_job`: a command typed into a shell, waited for, and its own
//! output and exit status read back; and the jobs it leaves when it does not finish in
//! time.
//!
//! How a command travels and is marked: `script`. Where a job lives: `record` (pane
//! user options and, until the shell fetches it, a buffer; never files, never
//! paneward's memory). How its output is found: `rows`. When a shell may be typed
//! into at all: `prompt`; what is checked before typing: `check`.
//!
//! A pane runs one job at a time: while a job is pending (typed, not fetched) or
//! running, another `run_command` there is refused (`force` abandons the earlier
//! record, never the prompt rule), so a second line is never typed behind a first that
//! the shell has not read yet.
//!
//! Waiting is polling: the exit-status option is read over paneward's own connection,
//! first after [`RUN_POLL_FIRST`](crate::limits::RUN_POLL_FIRST), then a quarter later
//! each time up to [`RUN_POLL_MAX`](crate::limits::RUN_POLL_MAX) (`wait`). No
//! `wait-for` channel and no helper process is involved, so a wait that ends
//! (finished, timed out, cancelled) leaves no pending signal or child behind, and a
//! restarted paneward reads a job exactly as the one that typed it would.
//!
//! Collection: a job `run_command` sees finish is collected at once (its options are
//! removed before the reply). A job that outlives its `run_command` stays recorded, so
//! `get_job` (which changes nothing) answers the same on every read, until the next
//! `run_command` in its pane removes it; the next one cannot start before it finished
//! (unless `force`), and the pane's death removes it too. A job whose wrapper buffer
//! vanished before the shell fetched it never ran; it is reported as such (`get_job`
//! refuses it with that reason) and removed by the next `run_command`.
//!
//! A paneward that stops mid-call leaves nothing that holds a pane for nothing: its job
//! is recorded as staged before its buffer is written, and marked typed in the tmux
//! step that types its line (`record`). A staged record (with whatever of its buffer
//! was written) is certain proof that nothing was typed, so the next `run_command` in
//! the pane removes both and goes on; a typed record still holds the pane.

mod check;
pub mod pipe;
mod prompt;
pub mod ready;

pub use record::JobId;
mod record;
mod rows;
mod script;
pub mod task;
mod wait;

use std::time::Duration;

use crate::generated::types::{
    GetJobInput, GetJobOutput, GetJobOutputState, RunCommandInput, RunCommandOutput, RunCommandOutputState,
};
use crate::guard::key_input::KeyInput;
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb, ReadGate};
use crate::limits::{RUN_BATCH_MAX_WAIT, RUN_COMMAND_MAX_CHARS, RUN_DEFAULT_TIMEOUT, SET_BUFFER_SLICE_BYTES};
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::{PaneId, ReadCommand, ReadVerb, TmuxError};
use crate::tools::args;
use crate::tools::budget::Budget;
use check::{check_pane, Checked};
use record::{now_ms, recorded_jobs, Exit, Recorded, TaskRecord, STAGED};
use wait::{finished, unfinished, wait_for_exit, State, Waited};

/// Where a recorded job stands, from its options and whether its buffer still waits.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Standing {
    Pending,
    Running,
    Finished(Exit),
    /// Its buffer is gone but the shell never fetched it: it never ran.
    Lost,
}

fn standing(recorded: &Recorded, buffer_waits: bool) -> Standing {
    if let Some(exit) = recorded.sealed_exit() {
        Standing::Finished(exit.clone())
    } else if buffer_waits {
        Standing::Pending
    } else if recorded.fetched {
        Standing::Running
    } else {
        Standing::Lost
    }
}

/// Refuses a long wait in a batch row: a batch holds the connection's turn for all its
/// rows.
///
/// # Errors
/// A wait longer than [`RUN_BATCH_MAX_WAIT`] in a batch row.
fn batch_wait(gate: &ReadGate<'_>, field: &str, wait: Duration) -> Result<(), ToolError> {
    if gate.context().is_batch_row() && wait > RUN_BATCH_MAX_WAIT {
        return Err(ToolError::invalid_argument(
            field,
            format!(
                "a batch row waits at most {} s; pass a shorter timeout (or detach: true) and read the job with \
                 get_job outside the batch",
                RUN_BATCH_MAX_WAIT.as_secs()
            ),
        ));
    }
    Ok(())
}

/// The options of `pane` (the read fails for a missing pane).
fn show_pane_options(pane: PaneId) -> ReadCommand {
    ReadCommand::new(ReadVerb::ShowOptions)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
}

/// The names of paneward's job buffers that still wait for a shell.
fn pending_buffers() -> ReadCommand {
    ReadCommand::new(ReadVerb::ListBuffers)
        .arg("-F")
        .arg("#{buffer_name}")
        .arg("-f")
        .arg("#{m:paneward_*_job,#{buffer_name}}")
}

/// Whether `buffer` is among the names `list-buffers` printed.
fn is_listed(listing: &[u8], buffer: &str) -> bool {
    String::from_utf8_lossy(listing).lines().any(|line| line == buffer)
}

/// The commands that remove every trace of job `random` in `pane`.
fn forget_commands(pane: PaneId, random: &str, with_buffer: bool) -> Vec<ChangeCommand> {
    let job = JobId {
        pane,
        random: random.to_string(),
    };
    let unset = |name: String| {
        ChangeCommand::new(ChangeVerb::SetOption)
            .arg("-p")
            .arg("-u")
            .arg("-t")
            .arg(pane.to_string())
            .arg(name)
    };
    let mut commands = vec![
        unset(job.started_option()),
        unset(job.fetched_option()),
        unset(job.exit_option()),
        unset(job.task_option()),
        unset(job.cancel_option()),
    ];
    if with_buffer {
        commands.push(ChangeCommand::new(ChangeVerb::DeleteBuffer).arg("-b").arg(job.buffer()));
    }
    commands
}

/// The staging commands: the job's record as [`STAGED`] first, so that whatever part of
/// the staging a stopped paneward leaves is recorded as never typed; then the wrapper
/// into the job's buffer (in slices).
fn stage_commands(job: &JobId, wrapper: &str) -> Vec<ChangeCommand> {
    let mut commands = vec![job_record(job, STAGED)];
    let mut rest = wrapper;
    let mut first = true;
    while !rest.is_empty() {
        let mut end = rest.len().min(SET_BUFFER_SLICE_BYTES);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let command = ChangeCommand::new(ChangeVerb::SetBuffer);
        let command = if first { command } else { command.arg("-a") };
        commands.push(
            command
                .arg("-b")
                .arg(job.buffer())
                .arg("--")
                .sensitive_arg(&rest[..end]),
        );
        rest = &rest[end..];
        first = false;
    }
    commands
}

/// Sets job `job`'s record (`@paneward_job_X`) to `value`: [`STAGED`], or the time it
/// was typed.
fn job_record(job: &JobId, value: &str) -> ChangeCommand {
    ChangeCommand::new(ChangeVerb::SetOption)
        .arg("-p")
        .arg("-t")
        .arg(job.pane.to_string())
        .arg(job.started_option())
        .arg(value)
}

/// Checks `command`: length and no NUL (tmux's parser would end it there).
///
/// # Errors
/// The rule broken, named as `/command`.
fn checked_command(command: &str) -> Result<&str, ToolError> {
    let length = command.chars().count();
    if length == 0 || length > RUN_COMMAND_MAX_CHARS {
        return Err(ToolError::invalid_argument(
            "/command",
            format!("must be 1 to {RUN_COMMAND_MAX_CHARS} characters; got {length}"),
        ));
    }
    if command.contains('\0') {
        return Err(ToolError::invalid_argument("/command", "must not contain NUL"));
    }
    Ok(command)
}

/// Reads job `job`'s record and where it stands; `None` when its pane holds no such
/// job (it was collected or abandoned).
///
/// # Errors
/// A missing pane, or tmux failing.
async fn read_job(gate: &ReadGate<'_>, job: &JobId) -> Result<Option<(Recorded, Standing)>, ToolError> {
    // All the pane's options: unlike one option read with -q, this fails for a pane
    // that is gone.
    let [options, buffers] = gate
        .run_each([show_pane_options(job.pane), pending_buffers()])
        .await
        .map_err(|error| pane_gone(job, error))?;
    let recorded = recorded_job(&String::from_utf8_lossy(&options), &job.random);
    Ok(recorded.map(|recorded| {
        let standing = standing(&recorded, is_listed(&buffers, &job.buffer()));
        (recorded, standing)
    }))
}

/// Job `random`'s record among a pane's options (`show-options -p` output), if the pane
/// holds it.
fn recorded_job(options: &str, random: &str) -> Option<Recorded> {
    recorded_jobs(options)
        .into_iter()
        .find(|recorded| recorded.random == random && recorded.started_ms.is_some())
}

/// How far a job has gone, as a watcher of `tmux://jobs/…` compares it between looks:
/// fetched by its shell, and its exit status once the wrapper wrote it (sealed; what
/// the command itself writes there does not count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JobProgress {
    pub fetched: bool,
    pub exit_status: Option<i64>,
}

/// The read that tells a job's progress: its pane's options, as `read_job` reads
/// them (it fails for a pane that is gone).
pub fn progress_read(pane: PaneId) -> ReadCommand {
    show_pane_options(pane)
}

/// Job `random`'s progress from what [`progress_read`] printed; `None` when the pane
/// holds no such job.
pub fn progress(options: &str, random: &str) -> Option<JobProgress> {
    recorded_job(options, random).map(|recorded| JobProgress {
        fetched: recorded.fetched,
        exit_status: recorded.sealed_exit().map(|exit| exit.status),
    })
}

/// A missing pane, said in a job's words.
fn pane_gone(job: &JobId, error: TmuxError) -> ToolError {
    if error.is_object_gone() {
        ToolError::new(
            ToolErrorKind::NotFound,
            format!(
                "pane {} of job {job} no longer exists; the job's record went with it",
                job.pane
            ),
        )
    } else {
        error.into()
    }
}

/// The refusal for a job that never ran.
fn lost(job: &JobId) -> ToolError {
    ToolError::new(
        ToolErrorKind::NotFound,
        format!(
            "job {job} never ran: its wrapper was removed from buffer {} before the pane's shell fetched it (a \
             run_command with force: true abandoned it, or paneward's buffers were deleted); nothing of it was run, \
             and the next run_command in the pane removes its record",
            job.buffer()
        ),
    )
}

/// The refusal for a job whose record went while it was waited for.
fn vanished(job: &JobId) -> ToolError {
    ToolError::new(
        ToolErrorKind::NotFound,
        format!(
            "job {job}'s record was removed from pane {} while it was waited for (a run_command with force: true \
             abandons the jobs of its pane); its outcome is unknown",
            job.pane
        ),
    )
}

/// `run_command`: see the tool's description in `schemas/tools/run_command.json`.
///
/// # Errors
/// Bad arguments; a refusal (not a shell at an empty prompt, synchronize-panes, a job
/// pending or running, the checks of `send_keys`), with nothing typed; a missing pane;
/// tmux failing.
pub async fn run_command(gate: &ChangeGate<'_>, input: RunCommandInput) -> Result<RunCommandOutput, ToolError> {
    let RunCommandInput {
        pane_id,
        command,
        timeout_seconds,
        detach,
        max_lines,
        force,
        show_command,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let command = checked_command(&command)?;
    let shown = show_command.unwrap_or(gate.state().settings.show_commands);
    let max_lines = args::max_lines("/max_lines", max_lines)?;
    let detach = detach.unwrap_or(false);
    let force = force.unwrap_or(false);
    let default = if detach { Duration::ZERO } else { RUN_DEFAULT_TIMEOUT };
    let mut budget = Budget::new(
        "/timeout_seconds",
        timeout_seconds,
        default,
        gate.state().settings.max_wait,
    )?;
    if detach {
        // Nothing is waited for.
        budget.timeout = Duration::ZERO;
    } else {
        batch_wait(gate, "/timeout_seconds", budget.timeout)?;
    }

    let (cleanup, at) = match check_pane(gate, pane, force).await? {
        Checked::Ready(cleanup, at) => (cleanup, at),
        Checked::NotReady(reason) => return Ok(not_ready(pane, reason, &budget)),
    };
    let (job, seal) = JobId::new(pane)?;
    let wrapper = script::wrapper(&job.random, &seal, pane, &job.exit_option(), command, shown);
    let mut staging = cleanup;
    staging.extend(stage_commands(&job, &wrapper));
    // A client that takes a task (the Tasks extension): the job is one from before it
    // is typed, and the wait is cut short; an unfinished job answers as the task.
    let task_wait = gate.context().task_wait();
    if task_wait.is_some() {
        let record = TaskRecord {
            max_lines,
            timeout_ms: u64::try_from(budget.timeout.as_millis()).unwrap_or(u64::MAX),
            timeout_clamped: budget.clamped,
        };
        staging.push(task::task_record(&job, &record));
    }
    gate.change_all(&staging).await?;
    budget.restart();
    let line = KeyInput::Literal(script::typed_line(&job.buffer(), pane, &job.fetched_option()));
    let typed = job_record(&job, &now_ms().to_string());
    if let Err(error) = gate.deliver_at_recording(pane, force, (&line, true), at, &typed).await {
        if let Err(cleanup_error) = gate.change_all(&forget_commands(pane, &job.random, true)).await {
            tracing::warn!(job = %job, error = %cleanup_error, "a refused job's record could not be removed");
        }
        return Err(error);
    }
    // Everything that changes tmux is done; later calls may start while this one waits.
    gate.context().changes_done();

    let waited = if detach {
        Waited::TimedOut
    } else {
        let mut wait = budget;
        wait.timeout = task_wait.map_or(budget.timeout, |limit| limit.min(budget.timeout));
        wait_for_exit(gate, &job, &wait).await?
    };
    let elapsed = budget.elapsed();
    let report = match waited {
        Waited::Finished(exit) => {
            let report = finished(gate, &job, &exit, max_lines).await?;
            // Collected: the reply carries everything the job had.
            gate.change_all(&forget_commands(pane, &job.random, false)).await?;
            report
        }
        Waited::Cancelled => {
            tracing::info!(job = %job, "run_command cancelled while waiting; the command goes on as a job");
            return Err(ToolError::new(
                ToolErrorKind::Cancelled,
                format!("cancelled while waiting; the command goes on as job {job} (read it with get_job)"),
            ));
        }
        Waited::TimedOut => unfinished(gate, &job, max_lines).await?.0,
    };
    Ok(RunCommandOutput {
        pane_id: pane.to_string(),
        state: match report.state {
            State::Pending => RunCommandOutputState::Pending,
            State::Running => RunCommandOutputState::Running,
            State::Finished => RunCommandOutputState::Finished,
        },
        not_ready_reason: None,
        exit_status: report.exit_status,
        job_id: (report.state != State::Finished).then(|| job.to_string()),
        truncated: report.truncated_lines > 0,
        truncated_lines: report.truncated_lines,
        truncated_bytes: report.truncated_bytes,
        output: report.lines,
        lines_missed: report.lines_missed,
        elapsed_seconds: Budget::seconds(elapsed),
        timeout_seconds: Budget::seconds(budget.timeout),
        timeout_clamped: budget.clamped,
    })
}

/// The reply for a pane whose shell is still starting: nothing was typed.
fn not_ready(pane: PaneId, reason: String, budget: &Budget) -> RunCommandOutput {
    RunCommandOutput {
        pane_id: pane.to_string(),
        state: RunCommandOutputState::NotReady,
        not_ready_reason: Some(reason),
        exit_status: None,
        job_id: None,
        truncated: false,
        truncated_lines: 0,
        truncated_bytes: 0,
        output: Vec::new(),
        lines_missed: false,
        elapsed_seconds: Budget::seconds(budget.elapsed()),
        timeout_seconds: Budget::seconds(budget.timeout),
        timeout_clamped: budget.clamped,
    }
}

/// `get_job`: see the tool's description in `schemas/tools/get_job.json`.
///
/// # Errors
/// A malformed id; an id its pane holds no job for, or whose pane is gone; a job that
/// never ran; tmux failing.
pub async fn get_job(gate: &ReadGate<'_>, input: GetJobInput) -> Result<GetJobOutput, ToolError> {
    let GetJobInput {
        job_id,
        timeout_seconds,
        max_lines,
    } = input;
    let job = JobId::parse("/job_id", &job_id)?;
    let max_lines = args::max_lines("/max_lines", max_lines)?;
    let budget = Budget::new(
        "/timeout_seconds",
        timeout_seconds,
        Duration::ZERO,
        gate.state().settings.max_wait,
    )?;
    batch_wait(gate, "/timeout_seconds", budget.timeout)?;

    let (recorded, standing) = read_job(gate, &job).await?.ok_or_else(|| job.unknown())?;
    let started_ms = recorded.started_ms.unwrap_or_default();
    let exit = match standing {
        Standing::Finished(exit) => Some(exit),
        Standing::Lost => return Err(lost(&job)),
        Standing::Pending | Standing::Running if budget.timeout.is_zero() => None,
        Standing::Pending | Standing::Running => match wait_for_exit(gate, &job, &budget).await? {
            Waited::Finished(exit) => Some(exit),
            Waited::TimedOut => None,
            Waited::Cancelled => return Err(ToolError::cancelled()),
        },
    };
    // A job seen running may have finished by the look that reads its output.
    let (mut report, exit) = match exit {
        Some(exit) => (finished(gate, &job, &exit, max_lines).await?, Some(exit)),
        None => unfinished(gate, &job, max_lines).await?,
    };
    report.elapsed = match exit {
        // The end is a whole second of tmux's clock, so the start is taken to the
        // second too: the same answer on every read.
        Some(exit) => {
            let finished_s = exit.at.unwrap_or_else(|| now_ms() / 1000);
            Duration::from_secs(finished_s.saturating_sub(started_ms / 1000))
        }
        None => Duration::from_millis(now_ms().saturating_sub(started_ms)),
    };
    Ok(GetJobOutput {
        job_id: job.to_string(),
        pane_id: job.pane.to_string(),
        state: match report.state {
            State::Pending => GetJobOutputState::Pending,
            State::Running => GetJobOutputState::Running,
            State::Finished => GetJobOutputState::Finished,
        },
        exit_status: report.exit_status,
        truncated: report.truncated_lines > 0,
        truncated_lines: report.truncated_lines,
        truncated_bytes: report.truncated_bytes,
        output: report.lines,
        lines_missed: report.lines_missed,
        elapsed_seconds: Budget::seconds(report.elapsed),
        timeout_seconds: Budget::seconds(budget.timeout),
        timeout_clamped: budget.clamped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_says_staged_before_anything_is_staged() {
        let (job, _) = JobId::new(PaneId(3)).unwrap();
        let commands = stage_commands(&job, &"x".repeat(SET_BUFFER_SLICE_BYTES + 1));
        let summaries: Vec<String> = commands.iter().map(ChangeCommand::summary).collect();
        assert_eq!(
            summaries[0],
            format!("set-option -p -t %3 {} staged", job.started_option())
        );
        assert_eq!(summaries.len(), 3, "{summaries:?}");
        assert!(
            summaries[1..].iter().all(|s| s.starts_with("set-buffer")),
            "{summaries:?}"
        );
    }
}
