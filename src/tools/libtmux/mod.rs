//! The libtmux family's contract (`--profile libtmux`, `schemas/profiles/libtmux`,
//! imported from `tmux-mcp` 0.1.2 itself): one module per capability, like paneward's own
//! handlers. Each handler takes the profile's generated input, checks the family's ids
//! ([`target`]), calls paneward's own handler or gate, so every safety rule holds, and
//! answers with the family's views ([`views`]) in the profile's generated output.

pub mod batch;
pub mod input;
pub mod observe;
pub mod run;
pub mod settings;
pub mod target;
pub mod views;
pub mod wait;
pub mod workspace;
