//! paneward's code generator: tool contracts in `schemas/tools/*.json` in, Rust out.
//!
//! Three stages, in order: [`load`] checks every file (each problem named by file and
//! JSON pointer; it lives in `paneward-contract` with [`shape`], because `paneward
//! conform` applies the same checks), [`naming`] gives every inline schema a unique Rust
//! name (one name for each shared shape of [`shapes`]), and [`generate`] hands titled copies to typify and emits the tool table, the
//! handler trait and the dispatch function. The advertised schemas are embedded untouched.
//!
//! For maintainers keeping up with upstream: [`source`] reads contracts from pages,
//! JSON and running servers, [`import`] writes them as tool files in the [`canonical`]
//! format, and [`diff`] says what changed and whether it breaks clients.

pub mod canonical;
pub mod case;
pub mod cli;
pub mod diff;
pub mod facts;
pub mod generate;
pub mod import;
pub mod naming;
pub mod shapes;
pub mod source;
pub mod targeting;

use std::path::Path;

pub use paneward_contract::{load, shape, surface, Tier, ToolFile};

/// Every error of the code generator names a file and a JSON pointer, as the loader's do.
pub mod error {
    pub use paneward_contract::ContractError as CodegenError;
}

pub use error::CodegenError;

/// Loads `dir` (a `schemas/tools` folder) and the shapes folder beside it
/// ([`shapes::beside`]), and returns the generated Rust source.
///
/// # Errors
/// The first problem with a schema or shape file, or a type-name clash.
pub fn generate_from_dir(dir: &Path) -> Result<String, CodegenError> {
    generate_from_dirs(dir, shapes::beside(dir).as_deref())
}

/// Loads the tool files of `tools` and the shape files of `shapes` (none if `None`)
/// and returns the generated Rust source.
///
/// # Errors
/// The first problem with a schema or shape file, or a type-name clash.
pub fn generate_from_dirs(tools: &Path, shapes: Option<&Path>) -> Result<String, CodegenError> {
    let files = load::load_dir(tools)?;
    if files.is_empty() {
        return Err(CodegenError::new(tools, "", "no tool files (*.json) found"));
    }
    let shapes = match shapes {
        Some(dir) => shapes::load_dir(dir)?,
        None => Vec::new(),
    };
    generate::generate(&files, &shapes)
}

/// The shapes beside `tools` ([`shapes::beside`]), or none.
///
/// # Errors
/// A shape file fails its checks.
pub fn shapes_beside(tools: &Path) -> Result<Vec<shapes::Shape>, CodegenError> {
    match shapes::beside(tools) {
        Some(dir) => shapes::load_dir(&dir),
        None => Ok(Vec::new()),
    }
}
