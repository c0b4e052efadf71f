//! Errors about tool files: each names the file and a JSON pointer into it, because a
//! maintainer fixing a contract needs to know exactly where to look.

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem with one tool file, or with a set of tool files as a whole.
#[derive(Debug)]
pub struct ContractError {
    /// The file the problem is in (or the folder, for problems across files; or a
    /// label such as a server command, for contracts read from elsewhere).
    pub file: PathBuf,
    /// A JSON pointer into that file; empty for the whole document.
    pub pointer: String,
    /// What is wrong, and where it matters what to do about it.
    pub message: String,
}

impl ContractError {
    pub fn new(file: &Path, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            file: file.to_path_buf(),
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(f, "{} at {}: {}", self.file.display(), self.pointer, self.message)
        }
    }
}

impl std::error::Error for ContractError {}
