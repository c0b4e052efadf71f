//! One control-mode client, owned by one task: a `tmux -C` process attached to a
//! session, or a hidden client of our own that attaches to none
//! ([`crate::tmux::native::hidden`]).
//!
//! Callers hand the task a [`Request`] over a channel and wait on a oneshot. The task
//! writes each request as soon as it arrives (tmux answers a client's lines strictly in
//! order, so several can be in flight) and keeps a first-in first-out queue of what it
//! wrote; the lines it reads belong to the front of that queue until its end nonce.
//! Round trips that only read and are written together share one end line
//! ([`super::shared`]).
//! Reading is done with `fill_buf`/`consume`, so a read interrupted by another branch of
//! the loop loses nothing.

use crate::limits::{CONTROL_IDLE_TIMER, CONTROL_QUEUE_DEPTH, CONTROL_REPLY_MAX_BYTES, CONTROL_WRITE_COALESCE};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::process::Child;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::lines::{LineReader, Read};
use super::protocol::{Guard, GuardKind, Nonce, RoundTrip, Transcript};
use super::reply::{notification_name, parse_counted, parse_reply, Reply};
use super::shared;
use crate::tmux::framing::Framing;
use crate::tmux::launch::{ControlProcess, Launcher};
use crate::tmux::native::{hidden, Identity};
use crate::tmux::ServerAddress;

/// Where command lines go.
type Input = Box<dyn AsyncWrite + Send + Unpin>;

/// What keeps the client alive, ended with the task.
enum Keeper {
    /// The `tmux -C` process.
    Process(Child),
    /// The hidden client's socket, drained by this task.
    Socket(tokio::task::JoinHandle<()>),
}

/// Notifications after which the session we sit on may no longer be a good choice.
const RECHECK_NOTIFICATIONS: [&str; 4] = [
    "sessions-changed",
    "session-changed",
    "client-session-changed",
    "client-detached",
];

/// Why a request got no reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The connection ended; `written` says whether tmux may have seen the request.
    Lost { written: bool },
    /// The front request outlived its deadline; the connection was closed.
    TimedOut,
    /// The reply went past [`CONTROL_REPLY_MAX_BYTES`] or a line past
    /// [`CONTROL_LINE_MAX_BYTES`](crate::limits::CONTROL_LINE_MAX_BYTES).
    TooLarge,
    /// The reply's blocks did not match the commands.
    Malformed(String),
}

/// One round trip for the task to run.
pub struct Request {
    trip: RoundTrip,
    deadline: Instant,
    reply: oneshot::Sender<Result<Reply, Failure>>,
}

/// The caller's side of a running connection; dropping every clone stops the task.
#[derive(Debug, Clone)]
pub struct Handle {
    requests: mpsc::Sender<Request>,
    recheck: Arc<AtomicBool>,
    hidden: bool,
    /// End lines written: one per round trip, or per round trips ending together.
    end_lines: Arc<AtomicUsize>,
}

impl Handle {
    /// Whether this is a hidden client, in no session: no change to sessions or
    /// clients can make it visible.
    pub fn is_hidden(&self) -> bool {
        self.hidden
    }

    /// Whether the task is still running.
    pub fn is_open(&self) -> bool {
        !self.requests.is_closed()
    }

    /// Whether tmux reported a change to sessions or clients since the last call.
    pub fn take_recheck(&self) -> bool {
        self.recheck.swap(false, Ordering::AcqRel)
    }

    /// How many end lines the task has written (tests read it to see round trips share).
    pub fn end_lines(&self) -> usize {
        self.end_lines.load(Ordering::Relaxed)
    }

    /// Runs one round trip.
    ///
    /// # Errors
    /// See [`Failure`].
    pub async fn send(&self, trip: RoundTrip, timeout: Duration) -> Result<Reply, Failure> {
        let (reply, answer) = oneshot::channel();
        let deadline = Instant::now() + timeout;
        let request = Request { trip, deadline, reply };
        if self.requests.send(request).await.is_err() {
            return Err(Failure::Lost { written: false });
        }
        // The task enforces the deadline; this only guards against a task that is stuck.
        match tokio::time::timeout_at(deadline + timeout, answer).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(Failure::Lost { written: true }),
            Err(_) => Err(Failure::TimedOut),
        }
    }
}

