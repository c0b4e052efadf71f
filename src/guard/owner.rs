//! Ownership: every session, window and pane paneward creates carries a tmux user
//! option saying so, set in the same command list that creates it. `--scope owned`
//! limits changes to marked objects; the inspect tools report the mark.
//!
//! One option name per level, because tmux resolves a user option through the parents
//! of the object asked (pane, then its window, then the global window options): a pane
//! a person split inside a window paneward made must not read as paneward's. Each name
//! is set only at its own level, so a lookup of it finds nothing inherited.

/// The kinds of object paneward can own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owned {
    Session,
    Window,
    Pane,
}

impl Owned {
    /// The user option that marks an object of this kind as paneward's; its value is `1`.
    pub fn option(self) -> &'static str {
        match self {
            Self::Session => "@paneward_owned_session",
            Self::Window => "@paneward_owned_window",
            Self::Pane => "@paneward_owned_pane",
        }
    }

    /// The `set-option` flag that sets an option at this object's level (`-t` follows).
    pub fn level_flag(self) -> Option<&'static str> {
        match self {
            Self::Session => None,
            Self::Window => Some("-w"),
            Self::Pane => Some("-p"),
        }
    }
}

/// The value of a mark.
pub const OWNED_VALUE: &str = "1";
