//! Where a pane's screen stood around an input: what a handler read before typing (the
//! input goes in only if tmux still sees it), and where each reached pane's cursor was.
//! Read by the cohort check, its tmux verdict and the echo look alike.

use crate::tmux::PaneId;

/// Where the target's cursor and history stood when a handler read its screen; input
/// given with it goes in only if tmux still sees exactly this at the moment of typing,
/// in the same indivisible step (a person's keystroke or new output moves one of them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScreenAt {
    pub cursor_x: u64,
    pub cursor_y: u64,
    pub history_size: u64,
}

/// A pane an input reached, where its cursor stood just before, and its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reached {
    pub pane: PaneId,
    pub at: ScreenAt,
    pub width: u64,
}
