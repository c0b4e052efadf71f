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

use super::input::{expected, py_float, resolved_pane};
use super::target::checked;

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
        return Err(expected(&format!(
            "wait-for timeout: channel '{channel}' was not signalled within {enforced}s"
        )));
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
    let pane = resolved_pane(gate, &checked(gate, &input)?).await?;
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
        lines,
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
    Ok(WaitForTextOutput {
        alternate_screen,
        effective_timeout: timeout_seconds,
        elapsed_seconds,
        found,
        matched_at_entry: already_on_screen && !found,
        matched_index,
        matched_lines: if matched_index.is_some() || found {
            lines.clone()
        } else {
            Vec::new()
        },
        outcome,
        pane_id: pane.to_string(),
        saw_new_output,
        tail: lines,
    })
}
