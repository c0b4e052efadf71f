//! A person's terminal attached to a test server: a real tmux client on a pseudo
//! terminal (`script` gives it one), which is what the attended-pane rule guards.

use std::process::{Child, ChildStdin, Command, Stdio};

use super::{clean_env, wait_for, TmuxServer};

/// A terminal client attached to a session of a test server; detached when dropped.
pub struct Terminal {
    child: Child,
    /// Held open and never written: `script` would pass an end of input to the client
    /// as a key press.
    _keyboard: ChildStdin,
}

impl TmuxServer {
    /// Attaches a terminal client to `target` (a session or window id), and returns once
    /// tmux lists it as attached there, showing window `window`.
    #[track_caller]
    pub fn attach_terminal(&self, target: &str, window: &str) -> Terminal {
        let before = self.terminal_clients();
        // The ids and the socket name are tmux's and the test's own: plain characters.
        let line = format!("tmux -L {} attach-session -t '{target}'", self.name);
        let mut command = Command::new("script");
        clean_env(&mut command);
        let mut child = command
            .args(["-qfc", &line, "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start script");
        let keyboard = child.stdin.take().expect("script's stdin");
        wait_for(&format!("a terminal client showing window {window}"), || {
            let now = self.terminal_clients();
            now.iter()
                .any(|(name, shown)| shown == window && !before.iter().any(|(old, _)| old == name))
                .then_some(())
        });
        Terminal {
            child,
            _keyboard: keyboard,
        }
    }

    /// Every terminal (not control-mode) client, with the window it shows.
    pub fn terminal_clients(&self) -> Vec<(String, String)> {
        self.tmux(&[
            "list-clients",
            "-F",
            "#{client_control_mode} #{client_name} #{window_id}",
        ])
        .lines()
        .filter_map(|line| line.strip_prefix("0 "))
        .filter_map(|rest| rest.rsplit_once(' '))
        .map(|(name, window)| (name.to_string(), window.to_string()))
        .collect()
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
