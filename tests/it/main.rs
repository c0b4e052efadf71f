//! Every integration test of paneward in one binary (linking one binary instead of
//! nineteen is most of the test step's build time on two cores). One folder per tool
//! group (as in `src/tools`) or layer; each test talks to a real tmux on a private socket it creates and
//! kills (`support::TmuxServer`), never the user's server.

mod support;

mod batch;
mod call;
mod cli;
mod contract;
mod docs;
mod fleet;
mod guard;
mod input;
mod layers;
mod libtmux;
mod mcp;
mod observe;
mod python;
mod run;
mod settings;
mod structure;
mod tmux;
mod wait;
mod workspace;
