//! The MCP layer: paneward's rmcp server handler, the protocol layer in front of it,
//! and the two transports (stdio, Streamable HTTP) that pass through that layer.

pub mod ask;
pub mod client_log;
pub mod flight;
pub mod http;
pub mod protocol;
pub mod server;
pub mod skills;
pub mod stdio;
pub mod tasks;
