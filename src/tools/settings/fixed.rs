//! `set_history_limit`, `set_mouse_enabled` and `set_synchronize_panes`: the three
//! options the libtmux family gives tools of their own, each set at one level (a
//! session or the global default; a window), with the value that level held before.
//!
//! The option names and levels are constants here, never the caller's, so none of
//! `set_option`'s checks on names and values apply: the values are a number or a flag.

use crate::generated::types::{
    SetHistoryLimitInput, SetHistoryLimitOutput, SetHistoryLimitOutputAppliesTo, SetMouseEnabledInput,
    SetMouseEnabledOutput, SetSynchronizePanesInput, SetSynchronizePanesOutput,
};
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb, EndGate};
use crate::limits::HISTORY_LIMIT_MAX_LINES;
use crate::runtime::error::ToolError;
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::args;

/// Where an option is set: the `set-option`/`show-options` flags that name the level.
struct Level(Vec<String>);

impl Level {
    /// A session's own level, or the global default of every session.
    fn session(field: &str, session_id: Option<&str>) -> Result<Self, ToolError> {
        Ok(Self(match session_id {
            Some(text) => vec!["-t".into(), args::session_id(field, text)?.to_string()],
            None => vec!["-g".into()],
        }))
    }

    /// A window's own level.
    fn window(field: &str, window_id: &str) -> Result<Self, ToolError> {
        Ok(Self(vec![
            "-w".into(),
            "-t".into(),
            args::window_id(field, window_id)?.to_string(),
        ]))
    }
}

/// The value `option` holds at `level` itself (without `-A`, an inherited value is not
/// shown), or `None` when that level leaves it to inheritance.
async fn own_value(gate: &ChangeGate<'_>, level: &Level, option: &str) -> Result<Option<String>, ToolError> {
    let mut read = ReadCommand::new(ReadVerb::ShowOptions).arg("-qv");
    for flag in &level.0 {
        read = read.arg(flag.clone());
    }
    let output = gate.run(read.arg(option)).await?;
    let value = String::from_utf8_lossy(&output).trim().to_string();
    Ok((!value.is_empty()).then_some(value))
}

/// Sets `option` to `value` at `level`, returning the value it held there before.
async fn set(gate: &ChangeGate<'_>, level: &Level, option: &str, value: &str) -> Result<Option<String>, ToolError> {
    let previous = own_value(gate, level, option).await?;
    let mut command = ChangeCommand::new(ChangeVerb::SetOption);
    for flag in &level.0 {
        command = command.arg(flag.clone());
    }
    gate.change_all(&[command.arg(option).arg(value)]).await?;
    Ok(previous)
}

fn on_off(enabled: bool) -> &'static str {
    if enabled {
        "on"
    } else {
        "off"
    }
}

/// A flag option as tmux prints it.
fn flag(value: Option<String>) -> Option<bool> {
    value.map(|value| value == "on")
}

/// Sets `history-limit` on a session or globally; panes created afterwards take it.
///
/// # Errors
/// A limit out of range, a missing session, or tmux failing.
pub async fn set_history_limit(
    gate: &EndGate<'_>,
    input: SetHistoryLimitInput,
) -> Result<SetHistoryLimitOutput, ToolError> {
    let SetHistoryLimitInput { limit, session_id } = input;
    let limit = u32::try_from(limit)
        .ok()
        .filter(|lines| *lines <= HISTORY_LIMIT_MAX_LINES)
        .ok_or_else(|| {
            ToolError::invalid_argument(
                "/limit",
                format!("must be a number of lines from 0 to {HISTORY_LIMIT_MAX_LINES}"),
            )
        })?;
    let session_id = session_id.map(|id| id.to_string());
    let level = Level::session("/session_id", session_id.as_deref())?;
    let previous = set(gate, &level, "history-limit", &limit.to_string()).await?;
    Ok(SetHistoryLimitOutput {
        name: "history-limit".into(),
        session_id,
        value: u64::from(limit),
        previous: previous.and_then(|value| value.parse().ok()),
        applies_to: SetHistoryLimitOutputAppliesTo::NewPanes,
    })
}

/// Sets `mouse` on a session or globally.
///
/// # Errors
/// A missing session, or tmux failing.
pub async fn set_mouse_enabled(
    gate: &ChangeGate<'_>,
    input: SetMouseEnabledInput,
) -> Result<SetMouseEnabledOutput, ToolError> {
    let SetMouseEnabledInput { enabled, session_id } = input;
    let session_id = session_id.map(|id| id.to_string());
    let level = Level::session("/session_id", session_id.as_deref())?;
    let previous = set(gate, &level, "mouse", on_off(enabled)).await?;
    Ok(SetMouseEnabledOutput {
        name: "mouse".into(),
        session_id,
        value: enabled,
        previous: flag(previous),
    })
}

/// Sets `synchronize-panes` on a window.
///
/// # Errors
/// A missing window, or tmux failing.
pub async fn set_synchronize_panes(
    gate: &ChangeGate<'_>,
    input: SetSynchronizePanesInput,
) -> Result<SetSynchronizePanesOutput, ToolError> {
    let SetSynchronizePanesInput { enabled, window_id } = input;
    let level = Level::window("/window_id", &window_id)?;
    let previous = set(gate, &level, "synchronize-panes", on_off(enabled)).await?;
    Ok(SetSynchronizePanesOutput {
        name: "synchronize-panes".into(),
        window_id: window_id.to_string(),
        value: enabled,
        previous: flag(previous),
    })
}
