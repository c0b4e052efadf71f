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
//! Reads whose arguments tmux takes back literally (none ends in `;`) skip the script:
//! the chain goes as `MSG_COMMAND` arguments, as `tmux list-panes -F ... \; ...`
//! would send it, which saves the round trip of tmux asking for standard input.
//!
//! A server that speaks another protocol version, or answers in a way this client does
//! not understand, is reported as [`Outcome::Unspoken`]: the caller then uses a
//! `tmux` process, which always speaks its own server's protocol.

mod exchange;
pub mod hidden;
pub mod imsg;
pub mod socket;

use crate::limits::SUBPROCESS_OUTPUT_MAX_BYTES;
use std::path::Path;
use std::time::Duration;

use super::command::{summarize, Command};
use super::error::TmuxError;
use super::framing::{Answer, Framing};
use super::script::Nonce;
pub use exchange::Identity;
use exchange::{command_payload, converse, Failure, Request};

/// What a native round trip came to.
#[derive(Debug)]
pub enum Outcome {
    /// tmux answered (cut it with [`Answer::outputs`]), or the round trip failed as the
    /// subprocess path reports such failures.
    Done(Result<Answer, TmuxError>),
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

/// The commands as `MSG_COMMAND` arguments, chained as [`Framing::chain`] chains them,
/// when tmux reads such arguments back exactly as given: reads only (no typed text),
/// and no argument ending in `;` (which tmux would take as the end of a command). This
/// saves the round trip in which tmux asks for the script on standard input. `None`:
/// the script goes through `source-file -` (also for no commands at all, which as
/// arguments tmux would take for `new-session`).
fn direct_arguments(commands: &[Command], separator: &str, framing: &Framing) -> Option<Vec<u8>> {
    let literal = |command: &Command| command.is_read_only() && !command.argv().any(|arg| arg.ends_with(';'));
    if commands.is_empty() || !commands.iter().all(literal) || separator.ends_with(';') {
        return None;
    }
    let mut argv = Vec::with_capacity(16 * commands.len());
    for (index, command) in commands.iter().enumerate() {
        if index > 0 && framing.separated() {
            argv.extend([";", "display-message", "-p", separator, ";"]);
        } else if index > 0 {
            argv.push(";");
        }
        argv.extend(command.argv());
    }
    command_payload(argv)
}

/// This process's terminal type and working directory, as a client tells tmux.
pub struct Place {
    term: Vec<u8>,
    cwd: Vec<u8>,
}

impl Place {
    pub fn here() -> Self {
        use std::os::unix::ffi::OsStrExt;
        let term = std::env::var_os("TERM").unwrap_or_default();
        let cwd = std::env::current_dir()
            .ok()
            .or_else(|| std::env::var_os("HOME").map(Into::into))
            .unwrap_or_else(|| "/".into());
        Self {
            term: term.as_bytes().to_vec(),
            cwd: cwd.as_os_str().as_bytes().to_vec(),
        }
    }

    /// The client's identity, with `environment` (see [`Identity::environment`]).
    pub fn identity(&self, protocol: u32, default_socket: bool, environment: Vec<Vec<u8>>) -> Identity<'_> {
        Identity {
            protocol,
            default_socket,
            environment,
            term: &self.term,
            cwd: &self.cwd,
        }
    }
}

/// The server a native round trip reaches: its socket (whether tmux's default one) and
/// the protocol version spoken.
pub struct Server<'a> {
    pub socket: &'a Path,
    pub default_socket: bool,
    pub protocol: u32,
}

/// Runs `commands` in one round trip over the socket at `socket`, separated by
/// `nonce`'s separator as `framing` says; see [`super::Tmux::run_all`]. With
/// `clientless`, `TMUX_PANE` is not passed on, as in the subprocess path.
pub async fn run_all(
    server: Server<'_>,
    commands: &[Command],
    timeout: Duration,
    clientless: bool,
    framing: &Framing,
    nonce: &Nonce,
) -> Outcome {
    let Server {
        socket,
        default_socket,
        protocol,
    } = server;
    let arguments = direct_arguments(commands, nonce.separator(), framing);
    let script = match arguments {
        Some(_) => String::new(),
        None => {
            let mut script = framing.chain(commands, nonce.separator());
            script.push('\n');
            script
        }
    };
    let request = match &arguments {
        Some(payload) => Request::Arguments(payload),
        None => Request::Script(script.as_bytes()),
    };
    let place = Place::here();
    let environment = Identity::environment(clientless, creates_a_session(commands));
    let identity = place.identity(protocol, default_socket, environment);
    let cap = usize::try_from(SUBPROCESS_OUTPUT_MAX_BYTES).unwrap_or(usize::MAX);
    let conversation = converse(socket, &identity, request, cap);
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
    Outcome::Done(Ok(Answer {
        success: exit.status == 0,
        stdout: exit.stdout,
        stderr: exit.stderr,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tmux::{ReadCommand, ReadVerb};

    fn unpacked(payload: &[u8]) -> (i32, Vec<String>) {
        let argc = i32::from_ne_bytes(payload[..4].try_into().unwrap());
        let argv = payload[4..]
            .split(|&b| b == 0)
            .map(|arg| String::from_utf8(arg.to_vec()).unwrap())
            .collect::<Vec<_>>();
        // The last NUL leaves an empty piece after it.
        (argc, argv[..argv.len() - 1].to_vec())
    }

    #[test]
    fn reads_go_as_arguments_chained_with_the_separator() {
        let commands: Vec<Command> = vec![
            ReadCommand::new(ReadVerb::ListPanes).arg("-F").arg("#{pane_id}").into(),
            ReadCommand::new(ReadVerb::DisplayMessage).arg("x y").into(),
        ];
        let payload = direct_arguments(&commands, "SEP", &Framing::Separated).unwrap();
        let (argc, argv) = unpacked(&payload);
        assert_eq!(
            argv,
            [
                "list-panes",
                "-F",
                "#{pane_id}",
                ";",
                "display-message",
                "-p",
                "SEP",
                ";",
                "display-message",
                "-p",
                "x y"
            ]
        );
        assert_eq!(usize::try_from(argc).unwrap(), argv.len());
    }

    #[test]
    fn an_argument_ending_in_a_semicolon_goes_in_a_script() {
        let commands: Vec<Command> = vec![ReadCommand::new(ReadVerb::ShowBuffer).arg("-b").arg("name;").into()];
        assert!(direct_arguments(&commands, "SEP", &Framing::Separated).is_none());
        let commands: Vec<Command> = vec![ReadCommand::new(ReadVerb::DisplayMessage).arg(";").into()];
        assert!(direct_arguments(&commands, "SEP", &Framing::Separated).is_none());
    }

    #[test]
    fn no_commands_go_in_a_script_never_as_an_empty_argument_list() {
        assert!(direct_arguments(&[], "SEP", &Framing::Separated).is_none());
    }

    #[test]
    fn a_command_that_changes_tmux_goes_in_a_script() {
        let read: Command = ReadCommand::new(ReadVerb::ListPanes).into();
        let commands = vec![
            read,
            Command::new("send-keys").arg("-t").arg("%1").sensitive_arg("text"),
        ];
        assert!(direct_arguments(&commands, "SEP", &Framing::Separated).is_none());
    }

    #[test]
    fn arguments_too_long_for_one_message_go_in_a_script() {
        let long = "x".repeat(imsg::MAX_PAYLOAD);
        let commands: Vec<Command> = vec![ReadCommand::new(ReadVerb::DisplayMessage).arg(long).into()];
        assert!(direct_arguments(&commands, "SEP", &Framing::Separated).is_none());
    }
}
