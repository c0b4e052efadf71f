//! libtmux-mcp's tools for typing, pasting, buffers and copy mode, under `--profile python`: each adapts its
//! call onto paneward's own handlers and answers in libtmux-mcp's envelope.
//!
//! Typing goes through [`ChangeGate::deliver`], so the caller-pane and cohort checks
//! hold as in paneward's own `send_keys`. libtmux hands `keys` to tmux as one word:
//! tmux presses it as a key when the whole word names one (`C-c`, `Enter`) and types it
//! as text otherwise. paneward does the same, but decides which itself, so a word is
//! never handed to tmux's parser as is.

use std::time::Instant;

use crate::generated::python::types::*;
use crate::guard::key_input::KeyInput;
use crate::guard::{ChangeGate, ReadGate};
use crate::runtime::ToolError;
use crate::tmux::PaneId;
use crate::tools::args;
use crate::tools::input::keys::is_key_name;

use super::not_adapted;
use super::target::{check_socket, upstream_error, Server, Targeting};

/// Whether to keep what paneward submits out of the shell's history (a leading space).
/// Taken from the call as asked; the one place a server-wide default is to be wired.
pub fn suppress_history(_gate: &ReadGate<'_>, asked: bool) -> bool {
    asked
}

/// libtmux-mcp's `ExpectedToolError`: a refusal the agent can correct.
pub(crate) fn expected(message: &str) -> ToolError {
    upstream_error("ExpectedToolError", message, None)
}

/// The pane `targeting` names, resolved by exact match, as paneward's pane id.
///
/// # Errors
/// As [`Server::pane`].
pub(crate) async fn resolved_pane(gate: &ReadGate<'_>, targeting: &Targeting<'_>) -> Result<PaneId, ToolError> {
    let server = Server::read(gate).await?;
    pane_of(&server, targeting)
}

fn pane_of(server: &Server, targeting: &Targeting<'_>) -> Result<PaneId, ToolError> {
    let pane = server.pane(targeting)?;
    args::pane_id("/pane_id", pane.id.as_str())
}

/// One row of input as libtmux types it: the optional history space, then `keys` as a
/// key press when the whole text names one key, else as text; `field` names `keys`.
///
/// # Errors
/// Text [`KeyInput::parse`] refuses (too long, a NUL), or nothing to send.
fn key_input(field: &str, keys: &str, literal: bool, suppress: bool, enter: bool) -> Result<KeyInput, ToolError> {
    let text = if suppress { format!(" {keys}") } else { keys.to_string() };
    let as_key = !literal && is_key_name(&text);
    KeyInput::parse(field, &text, !as_key, enter)
}

pub async fn send_keys(gate: &ChangeGate<'_>, input: SendKeysInput) -> Result<SendKeysOutput, ToolError> {
    let SendKeysInput {
        enter,
        keys,
        literal,
        pane_id,
        session_id,
        session_name,
        socket_name,
        suppress_history: asked,
        window_id,
    } = input;
    check_socket(gate, socket_name.as_deref())?;
    let typed = key_input("/keys", &keys, literal, suppress_history(gate, asked), enter)?;
    let targeting = Targeting {
        pane_id: pane_id.as_deref(),
        session_id: session_id.as_deref(),
        session_name: session_name.as_deref(),
        window_id: window_id.as_deref(),
        window_index: None,
    };
    let pane = resolved_pane(gate, &targeting).await?;
    gate.deliver(pane, false, &typed, enter).await?;
    Ok(SendKeysOutput {
        result: format!("Keys sent to pane {pane}"),
    })
}

/// libtmux-mcp's text for a batch that ran out of time.
fn batch_timed_out(timeout: f64) -> String {
    format!("batch execution exceeded timeout of {}s", py_float(timeout))
}

/// A float as Python's `str` writes it (`5.0`, `0.25`).
pub(crate) fn py_float(value: f64) -> String {
    if value.is_finite() && value.fract() == 0.0 && value.abs() < 1e16 {
        format!("{value:.1}")
    } else {
        format!("{value}")
    }
}

