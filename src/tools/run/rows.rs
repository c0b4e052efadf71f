//! Finding a job's output in its pane: the rows between its start and end markers.

use crate::guard::ReadGate;
use crate::runtime::error::ToolError;
use crate::tmux::{PaneId, ReadCommand, ReadVerb};
use crate::tools::observe::text::{split_rows_as_written, trim_blank_tail};

/// A job's output rows as found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub lines: Vec<String>,
    /// The end marker was found: the rows are the whole output.
    pub ended: bool,
    /// The start marker is no longer in the pane (cleared, or trimmed at
    /// `history-limit`): the rows start at the oldest one tmux still has.
    pub lines_missed: bool,
}

/// Finds the output between `start` and `end` in `rows` (joined rows, oldest first);
/// `end` is `None` while the job runs (its end marker holds the seal, told only at the
/// end). `None` when the start marker is not among them but older rows exist (`whole`
/// false).
///
/// The start marker holds the job's id, which the command can learn, so it could print
/// copies of it; the wrapper's own is the earliest, as the command runs after it. The
/// end marker only the wrapper can print.
pub fn locate(rows: &[String], start: &str, end: Option<&str>, whole: bool) -> Option<Located> {
    let end_row = end.and_then(|end| rows.iter().position(|row| row.contains(end)));
    let start_row = rows[..end_row.unwrap_or(rows.len())]
        .iter()
        .position(|row| row.contains(start));
    if start_row.is_none() && !whole {
        return None;
    }
    let from = start_row.map_or(0, |row| row + 1);
    let mut lines: Vec<String> = match (end_row, end) {
        (Some(end_row), Some(end)) => {
            let mut lines = rows[from..end_row].to_vec();
            // Output that did not end in a newline shares the end marker's row. Blanks
            // alone there are no output: a terminal in raw mode moves down without
            // returning to the start, so the marker can start mid-row.
            let last = &rows[end_row];
            let before = &last[..last.find(end).unwrap_or(0)];
            if !before.trim_end().is_empty() {
                lines.push(before.to_string());
            }
            lines
        }
        _ => {
            let mut lines = rows[from.min(rows.len())..].to_vec();
            // Below a running job's cursor: rows never written (empty in a `-J` capture).
            trim_blank_tail(&mut lines);
            lines
        }
    };
    lines.shrink_to_fit();
    Some(Located {
        lines,
        ended: end_row.is_some(),
        lines_missed: start_row.is_none(),
    })
}

/// Reads `pane`'s newest rows (wrapped rows joined) and locates the job's output,
/// reading further back, four times as far each time, until the start marker is found
/// or the whole history was read. `wanted` is how many rows to read first.
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn read_output(
    gate: &ReadGate<'_>,
    pane: PaneId,
    (start, end): (&str, Option<&str>),
    wanted: u64,
) -> Result<Located, ToolError> {
    let mut back = wanted;
    loop {
        let capture = ReadCommand::new(ReadVerb::CapturePane)
            .arg("-p")
            .arg("-J")
            .arg("-t")
            .arg(pane.to_string())
            .arg("-S")
            .arg(format!("-{back}"));
        let size = ReadCommand::new(ReadVerb::DisplayMessage)
            .arg("-t")
            .arg(pane.to_string())
            .arg("#{history_size}");
        let [text, size] = gate.run_each([capture, size]).await?;
        let size = String::from_utf8_lossy(&size);
        let history_size: u64 = size.trim().parse().unwrap_or(0);
        // The rows as the program wrote them, trailing spaces included.
        let rows = split_rows_as_written(&text);
        let whole = back >= history_size;
        if let Some(located) = locate(&rows, start, end, whole) {
            return Ok(located);
        }
        back = back.max(1).saturating_mul(4).min(history_size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &[&str]) -> Vec<String> {
        text.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn the_rows_between_the_markers_are_the_output() {
        let pane = rows(&[
            "$  eval \"$(tmux show-buffer -b x)\"",
            "PWx:",
            "one",
            "",
            "three",
            "PWs.",
            "$ ",
        ]);
        let found = locate(&pane, "PWx:", Some("PWs."), false).unwrap();
        assert_eq!(found.lines, ["one", "", "three"]);
        assert!(found.ended && !found.lines_missed);
    }

    #[test]
    fn output_without_a_final_newline_shares_the_end_row() {
        let pane = rows(&["PWx:", "a", "no newlinePWs.", "$"]);
        let found = locate(&pane, "PWx:", Some("PWs."), false).unwrap();
        assert_eq!(found.lines, ["a", "no newline"]);
        let empty = locate(&rows(&["PWx:", "PWs.", "$"]), "PWx:", Some("PWs."), false).unwrap();
        assert!(empty.lines.is_empty() && empty.ended);
        let raw = locate(&rows(&["PWx:", "abc", "   PWs.", "$"]), "PWx:", Some("PWs."), false).unwrap();
        assert_eq!(raw.lines, ["abc"]);
    }

    #[test]
    fn trailing_spaces_the_program_wrote_are_kept() {
        let pane = rows(&["PWx:", "a  ", "b ", "   ", "c  PWs.", "$ "]);
        let found = locate(&pane, "PWx:", Some("PWs."), false).unwrap();
        assert_eq!(found.lines, ["a  ", "b ", "   ", "c  "]);
    }

    #[test]
    fn a_running_job_has_the_rows_so_far() {
        let found = locate(&rows(&["PWx:", "a", "b", "", ""]), "PWx:", None, false).unwrap();
        assert_eq!(found.lines, ["a", "b"]);
        assert!(!found.ended);
    }

    #[test]
    fn a_lost_start_asks_for_more_rows_or_says_rows_were_missed() {
        let pane = rows(&["x", "y", "PWs.", "$"]);
        assert_eq!(locate(&pane, "PWx:", Some("PWs."), false), None);
        let found = locate(&pane, "PWx:", Some("PWs."), true).unwrap();
        assert_eq!(found.lines, ["x", "y"]);
        assert!(found.lines_missed && found.ended);
    }

    #[test]
    fn copies_of_the_start_marker_cut_nothing_and_only_the_seal_ends() {
        let pane = rows(&["PWx:", "one", "PWx:", "PWx.", "two", "PWs.", "$"]);
        let found = locate(&pane, "PWx:", Some("PWs."), false).unwrap();
        assert_eq!(found.lines, ["one", "PWx:", "PWx.", "two"]);
        assert!(found.ended);
    }
}
