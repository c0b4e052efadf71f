//! `paste_text`, `load_buffer`, `paste_buffer`, `show_buffer` and `delete_buffer`:
//! text staged in tmux buffers of paneward's own, and pasted through the input check.
//!
//! Text reaches tmux as `set-buffer` arguments inside the command script paneward
//! writes to tmux (the control connection, or `source-file -` on standard input), never
//! as a process argument or a file. tmux 3.3a parses such a script without a length
//! limit (the "command too long" limit is for commands a tmux process sends as its own
//! arguments); the text still goes in slices appended with `set-buffer -a`, so no one
//! command line grows past [`SET_BUFFER_SLICE_BYTES`].
//!
//! paneward's buffers are named `paneward_<128 random bits in hex>[_label]`, so no
//! other process guesses or collides with one; every other buffer (a person's
//! clipboard) is refused. The buffers staged by a process are deleted when it exits
//! cleanly ([`delete_staged`]).

use crate::generated::types::{
    DeleteBufferInput, DeleteBufferOutput, LoadBufferInput, LoadBufferOutput, PasteBufferInput, PasteBufferOutput,
    PasteTextInput, PasteTextOutput, ShowBufferInput, ShowBufferOutput,
};
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb, GuardState, ReadGate};
use crate::limits::{
    BUFFER_LABEL_MAX_CHARS, BUFFER_SHOWN_MAX_BYTES, SET_BUFFER_SLICE_BYTES, STAGED_TEXT_MAX_BYTES, TEXT_DEFAULT_LINES,
    TEXT_MAX_LINES,
};
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::runtime::CallContext;
use crate::tmux::escape::{unescape, Octal};
use crate::tmux::script::random_hex128;
use crate::tmux::{PaneId, ReadCommand, ReadVerb, TmuxError};
use crate::tools::args;
use crate::tools::observe::text::keep_newest_within;

use super::confirm::{self, Confirm};

/// The prefix of every buffer paneward creates.
const PREFIX: &str = "paneward_";
/// Hex digits of the random part of a buffer name (128 bits).
const RANDOM_HEX_DIGITS: usize = 32;

/// A new buffer name: the prefix, 128 unguessable bits ([`random_hex128`]), and the
/// label if given.
fn new_name(label: Option<&str>) -> String {
    let mut name = format!("{PREFIX}{}", random_hex128());
    if let Some(label) = label {
        name.push('_');
        name.push_str(label);
    }
    name
}

/// Whether `name` is one paneward could have created.
fn is_own_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(PREFIX) else {
        return false;
    };
    let (random, label) = match rest.split_at_checked(RANDOM_HEX_DIGITS) {
        Some((random, label)) => (random, label),
        None => return false,
    };
    let label_ok = label.is_empty()
        || label.strip_prefix('_').is_some_and(|l| {
            (1..=BUFFER_LABEL_MAX_CHARS).contains(&l.len())
                && l.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
        });
    random.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')) && label_ok
}

/// Checks that `name` is one of paneward's buffers.
///
/// # Errors
/// Any other name, named as `/buffer_name`.
fn own_buffer(name: &str) -> Result<&str, ToolError> {
    if is_own_name(name) {
        Ok(name)
    } else {
        Err(ToolError::invalid_argument(
            "/buffer_name",
            "must be a buffer paneward created (paneward_<32 hex digits>[_label], as load_buffer returns); other buffers hold a person's copies and are refused",
        ))
    }
}

/// Checks the text to stage: at most [`STAGED_TEXT_MAX_BYTES`], no NUL (tmux's parser ends
/// an argument there).
///
/// # Errors
/// The rule broken, named as `/text`.
fn checked_text(text: &str) -> Result<&str, ToolError> {
    if text.is_empty() || text.len() > STAGED_TEXT_MAX_BYTES {
        return Err(ToolError::invalid_argument(
            "/text",
            format!(
                "must be 1 to {STAGED_TEXT_MAX_BYTES} bytes of UTF-8; got {}",
                text.len()
            ),
        ));
    }
    if text.contains('\0') {
        return Err(ToolError::invalid_argument("/text", "must not contain NUL"));
    }
    Ok(text)
}

