//! `run_command` and `get_job`: a command typed into a shell, waited for, and its own
//! output and exit status read back; and the jobs it leaves when it does not finish in
//! time.
//!
//! How a command travels and is marked: [`script`]. Where a job lives: [`record`] (pane
//! user options and, until the shell fetches it, a buffer; never files, never
//! paneward's memory). How its output is found: [`rows`].
//!
//! Waiting is polling: the exit-status option is read over paneward's own connection,
//! first after [`RUN_POLL_FIRST`], then a quarter later each time up to
//! [`RUN_POLL_MAX`]. No `wait-for` channel and no helper process is involved, so a wait
//! that ends (finished, timed out, cancelled) leaves no pending signal or child behind,
//! and a restarted paneward reads a job exactly as the one that typed it would.
//!
//! Collection: a job `run_command` sees finish is collected at once (its options are
//! removed before the reply). A job that outlives its `run_command` stays recorded, so
//! `get_job` (which changes nothing) answers the same on every read, until the next
//! `run_command` in its pane removes it; the next one cannot start before it finished
//! (unless `force`), and the pane's death removes it too.

pub mod pipe;
mod record;
mod rows;
mod script;

use std::time::{Duration, Instant};

use crate::generated::types::{
    GetJobInput, GetJobOutput, GetJobOutputState, RunCommandInput, RunCommandOutput, RunCommandOutputState,
};
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb, ReadGate};
use crate::limits::{
    RUN_BATCH_MAX_WAIT, RUN_COMMAND_MAX_CHARS, RUN_DEFAULT_TIMEOUT, RUN_END_MARKER_GRACE, RUN_POLL_FIRST, RUN_POLL_MAX,
    RUN_PROGRESS_INTERVAL, SET_BUFFER_SLICE_BYTES,
};
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::{parse_one, record_format};
use crate::tmux::{PaneId, ReadCommand, ReadVerb, TmuxError};
use crate::tools::args;
use crate::tools::input::keys::KeyInput;
use crate::tools::observe::text::keep_newest;
use record::{is_posix_shell, now_ms, recorded_jobs, shown_program, JobId, Recorded};

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Typed; the shell has not fetched the wrapper yet.
    Pending,
    Running,
    Finished,
}

/// What a reply says about a job.
struct Report {
    state: State,
    exit_status: Option<i64>,
    lines: Vec<String>,
    lines_missed: bool,
    truncated_lines: i64,
    truncated_bytes: i64,
    elapsed: Duration,
}

/// A timeout asked for, clamped to `--max-wait`.
struct Timeout {
    effective: Duration,
    clamped: bool,
}

/// Reads `timeout_seconds` (`field`), with `default`, clamped to `ceiling`.
///
/// # Errors
/// A negative or non-finite number.
fn timeout(field: &str, requested: Option<f64>, default: Duration, ceiling: Duration) -> Result<Timeout, ToolError> {
    let asked = match requested {
        None => default,
        Some(seconds) if seconds.is_finite() && seconds >= 0.0 => {
            Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
        }
        Some(_) => {
            return Err(ToolError::invalid_argument(
                field,
                "must be a number of seconds, 0 or more",
            ))
        }
    };
    Ok(Timeout {
        effective: asked.min(ceiling),
        clamped: asked > ceiling,
    })
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

/// The pane facts `run_command` checks before typing.
const PANE_FIELDS: [&str; 3] = ["pane_id", "pane_current_command", "synchronize-panes"];

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
    let mut commands = vec![unset(job.started_option()), unset(job.exit_option())];
    if with_buffer {
        commands.push(ChangeCommand::new(ChangeVerb::DeleteBuffer).arg("-b").arg(job.buffer()));
    }
    commands
}

