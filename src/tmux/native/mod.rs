//! Running commands as tmux's own client does, over the server's socket, with no
//! process spawned.
//!
//! `tmux list-panes` is a small program that connects to the server's socket,
//! identifies itself, sends its command, prints what the server sends back for its
//! standard output and error, and exits with the status the server gives it. This
//! module is that program without the `exec`: a round trip costs a socket connect and
//! a few messages instead of a process spawn and a tmux start-up. The client never
//! attaches to a session, so, like `tmux list-panes`, nothing a person sees changes.
//!
//! The command sent is `source-file -`, and the script (written by [`super::script`],
//! as for the subprocess path) goes over the socket when tmux asks for standard input.
//! So the parsing, the `;`-chaining (the list runs atomically), the error messages and
//! the output separators are exactly those of the subprocess path, and typed text is
//! never in any argument vector (tmux's client would put a command given directly in
//! `MSG_COMMAND`, which parses arguments differently, e.g. one ending in `;`).
//!
//! A server that speaks another protocol version, or answers in a way this client does
//! not understand, is reported as [`Outcome::Unspoken`]: the caller then uses a
//! `tmux` process, which always speaks its own server's protocol.

mod exchange;
pub mod imsg;
pub mod socket;

use crate::limits::SUBPROCESS_OUTPUT_MAX_BYTES;
use std::path::Path;
use std::time::Duration;

use super::command::{summarize, Command};
use super::error::{classify, TmuxError};
use super::script::{separated_chain, Nonce};
use super::subprocess::split_outputs;
use exchange::{converse, Failure, Identity};

/// What a native round trip came to.
#[derive(Debug)]
pub enum Outcome {
    /// tmux answered: the outputs, or tmux's error, as the subprocess path reports them.
    Done(Result<Vec<Vec<u8>>, TmuxError>),
    /// The socket could not be reached (no server, or not where we looked): let a tmux
    /// process try, and say why in tmux's words.
    NotReached(std::io::Error),
    /// This server cannot be spoken to natively. `sent` says whether the command may
    /// have reached tmux.
    Unspoken { reason: String, sent: bool },
}

/// Whether a command copies `update-environment` variables from the client.
fn creates_a_session(commands: &[Command]) -> bool {
    commands
        .iter()
        .any(|command| command.argv().next() == Some("new-session"))
}

/// Runs `commands` in one round trip over the socket at `socket`; see
/// [`super::Tmux::run_all`]. With `clientless`, `TMUX_PANE` is not passed on, as in
/// the subprocess path.
pub async fn run_all(
    socket: &Path,
    default_socket: bool,
    commands: &[Command],
    timeout: Duration,
    clientless: bool,
    server_label: &str,
    protocol: u32,
) -> Outcome {
    let nonce = Nonce::new();
    let mut script = separated_chain(commands, nonce.separator());
    script.push('\n');
    let term = std::env::var_os("TERM").unwrap_or_default();
    let cwd = std::env::current_dir()
        .ok()
        .or_else(|| std::env::var_os("HOME").map(Into::into))
        .unwrap_or_else(|| "/".into());
    let identity = Identity {
        protocol,
        default_socket,
        environment: Identity::environment(clientless, creates_a_session(commands)),
        term: std::os::unix::ffi::OsStrExt::as_bytes(term.as_os_str()),
        cwd: std::os::unix::ffi::OsStrExt::as_bytes(cwd.as_os_str()),
    };
    let cap = usize::try_from(SUBPROCESS_OUTPUT_MAX_BYTES).unwrap_or(usize::MAX);
    let conversation = converse(socket, &identity, script.as_bytes(), cap);
    let exit = match tokio::time::timeout(timeout, conversation).await {
        Err(_) => {
            return Outcome::Done(Err(TmuxError::Timeout {
                command: summarize(commands),
                after: timeout,
            }))
        }
        Ok(Err(Failure::NotReached(error))) => return Outcome::NotReached(error),
        Ok(Err(Failure::Unspoken { reason, sent })) => return Outcome::Unspoken { reason, sent },
        Ok(Err(Failure::TooLarge)) => {
            return Outcome::Done(Err(TmuxError::Protocol {
                command: summarize(commands),
                detail: format!("the output passed {SUBPROCESS_OUTPUT_MAX_BYTES} bytes"),
            }))
        }
        Ok(Err(Failure::Io(error))) => {
            return Outcome::Done(Err(if commands.iter().all(Command::is_read_only) {
                TmuxError::Protocol {
                    command: summarize(commands),
                    detail: format!("the tmux socket failed: {error}"),
                }
            } else {
                TmuxError::Lost {
                    command: summarize(commands),
                }
            }))
        }
        Ok(Ok(exit)) => exit,
    };
    if exit.status != 0 {
        return Outcome::Done(Err(classify(
            &summarize(commands),
            server_label,
            &String::from_utf8_lossy(&exit.stderr),
        )));
    }
    Outcome::Done(
        split_outputs(&exit.stdout, nonce.separator(), commands.len()).ok_or_else(|| TmuxError::Protocol {
            command: summarize(commands),
            detail: "the output did not split into one part per command".into(),
        }),
    )
}
