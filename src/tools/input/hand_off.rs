//! `hand_to_person`: the agent hands a pane that waits for input to the person, who
//! types there themselves (a password, an answer the agent must not give); paneward
//! then waits for that input to be taken and returns what the pane printed after the
//! question.
//!
//! Nothing the person types passes through paneward: they type into tmux's client,
//! not into the agent, and the reply is read from the screen below the question's
//! row, where a read with echo off (`ReadsAs::Password`) put nothing of the typing.
//! "Taken" is the kernel's answer (`guard::terminal`): the program that waited as it
//! did at the hand-off (same process, same kind of read) no longer does.
//!
//! A 2026-07-28 client is asked in a second round: the first call ends with the
//! question, and the same call repeated with the answer runs the handler again. The
//! row of the question and the waiting program are what the first round saw, kept in
//! the process (never per connection) for as long as a request state lives, and taken
//! by the repeat: by then the person has typed, and the pane waits no more.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::generated::types::{
    HandToPersonInput, HandToPersonOutput, HandToPersonOutputOutcome, HandToPersonOutputReadsAs,
};
use crate::guard::consent::{self, NoConsent};
use crate::guard::terminal::{cannot_ask_kernel, input_waits};
use crate::guard::{ChangeGate, ReadGate};
use crate::limits::{HAND_OFF_DEFAULT_WAIT, HAND_OFF_MAX_LINES, REQUEST_STATE_TTL, WAIT_POLL_INTERVAL};
use crate::runtime::error::{echo, ToolError, ToolErrorKind};
use crate::tmux::format::{parse_one, record_format};
use crate::tmux::input_wait::{InputWait, ReadsAs};
use crate::tmux::{PaneId, ReadCommand, ReadVerb, TmuxError};
use crate::tools::args;
use crate::tools::budget::{refuse_in_batch, Budget};

/// What [`facts`] reads of the pane (one `display-message`).
const FIELDS: [&str; 10] = [
    "pane_id",
    "session_name",
    "window_index",
    "pane_index",
    "pane_current_command",
    "pane_pid",
    "pane_tty",
    "pane_dead",
    "history_size",
    "cursor_y",
];

/// A pane handed to the person: what waited, and the row of its question.
#[derive(Debug, Clone, Copy)]
struct HandOff {
    pane: PaneId,
    pid: u32,
    reads_as: ReadsAs,
    /// The question's row, counted from the oldest line of the history.
    question_line: u64,
    at: Instant,
}

/// The hand-offs asked of a 2026-07-28 client and not yet answered; process-wide, as
/// the repeat of the call may come on another connection.
static HANDED: Mutex<Vec<HandOff>> = Mutex::new(Vec::new());

fn remembered(pane: PaneId) -> Option<HandOff> {
    let mut handed = HANDED.lock().unwrap_or_else(PoisonError::into_inner);
    handed.retain(|h| h.at.elapsed() < REQUEST_STATE_TTL);
    handed.iter().find(|h| h.pane == pane).copied()
}

fn remember(handoff: HandOff) {
    let mut handed = HANDED.lock().unwrap_or_else(PoisonError::into_inner);
    handed.retain(|h| h.pane != handoff.pane);
    handed.push(handoff);
}

fn forget(pane: PaneId) {
    HANDED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|h| h.pane != pane);
}

/// Forgets the pane's hand-off when the call ends, however it ends (a cancelled call
/// drops it mid-question), unless the question was put off to a repeat of the call.
struct ForgetOnEnd {
    pane: PaneId,
    keep: bool,
}

impl Drop for ForgetOnEnd {
    fn drop(&mut self) {
        if !self.keep {
            forget(self.pane);
        }
    }
}

/// What one `display-message` says of the pane.
struct Facts {
    place: String,
    program: String,
    pid: u32,
    tty: String,
    dead: bool,
    /// With `cursor_y`, where the cursor's row is counted from the oldest history line.
    history_size: u64,
    cursor_y: u64,
}

