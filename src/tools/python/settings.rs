//! libtmux-mcp's tools for options, environment and hooks, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.

use crate::generated::python::types::*;
use crate::guard::{ChangeGate, ReadGate};
use crate::runtime::ToolError;

use super::not_adapted;

pub async fn set_environment(
    _gate: &ChangeGate<'_>,
    _input: SetEnvironmentInput,
) -> Result<SetEnvironmentOutput, ToolError> {
    Err(not_adapted("set_environment"))
}

pub async fn set_option(_gate: &ChangeGate<'_>, _input: SetOptionInput) -> Result<SetOptionOutput, ToolError> {
    Err(not_adapted("set_option"))
}

pub async fn show_environment(
    _gate: &ReadGate<'_>,
    _input: ShowEnvironmentInput,
) -> Result<ShowEnvironmentOutput, ToolError> {
    Err(not_adapted("show_environment"))
}

pub async fn show_hook(_gate: &ReadGate<'_>, _input: ShowHookInput) -> Result<ShowHookOutput, ToolError> {
    Err(not_adapted("show_hook"))
}

pub async fn show_hooks(_gate: &ReadGate<'_>, _input: ShowHooksInput) -> Result<ShowHooksOutput, ToolError> {
    Err(not_adapted("show_hooks"))
}

pub async fn show_option(_gate: &ReadGate<'_>, _input: ShowOptionInput) -> Result<ShowOptionOutput, ToolError> {
    Err(not_adapted("show_option"))
}
