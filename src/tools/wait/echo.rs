//! The echo of paneward's own typing, which waits do not count as a pane's output.
//!
//! A line paneward typed into a pane lately (`guard::typed`) has an echo to discount
//! only if the look right after the typing saw it at the cursor, on the row typed on
//! (`guard::echo_look`): a program that reads with the terminal's echo off and prints
//! the line back later has none, and its answer is output. A wait that reads a pane
//! while a line is still being typed there waits for that look ([`shown_lines`]); a
//! line whose echo showed before the wait began and is no longer on the screen hides
//! nothing ([`Echoes::spend_shown_before`], [`shown_since`]).
//!
//! Such an echo comes back as a row that ends with the line: the shell's `$ echo hi`,
//! a TUI's `│ > hello │`. The rule, per wait:
//! going through the rows in the order they are seen (the screen at the wait's start
//! top to bottom, then each reading's new rows top to bottom), the **first** row that
//! ends with a typed line (trailing blanks and box borders aside, at a word boundary)
//! is that line's echo, and no later row is: each typed line accounts for one row
//! once. So a program that prints the same text after the echo still counts, and text
//! typed more than `OWN_INPUT_MEMORY` ago hides nothing. What the rule cannot tell: an
//! echo that wraps over rows (each row holds only a piece of the line, so none is
//! hidden), and output printed *before* the echo row appeared that holds the same text
//! on a row the wait sees only later.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use crate::guard::typed::{Echo, TypedLine};
use crate::guard::ReadGate;
use crate::limits::ECHO_SETTLE_MAX;
use crate::tmux::PaneId;

/// How often a wait checks whether the look at a line being typed is done.
const SETTLE_POLL: Duration = Duration::from_millis(5);

/// The lines paneward typed into `pane` lately whose echo showed at the typing, once
/// none is still being looked at (a line still pending after [`ECHO_SETTLE_MAX`] counts
/// as not shown). Called after a wait's reading, so an echo that reading holds is
/// judged with its line's verdict.
pub async fn shown_lines(gate: &ReadGate<'_>, pane: PaneId) -> Vec<TypedLine> {
    let deadline = Instant::now() + ECHO_SETTLE_MAX;
    loop {
        let lines = gate.state().own_input.recent(pane);
        // A typing held up longer (a question to the person first) is not waited for.
        let pending = lines
            .iter()
            .any(|line| line.echo == Echo::Pending && line.at.elapsed() < ECHO_SETTLE_MAX);
        if !pending || Instant::now() >= deadline {
            return lines
                .into_iter()
                .filter(|line| matches!(line.echo, Echo::Shown(_)))
                .collect();
        }
        tokio::time::sleep(SETTLE_POLL).await;
    }
}

/// Whether `line`'s echo showed before `instant`.
fn shown_before(line: &TypedLine, instant: Instant) -> bool {
    matches!(line.echo, Echo::Shown(at) if at < instant)
}

/// `typed` without the lines whose echo showed before `started` (when a wait first
/// read the pane) and is not among `first_rows` (that reading's rows): such an echo
/// scrolled away or was cleared before the wait, so no row it sees can be it.
pub fn shown_since(typed: Vec<TypedLine>, started: Instant, first_rows: &[String]) -> Vec<TypedLine> {
    typed
        .into_iter()
        .filter(|line| {
            !shown_before(line, started) || first_rows.iter().any(|row| without_echo(row, &line.text).is_some())
        })
        .collect()
}

/// Characters a TUI draws around its input row.
const BORDERS: [char; 6] = ['│', '┃', '|', '║', '▏', '▕'];

/// `row` without the echo of `line`, if it ends with it (see the module documentation).
fn without_echo<'a>(row: &'a str, line: &str) -> Option<&'a str> {
    let body = row.trim_end_matches(|c: char| c.is_whitespace() || BORDERS.contains(&c));
    let line = line.trim();
    let before = body.strip_suffix(line)?;
    let boundary =
        before.chars().last().is_none_or(|c| !c.is_alphanumeric()) || !line.starts_with(char::is_alphanumeric);
    boundary.then_some(before)
}

/// Which typed lines a wait has already found the echo of.
#[derive(Debug, Default)]
pub struct Echoes {
    counted: HashSet<u64>,
}

impl Echoes {
    /// For each of `rows` (in the order they were seen), whether it is the echo of a
    /// line of `typed` not yet counted; counts those it finds.
    pub fn find(&mut self, typed: &[TypedLine], rows: &[String]) -> Vec<bool> {
        rows.iter()
            .map(|row| {
                let line = typed
                    .iter()
                    .find(|line| !self.counted.contains(&line.number) && without_echo(row, &line.text).is_some());
                line.map(|line| self.counted.insert(line.number)).is_some()
            })
            .collect()
    }

