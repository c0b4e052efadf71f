//! Every safety rule in one place: who the caller is, and the cohort check every input
//! to a pane passes.

pub mod caller;
pub mod cohort;
