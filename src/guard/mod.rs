//! Every safety rule in one place. Handlers reach tmux only through the gate of their
//! tool's tier ([`gate`]); typing into a pane passes the cohort check ([`cohort`]), made
//! in the same indivisible tmux step as the input itself (`verdict`); only `input`
//! builds the commands that type; ending anything passes the caller check of [`end`],
//! and moving panes and windows that of [`moves`]. [`caller`] knows which pane paneward
//! itself runs in; [`owner`] marks what paneward creates and [`scope`] keeps
//! `--scope owned` calls to those objects. Gates hold [`state`], the narrow state a
//! handler may reach (never the whole `App`); [`key_input`] is the checked `keys` value
//! that `input` types.

pub mod caller;
pub mod channel;
pub mod cohort;
pub mod consent;
pub mod end;
pub mod gate;
mod input;
pub mod key_input;
pub mod moves;
pub mod owner;
pub mod scope;
pub mod state;
pub mod typed;
mod verdict;
mod zoom;

pub use gate::{Backend, ChangeCommand, ChangeGate, ChangeVerb, EndGate, ReadGate, Rows};
pub use key_input::KeyInput;
pub use state::{GuardState, Settings, StagedBuffers};
