//! paneward's own rows: what `run_command` leaves in a pane for itself, blanked out of
//! every reading paneward returns (`capture_pane`, `snapshot_pane`, `capture_since`,
//! `search_panes`, `wait_for_text`).
//!
//! Two things are paneward's (`tools::run::script` writes them): the end and start
//! markers (`PW`, 32 hex digits, then `:` or `.`), printed concealed, so a person sees a
//! blank row where a capture would read the marker; and the echo of the one line typed
//! to fetch the wrapper (` eval "$(tmux show-buffer -b paneward_…)"`), which wraps over
//! several rows in a narrow pane. Both are blanked in place, never removed, so row
//! numbers (`search_panes`' `row`, a screen's height) stay what tmux has. The prompt
//! before the typed line stays, and so does everything a command printed.
//!
//! Pure logic: the readers call [`hide_own_rows`] on the rows they read.

/// Hex digits of a job's id or seal, as markers and the typed line hold them.
const HEX_DIGITS: usize = 32;

/// One piece of the shape of an own row.
#[derive(Debug, Clone, Copy)]
enum Piece {
    Text(&'static str),
    /// [`HEX_DIGITS`] lowercase hex digits.
    Hex,
    /// One or more decimal digits (a pane number).
    Digits,
    /// One of these characters.
    OneOf(&'static str),
}

/// The typed line, as `tools::run::script::typed_line` writes it.
const TYPED_LINE: &[Piece] = &[
    Piece::Text(" eval \"$(tmux show-buffer -b paneward_"),
    Piece::Hex,
    Piece::Text("_job \\; delete-buffer -b paneward_"),
    Piece::Hex,
    Piece::Text("_job \\; set-option -p -t %"),
    Piece::Digits,
    Piece::Text(" @paneward_run_"),
    Piece::Hex,
    Piece::Text(" 1)\""),
];

/// A start or end marker, as `tools::run::script` prints them.
const MARKER: &[Piece] = &[Piece::Text("PW"), Piece::Hex, Piece::OneOf(":.")];

/// What is paneward's: a shape, where it may begin, and what else must hold.
struct Shape {
    pieces: &'static [Piece],
    /// The text it begins with, to find candidates by.
    lead: &'static str,
    /// Nothing but blanks may follow it on its last row (a marker ends its row).
    ends_row: bool,
    /// Cut by the end of what was read, it counts once its first piece is whole (a
    /// line still being typed).
    counts_unfinished: bool,
}

const SHAPES: [Shape; 2] = [
    Shape {
        pieces: MARKER,
        lead: "PW",
        ends_row: true,
        counts_unfinished: false,
    },
    Shape {
        pieces: TYPED_LINE,
        lead: " eval \"$(tmux",
        ends_row: false,
        counts_unfinished: true,
    },
];

/// Where a walk of a shape stands: the piece, and how far into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Step {
    piece: usize,
    into: usize,
}

impl Step {
    const START: Self = Self { piece: 0, into: 0 };

    fn done(self, pieces: &[Piece]) -> bool {
        self.piece == pieces.len()
    }

    fn after_piece(self) -> Self {
        Self {
            piece: self.piece + 1,
            into: 0,
        }
    }

    /// The step after `c`, if `c` may come next.
    fn next(self, pieces: &[Piece], c: char) -> Option<Self> {
        let piece = *pieces.get(self.piece)?;
        let advance = |length: usize| {
            if self.into + 1 == length {
                self.after_piece()
            } else {
                Self {
                    piece: self.piece,
                    into: self.into + 1,
                }
            }
        };
        match piece {
            Piece::Text(text) => text[self.into..].starts_with(c).then(|| advance(text.len())),
            Piece::Hex => matches!(c, '0'..='9' | 'a'..='f').then(|| advance(HEX_DIGITS)),
            Piece::OneOf(set) => set.contains(c).then(|| self.after_piece()),
            Piece::Digits if c.is_ascii_digit() => Some(Self {
                piece: self.piece,
                into: self.into + 1,
            }),
            // The digits end where the next piece begins.
            Piece::Digits if self.into > 0 => self.after_piece().next(pieces, c),
            Piece::Digits => None,
        }
    }

