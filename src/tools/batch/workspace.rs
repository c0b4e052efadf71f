//! `load_workspace` and `freeze_workspace`: a workspace document (`document.rs`) loaded
//! as one write batch, and a session written back as one.
//!
//! Loading expands the document into the rows a caller of `call_mutating_tools_batch`
//! would write (`create_session`, `create_window`, `split_window`, `select_layout`,
//! `run_command` detached), joined by references, and runs them through the same
//! checks: every row is checked before any runs, and each runs as a direct call.

use serde_json::{json, Map, Value};

use crate::generated::types::{
    FreezeWorkspaceInput, FreezeWorkspaceOutput, LoadWorkspaceInput, LoadWorkspaceOutput, LoadWorkspaceOutputPlanItem,
    LoadWorkspaceOutputWindowsItem,
};
use crate::guard::{ChangeGate, ReadGate};
use crate::limits::WORKSPACE_MAX_STEPS;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tools::batch::document::{self, bad, Document, Pane, Run};
use crate::tools::batch::refs::{Reference, References};
use crate::tools::batch::write::{mode, run_batch, Call, Mode};

/// The rows a document expands to, and which rows made what.
struct Plan {
    calls: Vec<Call>,
    /// Where in the document each row comes from, for an error.
    places: Vec<String>,
    /// Per window: the row that made it, and the row that made each pane.
    windows: Vec<(usize, Vec<usize>)>,
    /// The rows that type a pane's `shell_command`.
    typed: Vec<usize>,
}

fn referencing(argument: &str, row: usize, field: &str) -> References {
    let mut references = References::new();
    references.insert(
        argument.to_string(),
        Reference {
            row,
            field: field.to_string(),
        },
    );
    references
}

impl Plan {
    fn push(&mut self, place: String, tool: &str, arguments: Map<String, Value>, references: References) -> usize {
        self.calls.push(Call {
            tool: tool.to_string(),
            arguments,
            references,
        });
        self.places.push(place);
        self.calls.len() - 1
    }
}

/// The arguments a pane's creating row takes: its directory and program.
fn pane_arguments(document: &Document, directory: Option<&String>, pane: &Pane) -> Map<String, Value> {
    let mut arguments = Map::new();
    if let Some(directory) = pane
        .start_directory
        .as_ref()
        .or(directory)
        .or(document.start_directory.as_ref())
    {
        arguments.insert("start_directory".into(), json!(directory));
    }
    match &pane.run {
        Run::Program(argv) => {
            arguments.insert("command".into(), json!(argv));
        }
        Run::Shell(line) => {
            arguments.insert("shell".into(), json!(line));
        }
        Run::Nothing | Run::Typed(_) => {}
    }
    if !document.environment.is_empty() {
        arguments.insert("environment".into(), Value::Object(document.environment.clone()));
    }
    arguments
}

