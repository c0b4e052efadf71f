//! One pane watched by `wait_for_text`: which rows it wrote since the last reading.
//!
//! A reading is `capture_since`'s (`since.rs`): the newest history rows, the screen and
//! the numbers that place them. The watch keeps a `capture_since` cursor (the rows above
//! the terminal cursor's row, found again by fingerprint after scrolling or trimming)
//! and the rows from the cursor's row down as last seen, which may still change (a
//! prompt, a progress line). A row counts as new when it differs from what that row
//! held at the last reading, so text already on screen when the wait began never does.
//! Pure logic: reading tmux is in `wait.rs`.

use std::collections::VecDeque;
use std::time::Instant;

use crate::generated::types::CaptureSinceOutputMissedReasonVariant1 as MissedReason;
use crate::limits::{SINCE_SCAN_MAX_ROWS, WAIT_REPLY_MAX_ROWS, WAIT_ROW_MAX_CHARS};
use crate::tmux::PaneId;
use crate::tools::observe::cursor::Cursor;
use crate::tools::observe::since::Reading;
use crate::tools::observe::tail::FINGERPRINT_ROWS;
use crate::tools::wait::echo::Echoes;

/// History rows read per tick while a pane is quiet: the fingerprint's rows and room
/// for a few lines scrolled since the last tick.
pub const QUIET_SCAN_ROWS: u64 = 2 * FINGERPRINT_ROWS as u64;

/// What one reading showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// The pane's program exited (a dead pane) or was replaced (a new pid).
    Died,
    /// A full-screen program holds the alternate screen.
    Alternate,
    /// The rows that changed since the last reading, top to bottom (maybe none).
    Rows(Vec<String>),
    /// The cursor's rows were not among those read: read again with this many
    /// history rows.
    Lost { scan_rows: u64 },
}

/// One watched pane.
#[derive(Debug)]
pub struct Watch {
    pub pane: PaneId,
    cursor: Cursor,
    /// The rows from the cursor's row down, as last seen.
    open_rows: Vec<String>,
    /// History rows to read next time.
    pub scan_rows: u64,
    /// When the pane last wrote a new row; `None` before its first.
    pub last_output: Option<Instant>,
    /// The newest new rows, for a reply that has no matching rows to show.
    recent: VecDeque<String>,
    /// The pane's state at the last full read, as `wait.rs` probes it.
    pub probe: String,
    /// When the pane was last read in full.
    pub read_at: Instant,
    /// The echoes of paneward's own typing this wait has found.
    pub echoes: Echoes,
}

/// A row as a reply shows it: cut if very long.
pub fn reply_row(row: &str) -> String {
    match row.char_indices().nth(WAIT_ROW_MAX_CHARS) {
        Some((end, _)) => format!("{}…", &row[..end]),
        None => row.to_string(),
    }
}

impl Watch {
    /// Starts watching from `reading` (taken when the wait began).
    pub fn start(pane: PaneId, reading: &Reading) -> Self {
        let mut watch = Self {
            pane,
            cursor: reading.normal.cursor_here(pane),
            open_rows: Vec::new(),
            scan_rows: QUIET_SCAN_ROWS,
            last_output: None,
            recent: VecDeque::new(),
            probe: String::new(),
            read_at: Instant::now(),
            echoes: Echoes::default(),
        };
        watch.settle(reading);
        watch
    }

    /// Moves the cursor to `reading`'s terminal cursor row.
    fn settle(&mut self, reading: &Reading) {
        let grown = reading.normal.history_size.saturating_sub(self.cursor.history_size);
        self.cursor = reading.normal.cursor_here(self.pane);
        self.open_rows = reading.normal.from_row(reading.normal.cursor_row);
        // A pane that just scrolled fast is read further back next time.
        self.scan_rows = (QUIET_SCAN_ROWS + 2 * grown).min(SINCE_SCAN_MAX_ROWS);
    }

    /// What changed between the last reading and `reading`. With `last_try`, a cursor
    /// that cannot be found (history cleared, or more scrolled by than was read) counts
    /// the whole visible screen as new instead of asking for another read.
    pub fn observe(&mut self, reading: &Reading, last_try: bool) -> Seen {
        if reading.dead || reading.normal.pane_pid != self.cursor.pane_pid {
            return Seen::Died;
        }
        if reading.alternate {
            return Seen::Alternate;
        }
        let resume = reading.normal.resume(&self.cursor);
        let found = resume.missed.is_none() || resume.start > reading.normal.first;
        let changed = match resume.missed {
            Some(MissedReason::PaneRespawned) => return Seen::Died,
            _ if found => {
                let rows = reading.normal.from_row(resume.start);
                rows.into_iter()
                    .enumerate()
                    .filter(|(index, row)| self.open_rows.get(*index) != Some(row))
                    .map(|(_, row)| row)
                    .collect()
            }
            _ if !last_try => {
                let behind = reading.normal.history_size.saturating_sub(self.cursor.history_size);
                let step = reading.normal.history_limit / 10;
                return Seen::Lost {
                    scan_rows: (behind + step + QUIET_SCAN_ROWS).min(SINCE_SCAN_MAX_ROWS),
                };
            }
            _ => {
                let mut rows = reading.normal.from_row(reading.normal.history_size);
                rows.retain(|row| !row.is_empty());
                rows
            }
        };
        self.settle(reading);
        Seen::Rows(changed)
    }

