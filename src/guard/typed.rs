//! What paneward itself typed into each pane in the last moments, so that a wait can
//! tell the echo of its own input from the pane's output (`tools::wait::echo`).
//!
//! Kept in this process's memory only, bounded in time ([`OWN_INPUT_MEMORY`]), lines
//! and bytes per pane, and panes; recorded by the cohort check after input arrived
//! (`guard::cohort`) and by the pastes of `tools::input::buffers`. Each line gets a
//! number, so a wait can count each typed line's echo once, and what the look right
//! after the typing saw ([`Echo`], `guard::echo_look`): only a line whose echo showed
//! at the cursor, on the typed row, then has an echo to discount. A line is recorded
//! [`Echo::Pending`] before it is typed, so a wait that reads the pane meanwhile
//! waits for the verdict instead of guessing.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Instant;

use crate::limits::{OWN_INPUT_MAX_BYTES, OWN_INPUT_MAX_LINES, OWN_INPUT_MAX_PANES, OWN_INPUT_MEMORY};
use crate::tmux::PaneId;

/// Whether the echo of a typed line showed right after the typing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Echo {
    /// Being typed, or the look for its echo not done yet.
    Pending,
    /// It showed at the cursor, on the row typed on, when this look was made.
    Shown(Instant),
    /// It did not show there: any copy of the text is the program's output.
    NotShown,
}

/// One line paneward typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedLine {
    /// Unique in this process, increasing.
    pub number: u64,
    pub at: Instant,
    /// Without trailing blanks; never empty.
    pub text: String,
    pub echo: Echo,
}

/// The lines of one typing into one pane, recorded [`Echo::Pending`]; whatever the
/// look for their echo did not settle when this is dropped (the typing failed, or
/// the call was cancelled) becomes [`Echo::NotShown`].
#[derive(Debug)]
pub struct Typing<'a> {
    memory: &'a OwnInput,
    pub pane: PaneId,
    /// The lines' numbers and texts, in typing order.
    pub lines: Vec<(u64, String)>,
}

impl Typing<'_> {
    /// Records what the look found: one flag per line, in order.
    pub fn settle(self, shown: &[bool]) {
        let now = Instant::now();
        self.memory.set_echo(self.pane, &self.lines, |index| {
            if shown.get(index).copied().unwrap_or(false) {
                Echo::Shown(now)
            } else {
                Echo::NotShown
            }
        });
        // Settled: nothing left for the drop to do.
        let mut settled = self;
        settled.lines.clear();
    }
}

impl Drop for Typing<'_> {
    fn drop(&mut self) {
        if !self.lines.is_empty() {
            self.memory.set_echo(self.pane, &self.lines, |_| Echo::NotShown);
        }
    }
}

#[derive(Debug, Default)]
struct Memory {
    next: u64,
    panes: HashMap<PaneId, VecDeque<TypedLine>>,
}

impl Memory {
    /// Adds `text`'s non-blank lines to `pane`, pending; returns their numbers and texts.
    fn add(&mut self, pane: PaneId, text: &str) -> Vec<(u64, String)> {
        let now = Instant::now();
        let mut added = Vec::new();
        for line in text.split(['\n', '\r']) {
            let line = line.trim_end();
            if line.trim().is_empty() || line.len() > OWN_INPUT_MAX_BYTES {
                continue;
            }
            let number = self.next;
            self.next += 1;
            let lines = self.panes.entry(pane).or_default();
            lines.push_back(TypedLine {
                number,
                at: now,
                text: line.to_string(),
                echo: Echo::Pending,
            });
            added.push((number, line.to_string()));
            let mut bytes: usize = lines.iter().map(|l| l.text.len()).sum();
            while lines.len() > OWN_INPUT_MAX_LINES || bytes > OWN_INPUT_MAX_BYTES {
                bytes -= lines.pop_front().map_or(0, |l| l.text.len());
            }
        }
        // Forget the panes typed into longest ago (and every line too old).
        self.panes.retain(|_, lines| {
            lines.retain(|l| now.duration_since(l.at) < OWN_INPUT_MEMORY);
            !lines.is_empty()
        });
        while self.panes.len() > OWN_INPUT_MAX_PANES {
            let oldest = self
                .panes
                .iter()
                .min_by_key(|(_, lines)| lines.back().map(|l| l.at))
                .map(|(pane, _)| *pane);
            match oldest {
                Some(pane) => self.panes.remove(&pane),
                None => break,
            };
        }
        added
    }
}