/// Starts `tmux -C attach-session` on `session` and waits for the attach to finish.
///
/// # Errors
/// tmux could not be started, refused the attach (its message is returned), or did not
/// answer within `timeout`.
pub async fn open(
    launcher: &Launcher,
    address: &ServerAddress,
    session: &str,
    timeout: Duration,
) -> Result<Handle, String> {
    // -E: do not copy our environment into the session (update-environment).
    // ignore-size: never resize the user's windows. no-output: no %output stream.
    let args = [
        "-C",
        "attach-session",
        "-E",
        "-t",
        session,
        "-f",
        "ignore-size,no-output",
    ];
    let ControlProcess { child, input, output } = launcher
        .spawn_control(address, args.map(String::from).into())
        .map_err(|e| format!("cannot start {}: {e}", launcher.describe()))?;
    // On a failure below the process is dropped, not killed: it may not have finished
    // identifying, and its closed input ends it (Launcher::spawn_control).
    let mut reader = LineReader::new(Box::new(output));
    match tokio::time::timeout(timeout, read_opening_block(&mut reader)).await {
        Ok(Ok(())) => {}
        Ok(Err(message)) => return Err(message),
        Err(_) => return Err(format!("tmux did not attach within {timeout:?}")),
    }
    Ok(start(Keeper::Process(child), Box::new(input), reader, false))
}

/// Identifies a hidden control client (see [`hidden`]) on the server at `socket`. It
/// runs no command of its own, so there is no opening block to read: the caller's
/// first round trip is what proves the client works.
///
/// # Errors
/// The socket could not be reached or written.
pub async fn open_hidden(socket: &std::path::Path, identity: &Identity<'_>) -> Result<Handle, String> {
    let client = hidden::open(socket, identity)
        .await
        .map_err(|e| format!("cannot open a hidden control client on {}: {e}", socket.display()))?;
    let drain = tokio::spawn(hidden::drain(client.socket));
    let reader = LineReader::new(Box::new(client.output));
    Ok(start(Keeper::Socket(drain), Box::new(client.input), reader, true))
}

/// Starts the task that owns the client.
fn start(keeper: Keeper, stdin: Input, reader: LineReader, hidden: bool) -> Handle {
    let (requests, queue) = mpsc::channel(CONTROL_QUEUE_DEPTH);
    let recheck = Arc::new(AtomicBool::new(false));
    let end_lines = Arc::new(AtomicUsize::new(0));
    let task = Task {
        keeper,
        stdin,
        reader,
        queue,
        in_flight: VecDeque::new(),
        transcript: Transcript::default(),
        oversized: false,
        end_seen: false,
        foreign_block: None,
        recheck: Arc::clone(&recheck),
        end_lines: Arc::clone(&end_lines),
        resend: Vec::new(),
    };
    tokio::spawn(task.run());
    Handle {
        requests,
        recheck,
        hidden,
        end_lines,
    }
}

/// Discards the block tmux sends for the attach command itself; it answers nothing we
/// asked, and matching by order would hand it to the first caller.
async fn read_opening_block(reader: &mut LineReader) -> Result<(), String> {
    let mut message = Vec::new();
    let mut open = None;
    loop {
        let line = match reader.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => {
                let said = String::from_utf8_lossy(&message).trim().to_string();
                return Err(if said.is_empty() {
                    "tmux closed the control connection while attaching".into()
                } else {
                    said
                });
            }
            Err(error) => return Err(error),
        };
        match (open, Guard::parse(&line)) {
            (None, Some(guard)) if guard.kind == GuardKind::Begin => open = Some(guard.number),
            (Some(number), Some(guard)) if guard.kind != GuardKind::Begin && guard.number == number => {
                return match guard.kind {
                    GuardKind::End => Ok(()),
                    _ => Err(String::from_utf8_lossy(&message).trim().to_string()),
                };
            }
            (Some(_), _) => {
                message.extend_from_slice(&line);
                message.push(b'\n');
            }
            (None, _) => {}
        }
    }
}

