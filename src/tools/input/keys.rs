//! What a `keys` argument means: key names checked against tmux's grammar, or literal text.
//!
//! Without `literal`, `keys` is a list of tmux key names separated by whitespace, each
//! one key press (`C-c`, `Enter`, `Escape`, `Up`, `q`). tmux itself types a word it
//! does not know as text, so a mistyped name would arrive as garbage: names are
//! checked here first, against the grammar tmux 3.3a accepts (or a stricter subset).
//! With `literal`, the text is typed exactly, whatever it holds.

use crate::guard::KeyInput;
use crate::limits::KEYS_MAX_CHARS;
use crate::runtime::error::ToolError;

/// Key names tmux 3.3a knows besides single characters (compared ignoring case, as
/// tmux does). Mouse and `User` keys are left out: they mean nothing typed.
pub const NAMED_KEYS: [&str; 50] = [
    "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "IC", "Insert", "DC", "Delete", "Home",
    "End", "NPage", "PageDown", "PgDn", "PPage", "PageUp", "PgUp", "Tab", "BTab", "Space", "BSpace", "Enter", "Escape",
    "Up", "Down", "Left", "Right", "KP/", "KP*", "KP-", "KP+", "KP.", "KPEnter", "KP0", "KP1", "KP2", "KP3", "KP4",
    "KP5", "KP6", "KP7", "KP8", "KP9",
];

/// ASCII characters that tmux 3.3a accepts after `C-` (control letters and the
/// codes next to them); it accepts a few more, which paneward refuses as unusual.
const CONTROL_PUNCTUATION: &str = "@[\\]^_?";

impl KeyInput {
    /// Reads `keys` as the caller meant it; `field` is its JSON pointer.
    ///
    /// # Errors
    /// More than [`KEYS_MAX_CHARS`] characters, a word that is not a tmux key name
    /// (named by position, never quoted: it may be a secret), a NUL in literal text
    /// (likewise named by position), or nothing to send.
    pub fn parse(field: &str, keys: &str, literal: bool, enter: bool) -> Result<Self, ToolError> {
        let length = keys.chars().count();
        if length > KEYS_MAX_CHARS {
            return Err(ToolError::invalid_argument(
                field,
                format!("must be at most {KEYS_MAX_CHARS} characters long; got {length}"),
            ));
        }
        let input = if literal {
            // tmux takes each argument as a C string: a NUL ends it, and what follows
            // would be dropped while the reply said it was typed. Every other character
            // arrives whole (checked against tmux 3.3a in UTF-8, C and POSIX locales).
            if let Some(position) = keys.chars().position(|c| c == '\0') {
                return Err(ToolError::invalid_argument(
                    field,
                    format!(
                        "character {} is a NUL (U+0000), which tmux cannot type: it would cut the text there; \
                         nothing was typed",
                        position + 1
                    ),
                ));
            }
            Self::Literal(keys.to_string())
        } else {
            let names: Vec<String> = keys.split_ascii_whitespace().map(str::to_string).collect();
            if let Some(position) = names.iter().position(|name| !is_key_name(name)) {
                return Err(ToolError::invalid_argument(
                    field,
                    format!(
                        "word {} is not a tmux key name. Without literal, keys is a list of tmux key names \
                         separated by spaces, each one key press: C-c, Enter, Escape, Up, F5, Space, or a single \
                         character (modifiers C-, M-, S-); to type text as it is, pass literal: true",
                        position + 1
                    ),
                ));
            }
            Self::Names(names)
        };
        if input.is_empty() && !enter {
            return Err(ToolError::invalid_argument(
                field,
                "is empty and enter is false: there is nothing to send",
            ));
        }
        Ok(input)
    }

    fn is_empty(&self) -> bool {
        match self {
            Self::Literal(text) => text.is_empty(),
            Self::Names(names) => names.is_empty(),
        }
    }
}

