//! tmux settings: options, hooks and environments read (`show_*`) and written (`set`),
//! and the three options with tools of their own (`fixed`).

pub mod fixed;
pub mod set;
pub mod show_environment;
pub mod show_hooks;
pub mod show_option;
