//! tmux on another host, through the system's `ssh` (`--ssh DESTINATION`).
//!
//! Every tmux process paneward starts becomes `ssh ... DESTINATION 'tmux' 'ARG'...`.
//! ssh, its configuration, agent and known_hosts are the user's; paneward holds no
//! password or key, and `BatchMode` keeps ssh from ever asking for one. All processes
//! share one SSH connection (OpenSSH connection sharing: a master on a socket in a
//! private folder, kept [`SSH_CONTROL_PERSIST_SECS`] after its last use), so a round
//! trip costs one exchange on an open connection, not a new login.
//!
//! ssh joins the remote command's words with spaces and hands the string to the far
//! user's login shell, so each word is quoted here for a POSIX shell. Only tmux's own
//! flags and `source-file -`/`-C attach-session` go in that string: commands, and the
//! text they carry, go on standard input, as for a local tmux.

use crate::limits::{SSH_CONNECT_TIMEOUT_SECS, SSH_CONTROL_PERSIST_SECS};
use std::path::PathBuf;

/// What the command line says about the far host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SshTarget {
    /// Handed to ssh as given: `host`, `user@host`, `ssh://user@host:port`, an alias.
    pub destination: String,
    /// ssh options before ours, in order: `-F FILE` (`--ssh-config`), `-o OPTION`
    /// (`--ssh-option`).
    pub options: Vec<String>,
}

/// One shared SSH connection to the far host; its folder goes when it is dropped.
#[derive(Debug)]
pub struct Link {
    target: SshTarget,
    /// Private (0700) folder holding the master's socket.
    folder: PathBuf,
}

impl Link {
    /// Makes the private folder for the connection's socket. No connection is made
    /// until the first command runs.
    ///
    /// # Errors
    /// The folder cannot be made.
    pub fn new(target: SshTarget) -> Result<Self, String> {
        let folder = private_folder()?;
        Ok(Self { target, folder })
    }

    pub fn destination(&self) -> &str {
        &self.target.destination
    }

    /// `ssh` running `binary args...` on the far host.
    pub fn command(&self, binary: &str, args: &[String]) -> std::process::Command {
        let mut process = self.ssh();
        // -T: no terminal, so tmux's bytes pass unchanged and no escape character works.
        process.arg("-T").arg("--").arg(&self.target.destination);
        let words: Vec<String> = std::iter::once(binary)
            .chain(args.iter().map(String::as_str))
            .map(quoted)
            .collect();
        // `exec`: the far shell becomes tmux, so a closed channel reaches tmux itself.
        process.arg(format!("exec {}", words.join(" ")));
        process
    }

    /// `ssh` with the user's options, then connection sharing and no prompts.
    fn ssh(&self) -> std::process::Command {
        let mut process = std::process::Command::new("ssh");
        process.args(&self.target.options);
        // No agent or X11 forwarding and no port forwards: tmux needs none of them.
        process.args(["-a", "-x"]);
        for option in [
            "BatchMode=yes".to_string(),
            "ClearAllForwardings=yes".to_string(),
            "ControlMaster=auto".to_string(),
            format!("ControlPath={}", self.folder.join("%C").display()),
            format!("ControlPersist={SSH_CONTROL_PERSIST_SECS}"),
            format!("ConnectTimeout={SSH_CONNECT_TIMEOUT_SECS}"),
        ] {
            process.arg("-o").arg(option);
        }
        process
    }

    /// Asks the master to end (`ssh -O exit`) and removes its folder; for the end of
    /// the process (a command after this would log in without sharing).
    pub fn close(&self) {
        let mut process = self.ssh();
        process
            .args(["-O", "exit", "--", &self.target.destination])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        // No master running is the usual case for a short session; nothing to report.
        let _ = process.status();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        if self.folder.exists() {
            self.close();
        }
    }
}

/// `word` quoted for a POSIX shell: inside single quotes nothing is special but the
/// single quote, which is closed, escaped and reopened.
pub fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// A new folder only this user can enter, under `$XDG_RUNTIME_DIR` if there is one,
/// else the temporary folder. The socket path must stay short (about 100 bytes).
fn private_folder() -> Result<PathBuf, String> {
    use std::os::unix::fs::DirBuilderExt;
    let base = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute() && dir.is_dir())
        .unwrap_or_else(std::env::temp_dir);
    let mut random = [0u8; 8];
    getrandom::fill(&mut random).map_err(|e| format!("no randomness for the ssh folder name: {e}"))?;
    let name = crate::runtime::hex::encode(&random);
    let folder = base.join(format!("paneward-ssh.{name}"));
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&folder)
        .map_err(|e| format!("cannot make {}: {e}", folder.display()))?;
    Ok(folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_so_a_posix_shell_gives_them_back_unchanged() {
        for word in [
            "plain",
            "two words",
            "it's",
            "$(reboot)",
            "`x`",
            "a\\b",
            "'",
            "",
            "#{pane_id};x",
        ] {
            let output = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("printf %s {}", quoted(word)))
                .output()
                .unwrap();
            assert_eq!(String::from_utf8(output.stdout).unwrap(), word, "{word:?}");
        }
    }

    #[test]
    fn the_destination_follows_a_double_dash_and_the_command_is_one_quoted_word() {
        let link = Link::new(SshTarget {
            destination: "-oProxyCommand=x".into(),
            options: vec!["-F".into(), "/cfg".into()],
        })
        .unwrap();
        let process = link.command("tmux", &["-L".into(), "a b".into(), "source-file".into(), "-".into()]);
        let args: Vec<String> = process.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        assert_eq!(&args[..2], ["-F", "/cfg"]);
        let dash = args.iter().position(|a| a == "--").unwrap();
        assert_eq!(args[dash + 1], "-oProxyCommand=x");
        assert_eq!(args[dash + 2], "exec 'tmux' '-L' 'a b' 'source-file' '-'");
        assert_eq!(args.len(), dash + 3);
        let folder = link.folder.clone();
        assert!(folder.is_dir());
        drop(link);
        assert!(!folder.exists());
    }
}
