//! The hand-written tool handlers, one folder per capability: `observe`, `settings`,
//! `input`, `workspace`, `run`, `wait`, `batch` (`args` holds the argument rules they
//! share). Each tool's file names its module, group first (`"handler": "observe::tree"`);
//! the generated dispatch calls `<handler>::<tool>` directly, handing it the gate of the
//! tool's tier. Nothing here lists or forwards tools.

pub mod agents;
pub mod args;
pub mod batch;
pub mod budget;
pub mod input;
pub mod libtmux;
pub mod observe;
pub mod python;
pub mod run;
pub mod settings;
pub mod shells;
pub mod wait;
pub mod workspace;
