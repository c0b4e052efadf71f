//! How a tmux failure reads to the caller of a tool: the kind of [`ToolError`] it is,
//! whether sending the call again is safe, and what to do next. Here, beside the tmux
//! errors, so the runtime the generated code names stays a leaf that names no tmux.

use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::{ErrorKind, TmuxError};

impl From<TmuxError> for ToolError {
    fn from(error: TmuxError) -> Self {
        let (kind, hint) = match error.kind() {
            ErrorKind::ObjectGone => (
                ToolErrorKind::NotFound,
                "; list panes (or windows, sessions) again for current ids",
            ),
            ErrorKind::ServerGone => (
                ToolErrorKind::TmuxUnavailable,
                "; start tmux on that socket, restart paneward with the right --socket-name/--socket-path, or with --start-server (or --private NAME) so create_session starts it",
            ),
            ErrorKind::Transport if matches!(error, TmuxError::Lost { .. }) => (ToolErrorKind::MayHaveRun, ""),
            ErrorKind::Transport if matches!(error, TmuxError::Protocol { .. }) => (ToolErrorKind::BadReply, ""),
            ErrorKind::Transport => (ToolErrorKind::TmuxUnavailable, ""),
            ErrorKind::Timeout => (ToolErrorKind::Timeout, "; try again"),
            ErrorKind::Refused => (ToolErrorKind::Refused, ""),
        };
        Self::new(kind, format!("{error}{hint}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_answer_to_a_change_may_have_run_and_is_not_safe_to_retry() {
        let lost = ToolError::from(TmuxError::Lost {
            command: "new-window".into(),
        });
        assert_eq!(lost.kind(), ToolErrorKind::MayHaveRun);
        assert!(!lost.retry_safe());
        assert!(lost.message().contains("may or may not have taken effect"), "{lost}");
    }

    #[test]
    fn a_timeout_is_safe_to_retry_for_a_read_but_not_for_a_change() {
        let timeout = || {
            ToolError::from(TmuxError::Timeout {
                command: "x".into(),
                after: std::time::Duration::from_secs(10),
            })
        };
        assert!(timeout().retry_safe());
        let change = timeout().for_a_change();
        assert_eq!(change.kind(), ToolErrorKind::MayHaveRun);
        assert!(!change.retry_safe());
        assert!(change.message().contains("may already have run"), "{change}");
    }

    #[test]
    fn an_unreadable_answer_to_a_change_may_have_run() {
        let unreadable = ToolError::from(TmuxError::Protocol {
            command: "set-buffer".into(),
            detail: "the output passed the cap".into(),
        });
        assert_eq!(unreadable.kind(), ToolErrorKind::BadReply);
        assert!(
            unreadable.retry_safe(),
            "a read that came back unreadable changed nothing"
        );
        let change = unreadable.for_a_change();
        assert_eq!(change.kind(), ToolErrorKind::MayHaveRun);
        assert!(!change.retry_safe());
    }
}