/// Whether tmux 3.3a reads `word` as one key: optional modifiers (`C-`, `M-`, `S-` in
/// either case, or a leading `^` for control), then a key name or one character.
pub fn is_key_name(word: &str) -> bool {
    let (mut control, mut rest) = match word.strip_prefix('^') {
        Some(rest) if !rest.is_empty() => (true, rest),
        _ => (false, word),
    };
    while let [first, b'-', ..] = rest.as_bytes() {
        match first.to_ascii_uppercase() {
            b'C' => control = true,
            b'M' | b'S' => {}
            _ => return false,
        }
        rest = &rest[2..];
    }
    let mut chars = rest.chars();
    match (chars.next(), chars.next()) {
        (None, _) => false,
        (Some(key), None) => is_single_key(key, control),
        (Some(_), Some(_)) => NAMED_KEYS.iter().any(|name| name.eq_ignore_ascii_case(rest)),
    }
}

fn is_single_key(key: char, control: bool) -> bool {
    if key.is_control() || key == ' ' {
        return false;
    }
    if !control || !key.is_ascii() {
        return true;
    }
    key.is_ascii_alphabetic() || CONTROL_PUNCTUATION.contains(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_names_follow_tmuxs_grammar() {
        for word in [
            "C-c", "c-c", "Enter", "enter", "Escape", "Up", "q", "Q", "-", ";", "é", "😀", "C-é", "M-S-Up", "s-m-c-x",
            "^c", "^", "M--", "C-@", "C-?", "C-[", "F12", "KPEnter", "kp.", "BSpace", "C-Space",
        ] {
            assert!(is_key_name(word), "{word:?} should be a key name");
        }
        for word in [
            "",
            "ls",
            "C-",
            "x-y",
            "--",
            "F13",
            "F0",
            "None",
            "Any",
            "0x41",
            "C-{",
            "C-1",
            "MouseDown1Pane",
            "User0",
            "\u{7f}",
            "\u{85}",
            "Enter;",
            "hunter2",
        ] {
            assert!(!is_key_name(word), "{word:?} should not be a key name");
        }
    }

    #[test]
    fn names_are_split_on_whitespace_and_a_bad_one_is_named_by_position_only() {
        let input = KeyInput::parse("/keys", " C-c\tEnter\n q ", false, true).unwrap();
        assert_eq!(input, KeyInput::Names(vec!["C-c".into(), "Enter".into(), "q".into()]));
        let error = KeyInput::parse("/operations/2/keys", "Up hunter2 Enter", false, true)
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("invalid arguments: /operations/2/keys: word 2 is not a tmux key name"),
            "{error}"
        );
        assert!(error.contains("literal: true") && !error.contains("hunter2"), "{error}");
    }

    #[test]
    fn literal_text_is_kept_exactly_and_bounded() {
        let text = " -x ;\t$HOME #{pane_id} ";
        assert_eq!(
            KeyInput::parse("/keys", text, true, false).unwrap(),
            KeyInput::Literal(text.into())
        );
        assert!(KeyInput::parse("/keys", &"😀".repeat(KEYS_MAX_CHARS), true, true).is_ok());
        let error = KeyInput::parse("/keys", &"x".repeat(KEYS_MAX_CHARS + 1), true, true)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("/keys") && error.contains("at most 4000 characters"),
            "{error}"
        );
    }

    #[test]
    fn nothing_to_send_is_an_error_but_enter_alone_is_fine() {
        assert!(KeyInput::parse("/keys", "", false, false).is_err());
        assert!(KeyInput::parse("/keys", "", true, false).is_err());
        assert_eq!(
            KeyInput::parse("/keys", "  ", false, true).unwrap(),
            KeyInput::Names(Vec::new())
        );
    }

    #[test]
    fn a_nul_in_literal_text_is_refused_by_position_without_echoing_the_text() {
        let error = KeyInput::parse("/operations/1/keys", "sécret\0byte", true, true)
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("invalid arguments: /operations/1/keys: character 7 is a NUL"),
            "{error}"
        );
        assert!(!error.contains("cret") && !error.contains("byte"), "{error}");
    }
}
