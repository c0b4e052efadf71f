//! A `run_command` job as a task of MCP's Tasks extension: what `tasks/get` reports and
//! what `tasks/cancel` does, read from and written to the job's record in its pane's
//! options (`record`), never paneward's memory. So a task survives a paneward restart
//! and reads the same from a second paneward on the same tmux server; its id is the
//! job's (`%P:X`, 128 bits no one can guess), and it lasts as the job does: until the
//! next `run_command` in its pane collects it, or the pane goes.
//!
//! A job is a task when its `@paneward_task_X` option holds what its reply needs beyond
//! the job (`TaskRecord`); `run_command` sets it in the tmux step that stages the job,
//! before anything is typed, so the task exists before the reply that names it.
//!
//! Cancelling interrupts the command as a person would: Ctrl-C typed into its pane
//! through the input check (the wrapper survives it and reports 130), with
//! `@paneward_cancel_X` set in the same tmux step, so the record says it was typed
//! exactly when it was. A job still waiting for its shell to read it loses its wrapper
//! instead and never runs. A job that had ended is left as it is.

use std::time::Duration;

use crate::generated::types::{RunCommandOutput, RunCommandOutputState};
use crate::guard::key_input::KeyInput;
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb, ReadGate};
use crate::runtime::clock::now_ms;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tools::budget::Budget;

use super::record::{Exit, Recorded, TaskRecord};
use super::wait::finished;
use super::{read_job, JobId, Standing};

/// Where a task stands, as `tasks/get` reports it.
#[derive(Debug)]
pub enum TaskState {
    /// The command has not ended; `note` says what paneward did meanwhile.
    Working { note: Option<String> },
    /// The command ended on its own: `run_command`'s reply, as it would have given it
    /// had it waited, and a summary.
    Completed { reply: Box<RunCommandOutput>, note: String },
    /// `tasks/cancel` ended it, or removed it before it ran; what happened.
    Cancelled { note: String },
}

/// A task as `tasks/get` reports it.
#[derive(Debug)]
pub struct TaskView {
    /// When the job was typed (Unix milliseconds, paneward's clock).
    pub created_ms: u64,
    /// Its last change: typed, interrupted or ended.
    pub updated_ms: u64,
    pub state: TaskState,
}

/// What `tasks/cancel` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cancellation {
    /// Ctrl-C was typed into the job's pane; the task ends when the command does.
    Interrupted,
    /// The job's shell had not read it yet: its wrapper was removed and it never runs.
    Withdrawn,
    /// The command had already ended with this status: nothing was done.
    AlreadyEnded(i64),
    /// An earlier `tasks/cancel` already acted: nothing is typed twice.
    AlreadyCancelled,
}

/// The option that makes `job` a task, to stage with it.
pub fn task_record(job: &JobId, record: &TaskRecord) -> ChangeCommand {
    set_pane_option(job, job.task_option(), record.value())
}

fn set_pane_option(job: &JobId, name: String, value: String) -> ChangeCommand {
    ChangeCommand::new(ChangeVerb::SetOption)
        .arg("-p")
        .arg("-t")
        .arg(job.pane.to_string())
        .arg(name)
        .arg(value)
}

/// Job `job` as a task: its record, with the task part, and where it stands.
///
/// # Errors
/// [`ToolErrorKind::NotFound`] for an id no pane holds as a task (never issued, or the
/// job was collected, or its pane is gone); tmux failing.
async fn read_task(gate: &ReadGate<'_>, job: &JobId) -> Result<(Recorded, TaskRecord, Standing), ToolError> {
    let (recorded, standing) = read_job(gate, job).await?.ok_or_else(|| job.unknown())?;
    let task = recorded.task.ok_or_else(|| {
        ToolError::new(
            ToolErrorKind::NotFound,
            format!("job {job} is no task: it was started by a run_command whose client took no task"),
        )
    })?;
    Ok((recorded, task, standing))
}

