//! The look right after paneward types text into a pane: did the echo of each line
//! show *at the cursor, on the row typed on*? Only such a copy is the echo that waits
//! discount (`guard::typed`, `tools::wait::echo`); a copy that shows later, or
//! elsewhere, is the program's output. A program that reads with the terminal's echo
//! off and answers a line by printing it back shows nothing at typing time, so its
//! answer counts.
//!
//! The row and column typed on come from the cohort check's own reading, in the same
//! tmux step as the input (`guard::cohort`). Each look reads the pane's history size,
//! cursor and rows (a few history rows and the screen) in one round trip, until every
//! line showed or [`ECHO_LOOK_WAIT`] passed. The first line must start at the typed
//! column of the typed row; each later one on a later row, no lower than the cursor.
//! Rows are numbered from the top of the history; once the history is full tmux drops
//! its oldest rows and the numbers shift, so then the first line may be on any row
//! down to the cursor (still at the typed column). An echo that wraps over rows is
//! not found (no row holds the whole line), so it is not discounted, and typing whose
//! first line would wrap is not looked at (`run_command`'s long line is one).

use std::time::Instant;

use crate::guard::screen::{Reached, ScreenAt};
use crate::guard::state::GuardState;
use crate::guard::typed::Typing;
use crate::limits::{ECHO_LOOK_HISTORY_ROWS, ECHO_LOOK_POLL_FIRST, ECHO_LOOK_POLL_MAX, ECHO_LOOK_WAIT};
use crate::tmux::format::{parse_one, record_format};
use crate::tmux::{Command, PaneId, ReadCommand, ReadVerb, TmuxError};

const FIELDS: [&str; 3] = ["history_size", "history_limit", "cursor_y"];

/// One look at a pane, its rows numbered from the top of the history.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Screen {
    /// The number of `rows[0]`.
    first: u64,
    rows: Vec<String>,
    /// The cursor's row.
    cursor: u64,
    /// The history is full: row numbers shift as tmux drops its oldest rows.
    history_full: bool,
}

impl Screen {
    /// The rows numbered `from..=to` that this look holds, with their numbers.
    fn rows_between(&self, from: u64, to: u64) -> impl Iterator<Item = (u64, &str)> {
        self.rows
            .iter()
            .enumerate()
            .map(move |(index, row)| (self.first + index as u64, row.as_str()))
            .filter(move |(number, _)| (from..=to).contains(number))
    }
}

/// Whether `row` shows `line` starting at column `x`. Columns are characters for an
/// ASCII row; before a wide character the column is not known, so a copy anywhere up
/// to `x` characters in is taken.
fn starts_at(row: &str, x: u64, line: &str) -> bool {
    let x = usize::try_from(x).unwrap_or(usize::MAX);
    let prefix: String = row.chars().take(x).collect();
    if prefix.is_ascii() {
        return row.chars().skip(x).collect::<String>().starts_with(line);
    }
    row.match_indices(line).any(|(at, _)| row[..at].chars().count() <= x)
}

/// For each of `lines` (typed in this order with the cursor at `at`), whether `screen`
/// shows its echo (see the module documentation).
fn echoed(at: ScreenAt, screen: &Screen, lines: &[String]) -> Vec<bool> {
    let typed_row = at.history_size + at.cursor_y;
    let mut found = vec![false; lines.len()];
    let mut next = if screen.history_full { 0 } else { typed_row };
    for (index, line) in lines.iter().enumerate() {
        let place = if index == 0 {
            let last = if screen.history_full { screen.cursor } else { typed_row };
            screen
                .rows_between(next, last)
                .find(|(_, row)| starts_at(row, at.cursor_x, line))
        } else {
            screen
                .rows_between(next, screen.cursor)
                .find(|(_, row)| row.contains(line.trim()))
        };
        let Some((number, _)) = place else {
            break;
        };
        found[index] = true;
        next = number + 1;
    }
    found
}

/// Reads `pane`'s history size, cursor and its rows from `history_rows` up.
async fn read_screen(state: &GuardState, pane: PaneId, history_rows: u64) -> Result<Screen, TmuxError> {
    let describe = ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-t")
        .arg(pane.to_string())
        .arg(record_format(&FIELDS));
    let capture = ReadCommand::new(ReadVerb::CapturePane)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
        .arg("-S")
        .arg(format!("-{history_rows}"));
    let [described, captured] = state
        .backend
        .tmux()
        .run_each([Command::from(describe), Command::from(capture)])
        .await?;
    let described = String::from_utf8_lossy(&described);
    let record = parse_one("display-message", &FIELDS, &described)?;
    let history_size = record.count("history_size")?;
    let history_limit = record.count("history_limit")?;
    Ok(Screen {
        first: history_size.saturating_sub(history_rows),
        rows: String::from_utf8_lossy(&captured).lines().map(str::to_string).collect(),
        cursor: history_size + record.count("cursor_y")?,
        history_full: history_limit > 0 && history_size >= history_limit,
    })
}

/// How many of `lines`, from the first, fit on one row of a pane `width` columns wide
/// (the first from the typed column): only those can be found, in order.
fn findable(at: ScreenAt, width: u64, lines: &[String]) -> usize {
    lines
        .iter()
        .enumerate()
        .take_while(|(index, line)| {
            let start = if *index == 0 { at.cursor_x } else { 0 };
            start + line.chars().count() as u64 <= width
        })
        .count()
}

