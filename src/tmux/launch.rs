//! How a tmux process is started: on this machine, or on another through `ssh`
//! ([`super::ssh`]). Everything that runs tmux (one-shot processes, the control
//! client, `paneward doctor`) starts it here, so no path can reach the wrong host.

use std::path::PathBuf;
use std::sync::Arc;

use super::ssh::Link;

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

    /// [`Launcher::command`] wrapped so the process also gets `wrapper_args` first
    /// (as in `setpriv --pdeathsig KILL -- tmux ...`).
    pub fn command_under(
        &self,
        wrapper: &std::path::Path,
        wrapper_args: &[&str],
        args: &[String],
    ) -> std::process::Command {
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
