//! `confirm_submit`: whether the program in a pane took an Enter, judged from its screen.
//!
//! paneward looks at the target pane (cursor, history size, full-screen flag, visible
//! rows) before it types, types as it always does, then looks again until a sign
//! that the input was taken shows or the wait ends:
//! - the pane entered or left full screen, or rows scrolled into its history;
//! - the cursor left its row, or rows other than the cursor's changed, while the
//!   typed text is not on the cursor's row (the line was consumed, output began);
//! - the typed text showed on the cursor's row and then left it (an input box cleared).
//!
//! The Enter *provably did nothing* only when, at the end of the whole wait, the
//! screen is what it was before the typing except for the cursor's row, which still
//! holds the typed text, **and** the pane's program is blocked reading its terminal
//! again (`guard::terminal`): a program that took the line and is slow to show it
//! leaves the same screen, but is not waiting for input. Then, and only then, Enter
//! (never the text) is pressed once more, and only if the screen is still exactly that
//! at the moment of typing (tmux checks it in the same step). Anything else, including
//! a program whose state cannot be read (not Linux, tmux over `--ssh`), is `unknown`
//! and nothing is pressed again. Once the keys are in, a failure to look is an
//! `unknown` verdict that says so, never an error that invites sending them again.
//! The measurements behind these rules are in `docs/driving-agents.md`.
//!
//! For a known agent (`tools::agents`) "taken" also needs its input box to let the
//! text go: while the box still holds the typed text and no busy marker shows, a
//! changed screen is not yet a taken Enter (an agent redraws around a box it has not
//! submitted). The table only tightens: its box gone or unknown leaves the verdict.

use std::time::{Duration, Instant};

use crate::guard::screen::ScreenAt;
use crate::guard::terminal::terminal_read;
use crate::guard::{ChangeGate, KeyInput, ReadGate};
use crate::limits::{
    CONFIRM_DEFAULT_WAIT, CONFIRM_MAX_WAIT_MS, CONFIRM_POLL_FIRST, CONFIRM_POLL_MAX, CONFIRM_TAIL_CHARS,
    RUN_BATCH_MAX_WAIT,
};
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::foreground::TerminalRead;
use crate::tmux::format::parse_one;
use crate::tmux::{PaneId, TmuxError};
use crate::tools::agents::{agent_for, InputBox};
use crate::tools::observe::text::facts_and_rows;

/// What a look reads besides the screen (one `display-message`).
const LOOK_FIELDS: [&str; 6] = [
    "cursor_x",
    "cursor_y",
    "history_size",
    "alternate_on",
    "pid",
    "pane_current_command",
];

/// One look at the target pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Look {
    pub cursor_x: u64,
    pub cursor_y: u64,
    pub history_size: u64,
    pub alternate: bool,
    /// The tmux server's pid, to tell the caller pane (`CallerPane::is`).
    pub server_pid: i64,
    /// The foreground program, for the known agents' table (`tools::agents`).
    pub program: String,
    pub rows: Vec<String>,
}

impl Look {
    fn row(&self, y: u64) -> &str {
        usize::try_from(y)
            .ok()
            .and_then(|y| self.rows.get(y))
            .map_or("", String::as_str)
    }

    fn at(&self) -> ScreenAt {
        ScreenAt {
            cursor_x: self.cursor_x,
            cursor_y: self.cursor_y,
            history_size: self.history_size,
        }
    }
}

/// Reads `pane`'s cursor, history and screen in one round trip.
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn look(gate: &ReadGate<'_>, pane: PaneId) -> Result<Look, TmuxError> {
    let (described, rows) = facts_and_rows(gate, pane, &LOOK_FIELDS).await?;
    let record = parse_one("display-message", &LOOK_FIELDS, &described)?;
    Ok(Look {
        cursor_x: record.count("cursor_x")?,
        cursor_y: record.count("cursor_y")?,
        history_size: record.count("history_size")?,
        alternate: record.flag("alternate_on")?,
        server_pid: record.int("pid")?,
        program: record.text("pane_current_command")?.to_string(),
        rows,
    })
}

/// The checked `confirm_submit` arguments: how long to wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Confirm {
    pub wait: Duration,
}