async fn facts(gate: &ReadGate<'_>, pane: PaneId) -> Result<Facts, TmuxError> {
    let output = gate
        .run(
            ReadCommand::new(ReadVerb::DisplayMessage)
                .arg("-t")
                .arg(pane.to_string())
                .arg(record_format(&FIELDS)),
        )
        .await?;
    let output = String::from_utf8_lossy(&output);
    let record = parse_one("display-message", &FIELDS, &output)?;
    // tmux 3.3a answers a pane that is gone with empty fields and no error: the id is
    // read first, so that answer reads as gone, not as a field tmux garbled.
    if record.text("pane_id")? != pane.to_string() {
        return Err(TmuxError::ObjectGone {
            message: format!("pane {pane} does not exist"),
        });
    }
    Ok(Facts {
        place: format!(
            "{}:{}.{}",
            echo(record.text("session_name")?),
            record.text("window_index")?,
            record.text("pane_index")?
        ),
        program: record.text("pane_current_command")?.to_string(),
        pid: u32::try_from(record.count("pane_pid")?).unwrap_or(0),
        tty: record.text("pane_tty")?.to_string(),
        dead: record.flag("pane_dead")?,
        history_size: record.count("history_size")?,
        cursor_y: record.count("cursor_y")?,
    })
}

/// One look: the pane's facts and whether it waits for input.
struct Look {
    facts: Facts,
    wait: InputWait,
}

async fn look(gate: &ReadGate<'_>, pane: PaneId) -> Result<Look, ToolError> {
    let facts = facts(gate, pane).await?;
    let tty = if facts.dead { "" } else { facts.tty.as_str() };
    let wait = input_waits(gate, &[(facts.pid, tty)])
        .pop()
        .unwrap_or_else(|| InputWait::Unknown("nothing was read".into()));
    Ok(Look { facts, wait })
}

fn what_it_waits_for(reads_as: ReadsAs) -> &'static str {
    match reads_as {
        ReadsAs::Password => "input with echo off, such as a password",
        ReadsAs::ProgramInput => "its own input",
        ReadsAs::ShellPrompt => "a command at its shell prompt",
    }
}

fn refusal(pane: PaneId, no: &NoConsent) -> ToolError {
    let why = match no {
        NoConsent::CannotAsk => "this client cannot ask its person",
        NoConsent::Declined | NoConsent::Unanswered(_) => "the person did not take it",
    };
    ToolError::blocked(format!(
        "{pane} was not handed to the person{}: {why}. Tell the person in your reply to type in tmux pane {pane} \
         themselves (never ask them for the text), then call wait_for_idle with until: input on {pane} and read \
         what it printed",
        no.note()
    ))
}

