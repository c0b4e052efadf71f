//! The MCP layer: paneward's rmcp server handler and the stdio transport in front of it.

pub mod ask;
pub mod client_log;
pub mod flight;
pub mod http;
pub mod server;
pub mod stdio;
