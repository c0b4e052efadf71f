//! Every integration test of paneward-codegen in one binary, a module per concern.

mod common;

mod diff_contracts;
mod diff_rules;
mod errors;
mod escalations;
mod from_server;
mod import_errors;
mod import_seeds;
mod output;
mod pages;
mod shapes;
mod targeting;
