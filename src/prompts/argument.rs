//! What a prompt argument may hold, how its value goes into the message, and what
//! completes it.

use serde::Deserialize;

use crate::limits::{PROMPT_NAME_MAX_CHARS, PROMPT_SECONDS_MAX, PROMPT_TEXT_MAX_CHARS};
use crate::tmux::PaneId;

/// The kind of a prompt argument, as its file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A pane id (`%3`); completed from the panes tmux has now.
    Pane,
    /// A name for something to create: letters, digits, `-` and `_`; completed with
    /// nothing (it names what does not exist yet).
    Name,
    /// Free text (a command line, a task); goes into the message as a JSON string.
    Text,
    /// A whole number of seconds, 1 to [`PROMPT_SECONDS_MAX`]; completed with a few
    /// usual values.
    Seconds,
}

/// Values offered for a [`Kind::Seconds`] argument.
pub const SECONDS_SUGGESTED: [&str; 5] = ["10", "30", "60", "300", "600"];

impl Kind {
    /// Checks `value` and returns the text that goes into the message.
    ///
    /// # Errors
    /// The rule `value` breaks, never repeating the value itself.
    pub fn insert(self, value: &str) -> Result<String, String> {
        match self {
            Self::Pane => value
                .parse::<PaneId>()
                .map(|pane| pane.to_string())
                .map_err(|_| "must be a pane id like %3 (list_panes shows them)".to_string()),
            Self::Name => {
                let fits = value.chars().count() <= PROMPT_NAME_MAX_CHARS
                    && value
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
                if fits {
                    Ok(value.to_string())
                } else {
                    Err(format!(
                        "must be 1 to {PROMPT_NAME_MAX_CHARS} letters, digits, - or _ (tmux rewrites . and : in session names)"
                    ))
                }
            }
            Self::Text => {
                if value.chars().count() > PROMPT_TEXT_MAX_CHARS {
                    return Err(format!("at most {PROMPT_TEXT_MAX_CHARS} characters"));
                }
                if value.contains('\0') {
                    return Err("must not hold a NUL character".into());
                }
                // A JSON string: quoted, every control character escaped, so the value
                // cannot end the sentence that introduces it or start a line of its own.
                serde_json::to_string(value).map_err(|e| e.to_string())
            }
            Self::Seconds => match value.parse::<u64>() {
                Ok(seconds) if (1..=PROMPT_SECONDS_MAX).contains(&seconds) => Ok(seconds.to_string()),
                _ => Err(format!(
                    "must be a whole number of seconds from 1 to {PROMPT_SECONDS_MAX}"
                )),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_takes_its_values_and_refuses_others() {
        assert_eq!(Kind::Pane.insert("%12").unwrap(), "%12");
        assert!(Kind::Pane.insert("%1 ; kill-server").is_err());
        assert!(Kind::Name.insert("build_2-x").is_ok());
        assert!(Kind::Name.insert("a.b").is_err());
        assert!(Kind::Name.insert("#(touch x)").is_err());
        assert_eq!(Kind::Text.insert("a\"b\nc").unwrap(), r#""a\"b\nc""#);
        assert!(Kind::Text.insert("a\0b").is_err());
        assert_eq!(Kind::Seconds.insert("30").unwrap(), "30");
        assert!(Kind::Seconds.insert("0").is_err() && Kind::Seconds.insert("3601").is_err());
    }
}