impl Confirm {
    /// Reads `confirm_submit` and `confirm_timeout_ms`; `None` when no confirmation was
    /// asked for.
    ///
    /// # Errors
    /// Confirmation without Enter, a wait above the ceiling, or one longer than a batch
    /// row may hold.
    pub fn parse(
        confirm: Option<bool>,
        timeout_ms: Option<u64>,
        enter: bool,
        in_batch: bool,
    ) -> Result<Option<Self>, ToolError> {
        if confirm != Some(true) {
            return Ok(None);
        }
        if !enter {
            return Err(ToolError::invalid_argument(
                "/confirm_submit",
                "confirms an Enter, but enter is false: pass enter: true or leave confirm_submit out",
            ));
        }
        let wait = match timeout_ms {
            Some(ms) if ms > CONFIRM_MAX_WAIT_MS => {
                return Err(ToolError::invalid_argument(
                    "/confirm_timeout_ms",
                    format!("must be at most {CONFIRM_MAX_WAIT_MS}; got {ms}"),
                ))
            }
            Some(ms) => Duration::from_millis(ms),
            None => CONFIRM_DEFAULT_WAIT,
        };
        if in_batch && wait > RUN_BATCH_MAX_WAIT {
            return Err(ToolError::invalid_argument(
                "/confirm_timeout_ms",
                format!(
                    "a batch row waits at most {} ms; pass a shorter confirm_timeout_ms",
                    RUN_BATCH_MAX_WAIT.as_millis()
                ),
            ));
        }
        Ok(Some(Self { wait }))
    }
}

/// The end of the typed text that must show on the cursor's row: the last
/// [`CONFIRM_TAIL_CHARS`] characters of its last non-blank line, trimmed. Key names
/// have none (what they draw is the program's business).
pub fn tail(keys: &KeyInput) -> Option<String> {
    match keys {
        KeyInput::Literal(text) => text_tail(text),
        KeyInput::Names(_) => None,
    }
}

/// [`tail`] of pasted or literal text.
pub fn text_tail(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).rfind(|line| !line.is_empty())?;
    let skip = line.chars().count().saturating_sub(CONFIRM_TAIL_CHARS);
    Some(line.chars().skip(skip).collect::<String>().trim_start().to_string())
}

/// What one look says about the Enter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sign {
    /// The program took it; why.
    Taken(String),
    /// Nothing changed but the typed text, on the cursor's row: the Enter did nothing.
    Dropped,
    /// Nothing changed at all, the typed text (if any) not shown either.
    Unchanged,
    /// Neither.
    Unclear,
}

/// Judges `now` against `before` (the look before the typing); `seen_text` is whether
/// an earlier look showed the typed text on the cursor's row.
pub fn judge(before: &Look, now: &Look, tail: Option<&str>, seen_text: bool) -> Sign {
    if now.alternate != before.alternate {
        let way = if now.alternate { "entered" } else { "left" };
        return Sign::Taken(format!("the pane {way} full screen"));
    }
    if now.history_size > before.history_size {
        return Sign::Taken(format!(
            "{} rows scrolled into the history",
            now.history_size - before.history_size
        ));
    }
    let row = now.row(now.cursor_y);
    let text_on_row = tail.is_some_and(|tail| row.contains(tail));
    if !text_on_row {
        if now.cursor_y != before.cursor_y {
            return Sign::Taken(format!(
                "the cursor left row {} for row {}",
                before.cursor_y, now.cursor_y
            ));
        }
        if let Some(y) = changed_elsewhere(before, now) {
            return Sign::Taken(format!("row {y} changed (the cursor's row is {})", before.cursor_y));
        }
        if seen_text {
            return Sign::Taken(format!("the typed text left the cursor's row {}", now.cursor_y));
        }
    }
    let same_place = now.cursor_y == before.cursor_y && changed_elsewhere(before, now).is_none();
    if same_place && text_on_row && row.starts_with(before.row(before.cursor_y)) {
        // Only the typed text was added to the row it was typed on.
        Sign::Dropped
    } else if now == before {
        Sign::Unchanged
    } else {
        Sign::Unclear
    }
}

/// The first row other than `before`'s cursor row that differs between the two looks.
fn changed_elsewhere(before: &Look, now: &Look) -> Option<usize> {
    let rows = before.rows.len().max(now.rows.len());
    let cursor = usize::try_from(before.cursor_y).ok();
    (0..rows).find(|&y| {
        Some(y) != cursor && before.rows.get(y).map_or("", String::as_str) != now.rows.get(y).map_or("", String::as_str)
    })
}

/// What the confirmation found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// `Some(true)` taken, `Some(false)` provably not, `None` unknown.
    pub submitted: Option<bool>,
    pub evidence: String,
    pub retried: bool,
}

/// `submitted` as the contract's enum string (`true`, `false`, `unknown`).
///
/// # Errors
/// Only if the generated enum lost one of the words.
pub fn word<T: TryFrom<&'static str>>(submitted: Option<bool>) -> Result<T, ToolError> {
    let word = match submitted {
        Some(true) => "true",
        Some(false) => "false",
        None => "unknown",
    };
    T::try_from(word).map_err(|_| ToolError::internal("a submitted word broke its enum"))
}

