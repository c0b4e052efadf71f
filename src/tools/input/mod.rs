//! Reaching a pane's input: typing keys, pasting staged text, copy mode.

pub mod buffers;
pub mod confirm;
pub mod copy_mode;
pub mod hand_off;
pub mod keys;
pub mod send_keys;
