//! Tests of The advertised contract, its generated code, and conformance with real clients.

mod advertised;
mod conform;
mod conformance;
mod generated;
mod import_from_server;