/// Checks what a paste of `text` may carry, so a paste with `enter: false` runs nothing.
///
/// Bracketed, the program takes everything up to `ESC [ 2 0 1 ~` as text, line breaks
/// included; that sequence inside the text would end the paste early and the rest would
/// arrive as typed keys, where a CR runs the line. So a bracketed paste carries no ESC
/// (U+001B) at all, nor the one-character CSI (U+009B) some programs read as
/// `ESC [`: there is no escape sequence pasted text needs, and forbidding the
/// introducer is the only rule that covers every spelling of the end sequence. Not
/// bracketed, the text is typed keys, so a line break in it would submit a line.
///
/// # Errors
/// The rule broken, named as `/text`.
fn checked_paste(text: &str, bracket: bool, enter: bool) -> Result<(), ToolError> {
    if bracket && text.contains(['\u{1b}', '\u{9b}']) {
        return Err(ToolError::invalid_argument(
            "/text",
            "must not contain ESC (U+001B) or CSI (U+009B) in a bracketed paste: ESC [201~ ends the paste early and \
             what follows is typed as keys (a CR would run the line); nothing was pasted (send escape sequences as \
             keys with send_keys)",
        ));
    }
    if !bracket && !enter && text.contains(['\r', '\n']) {
        return Err(ToolError::invalid_argument(
            "/text",
            "must not contain a line break with bracket: false and enter: false: unbracketed text arrives as typed \
             keys, so a line break would submit the line; nothing was pasted (paste it bracketed, or pass enter: \
             true to submit)",
        ));
    }
    Ok(())
}

/// `text` cut into slices of at most [`SET_BUFFER_SLICE_BYTES`], on character boundaries.
fn slices(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = rest.len().min(SET_BUFFER_SLICE_BYTES);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    out
}

/// Stores `text` in a new buffer of paneward's and records it as staged.
///
/// # Errors
/// tmux failing (the part staged is deleted).
async fn stage(gate: &ChangeGate<'_>, text: &str, label: Option<&str>) -> Result<String, ToolError> {
    let name = new_name(label);
    let commands: Vec<ChangeCommand> = slices(text)
        .into_iter()
        .enumerate()
        .map(|(index, slice)| {
            let command = ChangeCommand::new(ChangeVerb::SetBuffer);
            let command = if index == 0 { command } else { command.arg("-a") };
            command.arg("-b").arg(name.as_str()).arg("--").sensitive_arg(slice)
        })
        .collect();
    gate.state().staged_buffers.insert(&name);
    if let Err(error) = gate.change_all(&commands).await {
        discard(gate, &name).await;
        return Err(error.into());
    }
    Ok(name)
}

/// Deletes buffer `name` if it exists; whether it did.
///
/// # Errors
/// tmux failing otherwise.
async fn delete(gate: &ChangeGate<'_>, name: &str) -> Result<bool, TmuxError> {
    let command = ChangeCommand::new(ChangeVerb::DeleteBuffer).arg("-b").arg(name);
    let result = gate.change_all(&[command]).await;
    gate.state().staged_buffers.remove(name);
    match result {
        Ok(_) => Ok(true),
        Err(error) if is_missing_buffer(&error) => Ok(false),
        Err(error) => Err(error),
    }
}

/// Deletes `name` after a failure, logging (never failing) if that fails too.
async fn discard(gate: &ChangeGate<'_>, name: &str) {
    if let Err(error) = delete(gate, name).await {
        tracing::warn!(buffer = name, %error, "a staged buffer could not be deleted");
    }
}

/// Whether tmux refused because the buffer named does not exist.
fn is_missing_buffer(error: &TmuxError) -> bool {
    matches!(error, TmuxError::Refused { message, .. }
        if message.starts_with("unknown buffer") || message.starts_with("no buffer"))
}

fn missing(name: &str) -> ToolError {
    ToolError::new(
        ToolErrorKind::NotFound,
        format!("no buffer named {name} (deleted, pasted with delete, or staged by a paneward that has exited)"),
    )
}

/// Reads `name`'s size, `None` if there is no such buffer. The name (checked to be
/// paneward's, so it holds only letters, digits and `_.-`) is the only text in the
/// filter; other buffers are never listed.
async fn buffer_size(gate: &ReadGate<'_>, name: &str) -> Result<Option<usize>, ToolError> {
    let output = gate.run(size_command(name)).await?;
    let text = String::from_utf8_lossy(&output);
    Ok(text.lines().next().and_then(|line| line.trim().parse().ok()))
}

