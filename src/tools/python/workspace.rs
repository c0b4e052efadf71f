//! libtmux-mcp's tools for creating, arranging and ending sessions, windows and panes,
//! under `--profile python`. Each resolves Python's targeting to ids
//! ([`super::target`]), calls paneward's own handler in `tools::workspace` with its
//! default input, so names stay data, layouts are checked, objects are marked and the
//! caller pane is never ended, and answers with libtmux-mcp's record read after the
//! change or its sentence.

use serde_json::{json, Value};

use crate::generated::python::types::*;
use crate::generated::types as own;
use crate::guard::{ChangeGate, EndGate, ReadGate};
use crate::runtime::{decode_arguments, ToolError};
use crate::tools::args;
use crate::tools::workspace::relative::{self, PaneStep, WindowStep};
use crate::tools::workspace::{arrange, create, end, moves, rename};

use super::models::{self, Scope};
use super::target::{check_socket, pane_not_found, upstream_error, Server, Targeting};

/// An argument libtmux-mcp takes that paneward cannot honour as asked: refused by name,
/// nothing changed.
fn unsupported(tool: &str, argument: &str, why: &str) -> ToolError {
    upstream_error(
        "ExpectedToolError",
        &format!("{tool}: `{argument}` {why}; nothing changed"),
        None,
    )
}

/// A value of the profile's input as JSON (an enum's spelling, a map), `null` when absent.
fn json_of<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The environment libtmux-mcp takes as a map or as a JSON string of one, with the
/// history controls added when `suppress_persistent_history` asks for them.
fn environment(tool: &str, value: Value, suppress_persistent_history: bool) -> Result<Value, ToolError> {
    let not_strings = || unsupported(tool, "environment", "must be an object of strings, or its JSON");
    let mut map = match value {
        Value::Null => serde_json::Map::new(),
        Value::Object(map) => map,
        Value::String(text) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => map,
            _ => return Err(not_strings()),
        },
        _ => return Err(not_strings()),
    };
    if suppress_persistent_history {
        if map.values().any(|value| !value.is_string()) {
            return Err(upstream_error(
                "ExpectedToolError",
                "environment keys and values must be strings",
                None,
            ));
        }
        create::without_saved_history(&mut map).map_err(|(name, required)| {
            let correction = match required.as_str() {
                "" => "omit it or set it to an empty string".to_string(),
                value => format!("omit it or set it to '{value}'"),
            };
            upstream_error(
                "ExpectedToolError",
                &format!("environment variable {name} conflicts with suppress_persistent_history=True; {correction}"),
                None,
            )
        })?;
    }
    Ok(Value::Object(map))
}

/// Drops absent members, so paneward's handler sees only what was asked.
fn present(mut arguments: Value) -> Value {
    if let Value::Object(fields) = &mut arguments {
        fields.retain(|_, value| !value.is_null() && value != &json!({}));
    }
    arguments
}

async fn session_record(gate: &ReadGate<'_>, id: &str) -> Result<Value, ToolError> {
    models::one(models::sessions(gate).await?, "session_id", id)
}

async fn window_record(gate: &ReadGate<'_>, id: &str) -> Result<Value, ToolError> {
    models::one(models::windows(gate, Scope::Server).await?, "window_id", id)
}

async fn pane_record(gate: &ReadGate<'_>, id: &str) -> Result<Value, ToolError> {
    models::one(models::panes(gate, Scope::Target(id)).await?, "pane_id", id)
}

