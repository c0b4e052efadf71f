//! The family's waits under `--profile libtmux`: tmux channels through paneward's own
//! `signal_channel` and `wait_for_channel`, and text through paneward's own
//! `wait_for_text`, which discounts paneward's own typing and answers at once for a
//! full-screen program.

use serde_json::json;

use crate::generated::libtmux::types::*;
use crate::generated::types::WaitForTextOutputOutcome as Outcome;
use crate::guard::{ChangeGate, ReadGate};
use crate::runtime::{Encoded, ToolError};
use crate::tools::wait::{channel, text};

use super::target;
use super::views::typed;
use super::workspace::own_input;

/// The family's default wait and its ceiling, in seconds.
const DEFAULT_SECONDS: u64 = 30;
const MAX_SECONDS: u64 = 600;

fn seconds(asked: Option<u64>) -> u64 {
    asked.unwrap_or(DEFAULT_SECONDS).min(MAX_SECONDS)
}

pub async fn signal_channel(
    gate: &ChangeGate<'_>,
    input: SignalChannelInput,
) -> Result<Encoded<SignalChannelOutput>, ToolError> {
    let sent = channel::signal_channel(gate, own_input(json!({ "channel": input.channel }))?).await?;
    typed(json!({ "channel": sent.channel }))
}

pub async fn wait_for_channel(
    gate: &ReadGate<'_>,
    input: WaitForChannelInput,
) -> Result<Encoded<WaitForChannelOutput>, ToolError> {
    let waited = channel::wait_for_channel(
        gate,
        own_input(json!({ "channel": input.channel, "timeout_seconds": seconds(input.seconds) }))?,
    )
    .await?;
    let outcome = if waited.signalled { "signalled" } else { "deadline" };
    typed(json!({ "channel": waited.channel, "outcome": outcome }))
}

pub async fn wait_for_text(
    gate: &ReadGate<'_>,
    input: WaitForTextInput,
) -> Result<Encoded<WaitForTextOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    let patterns = input.patterns.unwrap_or_default();
    // Text already shown counts, as the family's `present_at_entry`; no pattern waits
    // for any new output.
    let mut arguments = json!({
        "pane_ids": [pane.to_string()],
        "regex": input.regex,
        "since_entry": false,
        "timeout_seconds": seconds(input.seconds),
    });
    if !patterns.is_empty() {
        arguments["patterns"] = json!(patterns);
    }
    if let Some(stop) = input.stop.filter(|stop| !stop.is_empty()) {
        arguments["stop"] = json!(stop);
    }
    let waited = text::wait_for_text_cased(gate, own_input(arguments)?, input.match_case).await?;
    let outcome = match waited.outcome {
        Outcome::Matched if waited.already_on_screen => "present_at_entry",
        Outcome::Matched | Outcome::Output | Outcome::Idle => "matched",
        Outcome::Stopped => "stopped",
        Outcome::PaneDied => "pane_closed",
        // A full-screen program ends paneward's wait at once; the family's wait would
        // have run out its time on it.
        Outcome::Timeout | Outcome::AlternateScreen => "deadline",
    };
    let matched = waited
        .pattern
        .filter(|_| matches!(outcome, "matched" | "present_at_entry"));
    let index = matched
        .as_deref()
        .and_then(|found| patterns.iter().position(|pattern| pattern == found));
    let text = waited.lines.join("\n");
    typed(json!({
        "pane": pane.to_string(),
        "outcome": outcome,
        "matched_pattern": matched,
        "matched_index": index,
        "bytes": text.len(),
        "text": text,
    }))
}
