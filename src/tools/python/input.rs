//! libtmux-mcp's tools for typing, pasting, buffers and copy mode, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.

use crate::generated::python::types::*;
use crate::guard::{ChangeGate, ReadGate};
use crate::runtime::ToolError;

use super::not_adapted;

pub async fn delete_buffer(_gate: &ChangeGate<'_>, _input: DeleteBufferInput) -> Result<DeleteBufferOutput, ToolError> {
    Err(not_adapted("delete_buffer"))
}

pub async fn enter_copy_mode(
    _gate: &ChangeGate<'_>,
    _input: EnterCopyModeInput,
) -> Result<EnterCopyModeOutput, ToolError> {
    Err(not_adapted("enter_copy_mode"))
}

pub async fn exit_copy_mode(
    _gate: &ChangeGate<'_>,
    _input: ExitCopyModeInput,
) -> Result<ExitCopyModeOutput, ToolError> {
    Err(not_adapted("exit_copy_mode"))
}

pub async fn load_buffer(_gate: &ChangeGate<'_>, _input: LoadBufferInput) -> Result<LoadBufferOutput, ToolError> {
    Err(not_adapted("load_buffer"))
}

pub async fn paste_buffer(_gate: &ChangeGate<'_>, _input: PasteBufferInput) -> Result<PasteBufferOutput, ToolError> {
    Err(not_adapted("paste_buffer"))
}

pub async fn paste_text(_gate: &ChangeGate<'_>, _input: PasteTextInput) -> Result<PasteTextOutput, ToolError> {
    Err(not_adapted("paste_text"))
}

pub async fn send_keys(_gate: &ChangeGate<'_>, _input: SendKeysInput) -> Result<SendKeysOutput, ToolError> {
    Err(not_adapted("send_keys"))
}

pub async fn send_keys_batch(
    _gate: &ChangeGate<'_>,
    _input: SendKeysBatchInput,
) -> Result<SendKeysBatchOutput, ToolError> {
    Err(not_adapted("send_keys_batch"))
}

pub async fn show_buffer(_gate: &ReadGate<'_>, _input: ShowBufferInput) -> Result<String, ToolError> {
    Err(not_adapted("show_buffer"))
}
