//! libtmux-mcp's tools for waiting for text and channels, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.

use crate::generated::python::types::*;
use crate::guard::{ChangeGate, ReadGate};
use crate::runtime::ToolError;

use super::not_adapted;

pub async fn signal_channel(
    _gate: &ChangeGate<'_>,
    _input: SignalChannelInput,
) -> Result<SignalChannelOutput, ToolError> {
    Err(not_adapted("signal_channel"))
}

pub async fn wait_for_channel(
    _gate: &ReadGate<'_>,
    _input: WaitForChannelInput,
) -> Result<WaitForChannelOutput, ToolError> {
    Err(not_adapted("wait_for_channel"))
}

pub async fn wait_for_text(_gate: &ReadGate<'_>, _input: WaitForTextInput) -> Result<WaitForTextOutput, ToolError> {
    Err(not_adapted("wait_for_text"))
}
