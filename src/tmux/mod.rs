//! The tmux backend: one tmux server, chosen at start-up, driven with argument vectors.
//!
//! [`Tmux::run_all`] sends several commands in one round trip (tmux runs a `;`-chained
//! list atomically, so a reading of metadata and a capture describe the same moment)
//! and returns each command's output separately. Round trips go over a persistent
//! control-mode connection when one can be made unnoticed ([`control`]), else through
//! one tmux process each.

pub mod channel;
pub mod command;
pub mod control;
pub mod error;
pub mod escape;
pub mod foreground;
pub mod format;
pub mod framing;
mod gather;
pub mod ids;
pub mod input_wait;
pub mod launch;
pub mod native;
pub mod oneshot;
pub mod script;
pub mod ssh;
mod subprocess;
mod tool_error;
pub mod transport;

use crate::limits::{TMUX_CLIENTS_DEFAULT_MAX, TMUX_COMMAND_TIMEOUT};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use command::{summarize, Command, ReadCommand, ReadVerb};
pub use error::{ErrorKind, TmuxError};
use framing::Framing;
pub use ids::{IdParseError, PaneId, SessionId, WindowId};
pub use launch::Launcher;
pub use transport::{Transport, TransportReport};

/// Which tmux server to talk to; fixed for the life of the process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerAddress {
    /// Whatever `tmux` alone would use (`$TMUX`, then the `default` socket).
    Default,
    /// `tmux -L NAME`: a socket named NAME in tmux's socket folder.
    Name(String),
    /// `tmux -S PATH`: a socket at PATH.
    Path(PathBuf),
}

impl ServerAddress {
    /// The global tmux flags that select this server.
    pub fn flags(&self) -> Vec<String> {
        match self {
            Self::Default => Vec::new(),
            Self::Name(name) => vec!["-L".into(), name.clone()],
            Self::Path(path) => vec!["-S".into(), path.to_string_lossy().into_owned()],
        }
    }

    /// How messages name this server.
    pub fn label(&self) -> String {
        match self {
            Self::Default => "the default tmux socket".into(),
            Self::Name(name) => format!("socket name {name:?} (-L)"),
            Self::Path(path) => format!("socket path {} (-S)", path.display()),
        }
    }
}

/// Which transports a [`Tmux`] may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// A persistent control-mode client, where it goes unnoticed.
    pub control: bool,
    /// tmux's socket protocol for one-shot round trips (else a process each).
    pub native: bool,
    /// With `control`, a control client in no session where tmux's socket is local
    /// (see [`native::hidden`]), before any attach.
    pub hidden: bool,
    /// The most one-shot clients at once.
    pub max_clients: usize,
}

impl Options {
    /// One tmux process per round trip, nothing else.
    pub fn processes_only() -> Self {
        Self {
            control: false,
            native: false,
            hidden: false,
            ..Self::default()
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Self {
            control: true,
            native: true,
            hidden: true,
            max_clients: TMUX_CLIENTS_DEFAULT_MAX,
        }
    }
}

/// A handle on one tmux server; clones share one control connection.
#[derive(Debug, Clone)]
pub struct Tmux {
    executor: Arc<transport::Executor>,
}

impl Tmux {
    /// A handle on a local tmux `binary` that uses every transport where it can.
    pub fn new(binary: impl Into<PathBuf>, address: ServerAddress) -> Self {
        Self::launched(Launcher::local(binary.into()), address, Options::default())
    }

    /// A handle whose tmux processes `launcher` starts (here, or on another host), with
    /// every transport choice spelled out.
    pub fn launched(launcher: Launcher, address: ServerAddress, options: Options) -> Self {
        Self {
            executor: Arc::new(transport::Executor::new(launcher, address, &options)),
        }
    }

    /// Opens a hidden control client and closes it again: whether calls could use one
    /// (`paneward doctor`).
    ///
    /// # Errors
    /// Why not.
    pub async fn probe_hidden_client(&self) -> Result<(), String> {
        self.executor.probe_hidden().await
    }

    /// Whether a control connection to the server is open.
    pub async fn is_connected(&self) -> bool {
        self.executor.is_connected().await
    }

    /// Closes the control connection (once the round trips in flight are answered);
    /// whether one was open. The next round trip connects again.
    pub async fn disconnect(&self) -> bool {
        self.executor.disconnect().await
    }

    /// Which transport a round trip would use now, and why (`paneward doctor`).
    pub async fn transport_report(&self) -> TransportReport {
        self.executor.report().await
    }

    /// The most one-shot clients (native connections or tmux processes) that were ever
    /// open at once.
    pub fn peak_one_shot_clients(&self) -> usize {
        self.executor.peak_one_shots()
    }

    /// How many one-shot round trips ran, each one tmux connection (or process).
    pub fn one_shot_round_trips(&self) -> usize {
        self.executor.one_shot_round_trips()
    }

