//! tmux object ids: `%3` (pane), `@2` (window), `$1` (session).
//!
//! Callers may only name panes, windows and sessions by id. A tmux *target* string
//! accepts far more (`session:window.pane`, `{last}`, `=name`, `~` marks), so anything
//! else a caller sends is refused before it reaches tmux.

use std::fmt;
use std::str::FromStr;

/// Which kind of object an id names, with its sigil.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdKind {
    Pane,
    Window,
    Session,
}

impl IdKind {
    pub fn sigil(self) -> char {
        match self {
            Self::Pane => '%',
            Self::Window => '@',
            Self::Session => '$',
        }
    }

    pub fn noun(self) -> &'static str {
        match self {
            Self::Pane => "pane",
            Self::Window => "window",
            Self::Session => "session",
        }
    }
}

/// An id that did not parse. It keeps what was expected, never the rejected text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdParseError {
    pub kind: IdKind,
}

impl fmt::Display for IdParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sigil = self.kind.sigil();
        write!(
            f,
            "must be a {} id: `{sigil}` followed by digits, such as {sigil}1 (match ^{sigil}\\d+$)",
            self.kind.noun()
        )
    }
}

impl std::error::Error for IdParseError {}

fn parse_id(text: &str, kind: IdKind) -> Result<u32, IdParseError> {
    let digits = text.strip_prefix(kind.sigil()).ok_or(IdParseError { kind })?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(IdParseError { kind });
    }
    digits.parse().map_err(|_| IdParseError { kind })
}

macro_rules! tmux_id {
    ($name:ident, $kind:expr, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl FromStr for $name {
            type Err = IdParseError;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                parse_id(text, $kind).map(Self)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $kind.sigil(), self.0)
            }
        }
    };
}

tmux_id!(PaneId, IdKind::Pane, "A pane id such as `%3`.");
tmux_id!(WindowId, IdKind::Window, "A window id such as `@2`.");
tmux_id!(SessionId, IdKind::Session, "A session id such as `$1`.");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_their_text() {
        assert_eq!("%12".parse::<PaneId>().unwrap().to_string(), "%12");
        assert_eq!("@0".parse::<WindowId>().unwrap(), WindowId(0));
        assert_eq!("$7".parse::<SessionId>().unwrap().to_string(), "$7");
    }

    #[test]
    fn target_syntax_and_other_sigils_are_not_ids() {
        for text in [
            "",
            "%",
            "%-1",
            "% 1",
            "%1 ",
            "main:0.1",
            "@1",
            "{last}",
            "%1;kill-server",
            "%１",
        ] {
            assert!(text.parse::<PaneId>().is_err(), "{text:?} parsed as a pane id");
        }
        assert!("%99999999999".parse::<PaneId>().is_err());
    }

    #[test]
    fn the_error_names_the_expected_form_not_the_input() {
        let error = "secret-text".parse::<PaneId>().unwrap_err().to_string();
        assert!(error.contains("^%\\d+$"), "{error}");
        assert!(!error.contains("secret"), "{error}");
    }
}
