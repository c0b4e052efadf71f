//! The family's tools that create, arrange and end sessions, windows and panes, under
//! `--profile libtmux`. Each checks the family's targets ([`super::target`]), calls
//! paneward's own handler in `tools::workspace` with an input built from JSON (so names
//! stay data, layouts are checked, objects are marked, and the caller pane is never
//! ended), and answers with the family's view of the object read after the change.

use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::generated::libtmux::types::*;
use crate::guard::{ChangeGate, EndGate};
use crate::runtime::{decode_arguments, Encoded, ToolError, ToolErrorKind};
use crate::tools::workspace::relative::{self, PaneStep, WindowStep};
use crate::tools::workspace::{arrange, create, end, moves, rename};

use super::target::{self, bad_input};
use super::views::{self, typed};

/// paneward's own input `T`, from `arguments` as its schema names them.
pub fn own_input<T: DeserializeOwned>(arguments: Value) -> Result<T, ToolError> {
    decode_arguments(arguments)
}

pub async fn create_session(
    gate: &ChangeGate<'_>,
    input: CreateSessionInput,
) -> Result<Encoded<CreateSessionOutput>, ToolError> {
    // A name in use is the family's refusal (paneward's own then also refuses the names
    // tmux would make equal to one in use).
    if views::sessions(gate)
        .await?
        .iter()
        .any(|session| session["name"] == input.name.as_str())
    {
        return Err(ToolError::new(
            ToolErrorKind::Refused,
            format!("a session named {} already exists", input.name),
        ));
    }
    let made = create::create_session(
        gate,
        own_input(json!({ "name": input.name, "start_directory": input.start_directory }))?,
    )
    .await?;
    typed(views::session(gate, &made.session_id).await?)
}

pub async fn create_window(
    gate: &ChangeGate<'_>,
    input: CreateWindowInput,
) -> Result<Encoded<CreateWindowOutput>, ToolError> {
    let (session, _) = target::session(gate, &input.session).await?;
    let made = create::create_window(
        gate,
        own_input(json!({
            "session_id": session.to_string(),
            "name": input.name,
            "start_directory": input.start_directory,
            // As tmux's new-window -d: a person's current window stays current.
            "select": false,
        }))?,
    )
    .await?;
    typed(views::window(gate, &made.window_id).await?)
}

pub async fn split_window(
    gate: &ChangeGate<'_>,
    input: SplitWindowInput,
) -> Result<Encoded<SplitWindowOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    let direction = input.direction.map(|direction| match direction {
        SplitWindowInputDirectionVariant0::Above => "above",
        SplitWindowInputDirectionVariant0::Below => "below",
        SplitWindowInputDirectionVariant0::Left => "left",
        SplitWindowInputDirectionVariant0::Right => "right",
    });
    if input.percent.is_some_and(|percent| !(1..=99).contains(&percent)) {
        return Err(bad_input("percent must be from 1 to 99"));
    }
    let made = create::split_window(
        gate,
        own_input(json!({
            "pane_id": pane.to_string(),
            "direction": direction,
            "size_percent": input.percent,
            "start_directory": input.start_directory,
            "select": false,
        }))?,
    )
    .await?;
    typed(views::pane(gate, &made.pane_id).await?)
}

pub async fn respawn_pane(
    gate: &EndGate<'_>,
    input: RespawnPaneInput,
) -> Result<Encoded<RespawnPaneOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    end::respawn_pane(
        gate,
        own_input(json!({ "pane_id": pane.to_string(), "kill": input.kill_first }))?,
    )
    .await?;
    typed(views::pane(gate, &pane.to_string()).await?)
}

pub async fn kill_pane(gate: &EndGate<'_>, input: KillPaneInput) -> Result<Encoded<KillPaneOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    end::kill_pane(gate, own_input(json!({ "pane_id": pane.to_string() }))?).await?;
    typed(json!({ "id": pane.to_string() }))
}

