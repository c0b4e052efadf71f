//! Choosing the transport of each round trip: a persistent tmux control-mode
//! connection ([`super::control`]), with a one-shot client per command
//! ([`super::oneshot`]: tmux's socket protocol, else a process) as the fallback.
//!
//! A tool call then costs a write and a read on a pipe instead of a process spawn. The
//! connection is made on first use, attached only where the user cannot tell (see
//! [`policy`]), and made again after the server restarts or the client is killed. A
//! connection that leaves a round trip unanswered past its timeout is wedged: it is
//! closed, and one-shot clients carry calls for a while before control mode is tried
//! again. Each later try reads the policy's facts in the same round trip as a call's own
//! reads (the query goes first in the chain the one-shot client sends), so a refused
//! server costs one tmux connection per round trip, not two; a round trip that changes
//! something goes alone and leaves the try to the next one that only reads. A request
//! that was written when the connection died is sent again (on a new connection, else a
//! one-shot client) if it only reads; a command that changes something is reported as
//! lost instead, because it may have run.

use crate::limits::CONTROL_LINE_MAX_BYTES;
use crate::limits::{CONTROL_ATTACH_RETRY, CONTROL_REPLY_MAX_BYTES, CONTROL_WEDGED_RETRY};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Mutex;
use tokio::time::Instant;

