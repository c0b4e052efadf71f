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
use crate::generated::types as own;
use crate::guard::key_input::KeyInput;
use crate::guard::{ChangeGate, ReadGate};
use crate::limits::KEYS_MAX_CHARS;
use crate::runtime::error::short_echo;
use crate::runtime::ToolError;
use crate::tmux::PaneId;
use crate::tools::args;
use crate::tools::input::keys::is_key_name;

use super::models::{self, Scope};
use super::target::{checked, upstream_error, Level, Server, Targeting};

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
    let server = Server::read_for(gate, targeting, Level::Pane).await?;
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
    let length = text.chars().count();
    if length > KEYS_MAX_CHARS {
        // One tmux command holds 16 KiB: paneward types at most 4,000 characters a row.
        let argument = field.trim_start_matches('/').replace('/', ".");
        return Err(expected(&format!(
            "{argument} is {length} characters long; paneward types at most {KEYS_MAX_CHARS} in one send-keys \
             (a tmux command holds 16 KiB): send the text in parts, or stage it with paste_text"
        )));
    }
    let as_key = !literal && is_key_name(&text);
    KeyInput::parse(field, &text, !as_key, enter)
}

pub async fn send_keys(gate: &ChangeGate<'_>, input: SendKeysInput) -> Result<SendKeysOutput, ToolError> {
    let targeting = checked(gate, &input)?;
    let SendKeysInput {
        enter,
        ref keys,
        literal,
        suppress_history: asked,
        ..
    } = input;
    let suppress = suppress_history(gate, asked);
    if keys.is_empty() && !enter && !suppress {
        // Nothing to type: libtmux-mcp's tmux call types nothing and succeeds.
        let pane = resolved_pane(gate, &targeting).await?;
        return Ok(SendKeysOutput {
            result: format!("Keys sent to pane {pane}"),
        });
    }
    let typed = key_input("/keys", keys, literal, suppress, enter)?;
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
    if input.operations.is_empty() {
        return Err(expected("operations must not be empty"));
    }
    checked(gate, &input)?;
    let SendKeysBatchInput {
        on_error,
        operations,
        timeout,
        ..
    } = input;
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
                    ..Targeting::default()
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

// Buffers. libtmux-mcp names its buffers `libtmux_mcp_<32 hex>_<logical name>`;
// paneward stages them as its own (`paneward_<32 hex>_<label>`, the same random part
// and label), so every rule of paneward's buffer tools holds (only its own buffers are
// read, pasted or deleted; a person's clipboard never is), and the profile shows the
// same buffer under libtmux-mcp's prefix.

/// libtmux-mcp's prefix of the buffer names it hands out.
const PY_PREFIX: &str = "libtmux_mcp_";
/// paneward's prefix of the buffers it stages.
const OWN_PREFIX: &str = "paneward_";

/// Whether `label` is a logical name libtmux-mcp accepts: 1 to 64 of `A-Za-z0-9_.-`.
fn is_logical_name(label: &str) -> bool {
    (1..=64).contains(&label.len()) && label.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
}

/// A name as Python's `repr` quotes a plain one, shortened for an error.
fn quoted(name: &str) -> String {
    let name = short_echo(name);
    format!("'{name}'")
}

/// The paneward buffer behind a name libtmux-mcp handed out.
///
/// # Errors
/// Any other name, with libtmux-mcp's text.
fn own_buffer_name(name: &str) -> Result<String, ToolError> {
    let shaped = name.strip_prefix(PY_PREFIX).and_then(|rest| {
        let (random, label) = rest.split_at_checked(32)?;
        let label = label.strip_prefix('_')?;
        let ok = random.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')) && is_logical_name(label);
        ok.then(|| format!("{OWN_PREFIX}{rest}"))
    });
    shaped.ok_or_else(|| expected(&format!("Invalid buffer name: {}", quoted(name))))
}

/// The name libtmux-mcp would show for paneward's buffer `own`.
fn py_buffer_name(own: &str) -> Result<String, ToolError> {
    own.strip_prefix(OWN_PREFIX)
        .map(|rest| format!("{PY_PREFIX}{rest}"))
        .ok_or_else(|| ToolError::internal("a staged buffer lacks paneward's prefix"))
}

/// What was done with a buffer that turned out missing, for libtmux-mcp's words.
#[derive(Clone, Copy)]
enum BufferUse {
    Paste,
    Show,
}

/// A paneward refusal naming a missing buffer, as libtmux-mcp's tmux failure.
fn buffer_failed(error: ToolError, used: BufferUse, name: &str) -> ToolError {
    if matches!(error.kind(), crate::runtime::error::ToolErrorKind::NotFound) {
        let shown = short_echo(name);
        // libtmux-mcp runs show-buffer itself but pastes through libtmux.
        return match used {
            BufferUse::Paste => upstream_error(
                "LibTmuxException",
                &format!("tmux error: paste-buffer: no buffer {shown}"),
                None,
            ),
            BufferUse::Show => upstream_error(
                "CalledProcessError",
                &format!("show-buffer failed for {}: no buffer {shown}", quoted(name)),
                None,
            ),
        };
    }
    error
}

fn own_string<T: TryFrom<String>>(field: &str, text: &str, rule: &str) -> Result<T, ToolError> {
    T::try_from(text.to_string()).map_err(|_| ToolError::invalid_argument(field, rule))
}

pub async fn load_buffer(gate: &ChangeGate<'_>, input: LoadBufferInput) -> Result<LoadBufferOutput, ToolError> {
    let label = match input.logical_name.as_deref() {
        None | Some("") => "buf",
        Some(label) if is_logical_name(label) => label,
        Some(label) => return Err(expected(&format!("Invalid logical buffer name: {}", quoted(label)))),
    };
    checked(gate, &input)?;
    let staged = crate::tools::input::buffers::load_buffer(
        gate,
        own::LoadBufferInput {
            label: Some(own_string(
                "/logical_name",
                label,
                "must be 1 to 64 of A-Z a-z 0-9 _ . -",
            )?),
            text: own_string("/content", &input.content, "must be 1 byte to 1 MiB of text")?,
        },
    )
    .await?;
    Ok(LoadBufferOutput {
        buffer_name: py_buffer_name(&staged.buffer_name.to_string())?,
        logical_name: input.logical_name,
    })
}

pub async fn paste_buffer(gate: &ChangeGate<'_>, input: PasteBufferInput) -> Result<PasteBufferOutput, ToolError> {
    let targeting = checked(gate, &input)?;
    let PasteBufferInput {
        bracket,
        ref buffer_name,
        ..
    } = input;
    let own_name = own_buffer_name(buffer_name)?;
    let pane = resolved_pane(gate, &targeting).await?;
    let own_input = own::PasteBufferInput {
        bracket: Some(bracket),
        buffer_name: own_string("/buffer_name", &own_name, "must be a buffer load_buffer returned")?,
        delete: Some(false),
        enter: Some(false),
        force: None,
        pane_id: own_string("/pane_id", &pane.to_string(), "must be a pane id")?,
    };
    crate::tools::input::buffers::paste_buffer(gate, own_input)
        .await
        .map_err(|error| buffer_failed(error, BufferUse::Paste, buffer_name))?;
    Ok(PasteBufferOutput {
        result: format!("Buffer {} pasted to pane {pane}", quoted(buffer_name)),
    })
}

/// libtmux-mcp's `BufferContent`, written as its JSON text (this tool has no
/// outputSchema upstream).
pub async fn show_buffer(gate: &ReadGate<'_>, input: ShowBufferInput) -> Result<String, ToolError> {
    checked(gate, &input)?;
    let ShowBufferInput {
        buffer_name, max_lines, ..
    } = input;
    let own_name = own_buffer_name(&buffer_name)?;
    // No limit asked: as many lines as paneward shows at most.
    let limit = max_lines.unwrap_or(crate::limits::TEXT_MAX_LINES);
    let limit = u64::try_from(limit)
        .ok()
        .and_then(std::num::NonZeroU64::new)
        .ok_or_else(|| expected(&format!("max_lines must be positive (received {limit})")))?;
    let own_input = own::ShowBufferInput {
        buffer_name: own_string("/buffer_name", &own_name, "must be a buffer load_buffer returned")?,
        max_lines: Some(limit),
    };
    let shown = crate::tools::input::buffers::show_buffer(gate, own_input)
        .await
        .map_err(|error| buffer_failed(error, BufferUse::Show, &buffer_name))?;
    let mut content = shown.lines.join("\n");
    if !shown.truncated && shown.ends_with_newline {
        content.push('\n');
    }
    let reply = serde_json::json!({
        "buffer_name": buffer_name,
        "content": content,
        "content_truncated": shown.truncated,
        "content_truncated_lines": shown.truncated_lines,
    });
    Ok(reply.to_string())
}

pub async fn delete_buffer(gate: &ChangeGate<'_>, input: DeleteBufferInput) -> Result<DeleteBufferOutput, ToolError> {
    checked(gate, &input)?;
    let buffer_name = input.buffer_name;
    let own_name = own_buffer_name(&buffer_name)?;
    let own_input = own::DeleteBufferInput {
        buffer_name: own_string("/buffer_name", &own_name, "must be a buffer load_buffer returned")?,
    };
    let deleted = crate::tools::input::buffers::delete_buffer(gate, own_input).await?;
    if !deleted.existed {
        let shown = short_echo(&buffer_name);
        return Err(upstream_error(
            "CalledProcessError",
            &format!(
                "delete-buffer failed for {}: unknown buffer: {shown}",
                quoted(&buffer_name)
            ),
            None,
        ));
    }
    Ok(DeleteBufferOutput {
        result: format!("Buffer {} deleted", quoted(&buffer_name)),
    })
}

/// Pastes through paneward's `paste_text`: staged in a buffer of its own, pasted with
/// the input check, the buffer deleted by the paste; never submitted (no Enter).
pub async fn paste_text(gate: &ChangeGate<'_>, input: PasteTextInput) -> Result<PasteTextOutput, ToolError> {
    let targeting = checked(gate, &input)?;
    let pane = resolved_pane(gate, &targeting).await?;
    let own_input = own::PasteTextInput {
        bracket: Some(input.bracket),
        confirm_submit: None,
        confirm_timeout_ms: None,
        enter: Some(false),
        force: None,
        pane_id: own_string("/pane_id", &pane.to_string(), "must be a pane id")?,
        text: own_string("/text", &input.text, "must be 1 byte to 1 MiB of text")?,
    };
    crate::tools::input::buffers::paste_text(gate, own_input).await?;
    Ok(PasteTextOutput {
        result: format!("Text pasted to pane {pane}"),
    })
}

// Copy mode: paneward's own tools (the caller pane is never put in copy mode: Python
// has no `force`), answered with the pane's `PaneInfo` as libtmux-mcp does.

/// The pane's libtmux-mcp record, read after the change.
async fn pane_info<T: serde::de::DeserializeOwned>(gate: &ReadGate<'_>, pane: PaneId) -> Result<T, ToolError> {
    let id = pane.to_string();
    let record = models::one(models::panes(gate, Scope::Target(&id)).await?, "pane_id", &id)?;
    models::typed(record)
}

pub async fn enter_copy_mode(
    gate: &ChangeGate<'_>,
    input: EnterCopyModeInput,
) -> Result<EnterCopyModeOutput, ToolError> {
    let pane = resolved_pane(gate, &checked(gate, &input)?).await?;
    let own_input = own::EnterCopyModeInput {
        force: None,
        pane_id: own_string("/pane_id", &pane.to_string(), "must be a pane id")?,
        // libtmux-mcp scrolls only for a positive count.
        scroll_up_lines: input.scroll_up.filter(|lines| *lines > 0),
    };
    crate::tools::input::copy_mode::enter_copy_mode(gate, own_input).await?;
    pane_info(gate, pane).await
}

pub async fn exit_copy_mode(gate: &ChangeGate<'_>, input: ExitCopyModeInput) -> Result<ExitCopyModeOutput, ToolError> {
    let pane = resolved_pane(gate, &checked(gate, &input)?).await?;
    let own_input = own::ExitCopyModeInput {
        pane_id: own_string("/pane_id", &pane.to_string(), "must be a pane id")?,
    };
    crate::tools::input::copy_mode::exit_copy_mode(gate, own_input).await?;
    pane_info(gate, pane).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_one_key_press_when_the_whole_text_names_one_else_text() {
        let typed = |keys, literal, suppress| key_input("/keys", keys, literal, suppress, true).unwrap();
        assert_eq!(typed("C-c", false, false), KeyInput::Names(vec!["C-c".into()]));
        assert_eq!(typed("echo hi", false, false), KeyInput::Literal("echo hi".into()));
        assert_eq!(typed("C-c", true, false), KeyInput::Literal("C-c".into()));
        // The history space makes it text, as tmux reads " Enter".
        assert_eq!(typed("Enter", false, true), KeyInput::Literal(" Enter".into()));
    }

    #[test]
    fn buffer_names_map_between_libtmux_mcp_and_paneward() {
        let random = "0123456789abcdef0123456789abcdef";
        let own = own_buffer_name(&format!("libtmux_mcp_{random}_note")).unwrap();
        assert_eq!(own, format!("paneward_{random}_note"));
        assert_eq!(py_buffer_name(&own).unwrap(), format!("libtmux_mcp_{random}_note"));
        for bad in [
            "mine",
            "paneward_x",
            &format!("libtmux_mcp_{random}"),
            &format!("libtmux_mcp_{random}_a b"),
        ] {
            assert!(own_buffer_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn floats_are_written_as_python_writes_them() {
        assert_eq!(py_float(5.0), "5.0");
        assert_eq!(py_float(-1.0), "-1.0");
        assert_eq!(py_float(0.25), "0.25");
    }
}