/// Requests written to tmux behind one end line (the last one's), not yet answered.
struct InFlight {
    requests: Vec<Request>,
}

impl InFlight {
    /// The nonce of the end line that closes them.
    fn end(&self) -> &Nonce {
        &self.requests[self.requests.len() - 1].trip.nonce
    }

    fn deadline(&self) -> Instant {
        self.requests
            .iter()
            .map(|r| r.deadline)
            .min()
            .unwrap_or_else(Instant::now)
    }

    fn fail(self, failure: &Failure) {
        for request in self.requests {
            let _ = request.reply.send(Err(failure.clone()));
        }
    }
}

struct Task {
    keeper: Keeper,
    stdin: Input,
    reader: LineReader,
    queue: mpsc::Receiver<Request>,
    /// Written requests, in the order tmux will answer them.
    in_flight: VecDeque<InFlight>,
    /// The lines of the front request's round trip so far.
    transcript: Transcript,
    oversized: bool,
    /// The front request's end nonce was read; its `%end` line comes next.
    end_seen: bool,
    /// A hook's block seen while nothing was in flight, skipped to its end.
    foreign_block: Option<u64>,
    recheck: Arc<AtomicBool>,
    end_lines: Arc<AtomicUsize>,
    /// Round trips whose shared reply could not be cut with certainty, to send again,
    /// each alone.
    resend: Vec<Request>,
}

enum Step {
    Read(Result<Read, String>),
    Request(Option<Request>),
    Deadline,
}

impl Task {
    async fn run(mut self) {
        let reason = self.serve().await;
        tracing::info!(target: crate::CLIENT_LOG_TARGET, %reason, "the tmux control connection closed; the next call opens another");
        // Nothing in flight will be answered now.
        for round_trip in self.in_flight.drain(..) {
            round_trip.fail(&Failure::Lost { written: true });
        }
        for request in self.resend.drain(..) {
            let _ = request.reply.send(Err(Failure::Lost { written: true }));
        }
        self.queue.close();
        while let Ok(request) = self.queue.try_recv() {
            let _ = request.reply.send(Err(Failure::Lost { written: false }));
        }
        match &mut self.keeper {
            // tmux answered the attach, so the client is fully identified and a
            // signal cannot catch it part way (Launcher::spawn_control).
            Keeper::Process(child) => {
                let _ = child.start_kill();
                let _ = child.wait().await;
            }
            // Closing the input ends the client; so does closing its socket.
            Keeper::Socket(drain) => drain.abort(),
        }
    }

