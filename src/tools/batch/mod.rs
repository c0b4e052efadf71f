//! Batches: many calls in one reply, each row through the request path.

pub mod document;
pub mod fit;
pub mod holds;
pub mod preview;
pub mod read;
pub mod refs;
pub mod rows;
pub mod workspace;
pub mod write;
