//! What went wrong talking to tmux, in two layers: [`TmuxError`] carries the details,
//! [`ErrorKind`] is the small set of cases a caller decides on.

use std::time::Duration;

/// The cases a caller acts on; each doc says what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// No tmux server answers on the configured socket: start one, or check the socket.
    ServerGone,
    /// The pane, window or session named does not exist (any more): list again.
    ObjectGone,
    /// tmux understood the command and refused it; its own message says why.
    Refused,
    /// tmux did not answer in time: retry, the server may be busy.
    Timeout,
    /// tmux could not be started or its reply could not be read: check the binary.
    Transport,
}

/// A failed tmux command.
#[derive(Debug, thiserror::Error)]
pub enum TmuxError {
    #[error("cannot run tmux ({binary}): {source}")]
    Spawn { binary: String, source: std::io::Error },
    #[error("no tmux server is running on {socket}: {message}")]
    ServerGone { socket: String, message: String },
    #[error("{message}")]
    ObjectGone { message: String },
    #[error("tmux refused `{command}`: {message}")]
    Refused { command: String, message: String },
    #[error("tmux did not answer `{command}` within {after:?}")]
    Timeout { command: String, after: Duration },
    #[error("unexpected reply from tmux to `{command}`: {detail}")]
    Protocol { command: String, detail: String },
    #[error("the connection to tmux closed while `{command}` was running; it may or may not have taken effect")]
    Lost { command: String },
}

impl TmuxError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::Spawn { .. } | Self::Protocol { .. } | Self::Lost { .. } => ErrorKind::Transport,
            Self::ServerGone { .. } => ErrorKind::ServerGone,
            Self::ObjectGone { .. } => ErrorKind::ObjectGone,
            Self::Refused { .. } => ErrorKind::Refused,
            Self::Timeout { .. } => ErrorKind::Timeout,
        }
    }

    /// Whether the object named is gone (as opposed to tmux itself failing).
    pub fn is_object_gone(&self) -> bool {
        self.kind() == ErrorKind::ObjectGone
    }

    /// Whether tmux refused a session name because another session has it
    /// (`new-session -s`, `rename-session`).
    pub fn is_duplicate_session(&self) -> bool {
        self.refusal()
            .is_some_and(|message| message.starts_with(DUPLICATE_SESSION))
    }

    /// Whether tmux refused `new-window -t S:N` because a window holds index N.
    pub fn is_index_in_use(&self) -> bool {
        let (before, after) = INDEX_IN_USE;
        self.refusal()
            .is_some_and(|message| message.contains(before) && message.ends_with(after))
    }

    /// tmux's own message, when tmux refused the command.
    fn refusal(&self) -> Option<&str> {
        match self {
            Self::Refused { message, .. } => Some(message),
            _ => None,
        }
    }
}

/// tmux 3.x wordings that mean the server is not there. Longer prefixes first.
const SERVER_GONE: [&str; 4] = [
    "no server running on ",
    "error connecting to ",
    "server exited unexpectedly",
    "lost server",
];

/// tmux 3.x wordings that mean the target does not exist. The `no such` forms come
/// from commands that look their target up leniently (show-options, show-environment).
const OBJECT_GONE: [&str; 7] = [
    "can't find pane",
    "can't find window",
    "can't find session",
    "can't find client",
    "no such pane",
    "no such window",
    "no such session",
];

/// tmux 3.x's refusal of a session name in use: `duplicate session: NAME`.
const DUPLICATE_SESSION: &str = "duplicate session: ";

/// tmux 3.x's refusal of a window index in use, around the index:
/// `create window failed: index N in use`.
const INDEX_IN_USE: (&str, &str) = ("index ", " in use");

/// Sorts tmux's stderr for `command` into an error; `socket` is how we name the server.
pub fn classify(command: &str, socket: &str, stderr: &str) -> TmuxError {
    let message = first_line(stderr);
    if SERVER_GONE.iter().any(|prefix| message.starts_with(prefix)) {
        return TmuxError::ServerGone {
            socket: socket.to_string(),
            message,
        };
    }
    if OBJECT_GONE.iter().any(|prefix| message.starts_with(prefix)) {
        return TmuxError::ObjectGone { message };
    }
    let message = if message.is_empty() {
        "it exited with an error and said nothing".to_string()
    } else {
        message
    };
    TmuxError::Refused {
        command: command.to_string(),
        message,
    }
}

/// tmux prints one line per error; keep the first, bounded.
fn first_line(stderr: &str) -> String {
    let line = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    paneward_contract::excerpt(line, crate::limits::TMUX_STDERR_MAX_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_socket_is_a_server_that_is_gone() {
        let error = classify(
            "list-panes",
            "-L x",
            "error connecting to /tmp/tmux-0/x (No such file or directory)\n",
        );
        assert_eq!(error.kind(), ErrorKind::ServerGone);
        let error = classify("list-panes", "-L x", "no server running on /tmp/tmux-0/x\n");
        assert_eq!(error.kind(), ErrorKind::ServerGone);
    }

    #[test]
    fn a_missing_pane_is_an_object_that_is_gone_with_tmuxs_words() {
        let error = classify("capture-pane", "-L x", "can't find pane: %99\n");
        assert!(error.is_object_gone());
        assert_eq!(error.to_string(), "can't find pane: %99");
        let error = classify("show-environment", "-L x", "no such session: $9\n");
        assert!(error.is_object_gone());
    }

    #[test]
    fn a_name_or_index_in_use_is_told_from_other_refusals_by_tmuxs_words() {
        let duplicate = classify("new-session", "-L x", "duplicate session: work\n");
        assert!(duplicate.is_duplicate_session());
        assert!(!duplicate.is_index_in_use());
        let taken = classify("new-window", "-L x", "create window failed: index 4 in use\n");
        assert!(taken.is_index_in_use());
        assert!(!taken.is_duplicate_session());
        let other = classify("new-session", "-L x", "bad session name: duplicate session: x\n");
        assert!(!other.is_duplicate_session());
        let gone = classify("new-window", "-L x", "can't find session: index 4 in use\n");
        assert!(!gone.is_index_in_use(), "a missing session is not an index in use");
    }

    #[test]
    fn anything_else_is_a_refusal_that_keeps_the_message() {
        let error = classify("select-layout", "-L x", "invalid layout: zigzag\n");
        assert_eq!(error.kind(), ErrorKind::Refused);
        assert!(error.to_string().contains("invalid layout: zigzag"));
        let silent = classify("x", "-L x", "");
        assert!(silent.to_string().contains("said nothing"));
    }
}
