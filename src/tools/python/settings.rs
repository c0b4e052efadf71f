//! libtmux-mcp's tools for options, environment and hooks, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.
//!
//! Options: Python's `scope`, `target` (a session *name*, a window id or a pane id)
//! and `global_` become paneward's explicit scope and target id, resolved by exact
//! match; no scope and no `global_` means tmux's current session or window, taken as
//! the server's first (libtmux falls back alike). A value comes back typed as libtmux
//! types it: `on`/`off` as booleans, digits as a number, an array option as its
//! items. paneward's `set_option` refuses what it refuses in the default profile
//! (hook names, `#(` in values, options whose value is a command).

use serde_json::Value;

use crate::generated::python::types::*;
use crate::generated::types as own;
use crate::guard::{ChangeGate, ReadGate};
use crate::runtime::error::short_echo;
use crate::runtime::ToolError;

use super::input::expected;
use super::target::{checked, session_id, upstream_error, Level, Server, Targeting};

/// Python's option scopes, one enum for both tools.
#[derive(Clone, Copy)]
enum PyScope {
    Server,
    Session,
    Window,
    Pane,
}

/// An option's place as paneward takes it: its scope's name and target id.
struct Place {
    scope: &'static str,
    target: Option<String>,
}

/// Resolves Python's `scope`, `target` and `global_` to paneward's scope and target id.
///
/// # Errors
/// A target without a scope (libtmux-mcp's text), or a target that names nothing.
async fn place(
    gate: &ReadGate<'_>,
    scope: Option<PyScope>,
    target: Option<&str>,
    global: bool,
) -> Result<Place, ToolError> {
    let Some(scope) = scope else {
        if target.is_some() {
            return Err(expected("scope is required when target is specified"));
        }
        return Ok(Place {
            scope: if global { "global" } else { "" },
            target: None,
        });
    };
    if global {
        return Ok(Place {
            scope: "global",
            target: None,
        });
    }
    let mut targeting = Targeting::default();
    match scope {
        PyScope::Server => {
            return Ok(Place {
                scope: "server",
                target: None,
            })
        }
        PyScope::Session => targeting.session_name = target,
        PyScope::Window => targeting.window_id = target,
        PyScope::Pane => targeting.pane_id = target,
    }
    let (scope, id) = match scope {
        PyScope::Session => ("session", session_id(gate, &targeting).await?),
        PyScope::Window => ("window", super::target::window_id(gate, &targeting).await?),
        _ => ("pane", super::target::pane_id(gate, &targeting).await?),
    };
    Ok(Place {
        scope,
        target: Some(id),
    })
}

/// A value as libtmux reads it from tmux: `on`/`off` as booleans, an integer as a
/// number, anything else as text.
fn typed_value(text: &str) -> Value {
    match text {
        "on" => Value::Bool(true),
        "off" => Value::Bool(false),
        _ => text
            .parse::<i64>()
            .ok()
            .filter(|_| !text.starts_with('+'))
            .map_or_else(|| Value::String(text.to_string()), Value::from),
    }
}

/// A generated enum or constrained string from its JSON text.
fn own_value<T: serde::de::DeserializeOwned>(field: &str, text: &str) -> Result<T, ToolError> {
    serde_json::from_value(Value::String(text.to_string()))
        .map_err(|_| ToolError::invalid_argument(field, format!("{text:?} is not accepted here")))
}

/// libtmux's `InvalidOption`, as libtmux-mcp reports tmux's refusal of a name.
fn invalid_option(name: &str) -> ToolError {
    let name = short_echo(name);
    upstream_error("InvalidOption", &format!("tmux error: invalid option: {name}"), None)
}

/// A refusal of paneward's `set_option` that libtmux-mcp reports as tmux's own: an
/// unknown name (`InvalidOption`) or a value tmux refused (`OptionError`).
fn set_failed(error: ToolError, option: &str) -> ToolError {
    let message = error.message();
    if message.contains("tmux has no option named") {
        return invalid_option(option);
    }
    match message
        .strip_prefix("tmux refused `")
        .and_then(|rest| rest.split_once("`: "))
    {
        Some((_, reason)) => upstream_error("OptionError", &format!("tmux error: {reason}"), None),
        None => error,
    }
}

/// Reads one option at `place` through paneward's `show_option`; `None` when tmux
/// has no option of that name.
async fn read_option(
    gate: &ReadGate<'_>,
    name: &str,
    place: &Place,
) -> Result<Option<own::ShowOptionOutput>, ToolError> {
    let input = own::ShowOptionInput {
        effective: Some(false),
        name: name.to_string(),
        scope: Some(own_value("/scope", place.scope)?),
        target: place.target.clone(),
    };
    match crate::tools::settings::show_option::show_option(gate, input).await {
        Ok(output) => Ok(Some(output)),
        Err(error) if error.message().contains("unknown option") || error.message().contains("no option") => Ok(None),
        Err(error) => Err(error),
    }
}

