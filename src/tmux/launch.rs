//! How a tmux process is started: on this machine, or on another through `ssh`
//! ([`super::ssh`]). Everything that runs tmux (one-shot processes, the control
//! client, `paneward doctor`) starts it here, so no path can reach the wrong host.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;

use super::ssh::Link;
use super::ServerAddress;

/// Which standard streams of a started tmux process are pipes to paneward; the others
/// are closed (`/dev/null`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pipes {
    pub stdin: bool,
    pub stdout: bool,
    pub stderr: bool,
}

/// A tmux process for [`Launcher::spawn`] to start.
#[derive(Debug, Clone)]
pub struct TmuxProcess {
    /// The arguments after the global flags (`-u` and the server's flags).
    pub args: Vec<String>,
    pub pipes: Pipes,
    /// Pass on `TMUX_PANE`; without it a command with no target sees the session tmux
    /// itself would pick, not the pane paneward runs in (nor a pane of another server).
    pub keep_tmux_pane: bool,
}

/// A started `tmux -C` process ([`Launcher::spawn_control`]): commands go to `input`,
/// tmux's output comes from `output`, through a relay that outlives paneward.
#[derive(Debug)]
pub struct ControlProcess {
    /// The tmux process (for a remote tmux, `ssh`). Not killed on drop: see
    /// [`Launcher::spawn_control`].
    pub child: tokio::process::Child,
    pub input: tokio::process::ChildStdin,
    pub output: tokio::process::ChildStdout,
}

/// The relay between a `tmux -C` process's output and paneward: it copies until a
/// write fails (paneward is gone), then reads and drops the rest until tmux closes
/// its end. A fixed script run by `/bin/sh -c`: no argument of paneward's reaches it.
const RELAY_SCRIPT: &str = "cat; exec cat >/dev/null";

/// Starts tmux processes, with their arguments as a vector.
#[derive(Debug, Clone)]
pub struct Launcher {
    /// The tmux binary: a path here, or a name or path on the far host.
    binary: PathBuf,
    ssh: Option<Arc<Link>>,
}

impl Launcher {
    /// tmux on this machine.
    pub fn local(binary: impl Into<PathBuf>) -> Self {
        Self {
            binary: binary.into(),
            ssh: None,
        }
    }

    /// tmux on the host `link` reaches; `binary` is looked up there.
    pub fn remote(binary: impl Into<PathBuf>, link: Arc<Link>) -> Self {
        Self {
            binary: binary.into(),
            ssh: Some(link),
        }
    }

    /// The ssh link, if tmux runs on another host.
    pub fn ssh(&self) -> Option<&Link> {
        self.ssh.as_deref()
    }

    /// A process that runs `tmux ARGS...`; for a remote tmux, the process is `ssh`,
    /// which runs tmux on the far host. Standard input, output and error are the
    /// caller's to set.
    pub fn command(&self, args: &[String]) -> std::process::Command {
        match &self.ssh {
            None => {
                let mut process = std::process::Command::new(&self.binary);
                process.args(args);
                process
            }
            Some(link) => link.command(&self.binary.to_string_lossy(), args),
        }
    }

    /// Starts `tmux -u SERVER-FLAGS ARGS...` for `address`, killed when its handle is
    /// dropped. The one place a tmux process that talks to the server is started.
    ///
    /// # Errors
    /// The process could not be started.
    pub fn spawn(&self, address: &ServerAddress, process: TmuxProcess) -> std::io::Result<tokio::process::Child> {
        let mut command = tokio::process::Command::from(self.command(&with_global_flags(address, process.args)));
        if !process.keep_tmux_pane {
            command.env_remove("TMUX_PANE");
        }
        let stream = |piped: bool| if piped { Stdio::piped() } else { Stdio::null() };
        // Killed when dropped, and left alone when paneward dies: a one-shot client
        // never sets CLIENT_CONTROL, so tmux drops it like any command client whenever
        // it goes (docs/tmux-quirks.md), and it ends by itself when its pipes close.
        command
            .stdin(stream(process.pipes.stdin))
            .stdout(stream(process.pipes.stdout))
            .stderr(stream(process.pipes.stderr))
            .kill_on_drop(true)
            .spawn()
    }

    /// Starts `tmux -u SERVER-FLAGS ARGS...` for `address` as a control client (`ARGS`
    /// hold `-C`), its output read through a relay (`RELAY_SCRIPT`).
    ///
    /// tmux before 3.7 crashes when a control client goes between sending its flags
    /// and finishing its identify messages, and tmux's own client sends its flags
    /// first; a client that is signalled (SIGKILL, or SIGTERM or SIGHUP before it is
    /// attached) stops part way. So nothing signals this process unless paneward has
    /// seen it attached: it is not killed on drop and gets no death signal. When
    /// paneward dies, the kernel closes its end of the input, and tmux ends the client
    /// once it has read that end of file, after the identify is done. tmux sends that
    /// client its exit only when all its output has been written; written to a pipe
    /// nobody reads, it fails (`EPIPE`) and the client would stay attached for ever,
    /// which is why the relay, not paneward, holds the pipe tmux writes to, and goes
    /// on reading it after paneward is gone (docs/tmux-quirks.md).
    ///
    /// # Errors
    /// A process could not be started.
    pub fn spawn_control(&self, address: &ServerAddress, args: Vec<String>) -> std::io::Result<ControlProcess> {
        // Both ends are close-on-exec here, so only the relay and tmux hold them.
        let (relay_reads, tmux_writes) = std::io::pipe()?;
        crate::runtime::pipe::widen(&tmux_writes, "tmux's control-mode output");
        let mut relay = tokio::process::Command::new("/bin/sh");
        relay
            .args(["-c", RELAY_SCRIPT])
            .stdin(relay_reads)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(false);
        let mut relay = relay.spawn()?;
        let mut command = tokio::process::Command::from(self.command(&with_global_flags(address, args)));
        // A pane id from another server must not decide which session is current.
        command
            .env_remove("TMUX_PANE")
            .stdin(Stdio::piped())
            .stdout(tmux_writes)
            .stderr(Stdio::null())
            .kill_on_drop(false);
        let mut child = command.spawn()?;
        let (Some(input), Some(output)) = (child.stdin.take(), relay.stdout.take()) else {
            return Err(std::io::Error::other("tmux started without pipes"));
        };
        crate::runtime::pipe::widen(&output, "the relay's output");
        Ok(ControlProcess { child, input, output })
    }

    /// The ssh link, shared, if tmux runs on another host.
    pub fn ssh_link(&self) -> Option<Arc<Link>> {
        self.ssh.clone()
    }

    /// How messages name the program that is run.
    pub fn describe(&self) -> String {
        match &self.ssh {
            None => self.binary.display().to_string(),
            Some(link) => format!("{} on {} (through ssh)", self.binary.display(), link.destination()),
        }
    }
}

/// `-u SERVER-FLAGS ARGS...`, the arguments of every tmux process that talks to the
/// server at `address`.
fn with_global_flags(address: &ServerAddress, args: Vec<String>) -> Vec<String> {
    // -u: without a UTF-8 locale (MCP hosts pass none) tmux prints `_` for our
    // \x1f/\x1e field separators and for every non-ASCII character; -u makes it
    // write UTF-8.
    let mut all = vec!["-u".to_string()];
    all.extend(address.flags());
    all.extend(args);
    all
}
