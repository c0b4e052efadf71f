//! Tests of `tools::wait`: waiting for text and channels.

pub(crate) mod channel;
mod idle;
mod own_input;
mod text;