/// `hand_to_person`: see the tool's description in `schemas/tools/hand_to_person.json`.
///
/// # Errors
/// Bad arguments, a batch row, tmux elsewhere or not on Linux, a pane missing or not
/// waiting for input, the person's no or a client that cannot ask, or tmux failing.
pub async fn hand_to_person(gate: &ChangeGate<'_>, input: HandToPersonInput) -> Result<HandToPersonOutput, ToolError> {
    let HandToPersonInput {
        pane_id,
        reason,
        timeout_seconds,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    if reason.trim().is_empty() {
        return Err(ToolError::invalid_argument(
            "/reason",
            "must say what the person is to do",
        ));
    }
    let mut budget = Budget::new(
        "/timeout_seconds",
        timeout_seconds,
        HAND_OFF_DEFAULT_WAIT,
        gate.state().settings.max_wait,
    )?;
    refuse_in_batch(gate.context(), "hand_to_person")?;
    if let Some(why) = cannot_ask_kernel(gate) {
        return Err(ToolError::blocked(format!(
            "hand_to_person cannot tell when the person is done in {pane}: {why}. Tell the person to type in {pane} \
             themselves and say when they are done"
        )));
    }
    let now = look(gate, pane).await?;
    let handoff = match (remembered(pane), &now.wait) {
        (Some(handoff), _) => handoff,
        (None, InputWait::Waiting { reads_as, pid, .. }) => HandOff {
            pane,
            pid: *pid,
            reads_as: *reads_as,
            question_line: now.facts.history_size + now.facts.cursor_y,
            at: Instant::now(),
        },
        (None, other) => {
            return Err(ToolError::blocked(format!(
                "{pane} is not waiting for input: {}. Hand it over once it asks (wait_for_idle with until: input)",
                other.describe()
            )))
        }
    };
    remember(handoff);
    let mut remembered_until_the_end = ForgetOnEnd { pane, keep: false };
    let question = format!(
        "An agent hands you tmux pane {pane} (at {}, where {} waits for {}). The agent says: {}. Please go to that \
         pane and type there yourself: what you type does not pass through the agent. Answer yes once you are done.",
        now.facts.place,
        echo(&now.facts.program),
        what_it_waits_for(handoff.reads_as),
        echo(&reason)
    );
    if let Err(no) = consent::ask(gate.context(), question).await {
        remembered_until_the_end.keep = gate.context().awaits_answer();
        return Err(refusal(pane, &no));
    }
    drop(remembered_until_the_end);
    tracing::info!(target: crate::CLIENT_LOG_TARGET, pane = %pane, "the person says they are done in the pane");
    budget.restart();
    let mut taken = false;
    let outcome = loop {
        let now = match look(gate, pane).await {
            Ok(now) => now,
            Err(error) if error.kind() == ToolErrorKind::NotFound => break HandToPersonOutputOutcome::PaneDied,
            Err(error) => return Err(error),
        };
        if now.facts.dead {
            break HandToPersonOutputOutcome::PaneDied;
        }
        match now.wait {
            InputWait::Waiting { pid, reads_as, .. }
                if pid == handoff.pid && reads_as == handoff.reads_as && !taken => {}
            InputWait::Waiting { .. } => break HandToPersonOutputOutcome::WaitingAgain,
            InputWait::NotWaiting { .. } | InputWait::Unknown(_) => taken = true,
        }
        if budget.is_over() {
            break if taken {
                HandToPersonOutputOutcome::Running
            } else {
                HandToPersonOutputOutcome::Timeout
            };
        }
        tokio::select! {
            () = tokio::time::sleep(WAIT_POLL_INTERVAL.max(Duration::from_millis(100)).min(budget.left())) => {}
            () = gate.context().cancelled() => return Err(ToolError::cancelled()),
        }
    };
    let (lines, truncated) = match printed_after(gate, pane, handoff.question_line).await {
        Ok(printed) => printed,
        Err(error) if error.is_object_gone() => (Vec::new(), false),
        Err(error) => return Err(error.into()),
    };
    Ok(HandToPersonOutput {
        pane_id: pane.to_string(),
        outcome,
        reads_as: match handoff.reads_as {
            ReadsAs::ShellPrompt => HandToPersonOutputReadsAs::ShellPrompt,
            ReadsAs::Password => HandToPersonOutputReadsAs::Password,
            ReadsAs::ProgramInput => HandToPersonOutputReadsAs::ProgramInput,
        },
        lines,
        truncated,
        elapsed_seconds: Budget::seconds(budget.elapsed()),
    })
}

/// The rows below `question_line` (counted from the oldest history line) down to the
/// cursor's, trailing blank rows left out; the newest [`HAND_OFF_MAX_LINES`].
async fn printed_after(
    gate: &ReadGate<'_>,
    pane: PaneId,
    question_line: u64,
) -> Result<(Vec<String>, bool), TmuxError> {
    let facts = facts(gate, pane).await?;
    let history = i64::try_from(facts.history_size).unwrap_or(i64::MAX);
    let cursor_y = i64::try_from(facts.cursor_y).unwrap_or(0);
    // tmux counts visible rows from 0 and history rows below 0.
    let first = i64::try_from(question_line).unwrap_or(i64::MAX).saturating_add(1) - history;
    if first > cursor_y {
        return Ok((Vec::new(), false));
    }
    let capture = ReadCommand::new(ReadVerb::CapturePane)
        .arg("-p")
        .arg("-J")
        .arg("-t")
        .arg(pane.to_string())
        .arg("-S")
        .arg(first.max(-history).to_string())
        .arg("-E")
        .arg(cursor_y.to_string());
    let text = gate.run(capture).await?;
    let mut lines: Vec<String> = String::from_utf8_lossy(&text).lines().map(str::to_string).collect();
    while lines.last().is_some_and(|line| line.trim().is_empty()) {
        lines.pop();
    }
    let truncated = lines.len() > HAND_OFF_MAX_LINES;
    if truncated {
        lines.drain(..lines.len() - HAND_OFF_MAX_LINES);
    }
    Ok((lines, truncated))
}
