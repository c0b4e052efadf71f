//! Tests of `tools::run`: commands run in panes, pipes.

mod pipe;
mod run_command;
