//! Tests of `tools::settings`: options, hooks and environments read and written.

mod set;
mod show;
