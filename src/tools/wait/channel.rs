//! `wait_for_channel` and `signal_channel`: tmux `wait-for` channels.

use crate::generated::types::{SignalChannelInput, SignalChannelOutput, WaitForChannelInput, WaitForChannelOutput};
use crate::guard::channel::ChannelName;
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb, ReadGate};
use crate::limits::WAIT_DEFAULT_TIMEOUT;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::channel::WaitEnd;
use crate::tmux::{ReadCommand, ReadVerb, TmuxError};
use crate::tools::budget::{refuse_in_batch, Budget, Progress};

/// The server's pid: which server answers, so a restart during a wait is seen.
async fn server_pid(gate: &ReadGate<'_>) -> Result<String, TmuxError> {
    let output = gate
        .run(ReadCommand::new(ReadVerb::DisplayMessage).arg("#{pid}"))
        .await?;
    Ok(String::from_utf8_lossy(&output).trim().to_string())
}

fn server_went_away(channel: &ChannelName) -> ToolError {
    ToolError::new(
        ToolErrorKind::TmuxUnavailable,
        format!(
            "the tmux server went away while waiting on channel {}; tmux ends a wait that way as if it were \
             signalled, so this is not a signal",
            channel.as_str()
        ),
    )
}

/// `wait_for_channel`: see `schemas/tools/wait_for_channel.json`.
///
/// # Errors
/// A bad or reserved name, a batch row, no tmux server, or the server going away.
pub async fn wait_for_channel(
    gate: &ReadGate<'_>,
    input: WaitForChannelInput,
) -> Result<WaitForChannelOutput, ToolError> {
    let WaitForChannelInput {
        channel,
        timeout_seconds,
    } = input;
    let channel = ChannelName::parse("/channel", &channel)?;
    let budget = Budget::new(
        "/timeout_seconds",
        timeout_seconds,
        WAIT_DEFAULT_TIMEOUT,
        gate.state().settings.max_wait,
    )?;
    refuse_in_batch(gate.context(), "wait_for_channel")?;
    let before = server_pid(gate).await?;
    let mut progress = Progress::new(gate.context());
    let what = format!("channel {}", channel.as_str());
    // One process for the whole wait: killing a tmux wait-for leaves tmux holding a
    // dead waiter that swallows the channel's next signal (docs/tmux-quirks.md), so the
    // wait is never cut into slices; progress is sent beside it.
    let wait = gate.wait_for_channel(&channel, budget.timeout);
    tokio::pin!(wait);
    let end = loop {
        tokio::select! {
            end = &mut wait => break end?,
            () = tokio::time::sleep(crate::limits::WAIT_PROGRESS_INTERVAL) => progress.tick(&budget, &what).await,
        }
    };
    if end == WaitEnd::Woken {
        match server_pid(gate).await {
            Ok(after) if after == before => {}
            _ => return Err(server_went_away(&channel)),
        }
    }
    Ok(WaitForChannelOutput {
        channel: channel.as_str().to_string(),
        signalled: end == WaitEnd::Woken,
        elapsed_seconds: Budget::seconds(budget.elapsed()),
        timeout_seconds: Budget::seconds(budget.timeout),
        timeout_clamped: budget.clamped,
    })
}

/// `signal_channel`: see `schemas/tools/signal_channel.json`.
///
/// # Errors
/// A bad or reserved name, or tmux failing.
pub async fn signal_channel(
    gate: &ChangeGate<'_>,
    input: SignalChannelInput,
) -> Result<SignalChannelOutput, ToolError> {
    let SignalChannelInput { channel } = input;
    let channel = ChannelName::parse("/channel", &channel)?;
    gate.change_all(&[ChangeCommand::new(ChangeVerb::WaitFor).arg("-S").arg(channel.as_str())])
        .await
        .map_err(|e| ToolError::from(e).for_a_change())?;
    Ok(SignalChannelOutput {
        channel: channel.as_str().to_string(),
    })
}