/// The lines paneward typed, per pane.
#[derive(Debug, Default)]
pub struct OwnInput(Mutex<Memory>);

impl OwnInput {
    /// Records `text` as about to be typed into `pane`: one [`Echo::Pending`] entry per
    /// non-blank line, until the returned [`Typing`] is settled or dropped.
    pub fn begin(&self, pane: PaneId, text: &str) -> Typing<'_> {
        let lines = self
            .0
            .lock()
            .map_or_else(|_| Vec::new(), |mut memory| memory.add(pane, text));
        Typing {
            memory: self,
            pane,
            lines,
        }
    }

    /// Sets the echo of `lines` (numbers) in `pane`, the index's verdict from `echo`.
    fn set_echo(&self, pane: PaneId, lines: &[(u64, String)], echo: impl Fn(usize) -> Echo) {
        let Ok(mut memory) = self.0.lock() else {
            return;
        };
        let Some(kept) = memory.panes.get_mut(&pane) else {
            return;
        };
        for (index, (number, _)) in lines.iter().enumerate() {
            if let Some(line) = kept.iter_mut().find(|line| line.number == *number) {
                line.echo = echo(index);
            }
        }
    }

    /// The lines typed into `pane` within [`OWN_INPUT_MEMORY`], oldest first.
    pub fn recent(&self, pane: PaneId) -> Vec<TypedLine> {
        let Ok(memory) = self.0.lock() else {
            return Vec::new();
        };
        memory.panes.get(&pane).map_or_else(Vec::new, |lines| {
            lines
                .iter()
                .filter(|l| l.at.elapsed() < OWN_INPUT_MEMORY)
                .cloned()
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_remembered_per_pane_numbered_and_bounded() {
        let own = OwnInput::default();
        own.begin(PaneId(1), "echo one  \n\n  \ncat\r").settle(&[true, true]);
        own.begin(PaneId(2), "echo one\ncat").settle(&[true, true]);
        let one = own.recent(PaneId(1));
        let texts: Vec<&str> = one.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["echo one", "cat"]);
        assert!(one[0].number < one[1].number);
        assert_eq!(own.recent(PaneId(2)).len(), 2);
        assert!(own.recent(PaneId(3)).is_empty());
        for i in 0..100 {
            drop(own.begin(PaneId(1), &format!("line {i}")));
        }
        let kept = own.recent(PaneId(1));
        assert_eq!(kept.len(), OWN_INPUT_MAX_LINES);
        assert_eq!(kept.last().unwrap().text, "line 99");
        drop(own.begin(PaneId(1), &"x".repeat(OWN_INPUT_MAX_BYTES + 1)));
        assert_eq!(own.recent(PaneId(1)).last().unwrap().text, "line 99");
        for pane in 10..(10 + OWN_INPUT_MAX_PANES as u32 + 5) {
            drop(own.begin(PaneId(pane), "x"));
        }
        assert!(
            own.recent(PaneId(1)).is_empty(),
            "the pane typed into longest ago is forgotten"
        );
    }

    #[test]
    fn a_line_is_pending_until_its_look_settles_it_and_not_shown_if_none_does() {
        let own = OwnInput::default();
        let typing = own.begin(PaneId(1), "shown\nhidden");
        assert!(own.recent(PaneId(1)).iter().all(|l| l.echo == Echo::Pending));
        typing.settle(&[true, false]);
        let echoes: Vec<Echo> = own.recent(PaneId(1)).iter().map(|l| l.echo).collect();
        assert!(matches!(echoes[..], [Echo::Shown(_), Echo::NotShown]), "{echoes:?}");
        // A typing that failed or was cancelled before its look proves no echo.
        drop(own.begin(PaneId(2), "lost"));
        assert_eq!(own.recent(PaneId(2))[0].echo, Echo::NotShown);
    }
}
