//! libtmux-mcp's tools for waiting for text and channels, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.
//!
//! `wait_for_text` is paneward's own wait (its poll rate: `interval` is checked as
//! libtmux-mcp checks it, then left to paneward), matching only rows written after
//! the call began and leaving out the echo of what paneward itself typed. It ends at
//! once, as `alternate_screen`, when the pane shows a full-screen program, where
//! libtmux-mcp waits out its timeout first; a pane that dies is libtmux-mcp's error.

use crate::generated::python::types::*;
use crate::generated::types as own;
use crate::guard::{ChangeGate, ReadGate};
use crate::runtime::error::short_echo;
use crate::runtime::ToolError;

use crate::tmux::{PaneId, ReadCommand, ReadVerb};
use crate::tools::observe::own::may_hold_own_rows;
use crate::tools::observe::pane_state::{describe_pane, pane_record};
use crate::tools::observe::text::split_capture;

use super::input::{expected, py_float, resolved_pane};
use super::target::{checked, upstream_error};

/// Whether `name` is a channel name libtmux-mcp accepts: 1 to 128 of `A-Za-z0-9_.:-`.
fn checked_channel(name: &str) -> Result<(), ToolError> {
    let ok = (1..=128).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || "_.:-".contains(c));
    if ok {
        return Ok(());
    }
    let shown = short_echo(name);
    Err(expected(&format!("Invalid channel name: '{shown}'")))
}

/// Through paneward's `signal_channel` (which refuses the channels paneward itself
/// waits on).
pub async fn signal_channel(
    gate: &ChangeGate<'_>,
    input: SignalChannelInput,
) -> Result<SignalChannelOutput, ToolError> {
    checked_channel(&input.channel)?;
    checked(gate, &input)?;
    let channel = input.channel;
    let own_input = own::SignalChannelInput {
        channel: channel
            .clone()
            .try_into()
            .map_err(|_| ToolError::invalid_argument("/channel", "is not a channel name paneward takes"))?,
    };
    crate::tools::wait::channel::signal_channel(gate, own_input).await?;
    Ok(SignalChannelOutput {
        result: format!("Channel '{channel}' signalled"),
    })
}

/// Through paneward's `wait_for_channel`: one `wait-for` for the whole wait; a wait
/// that ends unsignalled is libtmux-mcp's timeout error.
pub async fn wait_for_channel(
    gate: &ReadGate<'_>,
    input: WaitForChannelInput,
) -> Result<WaitForChannelOutput, ToolError> {
    checked_channel(&input.channel)?;
    checked(gate, &input)?;
    let WaitForChannelInput { channel, timeout, .. } = input;
    if timeout.is_nan() || timeout <= 0.0 {
        return Err(expected(&format!(
            "timeout must be positive (received {})",
            py_float(timeout)
        )));
    }
    let own_input = own::WaitForChannelInput {
        channel: channel
            .clone()
            .try_into()
            .map_err(|_| ToolError::invalid_argument("/channel", "is not a channel name paneward takes"))?,
        timeout_seconds: Some(timeout),
    };
    let waited = crate::tools::wait::channel::wait_for_channel(gate, own_input).await?;
    let enforced = py_float(waited.timeout_seconds);
    if !waited.signalled {
        // libtmux-mcp raises this from the TimeoutError of its wait, which it names.
        return Err(upstream_error(
            "TimeoutError",
            &format!("wait-for timeout: channel '{channel}' was not signalled within {enforced}s"),
            None,
        ));
    }
    Ok(WaitForChannelOutput {
        result: format!("Channel '{channel}' was signalled (timeout {enforced}s)"),
    })
}

/// Patterns as paneward's wait takes them, refused as libtmux-mcp refuses an empty one.
fn own_patterns<T: TryFrom<String>>(label: &str, texts: &[String]) -> Result<Vec<T>, ToolError> {
    texts
        .iter()
        .map(|text| {
            if text.is_empty() {
                return Err(expected(&format!("{label} pattern must be a non-empty string")));
            }
            T::try_from(text.clone()).map_err(|_| expected(&format!("{label} patterns are at most 512 characters")))
        })
        .collect()
}

/// Where `pattern` stands in `texts`: the first entry with that text, as libtmux-mcp
/// reports the first pattern that hit.
fn index_of(texts: &[String], pattern: Option<&str>) -> Option<i64> {
    let pattern = pattern?;
    texts
        .iter()
        .position(|text| text == pattern)
        .and_then(|i| i64::try_from(i).ok())
}

