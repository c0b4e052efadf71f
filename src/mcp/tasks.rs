//! MCP's Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on paneward's jobs.
//!
//! A 2026-07-28 request whose client declares the extension (in its `_meta`
//! capabilities) may get a `run_command` answered as a task: the command is typed as always, waited for at most
//! [`RUN_TASK_DIRECT_WAIT`], and, unfinished, its job is the task (`resultType: "task"`,
//! the job id as `taskId`). `tasks/get` reads the job from tmux (`tools::run::task`):
//! `working`, then `completed` with the very reply `run_command` gives, or `cancelled`
//! after `tasks/cancel`, which types Ctrl-C into the job's pane and says so in
//! `statusMessage`. Nothing is kept in this process: a restarted paneward, or a second
//! one on the same tmux server, answers the same. Clients without the extension, and
//! handshake-era requests (see [`task_wait`]), see `run_command` as before; rmcp refuses
//! `tasks/*` from a client that did not declare the extension (-32021), in `_meta` or,
//! for a handshake session, in `initialize`.
//!
//! Only `run_command` becomes a task: its work is a job in tmux. The waits and
//! `load_workspace` live in this process, so a task of theirs could not survive it;
//! they answer as before (docs/mcp-quirks.md). No task asks the client for input, so
//! `tasks/update` only acknowledges, and no `notifications/tasks` is sent: rmcp 3.11's
//! `subscriptions/listen` filter has no `taskIds` (the extension makes both optional).

use crate::limits::{RUN_TASK_DIRECT_WAIT, TASK_POLL_INTERVAL};
use rmcp::model::{
    CallToolResult, CancelTaskParams, CreateTaskResult, DetailedTask, ErrorData, GetTaskParams, GetTaskResult,
    JsonObject, Task, TaskPayload, TaskStatus, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::Value;

use crate::app::App;
use crate::guard::{ChangeGate, ReadGate};
use crate::runtime::clock::rfc3339_from_ms;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::runtime::{CallContext, Tier};
use crate::tools::run::task::{self, Cancellation, TaskState, TaskView};
use crate::tools::run::JobId;

/// The one tool whose call may become a task.
const TASK_TOOL: &str = "run_command";

/// Whether this server offers tasks: it is paneward's own contract (the default
/// profile), whose `run_command` makes them. At every tier: a readonly paneward
/// creates none, but reads those another made on the same tmux server.
pub fn offered(app: &App) -> bool {
    app.config.profile == crate::catalog::profile::Profile::Default
}

/// How long a call of `tool` waits before it answers as a task, when this request
/// speaks 2026-07-28, its client declared the extension and the tool can become one;
/// `None` otherwise.
///
/// Only 2026-07-28 requests: the extension's unsolicited `resultType: "task"` is
/// defined on that revision. 2025-11-25 has tasks of its own with another wire (a
/// request asks for one in `params.task`), and a handshake client may declare the
/// extension without taking a task answer (the MCP Inspector 2.12 does, and then fails
/// the call), so a handshake request gets `run_command` as before; it may still read a
/// task by id.
pub fn task_wait(app: &App, context: &RequestContext<RoleServer>, tool: &str) -> Option<std::time::Duration> {
    let current = context
        .protocol_version()
        .is_some_and(|version| version >= rmcp::model::ProtocolVersion::V_2026_07_28);
    let declared = current
        && context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks());
    let served = app
        .catalog
        .listed(app.config.safety)
        .any(|entry| entry.tool.name == TASK_TOOL);
    (declared && tool == TASK_TOOL && served && offered(app)).then_some(RUN_TASK_DIRECT_WAIT)
}

/// The task a `run_command` reply stands for: a job it left unfinished (`jobId`) while
/// its client takes tasks. `None`: the reply is the answer.
///
/// # Errors
/// The task's record not readable back (the job went at once, or tmux failed).
pub async fn created(app: &App, reply: &CallToolResult) -> Result<Option<CreateTaskResult>, ErrorData> {
    if reply.is_error == Some(true) {
        return Ok(None);
    }
    let Some(job_id) = reply
        .structured_content
        .as_ref()
        .and_then(|structured| structured.get("jobId"))
        .and_then(Value::as_str)
    else {
        return Ok(None);
    };
    let job = JobId::parse("/jobId", job_id).map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
    // Read back from tmux: the task exists before its id is told (the extension's MUST).
    let view = read(app, &job).await?;
    Ok(Some(CreateTaskResult::new(task_of(&job, &view))))
}

/// `tasks/get`; `current` says the request speaks 2026-07-28, whose tool results carry
/// `resultType` (the inlined result has the shape the call's own reply would have).
///
/// # Errors
/// -32602 for an id that names no task (malformed, collected, its pane gone); -32603
/// when tmux cannot answer.
pub async fn get(app: &App, params: &GetTaskParams, current: bool) -> Result<GetTaskResult, ErrorData> {
    let job = task_id(&params.task_id)?;
    let view = read(app, &job).await?;
    let task = task_of(&job, &view);
    let payload = match view.state {
        TaskState::Working { .. } => TaskPayload::Working,
        TaskState::Cancelled { .. } => TaskPayload::Cancelled,
        TaskState::Completed { reply, .. } => {
            let structured = serde_json::to_value(*reply)
                .map_err(|e| ErrorData::internal_error(format!("cannot encode the task's result: {e}"), None))?;
            let result = crate::call::reply_text(app).tool_success(TASK_TOOL, structured);
            TaskPayload::Completed {
                result: as_object(&result, current)?,
            }
        }
    };
    Ok(GetTaskResult::new(DetailedTask::new(task, payload)))
}

