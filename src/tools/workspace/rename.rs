//! `rename_session`, `rename_window`, `set_pane_title`: names and titles as data.
//!
//! tmux expands formats in the new name or title (`#(…)` would run a shell command,
//! `#{…}` and `#S` expand), so the text travels through [`literal`]. Each change reads
//! the value before and after in the same tmux step, so the reply says what was there
//! and what tmux stored.

use crate::generated::types::{
    RenameSessionInput, RenameSessionOutput, RenameWindowInput, RenameWindowOutput, SetPaneTitleInput,
    SetPaneTitleOutput,
};
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb};
use crate::runtime::error::ToolError;
use crate::tmux::format::{literal, parse_one, record_format};
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::args;
use crate::tools::observe::objects::echo;

/// Refuses control characters, which tmux would store escaped (or cut a title at).
///
/// # Errors
/// A C0 or C1 control character or DEL, named by `field`.
pub fn check_name(field: &str, text: &str) -> Result<(), ToolError> {
    if let Some(at) = text.chars().position(char::is_control) {
        return Err(ToolError::invalid_argument(
            field,
            format!("must not contain control characters (one at character {at})"),
        ));
    }
    Ok(())
}

/// The name tmux 3.3a stores for a session named `name` (`session_check_name`): `.`
/// and `:` become `_`, a backslash is doubled, and a `$` before a letter, `_` or `{`
/// gets a backslash. Used to refuse a duplicate before creating anything; tmux's own
/// check stays the last word.
pub fn stored_session_name(name: &str) -> String {
    let mut stored = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' | ':' => stored.push('_'),
            '\\' => stored.push_str("\\\\"),
            '$' if chars
                .peek()
                .is_some_and(|n| n.is_ascii_alphabetic() || *n == '_' || *n == '{') =>
            {
                stored.push_str("\\$");
            }
            other => stored.push(other),
        }
    }
    stored
}

/// Reads `names` of `target` as one record.
fn read(target: &str, names: &[&str]) -> ChangeCommand {
    ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-p")
        .arg("-t")
        .arg(target)
        .arg(record_format(names))
        .into()
}

/// The before and after outputs of a read, change, read list.
fn before_after(outputs: &[Vec<u8>]) -> (String, String) {
    let text =
        |index: usize| String::from_utf8_lossy(outputs.get(index).map_or(&[][..], |o| o.as_slice())).into_owned();
    (text(0), text(2))
}

const SESSION_NAME: [&str; 1] = ["session_name"];
const WINDOW_NAME: [&str; 2] = ["window_name", "automatic-rename"];
const PANE_TITLE: [&str; 1] = ["pane_title"];

/// # Errors
/// A bad id or name, a name another session has, or tmux failing.
pub async fn rename_session(
    gate: &ChangeGate<'_>,
    input: RenameSessionInput,
) -> Result<RenameSessionOutput, ToolError> {
    let RenameSessionInput { session_id, name } = input;
    let session = args::session_id("/session_id", &session_id)?;
    let name = name.to_string();
    check_name("/name", &name)?;
    let target = session.to_string();
    let rename = ChangeCommand::new(ChangeVerb::RenameSession)
        .arg("-t")
        .arg(target.as_str())
        .arg("--")
        .arg(literal(&name));
    let outputs = gate
        .change_all(&[read(&target, &SESSION_NAME), rename, read(&target, &SESSION_NAME)])
        .await
        .map_err(|error| {
            if error.to_string().contains("duplicate session") {
                ToolError::invalid_argument(
                    "/name",
                    format!(
                        "another session is named {} already (tmux turns . and : into _); nothing changed",
                        echo(&stored_session_name(&name))
                    ),
                )
            } else {
                error.into()
            }
        })?;
    let (before, after) = before_after(&outputs);
    Ok(RenameSessionOutput {
        session_id: target,
        previous_name: parse_one("display-message", &SESSION_NAME, &before)?
            .text("session_name")?
            .to_string(),
        name: parse_one("display-message", &SESSION_NAME, &after)?
            .text("session_name")?
            .to_string(),
    })
}

/// # Errors
/// A bad id or name, or tmux failing.
pub async fn rename_window(gate: &ChangeGate<'_>, input: RenameWindowInput) -> Result<RenameWindowOutput, ToolError> {
    let RenameWindowInput { window_id, name } = input;
    let window = args::window_id("/window_id", &window_id)?;
    let name = name.to_string();
    check_name("/name", &name)?;
    let target = window.to_string();
    let rename = ChangeCommand::new(ChangeVerb::RenameWindow)
        .arg("-t")
        .arg(target.as_str())
        .arg("--")
        .arg(literal(&name));
    let outputs = gate
        .change_all(&[read(&target, &WINDOW_NAME), rename, read(&target, &WINDOW_NAME)])
        .await?;
    let (before, after) = before_after(&outputs);
    let before = parse_one("display-message", &WINDOW_NAME, &before)?;
    Ok(RenameWindowOutput {
        window_id: target.clone(),
        previous_name: before.text("window_name")?.to_string(),
        previous_automatic_rename: before.flag("automatic-rename")?,
        name: parse_one("display-message", &WINDOW_NAME, &after)?
            .text("window_name")?
            .to_string(),
    })
}

/// # Errors
/// A bad id or title, or tmux failing.
pub async fn set_pane_title(gate: &ChangeGate<'_>, input: SetPaneTitleInput) -> Result<SetPaneTitleOutput, ToolError> {
    let SetPaneTitleInput { pane_id, title } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let title = title.to_string();
    check_name("/title", &title)?;
    let target = pane.to_string();
    // With -T, select-pane sets the title and returns before selecting anything.
    let set = ChangeCommand::new(ChangeVerb::SelectPane)
        .arg("-t")
        .arg(target.as_str())
        .arg("-T")
        .arg(literal(&title));
    let outputs = gate
        .change_all(&[read(&target, &PANE_TITLE), set, read(&target, &PANE_TITLE)])
        .await?;
    let (before, after) = before_after(&outputs);
    Ok(SetPaneTitleOutput {
        pane_id: target,
        previous_title: parse_one("display-message", &PANE_TITLE, &before)?
            .text("pane_title")?
            .to_string(),
        title: parse_one("display-message", &PANE_TITLE, &after)?
            .text("pane_title")?
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_names_follow_tmux_3_3a() {
        assert_eq!(stored_session_name("a.b:c"), "a_b_c");
        assert_eq!(stored_session_name("back\\slash"), "back\\\\slash");
        assert_eq!(stored_session_name("$zz"), "\\$zz");
        assert_eq!(stored_session_name("$1"), "$1");
        assert_eq!(stored_session_name("#(id)"), "#(id)");
    }

    #[test]
    fn control_characters_are_refused_and_located() {
        let error = check_name("/name", "ab\ncd").unwrap_err().to_string();
        assert!(error.contains("/name") && error.contains("character 2"), "{error}");
        assert!(check_name("/name", "é 日本 #{x}").is_ok());
        assert!(check_name("/title", "\u{85}").is_err());
    }
}