fn size_command(name: &str) -> ReadCommand {
    ReadCommand::new(ReadVerb::ListBuffers)
        .arg("-f")
        .arg(format!("#{{==:#{{buffer_name}},{name}}}"))
        .arg("-F")
        .arg("#{buffer_size}")
}

fn pane_string<T: TryFrom<String>>(pane: PaneId) -> Result<T, ToolError> {
    T::try_from(pane.to_string()).map_err(|_| ToolError::internal("a pane id broke its pattern"))
}

fn pane_strings<T: TryFrom<String>>(panes: &[PaneId]) -> Result<Vec<T>, ToolError> {
    panes.iter().map(|pane| pane_string(*pane)).collect()
}

fn buffer_string<T: TryFrom<String>>(name: &str) -> Result<T, ToolError> {
    T::try_from(name.to_string()).map_err(|_| ToolError::internal("a buffer name broke its pattern"))
}

fn byte_count(text: &str) -> Result<i64, ToolError> {
    i64::try_from(text.len()).map_err(|_| ToolError::internal("a byte count out of range"))
}

/// Stages the text in a buffer of its own, pastes it with the input check, deletes it.
///
/// # Errors
/// Bad arguments, the check's refusal, or tmux failing; the buffer is deleted in every
/// case.
pub async fn paste_text(gate: &ChangeGate<'_>, input: PasteTextInput) -> Result<PasteTextOutput, ToolError> {
    let PasteTextInput {
        pane_id,
        text,
        bracket,
        enter,
        force,
        confirm_submit,
        confirm_timeout_ms,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let text = checked_text(&text)?;
    let (bracket, enter) = (bracket.unwrap_or(true), enter.unwrap_or(false));
    let force = force.unwrap_or(false);
    checked_paste(text, bracket, enter)?;
    let confirm = Confirm::parse(
        confirm_submit,
        confirm_timeout_ms.map(u64::from),
        enter,
        gate.context().is_batch_row(),
    )?;
    let before = match confirm {
        Some(_) => Some(confirm::look(gate, pane).await?),
        None => None,
    };
    let name = stage(gate, text, None).await?;
    let pasted = gate.paste(pane, force, (&name, text), (bracket, true), enter).await;
    // The paste deletes the buffer (-d); after a refusal or a failure it is still there.
    match &pasted {
        Ok(_) => gate.state().staged_buffers.remove(&name),
        Err(_) => discard(gate, &name).await,
    }
    let pasted = pasted?;
    let outcome = match (confirm, &before) {
        (Some(confirm), Some(before)) => {
            let tail = confirm::text_tail(text);
            Some(confirm::confirm(gate, pane, force, before, tail.as_deref(), confirm).await)
        }
        _ => None,
    };
    Ok(PasteTextOutput {
        submitted: outcome.as_ref().map(|o| confirm::word(o.submitted)).transpose()?,
        evidence: outcome.as_ref().map(|o| o.evidence.clone()),
        retried: outcome.as_ref().map(|o| o.retried),
        pane_id: pane_string(pane)?,
        bytes: byte_count(text)?,
        resolved_pane_ids: pane_strings(&pasted.text)?,
        enter_pane_ids: pane_strings(&pasted.enter)?,
    })
}

/// Stages the text in a new buffer of paneward's.
///
/// # Errors
/// Bad arguments or tmux failing.
pub async fn load_buffer(gate: &ChangeGate<'_>, input: LoadBufferInput) -> Result<LoadBufferOutput, ToolError> {
    let LoadBufferInput { text, label } = input;
    let text = checked_text(&text)?;
    let label = label.as_ref().map(|l| l.to_string());
    if let Some(label) = &label {
        if !label.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)) || label.len() > 64 {
            return Err(ToolError::invalid_argument(
                "/label",
                "must be 1 to 64 of A-Z a-z 0-9 _ . -",
            ));
        }
    }
    let name = stage(gate, text, label.as_deref()).await?;
    Ok(LoadBufferOutput {
        buffer_name: buffer_string(&name)?,
        bytes: byte_count(text)?,
    })
}

