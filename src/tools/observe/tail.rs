//! Finding where a `capture_since` cursor stopped in a pane read again later.
//!
//! Rows are numbered from the oldest history row (row `history_size + y` is visible row
//! `y`). Scrolling keeps those numbers; trimming at `history-limit`, `clear-history`
//! and `clear` (which sends `ESC[3J`) remove rows from the top and shift every number
//! down. So the anchor row is searched for by its fingerprint at or above the number
//! it had, never below. Pure logic: the tmux side is in `since.rs`.

use crate::generated::types::CaptureSinceOutputMissedReasonVariant1 as MissedReason;
use crate::tmux::PaneId;
use crate::tools::observe::cursor::{fingerprint, Cursor, FINGERPRINT_LEN};
use crate::tools::observe::text::trim_blank_tail;

/// Rows ending at the anchor that its fingerprint covers: enough that ordinary output
/// (prompts, repeated log lines) does not match by chance somewhere else.
pub const FINGERPRINT_ROWS: usize = 8;

/// A pane's normal screen (history, then the screen a program that took the alternate
/// screen will return to) as read in one round trip.
#[derive(Debug, Clone)]
pub struct NormalRows {
    /// The absolute number of `rows[0]`: 0 unless older history was beyond the scan.
    pub first: u64,
    /// Every row, blank ones included, trailing spaces removed.
    pub rows: Vec<String>,
    /// The absolute row of the terminal cursor on the normal screen.
    pub cursor_row: u64,
    pub history_size: u64,
    pub history_limit: u64,
    pub pane_pid: u32,
}

/// Where the new rows start, and whether some may be missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resume {
    /// The absolute number of the first row to return.
    pub start: u64,
    pub missed: Option<MissedReason>,
}

impl NormalRows {
    /// The row the terminal cursor is on, as read (`None` when it was not read).
    pub fn cursor_row_text(&self) -> Option<&str> {
        self.get(self.cursor_row)
    }

    fn get(&self, absolute: u64) -> Option<&str> {
        let index = usize::try_from(absolute.checked_sub(self.first)?).ok()?;
        self.rows.get(index).map(String::as_str)
    }

    fn end(&self) -> u64 {
        self.first + self.rows.len() as u64
    }

    /// The rows from absolute row `start` to the last non-blank row.
    pub fn from_row(&self, start: u64) -> Vec<String> {
        let skip = usize::try_from(start.saturating_sub(self.first)).unwrap_or(usize::MAX);
        let mut rows: Vec<String> = self.rows.iter().skip(skip).cloned().collect();
        trim_blank_tail(&mut rows);
        rows
    }

    fn fingerprint_at(&self, anchor: u64, count: usize) -> Option<[u8; FINGERPRINT_LEN]> {
        let top = (anchor + 1).checked_sub(count as u64)?;
        let rows: Option<Vec<&str>> = (top..=anchor).map(|row| self.get(row)).collect();
        Some(fingerprint(rows?))
    }

    /// The cursor for a caller who has now read everything above the terminal cursor's
    /// row: that row may still change (a prompt being typed on, a progress line).
    pub fn cursor_here(&self, pane: PaneId) -> Cursor {
        let anchor = self.cursor_row.checked_sub(1).filter(|row| *row >= self.first);
        let (count, print) = match anchor {
            Some(anchor) => {
                let count = usize::try_from(anchor - self.first + 1)
                    .unwrap_or(usize::MAX)
                    .min(FINGERPRINT_ROWS);
                (count, self.fingerprint_at(anchor, count).unwrap_or_default())
            }
            None => (0, [0; FINGERPRINT_LEN]),
        };
        Cursor {
            pane,
            pane_pid: self.pane_pid,
            history_size: self.history_size,
            anchor,
            fingerprint_rows: u8::try_from(count).unwrap_or(u8::MAX),
            fingerprint: print,
        }
    }

    /// Whether tmux may have trimmed or cleared history since a cursor issued at
    /// `then` history rows: either history shrank, or it came within one trim of the
    /// limit (tmux trims a tenth of `history-limit` each time it is reached).
    fn history_may_have_moved(&self, then: u64) -> bool {
        let step = (self.history_limit / 10).max(1);
        self.history_size < then || self.history_size + step >= self.history_limit
    }

