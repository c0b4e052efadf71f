//! One one-shot client for many callers' reads: what a read batch's rows send when
//! there is no control connection to pipeline them on.
//!
//! Inside [`gathered`], a round trip that only reads and would go to a one-shot client
//! is queued instead. Whenever the gathered work has nothing left to do but wait, the
//! queue goes to tmux as one command list over one connection (or one process), the
//! commands of the round trips in the order they were queued, a `display-message -p`
//! of a per-call random separator between each two and one in front, and each caller
//! gets its own outputs back. The separators are paneward's own literal (no `#`, so no
//! format), never caller text.
//!
//! tmux stops a command list at the first command that fails. The separators printed
//! before it say which command that was: the round trips before it have their outputs,
//! the one it belongs to gets tmux's error, and those after it were never run and go
//! again in the next list. They only read, so nothing runs twice that changes
//! anything. A list tmux did not start (the leading separator is missing), or an
//! answer that does not cut as expected, sends each round trip alone, as without
//! gathering.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use tokio::sync::oneshot;

use super::command::{summarize, Command};
use super::error::{classify, TmuxError};
use super::framing::{split_on_marker, Answer, Framing};
use super::oneshot::{OneShot, Used};
use super::script::Nonce;
use super::TMUX_COMMAND_TIMEOUT;

tokio::task_local! {
    static QUEUE: Arc<Queue>;
}

/// Round trips waiting for the next list.
#[derive(Default)]
pub struct Queue {
    waiting: Mutex<Vec<Waiting>>,
}

/// A queued round trip and where its outputs go.
struct Waiting {
    commands: Vec<Command>,
    reply: oneshot::Sender<Result<Vec<Vec<u8>>, TmuxError>>,
}

impl Queue {
    fn push(&self, waiting: Waiting) {
        self.waiting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(waiting);
    }

    fn take(&self) -> Vec<Waiting> {
        std::mem::take(&mut *self.waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }
}

/// The queue of the gathered work being polled, if `commands` may join it: reads only
/// (a list cut short is sent again) with the usual timeout (the list has one timeout
/// for all). Commands a caller would have cut by line counts ([`Framing::Lines`]) are
/// cut by separators here: exact either way.
pub fn queue_for(commands: &[Command], timeout: Duration) -> Option<Arc<Queue>> {
    let joins = commands.iter().all(Command::is_read_only) && timeout == TMUX_COMMAND_TIMEOUT;
    joins.then(|| QUEUE.try_with(Arc::clone).ok()).flatten()
}

/// Queues `commands` on `queue` and waits for their outputs.
///
/// # Errors
/// As [`super::Tmux::run_all`].
pub async fn queued(queue: &Queue, commands: &[Command]) -> Result<Vec<Vec<u8>>, TmuxError> {
    let (reply, outputs) = oneshot::channel();
    queue.push(Waiting {
        commands: commands.to_vec(),
        reply,
    });
    outputs.await.unwrap_or_else(|_| {
        Err(TmuxError::Protocol {
            command: summarize(commands),
            detail: "the gathered round trip was dropped before it ran".into(),
        })
    })
}

type Sending<'a> = Pin<Box<dyn Future<Output = Option<Used>> + Send + 'a>>;

/// Runs `work`, sending the reads it queues (see [`queue_for`]) together whenever it
/// waits. Returns its output and the one-shot client the last list went over, if any.
pub async fn gathered<F: Future>(oneshot: &OneShot, work: F) -> (F::Output, Option<Used>) {
    let queue = Arc::new(Queue::default());
    let work = QUEUE.scope(Arc::clone(&queue), work);
    let mut work = std::pin::pin!(work);
    let mut sending: Option<Sending<'_>> = None;
    let mut last = None;
    std::future::poll_fn(|context| loop {
        if let Poll::Ready(output) = work.as_mut().poll(context) {
            return Poll::Ready((output, last));
        }
        if let Some(list) = sending.as_mut() {
            match list.as_mut().poll(context) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(client) => {
                    last = client.or(last);
                    sending = None;
                    // The callers have their outputs: let them go on.
                    continue;
                }
            }
        }
        let waiting = queue.take();
        if waiting.is_empty() {
            return Poll::Pending;
        }
        sending = Some(Box::pin(send(oneshot, waiting)));
    })
    .await
}