    /// Counts `rows` as the pane's new output (what [`Watch::observe`] saw, less the
    /// echo of paneward's own typing): when it last wrote, and its newest rows.
    pub fn note(&mut self, rows: &[String]) {
        if rows.is_empty() {
            return;
        }
        self.last_output = Some(Instant::now());
        for row in rows {
            if self.recent.len() == WAIT_REPLY_MAX_ROWS {
                self.recent.pop_front();
            }
            self.recent.push_back(reply_row(row));
        }
    }

    /// The newest rows this pane wrote during the wait.
    pub fn recent(&self) -> Vec<String> {
        self.recent.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::observe::tail::NormalRows;

    fn reading(rows: &[&str], history_size: u64, cursor_y: u64) -> Reading {
        let rows: Vec<String> = rows.iter().map(|r| (*r).to_string()).collect();
        Reading {
            normal: NormalRows {
                first: 0,
                rows: rows.clone(),
                cursor_row: history_size + cursor_y,
                history_size,
                history_limit: 2000,
                pane_pid: 7,
            },
            visible: rows,
            alternate: false,
            dead: false,
        }
    }

    #[test]
    fn text_on_screen_at_entry_is_not_new_and_what_follows_is() {
        let entry = reading(&["old error", "$ ", "", ""], 0, 1);
        let mut watch = Watch::start(PaneId(1), &entry);
        assert_eq!(watch.observe(&entry, false), Seen::Rows(vec![]));
        let later = reading(&["old error", "$ make", "error: x", "$ "], 0, 3);
        let seen = watch.observe(&later, false);
        assert_eq!(seen, Seen::Rows(vec!["$ make".into(), "error: x".into(), "$ ".into()]));
        if let Seen::Rows(rows) = &seen {
            watch.note(rows);
        }
        // Nothing new since: no rows, even though the prompt row is still open.
        assert_eq!(watch.observe(&later, false), Seen::Rows(vec![]));
        assert_eq!(watch.recent(), ["$ make", "error: x", "$ "]);
    }

    #[test]
    fn a_row_rewritten_in_place_counts_again() {
        let entry = reading(&["$ run", "10%"], 0, 1);
        let mut watch = Watch::start(PaneId(1), &entry);
        let later = reading(&["$ run", "done"], 0, 1);
        assert_eq!(watch.observe(&later, false), Seen::Rows(vec!["done".into()]));
    }

    #[test]
    fn a_dead_respawned_or_full_screen_pane_is_reported() {
        let entry = reading(&["$ "], 0, 0);
        let mut watch = Watch::start(PaneId(1), &entry);
        let mut dead = entry.clone();
        dead.dead = true;
        assert_eq!(watch.observe(&dead, false), Seen::Died);
        let mut respawned = entry.clone();
        respawned.normal.pane_pid = 8;
        assert_eq!(watch.observe(&respawned, false), Seen::Died);
        let mut alternate = entry.clone();
        alternate.alternate = true;
        assert_eq!(watch.observe(&alternate, false), Seen::Alternate);
    }

    #[test]
    fn a_cursor_scrolled_out_of_the_rows_read_asks_for_more_then_takes_the_screen() {
        let mut entry = reading(&[], 0, 0);
        entry.normal.rows = (0..10).map(|i| format!("line {i}")).collect();
        entry.normal.cursor_row = 9;
        let mut watch = Watch::start(PaneId(1), &entry);
        let mut later = reading(&[], 0, 0);
        later.normal.first = 500;
        later.normal.history_size = 505;
        later.normal.rows = (500..510).map(|i| format!("line {i}")).collect();
        later.normal.cursor_row = 509;
        let Seen::Lost { scan_rows } = watch.observe(&later, false) else {
            panic!("expected Lost");
        };
        assert!(scan_rows >= 505, "{scan_rows}");
        assert_eq!(
            watch.observe(&later, true),
            Seen::Rows((505..510).map(|i| format!("line {i}")).collect())
        );
    }
}
