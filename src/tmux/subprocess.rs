//! Running commands with one `tmux` process per round trip.
//!
//! Several commands travel as one `;`-separated argument list. To hand each command
//! its own output, a `display-message -p` of a per-call random marker is placed
//! between them and the combined output is split on those marker lines; pane text
//! cannot forge a marker it never saw.
//!
//! tmux reads *any* argument that ends in `;` as the end of a command (the `;` is
//! dropped), so every argument of ours is escaped with [`escape_trailing_semicolon`]:
//! otherwise text typed into a pane could end our command and start one of its own.

use std::borrow::Cow;
use std::hash::{BuildHasher, Hasher};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::Command as Process;

use super::command::Command;
use super::error::{classify, TmuxError};
use super::ServerAddress;

/// A marker line no pane could have printed by chance or design.
fn new_marker() -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("paneward-split-{:016x}", hasher.finish())
}

/// Runs `commands` as one `tmux` process. With `clientless`, the process does not pass
/// on `TMUX_PANE`, so a command with no target sees the session tmux itself would pick
/// rather than the pane paneward runs in.
///
/// # Errors
/// As [`super::Tmux::run_all`].
pub async fn run_all(
    binary: &Path,
    address: &ServerAddress,
    commands: &[Command],
    timeout: Duration,
    clientless: bool,
) -> Result<Vec<Vec<u8>>, TmuxError> {
    let summary = commands.iter().map(Command::summary).collect::<Vec<_>>().join(" ; ");
    let marker = new_marker();
    let mut process = Process::new(binary);
    // Without a UTF-8 locale (MCP hosts pass none) tmux prints `_` for our \x1f/\x1e
    // field separators and for every non-ASCII character; -u makes it write UTF-8.
    process.arg("-u").args(address.flags());
    for (index, command) in commands.iter().enumerate() {
        if index > 0 {
            process.args([";", "display-message", "-p", marker.as_str(), ";"]);
        }
        for arg in command.argv() {
            process.arg(&*escape_trailing_semicolon(arg));
        }
    }
    if clientless {
        process.env_remove("TMUX_PANE");
    }
    process
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let child = process.spawn().map_err(|source| TmuxError::Spawn {
        binary: binary.display().to_string(),
        source,
    })?;
    let output = match tokio::time::timeout(timeout, child.wait_with_output()).await {
        Ok(Ok(output)) => output,
        Ok(Err(source)) => {
            return Err(TmuxError::Spawn {
                binary: binary.display().to_string(),
                source,
            });
        }
        Err(_) => {
            return Err(TmuxError::Timeout {
                command: summary,
                after: timeout,
            })
        }
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(classify(&summary, &address.label(), &stderr));
    }
    split_outputs(&output.stdout, &marker, commands.len()).ok_or_else(|| TmuxError::Protocol {
        command: summary,
        detail: "the output did not split into one part per command".into(),
    })
}

/// Makes tmux read `arg` as itself: an argument ending in `;` gets a `\` before that
/// `;`, which tmux turns back into the `;` instead of ending the command there.
fn escape_trailing_semicolon(arg: &str) -> Cow<'_, str> {
    match arg.strip_suffix(';') {
        Some(head) => Cow::Owned(format!("{head}\\;")),
        None => Cow::Borrowed(arg),
    }
}

/// Splits combined output on lines equal to `marker`; `None` unless there are `count` parts.
fn split_outputs(stdout: &[u8], marker: &str, count: usize) -> Option<Vec<Vec<u8>>> {
    let mut parts = Vec::with_capacity(count);
    let mut current = Vec::new();
    let mut rest = stdout;
    while !rest.is_empty() {
        let line_end = rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |i| i + 1);
        let (line, tail) = rest.split_at(line_end);
        if line.strip_suffix(b"\n").unwrap_or(line) == marker.as_bytes() {
            parts.push(std::mem::take(&mut current));
        } else {
            current.extend_from_slice(line);
        }
        rest = tail;
    }
    parts.push(current);
    (parts.len() == count).then_some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_split_on_whole_marker_lines_only() {
        let out = b"a\nxMARK\nMARK\nb\nc\nMARK\n";
        let parts = split_outputs(out, "MARK", 3).unwrap();
        assert_eq!(parts, vec![b"a\nxMARK\n".to_vec(), b"b\nc\n".to_vec(), Vec::new()]);
        assert!(split_outputs(out, "MARK", 2).is_none());
    }

    #[test]
    fn only_a_trailing_semicolon_is_escaped() {
        assert_eq!(escape_trailing_semicolon("echo a; b;"), "echo a; b\\;");
        assert_eq!(escape_trailing_semicolon(";"), "\\;");
        // tmux turns `x\\;` into `x\;`: the backslash the text had survives.
        assert_eq!(escape_trailing_semicolon("x\\;"), "x\\\\;");
        assert_eq!(escape_trailing_semicolon("a;b"), "a;b");
        assert!(matches!(escape_trailing_semicolon("%1"), Cow::Borrowed(_)));
    }

    #[test]
    fn markers_differ_between_calls() {
        assert_ne!(new_marker(), new_marker());
    }
}
