//! Running commands with one `tmux` process per round trip.
//!
//! The commands go to `tmux source-file -` on standard input, written in tmux's command
//! language by [`super::script`] (the same encoder as control mode), never as process
//! arguments: those are readable by any local user from `/proc/<pid>/cmdline`, and text
//! typed into a pane can be a secret. A `display-message -p` of a per-call random
//! separator goes between the commands, and the combined output is split on those
//! lines; pane text cannot forge a separator it never saw.

use crate::limits::SUBPROCESS_OUTPUT_MAX_BYTES;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::command::{summarize, Command};
use super::error::TmuxError;
use super::framing::{Answer, Framing};
use super::launch::{Launcher, Pipes, TmuxProcess};
use super::script::Nonce;
use super::ServerAddress;

/// The exit status of `ssh` when ssh itself failed.
const SSH_FAILED_STATUS: i32 = 255;

/// Runs `commands` as one `tmux` process, separated by `nonce`'s separator as `framing`
/// says, and returns its answer uncut. With `clientless`, the process does not pass
/// on `TMUX_PANE`, so a command with no target sees the session tmux itself would pick
/// rather than the pane paneward runs in.
///
/// # Errors
/// tmux could not be started or timed out, or ssh failed; tmux's own failure is in
/// the answer.
pub async fn run_all(
    launcher: &Launcher,
    address: &ServerAddress,
    commands: &[Command],
    timeout: Duration,
    clientless: bool,
    framing: &Framing,
    nonce: &Nonce,
) -> Result<Answer, TmuxError> {
    run_script(
        launcher,
        address,
        Vec::new(),
        commands,
        timeout,
        clientless,
        framing,
        nonce,
    )
    .await
}

/// Runs `commands` as one `tmux` process that first starts the server if none runs on
/// `address` (`start-server`), which then reads only the configuration `config_flags`
/// choose (`-f FILE`, or none given: tmux's own files). On a running server
/// `start-server` does nothing and the flags are not read. `TMUX_PANE` is not passed on.
///
/// # Errors
/// As [`super::Tmux::run_all`].
pub async fn run_all_starting_server(
    launcher: &Launcher,
    address: &ServerAddress,
    config_flags: &[String],
    commands: &[Command],
    timeout: Duration,
) -> Result<Vec<Vec<u8>>, TmuxError> {
    let mut leading = config_flags.to_vec();
    leading.extend(["start-server".to_string(), ";".to_string()]);
    let nonce = Nonce::new();
    let framing = Framing::Separated;
    let answer = run_script(launcher, address, leading, commands, timeout, true, &framing, &nonce).await?;
    answer.outputs(&framing, nonce.separator(), commands, &address.label())
}

/// `tmux LEADING... source-file -` with `commands` on standard input.
#[allow(clippy::too_many_arguments)] // one private step of the two public ones above
async fn run_script(
    launcher: &Launcher,
    address: &ServerAddress,
    leading: Vec<String>,
    commands: &[Command],
    timeout: Duration,
    clientless: bool,
    framing: &Framing,
    nonce: &Nonce,
) -> Result<Answer, TmuxError> {
    let mut script = framing.chain(commands, nonce.separator());
    script.push('\n');
    let mut args = leading;
    args.extend(["source-file".to_string(), "-".to_string()]);
    let process = TmuxProcess {
        args,
        pipes: Pipes {
            stdin: true,
            stdout: true,
            stderr: true,
        },
        keep_tmux_pane: !clientless,
    };
    let spawn_error = |source| TmuxError::Spawn {
        binary: launcher.describe(),
        source,
    };
    let mut child = launcher.spawn(address, process).map_err(spawn_error)?;
    let exchange = async {
        let (Some(mut stdin), Some(stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(TmuxError::Protocol {
                command: summarize(commands),
                detail: "the tmux process has no pipes".into(),
            });
        };
        // tmux reads the whole script before it runs any of it, so writing all of it
        // before reading the output cannot deadlock.
        // tmux exits before reading when it cannot reach the server; its exit status and
        // standard error then say why, so a closed pipe here is not the error to report.
        match stdin.write_all(script.as_bytes()).await {
            Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => return Err(spawn_error(error)),
            _ => drop(stdin),
        }
        // Past the cap, fail at once: tmux does not exit while its output is unread, so
        // waiting for standard error to end would turn this into a timeout.
        let read_out = async {
            let mut out = Vec::new();
            stdout
                .take(SUBPROCESS_OUTPUT_MAX_BYTES + 1)
                .read_to_end(&mut out)
                .await
                .map_err(spawn_error)?;
            if out.len() as u64 > SUBPROCESS_OUTPUT_MAX_BYTES {
                return Err(TmuxError::Protocol {
                    command: summarize(commands),
                    detail: format!("the output passed {SUBPROCESS_OUTPUT_MAX_BYTES} bytes"),
                });
            }
            Ok(out)
        };
        let read_err = async {
            let mut err = Vec::new();
            stderr.read_to_end(&mut err).await.map_err(spawn_error)?;
            Ok(err)
        };
        let (out, err) = tokio::try_join!(read_out, read_err)?;
        let status = child.wait().await.map_err(spawn_error)?;
        Ok((status, out, err))
    };
    let (status, stdout, stderr) = match tokio::time::timeout(timeout, exchange).await {
        Ok(result) => result?,
        Err(_) => {
            return Err(TmuxError::Timeout {
                command: summarize(commands),
                after: timeout,
            })
        }
    };
    // ssh's own failures (no route, refused key, unknown host) exit 255; tmux never does.
    if launcher.ssh().is_some() && status.code() == Some(SSH_FAILED_STATUS) {
        let said = String::from_utf8_lossy(&stderr);
        let said = said
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("ssh said nothing")
            .trim();
        return Err(TmuxError::Spawn {
            binary: launcher.describe(),
            source: std::io::Error::other(paneward_contract::excerpt(said, crate::limits::TMUX_STDERR_MAX_CHARS)),
        });
    }
    Ok(Answer {
        success: status.success(),
        stdout,
        stderr,
    })
}
