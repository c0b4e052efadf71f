//! paneward: a Model Context Protocol server for tmux, built schema-first.
//!
//! The contracts in `schemas/tools/*.json` are the source of truth; `build.rs` turns
//! them into [`generated`] (types, the tool table, the dispatch that calls each handler).
//! The rest is hand-written, in the order a request travels: [`mcp`] speaks MCP,
//! [`call`] is the path of a call, [`guard`] holds every safety rule and the gates
//! handlers reach tmux through, [`tools`] holds the handlers, [`tmux`] drives tmux;
//! [`runtime`] is what the generated code names, [`catalog`] the tool table; [`cli`]
//! and [`config`] start it all, and [`limits`] holds every limit. Imports only point
//! down these layers (`docs/architecture.md`, checked by `tests/it/layers.rs`).

/// The tracing target of events that also go to the MCP client's log (the why of a
/// refusal, a timeout, a reconnect): ids, kinds and reasons only, never payload. See
/// [`mcp::client_log`].
pub const CLIENT_LOG_TARGET: &str = "paneward::client";

pub mod app;
pub mod audit;
pub mod call;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod conform;
#[cfg(feature = "conformance-fault")]
pub mod fault;
pub mod guard;
pub mod limits;
pub mod mcp;
pub mod prompts;
pub mod resources;
pub mod runtime;
pub mod tmux;
pub mod tools;

/// Generated from `schemas/tools/*.json` by `build.rs`; never edit by hand. Its doc
/// comments are the schemas' descriptions, whose brackets are no intra-doc links.
#[allow(
    rustdoc::broken_intra_doc_links,
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
