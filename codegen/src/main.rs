//! `paneward-codegen`: the maintainer's command line for the contracts in `schemas/`
//! (the logic is in [`paneward_codegen::cli`]).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let status = paneward_codegen::cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr());
    ExitCode::from(status)
}