    /// Where rows written after `cursor` start in these rows.
    pub fn resume(&self, cursor: &Cursor) -> Resume {
        let everything = |missed| Resume {
            start: self.first,
            missed: Some(missed),
        };
        if cursor.pane_pid != self.pane_pid {
            return everything(MissedReason::PaneRespawned);
        }
        let beyond_scan = if self.first > 0 {
            MissedReason::TooFarBehind
        } else {
            MissedReason::HistoryLost
        };
        let Some(anchor) = cursor.anchor else {
            return if self.first > 0 {
                everything(MissedReason::TooFarBehind)
            } else {
                Resume { start: 0, missed: None }
            };
        };
        let count = usize::from(cursor.fingerprint_rows);
        let lowest = self.first + (count as u64).saturating_sub(1);
        let highest = anchor.min(self.end().saturating_sub(1));
        if highest < lowest {
            return everything(beyond_scan);
        }
        let mut found = (lowest..=highest)
            .rev()
            .filter(|row| self.fingerprint_at(*row, count) == Some(cursor.fingerprint));
        let Some(row) = found.next() else {
            return everything(beyond_scan);
        };
        // Repetitive output can match at more than one height; if rows may also have
        // shifted, which match is the anchor cannot be known.
        let ambiguous = self.history_may_have_moved(cursor.history_size) && found.next().is_some();
        Resume {
            start: row + 1,
            missed: ambiguous.then_some(MissedReason::HistoryLost),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(rows: &[&str], history_size: u64, cursor_y: u64) -> NormalRows {
        NormalRows {
            first: 0,
            rows: rows.iter().map(|r| (*r).to_string()).collect(),
            cursor_row: history_size + cursor_y,
            history_size,
            history_limit: 2000,
            pane_pid: 10,
        }
    }

    fn numbered(range: std::ops::Range<u32>) -> Vec<String> {
        range.map(|i| format!("line {i}")).collect()
    }

    #[test]
    fn rows_printed_after_the_cursor_are_the_new_ones() {
        let before = pane(&["a", "b", "$ ", "", ""], 0, 2);
        let cursor = before.cursor_here(PaneId(1));
        assert_eq!(cursor.anchor, Some(1));
        let after = pane(&["a", "b", "$ run", "out", "$ "], 0, 4);
        let resume = after.resume(&cursor);
        assert_eq!(resume, Resume { start: 2, missed: None });
        assert_eq!(after.from_row(resume.start), ["$ run", "out", "$ "]);
    }

    #[test]
    fn a_trim_that_keeps_the_anchor_loses_nothing() {
        let mut before = pane(&[], 0, 0);
        before.rows = numbered(0..30);
        before.history_size = 20;
        before.cursor_row = 29;
        let cursor = before.cursor_here(PaneId(1));
        // tmux trimmed the 10 oldest rows and 5 new ones were printed.
        let mut after = before.clone();
        after.rows = numbered(10..35);
        after.cursor_row = 24;
        let resume = after.resume(&cursor);
        assert_eq!(resume.missed, None);
        assert_eq!(
            after.from_row(resume.start),
            ["line 29", "line 30", "line 31", "line 32", "line 33", "line 34"]
        );
    }

    #[test]
    fn a_trim_past_the_anchor_reports_lost_rows_and_returns_all() {
        let mut before = pane(&[], 0, 0);
        before.rows = numbered(0..30);
        before.cursor_row = 29;
        let cursor = before.cursor_here(PaneId(1));
        let mut after = before.clone();
        after.rows = numbered(40..70);
        let resume = after.resume(&cursor);
        assert_eq!(
            resume,
            Resume {
                start: 0,
                missed: Some(MissedReason::HistoryLost)
            }
        );
    }

    #[test]
    fn a_respawned_program_reports_it() {
        let before = pane(&["a", "b", "c"], 0, 2);
        let cursor = before.cursor_here(PaneId(1));
        let mut after = before.clone();
        after.pane_pid = 11;
        assert_eq!(after.resume(&cursor).missed, Some(MissedReason::PaneRespawned));
    }

    #[test]
    fn repetitive_rows_near_the_history_limit_are_reported_as_uncertain() {
        let mut before = pane(&[], 0, 0);
        before.rows = vec!["y".to_string(); 40];
        before.history_size = 18;
        before.history_limit = 20;
        before.cursor_row = 39;
        let cursor = before.cursor_here(PaneId(1));
        let resume = before.resume(&cursor);
        assert_eq!(resume.missed, Some(MissedReason::HistoryLost));
        // Far from the limit, the same rows cannot have moved: the highest match is it.
        before.history_limit = 2000;
        assert_eq!(
            before.resume(&cursor),
            Resume {
                start: 39,
                missed: None
            }
        );
    }

    #[test]
    fn an_anchor_beyond_the_scanned_rows_is_too_far_behind() {
        let before = pane(&["a", "b", "c"], 0, 2);
        let cursor = before.cursor_here(PaneId(1));
        let mut after = pane(&[], 0, 0);
        after.first = 50_000;
        after.rows = numbered(0..100);
        assert_eq!(after.resume(&cursor).missed, Some(MissedReason::TooFarBehind));
    }

    #[test]
    fn a_pane_with_nothing_above_the_cursor_resumes_from_the_top() {
        let before = pane(&["$ "], 0, 0);
        let cursor = before.cursor_here(PaneId(1));
        assert_eq!(cursor.anchor, None);
        let after = pane(&["$ ls", "x", "$ "], 0, 2);
        assert_eq!(after.resume(&cursor), Resume { start: 0, missed: None });
    }
}
