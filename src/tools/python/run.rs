//! libtmux-mcp's tools for running commands and piping pane output, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.
//!
//! `run_command` is paneward's own: it types only at an empty shell prompt, one job per
//! pane, and the line it types (which fetches the command from a tmux buffer) always
//! starts with a space, so it never enters a shell's history whatever
//! `suppress_history` says. Unlike libtmux-mcp the command runs in the pane's shell
//! itself, not a subshell.

use crate::generated::python::types::*;
use crate::generated::types as own;
use crate::guard::ChangeGate;
use crate::runtime::ToolError;

use super::input::{expected, py_float, resolved_pane, suppress_history};
use super::target::checked;

/// Through paneward's `pipe_pane`: the caller names a file, never a command (paneward
/// quotes the path for `cat` itself); a new pipe replaces the pane's pipe as tmux's
/// `pipe-pane` does for libtmux. paneward takes only an absolute path.
pub async fn pipe_pane(gate: &ChangeGate<'_>, input: PipePaneInput) -> Result<PipePaneOutput, ToolError> {
    if input.output_path.as_deref().is_some_and(|path| path.trim().is_empty()) {
        return Err(expected(
            "output_path must be a non-empty path, or None to stop piping.",
        ));
    }
    let pane = resolved_pane(gate, &checked(gate, &input)?).await?;
    let PipePaneInput {
        append, output_path, ..
    } = input;
    let own_input = own::PipePaneInput {
        append: Some(append),
        pane_id: pane
            .to_string()
            .try_into()
            .map_err(|_| ToolError::internal("a pane id broke its pattern"))?,
        path: output_path
            .as_deref()
            .map(|path| {
                own::PipePaneInputPath::try_from(path.to_string())
                    .map_err(|_| ToolError::invalid_argument("/output_path", "must be an absolute path (starting with /) of at most 4096 bytes: paneward pipes only to absolute paths"))
            })
            .transpose()?,
        replace: Some(true),
        stop: Some(output_path.is_none()),
    };
    crate::tools::run::pipe::pipe_pane(gate, own_input).await?;
    let result = match output_path {
        None => format!("Piping stopped for pane {pane}"),
        Some(path) => format!("Piping pane {pane} to {path}"),
    };
    Ok(PipePaneOutput { result })
}

pub async fn run_command(gate: &ChangeGate<'_>, input: RunCommandInput) -> Result<RunCommandOutput, ToolError> {
    let RunCommandInput {
        ref command,
        suppress_history: asked,
        timeout,
        ..
    } = input;
    if command.trim().is_empty() {
        return Err(expected("command must not be empty"));
    }
    // libtmux-mcp's rule, kept so the contract answers alike (paneward's own line is one
    // line whatever the command holds).
    if suppress_history(gate, asked) && command.contains(['\n', '\r']) {
        return Err(expected("command must be a single line when suppress_history=True"));
    }
    if timeout <= 0.0 || timeout.is_nan() {
        return Err(expected("timeout must be positive"));
    }
    let pane = resolved_pane(gate, &checked(gate, &input)?).await?;
    let own_input = own::RunCommandInput {
        command: input
            .command
            .trim_end()
            .to_string()
            .try_into()
            .map_err(|_| expected("command is longer than paneward runs (16000 characters)"))?,
        detach: None,
        force: None,
        max_lines: input.max_lines,
        pane_id: pane
            .to_string()
            .try_into()
            .map_err(|_| ToolError::internal("a pane id broke its pattern"))?,
        show_command: Some(false),
        timeout_seconds: Some(timeout),
    };
    let ran = crate::tools::run::run_command(gate, own_input).await?;
    let own::RunCommandOutput {
        elapsed_seconds,
        exit_status,
        job_id,
        lines_missed: _,
        not_ready_reason,
        output,
        pane_id,
        state,
        timeout_clamped: _,
        timeout_seconds,
        truncated,
        truncated_bytes: _,
        truncated_lines,
    } = ran;
    if let Some(reason) = not_ready_reason {
        // paneward types only at a shell prompt that is ready: nothing was typed.
        return Err(expected(&format!(
            "pane {pane_id} is not at a ready shell prompt ({reason}); nothing was typed, call run_command again"
        )));
    }
    let finished = matches!(state, own::RunCommandOutputState::Finished);
    if let (false, Some(job)) = (finished, &job_id) {
        tracing::info!(job = %job, timeout = %py_float(timeout), "run_command timed out; the command goes on");
    }
    Ok(RunCommandOutput {
        effective_timeout: timeout_seconds,
        elapsed_seconds,
        exit_status: if finished { exit_status } else { None },
        output,
        output_truncated: truncated,
        output_truncated_lines: truncated_lines,
        pane_id,
        timed_out: !finished,
    })
}
