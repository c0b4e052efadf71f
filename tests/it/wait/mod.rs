//! Tests of `tools::wait`: waiting for text and channels.

mod channel;
mod idle;
mod text;
