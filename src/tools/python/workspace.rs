//! libtmux-mcp's tools for creating, arranging and ending sessions, windows and panes,
//! under `--profile python`. Each resolves Python's targeting to ids
//! ([`super::target`]), calls paneward's own handler in `tools::workspace` with its
//! default input, built as a typed literal, so names stay data, layouts are checked,
//! objects are marked and the caller pane is never ended, and answers with
//! libtmux-mcp's record read after the change or its sentence.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use crate::generated::python::types::*;
use crate::generated::types as own;
use crate::guard::{ChangeGate, EndGate, ReadGate};
use crate::runtime::{decode_arguments, ToolError};
use crate::tools::args;
use crate::tools::workspace::relative::{self, PaneStep, WindowStep};
use crate::tools::workspace::{arrange, create, end, moves, rename};

use super::models::{self, Scope};
use super::spawn::{environment, unsupported};
use super::target::{
    checked, pane_id, pane_not_found, session_id, upstream_error, window_id, Level, Server, Targeting,
};

/// A value of the profile's input as JSON (an enum's spelling, a map), `null` when absent.
fn json_of<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// `value` as field `name` of paneward's own input (its type inferred from the
/// literal it fills): refused exactly as decoding the whole input refuses it, by the
/// field's pointer and the type's rule. Fields are converted in name order, the order
/// a whole input's decoding meets them.
fn own<T: DeserializeOwned>(name: &str, value: impl Serialize) -> Result<T, ToolError> {
    let mut field = serde_json::Map::new();
    field.insert(name.to_string(), json_of(&value));
    let mut decoded: std::collections::BTreeMap<String, T> = decode_arguments(Value::Object(field))?;
    decoded
        .remove(name)
        .ok_or_else(|| ToolError::internal(format!("{name} did not decode")))
}

