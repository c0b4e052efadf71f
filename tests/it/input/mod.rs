//! Tests of `tools::input`: keys, pasted text, copy mode.

mod buffers;
mod copy_mode;
mod hand_off;
mod keys;
mod send_keys;
mod submit;
