//! The family's option, hook and environment tools under `--profile libtmux`: reads go
//! through paneward's own `show_option` and `show_hooks` (option names read as data,
//! never as formats), the environment through paneward's own reading with values shown
//! only where paneward runs with `--reveal-environment`, and the three settings the
//! family names (`mouse`, `history-limit`, `synchronize-panes`) through paneward's own
//! tools of those names.

use serde_json::{json, Value};

use crate::generated::libtmux::types::*;
use crate::guard::{ChangeGate, EndGate, ReadGate};
use crate::runtime::{Encoded, ToolError};
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::settings::{fixed, show_hooks as own_hooks, show_option as own_option};

use super::target::{self, bad_input};
use super::views::typed;
use super::workspace::own_input;

/// The id of the object an option or hook of `scope` lives on, from the family's
/// `target` (required for session, window and pane scopes, refused for the others).
async fn scoped_target(gate: &ReadGate<'_>, scope: &str, target: Option<&str>) -> Result<Option<String>, ToolError> {
    match (scope, target) {
        ("session", Some(text)) => Ok(Some(target::session(gate, text).await?.0.to_string())),
        ("window", Some(text)) => Ok(Some(target::window(gate, text).await?.0.to_string())),
        ("pane", Some(text)) => Ok(Some(target::pane(gate, text).await?.0.to_string())),
        ("session" | "window" | "pane", None) => Err(bad_input(format!("scope {scope} needs a target"))),
        (_, Some(_)) => Err(bad_input(format!("scope {scope} takes no target"))),
        (_, None) => Ok(None),
    }
}

pub async fn show_option(gate: &ReadGate<'_>, input: ShowOptionInput) -> Result<Encoded<ShowOptionOutput>, ToolError> {
    let scope = match input.scope {
        None | Some(ShowOptionInputScopeVariant0::GlobalSession | ShowOptionInputScopeVariant0::GlobalWindow) => {
            "global"
        }
        Some(ShowOptionInputScopeVariant0::Server) => "server",
        Some(ShowOptionInputScopeVariant0::Session) => "session",
        Some(ShowOptionInputScopeVariant0::Window) => "window",
        Some(ShowOptionInputScopeVariant0::Pane) => "pane",
    };
    let target = scoped_target(gate, scope, input.target.as_deref()).await?;
    let read = own_option::show_option(
        gate,
        own_input(json!({ "name": input.name, "scope": scope, "target": target }))?,
    )
    .await?;
    typed(json!({ "name": input.name, "value": read.value }))
}

pub async fn show_hooks(gate: &ReadGate<'_>, input: ShowHooksInput) -> Result<Encoded<ShowHooksOutput>, ToolError> {
    let (scope, target) = match input.session.as_deref() {
        Some(text) => ("session", Some(target::session(gate, text).await?.0.to_string())),
        None => ("global", None),
    };
    let read = own_hooks::show_hooks(gate, own_input(json!({ "scope": scope, "target": target }))?).await?;
    let hooks: Vec<Value> = read
        .hooks
        .iter()
        .map(|hook| json!({ "name": hook.name, "index": hook.index, "command": hook.command }))
        .collect();
    typed(json!({ "hooks": hooks }))
}

/// A session's environment (or the global one): each variable's name and whether it is
/// set or removed; its value only where paneward runs with `--reveal-environment`.
pub async fn show_environment(
    gate: &ReadGate<'_>,
    input: ShowEnvironmentInput,
) -> Result<Encoded<ShowEnvironmentOutput>, ToolError> {
    let session = match input.session.as_deref() {
        Some(text) => Some(target::session(gate, text).await?.0.to_string()),
        None => None,
    };
    let list = match &session {
        Some(id) => ReadCommand::new(ReadVerb::ShowEnvironment).arg("-t").arg(id.clone()),
        None => ReadCommand::new(ReadVerb::ShowEnvironment).arg("-g"),
    };
    let output = gate.run(list).await?;
    let reveal = gate.state().settings.reveal_environment;
    let entries: Vec<Value> = String::from_utf8_lossy(&output)
        .lines()
        .filter(|line| !line.is_empty())
        .map(|line| match line.strip_prefix('-') {
            Some(name) => json!({ "name": name, "state": "removed", "value": null, "withheld": false }),
            None => {
                let (name, value) = line.split_once('=').unwrap_or((line, ""));
                json!({
                    "name": name,
                    "state": "set",
                    "value": if reveal { json!(value) } else { Value::Null },
                    "withheld": !reveal,
                })
            }
        })
        .collect();
    // The session is answered as the caller named it, as the family does.
    typed(json!({ "session": input.session, "entries": entries }))
}

/// The id of the session the family's optional `session` names (its id or exact name);
/// none for the global value.
async fn session_id(gate: &ReadGate<'_>, session: Option<&str>) -> Result<Option<String>, ToolError> {
    Ok(match session {
        Some(text) => Some(target::session(gate, text).await?.0.to_string()),
        None => None,
    })
}

fn on_off(enabled: bool) -> &'static str {
    if enabled {
        "on"
    } else {
        "off"
    }
}

/// paneward's own `set_mouse_enabled`, on a session or globally.
pub async fn set_mouse_enabled(
    gate: &ChangeGate<'_>,
    input: SetMouseEnabledInput,
) -> Result<Encoded<SetMouseEnabledOutput>, ToolError> {
    let session = session_id(gate, input.session.as_deref()).await?;
    fixed::set_mouse_enabled(
        gate,
        own_input(json!({ "enabled": input.enabled, "session_id": session }))?,
    )
    .await?;
    typed(json!({ "name": "mouse", "target": input.session, "value": on_off(input.enabled) }))
}

/// paneward's own `set_history_limit` (destructive, as in the family's teardown
/// toolset: a lower limit drops scrollback), on a session or globally.
pub async fn set_history_limit(
    gate: &EndGate<'_>,
    input: SetHistoryLimitInput,
) -> Result<Encoded<SetHistoryLimitOutput>, ToolError> {
    let session = session_id(gate, input.session.as_deref()).await?;
    let set =
        fixed::set_history_limit(gate, own_input(json!({ "limit": input.limit, "session_id": session }))?).await?;
    typed(json!({ "name": "history-limit", "target": input.session, "value": set.value.to_string() }))
}

/// paneward's own `set_synchronize_panes` on a window.
pub async fn set_synchronize_panes(
    gate: &ChangeGate<'_>,
    input: SetSynchronizePanesInput,
) -> Result<Encoded<SetSynchronizePanesOutput>, ToolError> {
    let (window, _) = target::window(gate, &input.window).await?;
    fixed::set_synchronize_panes(
        gate,
        own_input(json!({ "enabled": input.enabled, "window_id": window.to_string() }))?,
    )
    .await?;
    typed(json!({ "name": "synchronize-panes", "target": window.to_string(), "value": on_off(input.enabled) }))
}
