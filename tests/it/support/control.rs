//! Helpers for the control-mode tests: a library handle on a test server, the
//! control clients tmux lists, and a raw `tmux -C` client of the test's own.

use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use paneward::tmux::{Command, Launcher, Options, ReadCommand, ReadVerb, ServerAddress, Tmux};

use super::{wait_for, TmuxServer, PATIENCE};

/// Kills the server and starts a new one on the same socket, once the old one is gone
/// (a client that reaches a server still shutting down fails).
pub fn restart(server: &TmuxServer) {
    kill_and_wait(server);
    start_main_again(server);
}

/// Kills the server and waits until no client reaches it.
pub fn kill_and_wait(server: &TmuxServer) {
    server.tmux(&["kill-server"]);
    wait_for("the old server to exit", || {
        (!server.try_tmux(&["list-sessions"])).then_some(())
    });
}

/// Starts a new server with session `main` on the socket of one that was killed.
pub fn start_main_again(server: &TmuxServer) {
    // A client can still reach the old server in its last moments and be told it exited:
    // try again until the new server holds the session.
    wait_for("a new server with session main", || {
        let _ = server.try_tmux(&["-f", "/dev/null", "new-session", "-d", "-s", "main", "/bin/sh"]);
        server.try_tmux(&["has-session", "-t", "=main"]).then_some(())
    });
}

/// Awaits `check` until it returns `Some`, or fails the test after [`PATIENCE`]: the
/// async [`wait_for`], for checks that go through the library handle.
pub async fn wait_for_async<T>(what: &str, mut check: impl AsyncFnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(start.elapsed() < PATIENCE, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A handle on `server` whose control client attaches to a session (where the policy
/// allows) instead of sitting in none: the attaching client's own tests.
pub fn tmux_for(server: &TmuxServer) -> Tmux {
    let options = Options {
        hidden: false,
        ..Options::default()
    };
    Tmux::launched(
        Launcher::local("tmux"),
        ServerAddress::Name(server.name.clone()),
        options,
    )
}

/// A handle on `server` with every transport on: a hidden control client first.
pub fn tmux_hidden(server: &TmuxServer) -> Tmux {
    Tmux::new("tmux", ServerAddress::Name(server.name.clone()))
}

/// `display-message -p TEXT`, as a read (so a lost connection may send it again).
pub fn display(text: &str) -> Command {
    ReadCommand::new(ReadVerb::DisplayMessage).arg(text).into()
}

pub fn text(output: &[u8]) -> String {
    String::from_utf8_lossy(output).into_owned()
}

/// The control-mode clients attached to `server`: `(pid, name, flags, session id)`.
pub fn control_clients(server: &TmuxServer) -> Vec<(String, String, String, String)> {
    server
        .tmux(&[
            "list-clients",
            "-F",
            "#{client_control_mode}\t#{client_pid}\t#{client_name}\t#{client_flags}\t#{session_id}",
        ])
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (fields[0] == "1").then(|| {
                (
                    fields[1].to_string(),
                    fields[2].to_string(),
                    fields[3].to_string(),
                    fields[4].to_string(),
                )
            })
        })
        .collect()
}

/// A raw `tmux -C` client of the test's own, to read guard numbers and to stand in for
/// a user's client (tmux counts it as attached).
pub struct RawControl {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl RawControl {
    pub fn attach(server: &TmuxServer, session: &str) -> Self {
        let mut command = server.command();
        let mut child = command
            .args(["-C", "attach-session", "-E", "-t", session, "-f", "no-output"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let lines = super::line_channel(child.stdout.take().unwrap());
        let stdin = child.stdin.take().unwrap();
        Self { child, stdin, lines }
    }

    /// Sends `command` and returns the `%begin` line of its reply.
    pub fn begin_line(&mut self, command: &str) -> String {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
        loop {
            let line = self.lines.recv_timeout(PATIENCE).expect("a reply from tmux");
            if line.starts_with("%begin ") && line.ends_with(" 1") {
                return line;
            }
        }
    }
}

impl Drop for RawControl {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The time and number tmux puts on guards now, read as a hostile program could.
pub fn guard_time_and_number(server: &TmuxServer) -> (u64, u64) {
    let mut probe = RawControl::attach(server, "main");
    let begin = probe.begin_line("display-message -p probe");
    let fields: Vec<u64> = begin.split(' ').skip(1).map(|f| f.parse().unwrap()).collect();
    (fields[0], fields[1])
}
