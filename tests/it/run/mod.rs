//! Tests of `tools::run`: commands run in panes, pipes.

mod own_rows;
mod pipe;
mod ready;
mod run_command;
