//! Standard output for the commands a person runs: a reader that went away (`paneward
//! tools | head -1`) ends the output quietly. `println!` would panic there (exit 101),
//! because Rust ignores SIGPIPE and reports the closed pipe as an error.

use std::io::{ErrorKind, Write};

/// Writes `text` to standard output. A closed pipe is the reader's choice and says
/// nothing; any other failure is said once on standard error.
pub fn print(text: &str) {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => {}
        Err(error) if error.kind() == ErrorKind::BrokenPipe => {}
        Err(error) => eprintln!("paneward: cannot write to standard output: {error}"),
    }
}
