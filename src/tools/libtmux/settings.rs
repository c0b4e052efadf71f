//! The family's option, hook and environment tools under `--profile libtmux`: reads go
//! through paneward's own `show_option` and `show_hooks` (option names read as data,
//! never as formats), the environment through paneward's own reading with values shown
//! only where paneward runs with `--reveal-environment`, and the three settings the
//! family names (`mouse`, `history-limit`, `synchronize-panes`) through paneward's own
//! `set_option`, so its refusals of command-valued options still stand.

use serde_json::{json, Value};

use crate::generated::libtmux::types::*;
use crate::guard::{ChangeGate, EndGate, ReadGate};
use crate::runtime::{Encoded, ToolError};
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::settings::{set, show_hooks as own_hooks, show_option as own_option};

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
        None | Some(ShowOptionInputScopeVariant0::GlobalSession | ShowOptionInputScopeVariant0::GlobalWindow) => "global",
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
pub async fn show_environment(gate: &ReadGate<'_>, input: ShowEnvironmentInput) -> Result<Encoded<ShowEnvironmentOutput>, ToolError> {
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

/// Sets option `name` to `value` at a session (given) or globally, through paneward's
/// own `set_option`; answers the family's `{name, target, value}`.
async fn set_session_or_global(
    gate: &ChangeGate<'_>,
    name: &str,
    value: String,
    session: Option<&str>,
) -> Result<Value, ToolError> {
    let target = match session {
        Some(text) => Some(target::session(gate, text).await?.0.to_string()),
        None => None,
    };
    let scope = if target.is_some() { "session" } else { "global" };
    set::set_option(
        gate,
        own_input(json!({ "name": name, "scope": scope, "target": target, "value": value }))?,
    )
    .await?;
    Ok(json!({ "name": name, "target": session, "value": value }))
}

fn on_off(enabled: bool) -> String {
    if enabled { "on" } else { "off" }.to_string()
}

pub async fn set_mouse_enabled(gate: &ChangeGate<'_>, input: SetMouseEnabledInput) -> Result<Encoded<SetMouseEnabledOutput>, ToolError> {
    typed(set_session_or_global(gate, "mouse", on_off(input.enabled), input.session.as_deref()).await?)
}

/// Destructive, as in the family's teardown toolset: a lower limit drops scrollback.
pub async fn set_history_limit(gate: &EndGate<'_>, input: SetHistoryLimitInput) -> Result<Encoded<SetHistoryLimitOutput>, ToolError> {
    typed(set_session_or_global(gate, "history-limit", input.limit.to_string(), input.session.as_deref()).await?)
}

pub async fn set_synchronize_panes(
    gate: &ChangeGate<'_>,
    input: SetSynchronizePanesInput,
) -> Result<Encoded<SetSynchronizePanesOutput>, ToolError> {
    let (window, _) = target::window(gate, &input.window).await?;
    let value = on_off(input.enabled);
    set::set_option(
        gate,
        own_input(json!({
            "name": "synchronize-panes", "scope": "window", "target": window.to_string(), "value": value,
        }))?,
    )
    .await?;
    typed(json!({ "name": "synchronize-panes", "target": window.to_string(), "value": value }))
}
