//! Every safety rule in one place. Handlers reach tmux only through the gate of their
//! tool's tier ([`gate`]); typing into a pane passes the cohort check ([`cohort`]);
//! ending anything passes the caller check of [`end`]. [`caller`] knows which pane
//! paneward itself runs in.

pub mod caller;
pub mod cohort;
pub mod end;
pub mod gate;

pub use gate::{Backend, ChangeCommand, ChangeGate, ChangeVerb, EndGate, ReadGate};