fn plan(document: &Document) -> Plan {
    let mut plan = Plan {
        calls: Vec::new(),
        places: Vec::new(),
        windows: Vec::new(),
        typed: Vec::new(),
    };
    let mut typing = Vec::new();
    for (w, window) in document.windows.iter().enumerate() {
        let directory = window.start_directory.as_ref();
        let mut first = pane_arguments(document, directory, &window.panes[0]);
        let window_row = if w == 0 {
            first.insert("name".into(), json!(document.session_name));
            if let Some(name) = &window.name {
                first.insert("window_name".into(), json!(name));
            }
            plan.push(format!("/windows/{w}"), "create_session", first, References::new())
        } else {
            if let Some(name) = &window.name {
                first.insert("name".into(), json!(name));
            }
            plan.push(
                format!("/windows/{w}"),
                "create_window",
                first,
                referencing("session_id", 0, "sessionId"),
            )
        };
        let mut panes = vec![window_row];
        for (p, pane) in window.panes.iter().enumerate().skip(1) {
            let last = panes[panes.len() - 1];
            let arguments = pane_arguments(document, directory, pane);
            let row = plan.push(
                format!("/windows/{w}/panes/{p}"),
                "split_window",
                arguments,
                referencing("pane_id", last, "paneId"),
            );
            panes.push(row);
            // Each split halves a pane: re-arranging between splits keeps room for the
            // next one, as tmuxp does (a preset: a layout string fits only the final
            // number of panes).
            if p + 1 < window.panes.len() {
                let arguments = json!({"layout": "tiled"}).as_object().cloned().unwrap_or_default();
                plan.push(
                    format!("/windows/{w}/layout"),
                    "select_layout",
                    arguments,
                    referencing("window_id", window_row, "windowId"),
                );
            }
        }
        if let Some(layout) = &window.layout {
            let arguments = json!({"layout": layout}).as_object().cloned().unwrap_or_default();
            plan.push(
                format!("/windows/{w}/layout"),
                "select_layout",
                arguments,
                referencing("window_id", window_row, "windowId"),
            );
        }
        for (p, pane) in window.panes.iter().enumerate() {
            if let Run::Typed(line) = &pane.run {
                typing.push((format!("/windows/{w}/panes/{p}"), panes[p], line.clone()));
            }
        }
        plan.windows.push((window_row, panes));
    }
    // Typed last, so every shell has had the whole build to start.
    for (place, pane_row, line) in typing {
        let arguments = json!({"command": line, "detach": true})
            .as_object()
            .cloned()
            .unwrap_or_default();
        let row = plan.push(
            place,
            "run_command",
            arguments,
            referencing("pane_id", pane_row, "paneId"),
        );
        plan.typed.push(row);
    }
    plan
}