pub async fn wait_for_text(gate: &ReadGate<'_>, mut input: WaitForTextInput) -> Result<WaitForTextOutput, ToolError> {
    let WaitForTextInput {
        interval,
        match_case,
        regex,
        timeout,
        ..
    } = input;
    if interval.is_nan() || interval < 0.01 {
        return Err(expected(&format!(
            "interval must be at least 0.01 s (received {})",
            py_float(interval)
        )));
    }
    if timeout.is_nan() || timeout <= 0.0 {
        return Err(expected(&format!(
            "timeout must be positive (received {})",
            py_float(timeout)
        )));
    }
    if input.patterns.as_ref().is_some_and(Vec::is_empty) {
        return Err(expected(
            "patterns must be a non-empty list, or null to wait for any new output",
        ));
    }
    let wanted = input.patterns.take().unwrap_or_default();
    let stop = input.stop.take().unwrap_or_default();
    let own_wanted = own_patterns("patterns", &wanted)?;
    let own_stop = own_patterns("stop", &stop)?;
    if regex {
        // A pattern that does not compile, as libtmux-mcp reports it (its class is the
        // regular-expression module's `error`); the words are the Rust regex crate's.
        for pattern in wanted.iter().chain(&stop) {
            if let Err(error) = regex::Regex::new(pattern) {
                return Err(upstream_error(
                    "error",
                    &format!("Invalid regex pattern: {error}"),
                    None,
                ));
            }
        }
    }
    let pane = resolved_pane(gate, &checked(gate, &input)?).await?;
    let entry = Entry::read(gate, pane).await?;
    let own_input = own::WaitForTextInput {
        idle_seconds: None,
        include_own_input: None,
        pane_ids: vec![pane
            .to_string()
            .try_into()
            .map_err(|_| ToolError::internal("a pane id broke its pattern"))?],
        patterns: own_wanted,
        regex: Some(regex),
        since_entry: Some(true),
        stop: own_stop,
        timeout_seconds: Some(timeout),
    };
    let waited = crate::tools::wait::text::wait_for_text_cased(gate, own_input, match_case).await?;
    let own::WaitForTextOutput {
        already_on_screen,
        elapsed_seconds,
        lines: _,
        outcome,
        pane_id: _,
        pattern,
        saw_new_output,
        timeout_clamped: _,
        timeout_seconds,
    } = waited;
    use own::WaitForTextOutputOutcome as Own;
    let (outcome, matched_index) = match outcome {
        Own::Matched => (WaitForTextOutputOutcome::Matched, index_of(&wanted, pattern.as_deref())),
        Own::Stopped => (WaitForTextOutputOutcome::Stopped, index_of(&stop, pattern.as_deref())),
        Own::Output => (WaitForTextOutputOutcome::AnyOutput, None),
        Own::AlternateScreen => (WaitForTextOutputOutcome::AlternateScreen, None),
        Own::Timeout | Own::Idle => (WaitForTextOutputOutcome::Timeout, None),
        Own::PaneDied => {
            return Err(expected(&format!(
                "pane {pane} died; cursor/baseline anchor is no longer valid"
            )))
        }
    };
    let found = matches!(
        outcome,
        WaitForTextOutputOutcome::Matched | WaitForTextOutputOutcome::AnyOutput
    );
    let alternate_screen = matches!(outcome, WaitForTextOutputOutcome::AlternateScreen);
    // The rows as libtmux-mcp reports them: from the terminal cursor's row at entry down
    // to the last written row, as the screen shows them now (trailing spaces kept, the
    // prompt included); the matched lines are those of them not on screen at entry that
    // the pattern that decided matches (any of them for any output).
    let tail = entry.rows_since(gate, pane).await?;
    let fresh: Vec<&String> = tail.iter().filter(|row| !entry.rows.contains(*row)).collect();
    let matched_lines = match (outcome, pattern.as_deref()) {
        (WaitForTextOutputOutcome::AnyOutput, _) => limited(fresh.into_iter().cloned().collect()),
        (WaitForTextOutputOutcome::Matched | WaitForTextOutputOutcome::Stopped, Some(pattern)) => {
            let hits = row_matcher(pattern, regex, match_case);
            limited(fresh.into_iter().filter(|row| hits(row)).cloned().collect())
        }
        _ => Vec::new(),
    };
    Ok(WaitForTextOutput {
        alternate_screen,
        effective_timeout: timeout_seconds,
        elapsed_seconds,
        found,
        matched_at_entry: already_on_screen && !found,
        matched_index,
        matched_lines,
        outcome,
        pane_id: pane.to_string(),
        saw_new_output,
        tail: limited(tail),
    })
}

