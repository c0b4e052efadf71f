//! Every integration test of paneward in one binary (linking one binary instead of
//! nineteen is most of the test step's build time on two cores). One module per tool
//! group or concern; each test talks to a real tmux on a private socket it creates and
//! kills (`support::TmuxServer`), never the user's server.

mod support;

mod arrange;
mod asking;
mod audit;
mod batch;
mod buffers;
mod capture;
mod channels;
mod cli;
mod client_log;
mod cohort;
mod conform;
mod conformance;
mod contract;
mod control;
mod control_sessions;
mod copy_mode;
mod create;
mod errors;
mod gates;
mod generated;
mod handshake;
mod http;
mod import_from_server;
mod inspect_settings;
mod inspect_tree;
mod key_names;
mod layouts;
mod lifecycle;
mod moves;
mod native;
mod pipe_pane;
mod profile;
mod prompts;
mod protocol;
mod remote;
mod resources;
mod run_command;
mod scope;
mod search;
mod send_keys;
mod servers;
mod settings;
mod snapshot_pane;
mod stdio;
mod structure;
mod tiers;
mod waiting;
mod write_batch;
