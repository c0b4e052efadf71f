//! `tmux wait-for CHANNEL`, the one blocking tmux command paneward runs.
//!
//! It blocks the client that sent it until the channel is signalled, so it never goes
//! over the control connection (every other call would queue behind it) nor a pooled
//! one-shot slot: it runs as a `tmux` process of its own, killed when the wait times out
//! or its future is dropped (a cancelled call). A command client with no session is not
//! listed by `list-clients`, so the wait is invisible. The channel name is validated by
//! the caller (`guard::channel`) and is no secret, so it may be a process argument.

use std::time::Duration;

use tokio::io::AsyncReadExt;

use super::error::{classify, TmuxError};
use super::launch::{Pipes, TmuxProcess};
use super::{Launcher, ServerAddress};

/// How a `wait-for` process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitEnd {
    /// It exited 0: the channel was signalled, or the server went away (tmux says 0
    /// for both; the caller checks the server).
    Woken,
    /// The timeout passed first; the process was killed.
    TimedOut,
}

/// Runs `tmux wait-for channel` for at most `timeout`.
///
/// # Errors
/// tmux could not be started, or it failed (no server, say).
pub async fn wait_for(
    launcher: &Launcher,
    address: &ServerAddress,
    channel: &str,
    timeout: Duration,
) -> Result<WaitEnd, TmuxError> {
    // Over ssh the process is the local ssh client; killing it ends the far wait's
    // session (its tmux client may linger there until the channel is signalled).
    let process = TmuxProcess {
        args: vec!["wait-for".to_string(), channel.to_string()],
        pipes: Pipes {
            stdin: false,
            stdout: false,
            stderr: true,
        },
        keep_tmux_pane: false,
    };
    let spawn_error = |source| TmuxError::Spawn {
        binary: launcher.describe(),
        source,
    };
    let mut child = launcher.spawn(address, process).map_err(spawn_error)?;
    let mut stderr = child.stderr.take();
    let finished = async {
        let mut text = Vec::new();
        if let Some(stderr) = stderr.as_mut() {
            stderr.read_to_end(&mut text).await.map_err(spawn_error)?;
        }
        let status = child.wait().await.map_err(spawn_error)?;
        Ok::<_, TmuxError>((status, text))
    };
    let Ok(result) = tokio::time::timeout(timeout, finished).await else {
        // Dropping the child (kill_on_drop) would kill it too; killing and reaping here
        // leaves no zombie behind.
        let _ = child.kill().await;
        return Ok(WaitEnd::TimedOut);
    };
    let (status, text) = result?;
    if status.success() {
        return Ok(WaitEnd::Woken);
    }
    Err(classify(
        &format!("wait-for {channel}"),
        &address.label(),
        &String::from_utf8_lossy(&text),
    ))
}
