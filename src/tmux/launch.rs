//! How a tmux process is started: on this machine, or on another through `ssh`
//! ([`super::ssh`]). Everything that runs tmux (one-shot processes, the control
//! client, `paneward doctor`) starts it here, so no path can reach the wrong host.

use std::path::{Path, PathBuf};
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
    /// End the process when paneward dies: it runs under util-linux
    /// `setpriv --pdeathsig KILL` where that is installed.
    pub dies_with_paneward: bool,
}

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
        // -u: without a UTF-8 locale (MCP hosts pass none) tmux prints `_` for our
        // \x1f/\x1e field separators and for every non-ASCII character; -u makes it
        // write UTF-8.
        let mut args = vec!["-u".to_string()];
        args.extend(address.flags());
        args.extend(process.args);
        let wrapper = process.dies_with_paneward.then(death_signal_wrapper).flatten();
        let mut command = tokio::process::Command::from(match wrapper {
            Some(setpriv) => self.command_under(setpriv, &["--pdeathsig", "KILL", "--"], &args),
            None => self.command(&args),
        });
        if !process.keep_tmux_pane {
            command.env_remove("TMUX_PANE");
        }
        let stream = |piped: bool| if piped { Stdio::piped() } else { Stdio::null() };
        command
            .stdin(stream(process.pipes.stdin))
            .stdout(stream(process.pipes.stdout))
            .stderr(stream(process.pipes.stderr))
            .kill_on_drop(true)
            .spawn()
    }

    /// [`Launcher::command`] wrapped so the process also gets `wrapper_args` first
    /// (as in `setpriv --pdeathsig KILL -- tmux ...`).
    fn command_under(&self, wrapper: &Path, wrapper_args: &[&str], args: &[String]) -> std::process::Command {
        let inner = self.command(args);
        let mut process = std::process::Command::new(wrapper);
        process
            .args(wrapper_args)
            .arg(inner.get_program())
            .args(inner.get_args());
        process
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

/// util-linux's `setpriv`, if installed, to give a process a parent-death signal: a
/// `tmux -C` client that outlives paneward (killed with SIGKILL) can, in tmux 3.3a, stay
/// attached forever and keep its server from exiting (docs/tmux-quirks.md).
fn death_signal_wrapper() -> Option<&'static Path> {
    static SETPRIV: std::sync::OnceLock<Option<&'static Path>> = std::sync::OnceLock::new();
    *SETPRIV.get_or_init(|| {
        ["/usr/bin/setpriv", "/bin/setpriv"]
            .into_iter()
            .map(Path::new)
            .find(|path| path.is_file())
    })
}
