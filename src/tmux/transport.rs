//! Choosing the transport of each round trip: a persistent tmux control-mode
//! connection ([`super::control`]), with a one-shot client per command
//! ([`super::oneshot`]: tmux's socket protocol, else a process) as the fallback.
//!
//! A tool call then costs a write and a read on a pipe instead of a process spawn. The
//! connection is made on first use, attached only where the user cannot tell (see
//! [`policy`]), and made again after the server restarts or the client is killed. A
//! connection that leaves a round trip unanswered past its timeout is wedged: it is
//! closed, and one-shot clients carry calls for a while before control mode is tried
//! again. A request that was written when the connection died is sent again (on a new
//! connection, else a one-shot client) if it only reads; a command that changes
//! something is reported as lost instead, because it may have run.

use crate::limits::CONTROL_LINE_MAX_BYTES;
use crate::limits::{CONTROL_ATTACH_RETRY, CONTROL_REPLY_MAX_BYTES, CONTROL_WEDGED_RETRY};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Mutex;
use tokio::time::Instant;

use super::command::{summarize, Command};
use super::control::connection::{self, Failure, Handle};
use super::control::policy;
use super::control::protocol::{round_trip_text, Nonce, Reply};
use super::error::{classify, TmuxError};
use super::framing::Framing;
use super::launch::Launcher;
use super::oneshot::{NativeState, OneShot, Used};
use super::ServerAddress;

/// How a command was (or will be) sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// Over the persistent `tmux -C` connection.
    Control,
    /// As tmux's own command client, over the server's socket, one connection per round
    /// trip and no process.
    Native,
    /// One tmux process per round trip.
    Subprocess,
}

/// Which transport a round trip would use now, and why (for `paneward doctor`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportReport {
    pub transport: Transport,
    pub why: String,
}

/// The executor state behind [`crate::tmux::Tmux`].
pub struct Executor {
    launcher: Launcher,
    address: ServerAddress,
    control_enabled: bool,
    slot: Mutex<Slot>,
    oneshot: OneShot,
}

#[derive(Default)]
struct Slot {
    connection: Option<Arc<Handle>>,
    /// No attach attempt before this instant.
    retry_at: Option<Instant>,
    last_transport: Option<Transport>,
    /// Why the last attach was refused or failed.
    refusal: Option<String>,
}

impl Slot {
    /// Keeps control mode off for [`CONTROL_WEDGED_RETRY`] after a connection stopped
    /// answering for `after`.
    fn wedged(&mut self, after: Duration) {
        tracing::warn!(target: crate::CLIENT_LOG_TARGET, ?after, "the control connection stopped answering; using one-shot clients for a while");
        self.retry_at = Some(Instant::now() + CONTROL_WEDGED_RETRY);
        self.refusal = Some(format!(
            "the last control connection stopped answering (no reply within {after:?}); tried again {CONTROL_WEDGED_RETRY:?} later"
        ));
    }
}

impl std::fmt::Debug for Executor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executor")
            .field("launcher", &self.launcher)
            .field("address", &self.address)
            .field("control_enabled", &self.control_enabled)
            .finish_non_exhaustive()
    }
}

impl Executor {
    /// `native` allows the socket-protocol client; `limit` bounds one-shot clients.
    pub fn new(launcher: Launcher, address: ServerAddress, control_enabled: bool, native: bool, limit: usize) -> Self {
        Self {
            oneshot: OneShot::new(launcher.clone(), address.clone(), native, limit),
            launcher,
            address,
            control_enabled,
            slot: Mutex::new(Slot::default()),
        }
    }

    /// How to start tmux and the server it is pointed at, for a process of its own.
    pub fn target(&self) -> (&Launcher, &ServerAddress) {
        (&self.launcher, &self.address)
    }

    /// The most one-shot round trips that were ever in flight at once.
    pub fn peak_one_shots(&self) -> usize {
        self.oneshot.peak_in_flight()
    }

    /// Which transport a round trip would use now, and why.
    pub async fn report(&self) -> TransportReport {
        let slot = self.slot.lock().await;
        if slot.connection.as_ref().is_some_and(|c| c.is_open()) {
            return TransportReport {
                transport: Transport::Control,
                why: "a control-mode client is attached where no one can tell".into(),
            };
        }
        let control = if !self.control_enabled {
            "control mode is turned off".to_string()
        } else if let Some(refusal) = &slot.refusal {
            format!("control mode is refused ({refusal})")
        } else {
            "no control-mode client is attached yet".to_string()
        };
        match self.oneshot.native_state() {
            NativeState::Ready { socket, .. } => TransportReport {
                transport: Transport::Native,
                why: format!("{control}; tmux's client protocol on {}", socket.display()),
            },
            NativeState::Off(reason) => TransportReport {
                transport: Transport::Subprocess,
                why: format!("{control}; {reason}"),
            },
        }
    }