/// Pastes one of paneward's buffers into a pane with the input check.
///
/// # Errors
/// Another buffer's name, a missing buffer, the check's refusal, or tmux failing.
pub async fn paste_buffer(gate: &ChangeGate<'_>, input: PasteBufferInput) -> Result<PasteBufferOutput, ToolError> {
    let PasteBufferInput {
        buffer_name,
        pane_id,
        bracket,
        delete,
        enter,
        force,
    } = input;
    let name = own_buffer(&buffer_name)?;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let size = buffer_size(gate, name).await?.ok_or_else(|| missing(name))?;
    let (bracket, enter) = (bracket.unwrap_or(true), enter.unwrap_or(false));
    // The same rule as paste_text's, on what the buffer holds (load_buffer stages any
    // text; only a paste decides how it arrives).
    let content = read_buffer(gate, name, size).await?;
    checked_paste(&String::from_utf8_lossy(&content), bracket, enter).map_err(|_| {
        ToolError::invalid_argument(
            "/buffer_name",
            "holds text this paste would not keep as text: ESC (U+001B) or CSI (U+009B) in a bracketed paste \
             (ESC [201~ ends it early and what follows is typed as keys), or a line break with bracket: false and \
             enter: false (it would submit the line); nothing was pasted",
        )
    })?;
    let delete = delete.unwrap_or(false);
    let content = String::from_utf8_lossy(&content);
    let pasted = gate
        .paste(pane, force.unwrap_or(false), (name, &content), (bracket, delete), enter)
        .await?;
    if delete {
        gate.state().staged_buffers.remove(name);
    }
    Ok(PasteBufferOutput {
        buffer_name: buffer_string(name)?,
        pane_id: pane_string(pane)?,
        deleted: delete,
        resolved_pane_ids: pane_strings(&pasted.text)?,
        enter_pane_ids: pane_strings(&pasted.enter)?,
    })
}

/// Reads one of paneward's buffers, newest lines kept.
///
/// # Errors
/// Another buffer's name, a missing buffer, or tmux failing.
pub async fn show_buffer(gate: &ReadGate<'_>, input: ShowBufferInput) -> Result<ShowBufferOutput, ToolError> {
    let ShowBufferInput { buffer_name, max_lines } = input;
    let name = own_buffer(&buffer_name)?;
    let max_lines = max_lines.map(|n| i64::try_from(n.get()).unwrap_or(i64::MAX));
    let max_lines = args::count("/max_lines", max_lines, TEXT_DEFAULT_LINES, TEXT_MAX_LINES)?;
    let size = buffer_size(gate, name).await?.ok_or_else(|| missing(name))?;
    let content = read_buffer(gate, name, size).await?;
    let text = String::from_utf8_lossy(&content);
    let ends_with_newline = text.ends_with('\n');
    let body = text.strip_suffix('\n').unwrap_or(&text);
    let lines: Vec<String> = if text.is_empty() {
        Vec::new()
    } else {
        body.split('\n').map(str::to_string).collect()
    };
    let bounded = keep_newest_within(lines, max_lines, BUFFER_SHOWN_MAX_BYTES);
    Ok(ShowBufferOutput {
        buffer_name: buffer_string(name)?,
        truncated: bounded.truncated(),
        truncated_lines: bounded.truncated_lines.unsigned_abs(),
        truncated_bytes: bounded.truncated_bytes.unsigned_abs(),
        lines: bounded.lines,
        ends_with_newline,
        total_bytes: u64::try_from(size).map_err(|_| ToolError::internal("a buffer size out of range"))?,
    })
}

/// The bytes of buffer `name`, `size` long.
///
/// # Errors
/// A missing buffer, or tmux failing.
async fn read_buffer(gate: &ReadGate<'_>, name: &str, size: usize) -> Result<Vec<u8>, ToolError> {
    // Alone in its round trip: a tmux process run with `source-file -` can write a
    // buffer to its standard output only before anything else printed there, and
    // prints nothing after it (docs/tmux-quirks.md).
    let show = ReadCommand::new(ReadVerb::ShowBuffer).arg("-b").arg(name);
    match gate.run(show).await {
        Ok(output) => Ok(buffer_content(&output, size)),
        Err(error) if is_missing_buffer(&error) => Err(missing(name)),
        Err(error) => Err(error.into()),
    }
}

