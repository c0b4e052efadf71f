//! Tests of `tools::observe`: the tree, the server, pane text.

mod activity;
mod brief;
mod capture;
mod filters;
mod history;
mod search;
mod servers;
mod snapshot;
mod tree;
