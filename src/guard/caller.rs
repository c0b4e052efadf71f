//! The caller pane: the pane this server itself runs in, when it runs inside tmux.
//!
//! tmux exports `TMUX=<socket path>,<server pid>,<session index>` and `TMUX_PANE=%N`
//! to programs in its panes. Those only describe *our* server if the socket and pid
//! match the server we drive, which tmux reports as `#{socket_path}` and `#{pid}`;
//! comparing those avoids guessing socket paths from -L names.

use crate::tmux::format::Record;
use crate::tmux::script::command_line;
use crate::tmux::{Command, PaneId, TmuxError};

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

    /// Whether `pane`, on the server whose pid is `server_pid`, is the caller pane: the
    /// one test, the same one [`CallerPane::is_caller_format`] makes inside tmux (a
    /// format cannot carry the socket path, so neither side compares it).
    pub fn is(&self, pane: PaneId, server_pid: i64) -> bool {
        self.pane == pane && self.server_pid == server_pid
    }

    /// [`CallerPane::is`] as a tmux format: `1` when expanded for the caller pane. It
    /// holds a parsed pane id and a number only.
    pub fn is_caller_format(&self) -> String {
        format!(
            "#{{&&:#{{==:#{{pane_id}},{}}},#{{==:#{{pid}},{}}}}}",
            self.pane, self.server_pid
        )
    }

    /// The one caller-protection guard: a command that, in the command list it is sent
    /// in, prints `refused` if `reaches` (a format built from ids only) is `1` for the
    /// caller pane, and runs `commands` otherwise. The condition is expanded with the
    /// caller pane as target; if that pane is not on this server (another server's pid,
    /// or no such pane: `-t` then falls back to another pane, whose id differs) it is
    /// false and the commands run. The commands travel as one argument, kept out of
    /// logs when `sensitive`.
    pub fn guard(&self, reaches: &str, refused: &'static str, commands: &[Command], sensitive: bool) -> Command {
        let guard = Command::new("if-shell")
            .arg("-F")
            .arg("-t")
            .arg(self.pane.to_string())
            .arg(format!("#{{&&:{},{reaches}}}", self.is_caller_format()))
            .arg(format!("display-message -p {refused}"));
        if sensitive {
            guard.sensitive_arg(command_line(commands))
        } else {
            guard.arg(command_line(commands))
        }
    }
}

/// Whether `pane`, described by a tmux record that holds the server's `pid`, is the
/// caller pane ([`CallerPane::is`]); never when paneward does not run inside tmux.
///
/// # Errors
/// The record lacks a numeric `pid`.
pub fn is_caller(caller: Option<&CallerPane>, pane: PaneId, record: &Record<'_>) -> Result<bool, TmuxError> {
    match caller {
        Some(caller) => Ok(caller.is(pane, record.int("pid")?)),
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
        assert!(caller.is(PaneId(1), 100));
        assert!(!caller.is(PaneId(1), 101));
        assert!(!caller.is(PaneId(2), 100));
        assert!(caller.is_on_server("/tmp/tmux-0/x", 100));
        assert!(!caller.is_on_server("/tmp/tmux-0/y", 100));
    }

    #[test]
    fn the_guard_tests_the_caller_by_id_and_pid_only_and_hides_its_commands() {
        let caller = CallerPane::from_env(Some("/tmp/odd,}{#/s,42,0"), Some("%9")).unwrap();
        assert_eq!(caller.is_caller_format(), "#{&&:#{==:#{pane_id},%9},#{==:#{pid},42}}");
        let guard = caller.guard("1", "refused-here", &[Command::new("kill-server")], true);
        assert_eq!(
            guard.summary(),
            "if-shell -F -t %9 #{&&:#{&&:#{==:#{pane_id},%9},#{==:#{pid},42}},1} display-message -p refused-here <redacted>"
        );
    }

    #[test]
    fn missing_or_malformed_variables_mean_no_caller() {
        assert!(CallerPane::from_env(None, Some("%1")).is_none());
        assert!(CallerPane::from_env(Some("/s,1,0"), None).is_none());
        assert!(CallerPane::from_env(Some("/s,x,0"), Some("%1")).is_none());
        assert!(CallerPane::from_env(Some("/s,1,0"), Some("main:0")).is_none());
    }
}
