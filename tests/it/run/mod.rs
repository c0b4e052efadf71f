//! Tests of `tools::run`: commands run in panes, pipes.

mod pipe;
mod ready;
mod run_command;