/// A failed row's error as libtmux-mcp writes it: the message, then its suggestion.
fn row_error(error: &ToolError) -> String {
    match error.upstream().suggestion {
        Some(suggestion) => format!("{}\n{suggestion}", error.message()),
        None => error.message().to_string(),
    }
}

/// Types the rows in order, each row's target resolved and its cohort checked just
/// before its own input. Every row's keys are checked before anything is typed, so a
/// malformed row refuses the whole batch and changes nothing. `timeout` is checked
/// between rows: a row already handed to tmux is never cut short.
pub async fn send_keys_batch(
    gate: &ChangeGate<'_>,
    input: SendKeysBatchInput,
) -> Result<SendKeysBatchOutput, ToolError> {
    let SendKeysBatchInput {
        on_error,
        operations,
        socket_name,
        timeout,
    } = input;
    if operations.is_empty() {
        return Err(expected("operations must not be empty"));
    }
    check_socket(gate, socket_name.as_deref())?;
    let suppress = |asked| suppress_history(gate, asked);
    let typed = operations
        .iter()
        .enumerate()
        .map(|(i, op)| {
            key_input(
                &format!("/operations/{i}/keys"),
                &op.keys,
                op.literal,
                suppress(op.suppress_history),
                op.enter,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let stop_on_error = matches!(on_error, SendKeysBatchInputOnError::Stop);
    let started = Instant::now();
    let mut results = Vec::with_capacity(operations.len());
    let mut stopped_at = None;
    for (row, (op, keys)) in operations.iter().zip(&typed).enumerate() {
        let index = i64::try_from(row).map_err(|_| ToolError::internal("row index out of range"))?;
        let row_started = Instant::now();
        let outcome = match timeout {
            Some(limit) if started.elapsed().as_secs_f64() > limit => Err((op.pane_id.clone(), batch_timed_out(limit))),
            _ => {
                let targeting = Targeting {
                    pane_id: op.pane_id.as_deref(),
                    session_id: op.session_id.as_deref(),
                    session_name: op.session_name.as_deref(),
                    window_id: op.window_id.as_deref(),
                    window_index: None,
                };
                match resolved_pane(gate, &targeting).await {
                    Err(error) => Err((None, row_error(&error))),
                    Ok(pane) => {
                        let delivered = gate.deliver(pane, false, keys, op.enter).await;
                        // Typed or not, the row may have changed a pane: a question put
                        // off by it stops the batch (a repeat would type every row again).
                        gate.context().note_change();
                        if gate.context().awaits_answer() {
                            break;
                        }
                        delivered
                            .map(|_| pane)
                            .map_err(|error| (Some(pane.to_string()), row_error(&error)))
                    }
                }
            }
        };
        let elapsed_seconds = row_started.elapsed().as_secs_f64();
        match outcome {
            Ok(pane) => results.push(SendKeysBatchOutputResultsItem {
                elapsed_seconds,
                error: None,
                index,
                pane_id: Some(pane.to_string()),
                success: true,
            }),
            Err((pane_id, error)) => {
                results.push(SendKeysBatchOutputResultsItem {
                    elapsed_seconds,
                    error: Some(error),
                    index,
                    pane_id,
                    success: false,
                });
                if stop_on_error {
                    stopped_at = Some(index);
                    break;
                }
            }
        }
    }
    let succeeded = results.iter().filter(|r| r.success).count();
    let count = |n: usize| i64::try_from(n).map_err(|_| ToolError::internal("row count out of range"));
    Ok(SendKeysBatchOutput {
        failed: count(results.len() - succeeded)?,
        succeeded: count(succeeded)?,
        results,
        stopped_at,
    })
}

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

pub async fn show_buffer(_gate: &ReadGate<'_>, _input: ShowBufferInput) -> Result<String, ToolError> {
    Err(not_adapted("show_buffer"))
}
