//! paneward: a Model Context Protocol server for tmux, built schema-first.
//!
//! The contracts in `schemas/tools/*.json` are the source of truth; `build.rs` turns
//! them into [`generated`] (types, the tool table, the handler trait, dispatch). The
//! rest is hand-written: [`server`] speaks MCP, [`request`] is the path of a call,
//! [`tools`] holds the handlers, [`tmux`] drives tmux.

pub mod app;
pub mod audit;
pub mod call;
pub mod cli;
pub mod config;
pub mod conform;
#[cfg(feature = "conformance-fault")]
pub mod fault;
pub mod guard;
pub mod limits;
pub mod mcp;
pub mod tmux;
pub mod tools;

/// Generated from `schemas/tools/*.json` by `build.rs`; never edit by hand.
#[allow(
    clippy::all,
    clippy::pedantic,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    missing_docs
)]
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/tools.rs"));
}
