//! Tests of `tools::workspace`: creating, arranging, moving and ending.

mod arrange;
mod create;
mod end;
mod layout;
mod moves;
mod scrollback;
