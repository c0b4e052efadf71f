//! The family's waits under `--profile libtmux`: tmux channels through paneward's own
//! `signal_channel` and `wait_for_channel`, and text through paneward's own
//! `wait_for_text`, which discounts paneward's own typing and answers at once for a
//! full-screen program.

use serde_json::json;

use crate::generated::libtmux::types::*;
use crate::guard::{ChangeGate, ReadGate};
use crate::runtime::ToolError;
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

pub async fn signal_channel(gate: &ChangeGate<'_>, input: SignalChannelInput) -> Result<SignalChannelOutput, ToolError> {
    let sent = channel::signal_channel(gate, own_input(json!({ "channel": input.channel }))?).await?;
    typed(json!({ "channel": sent.channel }))
}

pub async fn wait_for_channel(gate: &ReadGate<'_>, input: WaitForChannelInput) -> Result<WaitForChannelOutput, ToolError> {
    let waited = channel::wait_for_channel(
        gate,
        own_input(json!({ "channel": input.channel, "timeout_seconds": seconds(input.seconds) }))?,
    )
    .await?;
    let outcome = if waited.signalled { "signalled" } else { "deadline" };
    typed(json!({ "channel": waited.channel, "outcome": outcome }))
}

pub async fn wait_for_text(gate: &ReadGate<'_>, input: WaitForTextInput) -> Result<WaitForTextOutput, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    let patterns = input.patterns.unwrap_or_default();
    let stop = input.stop.unwrap_or_default();
    let own = own_input(json!({
        "pane_ids": [pane.to_string()],
        "patterns": patterns,
        "stop": stop,
        "regex": input.regex,
        "timeout_seconds": seconds(input.seconds),
    }))?;
    let waited = text::wait_for_text_cased(gate, own, input.match_case).await?;
    let waited = serde_json::to_value(waited).map_err(|e| ToolError::internal(e.to_string()))?;
    let matched = waited["pattern"].as_str().map(str::to_string);
    let index = matched
        .as_deref()
        .and_then(|found| patterns.iter().position(|pattern| pattern == found));
    let outcome = match waited["outcome"].as_str().unwrap_or_default() {
        "matched" if waited["already_on_screen"] == true => "present_at_entry",
        "matched" => "matched",
        "stopped" => "stopped",
        "paneDied" => "pane_closed",
        _ => "deadline",
    };
    let lines: Vec<&str> = waited["lines"]
        .as_array()
        .map(|lines| lines.iter().filter_map(|line| line.as_str()).collect())
        .unwrap_or_default();
    let text = lines.join("\n");
    typed(json!({
        "pane": pane.to_string(),
        "outcome": outcome,
        "matched_pattern": if outcome == "matched" || outcome == "present_at_entry" { json!(matched) } else { json!(null) },
        "matched_index": index,
        "bytes": text.len(),
        "text": text,
    }))
}
