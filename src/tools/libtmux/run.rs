//! The family's `run_shell_command`, served by paneward's own `run_command` (an alias
//! advertised only under `--profile libtmux`). `tmux-mcp` 0.1.2 watches for its
//! completion marker through a control client, which needs tmux 3.7; paneward's
//! `run_command` reads the command's rows and exit status with the commands tmux 3.2 to
//! 3.5 have, so the call works on those too. It runs only at a ready shell prompt, one
//! job per pane, in a subshell, the typed line starting with a space so it stays out of
//! history; the caller-pane, cohort, mode and attended-pane checks apply as to any input.

use serde_json::json;

use crate::generated::libtmux::types::*;
use crate::generated::types as own;
use crate::guard::ChangeGate;
use crate::runtime::{Encoded, ToolError};

use super::target;
use super::views::typed;
use super::workspace::own_input;

/// The family's default wait and its ceiling, in seconds.
const DEFAULT_SECONDS: u64 = 30;
const MAX_SECONDS: u64 = 600;

pub async fn run_shell_command(
    gate: &ChangeGate<'_>,
    input: RunShellCommandInput,
) -> Result<Encoded<RunShellCommandOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    let seconds = input.seconds.unwrap_or(DEFAULT_SECONDS).min(MAX_SECONDS);
    let ran = crate::tools::run::run_command(
        gate,
        own_input(json!({
            "pane_id": pane.to_string(),
            "command": input.command,
            "timeout_seconds": seconds,
        }))?,
    )
    .await?;
    let outcome = match ran.state {
        own::RunCommandOutputState::Finished => "completed",
        own::RunCommandOutputState::NotReady => "no_shell",
        // Still running at the deadline: the wait ends, the command goes on.
        own::RunCommandOutputState::Running | own::RunCommandOutputState::Pending => "deadline",
    };
    let output = ran.output.join("\n");
    typed(json!({
        "pane": pane.to_string(),
        "outcome": outcome,
        "exit_status": ran.exit_status,
        "bytes": output.len(),
        "output": output,
        "truncated": ran.truncated,
    }))
}