    /// Counts as found every line of `typed` whose echo showed before `instant`: called
    /// once the rows of a wait's first reading (taken at `instant`) were searched, so
    /// an echo that was no longer on the screen then hides nothing later.
    pub fn spend_shown_before(&mut self, typed: &[TypedLine], instant: Instant) {
        self.counted.extend(
            typed
                .iter()
                .filter(|line| shown_before(line, instant))
                .map(|line| line.number),
        );
    }

    /// `rows` without the echoes [`Echoes::find`] finds.
    pub fn drop_from(&mut self, typed: &[TypedLine], rows: Vec<String>) -> Vec<String> {
        let echoes = self.find(typed, &rows);
        rows.into_iter()
            .zip(echoes)
            .filter(|(_, echo)| !echo)
            .map(|(row, _)| row)
            .collect()
    }
}

/// `rows` as a comparison sees them once paneward's own echo is taken out: each typed
/// line's text removed from the first row ending with it, and blanks ignored (a TUI pads
/// its input row, and draws borders after it).
pub fn without_own_echo(typed: &[TypedLine], rows: &[String]) -> Vec<String> {
    let mut counted = HashSet::new();
    rows.iter()
        .map(|row| {
            let stripped = typed.iter().find_map(|line| {
                if counted.contains(&line.number) {
                    return None;
                }
                let before = without_echo(row, &line.text)?;
                counted.insert(line.number);
                Some(before)
            });
            stripped
                .unwrap_or(row)
                .trim_end_matches(|c: char| c.is_whitespace() || BORDERS.contains(&c))
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(lines: &[&str]) -> Vec<TypedLine> {
        lines
            .iter()
            .enumerate()
            .map(|(number, text)| TypedLine {
                number: number as u64,
                at: Instant::now(),
                text: (*text).to_string(),
                echo: Echo::Shown(Instant::now()),
            })
            .collect()
    }

    fn rows(text: &[&str]) -> Vec<String> {
        text.iter().map(|r| (*r).to_string()).collect()
    }

    #[test]
    fn the_echo_is_dropped_and_the_same_text_printed_after_it_counts() {
        let own = typed(&["echo DONE"]);
        let mut echoes = Echoes::default();
        let kept = echoes.drop_from(&own, rows(&["$ echo DONE", "DONE", "$ "]));
        assert_eq!(kept, ["DONE", "$ "]);
        // A program printing the typed line itself, after the echo, is output.
        let later = echoes.drop_from(&own, rows(&["echo DONE"]));
        assert_eq!(later, ["echo DONE"]);
    }

    #[test]
    fn a_line_typed_twice_has_two_echoes() {
        let own = typed(&["ls", "ls"]);
        let mut echoes = Echoes::default();
        assert_eq!(
            echoes.drop_from(&own, rows(&["$ ls", "a", "$ ls", "a", "ls"])),
            ["a", "a", "ls"]
        );
    }

    #[test]
    fn borders_and_padding_of_an_input_box_are_ignored_and_words_are_not_split() {
        let own = typed(&["hello there"]);
        assert_eq!(Echoes::default().find(&own, &rows(&["│ > hello there     │"])), [true]);
        let own = typed(&["y"]);
        assert_eq!(
            Echoes::default().find(&own, &rows(&["Reply", "ok? [y/n] y"])),
            [false, true]
        );
    }

    #[test]
    fn a_comparison_sees_a_row_as_before_the_typing() {
        let own = typed(&["hello"]);
        let before = without_own_echo(&own, &rows(&["│ >          │"]));
        let after = without_own_echo(&own, &rows(&["│ > hello    │"]));
        assert_eq!(before, after);
        let printed = without_own_echo(&own, &rows(&["│ > hello    │", "hello"]));
        assert_eq!(printed[1], "hello", "only the first row ending with it is the echo");
        assert!(without_own_echo(&[], &rows(&["a b"])) == ["ab"]);
    }

    #[test]
    fn an_echo_gone_before_the_wait_began_hides_no_later_row() {
        let own = typed(&["make"]);
        let started = Instant::now() + Duration::from_millis(1);
        // Still on the screen at the start: it stays the echo to discount.
        assert_eq!(shown_since(own.clone(), started, &rows(&["$ make"])).len(), 1);
        // Gone: no later row is its echo.
        assert!(shown_since(own.clone(), started, &rows(&["$ "])).is_empty());
        let mut echoes = Echoes::default();
        echoes.drop_from(&own, rows(&["$ "]));
        echoes.spend_shown_before(&own, started);
        assert_eq!(echoes.drop_from(&own, rows(&["make"])), ["make"]);
        // Typed after the wait began: its echo is still to come.
        let mut echoes = Echoes::default();
        echoes.spend_shown_before(&own, Instant::now() - Duration::from_secs(1));
        assert!(echoes.drop_from(&own, rows(&["$ make"])).is_empty());
    }
}