pub async fn create_session(
    gate: &ChangeGate<'_>,
    input: CreateSessionInput,
) -> Result<CreateSessionOutput, ToolError> {
    let CreateSessionInput {
        environment: env,
        session_name,
        socket_name,
        start_directory,
        suppress_persistent_history,
        window_name,
        x,
        y,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    if let Some(name) = &session_name {
        let exists = models::sessions(gate)
            .await?
            .iter()
            .any(|s| s["session_name"].as_str() == Some(name.as_str()));
        if exists {
            return Err(upstream_error(
                "TmuxSessionExists",
                &format!("Session named {name} exists"),
                None,
            ));
        }
    }
    let arguments = present(json!({
        "name": session_name,
        "window_name": window_name,
        "start_directory": start_directory,
        "environment": environment("create_session", json_of(&env), suppress_persistent_history)?,
        "width": x,
        "height": y,
    }));
    let made = create::create_session(gate, decode_arguments::<own::CreateSessionInput>(arguments)?).await?;
    models::typed(session_record(gate, &made.session_id).await?)
}

pub async fn create_window(gate: &ChangeGate<'_>, input: CreateWindowInput) -> Result<CreateWindowOutput, ToolError> {
    let CreateWindowInput {
        attach,
        direction,
        environment: env,
        session_id,
        session_name,
        socket_name,
        start_directory,
        suppress_persistent_history,
        window_name,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let server = Server::read(gate).await?;
    let session = server
        .session(&Targeting {
            session_id: session_id.as_deref(),
            session_name: session_name.as_deref(),
            ..Targeting::default()
        })?
        .session_id
        .to_string();
    let arguments = present(json!({
        "session_id": session,
        "name": window_name,
        "start_directory": start_directory,
        "environment": environment("create_window", json_of(&env), suppress_persistent_history)?,
        "select": attach,
    }));
    let placement = match direction {
        None => create::Placement::Index,
        Some(CreateWindowInputDirectionVariant0::Before) => create::Placement::BeforeCurrent,
        Some(CreateWindowInputDirectionVariant0::After) => create::Placement::AfterCurrent,
    };
    let input = decode_arguments::<own::CreateWindowInput>(arguments)?;
    let made = create::create_window_placed(gate, input, placement).await?;
    models::typed(window_record(gate, &made.window_id).await?)
}

pub async fn split_window(gate: &ChangeGate<'_>, input: SplitWindowInput) -> Result<SplitWindowOutput, ToolError> {
    let SplitWindowInput {
        direction,
        environment: env,
        pane_id,
        session_id,
        session_name,
        shell,
        size,
        socket_name,
        start_directory,
        suppress_persistent_history,
        window_id,
        window_index,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let server = Server::read(gate).await?;
    let pane = server
        .pane(&Targeting {
            pane_id: pane_id.as_deref(),
            session_id: session_id.as_deref(),
            session_name: session_name.as_deref(),
            window_id: window_id.as_deref(),
            window_index: window_index.as_deref(),
        })?
        .id
        .to_string();
    let (size_cells, size_percent) = match json_of(&size) {
        Value::Null => (Value::Null, Value::Null),
        Value::Number(cells) => (Value::Number(cells), Value::Null),
        Value::String(text) => match text.strip_suffix('%').map(str::parse::<u64>) {
            Some(Ok(percent)) => (Value::Null, json!(percent)),
            _ => match text.parse::<u64>() {
                Ok(cells) => (json!(cells), Value::Null),
                Err(_) => {
                    return Err(unsupported(
                        "split_window",
                        "size",
                        "must be cells (50) or a percentage (\"50%\")",
                    ))
                }
            },
        },
        _ => (Value::Null, Value::Null),
    };
    let arguments = present(json!({
        "pane_id": pane,
        "direction": json_of(&direction),
        "environment": environment("split_window", json_of(&env), suppress_persistent_history)?,
        "shell": shell,
        "size_cells": size_cells,
        "size_percent": size_percent,
        "start_directory": start_directory,
    }));
    let made = create::split_window(gate, decode_arguments::<own::SplitWindowInput>(arguments)?).await?;
    models::typed(pane_record(gate, &made.pane_id).await?)
}

pub async fn kill_session(gate: &EndGate<'_>, input: KillSessionInput) -> Result<KillSessionOutput, ToolError> {
    let KillSessionInput {
        session_id,
        session_name,
        socket_name,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    if session_id.is_none() && session_name.is_none() {
        return Err(upstream_error(
            "ExpectedToolError",
            "Refusing to kill without an explicit target. Provide session_name or session_id.",
            None,
        ));
    }
    let server = Server::read(gate).await?;
    let session = server.session(&Targeting {
        session_id: session_id.as_deref(),
        session_name: session_name.as_deref(),
        ..Targeting::default()
    })?;
    let (id, name) = (session.session_id.to_string(), session.session.clone());
    end::kill_session(gate, decode_arguments(json!({"session_id": id}))?).await?;
    Ok(KillSessionOutput {
        result: format!("Session killed: {name}"),
    })
}

pub async fn kill_window(gate: &EndGate<'_>, input: KillWindowInput) -> Result<KillWindowOutput, ToolError> {
    let KillWindowInput { socket_name, window_id } = input;
    check_socket(gate, socket_name.as_deref())?;
    let server = Server::read(gate).await?;
    let window = server
        .window(&Targeting {
            window_id: Some(&window_id),
            ..Targeting::default()
        })?
        .window_id
        .to_string();
    end::kill_window(gate, decode_arguments(json!({"window_id": window}))?).await?;
    Ok(KillWindowOutput {
        result: format!("Window killed: {window}"),
    })
}

pub async fn kill_pane(gate: &EndGate<'_>, input: KillPaneInput) -> Result<KillPaneOutput, ToolError> {
    let KillPaneInput { pane_id, socket_name } = input;
    check_socket(gate, socket_name.as_deref())?;
    let server = Server::read(gate).await?;
    let pane = server
        .pane(&Targeting {
            pane_id: Some(&pane_id),
            ..Targeting::default()
        })?
        .id
        .to_string();
    end::kill_pane(gate, decode_arguments(json!({"pane_id": pane}))?).await?;
    Ok(KillPaneOutput {
        result: format!("Pane killed: {pane}"),
    })
}

pub async fn kill_server(gate: &EndGate<'_>, input: KillServerInput) -> Result<KillServerOutput, ToolError> {
    let KillServerInput { socket_name } = input;
    check_socket(gate, socket_name.as_deref())?;
    end::kill_server(gate, decode_arguments(json!({"confirm": true}))?).await?;
    Ok(KillServerOutput {
        result: "Server killed successfully".into(),
    })
}

pub async fn rename_session(
    gate: &ChangeGate<'_>,
    input: RenameSessionInput,
) -> Result<RenameSessionOutput, ToolError> {
    let RenameSessionInput {
        new_name,
        session_id,
        session_name,
        socket_name,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let server = Server::read(gate).await?;
    let id = server
        .session(&Targeting {
            session_id: session_id.as_deref(),
            session_name: session_name.as_deref(),
            ..Targeting::default()
        })?
        .session_id
        .to_string();
    rename::rename_session(gate, decode_arguments(json!({"session_id": id, "name": new_name}))?).await?;
    models::typed(session_record(gate, &id).await?)
}

pub async fn rename_window(gate: &ChangeGate<'_>, input: RenameWindowInput) -> Result<RenameWindowOutput, ToolError> {
    let RenameWindowInput {
        new_name,
        session_id,
        session_name,
        socket_name,
        window_id,
        window_index,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let id = window_of(gate, session_id, session_name, window_id, window_index).await?;
    rename::rename_window(gate, decode_arguments(json!({"window_id": id, "name": new_name}))?).await?;
    models::typed(window_record(gate, &id).await?)
}

/// The id of the window Python's targeting names.
async fn window_of(
    gate: &ReadGate<'_>,
    session_id: Option<String>,
    session_name: Option<String>,
    window_id: Option<String>,
    window_index: Option<String>,
) -> Result<String, ToolError> {
    let server = Server::read(gate).await?;
    Ok(server
        .window(&Targeting {
            session_id: session_id.as_deref(),
            session_name: session_name.as_deref(),
            window_id: window_id.as_deref(),
            window_index: window_index.as_deref(),
            pane_id: None,
        })?
        .window_id
        .to_string())
}

/// The id of the pane Python's targeting names.
async fn pane_of(gate: &ReadGate<'_>, targeting: Targeting<'_>) -> Result<String, ToolError> {
    Ok(Server::read(gate).await?.pane(&targeting)?.id.to_string())
}

pub async fn select_window(gate: &ChangeGate<'_>, input: SelectWindowInput) -> Result<SelectWindowOutput, ToolError> {
    let SelectWindowInput {
        direction,
        session_id,
        session_name,
        socket_name,
        window_id,
        window_index,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    if window_id.is_none() && window_index.is_none() && direction.is_none() {
        return Err(upstream_error(
            "ExpectedToolError",
            "Provide window_id, window_index, or direction.",
            None,
        ));
    }
    let id = match direction {
        Some(step) if window_id.is_none() && window_index.is_none() => {
            let server = Server::read(gate).await?;
            let session = server
                .session(&Targeting {
                    session_id: session_id.as_deref(),
                    session_name: session_name.as_deref(),
                    ..Targeting::default()
                })?
                .session_id
                .to_string();
            let (step, command, nothing) = match step {
                SelectWindowInputDirectionVariant0::Next => (WindowStep::Next, "next-window", "no next window"),
                SelectWindowInputDirectionVariant0::Previous => {
                    (WindowStep::Previous, "previous-window", "no previous window")
                }
                SelectWindowInputDirectionVariant0::Last => (WindowStep::Last, "last-window", "no last window"),
            };
            let session = args::session_id("/session_id", &session)?;
            relative::window_step(gate, session, step)
                .await?
                .ok_or_else(|| no_such_step(command, nothing))?
        }
        _ => window_of(gate, session_id, session_name, window_id, window_index).await?,
    };
    arrange::select_window(gate, decode_arguments(json!({"window_id": id}))?).await?;
    models::typed(window_record(gate, &id).await?)
}

/// What libtmux-mcp answers when tmux finds nothing in the step's direction (tmux's
/// own words, after the command that failed).
fn no_such_step(command: &str, tmux_says: &str) -> ToolError {
    upstream_error("LibTmuxException", &format!("tmux error: {command}: {tmux_says}"), None)
}

pub async fn select_pane(gate: &ChangeGate<'_>, input: SelectPaneInput) -> Result<SelectPaneOutput, ToolError> {
    let SelectPaneInput {
        direction,
        pane_id,
        session_id,
        session_name,
        socket_name,
        window_id,
        window_index,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let targeting = Targeting {
        pane_id: pane_id.as_deref(),
        session_id: session_id.as_deref(),
        session_name: session_name.as_deref(),
        window_id: window_id.as_deref(),
        window_index: window_index.as_deref(),
    };
    let id = match (pane_id.is_some(), direction) {
        (true, _) => pane_of(gate, targeting).await?,
        (false, None) => {
            return Err(upstream_error(
                "ExpectedToolError",
                "Provide either pane_id or direction.",
                None,
            ))
        }
        (false, Some(step)) => {
            let window = Server::read(gate).await?.window(&targeting)?.window_id.to_string();
            let layout = relative::Window::read(gate, args::window_id("/window_id", &window)?).await?;
            let step = match step {
                SelectPaneInputDirectionVariant0::Up => PaneStep::Up,
                SelectPaneInputDirectionVariant0::Down => PaneStep::Down,
                SelectPaneInputDirectionVariant0::Left => PaneStep::Left,
                SelectPaneInputDirectionVariant0::Right => PaneStep::Right,
                SelectPaneInputDirectionVariant0::Last => PaneStep::Last,
                SelectPaneInputDirectionVariant0::Next => PaneStep::Next,
                SelectPaneInputDirectionVariant0::Previous => PaneStep::Previous,
            };
            match layout.step(step) {
                Some(pane) => pane.id.clone(),
                // tmux refuses a last pane that does not exist; a geometric or
                // ordinal step with nowhere to go leaves the active pane active.
                None if step == PaneStep::Last => return Err(no_such_step("select-pane", "no last pane")),
                None => layout
                    .panes
                    .iter()
                    .find(|pane| pane.active)
                    .map(|pane| pane.id.clone())
                    .ok_or_else(|| pane_not_found(""))?,
            }
        }
    };
    arrange::select_pane(gate, decode_arguments(json!({"pane_id": id}))?).await?;
    models::typed(pane_record(gate, &id).await?)
}

pub async fn set_pane_title(gate: &ChangeGate<'_>, input: SetPaneTitleInput) -> Result<SetPaneTitleOutput, ToolError> {
    let SetPaneTitleInput {
        pane_id,
        session_id,
        session_name,
        socket_name,
        title,
        window_id,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let id = pane_of(
        gate,
        Targeting {
            pane_id: pane_id.as_deref(),
            session_id: session_id.as_deref(),
            session_name: session_name.as_deref(),
            window_id: window_id.as_deref(),
            window_index: None,
        },
    )
    .await?;
    rename::set_pane_title(gate, decode_arguments(json!({"pane_id": id, "title": title}))?).await?;
    models::typed(pane_record(gate, &id).await?)
}

pub async fn resize_pane(gate: &ChangeGate<'_>, input: ResizePaneInput) -> Result<ResizePaneOutput, ToolError> {
    let ResizePaneInput {
        height,
        pane_id,
        session_id,
        session_name,
        socket_name,
        width,
        window_id,
        zoom,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let id = pane_of(
        gate,
        Targeting {
            pane_id: pane_id.as_deref(),
            session_id: session_id.as_deref(),
            session_name: session_name.as_deref(),
            window_id: window_id.as_deref(),
            window_index: None,
        },
    )
    .await?;
    let arguments = present(json!({"pane_id": id, "height": height, "width": width, "zoom": zoom}));
    arrange::resize_pane(gate, decode_arguments(arguments)?).await?;
    models::typed(pane_record(gate, &id).await?)
}

pub async fn resize_window(gate: &ChangeGate<'_>, input: ResizeWindowInput) -> Result<ResizeWindowOutput, ToolError> {
    let ResizeWindowInput {
        height,
        session_id,
        session_name,
        socket_name,
        width,
        window_id,
        window_index,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let id = window_of(gate, session_id, session_name, window_id, window_index).await?;
    let arguments = present(json!({"window_id": id, "height": height, "width": width}));
    arrange::resize_window(gate, decode_arguments(arguments)?).await?;
    models::typed(window_record(gate, &id).await?)
}

pub async fn select_layout(gate: &ChangeGate<'_>, input: SelectLayoutInput) -> Result<SelectLayoutOutput, ToolError> {
    let SelectLayoutInput {
        layout,
        session_id,
        session_name,
        socket_name,
        window_id,
        window_index,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let id = window_of(gate, session_id, session_name, window_id, window_index).await?;
    arrange::select_layout(gate, decode_arguments(json!({"window_id": id, "layout": layout}))?).await?;
    models::typed(window_record(gate, &id).await?)
}

pub async fn swap_pane(gate: &ChangeGate<'_>, input: SwapPaneInput) -> Result<SwapPaneOutput, ToolError> {
    let SwapPaneInput {
        socket_name,
        source_pane_id,
        target_pane_id,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let server = Server::read(gate).await?;
    let source = server.pane(&Targeting {
        pane_id: Some(&source_pane_id),
        ..Targeting::default()
    })?;
    let target = server.pane(&Targeting {
        pane_id: Some(&target_pane_id),
        ..Targeting::default()
    })?;
    let (source, target) = (source.id.to_string(), target.id.to_string());
    arrange::swap_pane(
        gate,
        decode_arguments(json!({"pane_id": source, "with_pane_id": target}))?,
    )
    .await?;
    models::typed(pane_record(gate, &source).await?)
}

pub async fn move_window(gate: &ChangeGate<'_>, input: MoveWindowInput) -> Result<MoveWindowOutput, ToolError> {
    let MoveWindowInput {
        destination_index,
        destination_session,
        session_id,
        session_name,
        socket_name,
        window_id,
        window_index,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let id = window_of(gate, session_id, session_name, window_id, window_index).await?;
    let index: u64 = destination_index
        .trim()
        .parse()
        .map_err(|_| unsupported("move_window", "destination_index", "must be a window index (digits)"))?;
    let to_session = match destination_session {
        None => Value::Null,
        Some(name) => {
            let server = Server::read(gate).await?;
            let by_id = name.starts_with('$');
            let session = server.session(&Targeting {
                session_id: by_id.then_some(name.as_str()),
                session_name: (!by_id).then_some(name.as_str()),
                ..Targeting::default()
            })?;
            json!(session.session_id.as_str())
        }
    };
    let arguments = present(json!({"window_id": id, "to_index": index, "to_session_id": to_session}));
    moves::move_window(gate, decode_arguments(arguments)?).await?;
    models::typed(window_record(gate, &id).await?)
}

pub async fn respawn_pane(gate: &EndGate<'_>, input: RespawnPaneInput) -> Result<RespawnPaneOutput, ToolError> {
    let RespawnPaneInput {
        environment: env,
        kill,
        pane_id,
        shell,
        socket_name,
        start_directory,
        suppress_persistent_history,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let id = pane_of(
        gate,
        Targeting {
            pane_id: Some(&pane_id),
            ..Targeting::default()
        },
    )
    .await?;
    let arguments = present(json!({
        "pane_id": id,
        "kill": kill,
        "shell": shell,
        "start_directory": start_directory,
        "environment": environment("respawn_pane", json_of(&env), suppress_persistent_history)?,
    }));
    end::respawn_pane(gate, decode_arguments(arguments)?).await?;
    models::typed(pane_record(gate, &id).await?)
}

pub async fn clear_pane(gate: &EndGate<'_>, input: ClearPaneInput) -> Result<ClearPaneOutput, ToolError> {
    let ClearPaneInput {
        pane_id,
        session_id,
        session_name,
        socket_name,
        window_id,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let id = pane_of(
        gate,
        Targeting {
            pane_id: pane_id.as_deref(),
            session_id: session_id.as_deref(),
            session_name: session_name.as_deref(),
            window_id: window_id.as_deref(),
            window_index: None,
        },
    )
    .await?;
    end::clear_pane(gate, decode_arguments(json!({"pane_id": id}))?).await?;
    Ok(ClearPaneOutput {
        result: format!("Pane cleared: {id}"),
    })
}