/// Looks at `pane` (`width` columns wide) until the echo of every one of `lines` (typed
/// with the cursor at `at`) that can show on one row showed, or [`ECHO_LOOK_WAIT`]
/// passed; one flag per line. Typing whose first line wraps is not looked at.
async fn look(state: &GuardState, pane: PaneId, (at, width): (ScreenAt, u64), lines: &[String]) -> Vec<bool> {
    let deadline = Instant::now() + ECHO_LOOK_WAIT;
    let history_rows = ECHO_LOOK_HISTORY_ROWS + lines.len() as u64;
    let mut shown = vec![false; lines.len()];
    let findable = findable(at, width, lines);
    if findable == 0 {
        return shown;
    }
    let mut pause = ECHO_LOOK_POLL_FIRST;
    loop {
        // A failed look shows nothing: the lines then count as not echoed.
        let Ok(screen) = read_screen(state, pane, history_rows).await else {
            return shown;
        };
        for (seen, now) in shown.iter_mut().zip(echoed(at, &screen, lines)) {
            *seen |= now;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if shown.iter().take(findable).all(|&seen| seen) || left.is_zero() {
            return shown;
        }
        tokio::time::sleep(pause.min(left)).await;
        pause = (pause + pause / 2).min(ECHO_LOOK_POLL_MAX);
    }
}

/// Looks for the echo of `typing`'s lines, typed into `reached`, and records what
/// showed.
async fn settle(state: &GuardState, typing: Typing<'_>, reached: &Reached) {
    let lines: Vec<String> = typing.lines.iter().map(|(_, line)| line.clone()).collect();
    let shown = look(state, typing.pane, (reached.at, reached.width), &lines).await;
    typing.settle(&shown);
}

/// Looks for the echo of `text` in every pane it `reached` and records what showed:
/// `typing` is the target's memory of it, made before the typing; the other panes
/// (the ones `synchronize-panes` copied it to) are recorded after the target's look.
pub async fn settle_all(state: &GuardState, typing: Typing<'_>, reached: &[Reached], text: &str) {
    let target = typing.pane;
    if let Some(aimed) = reached.iter().find(|r| r.pane == target) {
        settle(state, typing, aimed).await;
    }
    for other in reached.iter().filter(|r| r.pane != target) {
        settle(state, state.own_input.begin(other.pane, text), other).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(first: u64, rows: &[&str], cursor: u64) -> Screen {
        Screen {
            first,
            rows: rows.iter().map(|r| (*r).to_string()).collect(),
            cursor,
            history_full: false,
        }
    }

    fn at(x: u64, y: u64, history_size: u64) -> ScreenAt {
        ScreenAt {
            cursor_x: x,
            cursor_y: y,
            history_size,
        }
    }

    fn lines(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| (*t).to_string()).collect()
    }

    #[test]
    fn the_echo_starts_at_the_typed_column_of_the_typed_row() {
        // `$ ` then the typed line, run: its output below, a new prompt.
        let now = screen(0, &["$ echo hi", "hi", "$ "], 2);
        assert_eq!(echoed(at(2, 0, 0), &now, &lines(&["echo hi"])), [true]);
        // Not yet echoed; and a copy elsewhere (the output row) is not the echo.
        assert_eq!(echoed(at(2, 0, 0), &screen(0, &["$ "], 0), &lines(&["hi"])), [false]);
        assert_eq!(echoed(at(2, 0, 0), &now, &lines(&["hi"])), [false]);
        // An echo-off reader's answer printed at the cursor's column 0 is at another
        // column than the typing's when the row held a prompt.
        assert_eq!(
            echoed(at(2, 1, 0), &screen(0, &["x", "> ", "hi"], 2), &lines(&["hi"])),
            [false]
        );
    }

    #[test]
    fn a_tui_input_box_echo_at_the_cursor_counts_and_rows_keep_their_numbers_after_scrolling() {
        let boxed = screen(10, &["╭────╮", "│ > hello    │", "╰────╯"], 11);
        assert_eq!(echoed(at(4, 1, 10), &boxed, &lines(&["hello"])), [true]);
        // The typed row (history 3 + row 5 = 8) scrolled up by 4 rows: still row 8.
        let scrolled = screen(0, &["", "", "", "", "", "", "", "", "$ make", "out"], 9);
        assert_eq!(echoed(at(2, 5, 3), &scrolled, &lines(&["make"])), [true]);
    }

    #[test]
    fn later_lines_follow_on_later_rows_down_to_the_cursor() {
        let now = screen(0, &["$ one", "> two", "> "], 2);
        assert_eq!(echoed(at(2, 0, 0), &now, &lines(&["one", "two"])), [true, true]);
        assert_eq!(echoed(at(2, 0, 0), &now, &lines(&["two", "one"])), [false, false]);
        // A full history shifts row numbers: the first line may be on any row.
        let mut full = screen(2000, &["$ one", "$ "], 2001);
        full.history_full = true;
        assert_eq!(echoed(at(2, 5, 2000), &full, &lines(&["one"])), [true]);
    }

    #[test]
    fn only_lines_that_fit_on_a_row_can_be_found() {
        let texts = lines(&["0123456789", "abc"]);
        assert_eq!(findable(at(0, 0, 0), 10, &texts), 2);
        assert_eq!(findable(at(2, 0, 0), 10, &texts), 0);
        assert_eq!(findable(at(0, 0, 0), 10, &lines(&["ok", "a line too long"])), 1);
    }

    #[test]
    fn before_a_wide_character_the_column_is_a_bound() {
        assert!(starts_at("λ> hi", 4, "hi"));
        assert!(starts_at("$ hi", 2, "hi"));
        assert!(!starts_at("$ hi", 0, "hi"));
        assert!(!starts_at("λ> xx hi", 3, "hi"));
    }
}