/// Sends `waiting` as one list (again from the first round trip not run, after a
/// failure), and answers each caller. Returns the client of the last list sent.
async fn send(oneshot: &OneShot, mut waiting: Vec<Waiting>) -> Option<Used> {
    let mut client = None;
    while waiting.len() > 1 {
        let (rest, used) = send_list(oneshot, waiting).await;
        client = Some(used);
        waiting = rest;
    }
    if let Some(alone) = waiting.pop() {
        let framing = Framing::Separated;
        let (outputs, used) = oneshot
            .run_all(&alone.commands, TMUX_COMMAND_TIMEOUT, false, &framing)
            .await;
        // A caller that gave up waiting needs no answer.
        let _ = alone.reply.send(outputs);
        client = Some(used);
    }
    client
}

/// Sends `waiting` as one list and answers the callers it can; returns those to send
/// again (never run, or each alone when the answer cannot be cut).
async fn send_list(oneshot: &OneShot, waiting: Vec<Waiting>) -> (Vec<Waiting>, Used) {
    let nonce = Nonce::new();
    let leading = Command::new("display-message").arg("-p").arg(nonce.separator());
    let list: Vec<Command> = std::iter::once(leading)
        .chain(waiting.iter().flat_map(|w| w.commands.iter().cloned()))
        .collect();
    let (answer, used) = oneshot
        .answer(&list, TMUX_COMMAND_TIMEOUT, false, &Framing::Separated, &nonce)
        .await;
    let answer = match answer {
        Ok(answer) => answer,
        Err(error) => {
            // No answer at all (a timeout, no server): every caller's own.
            for w in waiting {
                let _ = w.reply.send(Err(same_error(&error, &w.commands)));
            }
            return (Vec::new(), used);
        }
    };
    (answer_each(answer, waiting, nonce.separator(), &oneshot.label()), used)
}

/// Gives each caller its outputs from `answer`; returns the callers to send again.
fn answer_each(answer: Answer, waiting: Vec<Waiting>, separator: &str, label: &str) -> Vec<Waiting> {
    let expected: usize = waiting.iter().map(|w| w.commands.len()).sum();
    let mut parts = split_on_marker(&answer.stdout, separator, expected + 2).into_iter();
    // Before the commands: what precedes the leading separator (nothing), and the
    // leading command's own output, empty (the separator between it and the first
    // command is the split).
    let started = parts.len() >= 3;
    let ran = parts.len().saturating_sub(2);
    let cut = if answer.success {
        ran == expected
    } else {
        ran <= expected
    };
    if !started || !cut {
        // Not what a list tmux ran prints: each round trip alone, as without gathering.
        return waiting;
    }
    parts.nth(1);
    // Commands that printed their output whole: all of them, or those before the one
    // that failed (its part is what it printed before failing, if anything).
    let whole = if answer.success { expected } else { ran - 1 };
    let mut done = 0;
    let mut waiting = waiting.into_iter();
    for w in waiting.by_ref() {
        let count = w.commands.len();
        if done + count <= whole {
            let outputs: Vec<Vec<u8>> = parts.by_ref().take(count).collect();
            let _ = w.reply.send(Ok(outputs));
            done += count;
            continue;
        }
        let error = classify(&summarize(&w.commands), label, &String::from_utf8_lossy(&answer.stderr));
        let _ = w.reply.send(Err(error));
        break;
    }
    waiting.collect()
}

/// `error`, which ended the whole list, as the caller who sent `commands` alone would
/// have had it.
fn same_error(error: &TmuxError, commands: &[Command]) -> TmuxError {
    let command = summarize(commands);
    match error {
        TmuxError::Timeout { after, .. } => TmuxError::Timeout { command, after: *after },
        TmuxError::Lost { .. } => TmuxError::Lost { command },
        TmuxError::ServerGone { socket, message } => TmuxError::ServerGone {
            socket: socket.clone(),
            message: message.clone(),
        },
        TmuxError::ObjectGone { message } => TmuxError::ObjectGone {
            message: message.clone(),
        },
        TmuxError::Refused { message, .. } => TmuxError::Refused {
            command,
            message: message.clone(),
        },
        TmuxError::Spawn { binary, source } => TmuxError::Spawn {
            binary: binary.clone(),
            source: std::io::Error::new(source.kind(), source.to_string()),
        },
        TmuxError::Protocol { detail, .. } => TmuxError::Protocol {
            command,
            detail: detail.clone(),
        },
    }
}