/// Rows libtmux-mcp's `tail` and `matched_lines` hold at most: 20, within 2,000 bytes
/// (the newest kept).
fn limited(mut rows: Vec<String>) -> Vec<String> {
    const MAX_ROWS: usize = 20;
    const MAX_BYTES: usize = 2_000;
    if rows.len() > MAX_ROWS {
        rows.drain(..rows.len() - MAX_ROWS);
    }
    let size = |rows: &[String]| rows.iter().map(|row| row.len() + 1).sum::<usize>();
    while rows.len() > 1 && size(&rows) > MAX_BYTES {
        rows.remove(0);
    }
    if let [only] = rows.as_mut_slice() {
        if only.len() > MAX_BYTES {
            let mut cut = only.len() - MAX_BYTES;
            while !only.is_char_boundary(cut) {
                cut += 1;
            }
            *only = only[cut..].to_string();
        }
    }
    rows
}

/// Whether a row holds `pattern` as the wait matched it (a regular expression or
/// plain text, ignoring case unless `match_case`); paneward's wait has checked it.
fn row_matcher(pattern: &str, regex: bool, match_case: bool) -> impl Fn(&str) -> bool {
    let source = if regex {
        pattern.to_string()
    } else {
        regex::escape(pattern)
    };
    let compiled = regex::RegexBuilder::new(&source)
        .case_insensitive(!match_case)
        .build()
        .ok();
    move |row: &str| compiled.as_ref().is_some_and(|re| re.is_match(row))
}

/// Where the wait began: the absolute row of the terminal cursor (history rows above
/// the screen counted), and the rows from it down as they were.
struct Entry {
    anchor: i64,
    rows: Vec<String>,
}

impl Entry {
    /// # Errors
    /// The pane is gone, or tmux failed.
    async fn read(gate: &ReadGate<'_>, pane: PaneId) -> Result<Self, ToolError> {
        let (history, cursor, _) = place(gate, pane).await?;
        Ok(Self {
            anchor: history + cursor,
            rows: rows_from(gate, pane, cursor).await?,
        })
    }

    /// The rows from the entry's row down as the pane shows them now; none when the
    /// screen has not reached that row.
    ///
    /// # Errors
    /// The pane is gone, or tmux failed.
    async fn rows_since(&self, gate: &ReadGate<'_>, pane: PaneId) -> Result<Vec<String>, ToolError> {
        let (history, _, height) = place(gate, pane).await?;
        let start = self.anchor - history;
        if start >= height {
            return Ok(Vec::new());
        }
        rows_from(gate, pane, start).await
    }
}

/// The pane's history size, terminal cursor row and height.
async fn place(gate: &ReadGate<'_>, pane: PaneId) -> Result<(i64, i64, i64), ToolError> {
    let names = ["pane_id", "history_size", "cursor_y", "pane_height"];
    let read = gate.run(describe_pane(pane, &names)).await?;
    let read = String::from_utf8_lossy(&read);
    let record = pane_record(pane, &names, &read)?;
    Ok((
        record.int("history_size")?,
        record.int("cursor_y")?,
        record.int("pane_height")?,
    ))
}

/// The rows from row `start` (negative: history) to the screen's end, joined where
/// tmux wrapped them, trailing spaces kept and blank rows at the end dropped, as
/// libtmux-mcp reads them; paneward's own rows hidden.
async fn rows_from(gate: &ReadGate<'_>, pane: PaneId, start: i64) -> Result<Vec<String>, ToolError> {
    let capture = ReadCommand::new(ReadVerb::CapturePane)
        .arg("-p")
        .arg("-J")
        .arg("-t")
        .arg(pane.to_string())
        .arg("-S")
        .arg(start.to_string());
    let output = gate.run(capture).await?;
    if may_hold_own_rows(&output) {
        return Ok(split_capture(&output));
    }
    let text = String::from_utf8_lossy(&output);
    let mut rows: Vec<String> = text
        .strip_suffix('\n')
        .unwrap_or(&text)
        .split('\n')
        .map(str::to_string)
        .collect();
    while rows.last().is_some_and(String::is_empty) {
        rows.pop();
    }
    Ok(rows)
}
