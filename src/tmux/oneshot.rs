//! Round trips outside control mode: one short-lived client of tmux each, speaking
//! tmux's socket protocol ([`super::native`]) where it can, else a `tmux` process
//! (`super::subprocess`); at most a configured number at once, so a burst of
//! parallel calls queues here instead of flooding the tmux server.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::Semaphore;

use super::command::{summarize, Command};
use super::error::TmuxError;
use super::framing::{Answer, Framing};
use super::launch::Launcher;
use super::native::{self, Outcome};
use super::script::Nonce;
use super::{subprocess, ServerAddress};

/// Which one-shot client is used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NativeState {
    /// The socket protocol, on this socket.
    Ready { socket: PathBuf, default_socket: bool },
    /// A `tmux` process per round trip; the reason, as logged.
    Off(String),
}

/// The one-shot clients of one tmux server.
pub struct OneShot {
    launcher: Launcher,
    address: ServerAddress,
    native: Mutex<NativeState>,
    permits: Semaphore,
    in_flight: AtomicUsize,
    peak: AtomicUsize,
    /// Round trips run, each one connection (or process): what a test of the
    /// transport counts.
    round_trips: AtomicUsize,
    /// The protocol version announced; another than tmux's only to test the fallback.
    protocol: u32,
}

/// Set to a protocol version number, the native client announces that version: with a
/// real tmux this forces the fallback to processes, which tests prove.
pub const PROTOCOL_OVERRIDE_VAR: &str = "PANEWARD_NATIVE_PROTOCOL";

/// Which one-shot client ran a round trip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Used {
    Native,
    Process,
}

impl OneShot {
    /// `native` off means processes only; `limit` bounds clients at once (at least 1).
    pub fn new(launcher: Launcher, address: ServerAddress, native: bool, limit: usize) -> Self {
        let state = if let Some(link) = launcher.ssh() {
            NativeState::Off(format!(
                "tmux is on {} (--ssh): the native client speaks only to a socket on this machine",
                link.destination()
            ))
        } else if native {
            let var = |key: &str| std::env::var(key).ok();
            match native::socket::socket_path(&address, var) {
                Some(socket) => NativeState::Ready {
                    socket,
                    default_socket: native::socket::is_default_socket(&address, var),
                },
                None => {
                    let reason = "tmux's socket folder cannot be found".to_string();
                    tracing::info!(target: crate::CLIENT_LOG_TARGET, %reason, "running one tmux process per command");
                    NativeState::Off(reason)
                }
            }
        } else {
            NativeState::Off("the native client is turned off (--no-native-client)".into())
        };
        Self {
            launcher,
            address,
            native: Mutex::new(state),
            permits: Semaphore::new(limit.max(1)),
            in_flight: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            round_trips: AtomicUsize::new(0),
            protocol: std::env::var(PROTOCOL_OVERRIDE_VAR)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(native::imsg::PROTOCOL_VERSION),
        }
    }

    /// Which client the next round trip will try first, and why.
    pub fn native_state(&self) -> NativeState {
        self.native
            .lock()
            .map_or_else(|poisoned| poisoned.into_inner().clone(), |state| state.clone())
    }

    /// The client protocol version announced.
    pub fn protocol(&self) -> u32 {
        self.protocol
    }

    /// The most round trips that were ever in flight at once.
    pub fn peak_in_flight(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// How many round trips were run (each one connection or process).
    pub fn round_trips(&self) -> usize {
        self.round_trips.load(Ordering::Relaxed)
    }

    /// How errors name the server.
    pub fn label(&self) -> String {
        self.address.label()
    }

    /// Runs `commands` in one round trip; see [`super::Tmux::run_all`]. With
    /// `clientless`, `TMUX_PANE` is not passed on.
    ///
    /// Returns which client ran (or failed) as well. Errors as [`super::Tmux::run_all`].
    pub async fn run_all(
        &self,
        commands: &[Command],
        timeout: Duration,
        clientless: bool,
        framing: &Framing,
    ) -> (Result<Vec<Vec<u8>>, TmuxError>, Used) {
        let nonce = Nonce::new();
        let (answer, used) = self.answer(commands, timeout, clientless, framing, &nonce).await;
        let outputs = answer.and_then(|answer| answer.outputs(framing, nonce.separator(), commands, &self.label()));
        (outputs, used)
    }

    /// Runs `commands` in one round trip, separated by `nonce`'s separator as `framing`
    /// says, and returns tmux's answer uncut, a failure included (a caller that sent
    /// several callers' commands cuts it itself).
    ///
    /// Returns which client ran (or failed) as well.
    pub async fn answer(
        &self,
        commands: &[Command],
        timeout: Duration,
        clientless: bool,
        framing: &Framing,
        nonce: &Nonce,
    ) -> (Result<Answer, TmuxError>, Used) {
        // Waiting for a turn counts against the caller's time, as a slow tmux would.
        let permit = tokio::time::timeout(timeout, self.permits.acquire()).await;
        let Ok(Ok(_permit)) = permit else {
            let error = TmuxError::Timeout {
                command: summarize(commands),
                after: timeout,
            };
            return (Err(error), Used::Process);
        };
        let now = self.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
        self.peak.fetch_max(now, Ordering::Relaxed);
        self.round_trips.fetch_add(1, Ordering::Relaxed);
        let result = self.run_unbounded(commands, timeout, clientless, framing, nonce).await;
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
        result
    }

    async fn run_unbounded(
        &self,
        commands: &[Command],
        timeout: Duration,
        clientless: bool,
        framing: &Framing,
        nonce: &Nonce,
    ) -> (Result<Answer, TmuxError>, Used) {
        if let NativeState::Ready { socket, default_socket } = self.native_state() {
            let server = native::Server {
                socket: &socket,
                default_socket,
                protocol: self.protocol,
            };
            let outcome = native::run_all(server, commands, timeout, clientless, framing, nonce);
            match outcome.await {
                Outcome::Done(result) => return (result, Used::Native),
                // No server there, or not where we looked: a tmux process says which,
                // in tmux's words; the next call tries the socket again.
                Outcome::NotReached(error) => {
                    tracing::debug!(%error, socket = %socket.display(), "cannot connect to the tmux socket");
                }
                Outcome::Unspoken { reason, sent } => {
                    self.give_up_native(&reason);
                    if sent && !commands.iter().all(Command::is_read_only) {
                        let error = TmuxError::Lost {
                            command: summarize(commands),
                        };
                        return (Err(error), Used::Native);
                    }
                }
            }
        }
        let answer = subprocess::run_all(
            &self.launcher,
            &self.address,
            commands,
            timeout,
            clientless,
            framing,
            nonce,
        );
        (answer.await, Used::Process)
    }

    /// Uses processes from now on, and says why once.
    fn give_up_native(&self, reason: &str) {
        let mut state = self.native.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if matches!(*state, NativeState::Ready { .. }) {
            tracing::warn!(target: crate::CLIENT_LOG_TARGET, %reason, "cannot speak tmux's client protocol; running one tmux process per command");
            *state = NativeState::Off(reason.to_string());
        }
    }
}

impl std::fmt::Debug for OneShot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OneShot")
            .field("native", &self.native_state())
            .field("limit", &self.permits.available_permits())
            .finish_non_exhaustive()
    }
}
