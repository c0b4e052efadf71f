//! Tests of `tmux`: the ways paneward reaches tmux.

mod control;
mod control_sessions;
mod native;
mod remote;
