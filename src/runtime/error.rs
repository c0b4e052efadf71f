//! Tool failures. A [`ToolError`] only ever becomes `isError: true` content with a
//! message the caller can act on (clients hide JSON-RPC error messages from models),
//! and `_meta["paneward/error"] = {kind, retrySafe}` for programs: the kind in
//! camelCase ([`ToolErrorKind::as_str`]) and whether sending the same call again is
//! safe ([`ToolError::retry_safe`]).

use crate::limits::{ECHO_MAX_CHARS, ERROR_MESSAGE_MAX_BYTES};
use std::fmt;

use paneward_contract::Tier;

/// A caller's text as a message repeats it: its first [`ECHO_MAX_CHARS`] characters,
/// with `…` when more were cut. Every echo of caller text cuts it this way.
pub fn short_echo(text: &str) -> String {
    paneward_contract::excerpt(text, ECHO_MAX_CHARS)
}

/// A caller's text for an error message: quoted, escaped, and cut as [`short_echo`] cuts it.
pub fn echo(text: &str) -> String {
    format!("\"{}\"", short_echo(text).escape_debug())
}

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
    /// tmux did not answer in time; a read changed nothing.
    Timeout,
    /// tmux's answer could not be read (malformed, or past the output cap); a read
    /// changed nothing.
    BadReply,
    /// A change was sent and its answer was lost (the connection closed, or tmux did
    /// not answer in time): it may already have run. Read the state before retrying.
    MayHaveRun,
    /// The client cancelled the call before it started, so nothing ran.
    Cancelled,
    /// A fault in paneward itself.
    Internal,
}

impl ToolErrorKind {
    /// The kind as `_meta["paneward/error"].kind` names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidArguments => "invalidArguments",
            Self::UnknownTool => "unknownTool",
            Self::NotAllowed => "notAllowed",
            Self::NotFound => "notFound",
            Self::TmuxUnavailable => "tmuxUnavailable",
            Self::Refused => "refused",
            Self::Blocked => "blocked",
            Self::Timeout => "timeout",
            Self::BadReply => "badReply",
            Self::MayHaveRun => "mayHaveRun",
            Self::Cancelled => "cancelled",
            Self::Internal => "internal",
        }
    }
}

/// A failed tool call, rendered as the text of an `isError` result.
#[derive(Debug, Clone)]
pub struct ToolError {
    kind: ToolErrorKind,
    message: String,
    /// How a profile that mirrors another server names this failure (libtmux-mcp's
    /// `error_type`, `expected`, `suggestion`); None for paneward's own errors.
    upstream: Option<UpstreamError>,
}

/// A failure as libtmux-mcp reports it in `_meta`: the exception class it raises
/// (`error_type`), whether the agent can correct it (`expected`), and the recovery hint
/// appended to the text (`suggestion`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpstreamError {
    pub error_type: &'static str,
    pub expected: bool,
    pub suggestion: Option<String>,
}

impl ToolError {
    pub fn new(kind: ToolErrorKind, message: impl Into<String>) -> Self {
        let mut message: String = message.into();
        if message.len() > ERROR_MESSAGE_MAX_BYTES {
            let mut end = ERROR_MESSAGE_MAX_BYTES;
            while !message.is_char_boundary(end) {
                end -= 1;
            }
            message.truncate(end);
            message.push('…');
        }
        Self {
            kind,
            message,
            upstream: None,
        }
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
        let name = short_echo(name);
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

    /// A call whose `escalation` argument value needs a tier above `current`.
    pub fn escalation_not_allowed(name: &str, escalation: &paneward_contract::Escalation, current: Tier) -> Self {
        let needed = escalation.tier.as_str();
        Self::new(
            ToolErrorKind::NotAllowed,
            format!(
                "tool `{name}` with `{}: {}` needs safety tier `{needed}`, but this server runs at `{}`; leave the argument out, or restart the server with --safety {needed}; nothing changed",
                escalation.argument,
                escalation.equals,
                current.as_str(),
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

    /// Whether sending the same call again is safe: nothing of it ran, and the same
    /// call can succeed later (no server yet, a read that timed out, a cancelled call).
    /// An argument, tier, target or rule problem fails the same way again; a change
    /// whose answer was lost may already have run.
    pub fn retry_safe(&self) -> bool {
        matches!(
            self.kind,
            ToolErrorKind::TmuxUnavailable
                | ToolErrorKind::Timeout
                | ToolErrorKind::BadReply
                | ToolErrorKind::Cancelled
        )
    }

    /// The error of a call that changes tmux: a timeout or an unreadable answer there
    /// means the change may already have run, and the message says so.
    #[must_use]
    pub fn for_a_change(self) -> Self {
        if matches!(self.kind, ToolErrorKind::Timeout | ToolErrorKind::BadReply) {
            return Self::new(
                ToolErrorKind::MayHaveRun,
                format!(
                    "{}; the change may already have run: read the state before sending it again",
                    self.message
                ),
            );
        }
        self
    }

    /// The call was cancelled before it started.
    pub fn cancelled() -> Self {
        Self::new(
            ToolErrorKind::Cancelled,
            "cancelled by the client before it started; nothing ran",
        )
    }

    /// `_meta` of the error result: `{"paneward/error": {"kind", "retrySafe"}}`.
    pub fn meta(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut meta = serde_json::Map::new();
        meta.insert(
            "paneward/error".into(),
            serde_json::json!({"kind": self.kind.as_str(), "retrySafe": self.retry_safe()}),
        );
        meta
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error, of another kind.
    #[must_use]
    pub fn with_kind(mut self, kind: ToolErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// This error as a profile's upstream names it (see [`UpstreamError`]).
    #[must_use]
    pub fn with_upstream(mut self, upstream: UpstreamError) -> Self {
        self.upstream = Some(upstream);
        self
    }

    /// How the upstream a profile mirrors names this error: set by the profile's
    /// handler, or derived from the kind (an argument or target problem is one the
    /// agent can correct; anything else is the operator's or ours).
    pub fn upstream(&self) -> UpstreamError {
        if let Some(upstream) = &self.upstream {
            return upstream.clone();
        }
        let expected = matches!(
            self.kind,
            ToolErrorKind::InvalidArguments
                | ToolErrorKind::UnknownTool
                | ToolErrorKind::NotAllowed
                | ToolErrorKind::NotFound
                | ToolErrorKind::Refused
                | ToolErrorKind::Blocked
        );
        UpstreamError {
            error_type: if expected { "ExpectedToolError" } else { "ToolError" },
            expected,
            suggestion: None,
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_echo_is_cut_at_the_limit_and_says_so() {
        let long = "é".repeat(ECHO_MAX_CHARS + 1);
        let echoed = short_echo(&long);
        assert_eq!(echoed.chars().count(), ECHO_MAX_CHARS + 1);
        assert!(echoed.ends_with('…'), "{echoed}");
        assert_eq!(short_echo("short"), "short");
        let unknown = ToolError::unknown_tool(&long);
        assert!(unknown.message().contains(&echoed), "{}", unknown.message());
    }

    #[test]
    fn the_meta_names_the_kind_and_the_retry_safety() {
        let meta = ToolError::blocked("pane %1 is the caller pane").meta();
        assert_eq!(
            serde_json::Value::Object(meta),
            serde_json::json!({"paneward/error": {"kind": "blocked", "retrySafe": false}})
        );
    }
}