    /// How many end lines the live control connection has written, if one is open
    /// (round trips that only read and go out together share one).
    pub async fn control_end_lines(&self) -> Option<usize> {
        self.executor.control_end_lines().await
    }

    /// Whether this tmux runs on another host (`--ssh`): its panes' processes are not
    /// this machine's.
    pub fn is_remote(&self) -> bool {
        self.executor.target().0.ssh().is_some()
    }

    /// Whether round trips sent together reach tmux in the order they were sent (over
    /// a live control connection); separate tmux processes can overtake each other.
    pub async fn keeps_order(&self) -> bool {
        self.executor.keeps_order().await
    }

    /// Runs `work` (several calls' reads, polled together) with the round trips it
    /// would send to one-shot clients gathered: whenever it waits, the reads it queued
    /// go as one command list over one connection. Over a control connection nothing
    /// changes: round trips are pipelined there already.
    pub async fn gathered<F: std::future::Future>(&self, work: F) -> F::Output {
        self.executor.gathered(work).await
    }

    /// How the last round trip was sent, if one ran.
    pub async fn last_transport(&self) -> Option<Transport> {
        self.executor.last_transport().await
    }

    /// Runs one command and returns its standard output.
    ///
    /// # Errors
    /// See [`TmuxError`]: no server, a missing target, a refusal, a timeout.
    pub async fn run(&self, command: Command) -> Result<Vec<u8>, TmuxError> {
        let mut outputs = self.run_all(std::slice::from_ref(&command)).await?;
        outputs.pop().ok_or_else(|| TmuxError::Protocol {
            command: command.summary(),
            detail: "no output block".into(),
        })
    }

    /// Runs `commands` in one round trip, in order, and returns one output per command.
    /// tmux stops at the first command that fails; so does this.
    ///
    /// # Errors
    /// The first command's failure, as a [`TmuxError`].
    pub async fn run_all(&self, commands: &[Command]) -> Result<Vec<Vec<u8>>, TmuxError> {
        self.run_all_within(commands, TMUX_COMMAND_TIMEOUT).await
    }

    /// Blocks in `tmux wait-for channel` (a process of its own, see [`channel`]) for
    /// at most `timeout`; dropping the future kills it.
    ///
    /// # Errors
    /// tmux could not be started or failed (no server).
    pub async fn wait_for_channel(&self, channel: &str, timeout: Duration) -> Result<channel::WaitEnd, TmuxError> {
        let (launcher, address) = self.executor.target();
        channel::wait_for(launcher, address, channel, timeout).await
    }

    /// [`Tmux::run_all`] for a fixed number of commands, their outputs by position.
    ///
    /// # Errors
    /// As [`Tmux::run_all`]; also a reply with another number of outputs.
    pub async fn run_each<const N: usize>(&self, commands: [Command; N]) -> Result<[Vec<u8>; N], TmuxError> {
        let outputs = self.run_all(&commands).await?;
        let count = outputs.len();
        outputs.try_into().map_err(|_| TmuxError::Protocol {
            command: summarize(&commands),
            detail: format!("{count} outputs for {N} commands"),
        })
    }

    /// [`Tmux::run_all`] as one tmux process that first starts the server when none
    /// runs, reading only the configuration `config_flags` choose
    /// (`subprocess::run_all_starting_server`). Only a caller allowed to start the
    /// server calls this (`crate::config::ServerStart`).
    ///
    /// # Errors
    /// As [`Tmux::run_all`].
    pub async fn run_all_starting_server(
        &self,
        config_flags: &[String],
        commands: &[Command],
    ) -> Result<Vec<Vec<u8>>, TmuxError> {
        let (launcher, address) = self.executor.target();
        subprocess::run_all_starting_server(launcher, address, config_flags, commands, TMUX_COMMAND_TIMEOUT).await
    }

    /// [`Tmux::run_all`] with a timeout other than [`TMUX_COMMAND_TIMEOUT`].
    ///
    /// # Errors
    /// As [`Tmux::run_all`].
    pub async fn run_all_within(&self, commands: &[Command], timeout: Duration) -> Result<Vec<Vec<u8>>, TmuxError> {
        if commands.is_empty() {
            return Ok(Vec::new());
        }
        self.executor.run_all(commands, timeout, &Framing::Separated).await
    }

    /// [`Tmux::run_all`] with nothing between the commands, command `i` printing exactly
    /// `lines[i]` lines ([`Framing::Lines`]): half the commands for tmux to run.
    ///
    /// # Errors
    /// As [`Tmux::run_all`]; a [`TmuxError::Protocol`] when the output does not hold
    /// the lines counted (the caller's assumption was wrong: fall back).
    pub async fn run_counted(&self, commands: &[Command], lines: Vec<usize>) -> Result<Vec<Vec<u8>>, TmuxError> {
        if commands.is_empty() {
            return Ok(Vec::new());
        }
        self.executor
            .run_all(commands, TMUX_COMMAND_TIMEOUT, &Framing::Lines(lines))
            .await
    }
}