/// Reads pane options and checks the pane before anything is typed; returns the jobs
/// of earlier calls to remove (finished, or pending with a shell in front, which
/// therefore never fetched them; with `force`, any).
///
/// # Errors
/// A missing pane, a program that is not a POSIX-like shell, synchronize-panes, or a
/// job still running there (without `force`).
async fn check_pane(gate: &ChangeGate<'_>, pane: PaneId, force: bool) -> Result<Vec<ChangeCommand>, ToolError> {
    let describe = ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-t")
        .arg(pane.to_string())
        .arg(record_format(&PANE_FIELDS));
    // The tail of an earlier wrapper (its status report is a `tmux` process) may still
    // be in the foreground for a moment after its status shows; a tmux client that
    // stays there is refused like any other program.
    let deadline = Instant::now() + RUN_END_MARKER_GRACE;
    let (options, described, buffers) = loop {
        let [options, described, buffers] = gate
            .run_each([show_pane_options(pane), describe.clone(), pending_buffers()])
            .await?;
        let described = String::from_utf8_lossy(&described).into_owned();
        let wrapper_tail = parse_one("display-message", &PANE_FIELDS, &described)
            .and_then(|record| record.text("pane_current_command").map(|program| program == "tmux"))
            .unwrap_or(false);
        if !wrapper_tail || Instant::now() >= deadline {
            break (options, described, buffers);
        }
        tokio::time::sleep(RUN_POLL_FIRST).await;
    };
    let record = parse_one("display-message", &PANE_FIELDS, &described)?;
    let program = record.text("pane_current_command")?;
    if !is_posix_shell(program) {
        return Err(ToolError::blocked(format!(
            "pane {pane} runs {} in the foreground, not a POSIX-like shell (sh, bash, dash, zsh, ksh, mksh, ash, \
             busybox); run_command types shell syntax, so nothing was typed (use send_keys for other programs)",
            shown_program(program)
        )));
    }
    if record.flag("synchronize-panes")? {
        return Err(ToolError::blocked(format!(
            "pane {pane} has synchronize-panes on, so the command would also run in other panes; nothing was typed"
        )));
    }
    let mut cleanup = Vec::new();
    for job in recorded_jobs(&String::from_utf8_lossy(&options)) {
        let id = JobId {
            pane,
            random: job.random.clone(),
        };
        let pending = is_listed(&buffers, &id.buffer());
        if job.exit.is_none() && !pending && !force {
            let since = job
                .started_ms
                .map(|started| format!(" (typed {} s ago)", now_ms().saturating_sub(started) / 1000))
                .unwrap_or_default();
            return Err(ToolError::blocked(format!(
                "pane {pane} is still running job {id}{since}; read it with get_job, interrupt it with send_keys \
                 C-c, or pass force: true to abandon its record; nothing was typed"
            )));
        }
        cleanup.extend(forget_commands(pane, &job.random, pending));
    }
    Ok(cleanup)
}