/// Task `job` as `tasks/get` reports it.
///
/// # Errors
/// As `read_task`; a job that never ran and was not cancelled (its wrapper was
/// removed by someone else) is not found either; tmux failing.
pub async fn view(gate: &ReadGate<'_>, job: &JobId) -> Result<TaskView, ToolError> {
    let (recorded, task, standing) = read_task(gate, job).await?;
    let created_ms = recorded.started_ms.unwrap_or_default();
    let interrupted = recorded.cancelled_ms;
    let (updated_ms, state) = match standing {
        Standing::Pending | Standing::Running => (
            interrupted.unwrap_or(created_ms),
            TaskState::Working {
                note: interrupted.map(|_| {
                    format!(
                        "tasks/cancel typed Ctrl-C into pane {}; waiting for the command to end",
                        job.pane
                    )
                }),
            },
        ),
        Standing::Lost => match interrupted {
            Some(at) => (
                at,
                TaskState::Cancelled {
                    note: format!(
                        "tasks/cancel removed job {job} before the shell of pane {} read it: nothing of it ran",
                        job.pane
                    ),
                },
            ),
            None => return Err(super::lost(job)),
        },
        Standing::Finished(exit) => {
            let ended_ms = exit.at.map_or(created_ms, |seconds| seconds.saturating_mul(1000));
            let state = match interrupted {
                Some(_) => TaskState::Cancelled {
                    note: format!(
                        "tasks/cancel typed Ctrl-C into pane {}; the command ended with exit status {}. Its output \
                         stays readable with get_job {job} until the next run_command in the pane",
                        job.pane, exit.status
                    ),
                },
                None => completed(gate, job, &exit, &task, created_ms).await?,
            };
            (ended_ms.max(created_ms), state)
        }
    };
    Ok(TaskView {
        created_ms,
        updated_ms,
        state,
    })
}

/// The reply `run_command` gives for job `job`, which ended with `exit`, had it waited.
async fn completed(
    gate: &ReadGate<'_>,
    job: &JobId,
    exit: &Exit,
    task: &TaskRecord,
    created_ms: u64,
) -> Result<TaskState, ToolError> {
    let report = finished(gate, job, exit, task.max_lines).await?;
    // The end is a whole second of tmux's clock, so the start is taken to the second
    // too, as get_job does: the same answer on every read.
    let finished_s = exit.at.unwrap_or_else(|| now_ms() / 1000);
    let elapsed = Duration::from_secs(finished_s.saturating_sub(created_ms / 1000));
    let note = format!("the command ended with exit status {}", exit.status);
    let reply = RunCommandOutput {
        pane_id: job.pane.to_string(),
        state: RunCommandOutputState::Finished,
        not_ready_reason: None,
        exit_status: report.exit_status,
        job_id: None,
        truncated: report.truncated_lines > 0,
        truncated_lines: report.truncated_lines,
        truncated_bytes: report.truncated_bytes,
        output: report.lines,
        lines_missed: report.lines_missed,
        elapsed_seconds: Budget::seconds(elapsed),
        timeout_seconds: Budget::seconds(Duration::from_millis(task.timeout_ms)),
        timeout_clamped: task.timeout_clamped,
    };
    Ok(TaskState::Completed {
        reply: Box::new(reply),
        note,
    })
}

/// `tasks/cancel` of task `job`: see the module documentation.
///
/// # Errors
/// As `read_task`; the input check refusing the Ctrl-C (the message names the pane
/// and the rule; nothing was typed); tmux failing.
pub async fn cancel(gate: &ChangeGate<'_>, job: &JobId) -> Result<Cancellation, ToolError> {
    let (recorded, _, standing) = read_task(gate, job).await?;
    if recorded.cancelled_ms.is_some() {
        return Ok(Cancellation::AlreadyCancelled);
    }
    let mark = set_pane_option(job, job.cancel_option(), now_ms().to_string());
    match standing {
        Standing::Finished(exit) => Ok(Cancellation::AlreadyEnded(exit.status)),
        Standing::Lost => {
            gate.change_all(&[mark]).await?;
            Ok(Cancellation::Withdrawn)
        }
        Standing::Pending => {
            let withdraw = ChangeCommand::new(ChangeVerb::DeleteBuffer).arg("-b").arg(job.buffer());
            gate.change_all(&[withdraw, mark]).await?;
            // The shell may have read the wrapper just before it went: then it runs,
            // and is interrupted as a running one.
            match read_job(gate, job).await? {
                Some((_, Standing::Running)) => {
                    interrupt(gate, job, None).await?;
                    Ok(Cancellation::Interrupted)
                }
                _ => Ok(Cancellation::Withdrawn),
            }
        }
        Standing::Running => {
            interrupt(gate, job, Some(&mark)).await?;
            Ok(Cancellation::Interrupted)
        }
    }
}

/// Types Ctrl-C into the job's pane through the input check, with `mark` in the same
/// tmux step.
async fn interrupt(gate: &ChangeGate<'_>, job: &JobId, mark: Option<&ChangeCommand>) -> Result<(), ToolError> {
    let keys = KeyInput::Names(vec!["C-c".to_string()]);
    gate.deliver_recording(job.pane, (&keys, false), mark).await?;
    tracing::info!(job = %job, "tasks/cancel: Ctrl-C typed into the job's pane");
    Ok(())
}
