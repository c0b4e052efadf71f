//! Errors of the code generator: each names the schema file and a JSON pointer into it,
//! because a maintainer fixing a contract needs to know exactly where to look.

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem with one tool file, or with the set of tool files as a whole.
#[derive(Debug)]
pub struct CodegenError {
    /// The file the problem is in (or the folder, for problems across files).
    pub file: PathBuf,
    /// A JSON pointer into that file; empty for the whole document.
    pub pointer: String,
    /// What is wrong, and where it matters what to do about it.
    pub message: String,
}

impl CodegenError {
    pub fn new(file: &Path, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            file: file.to_path_buf(),
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for CodegenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(f, "{} at {}: {}", self.file.display(), self.pointer, self.message)
        }
    }
}

impl std::error::Error for CodegenError {}

/// Escapes one token of a JSON pointer (RFC 6901).
pub fn pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
