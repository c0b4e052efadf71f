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
use crate::runtime::error::echo;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::{literal, parse_one, record_format};
use crate::tmux::ReadCommand;
use crate::tools::args;
use crate::tools::workspace::readback::{display, read_change_read};

/// Refuses a session or window name that tmux 3.3a would not store as written.
/// tmux passes names through `vis` (`utf8_stravis` in `session_check_name` and
/// `window_set_name`): a backslash is doubled, a `$` before a letter, `_` or `{` gets a
/// backslash, and a character it cannot display is stored as octal escapes.
///
/// # Errors
/// Such a character, or a control character, named by `field` and its position.
pub fn check_name(field: &str, text: &str) -> Result<(), ToolError> {
    check_title(field, text)?;
    let chars: Vec<char> = text.chars().collect();
    for (at, pair) in chars.windows(2).enumerate() {
        if pair[0] == '$' && (pair[1].is_ascii_alphabetic() || pair[1] == '_' || pair[1] == '{') {
            return Err(ToolError::invalid_argument(
                field,
                format!("must not have $ before a letter, _ or {{ (at character {at}): tmux would store it as \\$"),
            ));
        }
    }
    if let Some(at) = chars.iter().position(|&c| c == '\\') {
        return Err(ToolError::invalid_argument(
            field,
            format!("must not contain a backslash (one at character {at}): tmux would store it doubled"),
        ));
    }
    Ok(())
}

/// Refuses a pane title (or name) with a control character, which tmux stores
/// escaped or cuts a title at, or a character tmux cannot display (unassigned, U+2028,
/// U+2029): tmux ignores such a title and stores such a name as octal escapes.
///
/// # Errors
/// Such a character, named by `field` and its position.
pub fn check_title(field: &str, text: &str) -> Result<(), ToolError> {
    if let Some(at) = text.chars().position(char::is_control) {
        return Err(ToolError::invalid_argument(
            field,
            format!("must not contain control characters (one at character {at})"),
        ));
    }
    if let Some(at) = text.chars().position(undisplayable) {
        return Err(ToolError::invalid_argument(
            field,
            format!(
                "must not contain characters tmux cannot display (unassigned, U+2028, U+2029; one at character {at})"
            ),
        ));
    }
    Ok(())
}

/// A character the C library gives no width (`wcwidth` -1), which tmux will not store.
fn undisplayable(c: char) -> bool {
    static PATTERN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        #[allow(clippy::unwrap_used)] // a constant pattern, checked by the unit tests
        regex::Regex::new(r"[\p{Cn}\p{Zl}\p{Zp}]").unwrap()
    });
    PATTERN.is_match(c.encode_utf8(&mut [0; 4]))
}

/// The name tmux 3.3a stores for a session named `name` once [`check_name`] accepted
/// it (`session_check_name`): `.` and `:` become `_`. Used to refuse a duplicate before
/// creating anything; tmux's own check stays the last word.
pub fn stored_session_name(name: &str) -> String {
    name.replace(['.', ':'], "_")
}

/// Checks that tmux stored `wanted` (reading it back is the last word on what tmux
/// altered).
///
/// # Errors
/// What tmux stored differs: an internal error that says both.
pub fn stored_as_written(what: &str, wanted: &str, stored: &str) -> Result<(), ToolError> {
    if wanted == stored {
        return Ok(());
    }
    Err(ToolError::new(
        ToolErrorKind::Refused,
        format!(
            "tmux did not store the {what} as written: it holds {} rather than {}",
            echo(stored),
            echo(wanted)
        ),
    ))
}

/// Reads `names` of `target` as one record.
fn read(target: &str, names: &[&str]) -> ReadCommand {
    display(target, &record_format(names))
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
    let around = read_change_read(gate, &[read(&target, &SESSION_NAME)], [rename])
        .await
        .map_err(|error| {
            if error.is_duplicate_session() {
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
    let stored = parse_one("display-message", &SESSION_NAME, around.after(0)?)?
        .text("session_name")?
        .to_string();
    stored_as_written("session name", &stored_session_name(&name), &stored)?;
    Ok(RenameSessionOutput {
        session_id: target,
        previous_name: parse_one("display-message", &SESSION_NAME, around.before(0)?)?
            .text("session_name")?
            .to_string(),
        name: stored,
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
    let around = read_change_read(gate, &[read(&target, &WINDOW_NAME)], [rename]).await?;
    let before = parse_one("display-message", &WINDOW_NAME, around.before(0)?)?;
    let stored = parse_one("display-message", &WINDOW_NAME, around.after(0)?)?
        .text("window_name")?
        .to_string();
    stored_as_written("window name", &name, &stored)?;
    Ok(RenameWindowOutput {
        window_id: target.clone(),
        previous_name: before.text("window_name")?.to_string(),
        previous_automatic_rename: before.flag("automatic-rename")?,
        name: stored,
    })
}

/// # Errors
/// A bad id or title, or tmux failing.
pub async fn set_pane_title(gate: &ChangeGate<'_>, input: SetPaneTitleInput) -> Result<SetPaneTitleOutput, ToolError> {
    let SetPaneTitleInput { pane_id, title } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let title = title.to_string();
    check_title("/title", &title)?;
    let target = pane.to_string();
    // With -T, select-pane sets the title and returns before selecting anything.
    let set = ChangeCommand::new(ChangeVerb::SelectPane)
        .arg("-t")
        .arg(target.as_str())
        .arg("-T")
        .arg(literal(&title));
    let around = read_change_read(gate, &[read(&target, &PANE_TITLE)], [set]).await?;
    let stored = parse_one("display-message", &PANE_TITLE, around.after(0)?)?
        .text("pane_title")?
        .to_string();
    // tmux ignores a title it cannot store whole, silently.
    stored_as_written("pane title", &title, &stored)?;
    Ok(SetPaneTitleOutput {
        pane_id: target,
        previous_title: parse_one("display-message", &PANE_TITLE, around.before(0)?)?
            .text("pane_title")?
            .to_string(),
        title: stored,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_names_follow_tmux_3_3a() {
        assert_eq!(stored_session_name("a.b:c"), "a_b_c");
        assert_eq!(stored_session_name("$1 #(id)"), "$1 #(id)");
    }

    #[test]
    fn names_tmux_would_alter_are_refused_and_located() {
        for (name, rule) in [
            ("a\\b", "backslash"),
            ("x$HOME", "$ before"),
            ("e${X}", "$ before"),
            ("$_a", "$ before"),
            ("p\u{2028}q", "cannot display"),
            ("u\u{378}", "cannot display"),
        ] {
            let error = check_name("/name", name).unwrap_err().to_string();
            assert!(error.contains("/name") && error.contains(rule), "{name}: {error}");
        }
        for name in ["x$", "$1", "a$ b", "h#[x", "~v", "p;q", "\u{200b}\u{e000}é😀"] {
            assert!(check_name("/name", name).is_ok(), "{name}");
        }
        assert!(check_title("/title", "a\\b x$HOME").is_ok());
        assert!(check_title("/title", "\u{2028}").is_err());
    }

    #[test]
    fn control_characters_are_refused_and_located() {
        let error = check_name("/name", "ab\ncd").unwrap_err().to_string();
        assert!(error.contains("/name") && error.contains("character 2"), "{error}");
        assert!(check_name("/name", "é 日本 #{x}").is_ok());
        assert!(check_name("/title", "\u{85}").is_err());
    }
}
