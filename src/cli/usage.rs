//! The error of a command line or environment that cannot start the server: raised
//! while the flags are read ([`super::parse`], [`super::flags`]) and while they are
//! resolved into a configuration ([`super::args`]). A leaf, so those can share it.

use std::fmt;

/// A command line or environment that cannot start the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}