/// `tasks/update`: no task of paneward's asks for input, so there is never an
/// outstanding key; responses are ignored, as the extension says of keys not
/// outstanding, once the id is known to name a task.
///
/// # Errors
/// As [`get`].
pub async fn update(app: &App, params: &UpdateTaskParams) -> Result<(), ErrorData> {
    let job = task_id(&params.task_id)?;
    read(app, &job).await.map(|_| ())
}

/// `tasks/cancel`: see `tools::run::task`. The acknowledgment is empty; what was done
/// is the task's `statusMessage` from then on (and paneward's log now).
///
/// # Errors
/// As [`get`]; -32600 from a readonly server (it types nothing) or when the input
/// check refuses the Ctrl-C, with the reason.
pub async fn cancel(app: &App, params: &CancelTaskParams) -> Result<(), ErrorData> {
    let job = task_id(&params.task_id)?;
    if app.config.safety < Tier::Mutating {
        return Err(ErrorData::invalid_request(
            format!(
                "Failed to cancel task {job}: this paneward runs at safety tier readonly and types nothing; cancel it \
                 from one that may type (the task reads the same there)"
            ),
            None,
        ));
    }
    let context = CallContext::default();
    let gate = ChangeGate::new(&app.guard, &context);
    match task::cancel(&gate, &job).await {
        Ok(done) => {
            let said = match done {
                Cancellation::Interrupted => "Ctrl-C typed into its pane".to_string(),
                Cancellation::Withdrawn => "removed before its shell read it; nothing of it ran".to_string(),
                Cancellation::AlreadyEnded(status) => format!("it had already ended with exit status {status}"),
                Cancellation::AlreadyCancelled => "already cancelled; nothing typed again".to_string(),
            };
            tracing::info!(target: crate::CLIENT_LOG_TARGET, task = %job, done = %said, "tasks/cancel");
            Ok(())
        }
        Err(error) if error.kind() == ToolErrorKind::NotFound => Err(not_found(&error)),
        Err(error) if error.kind() == ToolErrorKind::Blocked => Err(ErrorData::invalid_request(
            format!("Failed to cancel task {job}: {}", error.message()),
            None,
        )),
        Err(error) => Err(ErrorData::internal_error(error.message().to_string(), None)),
    }
}

/// Task `job` from tmux.
async fn read(app: &App, job: &JobId) -> Result<TaskView, ErrorData> {
    let context = CallContext::default();
    let gate = ReadGate::new(&app.guard, &context);
    task::view(&gate, job).await.map_err(|error| match error.kind() {
        ToolErrorKind::NotFound => not_found(&error),
        _ => ErrorData::internal_error(error.message().to_string(), None),
    })
}

/// A task id, which is the id of its job.
fn task_id(text: &str) -> Result<JobId, ErrorData> {
    JobId::parse("/params/taskId", text).map_err(|_| {
        ErrorData::invalid_params(
            format!(
                "Failed to retrieve task: task not found ({} is no task id paneward issued)",
                crate::runtime::error::echo(text)
            ),
            None,
        )
    })
}

fn not_found(error: &ToolError) -> ErrorData {
    ErrorData::invalid_params(format!("Failed to retrieve task: {}", error.message()), None)
}

/// The task fields of `view` (the payload is the caller's).
fn task_of(job: &JobId, view: &TaskView) -> Task {
    let status = match view.state {
        TaskState::Working { .. } => TaskStatus::Working,
        TaskState::Completed { .. } => TaskStatus::Completed,
        TaskState::Cancelled { .. } => TaskStatus::Cancelled,
    };
    let note = match &view.state {
        TaskState::Working { note } => note.clone(),
        TaskState::Completed { note, .. } | TaskState::Cancelled { note } => Some(note.clone()),
    };
    let mut task = Task::new(
        job.to_string(),
        status,
        rfc3339_from_ms(view.created_ms),
        rfc3339_from_ms(view.updated_ms),
    )
    .with_poll_interval_ms(u64::try_from(TASK_POLL_INTERVAL.as_millis()).unwrap_or(u64::MAX));
    // No expiry of its own: a task lasts as its job does (until the next run_command
    // in its pane, or the pane's end), which `ttlMs: null` says.
    task.ttl_ms = None;
    task.status_message = note;
    task
}

/// `result` as the call's own reply would carry it: with `resultType: "complete"` for
/// 2026-07-28 (the official Tasks client checks it), without for older revisions (as
/// rmcp strips it from their replies).
fn as_object(result: &CallToolResult, current: bool) -> Result<JsonObject, ErrorData> {
    match serde_json::to_value(result) {
        Ok(Value::Object(mut object)) => {
            if current {
                object.insert("resultType".into(), Value::from("complete"));
            } else {
                object.remove("resultType");
            }
            Ok(object)
        }
        Ok(_) | Err(_) => Err(ErrorData::internal_error("cannot encode the task's result", None)),
    }
}
