//! Rules on arguments that the upstream schemas leave open (they say `string` where
//! only a pane id makes sense, `integer` with no bounds), checked in one place so each
//! error names the field and the rule the same way.

use std::path::Path;

use crate::guard::GuardState;
use crate::limits::{TEXT_DEFAULT_LINES, TEXT_MAX_LINES};
use crate::runtime::error::ToolError;
use crate::tmux::{PaneId, SessionId, WindowId};

/// Parses a pane id argument; `field` is its JSON pointer, such as `/pane_id`.
///
/// # Errors
/// Anything but `%` and digits.
pub fn pane_id(field: &str, text: &str) -> Result<PaneId, ToolError> {
    text.parse().map_err(|e| ToolError::invalid_argument(field, e))
}

/// Parses a window id argument such as `@2`.
///
/// # Errors
/// Anything but `@` and digits.
pub fn window_id(field: &str, text: &str) -> Result<WindowId, ToolError> {
    text.parse().map_err(|e| ToolError::invalid_argument(field, e))
}

/// Parses a session id argument such as `$1`.
///
/// # Errors
/// Anything but `$` and digits.
pub fn session_id(field: &str, text: &str) -> Result<SessionId, ToolError> {
    text.parse().map_err(|e| ToolError::invalid_argument(field, e))
}

/// The number of lines to keep: [`TEXT_DEFAULT_LINES`] when absent, else 1..=ceiling.
///
/// # Errors
/// Zero, negative, or above [`TEXT_MAX_LINES`].
pub fn max_lines(field: &str, requested: Option<i64>) -> Result<usize, ToolError> {
    count(field, requested, TEXT_DEFAULT_LINES, TEXT_MAX_LINES)
}

/// A count the caller may set: `default` when absent, else 1..=`ceiling`.
///
/// # Errors
/// Zero, negative, or above `ceiling`, named by `field`.
pub fn count(field: &str, requested: Option<i64>, default: i64, ceiling: i64) -> Result<usize, ToolError> {
    let value = requested.unwrap_or(default);
    if !(1..=ceiling).contains(&value) {
        return Err(ToolError::invalid_argument(
            field,
            format!("must be between 1 and {ceiling} (default {default}); got {value}"),
        ));
    }
    usize::try_from(value).map_err(|_| ToolError::invalid_argument(field, "must be a positive integer"))
}

/// Checks a `start_directory` argument and returns it: an absolute path without
/// control characters, naming a directory that exists, because tmux resolves a relative
/// one against its own directory and silently starts a pane elsewhere when the directory
/// is missing. Where tmux runs on another host (`--ssh`) the directory is on that host,
/// so only the form is checked here.
///
/// # Errors
/// A relative path, a control character, or (locally) no directory there.
pub fn start_directory_of(state: &GuardState, directory: &str) -> Result<String, ToolError> {
    const FIELD: &str = "/start_directory";
    if directory.chars().any(char::is_control) {
        return Err(ToolError::invalid_argument(
            FIELD,
            "must not contain control characters",
        ));
    }
    let path = Path::new(directory);
    if !path.is_absolute() {
        return Err(ToolError::invalid_argument(
            FIELD,
            "must be an absolute path (tmux would resolve a relative one against its own directory)",
        ));
    }
    if state.settings.ssh_host.is_none() && !path.is_dir() {
        return Err(ToolError::invalid_argument(
            FIELD,
            format!(
                "no directory {} exists (tmux would silently start the pane elsewhere); nothing was changed",
                crate::runtime::error::echo(directory)
            ),
        ));
    }
    Ok(directory.to_string())
}

/// Whether `name` is an environment variable name: `^[A-Za-z_][A-Za-z0-9_]*$`.
pub fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_lines_has_a_default_a_floor_and_a_ceiling() {
        assert_eq!(max_lines("/max_lines", None).unwrap(), 500);
        assert_eq!(max_lines("/max_lines", Some(5_000)).unwrap(), 5_000);
        let error = max_lines("/max_lines", Some(5_001)).unwrap_err().to_string();
        assert!(
            error.contains("/max_lines") && error.contains("between 1 and 5000"),
            "{error}"
        );
        assert!(max_lines("/max_lines", Some(0)).is_err());
        assert!(max_lines("/max_lines", Some(-3)).is_err());
    }

    #[test]
    fn a_target_string_is_not_a_pane_id() {
        let error = pane_id("/pane_id", "main:0.1").unwrap_err().to_string();
        assert!(
            error.starts_with("invalid arguments: /pane_id: must be a pane id"),
            "{error}"
        );
    }
}
