//! `paneward-codegen`: the maintainer's command line for the contracts in `schemas/`.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
paneward-codegen: check and generate paneward's tool contracts

usage:
  paneward-codegen check [DIR]      check every tool file of DIR (default schemas/tools)
  paneward-codegen generate [DIR]   print the Rust that build.rs generates from DIR
  paneward-codegen --help           this text
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = |index: usize| PathBuf::from(args.get(index).map_or("schemas/tools", String::as_str));
    match args.first().map(String::as_str) {
        Some("check") => match paneward_codegen::load::load_dir(&dir(1)) {
            Ok(tools) => {
                eprintln!("{} tool files are valid", tools.len());
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("error: {error}");
                ExitCode::FAILURE
            }
        },
        Some("generate") => match paneward_codegen::generate_from_dir(&dir(1)) {
            Ok(source) => {
                print!("{source}");
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("error: {error}");
                ExitCode::FAILURE
            }
        },
        Some("-h" | "--help") => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprint!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
