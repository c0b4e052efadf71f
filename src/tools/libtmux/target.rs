//! The family's targets, made safe. `tmux-mcp`'s tools name a pane by id (`%3`), a window
//! by id (`@2`) and a session by id (`$1`) or exact name; paneward checks each id's form,
//! looks it up in a listing, and hands tmux only the id it found, so tmux's own target
//! matching (a prefix: `-t alp` reaches `alpha`) is never used. A malformed id is
//! refused as invalid input and an id that names nothing as gone, with the family's
//! words, so an agent branches on the same `kind`.

use serde_json::Value;

use crate::guard::ReadGate;
use crate::runtime::{ToolError, ToolErrorKind};
use crate::tmux::{PaneId, SessionId, WindowId};

use super::views;

/// The family's refusal of an argument it will not pass on (`invalid_input`).
pub fn bad_input(message: impl Into<String>) -> ToolError {
    ToolError::new(ToolErrorKind::InvalidArguments, message)
}

fn malformed(text: &str, what: &str, sigil: char) -> ToolError {
    bad_input(format!(
        "{text} is not a {what} id: expected {sigil} followed by digits, as in {sigil}1"
    ))
}

/// `text` as a pane id, or the family's refusal.
///
/// # Errors
/// Anything but `%` and digits.
pub fn pane_id(text: &str) -> Result<PaneId, ToolError> {
    text.parse().map_err(|_| malformed(text, "pane", '%'))
}

/// `text` as a window id, or the family's refusal.
///
/// # Errors
/// Anything but `@` and digits.
pub fn window_id(text: &str) -> Result<WindowId, ToolError> {
    text.parse().map_err(|_| malformed(text, "window", '@'))
}

/// The pane `text` names, with its view, read now.
///
/// # Errors
/// A malformed id, a pane that is not there, or tmux failing.
pub async fn pane(gate: &ReadGate<'_>, text: &str) -> Result<(PaneId, Value), ToolError> {
    let id = pane_id(text)?;
    Ok((id, views::pane(gate, text).await?))
}

/// The window `text` names, with its view, read now.
///
/// # Errors
/// A malformed id, a window that is not there, or tmux failing.
pub async fn window(gate: &ReadGate<'_>, text: &str) -> Result<(WindowId, Value), ToolError> {
    let id = window_id(text)?;
    Ok((id, views::window(gate, text).await?))
}

/// The session `text` names (its id, else exactly its name), with its view, read now.
///
/// # Errors
/// No session has that id or name (text starting with `$` that is neither is
/// malformed), or tmux failing.
pub async fn session(gate: &ReadGate<'_>, text: &str) -> Result<(SessionId, Value), ToolError> {
    let sessions = views::sessions(gate).await?;
    let by_id = text.parse::<SessionId>().ok();
    let found = sessions.into_iter().find(|view| match by_id {
        Some(_) => view["id"] == text,
        None => view["name"] == text,
    });
    match (found, by_id) {
        (Some(view), _) => {
            let id = view["id"]
                .as_str()
                .and_then(|id| id.parse().ok())
                .ok_or_else(|| ToolError::internal("tmux listed a session without an id"))?;
            Ok((id, view))
        }
        (None, Some(_)) => Err(views::gone("session", text)),
        (None, None) if text.starts_with('$') => Err(bad_input(format!(
            "{text} is not a session id or name: an id is $ followed by digits, as in $1"
        ))),
        (None, None) => Err(views::gone("session", text)),
    }
}