    /// Runs until the connection ends; returns why.
    async fn serve(&mut self) -> String {
        let mut accepting = true;
        // One timer for the front request's deadline, moved only when the front changes.
        let timer = tokio::time::sleep(CONTROL_IDLE_TIMER);
        tokio::pin!(timer);
        let mut armed: Option<Instant> = None;
        loop {
            if !accepting && self.in_flight.is_empty() {
                return "every caller went away".into();
            }
            let deadline = self.in_flight.front().map(InFlight::deadline);
            if let Some(deadline) = deadline.filter(|d| armed != Some(*d)) {
                timer.as_mut().reset(deadline);
                armed = Some(deadline);
            }
            let step = tokio::select! {
                read = self.reader.read() => Step::Read(read),
                request = self.queue.recv(), if accepting => Step::Request(request),
                () = &mut timer, if deadline.is_some() => Step::Deadline,
            };
            match step {
                Step::Read(Ok(read)) => {
                    // Handle every line already buffered before waiting again.
                    let mut next = Some(read);
                    while let Some(read) = next {
                        match read {
                            Read::Line => {
                                let line = std::mem::take(&mut self.reader.pending);
                                let handled = self.on_line(&line);
                                self.reader.pending = line;
                                self.reader.done();
                                if let Err(reason) = handled {
                                    return reason;
                                }
                            }
                            Read::Overlong => self.oversized |= !self.in_flight.is_empty(),
                            Read::Eof => return "tmux closed the connection".into(),
                        }
                        next = self.reader.buffered();
                    }
                    if !self.resend.is_empty() {
                        let requests = std::mem::take(&mut self.resend);
                        if let Err(reason) = self.write_all(requests, false).await {
                            return reason;
                        }
                    }
                }
                Step::Read(Err(error)) => return error,
                Step::Request(Some(request)) => {
                    if let Err(reason) = self.write(request).await {
                        return reason;
                    }
                }
                Step::Request(None) => accepting = false,
                Step::Deadline => {
                    if let Some(front) = self.in_flight.pop_front() {
                        front.fail(&Failure::TimedOut);
                    }
                    // tmux may be stuck on that command; this client's queue is stuck
                    // behind it. A fresh connection starts with an empty queue.
                    return "a command timed out".into();
                }
            }
        }
    }

    /// Writes `first` and every request already queued behind it in one write: tmux then
    /// reads them in one go and runs its event loop once for all of them, instead of
    /// once per request (a batch's sixteen operations arrive together).
    async fn write(&mut self, first: Request) -> Result<(), String> {
        let mut requests = vec![first];
        while requests.len() < CONTROL_WRITE_COALESCE {
            match self.queue.try_recv() {
                Ok(request) => requests.push(request),
                Err(_) => break,
            }
        }
        self.write_all(requests, true).await
    }

    /// Writes `requests` in one write; with `share`, each run of them that only reads
    /// ends with one end line ([`shared`]), else each gets its own.
    async fn write_all(&mut self, mut requests: Vec<Request>, share: bool) -> Result<(), String> {
        // A caller that gave up before its request was sent is not sent.
        requests.retain(|request| !request.reply.is_closed());
        let Some(deadline) = requests.iter().map(|r| r.deadline).min() else {
            return Ok(());
        };
        let mut text = String::with_capacity(requests.iter().map(|r| r.trip.line.len() + 40).sum());
        let mut round_trips: Vec<InFlight> = Vec::new();
        let mut open: Vec<Request> = Vec::new();
        let mut requests = requests.into_iter().peekable();
        while let Some(request) = requests.next() {
            text.push_str(&request.trip.line);
            text.push('\n');
            let shares = |r: &Request| share && r.trip.may_share_end();
            let ends = !shares(&request) || !requests.peek().is_some_and(shares);
            open.push(request);
            if ends {
                let round_trip = InFlight {
                    requests: std::mem::take(&mut open),
                };
                text.push_str(round_trip.end().end());
                text.push('\n');
                round_trips.push(round_trip);
            }
        }
        let written = tokio::time::timeout_at(deadline, self.stdin.write_all(text.as_bytes())).await;
        let failure = match written {
            Ok(Ok(())) => None,
            Ok(Err(error)) => Some((Failure::Lost { written: true }, format!("writing to tmux: {error}"))),
            Err(_) => Some((Failure::TimedOut, "tmux stopped reading commands".to_string())),
        };
        if let Some((failure, reason)) = failure {
            for round_trip in round_trips {
                round_trip.fail(&failure);
            }
            return Err(reason);
        }
        self.end_lines.fetch_add(round_trips.len(), Ordering::Relaxed);
        if self.in_flight.is_empty() {
            // The rest of a hook's block that was open now lands in this reply's
            // transcript (which takes foreign blocks); idle lines after the reply must
            // be watched again, or session changes would go unnoticed.
            self.foreign_block = None;
        }
        self.in_flight.extend(round_trips);
        Ok(())
    }