pub async fn kill_window(gate: &EndGate<'_>, input: KillWindowInput) -> Result<Encoded<KillWindowOutput>, ToolError> {
    let (window, _) = target::window(gate, &input.window).await?;
    end::kill_window(gate, own_input(json!({ "window_id": window.to_string() }))?).await?;
    typed(json!({ "id": window.to_string() }))
}

pub async fn kill_session(
    gate: &EndGate<'_>,
    input: KillSessionInput,
) -> Result<Encoded<KillSessionOutput>, ToolError> {
    let (session, _) = target::session(gate, &input.session).await?;
    end::kill_session(gate, own_input(json!({ "session_id": session.to_string() }))?).await?;
    typed(json!({ "id": session.to_string() }))
}

/// paneward's own `clear_pane_scrollback`: the scrollback goes, the screen stays.
pub async fn clear_pane_scrollback(
    gate: &EndGate<'_>,
    input: ClearPaneScrollbackInput,
) -> Result<Encoded<ClearPaneScrollbackOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    end::clear_pane_scrollback(gate, own_input(json!({ "pane_id": pane.to_string() }))?).await?;
    typed(json!({ "pane": pane.to_string() }))
}

pub async fn rename_session(
    gate: &ChangeGate<'_>,
    input: RenameSessionInput,
) -> Result<Encoded<RenameSessionOutput>, ToolError> {
    let (session, _) = target::session(gate, &input.session).await?;
    rename::rename_session(
        gate,
        own_input(json!({ "session_id": session.to_string(), "name": input.name }))?,
    )
    .await?;
    typed(views::session(gate, &session.to_string()).await?)
}

pub async fn rename_window(
    gate: &ChangeGate<'_>,
    input: RenameWindowInput,
) -> Result<Encoded<RenameWindowOutput>, ToolError> {
    let (window, _) = target::window(gate, &input.window).await?;
    rename::rename_window(
        gate,
        own_input(json!({ "window_id": window.to_string(), "name": input.name }))?,
    )
    .await?;
    typed(views::window(gate, &window.to_string()).await?)
}

pub async fn set_pane_title(
    gate: &ChangeGate<'_>,
    input: SetPaneTitleInput,
) -> Result<Encoded<SetPaneTitleOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    rename::set_pane_title(
        gate,
        own_input(json!({ "pane_id": pane.to_string(), "title": input.title }))?,
    )
    .await?;
    typed(views::pane(gate, &pane.to_string()).await?)
}

/// Grows or shrinks the pane by `cells` toward `direction`: right and down grow its
/// width and height, left and up shrink them (paneward's `width_by`/`height_by`).
pub async fn resize_pane(
    gate: &ChangeGate<'_>,
    input: ResizePaneInput,
) -> Result<Encoded<ResizePaneOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    let cells = i64::try_from(input.cells).map_err(|_| bad_input("cells is too large"))?;
    let (field, by) = match input.direction {
        ResizePaneInputDirection::Right => ("width_by", cells),
        ResizePaneInputDirection::Left => ("width_by", -cells),
        ResizePaneInputDirection::Down => ("height_by", cells),
        ResizePaneInputDirection::Up => ("height_by", -cells),
    };
    let mut arguments = json!({ "pane_id": pane.to_string() });
    if by != 0 {
        arguments[field] = json!(by);
    }
    let resized = arrange::resize_pane(gate, own_input(arguments)?).await?;
    typed(json!({ "pane": pane.to_string(), "width": resized.width, "height": resized.height }))
}

pub async fn resize_window(
    gate: &ChangeGate<'_>,
    input: ResizeWindowInput,
) -> Result<Encoded<ResizeWindowOutput>, ToolError> {
    let (window, _) = target::window(gate, &input.window).await?;
    arrange::resize_window(
        gate,
        own_input(json!({ "window_id": window.to_string(), "width": input.width, "height": input.height }))?,
    )
    .await?;
    typed(views::window(gate, &window.to_string()).await?)
}