pub async fn show_option(gate: &ReadGate<'_>, input: ShowOptionInput) -> Result<ShowOptionOutput, ToolError> {
    checked(gate, &input)?;
    let ShowOptionInput {
        global,
        option,
        scope,
        target,
        ..
    } = input;
    let scope = scope.map(|scope| match scope {
        ShowOptionInputScopeVariant0::Server => PyScope::Server,
        ShowOptionInputScopeVariant0::Session => PyScope::Session,
        ShowOptionInputScopeVariant0::Window => PyScope::Window,
        ShowOptionInputScopeVariant0::Pane => PyScope::Pane,
    });
    let place = place(gate, scope, target.as_deref(), global).await?;
    let Some(read) = read_option(gate, &option, &place).await? else {
        return Err(invalid_option(&option));
    };
    let value = match (read.value, read.values) {
        (Some(text), _) => typed_value(&text),
        (None, Some(items)) => Value::Array(items.into_iter().map(|item| Value::String(item.value)).collect()),
        // tmux refuses to show a user option that is not set; libtmux passes that on.
        (None, None) if option.starts_with('@') => return Err(invalid_option(&option)),
        (None, None) => Value::Null,
    };
    Ok(ShowOptionOutput { option, value })
}

pub async fn set_option(gate: &ChangeGate<'_>, input: SetOptionInput) -> Result<SetOptionOutput, ToolError> {
    checked(gate, &input)?;
    let SetOptionInput {
        global,
        option,
        scope,
        target,
        value,
        ..
    } = input;
    let scope = scope.map(|scope| match scope {
        SetOptionInputScopeVariant0::Server => PyScope::Server,
        SetOptionInputScopeVariant0::Session => PyScope::Session,
        SetOptionInputScopeVariant0::Window => PyScope::Window,
        SetOptionInputScopeVariant0::Pane => PyScope::Pane,
    });
    let mut place = place(gate, scope, target.as_deref(), global).await?;
    if place.scope.is_empty() {
        // tmux's own choice: the level the option lives at, for the current (first)
        // session or window.
        let Some(read) = read_option(gate, &option, &place).await? else {
            return Err(invalid_option(&option));
        };
        let server = Server::read_for(gate, &Targeting::default(), Level::Window).await?;
        let first = server.window(&Targeting::default())?;
        place = match read.option_scope {
            own::ShowOptionOutputOptionScope::Server => Place {
                scope: "server",
                target: None,
            },
            own::ShowOptionOutputOptionScope::Session | own::ShowOptionOutputOptionScope::User => Place {
                scope: "session",
                target: Some(first.session_id.to_string()),
            },
            own::ShowOptionOutputOptionScope::Window => Place {
                scope: "window",
                target: Some(first.window_id.to_string()),
            },
        };
    }
    let own_input = own::SetOptionInput {
        append: None,
        name: own_value("/option", &option)?,
        scope: own_value("/scope", place.scope)?,
        target: place.target.as_deref().map(|t| own_value("/target", t)).transpose()?,
        unset: None,
        value: Some(own_value("/value", &value)?),
    };
    crate::tools::settings::set::set_option(gate, own_input)
        .await
        .map_err(|error| set_failed(error, &option))?;
    Ok(SetOptionOutput {
        option,
        status: "set".to_string(),
        value,
    })
}

/// Python's hook targeting as paneward's hook scope and target id: `global_` or the
/// server scope read the global hooks (tmux keeps none per server), a scope with a
/// target (a session *name*, window id or pane id) that object, one without its first.
///
/// # Errors
/// As [`place`].
async fn hook_place(
    gate: &ReadGate<'_>,
    scope: Option<PyScope>,
    target: Option<&str>,
    global: bool,
) -> Result<(own::ShowHooksInputScope, Option<String>), ToolError> {
    let global = global || matches!(scope, Some(PyScope::Server));
    let place = place(gate, scope, target, global).await?;
    Ok((own_value("/scope", place.scope)?, place.target))
}

/// paneward's hook listing as libtmux-mcp's entries, sorted by name then index.
fn entries<T>(hooks: Vec<own::ShowHooksOutputHooksItem>, entry: impl Fn(String, i64, String) -> T) -> Vec<T> {
    let mut hooks = hooks;
    hooks.sort_by(|a, b| (a.name.as_str(), a.index).cmp(&(b.name.as_str(), b.index)));
    hooks
        .into_iter()
        .map(|hook| entry(hook.name, hook.index, hook.command))
        .collect()
}

