//! Tool failures. A [`ToolError`] only ever becomes `isError: true` content with a
//! message the caller can act on: clients hide JSON-RPC error messages from models.

use std::fmt;

use crate::tmux::{ErrorKind, TmuxError};
use paneward_contract::Tier;

/// The broad reason a call failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolErrorKind {
    /// The arguments break the input schema or a rule of the tool: fix them.
    InvalidArguments,
    /// No tool of that name: list tools again.
    UnknownTool,
    /// The tool exists but is above the server's safety tier.
    NotAllowed,
    /// The pane, window or session named does not exist.
    NotFound,
    /// No tmux server answers on the configured socket, or tmux cannot run.
    TmuxUnavailable,
    /// tmux refused the command; its message is included.
    Refused,
    /// paneward's own safety check refused to type into a pane; the message names the
    /// pane and the rule, and says whether `force` would allow it.
    Blocked,
    /// A fault in paneward itself.
    Internal,
}

/// A failed tool call, rendered as the text of an `isError` result.
#[derive(Debug, Clone)]
pub struct ToolError {
    kind: ToolErrorKind,
    message: String,
}

/// The longest message a tool error carries; callers' input is never echoed at length.
const MESSAGE_LIMIT: usize = 1_000;

impl ToolError {
    pub fn new(kind: ToolErrorKind, message: impl Into<String>) -> Self {
        let mut message: String = message.into();
        if message.len() > MESSAGE_LIMIT {
            let mut end = MESSAGE_LIMIT;
            while !message.is_char_boundary(end) {
                end -= 1;
            }
            message.truncate(end);
            message.push('…');
        }
        Self { kind, message }
    }

    /// An argument at JSON pointer `pointer` breaks `rule`.
    pub fn invalid_argument(pointer: &str, rule: impl fmt::Display) -> Self {
        let at = if pointer.is_empty() {
            "(the arguments object)"
        } else {
            pointer
        };
        Self::new(
            ToolErrorKind::InvalidArguments,
            format!("invalid arguments: {at}: {rule}"),
        )
    }

    pub fn unknown_tool(name: &str) -> Self {
        let name: String = name.chars().take(80).collect();
        Self::new(
            ToolErrorKind::UnknownTool,
            format!("unknown tool `{name}`; call tools/list to see the tools this server offers"),
        )
    }

    pub fn not_allowed(name: &str, needed: Tier, current: Tier) -> Self {
        Self::new(
            ToolErrorKind::NotAllowed,
            format!(
                "tool `{name}` needs safety tier `{}`, but this server runs at `{}`; restart it with --safety {} to allow it",
                needed.as_str(),
                current.as_str(),
                needed.as_str()
            ),
        )
    }

    /// The safety check refused input; `reason` names the pane and the rule.
    pub fn blocked(reason: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::Blocked, reason)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(
            ToolErrorKind::Internal,
            format!("internal error in paneward: {}", message.into()),
        )
    }

    pub fn kind(&self) -> ToolErrorKind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

impl From<TmuxError> for ToolError {
    fn from(error: TmuxError) -> Self {
        let (kind, hint) = match error.kind() {
            ErrorKind::ObjectGone => (
                ToolErrorKind::NotFound,
                "; list panes (or windows, sessions) again for current ids",
            ),
            ErrorKind::ServerGone => (
                ToolErrorKind::TmuxUnavailable,
                "; start tmux on that socket, or restart paneward with the right --socket-name/--socket-path",
            ),
            ErrorKind::Transport => (ToolErrorKind::TmuxUnavailable, ""),
            ErrorKind::Timeout => (ToolErrorKind::TmuxUnavailable, "; try again"),
            ErrorKind::Refused => (ToolErrorKind::Refused, ""),
        };
        Self::new(kind, format!("{error}{hint}"))
    }
}
