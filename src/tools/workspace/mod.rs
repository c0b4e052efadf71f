//! Shaping what an agent works in: creating, renaming, arranging, moving and ending
//! sessions, windows and panes.

pub mod arrange;
pub mod create;
pub mod end;
pub mod grant;
pub mod layout;
pub mod moves;
pub mod readback;
pub mod relative;
pub mod rename;
pub mod scrollback;