/// The staging commands: the wrapper into the job's buffer (in slices), and the start
/// time into the pane.
fn stage_commands(job: &JobId, wrapper: &str, started_ms: u64) -> Vec<ChangeCommand> {
    let mut commands = Vec::new();
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
    commands.push(
        ChangeCommand::new(ChangeVerb::SetOption)
            .arg("-p")
            .arg("-t")
            .arg(job.pane.to_string())
            .arg(job.started_option())
            .arg(started_ms.to_string()),
    );
    commands
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

/// Reads job `job`'s exit option: `Some` once finished; `None` while running.
///
/// # Errors
/// A missing pane, or tmux failing.
async fn read_exit(gate: &ReadGate<'_>, job: &JobId) -> Result<Option<(i64, Option<u64>)>, ToolError> {
    // All the pane's options: unlike one option read with -q, this fails for a pane
    // that is gone.
    let output = gate
        .run(show_pane_options(job.pane))
        .await
        .map_err(|error| pane_gone(job, error))?;
    let jobs = recorded_jobs(&String::from_utf8_lossy(&output));
    Ok(jobs
        .into_iter()
        .find(|recorded| recorded.random == job.random)
        .and_then(|recorded| recorded.exit))
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

/// How a wait ended.
enum Waited {
    Finished(i64),
    TimedOut,
    Cancelled,
}

/// Polls job `job` until it finishes, `limit` passes since `since`, or the client
/// cancels; sends progress meanwhile when the client asked for it.
///
/// # Errors
/// A missing pane, or tmux failing.
async fn wait_for_exit(gate: &ReadGate<'_>, job: &JobId, since: Instant, limit: Duration) -> Result<Waited, ToolError> {
    let context = gate.context();
    let mut pause = RUN_POLL_FIRST;
    let mut next_progress = since + RUN_PROGRESS_INTERVAL;
    loop {
        if let Some((status, _)) = read_exit(gate, job).await? {
            return Ok(Waited::Finished(status));
        }
        let elapsed = since.elapsed();
        if elapsed >= limit {
            return Ok(Waited::TimedOut);
        }
        if context.wants_progress() && Instant::now() >= next_progress {
            next_progress = Instant::now() + RUN_PROGRESS_INTERVAL;
            let message = format!(
                "{:.1} s of {:.1} s, pane {}",
                elapsed.as_secs_f64(),
                limit.as_secs_f64(),
                job.pane
            );
            context
                .progress(elapsed.as_secs_f64(), Some(limit.as_secs_f64()), Some(message))
                .await;
        }
        let sleep = pause.min(limit - elapsed);
        tokio::select! {
            () = tokio::time::sleep(sleep) => {}
            () = context.cancelled() => return Ok(Waited::Cancelled),
        }
        pause = (pause + pause / 4).min(RUN_POLL_MAX);
    }
}

/// Reads a job's output (for a finished one, waiting up to [`RUN_END_MARKER_GRACE`] for
/// tmux to show the end marker) and bounds it.
///
/// # Errors
/// A missing pane, or tmux failing.
async fn output(gate: &ReadGate<'_>, job: &JobId, finished: bool, max_lines: usize) -> Result<Report, ToolError> {
    let markers = (script::start_marker(&job.random), script::end_marker(&job.random));
    let wanted = u64::try_from(max_lines).unwrap_or(u64::MAX).saturating_add(64);
    let deadline = Instant::now() + RUN_END_MARKER_GRACE;
    let located = loop {
        let located = rows::read_output(gate, job.pane, (&markers.0, &markers.1), wanted)
            .await
            .map_err(|error| match error.kind() {
                ToolErrorKind::NotFound => ToolError::new(
                    ToolErrorKind::NotFound,
                    format!("pane {} of job {job} no longer exists", job.pane),
                ),
                _ => error,
            })?;
        if located.ended || !finished || Instant::now() >= deadline {
            break located;
        }
        tokio::time::sleep(RUN_POLL_FIRST).await;
    };
    let bounded = keep_newest(located.lines, max_lines);
    Ok(Report {
        state: if finished { State::Finished } else { State::Running },
        exit_status: None,
        truncated_lines: bounded.truncated_lines,
        truncated_bytes: bounded.truncated_bytes,
        lines: bounded.lines,
        lines_missed: located.lines_missed,
        elapsed: Duration::ZERO,
    })
}

/// The report on a job that has not finished: pending (no output yet), or running with
/// the output so far.
///
/// # Errors
/// A missing pane, or tmux failing.
async fn unfinished(gate: &ReadGate<'_>, job: &JobId, max_lines: usize) -> Result<Report, ToolError> {
    if is_pending(gate, job).await? {
        return Ok(Report {
            state: State::Pending,
            exit_status: None,
            lines: Vec::new(),
            lines_missed: false,
            truncated_lines: 0,
            truncated_bytes: 0,
            elapsed: Duration::ZERO,
        });
    }
    output(gate, job, false, max_lines).await
}

/// Whether job `job` still waits in its buffer for the shell to fetch it.
///
/// # Errors
/// tmux failing.
async fn is_pending(gate: &ReadGate<'_>, job: &JobId) -> Result<bool, ToolError> {
    let listing = gate.run(pending_buffers()).await?;
    Ok(is_listed(&listing, &job.buffer()))
}

fn seconds(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1000.0).round() / 1000.0
}

/// `run_command`: see the tool's description in `schemas/tools/run_command.json`.
///
/// # Errors
/// Bad arguments; a refusal (not a shell, synchronize-panes, a job still running, the
/// checks of `send_keys`), with nothing typed; a missing pane; tmux failing.
pub async fn run_command(gate: &ChangeGate<'_>, input: RunCommandInput) -> Result<RunCommandOutput, ToolError> {
    let RunCommandInput {
        pane_id,
        command,
        timeout_seconds,
        detach,
        max_lines,
        force,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let command = checked_command(&command)?;
    let max_lines = args::max_lines("/max_lines", max_lines)?;
    let detach = detach.unwrap_or(false);
    let force = force.unwrap_or(false);
    let ceiling = gate.state().settings.max_wait;
    let default = if detach { Duration::ZERO } else { RUN_DEFAULT_TIMEOUT };
    let mut limit = timeout("/timeout_seconds", timeout_seconds, default, ceiling)?;
    if detach {
        // Nothing is waited for.
        limit.effective = Duration::ZERO;
    }
    if !detach {
        batch_wait(gate, "/timeout_seconds", limit.effective)?;
    }

    let cleanup = check_pane(gate, pane, force).await?;
    let job = JobId::new(pane);
    let wrapper = script::wrapper(&job.random, pane, &job.exit_option(), command);
    let mut staging = cleanup;
    staging.extend(stage_commands(&job, &wrapper, now_ms()));
    gate.change_all(&staging).await?;
    let since = Instant::now();
    let line = KeyInput::Literal(script::typed_line(&job.buffer()));
    if let Err(error) = gate.deliver(pane, force, &line, true).await {
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
        wait_for_exit(gate, &job, since, limit.effective).await?
    };
    let elapsed = since.elapsed();
    let report = match waited {
        Waited::Finished(status) => {
            let mut report = output(gate, &job, true, max_lines).await?;
            report.exit_status = Some(status);
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
        Waited::TimedOut => unfinished(gate, &job, max_lines).await?,
    };
    Ok(RunCommandOutput {
        pane_id: pane.to_string(),
        state: match report.state {
            State::Pending => RunCommandOutputState::Pending,
            State::Running => RunCommandOutputState::Running,
            State::Finished => RunCommandOutputState::Finished,
        },
        exit_status: report.exit_status,
        job_id: (report.state != State::Finished).then(|| job.to_string()),
        truncated: report.truncated_lines > 0,
        truncated_lines: report.truncated_lines,
        truncated_bytes: report.truncated_bytes,
        output: report.lines,
        lines_missed: report.lines_missed,
        elapsed_seconds: seconds(elapsed),
        timeout_seconds: seconds(limit.effective),
        timeout_clamped: limit.clamped,
    })
}

/// `get_job`: see the tool's description in `schemas/tools/get_job.json`.
///
/// # Errors
/// A malformed id; an id its pane holds no job for, or whose pane is gone; tmux failing.
pub async fn get_job(gate: &ReadGate<'_>, input: GetJobInput) -> Result<GetJobOutput, ToolError> {
    let GetJobInput {
        job_id,
        timeout_seconds,
        max_lines,
    } = input;
    let job = JobId::parse("/job_id", &job_id)?;
    let max_lines = args::max_lines("/max_lines", max_lines)?;
    let limit = timeout(
        "/timeout_seconds",
        timeout_seconds,
        Duration::ZERO,
        gate.state().settings.max_wait,
    )?;
    batch_wait(gate, "/timeout_seconds", limit.effective)?;

    let since = Instant::now();
    let options = gate
        .run(show_pane_options(job.pane))
        .await
        .map_err(|error| pane_gone(&job, error))?;
    let recorded: Recorded = recorded_jobs(&String::from_utf8_lossy(&options))
        .into_iter()
        .find(|recorded| recorded.random == job.random && recorded.started_ms.is_some())
        .ok_or_else(|| job.unknown())?;
    let started_ms = recorded.started_ms.unwrap_or_default();
    let exit = match recorded.exit {
        Some(exit) => Some(exit),
        None if limit.effective.is_zero() => None,
        None => match wait_for_exit(gate, &job, since, limit.effective).await? {
            Waited::Finished(_) => read_exit(gate, &job).await?,
            Waited::TimedOut => None,
            Waited::Cancelled => return Err(ToolError::cancelled()),
        },
    };
    let (mut report, elapsed) = match exit {
        Some((status, finished_at)) => {
            let mut report = output(gate, &job, true, max_lines).await?;
            report.exit_status = Some(status);
            // The end is a whole second of tmux's clock, so the start is taken to the
            // second too: the same answer on every read.
            let finished_s = finished_at.unwrap_or_else(|| now_ms() / 1000);
            (
                report,
                Duration::from_secs(finished_s.saturating_sub(started_ms / 1000)),
            )
        }
        None => (
            unfinished(gate, &job, max_lines).await?,
            Duration::from_millis(now_ms().saturating_sub(started_ms)),
        ),
    };
    report.elapsed = elapsed;
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
        elapsed_seconds: seconds(report.elapsed),
        timeout_seconds: seconds(limit.effective),
        timeout_clamped: limit.clamped,
    })
}
