//! The soak's private tmux server: started with a small configuration, read as a list
//! of panes, killed (politely or with SIGKILL) and started again. Every command names
//! its own `-L` socket, so nothing else on the machine is touched.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long a killed server may take to stop answering.
const GONE_WITHIN: Duration = Duration::from_secs(10);

/// One pane of the server, as `list-panes -a` tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pane {
    pub id: String,
    pub window: String,
    pub session: String,
}

pub struct SoakServer {
    pub socket: String,
    /// The soak's folder: configuration, the token log, the panes' working directory.
    pub dir: PathBuf,
    config: PathBuf,
}

impl SoakServer {
    /// Writes the configuration into `dir`; starts nothing.
    ///
    /// # Errors
    /// The folder cannot be written.
    pub fn new(socket: String, dir: &Path) -> Result<Self, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let config = dir.join("tmux.conf");
        // /bin/sh: a shell that starts fast, draws no bracketed paste and no rename.
        std::fs::write(&config, "set -g default-shell /bin/sh\nset -g history-limit 200\n")
            .map_err(|e| format!("{}: {e}", config.display()))?;
        Ok(Self {
            socket,
            dir: dir.to_path_buf(),
            config,
        })
    }

    /// Runs tmux on this server; its output, or its message.
    ///
    /// # Errors
    /// tmux failed or could not be run.
    pub fn tmux(&self, args: &[&str]) -> Result<String, String> {
        crate::fixture::run_tmux(&self.socket, args)
    }

    /// Starts the server (or adds to it) with session `name`, one `/bin/sh` pane.
    ///
    /// # Errors
    /// tmux refused.
    pub fn start(&self, name: &str) -> Result<(), String> {
        let config = self.config.to_string_lossy();
        let dir = self.dir.to_string_lossy();
        self.tmux(&[
            "-f",
            &config,
            "new-session",
            "-d",
            "-s",
            name,
            "-c",
            &dir,
            "-x",
            "160",
            "-y",
            "48",
            "/bin/sh",
        ])
        .map(drop)
    }

    /// Every pane; none when no server answers.
    pub fn panes(&self) -> Vec<Pane> {
        let Ok(listing) = self.tmux(&["list-panes", "-a", "-F", "#{pane_id} #{window_id} #{session_id}"]) else {
            return Vec::new();
        };
        listing
            .lines()
            .filter_map(|line| {
                let mut fields = line.split(' ');
                Some(Pane {
                    id: fields.next()?.to_string(),
                    window: fields.next()?.to_string(),
                    session: fields.next()?.to_string(),
                })
            })
            .collect()
    }

    /// The server's socket file and process id, while it answers.
    pub fn socket_and_pid(&self) -> Option<(PathBuf, u32)> {
        let answer = self.tmux(&["display-message", "-p", "#{socket_path} #{pid}"]).ok()?;
        let (path, pid) = answer.trim().rsplit_once(' ')?;
        Some((PathBuf::from(path), pid.parse().ok()?))
    }

    /// Kills the server: `kill-server`, or with `hard` a SIGKILL to its process (no
    /// goodbye to its clients, a stale socket file left behind). False when no server
    /// was running.
    pub fn kill(&self, hard: bool) -> bool {
        if !hard {
            return self.tmux(&["kill-server"]).is_ok();
        }
        let Some((_, pid)) = self.socket_and_pid() else {
            return false;
        };
        Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status()
            .is_ok_and(|status| status.success())
    }

    /// Waits until no server answers on the socket: a server started while the old
    /// one shuts down may fail (docs/tmux-quirks.md). False if it still answers.
    pub fn wait_gone(&self) -> bool {
        let started = Instant::now();
        while self.tmux(&["list-sessions"]).is_ok() {
            if started.elapsed() > GONE_WITHIN {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        true
    }
}
