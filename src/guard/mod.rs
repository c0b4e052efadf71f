//! Every safety rule in one place: who the caller is, and the cohort check every input
//! to a pane passes, made in the same indivisible tmux step as the input itself.

pub mod caller;
pub mod cohort;
mod gate;
mod input;