/// The buffer's bytes from `show-buffer` output. A client that is not attached (a
/// `tmux source-file -` run) gets the bytes as they are, exactly `size` of them; a
/// control client gets each line with `\`, tabs and control bytes escaped and a
/// newline after every line, which is never exactly `size` bytes unless nothing was
/// escaped and the text ended with a newline (then it is the bytes as they are).
fn buffer_content(shown: &[u8], size: usize) -> Vec<u8> {
    if shown.len() == size {
        return shown.to_vec();
    }
    // `strvisx` with octal and C-style forms: `\\`, `\ooo`, `\t`, `\n`, ...
    let mut decoded = unescape(shown, Octal::ThreeDigits);
    // Every line gets a newline; the last one is the buffer's only if it is that long.
    if decoded.len() == size + 1 && decoded.last() == Some(&b'\n') {
        decoded.pop();
    }
    decoded
}

/// Deletes one of paneward's buffers; a missing one is `existed: false`.
///
/// # Errors
/// Another buffer's name, or tmux failing.
pub async fn delete_buffer(gate: &ChangeGate<'_>, input: DeleteBufferInput) -> Result<DeleteBufferOutput, ToolError> {
    let DeleteBufferInput { buffer_name } = input;
    let name = own_buffer(&buffer_name)?;
    let existed = delete(gate, name).await?;
    Ok(DeleteBufferOutput {
        buffer_name: buffer_string(name)?,
        existed,
    })
}

/// Deletes the buffers this process staged and still holds; called once on a clean
/// exit. Failures are logged: the server may be gone, and the exit goes on.
pub async fn delete_staged(state: &GuardState) {
    let names = state.staged_buffers.take();
    if names.is_empty() {
        return;
    }
    let context = CallContext::default();
    let gate = ChangeGate::new(state, &context);
    for name in &names {
        discard(&gate, name).await;
    }
    tracing::info!(count = names.len(), "deleted the buffers this paneward staged");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_names_are_own_names_and_never_repeat() {
        let a = new_name(None);
        let b = new_name(Some("my.label-1"));
        assert!(is_own_name(&a) && is_own_name(&b), "{a} {b}");
        assert_ne!(a[..41], b[..41]);
        assert!(b.ends_with("_my.label-1"));
    }

    #[test]
    fn other_buffer_names_are_not_own_names() {
        for name in [
            "buffer0",
            "paneward_",
            "paneward_xyz",
            "paneward_0123",
            "Paneward_0000000000000000000000000000000a",
        ] {
            assert!(!is_own_name(name), "{name}");
        }
        assert!(!is_own_name(&format!("{}_bad label", new_name(None))));
    }

    #[test]
    fn a_paste_that_could_run_a_line_without_enter_is_refused() {
        for text in ["echo x \u{1b}[201~; touch CANARY\r", "a\u{9b}201~b", "\u{1b}[31mred"] {
            let error = checked_paste(text, true, false).unwrap_err().to_string();
            assert!(error.contains("/text") && error.contains("ESC"), "{error}");
        }
        assert!(checked_paste("line one\nline two\r", true, false).is_ok());
        assert!(checked_paste("one\ntwo", false, false).is_err());
        assert!(checked_paste("one\ntwo", false, true).is_ok());
        assert!(checked_paste("plain", false, false).is_ok());
    }

    #[test]
    fn slices_keep_characters_whole_and_rejoin_to_the_text() {
        let text = "é".repeat(SET_BUFFER_SLICE_BYTES);
        let parts = slices(&text);
        assert!(parts.len() > 1 && parts.iter().all(|p| p.len() <= SET_BUFFER_SLICE_BYTES));
        assert_eq!(parts.concat(), text);
    }

    #[test]
    fn a_control_clients_escaped_lines_decode_to_the_bytes() {
        // As tmux 3.3a prints `é\x<TAB>y<0x01>z<LF><LF>end` to a control client.
        let shown = b"\xc3\xa9\\\\x\\ty\\001z\n\nend\n";
        assert_eq!(buffer_content(shown, 13), b"\xc3\xa9\\x\ty\x01z\n\nend");
        // Raw output is exactly the size.
        assert_eq!(buffer_content(b"a\\tb", 4), b"a\\tb");
    }
}
