//! Tests of `tmux`: the ways paneward reaches tmux.

mod control;
mod control_sessions;
mod hidden;
mod mid_call_end;
mod native;
mod remote;