pub async fn select_layout(
    gate: &ChangeGate<'_>,
    input: SelectLayoutInput,
) -> Result<Encoded<SelectLayoutOutput>, ToolError> {
    let (window, _) = target::window(gate, &input.window).await?;
    let applied = arrange::select_layout(
        gate,
        own_input(json!({ "window_id": window.to_string(), "layout": input.layout }))?,
    )
    .await?;
    typed(json!({ "window": window.to_string(), "layout": applied.layout }))
}

pub async fn select_pane(
    gate: &ChangeGate<'_>,
    input: SelectPaneInput,
) -> Result<Encoded<SelectPaneOutput>, ToolError> {
    let (pane, view) = target::pane(gate, &input.pane).await?;
    let chosen = match input.direction {
        None => pane.to_string(),
        Some(direction) => {
            let window = target::window_id(view["window_id"].as_str().unwrap_or_default())?;
            let mut layout = relative::Window::read(gate, window).await?;
            // The step is taken from the pane named, as tmux's select-pane -t does.
            for placed in &mut layout.panes {
                placed.active = placed.id == pane.to_string();
            }
            let step = match direction {
                SelectPaneInputDirectionVariant0::Up => PaneStep::Up,
                SelectPaneInputDirectionVariant0::Down => PaneStep::Down,
                SelectPaneInputDirectionVariant0::Left => PaneStep::Left,
                SelectPaneInputDirectionVariant0::Right => PaneStep::Right,
                SelectPaneInputDirectionVariant0::Last => PaneStep::Last,
                SelectPaneInputDirectionVariant0::Next => PaneStep::Next,
                SelectPaneInputDirectionVariant0::Previous => PaneStep::Previous,
            };
            layout
                .step(step)
                .map_or_else(|| pane.to_string(), |placed| placed.id.clone())
        }
    };
    arrange::select_pane(gate, own_input(json!({ "pane_id": chosen }))?).await?;
    typed(views::pane(gate, &chosen).await?)
}

pub async fn select_window(
    gate: &ChangeGate<'_>,
    input: SelectWindowInput,
) -> Result<Encoded<SelectWindowOutput>, ToolError> {
    let (window, view) = target::window(gate, &input.window).await?;
    let chosen = match input.direction {
        None => window.to_string(),
        Some(direction) => {
            let session = view["session_id"]
                .as_str()
                .and_then(|id| id.parse().ok())
                .ok_or_else(|| ToolError::internal("tmux listed a window without its session"))?;
            let step = match direction {
                SelectWindowInputDirectionVariant0::Next => WindowStep::Next,
                SelectWindowInputDirectionVariant0::Previous => WindowStep::Previous,
                SelectWindowInputDirectionVariant0::Last => WindowStep::Last,
            };
            relative::window_step(gate, session, step)
                .await?
                .ok_or_else(|| views::gone("window in that direction from", &window.to_string()))?
        }
    };
    arrange::select_window(gate, own_input(json!({ "window_id": chosen }))?).await?;
    typed(json!({ "windows": [views::window(gate, &chosen).await?] }))
}

pub async fn swap_pane(gate: &ChangeGate<'_>, input: SwapPaneInput) -> Result<Encoded<SwapPaneOutput>, ToolError> {
    let (source, _) = target::pane(gate, &input.source_pane).await?;
    let (destination, _) = target::pane(gate, &input.target_pane).await?;
    arrange::swap_pane(
        gate,
        own_input(json!({ "pane_id": source.to_string(), "with_pane_id": destination.to_string() }))?,
    )
    .await?;
    typed(views::pane(gate, &source.to_string()).await?)
}

pub async fn move_window(
    gate: &ChangeGate<'_>,
    input: MoveWindowInput,
) -> Result<Encoded<MoveWindowOutput>, ToolError> {
    let (window, _) = target::window(gate, &input.window).await?;
    let (session, _) = target::session(gate, &input.destination_session).await?;
    moves::move_window(
        gate,
        own_input(json!({
            "window_id": window.to_string(),
            "to_session_id": session.to_string(),
            "to_index": input.destination_index,
        }))?,
    )
    .await?;
    typed(views::window(gate, &window.to_string()).await?)
}
