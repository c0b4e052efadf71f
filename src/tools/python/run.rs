//! libtmux-mcp's tools for running commands and piping pane output, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.

use crate::generated::python::types::*;
use crate::guard::ChangeGate;
use crate::runtime::ToolError;

use super::not_adapted;

pub async fn pipe_pane(_gate: &ChangeGate<'_>, _input: PipePaneInput) -> Result<PipePaneOutput, ToolError> {
    Err(not_adapted("pipe_pane"))
}

pub async fn run_command(_gate: &ChangeGate<'_>, _input: RunCommandInput) -> Result<RunCommandOutput, ToolError> {
    Err(not_adapted("run_command"))
}