    /// Whether the next character expected is a space: a row that wrapped just before
    /// it lost it to trimming.
    fn expects_space(self, pieces: &[Piece]) -> bool {
        matches!(pieces.get(self.piece), Some(Piece::Text(text)) if text[self.into..].starts_with(' '))
    }
}

/// A stretch of one row: row index, first byte, end byte.
type Span = (usize, usize, usize);

/// Whether `text` (a capture, or any of its rows) may hold one of paneward's own rows:
/// without any shape's lead in it, [`hide_own_rows`] only trims the rows' ends.
pub fn may_hold_own_rows(text: &[u8]) -> bool {
    SHAPES
        .iter()
        .any(|shape| memchr::memmem::find(text, shape.lead.as_bytes()).is_some())
}

/// Blanks paneward's own rows in `rows` (oldest first, as a capture gives them): its
/// markers and the echo of its typed line. See the module documentation.
pub fn hide_own_rows(rows: &mut [String]) {
    let mut spans: Vec<Span> = Vec::new();
    for shape in &SHAPES {
        // One searcher per shape for all the rows: most captures hold no lead at all.
        let lead = memchr::memmem::Finder::new(shape.lead);
        for first in 0..rows.len() {
            for from in lead.find_iter(rows[first].as_bytes()) {
                if let Some(found) = shape_at(rows, shape, first, from) {
                    spans.extend(found);
                }
            }
        }
    }
    // Later spans first, so the bytes of earlier ones in the same row stay put.
    spans.sort_unstable_by(|a, b| b.cmp(a));
    spans.dedup();
    for (row, from, to) in spans {
        if to <= rows[row].len() && from <= to {
            rows[row].replace_range(from..to, "");
        }
    }
    for row in rows.iter_mut() {
        let kept = row.trim_end().len();
        row.truncate(kept);
    }
}

/// The rows `shape` covers when it begins at byte `from` of row `first`.
fn shape_at(rows: &[String], shape: &Shape, first: usize, from: usize) -> Option<Vec<Span>> {
    let pieces = shape.pieces;
    let mut step = Step::START;
    let mut index = first;
    let mut start = from;
    let mut spans = Vec::new();
    loop {
        let row = &rows[index];
        let mut end = row.len();
        for (at, c) in row[start..].char_indices() {
            step = step.next(pieces, c)?;
            if step.done(pieces) {
                end = start + at + c.len_utf8();
                break;
            }
        }
        spans.push((index, start, end));
        if step.done(pieces) {
            return (!shape.ends_row || row[end..].trim().is_empty()).then_some(spans);
        }
        // The row ended inside the shape: it wrapped to the next row, or it was cut by
        // the end of what was read (a line still being typed).
        if rows[index + 1..].iter().all(|r| r.trim().is_empty()) {
            return (shape.counts_unfinished && step.piece >= 1).then_some(spans);
        }
        index += 1;
        start = 0;
        if step.expects_space(pieces) && !rows[index].starts_with(' ') {
            step = step.next(pieces, ' ')?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "0123456789abcdef0123456789abcdef";

    fn typed() -> String {
        format!(
            " eval \"$(tmux show-buffer -b paneward_{ID}_job \\; delete-buffer -b paneward_{ID}_job \\; set-option -p \
             -t %12 @paneward_run_{ID} 1)\""
        )
    }

    fn hidden(rows: &[&str]) -> Vec<String> {
        let mut rows: Vec<String> = rows.iter().map(|r| (*r).to_string()).collect();
        hide_own_rows(&mut rows);
        rows
    }

    /// `text` cut into rows of `width` characters, as tmux shows it without `-J`.
    fn wrapped(text: &str, width: usize) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        chars
            .chunks(width)
            .map(|c| c.iter().collect::<String>().trim_end().to_string())
            .collect()
    }

    #[test]
    fn markers_are_blanked_and_output_before_an_end_marker_stays() {
        let rows = hidden(&[
            &format!("PW{ID}:"),
            "hello",
            &format!("no newlinePW{ID}."),
            &format!("   PW{ID}."),
            "$",
        ]);
        assert_eq!(rows, ["", "hello", "no newline", "", "$"]);
    }

    #[test]
    fn a_marker_wrapped_over_two_rows_is_blanked_on_both() {
        let seal = format!("PW{ID}.");
        let rows = hidden(&["out-two", &seal[..20], &seal[20..], "$"]);
        assert_eq!(rows, ["out-two", "", "", "$"]);
        let rows = hidden(&[&format!("out{}", &seal[..17]), &seal[17..], "$"]);
        assert_eq!(rows, ["out", "", "$"]);
    }

    #[test]
    fn text_like_a_marker_that_is_not_one_stays() {
        let kept = [
            "PW0123:".to_string(),
            format!("PW{}:", ID.to_uppercase()),
            format!("PW{ID}: and more"),
            format!("XW{ID}."),
        ];
        let rows: Vec<&str> = kept.iter().map(String::as_str).collect();
        assert_eq!(hidden(&rows), kept);
    }

    #[test]
    fn the_typed_line_is_blanked_and_its_prompt_stays() {
        let line = format!("bash-5.2${}", typed());
        assert_eq!(hidden(&[&line, "hi", "bash-5.2$"]), ["bash-5.2$", "hi", "bash-5.2$"]);
    }

    #[test]
    fn a_wrapped_typed_line_is_blanked_on_every_row_it_covers() {
        for width in [20, 37, 38, 39, 41, 80] {
            let mut rows = wrapped(&format!("$ {}", typed()), width);
            let covered = rows.len();
            rows.push("output".into());
            rows.push("$".into());
            hide_own_rows(&mut rows);
            let mut expected = vec![String::new(); covered];
            expected[0] = "$".into();
            expected.push("output".into());
            expected.push("$".into());
            assert_eq!(rows, expected, "width {width}");
        }
    }

    #[test]
    fn a_line_still_being_typed_at_the_end_counts_but_a_short_prefix_does_not() {
        let full = format!("$ {}", typed());
        let partial = &full[..60];
        assert_eq!(hidden(&[partial, ""]), ["$", ""]);
        assert_eq!(hidden(&["$ eval \"$(tmux show-b"]), ["$ eval \"$(tmux show-b"]);
        // A line like it followed by other rows is someone else's text.
        assert_eq!(hidden(&[partial, "other"]), [partial, "other"]);
    }
}
