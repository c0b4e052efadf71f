//! Ownership: every session, window and pane paneward creates carries a tmux user
//! option saying so, set in the same command list that creates it. `--scope owned`
//! limits changes to marked objects; the inspect tools report the mark.
//!
//! One option name per level, each set only at its own level. tmux resolves a user
//! option through the parents of the object asked (a pane's lookup falls back to its
//! window, the global window options, its session, the global session options), so a
//! mark set one level up would make everything below read as paneward's. The scope
//! check therefore reads each mark at its own level only ([`OwnedMark::read_own`]), and
//! `set_option` refuses every name under [`MARK_PREFIX`], so no call can forge one.

use crate::guard::ChangeCommand;
use crate::tmux::{Command, ReadCommand, ReadVerb};

/// The kinds of object paneward can own, each with the option that marks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnedMark {
    Session,
    Window,
    Pane,
}

/// What every option name of paneward's own starts with; `set_option` sets none of them.
pub const MARK_PREFIX: &str = "@paneward_";

/// The value of a mark.
pub const OWNED_VALUE: &str = "1";

impl OwnedMark {
    /// The mark an object with id `id` (`$N`, `@N`, `%N`) would carry.
    pub fn of_id(id: &str) -> Option<Self> {
        match id.chars().next()? {
            '$' => Some(Self::Session),
            '@' => Some(Self::Window),
            '%' => Some(Self::Pane),
            _ => None,
        }
    }

    /// The user option that marks an object of this kind as paneward's.
    pub const fn option(self) -> &'static str {
        match self {
            Self::Session => "@paneward_owned_session",
            Self::Window => "@paneward_owned_window",
            Self::Pane => "@paneward_owned_pane",
        }
    }

    /// The word for an object of this kind, in messages.
    pub fn noun(self) -> &'static str {
        match self {
            Self::Session => "session",
            Self::Window => "window",
            Self::Pane => "pane",
        }
    }

    /// The `set-option`/`show-options` flag for this object's level (`-t` follows).
    pub fn level_flag(self) -> Option<&'static str> {
        match self {
            Self::Session => None,
            Self::Window => Some("-w"),
            Self::Pane => Some("-p"),
        }
    }

    /// The `set-option` that marks object `id` (`$N`, `@N`, `%N`, or a target such as
    /// `@2.1`) as paneward's at its own level, or with `revoke` takes the mark off: the
    /// one way a mark is written, by the create tools, `request_pane` and `paneward
    /// grant`/`revoke`.
    pub fn set_command(self, id: &str, revoke: bool) -> Command {
        let mut command = Command::new("set-option");
        if let Some(flag) = self.level_flag() {
            command = command.arg(flag);
        }
        if revoke {
            command.arg("-u").arg("-t").arg(id.to_string()).arg(self.option())
        } else {
            command
                .arg("-t")
                .arg(id.to_string())
                .arg(self.option())
                .arg(OWNED_VALUE)
        }
    }

    /// [`OwnedMark::set_command`] marking `id`, as a change a tool sends.
    pub fn mark(self, id: &str) -> ChangeCommand {
        ChangeCommand::guarded(self.set_command(id, false))
    }

    /// Reads the mark of object `id` at its own level alone: `show-options` without
    /// `-A` leaves inherited values out. Prints [`OWNED_VALUE`] for a marked object,
    /// nothing for an unmarked one; fails for a missing object.
    pub fn read_own(self, id: &str) -> ReadCommand {
        let mut command = ReadCommand::new(ReadVerb::ShowOptions).arg("-qv");
        if let Some(flag) = self.level_flag() {
            command = command.arg(flag);
        }
        command.arg("-t").arg(id.to_string()).arg(self.option())
    }
}

/// Whether `name` is an option only paneward itself sets.
pub fn is_paneward_option(name: &str) -> bool {
    name.starts_with(MARK_PREFIX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mark_is_a_paneward_option_of_its_own_level() {
        for mark in [OwnedMark::Session, OwnedMark::Window, OwnedMark::Pane] {
            assert!(is_paneward_option(mark.option()));
            assert!(mark.option().ends_with(mark.noun()));
        }
        assert_eq!(OwnedMark::of_id("@3"), Some(OwnedMark::Window));
        assert_eq!(
            crate::tmux::Command::from(OwnedMark::Pane.read_own("%2")).summary(),
            "show-options -qv -p -t %2 @paneward_owned_pane"
        );
    }
}
