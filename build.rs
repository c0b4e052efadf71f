//! Generates the tool types, table and dispatch from `schemas/tools`, with one type per
//! shared shape of `schemas/shapes`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Cargo rescans the folder for changes; without this any edit in the package reruns us.
    println!("cargo:rerun-if-changed=schemas");
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    if let Err(error) = check_declared(&manifest_dir.join("schemas")) {
        eprintln!("error: paneward-codegen: {error}");
        return ExitCode::FAILURE;
    }
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
    let source = match profile_contracts(&manifest_dir.join("schemas/profiles")) {
        Ok(profiles) => source + &profiles,
        Err(error) => {
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
    if let Err(error) = write_prompt_list(&manifest_dir.join("schemas/prompts"), &out_dir.join("prompts.rs")) {
        eprintln!("error: paneward build: schemas/prompts: {error}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// Every served tool file (`schemas/tools` and each profile) declares its toolset and
/// class, paneward's own carry the annotations the rule gives, and at most three load on
/// every turn (as `paneward-codegen check` checks).
fn check_declared(schemas: &std::path::Path) -> Result<(), paneward_codegen::CodegenError> {
    let mut folders = vec![schemas.join("tools")];
    let profiles = schemas.join("profiles");
    let entries = std::fs::read_dir(&profiles)
        .map_err(|e| paneward_codegen::CodegenError::new(&profiles, "", format!("cannot list: {e}")))?;
    folders.extend(
        entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.is_dir()),
    );
    for folder in folders {
        paneward_codegen::surface::check_served(&paneward_codegen::load::load_dir(&folder)?)?;
    }
    Ok(())
}

/// The contract of every profile folder of `profiles` (a module of its name: types,
/// table and dispatch), in name order.
fn profile_contracts(profiles: &std::path::Path) -> Result<String, paneward_codegen::CodegenError> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(profiles)
        .map_err(|e| paneward_codegen::CodegenError::new(profiles, "", format!("cannot list: {e}")))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_dir())
        .collect();
    folders.sort();
    let mut source = String::new();
    for folder in folders {
        let tools = paneward_codegen::load::load_dir(&folder)?;
        source.push_str(&paneward_codegen::generate::generate_folder(&folder, tools)?);
    }
    Ok(source)
}

/// Compiles in every prompt file of `folder` (checked when paneward loads them, and by
/// its tests): `PROMPT_FILES`, pairs of file name and text, in name order.
fn write_prompt_list(folder: &std::path::Path, target: &std::path::Path) -> std::io::Result<()> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    let mut source = String::from(
        "/// The prompt files of `schemas/prompts`, compiled in.\npub const PROMPT_FILES: &[(&str, &str)] = &[\n",
    );
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        source.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    source.push_str("];\n");
    std::fs::write(target, source)
}