pub async fn show_hooks(gate: &ReadGate<'_>, input: ShowHooksInput) -> Result<ShowHooksOutput, ToolError> {
    checked(gate, &input)?;
    let ShowHooksInput {
        global, scope, target, ..
    } = input;
    let scope = scope.map(|scope| match scope {
        ShowHooksInputScopeVariant0::Server => PyScope::Server,
        ShowHooksInputScopeVariant0::Session => PyScope::Session,
        ShowHooksInputScopeVariant0::Window => PyScope::Window,
        ShowHooksInputScopeVariant0::Pane => PyScope::Pane,
    });
    let (scope, target) = hook_place(gate, scope, target.as_deref(), global).await?;
    let listed = crate::tools::settings::show_hooks::show_hooks(
        gate,
        own::ShowHooksInput {
            name: None,
            scope: Some(scope),
            target,
        },
    )
    .await?;
    Ok(ShowHooksOutput {
        entries: entries(listed.hooks, |hook_name, index, command| ShowHooksOutputEntriesItem {
            command,
            hook_name,
            index: Some(index),
        }),
    })
}

pub async fn show_hook(gate: &ReadGate<'_>, input: ShowHookInput) -> Result<ShowHookOutput, ToolError> {
    checked(gate, &input)?;
    let ShowHookInput {
        global,
        hook_name,
        scope,
        target,
        ..
    } = input;
    let scope = scope.map(|scope| match scope {
        ShowHookInputScopeVariant0::Server => PyScope::Server,
        ShowHookInputScopeVariant0::Session => PyScope::Session,
        ShowHookInputScopeVariant0::Window => PyScope::Window,
        ShowHookInputScopeVariant0::Pane => PyScope::Pane,
    });
    let (scope, target) = hook_place(gate, scope, target.as_deref(), global).await?;
    let listed = crate::tools::settings::show_hooks::show_hook(gate, hook_name.clone(), Some(scope), target)
        .await
        .map_err(|error| {
            if error.message().contains("tmux has no hook named") {
                invalid_option(&hook_name)
            } else {
                error
            }
        });
    // A hook of another level asked at this one is unset here, as tmux's show-hooks at
    // that level (and so libtmux-mcp) reports it: no entries.
    let listed = match listed {
        Err(error) if error.message().contains("which scope") => return Ok(ShowHookOutput { entries: Vec::new() }),
        other => other?,
    };
    Ok(ShowHookOutput {
        entries: entries(listed.hooks, |hook_name, index, command| ShowHookOutputEntriesItem {
            command,
            hook_name,
            index: Some(index),
        }),
    })
}

/// The session Python's `session_name` / `session_id` name, as its id; `None` when
/// neither is given (libtmux-mcp then works on tmux's global environment).
///
/// # Errors
/// A session that does not exist by that exact id or name.
async fn named_session(gate: &ReadGate<'_>, targeting: &Targeting<'_>) -> Result<Option<String>, ToolError> {
    if targeting.session_id.is_none() && targeting.session_name.is_none() {
        return Ok(None);
    }
    Ok(Some(session_id(gate, targeting).await?))
}

/// Values as libtmux reads them: text, or a variable marked removed as `-NAME: true`. Read only where paneward reveals environment values.
pub async fn show_environment(
    gate: &ReadGate<'_>,
    input: ShowEnvironmentInput,
) -> Result<ShowEnvironmentOutput, ToolError> {
    use crate::tools::settings::show_environment::{revealed_environment, EnvironmentOf};
    let session = named_session(gate, &checked(gate, &input)?).await?;
    let of = session.as_deref().map_or(EnvironmentOf::Global, EnvironmentOf::Session);
    let variables = revealed_environment(gate, of)
        .await?
        .into_iter()
        .map(|variable| match variable.value {
            Some(text) => (variable.name, ShowEnvironmentOutputVariablesValue::String(text)),
            None => (
                format!("-{}", variable.name),
                ShowEnvironmentOutputVariablesValue::Boolean(true),
            ),
        })
        .collect();
    Ok(ShowEnvironmentOutput { variables })
}

/// Through paneward's `set_environment`: a session's environment when one is named,
/// else the global one; the variables that steer every later program (PATH,
/// LD_PRELOAD, ...) stay refused, as Python has no `force`.
pub async fn set_environment(
    gate: &ChangeGate<'_>,
    input: SetEnvironmentInput,
) -> Result<SetEnvironmentOutput, ToolError> {
    let session = named_session(gate, &checked(gate, &input)?).await?;
    let SetEnvironmentInput { name, value, .. } = input;
    let own_input = own::SetEnvironmentInput {
        force: None,
        name: own_value("/name", &name)?,
        scope: if session.is_some() {
            own::SetEnvironmentInputScope::Session
        } else {
            own::SetEnvironmentInputScope::Global
        },
        session_id: session.as_deref().map(|id| own_value("/session_id", id)).transpose()?,
        unset: None,
        value: Some(own_value("/value", &value)?),
    };
    crate::tools::settings::set::set_environment(gate, own_input).await?;
    Ok(SetEnvironmentOutput {
        name,
        status: "set".to_string(),
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_typed_as_libtmux_types_them() {
        assert_eq!(typed_value("on"), Value::Bool(true));
        assert_eq!(typed_value("off"), Value::Bool(false));
        assert_eq!(typed_value("2000"), Value::from(2000));
        assert_eq!(typed_value("+1"), Value::from("+1"));
        assert_eq!(typed_value("bg=green"), Value::from("bg=green"));
    }
}
