//! Generates the tool types, table and dispatch from `schemas/tools`, with one type per
//! shared shape of `schemas/shapes`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Cargo rescans the folder for changes; without this any edit in the package reruns us.
    println!("cargo:rerun-if-changed=schemas");
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let source = match paneward_codegen::generate_from_dirs(
        &manifest_dir.join("schemas/tools"),
        Some(&manifest_dir.join("schemas/shapes")),
    ) {
        Ok(source) => source,
        Err(error) => {
            // Display, not Debug: this is the message a maintainer reads in cargo's output.
            eprintln!("error: paneward-codegen: {error}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = std::fs::write(out_dir.join("tools.rs"), source) {
        eprintln!(
            "error: paneward-codegen: cannot write {}: {error}",
            out_dir.join("tools.rs").display()
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
