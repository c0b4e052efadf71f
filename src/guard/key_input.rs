//! What a checked `keys` argument means, as the input guard types it. Made only by
//! `tools::input::keys` (`KeyInput::parse`, which checks key names against tmux's
//! grammar); `guard::input` builds the commands that type it.

/// How to type one row's `keys`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyInput {
    /// Typed exactly, character by character.
    Literal(String),
    /// One key press per name.
    Names(Vec<String>),
}
