//! The persistent tmux control-mode connection: one `tmux -C` client (`connection`),
//! the framing of its replies ([`protocol`], cut by [`reply`]) and of round trips that
//! end together (`shared`), and where it may attach ([`policy`]).
//! Which transport a round trip takes is chosen in [`super::transport`].

pub(super) mod connection;
mod lines;
pub mod policy;
pub mod protocol;
pub mod reply;
mod shared;
