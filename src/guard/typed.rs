//! What paneward itself typed into each pane in the last moments, so that a wait can
//! tell the echo of its own input from the pane's output (`tools::wait::echo`).
//!
//! Kept in this process's memory only, bounded in time ([`OWN_INPUT_MEMORY`]), lines
//! and bytes per pane, and panes; recorded by the cohort check after input arrived
//! (`guard::cohort`) and by the pastes of `tools::input::buffers`. Each line gets a
//! number, so a wait can count each typed line's echo once.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Instant;

use crate::limits::{OWN_INPUT_MAX_BYTES, OWN_INPUT_MAX_LINES, OWN_INPUT_MAX_PANES, OWN_INPUT_MEMORY};
use crate::tmux::PaneId;

/// One line paneward typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedLine {
    /// Unique in this process, increasing.
    pub number: u64,
    pub at: Instant,
    /// Without trailing blanks; never empty.
    pub text: String,
}

#[derive(Debug, Default)]
struct Memory {
    next: u64,
    panes: HashMap<PaneId, VecDeque<TypedLine>>,
}

/// The lines paneward typed, per pane.
#[derive(Debug, Default)]
pub struct OwnInput(Mutex<Memory>);

impl OwnInput {
    /// Remembers `text` as typed into each of `panes` now: one entry per non-blank line.
    pub fn remember(&self, panes: &[PaneId], text: &str) {
        let Ok(mut memory) = self.0.lock() else {
            return;
        };
        let now = Instant::now();
        for &pane in panes {
            for line in text.split(['\n', '\r']) {
                let line = line.trim_end();
                if line.trim().is_empty() || line.len() > OWN_INPUT_MAX_BYTES {
                    continue;
                }
                let number = memory.next;
                memory.next += 1;
                let lines = memory.panes.entry(pane).or_default();
                lines.push_back(TypedLine {
                    number,
                    at: now,
                    text: line.to_string(),
                });
                let mut bytes: usize = lines.iter().map(|l| l.text.len()).sum();
                while lines.len() > OWN_INPUT_MAX_LINES || bytes > OWN_INPUT_MAX_BYTES {
                    bytes -= lines.pop_front().map_or(0, |l| l.text.len());
                }
            }
        }
        // Forget the panes typed into longest ago (and every line too old).
        memory.panes.retain(|_, lines| {
            lines.retain(|l| now.duration_since(l.at) < OWN_INPUT_MEMORY);
            !lines.is_empty()
        });
        while memory.panes.len() > OWN_INPUT_MAX_PANES {
            let oldest = memory
                .panes
                .iter()
                .min_by_key(|(_, lines)| lines.back().map(|l| l.at))
                .map(|(pane, _)| *pane);
            match oldest {
                Some(pane) => memory.panes.remove(&pane),
                None => break,
            };
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
        own.remember(&[PaneId(1), PaneId(2)], "echo one  \n\n  \ncat\r");
        let one = own.recent(PaneId(1));
        let texts: Vec<&str> = one.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["echo one", "cat"]);
        assert!(one[0].number < one[1].number);
        assert_eq!(own.recent(PaneId(2)).len(), 2);
        assert!(own.recent(PaneId(3)).is_empty());
        for i in 0..100 {
            own.remember(&[PaneId(1)], &format!("line {i}"));
        }
        let kept = own.recent(PaneId(1));
        assert_eq!(kept.len(), OWN_INPUT_MAX_LINES);
        assert_eq!(kept.last().unwrap().text, "line 99");
        own.remember(&[PaneId(1)], &"x".repeat(OWN_INPUT_MAX_BYTES + 1));
        assert_eq!(own.recent(PaneId(1)).last().unwrap().text, "line 99");
        for pane in 10..(10 + OWN_INPUT_MAX_PANES as u32 + 5) {
            own.remember(&[PaneId(pane)], "x");
        }
        assert!(
            own.recent(PaneId(1)).is_empty(),
            "the pane typed into longest ago is forgotten"
        );
    }
}