/// How one watch ended.
struct Watched {
    sign: Sign,
    last: Look,
    waited: Duration,
}

/// Keeps a dropped Enter's picture steady: once a look shows one, every later look must
/// show exactly the same screen, or the Enter is no longer provably dropped (a screen
/// that changed and changed back may have taken it).
#[derive(Debug, Default)]
struct Steady {
    first: Option<Look>,
    wavered: bool,
}

impl Steady {
    /// `sign` for the look `now`, made [`Sign::Unclear`] where a dropped picture wavered.
    fn hold(&mut self, sign: Sign, now: &Look) -> Sign {
        match (&sign, &self.first) {
            (Sign::Dropped, None) => self.first = Some(now.clone()),
            (Sign::Dropped, Some(first)) => self.wavered |= first != now,
            (_, Some(_)) => self.wavered = true,
            (_, None) => {}
        }
        if self.wavered && sign == Sign::Dropped {
            Sign::Unclear
        } else {
            sign
        }
    }
}

/// Whether `now`'s program is a known agent whose input box still holds the typed
/// text, with no busy marker: its Enter is not taken yet, whatever else moved.
fn box_still_holds(now: &Look, tail: Option<&str>) -> bool {
    let (Some(agent), Some(tail)) = (agent_for(&now.program), tail) else {
        return false;
    };
    !agent.busy(&now.rows) && matches!(agent.input_box(&now.rows), InputBox::Holding(text) if text.contains(tail))
}

/// Looks at `pane` until a sign of taking shows or `wait` ends.
async fn watch(
    gate: &ReadGate<'_>,
    pane: PaneId,
    before: &Look,
    tail: Option<&str>,
    mut seen_text: bool,
    wait: Duration,
) -> Result<Watched, ToolError> {
    let start = Instant::now();
    let deadline = start + wait;
    let mut pause = CONFIRM_POLL_FIRST;
    let mut steady = Steady::default();
    loop {
        let now = look(gate, pane).await?;
        let sign = steady.hold(judge(before, &now, tail, seen_text), &now);
        let sign = match sign {
            Sign::Taken(_) if box_still_holds(&now, tail) => Sign::Unclear,
            sign => sign,
        };
        seen_text |= tail.is_some_and(|tail| now.row(now.cursor_y).contains(tail));
        if matches!(sign, Sign::Taken(_)) || Instant::now() >= deadline {
            return Ok(Watched {
                sign,
                last: now,
                waited: start.elapsed(),
            });
        }
        let sleep = pause.min(deadline.saturating_duration_since(Instant::now()));
        tokio::select! {
            () = tokio::time::sleep(sleep) => {}
            () = gate.context().cancelled() => {
                return Ok(Watched { sign, last: now, waited: start.elapsed() });
            }
        }
        pause = (pause + pause / 2).min(CONFIRM_POLL_MAX);
    }
}

/// The verdict when looking at `pane` failed after the keys went in: they were typed,
/// so the call is never reported as a failure that is safe to send again.
fn look_failed(pane: PaneId, error: &ToolError, retried: bool) -> Outcome {
    let what = if error.kind() == ToolErrorKind::NotFound {
        format!("pane {pane} closed after the Enter (its program may have ended on the line)")
    } else {
        format!("looking at pane {pane} after the Enter failed: {}", error.message())
    };
    let pressed = if retried {
        "text and two Enters"
    } else {
        "text and Enter"
    };
    Outcome {
        submitted: None,
        evidence: format!(
            "the {pressed} were typed; {what}; whether the program took the input is unknown: read the pane \
             before sending it again"
        ),
        retried,
    }
}

