//! Tests of `mcp`: the transports and what they serve besides tools.

mod advertised;
mod client_log;
pub(crate) mod current;
mod handshake;
mod http;
mod prompts;
mod protocol;
mod reply_text;
mod resources;
mod skills;
mod stdio;
mod tasks;
