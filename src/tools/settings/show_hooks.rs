//! `show_hooks`: the commands set on tmux hooks at one level.
//!
//! Hooks are options to tmux, with the same pitfalls as `show_option` (a name given to
//! `show-hooks` is expanded as a format and matched as a prefix), so levels are listed
//! whole and the name is matched here. The two global listings name every hook, set or
//! not, which tells an unknown name from an unset one and a session hook from a
//! window hook.

use crate::generated::types::{
    ShowHooksInput, ShowHooksInputScope, ShowHooksOutput, ShowHooksOutputHooksItem, ShowHooksOutputScope,
};
use crate::guard::ReadGate;
use crate::limits::{LISTED_MAX_ITEMS, OPTION_NAME_MAX_CHARS};
use crate::runtime::error::ToolError;
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::settings::show_option::{
    is_setting_name, level, level_sources, listing_command, Level, Listing, Scope, Source, Value,
};

impl From<ShowHooksInputScope> for Scope {
    fn from(scope: ShowHooksInputScope) -> Self {
        match scope {
            ShowHooksInputScope::X => Self::Default,
            ShowHooksInputScope::Global => Self::Global,
            ShowHooksInputScope::Server => Self::Server,
            ShowHooksInputScope::Session => Self::Session,
            ShowHooksInputScope::Window => Self::Window,
            ShowHooksInputScope::Pane => Self::Pane,
        }
    }
}

/// The scope as the reply echoes it; tmux has no server hooks, refused before.
fn reply_scope(scope: Scope) -> Result<ShowHooksOutputScope, ToolError> {
    Ok(match scope {
        Scope::Default => ShowHooksOutputScope::X,
        Scope::Global => ShowHooksOutputScope::Global,
        Scope::Session => ShowHooksOutputScope::Session,
        Scope::Window => ShowHooksOutputScope::Window,
        Scope::Pane => ShowHooksOutputScope::Pane,
        Scope::Server => return Err(ToolError::internal("a server scope reached the hooks reply")),
    })
}

/// The levels hooks live at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kept {
    Session,
    Window,
}

pub async fn show_hooks(gate: &ReadGate<'_>, input: ShowHooksInput) -> Result<ShowHooksOutput, ToolError> {
    let ShowHooksInput {
        name: wanted,
        scope,
        target,
    } = input;
    if let Some(name) = &wanted {
        if !is_setting_name(name, false) {
            return Err(ToolError::invalid_argument(
                "/name",
                format!("must be an exact hook name such as after-new-window or pane-died: lowercase letters, digits and - (at most {OPTION_NAME_MAX_CHARS} characters)"),
            ));
        }
    }
    let scope = scope.map_or(Scope::Default, Scope::from);
    if scope == Scope::Server {
        return Err(ToolError::invalid_argument(
            "/scope",
            "tmux has no server-level hooks; use global, or session, window or pane with a target",
        ));
    }
    let level = level(scope, target.as_deref())?;
    // The two global listings, then the level's own, first (a pane's window comes
    // second and is not read).
    let commands: Vec<ReadCommand> = [Source::GlobalSession, Source::GlobalWindow]
        .iter()
        .chain(level_sources(&level))
        .map(|source| listing_command(ReadVerb::ShowHooks, *source, &level))
        .collect();
    let listings: Vec<Listing> = gate
        .run_all(&commands)
        .await?
        .iter()
        .map(|output| Listing::parse(&String::from_utf8_lossy(output), true))
        .collect();
    let [global_session, global_window, rest @ ..] = listings.as_slice() else {
        return Err(ToolError::internal("tmux returned the wrong number of outputs"));
    };

    let kept = match wanted.as_deref() {
        None => None,
        Some(name) if global_window.get(name).is_some() => Some(Kept::Window),
        Some(name) if global_session.get(name).is_some() => Some(Kept::Session),
        Some(name) => {
            return Err(ToolError::invalid_argument(
                "/name",
                format!("tmux has no hook named {name:?}; names are exact (no prefixes)"),
            ))
        }
    };
    let wrong = |asked: &str, kept: Kept| {
        let (noun, scopes) = match kept {
            Kept::Session => ("session", "session, global or \"\""),
            Kept::Window => ("window", "window, pane, global or \"\""),
        };
        ToolError::invalid_argument(
            "/scope",
            format!(
                "{} is a {noun} hook, which scope {asked} cannot read; use scope {scopes}",
                wanted.as_deref().unwrap_or_default()
            ),
        )
    };
    let sources: Vec<&Listing> = match (&level, kept) {
        (Level::Global | Level::Server, None) => vec![global_session, global_window],
        (Level::Global | Level::Server, Some(Kept::Session)) => vec![global_session],
        (Level::Global | Level::Server, Some(Kept::Window)) => vec![global_window],
        (Level::Session(_), Some(Kept::Window)) => return Err(wrong("session", Kept::Window)),
        (Level::Window(_) | Level::Pane(_), Some(Kept::Session)) => return Err(wrong(scope.as_str(), Kept::Session)),
        // Default: the session's hooks, or the level a named hook is kept at.
        (Level::Default(_), Some(Kept::Window)) => rest.get(1).into_iter().collect(),
        _ => rest.first().into_iter().collect(),
    };
    let mut hooks = Vec::new();
    for source in sources {
        for (name, value) in source.iter() {
            if wanted.as_deref().is_some_and(|wanted| wanted != name) {
                continue;
            }
            if let Value::Array(items) = value {
                hooks.extend(items.iter().map(|(index, command)| ShowHooksOutputHooksItem {
                    name: name.to_string(),
                    index: *index,
                    command: command.clone(),
                }));
            }
        }
    }
    hooks.truncate(LISTED_MAX_ITEMS);
    Ok(ShowHooksOutput {
        scope: reply_scope(scope)?,
        target,
        name: wanted,
        hooks,
    })
}

/// One hook, by its exact name, at one level: [`show_hooks`] reading that name alone
/// (refused by name when tmux has no such hook, or when the level cannot hold it).
///
/// # Errors
/// As [`show_hooks`].
pub async fn show_hook(
    gate: &ReadGate<'_>,
    name: String,
    scope: Option<ShowHooksInputScope>,
    target: Option<String>,
) -> Result<ShowHooksOutput, ToolError> {
    show_hooks(
        gate,
        ShowHooksInput {
            name: Some(name),
            scope,
            target,
        },
    )
    .await
}