    /// Whether round trips sent now go over a live control connection, where tmux
    /// answers them in the order they were sent even when several are in flight.
    pub async fn keeps_order(&self) -> bool {
        self.slot.lock().await.connection.as_ref().is_some_and(|c| c.is_open())
    }

    /// The transport the last round trip used, if any ran.
    pub async fn last_transport(&self) -> Option<Transport> {
        self.slot.lock().await.last_transport
    }

    /// Runs `commands` in one round trip; see [`crate::tmux::Tmux::run_all`].
    ///
    /// # Errors
    /// The first failing command's error, a lost connection for a command that changes
    /// something, or a timeout.
    pub async fn run_all(
        &self,
        commands: &[Command],
        timeout: Duration,
        framing: &Framing,
    ) -> Result<Vec<Vec<u8>>, TmuxError> {
        let read_only = commands.iter().all(Command::is_read_only);
        // A second attempt only ever follows a lost connection.
        for _attempt in 0..2 {
            let Some(connection) = self.connection().await else {
                break;
            };
            let nonce = Nonce::new();
            let text = round_trip_text(commands, &nonce, framing);
            match connection.send(text, nonce, commands.len(), framing.clone(), timeout).await {
                Ok(reply) => return self.outputs(commands, reply),
                Err(Failure::Lost { written }) => {
                    self.forget(&connection).await;
                    if written && !read_only {
                        return Err(TmuxError::Lost {
                            command: summarize(commands),
                        });
                    }
                }
                Err(Failure::TimedOut) => {
                    self.wedged(&connection, timeout).await;
                    return Err(TmuxError::Timeout {
                        command: summarize(commands),
                        after: timeout,
                    });
                }
                Err(Failure::TooLarge) => {
                    return Err(TmuxError::Protocol {
                        command: summarize(commands),
                        detail: format!(
                            "the reply is larger than {CONTROL_REPLY_MAX_BYTES} bytes (or a line larger than {CONTROL_LINE_MAX_BYTES})"
                        ),
                    })
                }
                Err(Failure::Malformed(detail)) => {
                    return Err(TmuxError::Protocol {
                        command: summarize(commands),
                        detail,
                    })
                }
            }
        }
        let (result, used) = self.oneshot.run_all(commands, timeout, false, framing).await;
        self.slot.lock().await.last_transport = Some(match used {
            Used::Native => Transport::Native,
            Used::Process => Transport::Subprocess,
        });
        result
    }

    fn outputs(&self, commands: &[Command], reply: Reply) -> Result<Vec<Vec<u8>>, TmuxError> {
        match reply.failure {
            None => Ok(reply.outputs),
            Some(message) => {
                let failed = commands
                    .get(reply.outputs.len())
                    .map_or_else(|| summarize(commands), Command::summary);
                Err(classify(
                    &failed,
                    &self.address.label(),
                    &String::from_utf8_lossy(&message),
                ))
            }
        }
    }

    /// The live connection, made (or checked) first if needed; `None` means use a
    /// subprocess.
    async fn connection(&self) -> Option<Arc<Handle>> {
        if !self.control_enabled {
            return None;
        }
        let mut slot = self.slot.lock().await;
        if let Some(connection) = slot.connection.clone() {
            let verdict = if !connection.is_open() {
                Verdict::Broken
            } else if connection.take_recheck() {
                self.recheck(&connection).await
            } else {
                Verdict::Stay
            };
            slot.connection = None;
            match verdict {
                Verdict::Stay => {
                    slot.connection = Some(Arc::clone(&connection));
                    slot.last_transport = Some(Transport::Control);
                    return Some(connection);
                }
                // Our presence would now show; leave, and give tmux time to see us go
                // before facts are read again (or they would count us).
                Verdict::Leave => {
                    slot.retry_at = Some(Instant::now() + CONTROL_ATTACH_RETRY);
                    return None;
                }
                Verdict::Wedged => {
                    slot.wedged(super::TMUX_COMMAND_TIMEOUT);
                    return None;
                }
                Verdict::Broken => {}
            }
        }
        if slot.retry_at.is_some_and(|at| Instant::now() < at) {
            return None;
        }
        match self.attach().await {
            Ok(connection) => {
                let connection = Arc::new(connection);
                slot.connection = Some(Arc::clone(&connection));
                slot.retry_at = None;
                slot.refusal = None;
                slot.last_transport = Some(Transport::Control);
                Some(connection)
            }
            Err(reason) => {
                tracing::debug!(target: crate::CLIENT_LOG_TARGET, %reason, "using a one-shot tmux client per command");
                slot.refusal = Some(reason);
                slot.retry_at = Some(Instant::now() + CONTROL_ATTACH_RETRY);
                None
            }
        }
    }