/// Watches the Enter just typed into `pane` (whose screen was `before` before the
/// typing) and presses Enter once more only if it provably did nothing. The keys are
/// in, so nothing here fails the call: a look that fails is an `unknown` verdict that
/// says the input was typed (`look_failed`).
pub async fn confirm(
    gate: &ChangeGate<'_>,
    pane: PaneId,
    force: bool,
    before: &Look,
    tail: Option<&str>,
    confirm: Confirm,
) -> Outcome {
    let first = match watch(gate, pane, before, tail, false, confirm.wait).await {
        Ok(first) => first,
        Err(error) => return look_failed(pane, &error, false),
    };
    let ms = first.waited.as_millis();
    match (&first.sign, tail) {
        (Sign::Taken(why), _) => {
            return Outcome {
                submitted: Some(true),
                evidence: format!("{why} within {ms} ms of the Enter"),
                retried: false,
            }
        }
        (Sign::Unclear, _) => {
            return Outcome {
                submitted: None,
                evidence: format!(
                    "the screen changed within {ms} ms, but in no way that shows the Enter was taken (the cursor \
                     stayed on its row, the typed text was not seen to leave it); not retried"
                ),
                retried: false,
            }
        }
        (Sign::Unchanged, _) => {
            let why = if tail.is_some() {
                "the typed text did not show either, so nothing shows the Enter alone was dropped"
            } else {
                "with no literal text typed there is no input line to show the Enter was dropped"
            };
            return Outcome {
                submitted: None,
                evidence: format!("nothing on the screen changed within {ms} ms; {why}; not retried"),
                retried: false,
            };
        }
        (Sign::Dropped, _) => {}
    }
    let untouched = format!(
        "for {ms} ms after the Enter nothing changed but the typed text, still on the cursor's row {}",
        first.last.cursor_y
    );
    // The screen alone is no proof: a program that took the line and is still at
    // work shows exactly this. Only one seen waiting for input again is.
    let reading = match terminal_read(gate, pane).await {
        Ok(reading) => reading,
        Err(error) => return look_failed(pane, &error.into(), false),
    };
    if !matches!(reading, TerminalRead::Reading { .. }) {
        return Outcome {
            submitted: None,
            evidence: format!(
                "{untouched}, and {}: it may have taken the line and still be at work; not pressed again",
                reading.describe()
            ),
            retried: false,
        };
    }
    // A second Enter into the caller pane would need the person's consent again, and
    // a question put off to a repeat of the call would type the text twice.
    if !force
        && gate
            .state()
            .caller
            .as_ref()
            .is_some_and(|caller| caller.is(pane, first.last.server_pid))
    {
        return Outcome {
            submitted: None,
            evidence: format!(
                "{untouched}, and {}; not pressed again in the caller pane without force",
                reading.describe()
            ),
            retried: false,
        };
    }
    if let Err(error) = gate
        .deliver_at(pane, force, &KeyInput::Names(Vec::new()), true, first.last.at())
        .await
    {
        let typed = if error.kind() == ToolErrorKind::MayHaveRun {
            "may or may not have been typed"
        } else {
            "was not typed"
        };
        return Outcome {
            submitted: None,
            evidence: format!(
                "{untouched}, and {}; the one more Enter {typed}: {}",
                reading.describe(),
                error.message()
            ),
            retried: false,
        };
    }
    let untouched = format!("{untouched}, and {}", reading.describe());
    let second = match watch(gate, pane, &first.last, tail, true, confirm.wait).await {
        Ok(second) => second,
        Err(error) => return look_failed(pane, &error, true),
    };
    let again = second.waited.as_millis();
    let (submitted, then) = match second.sign {
        Sign::Taken(why) => (Some(true), format!("{why} within {again} ms")),
        Sign::Dropped | Sign::Unchanged => match terminal_read(gate, pane).await {
            // Both Enters were read, and the program reads on with the text unsent.
            Ok(TerminalRead::Reading { .. }) => (
                Some(false),
                format!(
                    "for {again} ms after it nothing changed either, and the program is reading the terminal \
                     again: it did not take the input"
                ),
            ),
            Ok(other) => (
                None,
                format!("for {again} ms after it nothing changed, and {}", other.describe()),
            ),
            Err(error) => (
                None,
                format!(
                    "for {again} ms after it nothing changed; reading the program's state failed: {}",
                    ToolError::from(error).message()
                ),
            ),
        },
        Sign::Unclear => (
            None,
            format!("within {again} ms the screen changed, but in no way that shows it was taken"),
        ),
    };
    Outcome {
        submitted,
        evidence: format!("{untouched}; Enter was pressed once more: {then}"),
        retried: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(rows: &[&str], cursor: (u64, u64), history_size: u64) -> Look {
        Look {
            cursor_x: cursor.0,
            cursor_y: cursor.1,
            history_size,
            alternate: false,
            server_pid: 1,
            program: "sh".into(),
            rows: rows.iter().map(|row| (*row).to_string()).collect(),
        }
    }

    #[test]
    fn a_shell_that_ran_the_line_took_it() {
        let before = screen(&["$", ""], (2, 0), 0);
        let now = screen(&["$ echo hi", "hi", "$"], (2, 2), 0);
        assert!(
            matches!(judge(&before, &now, Some("echo hi"), false), Sign::Taken(why) if why.contains("cursor left row 0"))
        );
        let scrolled = screen(&["hi", "$"], (2, 1), 3);
        assert!(
            matches!(judge(&before, &scrolled, Some("echo hi"), false), Sign::Taken(why) if why.contains("3 rows"))
        );
    }

    #[test]
    fn only_the_typed_text_added_to_the_cursor_row_is_a_dropped_enter() {
        let before = screen(&["> ", "status"], (2, 0), 0);
        let typed = screen(&["> echo hi", "status"], (9, 0), 0);
        assert_eq!(judge(&before, &typed, Some("echo hi"), false), Sign::Dropped);
        assert_eq!(judge(&before, &before.clone(), Some("echo hi"), false), Sign::Unchanged);
        // The text is not (or no longer) there: not a dropped Enter.
        let before_text = screen(&["> echo hi", "status"], (9, 0), 0);
        let cleared = screen(&["> ", "status"], (2, 0), 0);
        assert!(matches!(
            judge(&before_text, &cleared, Some("echo hi"), true),
            Sign::Taken(_)
        ));
        assert_eq!(judge(&before_text, &cleared, Some("echo hi"), false), Sign::Unclear);
        // Something else changed as well while the text stayed: unclear, never retried.
        let busy = screen(&["> echo hi", "thinking"], (9, 0), 0);
        assert_eq!(judge(&before, &busy, Some("echo hi"), false), Sign::Unclear);
        // The row was rewritten rather than added to.
        let rewritten = screen(&["# echo hi", "status"], (9, 0), 0);
        assert_eq!(judge(&before, &rewritten, Some("echo hi"), false), Sign::Unclear);
    }

    #[test]
    fn without_text_an_identical_screen_is_unchanged_and_a_full_screen_change_is_taken() {
        let before = screen(&["line 1", "line 2", ":"], (1, 2), 0);
        assert_eq!(judge(&before, &before.clone(), None, false), Sign::Unchanged);
        let scrolled = screen(&["line 2", "line 3", ":"], (1, 2), 0);
        assert!(matches!(judge(&before, &scrolled, None, false), Sign::Taken(why) if why.contains("row 0")));
        let mut full = before.clone();
        full.alternate = true;
        assert!(matches!(judge(&before, &full, None, false), Sign::Taken(why) if why.contains("entered")));
        let moved = screen(&["line 1", "line 2", ":"], (0, 2), 0);
        assert_eq!(judge(&before, &moved, None, false), Sign::Unclear);
    }

    #[test]
    fn a_dropped_picture_that_wavers_is_no_longer_dropped() {
        let typed = screen(&["> echo hi"], (9, 0), 0);
        let spun = screen(&["> echo hi", "*"], (9, 0), 0);
        let mut steady = Steady::default();
        assert_eq!(steady.hold(Sign::Unclear, &spun), Sign::Unclear);
        assert_eq!(steady.hold(Sign::Dropped, &typed), Sign::Dropped);
        assert_eq!(steady.hold(Sign::Dropped, &typed), Sign::Dropped);
        assert_eq!(steady.hold(Sign::Unclear, &spun), Sign::Unclear);
        assert_eq!(steady.hold(Sign::Dropped, &typed), Sign::Unclear);
        let taken = Sign::Taken("the cursor left row 0 for row 1".into());
        assert_eq!(steady.hold(taken.clone(), &typed), taken);
    }

    #[test]
    fn the_tail_is_the_end_of_the_last_line_written() {
        assert_eq!(text_tail("first\n  echo hi  \n\n"), Some("echo hi".to_string()));
        assert_eq!(text_tail(" \n\t"), None);
        let long = format!("{}{}", "x".repeat(40), "the last twenty-four ch");
        assert_eq!(text_tail(&long).unwrap().chars().count(), CONFIRM_TAIL_CHARS);
        assert_eq!(tail(&KeyInput::Names(vec!["Enter".into()])), None);
    }

    #[test]
    fn confirmation_needs_enter_and_a_bounded_wait() {
        assert_eq!(Confirm::parse(None, Some(5), true, false).unwrap(), None);
        assert_eq!(
            Confirm::parse(Some(true), None, true, false).unwrap(),
            Some(Confirm {
                wait: CONFIRM_DEFAULT_WAIT
            })
        );
        let error = Confirm::parse(Some(true), None, false, false).unwrap_err().to_string();
        assert!(
            error.contains("/confirm_submit") && error.contains("enter is false"),
            "{error}"
        );
        let error = Confirm::parse(Some(true), Some(10_001), true, false)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("/confirm_timeout_ms") && error.contains("at most 10000"),
            "{error}"
        );
        assert!(Confirm::parse(Some(true), Some(6000), true, true).is_err());
        assert!(Confirm::parse(Some(true), Some(6000), true, false).is_ok());
    }
}