fn id_in(result: &Value, field: &str) -> String {
    result
        .get(field)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// `load_workspace`: see `schemas/tools/load_workspace.json`.
///
/// # Errors
/// A document that breaks a rule, or a step a tool refuses before anything runs (nothing
/// was created); a step that fails while running (the error says what was created).
pub async fn load_workspace(
    gate: &ChangeGate<'_>,
    input: LoadWorkspaceInput,
) -> Result<LoadWorkspaceOutput, ToolError> {
    let LoadWorkspaceInput { document, dry_run } = input;
    let document = document::parse(&document)?;
    let plan = plan(&document);
    if plan.calls.len() > WORKSPACE_MAX_STEPS {
        return Err(bad(
            "/",
            format!(
                "the document makes {} steps; at most {WORKSPACE_MAX_STEPS} load at once",
                plan.calls.len()
            ),
        ));
    }
    let Plan {
        calls,
        places,
        windows,
        typed,
    } = plan;
    let mode = mode(dry_run);
    let rows = gate.rows();
    let reply = run_batch(&rows, gate.context(), calls, true, mode)
        .await
        .map_err(|error| refused_step(&error, &places))?;
    let results = reply.results;
    if mode == Mode::DryRun {
        let plan = results
            .iter()
            .map(|row| LoadWorkspaceOutputPlanItem {
                tool: row.tool.clone(),
                does: format!(
                    "{}: {}",
                    places[usize::try_from(row.index).unwrap_or(0)],
                    row.result["does"].as_str().unwrap_or_default()
                ),
                tmux: strings(&row.result["tmux"]),
                closes: strings(&row.result["closes"]),
            })
            .collect();
        return Ok(LoadWorkspaceOutput {
            dry_run: true,
            jobs: Vec::new(),
            plan,
            session_id: None,
            windows: Vec::new(),
        });
    }
    if let Some(failed) = results.iter().find(|row| !row.success) {
        let index = usize::try_from(failed.index).unwrap_or(0);
        let session = results
            .first()
            .filter(|row| row.success)
            .map(|row| id_in(&row.result, "sessionId"));
        let made = session.map_or_else(
            || "nothing was created".to_string(),
            |session| format!("session {session} was created up to there (kill_session ends it)"),
        );
        return Err(ToolError::new(
            ToolErrorKind::Refused,
            format!(
                "step {index} (`{}`, for {}) failed: {}; {made}",
                failed.tool,
                places[index],
                failed.error.as_deref().unwrap_or("no reason given")
            ),
        ));
    }
    // A typed line is typed once its pane's shell shows a prompt (the create steps wait
    // for it, then run_command's own grace); a shell slower than both got nothing, which
    // is said, never answered as a job that does not exist.
    if let Some(row) = typed.iter().find(|row| results[**row].result["state"] == "notReady") {
        let reason = results[*row].result["notReadyReason"]
            .as_str()
            .unwrap_or("its shell is still starting");
        return Err(ToolError::new(
            ToolErrorKind::Refused,
            format!(
                "step {row} (`run_command`, for {}) typed nothing: {reason}; the session was created \
                 (kill_session ends it)",
                places[*row]
            ),
        ));
    }
    let result = |row: usize| &results[row].result;
    Ok(LoadWorkspaceOutput {
        dry_run: false,
        jobs: typed.iter().map(|row| id_in(result(*row), "jobId")).collect(),
        plan: Vec::new(),
        session_id: Some(id_in(result(0), "sessionId")),
        windows: windows
            .iter()
            .map(|(window_row, panes)| LoadWorkspaceOutputWindowsItem {
                window_id: id_in(result(*window_row), "windowId"),
                pane_ids: panes.iter().map(|row| id_in(result(*row), "paneId")).collect(),
            })
            .collect(),
    })
}

/// A step refused before any ran, said with the place in the document it came from
/// (the batch's own error names the row as `/operations/N`).
fn refused_step(error: &ToolError, places: &[String]) -> ToolError {
    let message = error.message();
    let place = message
        .split("/operations/")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|index| index.parse::<usize>().ok())
        .and_then(|index| places.get(index));
    match place {
        Some(place) => ToolError::new(
            error.kind(),
            format!("the step made for {place} of the document was refused, so nothing was created: {message}"),
        ),
        None => ToolError::new(error.kind(), message.to_string()),
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(String::from)
        .collect()
}

/// `freeze_workspace`: see `schemas/tools/freeze_workspace.json`.
///
/// # Errors
/// No session has that id, or tmux could not be read.
pub async fn freeze_workspace(
    gate: &ReadGate<'_>,
    input: FreezeWorkspaceInput,
) -> Result<FreezeWorkspaceOutput, ToolError> {
    let FreezeWorkspaceInput { session_id } = input;
    let session_id: &str = &session_id;
    let rows = gate.rows();
    let context = gate.context().row_of();
    let listed = |reply: &Value, key: &str| reply.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
    let sessions = rows.call("list_sessions", None, &context).await?;
    let Some(session) = listed(&sessions, "sessions")
        .into_iter()
        .find(|s| s["id"] == session_id)
    else {
        return Err(ToolError::invalid_argument(
            "/session_id",
            format!("no session {session_id} on this server"),
        ));
    };
    let mut windows: Vec<Value> = listed(&rows.call("list_windows", None, &context).await?, "windows")
        .into_iter()
        .filter(|w| w["sessionId"] == session_id)
        .collect();
    windows.sort_by_key(|w| w["index"].as_i64());
    // Full rows: a brief pane row has neither its session nor its index.
    let full = Map::from_iter([("detail".to_string(), json!("full"))]);
    let mut panes: Vec<Value> = listed(&rows.call("list_panes", Some(full), &context).await?, "panes")
        .into_iter()
        .filter(|p| p["sessionId"] == session_id)
        .collect();
    panes.sort_by_key(|p| p["index"].as_i64());
    let frozen: Vec<(String, Vec<String>)> = windows
        .iter()
        .map(|window| {
            let directories = panes
                .iter()
                .filter(|pane| pane["windowId"] == window["id"])
                .map(|pane| id_in(pane, "currentPath"))
                .collect();
            (id_in(window, "name"), directories)
        })
        .collect();
    let pane_count: usize = frozen.iter().map(|(_, panes)| panes.len()).sum();
    Ok(FreezeWorkspaceOutput {
        document: document::write(&id_in(&session, "name"), &frozen),
        panes: i64::try_from(pane_count).unwrap_or(i64::MAX),
        windows: i64::try_from(frozen.len()).unwrap_or(i64::MAX),
    })
}
