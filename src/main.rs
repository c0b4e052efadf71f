//! The `paneward` binary: everything lives in the library; see `paneward --help`.

fn main() -> std::process::ExitCode {
    paneward::cli::run(std::env::args_os().skip(1))
}
