//! Tests of `tools::wait`: waiting for text and channels.

mod agents;
pub(crate) mod channel;
mod idle;
mod own_input;
mod text;