use super::command::{summarize, Command};
use super::control::connection::{self, Failure, Handle};
use super::control::policy;
use super::control::protocol::RoundTrip;
use super::control::reply::Reply;
use super::error::{classify, TmuxError};
use super::framing::Framing;
use super::gather;
use super::launch::Launcher;
use super::native::{Identity, Place};
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
    hidden_enabled: bool,
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
    /// The transports `options` allow.
    pub fn new(launcher: Launcher, address: ServerAddress, options: &super::Options) -> Self {
        Self {
            oneshot: OneShot::new(launcher.clone(), address.clone(), options.native, options.max_clients),
            launcher,
            address,
            control_enabled: options.control,
            hidden_enabled: options.hidden,
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

    /// How many one-shot round trips ran (each one tmux connection or process).
    pub fn one_shot_round_trips(&self) -> usize {
        self.oneshot.round_trips()
    }

    /// How many end lines the live control connection has written, if one is open:
    /// one per round trip, or one for round trips that ended together.
    pub async fn control_end_lines(&self) -> Option<usize> {
        let slot = self.slot.lock().await;
        slot.connection.as_ref().filter(|c| c.is_open()).map(|c| c.end_lines())
    }

    /// Whether a control connection is open.
    pub async fn is_connected(&self) -> bool {
        let slot = self.slot.lock().await;
        slot.connection.as_ref().is_some_and(|c| c.is_open())
    }

    /// Lets the control connection go: its task finishes the round trips in flight and
    /// ends the client; the next round trip opens another. Whether one was open.
    pub async fn disconnect(&self) -> bool {
        let mut slot = self.slot.lock().await;
        slot.connection.take().is_some_and(|c| c.is_open())
    }

    /// Which transport a round trip would use now, and why.
    pub async fn report(&self) -> TransportReport {
        let slot = self.slot.lock().await;
        if let Some(connection) = slot.connection.as_ref().filter(|c| c.is_open()) {
            let why = if connection.is_hidden() {
                "a hidden control-mode client, attached to no session"
            } else {
                "a control-mode client is attached where no one can tell"
            };
            return TransportReport {
                transport: Transport::Control,
                why: why.into(),
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
        let may_ride = read_only && rides_as_clientless();
        let mut ride = false;
        // A second attempt only ever follows a lost connection.
        for _attempt in 0..2 {
            let connection = match self.connection(may_ride).await {
                Route::Control(connection) => connection,
                Route::OneShot { ride: facts } => {
                    ride = facts;
                    break;
                }
            };
            match connection.send(RoundTrip::new(commands, framing), timeout).await {
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
        // The facts go in front of separated outputs only: a chain cut by line counts
        // has no room for them.
        if ride && framing.separated() {
            return self.ride_along(commands, timeout).await;
        }
        // Inside a gathered batch, reads wait for the list their neighbours go in.
        if let Some(queue) = gather::queue_for(commands, timeout) {
            return gather::queued(&queue, commands).await;
        }
        let (result, used) = self.oneshot.run_all(commands, timeout, false, framing).await;
        self.slot.lock().await.last_transport = Some(used.into());
        result
    }

    /// Runs `work` with the reads it sends to one-shot clients gathered into as few
    /// round trips as it allows; see `tmux::gather`.
    pub async fn gathered<F: std::future::Future>(&self, work: F) -> F::Output {
        let (output, used) = gather::gathered(&self.oneshot, work).await;
        if let Some(used) = used {
            self.slot.lock().await.last_transport = Some(used.into());
        }
        output
    }

    /// Runs `commands` (reads only) on a one-shot client behind the facts query, then
    /// attaches for later round trips if the facts now allow it: one connection for
    /// both. The facts are read first, before anything of the call could move tmux's
    /// choice of current session.
    async fn ride_along(&self, commands: &[Command], timeout: Duration) -> Result<Vec<Vec<u8>>, TmuxError> {
        let query = policy::facts_query();
        let asked = query.len();
        let chain: Vec<Command> = query.into_iter().chain(commands.iter().cloned()).collect();
        let (result, used) = self.oneshot.run_all(&chain, timeout, true, &Framing::Separated).await;
        self.slot.lock().await.last_transport = Some(used.into());
        let mut outputs = result.map_err(|error| own_name(error, &summarize(&chain), commands))?;
        if outputs.len() < asked {
            return Err(TmuxError::Protocol {
                command: summarize(commands),
                detail: format!("expected {} outputs, got {}", chain.len(), outputs.len()),
            });
        }
        let own = outputs.split_off(asked);
        let facts = policy::parse_facts(&outputs).map_err(|e| e.to_string());
        let mut slot = self.slot.lock().await;
        // Another call may have attached meanwhile.
        if slot.connection.is_none() {
            match facts {
                Ok(facts) => {
                    let attached = self.attach_with(&facts).await;
                    self.settle(&mut slot, attached);
                }
                Err(reason) => slot.refusal = Some(reason),
            }
        }
        Ok(own)
    }

    /// Keeps the outcome of an attach attempt in `slot`.
    fn settle(&self, slot: &mut Slot, attached: Result<Handle, String>) -> Option<Arc<Handle>> {
        match attached {
            Ok(connection) => {
                let connection = Arc::new(connection);
                slot.connection = Some(Arc::clone(&connection));
                slot.retry_at = None;
                slot.refusal = None;
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

    /// The live connection, made (or checked) first if needed, or a one-shot client.
    /// With `may_ride` (the round trip only reads), a due retry of control mode is left
    /// to the round trip itself ([`Executor::ride_along`]) instead of a round trip of its
    /// own; the first attempt of all still reads the facts alone, so a server that allows
    /// control mode answers the very first call over it.
    async fn connection(&self, may_ride: bool) -> Route {
        if !self.control_enabled {
            return Route::OneShot { ride: false };
        }
        let mut slot = self.slot.lock().await;
        if let Some(connection) = slot.connection.clone() {
            let verdict = if !connection.is_open() {
                Verdict::Broken
            } else if !connection.is_hidden() && connection.take_recheck() {
                self.recheck(&connection).await
            } else {
                Verdict::Stay
            };
            slot.connection = None;
            match verdict {
                Verdict::Stay => {
                    slot.connection = Some(Arc::clone(&connection));
                    slot.last_transport = Some(Transport::Control);
                    return Route::Control(connection);
                }
                // Our presence would now show; leave, and give tmux time to see us go
                // before facts are read again (or they would count us).
                Verdict::Leave => {
                    slot.retry_at = Some(Instant::now() + CONTROL_ATTACH_RETRY);
                    return Route::OneShot { ride: false };
                }
                Verdict::Wedged => {
                    slot.wedged(super::TMUX_COMMAND_TIMEOUT);
                    return Route::OneShot { ride: false };
                }
                Verdict::Broken => {}
            }
        }
        if slot.retry_at.is_some_and(|at| Instant::now() < at) {
            return Route::OneShot { ride: false };
        }
        // A hidden client is in no session, so no policy applies to it: tried first, and
        // free to try where it cannot be had (no local socket, turned off).
        if let Ok(hidden) = self.open_hidden().await {
            if let Some(connection) = self.settle(&mut slot, Ok(hidden)) {
                slot.last_transport = Some(Transport::Control);
                return Route::Control(connection);
            }
        }
        match slot.retry_at {
            // One round trip carries the retry; the others wait for its outcome's time.
            Some(_) if may_ride => {
                slot.retry_at = Some(Instant::now() + CONTROL_ATTACH_RETRY);
                return Route::OneShot { ride: true };
            }
            _ => {}
        }
        let attached = self.attach().await;
        match self.settle(&mut slot, attached) {
            Some(connection) => {
                slot.last_transport = Some(Transport::Control);
                Route::Control(connection)
            }
            None => Route::OneShot { ride: false },
        }
    }

    /// Opens a hidden control client and drops it (see [`crate::tmux::Tmux::probe_hidden_client`]).
    pub async fn probe_hidden(&self) -> Result<(), String> {
        self.open_hidden().await.map(drop)
    }

    /// Opens a hidden control client ([`crate::tmux::native::hidden`]) where tmux's
    /// socket can be reached from here, and proves it with a first round trip.
    async fn open_hidden(&self) -> Result<Handle, String> {
        if !self.hidden_enabled {
            return Err("the hidden client is turned off (--no-hidden-client)".into());
        }
        let NativeState::Ready { socket, default_socket } = self.oneshot.native_state() else {
            return Err("tmux's socket is not reachable from here".into());
        };
        let place = Place::here();
        // The whole environment, as a `tmux -C` process would pass it (`new-session`
        // copies `update-environment` from it), but no pane id of ours: a pane id must
        // not decide which session a command without a target means.
        let identity = place.identity(
            self.oneshot.protocol(),
            default_socket,
            Identity::environment(true, true),
        );
        let opened = tokio::time::timeout(super::TMUX_COMMAND_TIMEOUT, connection::open_hidden(&socket, &identity));
        let handle = match opened.await {
            Ok(handle) => handle?,
            Err(_) => return Err("tmux did not take a hidden control client in time".into()),
        };
        let client = client_name(&handle)
            .await
            .map_err(|failure| format!("the hidden control client failed: {failure:?}"))?;
        tracing::info!(target: crate::CLIENT_LOG_TARGET, %client, "hidden control client ready (attached to no session)");
        Ok(handle)
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
        self.attach_with(&facts).await
    }

    /// Attaches where `facts` (read by a client-less query) allow.
    async fn attach_with(&self, facts: &policy::Facts) -> Result<Handle, String> {
        let session = policy::choose(facts).map_err(|r| r.to_string())?;
        let handle = connection::open(&self.launcher, &self.address, &session, super::TMUX_COMMAND_TIMEOUT).await?;
        // tmux reports our own attach (`%session-changed`) before it reads a command, so
        // once a first round trip is back, that report has been read and can be dropped.
        let client = client_name(&handle)
            .await
            .map_err(|failure| format!("the new control connection failed: {failure:?}"))?;
        handle.take_recheck();
        tracing::info!(target: crate::CLIENT_LOG_TARGET, %client, %session, "control connection attached");
        Ok(handle)
    }

    /// Re-reads the facts over the connection after tmux reported a change, and says
    /// whether to stay attached where we are.
    async fn recheck(&self, connection: &Handle) -> Verdict {
        let query = policy::facts_query();
        let trip = RoundTrip::new(&query, &Framing::Separated);
        let reply = match connection.send(trip, super::TMUX_COMMAND_TIMEOUT).await {
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

/// Where a round trip goes.
enum Route {
    Control(Arc<Handle>),
    /// A one-shot client; with `ride`, the facts query of a due retry goes in front.
    OneShot {
        ride: bool,
    },
}

impl From<Used> for Transport {
    fn from(used: Used) -> Self {
        match used {
            Used::Native => Self::Native,
            Used::Process => Self::Subprocess,
        }
    }
}

/// Whether a round trip sent as usual sees what a client-less one sees: it does when
/// paneward passes on no `TMUX_PANE`, which otherwise makes the caller's session the
/// current one and would hide which session tmux itself picks.
fn rides_as_clientless() -> bool {
    std::env::var_os("TMUX_PANE").is_none()
}

/// An error of the chain with the facts query in front, named by the call's own
/// commands where it named the whole chain.
fn own_name(error: TmuxError, chain: &str, commands: &[Command]) -> TmuxError {
    let own = || summarize(commands);
    match error {
        TmuxError::Timeout { command, after } if command == chain => TmuxError::Timeout { command: own(), after },
        TmuxError::Protocol { command, detail } if command == chain => TmuxError::Protocol { command: own(), detail },
        TmuxError::Lost { command } if command == chain => TmuxError::Lost { command: own() },
        other => other,
    }
}

/// A new control client's first round trip, which proves it works: tmux's name for it.
async fn client_name(handle: &Handle) -> Result<String, Failure> {
    let query = [Command::new("display-message").arg("-p").arg("#{client_name}")];
    let trip = RoundTrip::new(&query, &Framing::Separated);
    let reply = handle.send(trip, super::TMUX_COMMAND_TIMEOUT).await?;
    let name = reply.outputs.first().map_or(&[][..], Vec::as_slice);
    Ok(String::from_utf8_lossy(name).trim().to_string())
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
