//! Tests of `tools::batch`: batches of calls, and the Python profile.

mod python;
mod read;
mod write;
