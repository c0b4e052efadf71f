//! Every safety rule in one place. Handlers reach tmux only through the gate of their
//! tool's tier ([`gate`]); typing into a pane passes the cohort check ([`cohort`]), made
//! in the same indivisible tmux step as the input itself (`verdict`); only `input`
//! builds the commands that type; ending anything passes the caller check of [`end`],
//! and moving panes and windows that of [`moves`]. [`caller`] knows which pane paneward
//! itself runs in; [`owner`] marks what paneward creates and [`scope`] keeps
//! `--scope owned` calls to those objects; [`expansion`] finds what a format tmux expands
//! later would run. Gates hold [`state`], the narrow state a
//! handler may reach (never the whole `App`); [`key_input`] is the checked `keys` value
//! that `input` types. [`terminal`] tells whether a pane's program waits for input,
//! the evidence a second key press needs. [`attended`] tells which panes a person's
//! terminal shows, which input must not reach unless they are paneward's.

pub mod attended;
mod backend;
pub mod caller;
pub mod channel;
pub mod cohort;
pub mod consent;
pub mod deliver;
pub mod echo_look;
pub mod end;
pub mod expansion;
pub mod gate;
mod input;
pub mod key_input;
pub mod moves;
pub mod owner;
pub mod respawn;
pub mod scope;
pub mod screen;
pub mod state;
pub mod terminal;
pub mod typed;
mod verdict;
mod zoom;

pub use backend::Backend;
pub use gate::{ChangeCommand, ChangeGate, ChangeVerb, EndGate, ReadGate, Rows};
pub use key_input::KeyInput;
pub use state::{GuardState, Settings, StagedBuffers};
