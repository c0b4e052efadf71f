//! Waiting: for text in panes, for a tmux channel; and the budget every wait shares.

pub mod channel;
pub mod echo;
pub mod idle;
pub mod text;
pub mod watch;