    /// Chooses a session with a client-less query and attaches to it.
    async fn attach(&self) -> Result<Handle, String> {
        let query = policy::facts_query();
        let (outputs, _) = self
            .oneshot
            .run_all(&query, super::TMUX_COMMAND_TIMEOUT, true, &Framing::Separated)
            .await;
        let outputs = outputs.map_err(|e| e.to_string())?;
        let facts = policy::parse_facts(&outputs).map_err(|e| e.to_string())?;
        let session = policy::choose(&facts).map_err(|r| r.to_string())?;
        let handle = connection::open(&self.launcher, &self.address, &session, super::TMUX_COMMAND_TIMEOUT).await?;
        // tmux reports our own attach (`%session-changed`) before it reads a command, so
        // once a first round trip is back, that report has been read and can be dropped.
        let query = [Command::new("display-message").arg("-p").arg("#{client_name}")];
        let nonce = Nonce::new();
        let text = round_trip_text(&query, &nonce, &Framing::Separated);
        let name = handle
            .send(text, nonce, 1, Framing::Separated, super::TMUX_COMMAND_TIMEOUT)
            .await
            .map_err(|failure| format!("the new control connection failed: {failure:?}"))?;
        handle.take_recheck();
        tracing::info!(
            target: crate::CLIENT_LOG_TARGET,
            client = %String::from_utf8_lossy(name.outputs.first().map_or(&[][..], Vec::as_slice)).trim(),
            %session,
            "control connection attached"
        );
        Ok(handle)
    }

    /// Re-reads the facts over the connection after tmux reported a change, and says
    /// whether to stay attached where we are.
    async fn recheck(&self, connection: &Handle) -> Verdict {
        let query = policy::facts_query();
        let nonce = Nonce::new();
        let text = round_trip_text(&query, &nonce, &Framing::Separated);
        let reply = match connection
            .send(
                text,
                nonce,
                query.len(),
                Framing::Separated,
                super::TMUX_COMMAND_TIMEOUT,
            )
            .await
        {
            Ok(reply) => reply,
            Err(Failure::TimedOut) => return Verdict::Wedged,
            Err(_) => return Verdict::Broken,
        };
        let facts = self
            .outputs(&query, reply)
            .and_then(|outputs| policy::parse_facts(&outputs));
        match facts.map(|facts| policy::stay(&facts)) {
            Ok(Ok(())) => Verdict::Stay,
            Ok(Err(reason)) => {
                tracing::info!(target: crate::CLIENT_LOG_TARGET, %reason, "leaving the session the control client sat on");
                Verdict::Leave
            }
            Err(error) => {
                tracing::debug!(%error, "cannot read the sessions over the control connection");
                Verdict::Leave
            }
        }
    }

    /// Drops `connection`, which stopped answering (its task has closed it), and sends
    /// calls through one-shot clients for [`CONTROL_WEDGED_RETRY`]: tmux may wedge the
    /// next control client the same way, and each would cost a whole timeout.
    async fn wedged(&self, connection: &Arc<Handle>, after: Duration) {
        let mut slot = self.slot.lock().await;
        if slot.connection.as_ref().is_some_and(|c| Arc::ptr_eq(c, connection)) {
            slot.connection = None;
        }
        slot.wedged(after);
    }

    /// Drops `connection` if it is still the current one, so the next call makes another.
    async fn forget(&self, connection: &Arc<Handle>) {
        let mut slot = self.slot.lock().await;
        if slot.connection.as_ref().is_some_and(|c| Arc::ptr_eq(c, connection)) {
            slot.connection = None;
        }
    }
}

/// What a check of the connection found.
enum Verdict {
    Stay,
    /// Leave: staying would now change what the user's own clients do.
    Leave,
    /// The connection is gone; make another at once.
    Broken,
    /// The connection stopped answering; use one-shot clients for a while.
    Wedged,
}