/// [`own`] for a field the profile names `shown`: a refusal names the caller's argument,
/// in libtmux-mcp's shape (`ExpectedToolError`), never paneward's own field.
fn own_as<T: DeserializeOwned>(name: &str, shown: &str, value: impl Serialize) -> Result<T, ToolError> {
    own(name, value).map_err(|error| {
        let prefix = format!("invalid arguments: /{name}: ");
        let rule = error.message().strip_prefix(prefix.as_str()).unwrap_or(error.message());
        upstream_error(
            "ExpectedToolError",
            &format!("{shown} is not one paneward takes: {rule}; nothing changed"),
            None,
        )
    })
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

/// Refuses a session name tmux would rewrite (empty, or holding the `.` or `:` that
/// separate a target's parts), as libtmux refuses it: `BadSessionName`, before tmux is
/// asked anything, so a later call by the chosen name never misses.
fn checked_session_name(name: &str) -> Result<(), ToolError> {
    let reason = if name.is_empty() {
        "empty"
    } else if name.contains('.') {
        "contains periods"
    } else if name.contains(':') {
        "contains colons"
    } else {
        return Ok(());
    };
    Err(upstream_error(
        "BadSessionName",
        &format!(
            "Bad session name: {reason} (session name: {})",
            crate::runtime::error::short_echo(name)
        ),
        None,
    ))
}

pub async fn create_session(
    gate: &ChangeGate<'_>,
    input: CreateSessionInput,
) -> Result<CreateSessionOutput, ToolError> {
    checked(gate, &input)?;
    let CreateSessionInput {
        environment: env,
        session_name,
        start_directory,
        suppress_persistent_history,
        window_name,
        x,
        y,
        ..
    } = input;
    if let Some(name) = &session_name {
        checked_session_name(name)?;
        let exists = super::observe::none_without_server(models::sessions(gate).await)?
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
    let env = environment("create_session", json_of(&env), suppress_persistent_history)?;
    let input = own::CreateSessionInput {
        environment: own("environment", env)?,
        height: own("height", y)?,
        name: own("name", session_name)?,
        start_directory: own("start_directory", start_directory)?,
        width: own("width", x)?,
        window_name: own("window_name", window_name)?,
        ..Default::default()
    };
    let made = create::create_session(gate, input).await?;
    models::typed(session_record(gate, &made.session_id).await?)
}

pub async fn create_window(gate: &ChangeGate<'_>, input: CreateWindowInput) -> Result<CreateWindowOutput, ToolError> {
    let session = session_id(gate, &checked(gate, &input)?).await?;
    let CreateWindowInput {
        attach,
        direction,
        environment: env,
        start_directory,
        suppress_persistent_history,
        window_name,
        ..
    } = input;
    let env = environment("create_window", json_of(&env), suppress_persistent_history)?;
    let input = own::CreateWindowInput {
        command: Vec::new(),
        environment: own("environment", env)?,
        history_limit: None,
        index: None,
        name: own_as("name", "window_name", window_name)?,
        select: Some(attach),
        session_id: own("session_id", session)?,
        shell: None,
        start_directory: own("start_directory", start_directory)?,
        wait_ready: None,
    };
    let placement = match direction {
        None => create::Placement::Index,
        Some(CreateWindowInputDirectionVariant0::Before) => create::Placement::BeforeCurrent,
        Some(CreateWindowInputDirectionVariant0::After) => create::Placement::AfterCurrent,
    };
    let made = create::create_window_placed(gate, input, placement).await?;
    models::typed(window_record(gate, &made.window_id).await?)
}

pub async fn split_window(gate: &ChangeGate<'_>, input: SplitWindowInput) -> Result<SplitWindowOutput, ToolError> {
    let pane = pane_id(gate, &checked(gate, &input)?).await?;
    let SplitWindowInput {
        direction,
        environment: env,
        shell,
        size,
        start_directory,
        suppress_persistent_history,
        ..
    } = input;
    let (size_cells, size_percent) = match size {
        SplitWindowInputSize::Null => (None, None),
        SplitWindowInputSize::Integer(cells) => (Some(json!(cells)), None),
        SplitWindowInputSize::String(text) => match text.strip_suffix('%').map(str::parse::<u64>) {
            Some(Ok(percent)) => (None, Some(json!(percent))),
            _ => match text.parse::<u64>() {
                Ok(cells) => (Some(json!(cells)), None),
                Err(_) => {
                    return Err(unsupported(
                        "split_window",
                        "size",
                        "must be cells (50) or a percentage (\"50%\")",
                    ))
                }
            },
        },
    };
    let env = environment("split_window", json_of(&env), suppress_persistent_history)?;
    let input = own::SplitWindowInput {
        command: Vec::new(),
        direction: own("direction", direction)?,
        environment: own("environment", env)?,
        history_limit: None,
        pane_id: own("pane_id", pane)?,
        select: None,
        shell: own("shell", shell)?,
        size_cells: own("size_cells", size_cells)?,
        size_percent: own("size_percent", size_percent)?,
        start_directory: own("start_directory", start_directory)?,
        wait_ready: None,
    };
    let made = create::split_window(gate, input).await?;
    models::typed(pane_record(gate, &made.pane_id).await?)
}

pub async fn kill_session(gate: &EndGate<'_>, input: KillSessionInput) -> Result<KillSessionOutput, ToolError> {
    let targeting = checked(gate, &input)?;
    if targeting.session_id.is_none() && targeting.session_name.is_none() {
        return Err(upstream_error(
            "ExpectedToolError",
            "Refusing to kill without an explicit target. Provide session_name or session_id.",
            None,
        ));
    }
    let server = Server::read_for(gate, &targeting, Level::Session).await?;
    let session = server.session(&targeting)?;
    let (id, name) = (session.session_id.to_string(), session.session.clone());
    let input = own::KillSessionInput {
        session_id: own("session_id", id)?,
        // As before `confirm_self`: what holds the caller pane is put to the person.
        confirm_self: true,
    };
    end::kill_session(gate, input).await?;
    Ok(KillSessionOutput {
        result: format!("Session killed: {name}"),
    })
}

pub async fn kill_window(gate: &EndGate<'_>, input: KillWindowInput) -> Result<KillWindowOutput, ToolError> {
    let window = window_id(gate, &checked(gate, &input)?).await?;
    let input = own::KillWindowInput {
        window_id: own("window_id", &window)?,
        confirm_self: true,
    };
    end::kill_window(gate, input).await?;
    Ok(KillWindowOutput {
        result: format!("Window killed: {window}"),
    })
}

pub async fn kill_pane(gate: &EndGate<'_>, input: KillPaneInput) -> Result<KillPaneOutput, ToolError> {
    let pane = pane_id(gate, &checked(gate, &input)?).await?;
    let input = own::KillPaneInput {
        pane_id: own("pane_id", &pane)?,
        confirm_self: true,
    };
    end::kill_pane(gate, input).await?;
    Ok(KillPaneOutput {
        result: format!("Pane killed: {pane}"),
    })
}

pub async fn kill_server(gate: &EndGate<'_>, input: KillServerInput) -> Result<KillServerOutput, ToolError> {
    checked(gate, &input)?;
    end::kill_server(
        gate,
        own::KillServerInput {
            confirm: true,
            confirm_self: true,
        },
    )
    .await?;
    Ok(KillServerOutput {
        result: "Server killed successfully".into(),
    })
}

pub async fn rename_session(
    gate: &ChangeGate<'_>,
    input: RenameSessionInput,
) -> Result<RenameSessionOutput, ToolError> {
    let id = session_id(gate, &checked(gate, &input)?).await?;
    checked_session_name(&input.new_name)?;
    let input = own::RenameSessionInput {
        name: own_as("name", "new_name", input.new_name)?,
        session_id: own("session_id", &id)?,
    };
    rename::rename_session(gate, input).await?;
    models::typed(session_record(gate, &id).await?)
}

pub async fn rename_window(gate: &ChangeGate<'_>, input: RenameWindowInput) -> Result<RenameWindowOutput, ToolError> {
    let id = window_id(gate, &checked(gate, &input)?).await?;
    let input = own::RenameWindowInput {
        name: own_as("name", "new_name", input.new_name)?,
        window_id: own("window_id", &id)?,
    };
    rename::rename_window(gate, input).await?;
    models::typed(window_record(gate, &id).await?)
}

pub async fn select_window(gate: &ChangeGate<'_>, input: SelectWindowInput) -> Result<SelectWindowOutput, ToolError> {
    let targeting = checked(gate, &input)?;
    let by_place = targeting.window_id.is_none() && targeting.window_index.is_none();
    let id = match input.direction {
        None if by_place => {
            return Err(upstream_error(
                "ExpectedToolError",
                "Provide window_id, window_index, or direction.",
                None,
            ))
        }
        Some(step) if by_place => {
            let session = session_id(gate, &targeting).await?;
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
        _ => window_id(gate, &targeting).await?,
    };
    let input = own::SelectWindowInput {
        window_id: own("window_id", &id)?,
    };
    arrange::select_window(gate, input).await?;
    models::typed(window_record(gate, &id).await?)
}

/// What libtmux-mcp answers when tmux finds nothing in the step's direction (tmux's
/// own words, after the command that failed).
fn no_such_step(command: &str, tmux_says: &str) -> ToolError {
    upstream_error("LibTmuxException", &format!("tmux error: {command}: {tmux_says}"), None)
}

pub async fn select_pane(gate: &ChangeGate<'_>, input: SelectPaneInput) -> Result<SelectPaneOutput, ToolError> {
    let targeting = checked(gate, &input)?;
    let id = match (targeting.pane_id.is_some(), input.direction) {
        (true, _) => pane_id(gate, &targeting).await?,
        (false, None) => {
            return Err(upstream_error(
                "ExpectedToolError",
                "Provide either pane_id or direction.",
                None,
            ))
        }
        (false, Some(step)) => pane_stepped(gate, &targeting, step).await?,
    };
    let input = own::SelectPaneInput {
        pane_id: own("pane_id", &id)?,
    };
    arrange::select_pane(gate, input).await?;
    models::typed(pane_record(gate, &id).await?)
}

/// The id of the pane one `step` from the active pane of the window `targeting` names.
async fn pane_stepped(
    gate: &ReadGate<'_>,
    targeting: &Targeting<'_>,
    step: SelectPaneInputDirectionVariant0,
) -> Result<String, ToolError> {
    let window = window_id(gate, targeting).await?;
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
        Some(pane) => Ok(pane.id.clone()),
        // tmux refuses a last pane that does not exist; a geometric or ordinal step
        // with nowhere to go leaves the active pane active.
        None if step == PaneStep::Last => Err(no_such_step("select-pane", "no last pane")),
        None => layout
            .panes
            .iter()
            .find(|pane| pane.active)
            .map(|pane| pane.id.clone())
            .ok_or_else(|| pane_not_found("")),
    }
}

pub async fn set_pane_title(gate: &ChangeGate<'_>, input: SetPaneTitleInput) -> Result<SetPaneTitleOutput, ToolError> {
    let id = pane_id(gate, &checked(gate, &input)?).await?;
    let input = own::SetPaneTitleInput {
        pane_id: own("pane_id", &id)?,
        title: own("title", input.title)?,
    };
    rename::set_pane_title(gate, input).await?;
    models::typed(pane_record(gate, &id).await?)
}

pub async fn resize_pane(gate: &ChangeGate<'_>, input: ResizePaneInput) -> Result<ResizePaneOutput, ToolError> {
    let id = pane_id(gate, &checked(gate, &input)?).await?;
    if input.height.is_none() && input.width.is_none() && input.zoom.is_none() {
        // Nothing to change: libtmux-mcp answers with the pane as it is.
        return models::typed(pane_record(gate, &id).await?);
    }
    let input = own::ResizePaneInput {
        height: own("height", input.height)?,
        height_by: None,
        pane_id: own("pane_id", &id)?,
        width: own("width", input.width)?,
        width_by: None,
        zoom: input.zoom,
    };
    arrange::resize_pane(gate, input).await?;
    models::typed(pane_record(gate, &id).await?)
}

pub async fn resize_window(gate: &ChangeGate<'_>, input: ResizeWindowInput) -> Result<ResizeWindowOutput, ToolError> {
    let id = window_id(gate, &checked(gate, &input)?).await?;
    if input.height.is_none() && input.width.is_none() {
        // Nothing to change: libtmux-mcp answers with the window as it is.
        return models::typed(window_record(gate, &id).await?);
    }
    let input = own::ResizeWindowInput {
        height: own("height", input.height)?,
        reset_size: None,
        width: own("width", input.width)?,
        window_id: own("window_id", &id)?,
    };
    arrange::resize_window(gate, input).await?;
    models::typed(window_record(gate, &id).await?)
}

pub async fn select_layout(gate: &ChangeGate<'_>, input: SelectLayoutInput) -> Result<SelectLayoutOutput, ToolError> {
    let id = window_id(gate, &checked(gate, &input)?).await?;
    let input = own::SelectLayoutInput {
        layout: own("layout", input.layout)?,
        window_id: own("window_id", &id)?,
    };
    arrange::select_layout(gate, input).await?;
    models::typed(window_record(gate, &id).await?)
}

pub async fn swap_pane(gate: &ChangeGate<'_>, input: SwapPaneInput) -> Result<SwapPaneOutput, ToolError> {
    checked(gate, &input)?;
    let by_id = |id| Targeting {
        pane_id: Some(id),
        ..Targeting::default()
    };
    let source = pane_id(gate, &by_id(&input.source_pane_id)).await?;
    let target = pane_id(gate, &by_id(&input.target_pane_id)).await?;
    if source == target {
        // tmux swaps a pane with itself as a no-op; libtmux-mcp answers with the pane.
        return models::typed(pane_record(gate, &source).await?);
    }
    let swap = own::SwapPaneInput {
        pane_id: own("pane_id", &source)?,
        with_pane_id: own("with_pane_id", &target)?,
    };
    arrange::swap_pane(gate, swap).await?;
    models::typed(pane_record(gate, &source).await?)
}

pub async fn move_window(gate: &ChangeGate<'_>, input: MoveWindowInput) -> Result<MoveWindowOutput, ToolError> {
    let id = window_id(gate, &checked(gate, &input)?).await?;
    // No index (libtmux's default, "") is tmux's choice: the first free index there.
    let index: Option<u64> = match input.destination_index.trim() {
        "" => None,
        digits => Some(
            digits
                .parse()
                .map_err(|_| unsupported("move_window", "destination_index", "must be a window index (digits)"))?,
        ),
    };
    let to_session = match &input.destination_session {
        None => None,
        Some(name) => {
            let by_id = name.starts_with('$');
            let destination = Targeting {
                session_id: by_id.then_some(name.as_str()),
                session_name: (!by_id).then_some(name.as_str()),
                ..Targeting::default()
            };
            Some(session_id(gate, &destination).await?)
        }
    };
    let input = own::MoveWindowInput {
        to_index: own("to_index", index)?,
        to_session_id: own("to_session_id", to_session)?,
        window_id: own("window_id", &id)?,
    };
    moves::move_window(gate, input).await?;
    models::typed(window_record(gate, &id).await?)
}

pub async fn respawn_pane(gate: &EndGate<'_>, input: RespawnPaneInput) -> Result<RespawnPaneOutput, ToolError> {
    let id = pane_id(gate, &checked(gate, &input)?).await?;
    let RespawnPaneInput {
        environment: env,
        kill,
        shell,
        start_directory,
        suppress_persistent_history,
        ..
    } = input;
    let env = environment("respawn_pane", json_of(&env), suppress_persistent_history)?;
    let input = own::RespawnPaneInput {
        command: Vec::new(),
        environment: own("environment", env)?,
        kill,
        pane_id: own("pane_id", &id)?,
        shell: own("shell", shell)?,
        start_directory: own("start_directory", start_directory)?,
    };
    end::respawn_pane(gate, input).await?;
    models::typed(pane_record(gate, &id).await?)
}

pub async fn clear_pane(gate: &EndGate<'_>, input: ClearPaneInput) -> Result<ClearPaneOutput, ToolError> {
    let id = pane_id(gate, &checked(gate, &input)?).await?;
    let input = own::ClearPaneInput {
        history: false,
        pane_id: own("pane_id", &id)?,
    };
    end::clear_pane(gate, input).await?;
    Ok(ClearPaneOutput {
        result: format!("Pane cleared: {id}"),
    })
}
