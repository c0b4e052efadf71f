//! The caller pane: the pane this server itself runs in, when it runs inside tmux.
//!
//! tmux exports `TMUX=<socket path>,<server pid>,<session index>` and `TMUX_PANE=%N`
//! to programs in its panes. Those only describe *our* server if the socket and pid
//! match the server we drive, which tmux reports as `#{socket_path}` and `#{pid}`;
//! comparing those avoids guessing socket paths from -L names.

use crate::tmux::format::Record;
use crate::tmux::{PaneId, TmuxError};

/// Where paneward's own terminal is, as its environment says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallerPane {
    pub pane: PaneId,
    pub socket_path: String,
    pub server_pid: i64,
}

impl CallerPane {
    /// Reads `TMUX` and `TMUX_PANE`; `None` unless both are present and well formed.
    pub fn from_env(tmux: Option<&str>, tmux_pane: Option<&str>) -> Option<Self> {
        let tmux = tmux?;
        let pane = tmux_pane?.parse().ok()?;
        // The socket path may itself hold commas: take the two numbers from the right.
        let mut fields = tmux.rsplitn(3, ',');
        let _session_index = fields.next()?;
        let server_pid = fields.next()?.parse().ok()?;
        let socket_path = fields.next()?.to_string();
        Some(Self {
            pane,
            socket_path,
            server_pid,
        })
    }

    /// Whether this is the tmux server at `socket_path` with pid `server_pid`.
    pub fn is_on_server(&self, socket_path: &str, server_pid: i64) -> bool {
        self.socket_path == socket_path && self.server_pid == server_pid
    }

    /// Whether `pane` on the server at `socket_path`/`server_pid` is the caller pane.
    pub fn is(&self, pane: PaneId, socket_path: &str, server_pid: i64) -> bool {
        self.pane == pane && self.is_on_server(socket_path, server_pid)
    }
}

/// Whether `pane`, described by a tmux record that holds `socket_path` and `pid`, is
/// the caller pane; never when paneward does not run inside tmux.
///
/// # Errors
/// The record lacks `socket_path` or a numeric `pid`.
pub fn is_caller(caller: Option<&CallerPane>, pane: PaneId, record: &Record<'_>) -> Result<bool, TmuxError> {
    match caller {
        Some(caller) => Ok(caller.is(pane, record.text("socket_path")?, record.int("pid")?)),
        None => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_is_read_from_the_right_so_commas_in_paths_survive() {
        let caller = CallerPane::from_env(Some("/tmp/a,b/sock,4242,0"), Some("%7")).unwrap();
        assert_eq!(caller.socket_path, "/tmp/a,b/sock");
        assert_eq!(caller.server_pid, 4242);
        assert_eq!(caller.pane, PaneId(7));
    }

    #[test]
    fn a_pane_counts_as_the_caller_only_on_the_same_server() {
        let caller = CallerPane::from_env(Some("/tmp/tmux-0/x,100,0"), Some("%1")).unwrap();
        assert!(caller.is(PaneId(1), "/tmp/tmux-0/x", 100));
        assert!(!caller.is(PaneId(1), "/tmp/tmux-0/y", 100));
        assert!(!caller.is(PaneId(1), "/tmp/tmux-0/x", 101));
        assert!(!caller.is(PaneId(2), "/tmp/tmux-0/x", 100));
    }

    #[test]
    fn missing_or_malformed_variables_mean_no_caller() {
        assert!(CallerPane::from_env(None, Some("%1")).is_none());
        assert!(CallerPane::from_env(Some("/s,1,0"), None).is_none());
        assert!(CallerPane::from_env(Some("/s,x,0"), Some("%1")).is_none());
        assert!(CallerPane::from_env(Some("/s,1,0"), Some("main:0")).is_none());
    }
}
