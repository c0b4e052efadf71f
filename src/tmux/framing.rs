//! How the outputs of one round trip's commands are told apart.
//!
//! By default a separator command goes between each two commands ([`Framing::Separated`]):
//! any output splits exactly, but tmux runs twice the commands, each with its parsing
//! and its format of the target. A caller that knows how many lines each command prints
//! (a screen capture prints one line per row) can send the commands bare
//! ([`Framing::Lines`]) and have the output cut by those counts. A count that does not
//! fit is a protocol error, never a guess: the caller checks what it assumed (a listing
//! sent in the same round trip, which tmux runs without a pause) and falls back.

use super::command::{summarize, Command};
use super::error::{classify, TmuxError};
use super::script::{command_line, separated_chain};

/// How the outputs of a round trip's commands are told apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Framing {
    /// A `display-message -p <separator>` between each two commands.
    Separated,
    /// Nothing between the commands; command `i` prints exactly `lines[i]` lines.
    Lines(Vec<usize>),
}

impl Framing {
    /// The commands as one line, with `separator` between them if separated.
    pub fn chain(&self, commands: &[Command], separator: &str) -> String {
        match self {
            Self::Separated => separated_chain(commands, separator),
            Self::Lines(_) => command_line(commands),
        }
    }

    /// Whether a separator command goes between each two commands.
    pub fn separated(&self) -> bool {
        matches!(self, Self::Separated)
    }

    /// A one-shot client's whole output cut into `count` outputs; `None` if it does not
    /// cut so.
    pub fn split(&self, stdout: &[u8], separator: &str, count: usize) -> Option<Vec<Vec<u8>>> {
        match self {
            Self::Separated => split_outputs(stdout, separator, count),
            Self::Lines(lines) if lines.len() == count => split_lines(stdout, lines),
            Self::Lines(_) => None,
        }
    }
}

/// A one-shot client's answer before it is cut into outputs: whether tmux ran every
/// command, and what it printed (to standard output, the outputs and separators of the
/// commands that ran; to standard error, why one failed).
#[derive(Debug)]
pub struct Answer {
    pub success: bool,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Answer {
    /// The outputs of `commands`, cut as `framing` says with `separator`; or tmux's error,
    /// naming `commands` and the server `label`.
    ///
    /// # Errors
    /// tmux's error, or a [`TmuxError::Protocol`] when the output does not cut so.
    pub fn outputs(
        self,
        framing: &Framing,
        separator: &str,
        commands: &[Command],
        label: &str,
    ) -> Result<Vec<Vec<u8>>, TmuxError> {
        if !self.success {
            return Err(classify(
                &summarize(commands),
                label,
                &String::from_utf8_lossy(&self.stderr),
            ));
        }
        framing
            .split(&self.stdout, separator, commands.len())
            .ok_or_else(|| TmuxError::Protocol {
                command: summarize(commands),
                detail: "the output did not split into one part per command".into(),
            })
    }
}

/// `stdout` cut into parts of `lines[i]` newline-ended lines each; `None` unless that
/// uses all of it exactly.
pub fn split_lines(stdout: &[u8], lines: &[usize]) -> Option<Vec<Vec<u8>>> {
    let mut parts = Vec::with_capacity(lines.len());
    let mut rest = stdout;
    for &count in lines {
        let mut end = 0;
        for _ in 0..count {
            end += rest[end..].iter().position(|&b| b == b'\n')? + 1;
        }
        let (part, tail) = rest.split_at(end);
        parts.push(part.to_vec());
        rest = tail;
    }
    rest.is_empty().then_some(parts)
}

/// Splits combined output on lines equal to `marker`; `None` unless there are `count` parts.
fn split_outputs(stdout: &[u8], marker: &str, count: usize) -> Option<Vec<Vec<u8>>> {
    let parts = split_on_marker(stdout, marker, count);
    (parts.len() == count).then_some(parts)
}

/// Combined output cut on lines equal to `marker`, however many parts that makes
/// (`expected` only sizes the list): one more than the marker lines.
pub fn split_on_marker(stdout: &[u8], marker: &str, expected: usize) -> Vec<Vec<u8>> {
    let mut parts = Vec::with_capacity(expected);
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
    parts
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
    fn output_is_cut_by_line_counts_and_must_fit_them_exactly() {
        let out = b"a\nb\n\nc\n";
        assert_eq!(
            split_lines(out, &[2, 0, 2]).unwrap(),
            vec![b"a\nb\n".to_vec(), Vec::new(), b"\nc\n".to_vec()]
        );
        assert!(split_lines(out, &[2, 1]).is_none(), "a line left over");
        assert!(split_lines(out, &[2, 3]).is_none(), "a line missing");
        assert!(split_lines(b"a\nb", &[2]).is_none(), "an unended line");
    }

    #[test]
    fn bare_commands_are_chained_without_a_separator() {
        let commands = [Command::new("capture-pane"), Command::new("capture-pane")];
        assert_eq!(
            Framing::Lines(vec![1, 1]).chain(&commands, "SEP"),
            "capture-pane ; capture-pane"
        );
        assert!(Framing::Separated.chain(&commands, "SEP").contains("SEP"));
    }
}