    fn on_line(&mut self, line: &[u8]) -> Result<(), String> {
        let Some(front) = self.in_flight.front() else {
            self.idle_line(line);
            return Ok(());
        };
        if self.end_seen {
            // The guard that closes the end nonce's block closes the round trip: `%error`,
            // since tmux knows no command by that name.
            if !Guard::parse(line).is_some_and(|g| g.kind != GuardKind::Begin) {
                return Err("the end marker's block did not close".into());
            }
            self.end_seen = false;
            self.finish();
            return Ok(());
        }
        // tmux's whole line is `parse error: unknown command: <nonce>`; only the nonce,
        // which pane text never sees, is relied on, at the end of the line.
        // The last byte first: a capture's thousands of rows are each compared, and
        // almost all differ there.
        let end_line = front.end().end_line();
        if line.last() == end_line.last() && line.ends_with(end_line) {
            self.end_seen = true;
            return Ok(());
        }
        if self.transcript.byte_len() + line.len() > CONTROL_REPLY_MAX_BYTES {
            self.oversized = true;
        }
        if !self.oversized {
            self.transcript.push(line);
        }
        Ok(())
    }

    /// A line while nothing is in flight: a notification, or a hook's block.
    fn idle_line(&mut self, line: &[u8]) {
        let guard = Guard::parse(line);
        match (self.foreign_block, guard) {
            (Some(number), Some(g)) if g.kind != GuardKind::Begin && g.number == number => self.foreign_block = None,
            (Some(_), _) => {}
            (None, Some(g)) if g.kind == GuardKind::Begin => self.foreign_block = Some(g.number),
            (None, _) => {
                if notification_name(line).is_some_and(|n| RECHECK_NOTIFICATIONS.contains(&n)) {
                    self.recheck.store(true, Ordering::Release);
                }
            }
        }
    }

    fn finish(&mut self) {
        let Some(front) = self.in_flight.pop_front() else {
            return;
        };
        let oversized = std::mem::take(&mut self.oversized);
        let ended = self.transcript.drop_end_block_begin();
        let mut requests = front.requests;
        if requests.len() == 1 {
            let result = if oversized {
                Err(Failure::TooLarge)
            } else {
                ended
                    .and_then(|()| parse(&self.transcript, &requests[0].trip))
                    .map_err(Failure::Malformed)
            };
            self.answer(requests.remove(0), result);
        } else {
            let most: Vec<usize> = requests.iter().map(|r| r.trip.most_blocks()).collect();
            let cut = match (oversized, ended) {
                (false, Ok(())) => shared::cut(&self.transcript, &most),
                (true, _) => Err("the shared reply is too large"),
                (false, Err(_)) => Err("the end marker did not follow a %begin line"),
            };
            match cut {
                Ok(parts) => {
                    for (request, part) in requests.into_iter().zip(parts) {
                        let result = parse(&part, &request.trip).map_err(Failure::Malformed);
                        self.answer(request, result);
                    }
                }
                Err(refusal) => {
                    tracing::debug!(target: crate::CLIENT_LOG_TARGET, refusal, count = requests.len(), "sending round trips that shared an end line again, each alone");
                    self.resend.extend(requests);
                }
            }
        }
        self.transcript.clear();
    }

    /// Hands `request` its result, noting the notifications that call for a recheck.
    fn answer(&self, request: Request, result: Result<Reply, Failure>) {
        if let Ok(reply) = &result {
            if reply
                .notifications
                .iter()
                .any(|n| RECHECK_NOTIFICATIONS.contains(&n.as_str()))
            {
                self.recheck.store(true, Ordering::Release);
            }
        }
        let _ = request.reply.send(result);
    }
}

/// One round trip's transcript, cut into its commands' outputs.
fn parse(transcript: &Transcript, trip: &RoundTrip) -> Result<Reply, String> {
    match &trip.framing {
        Framing::Separated => parse_reply(transcript, &trip.nonce, trip.expected),
        Framing::Lines(lines) => parse_counted(transcript, lines),
    }
}
