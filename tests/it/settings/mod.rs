//! Tests of `tools::settings`: options, hooks and environments read and written.

mod fixed;
mod set;
mod show;
