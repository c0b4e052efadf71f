//! Relative selection: the pane beside a window's active pane (up, down, left, right),
//! its previously active pane, the next or previous pane, and the same for a session's
//! windows. paneward works out which object a step names from one listing and then
//! selects it by id, so the selection passes the same checks as any other and tmux's
//! relative targets (which resolve against an attached client's window, and differ
//! between tmux versions) are never used.
//!
//! The geometry follows tmux's own rule for `select-pane -U/-D/-L/-R`: the panes whose
//! edge meets the active pane's across the one-cell border, overlapping it, wrapping at
//! the window's edge. Where several qualify tmux takes the most recently active, which
//! no format reveals beyond the previous pane; paneward takes the previous pane when it
//! qualifies and otherwise the lowest-indexed one.

use crate::guard::ReadGate;
use crate::runtime::error::ToolError;
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::{ReadCommand, ReadVerb, SessionId, WindowId};

/// A step from a window's active pane to another of its panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaneStep {
    Up,
    Down,
    Left,
    Right,
    /// The window's previously active pane.
    Last,
    /// The next pane by index, wrapping.
    Next,
    /// The previous pane by index, wrapping.
    Previous,
}

/// A step from a session's current window to another of its windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowStep {
    /// The next window by index, wrapping.
    Next,
    /// The previous window by index, wrapping.
    Previous,
    /// The session's previously current window.
    Last,
}

/// Where a pane sits in its window, in cells, and what tmux says of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub id: String,
    pub index: i64,
    pub left: i64,
    pub top: i64,
    pub width: i64,
    pub height: i64,
    pub active: bool,
    pub last: bool,
}

/// Where `pane-border-status` puts the pane titles: a top or bottom status line takes a
/// row from the window's edge, which moves where the wrap lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BorderStatus {
    Off,
    Top,
    Bottom,
}

/// A window's panes, its size and its border status, as one listing gave them.
#[derive(Debug, Clone)]
pub struct Window {
    pub panes: Vec<Placed>,
    pub width: i64,
    pub height: i64,
    pub border_status: BorderStatus,
}

const PANE_FIELDS: [&str; 11] = [
    "pane_id",
    "pane_index",
    "pane_left",
    "pane_top",
    "pane_width",
    "pane_height",
    "pane_active",
    "pane_last",
    "window_width",
    "window_height",
    "pane-border-status",
];

const WINDOW_FIELDS: [&str; 4] = ["window_id", "window_index", "window_active", "window_last_flag"];

impl Window {
    /// Lists `window`'s panes in one round trip.
    ///
    /// # Errors
    /// tmux failed (the window is gone), or its answer could not be read.
    pub async fn read(gate: &ReadGate<'_>, window: WindowId) -> Result<Self, ToolError> {
        let list = ReadCommand::new(ReadVerb::ListPanes)
            .arg("-t")
            .arg(window.to_string())
            .arg("-F")
            .arg(record_format(&PANE_FIELDS));
        let output = gate.run(list).await?;
        let text = String::from_utf8_lossy(&output);
        let records = parse_records("list-panes", &PANE_FIELDS, &text)?;
        let mut panes = Vec::with_capacity(records.len());
        let (mut width, mut height, mut border_status) = (0, 0, BorderStatus::Off);
        for record in &records {
            panes.push(Placed {
                id: record.text("pane_id")?.to_string(),
                index: record.int("pane_index")?,
                left: record.int("pane_left")?,
                top: record.int("pane_top")?,
                width: record.int("pane_width")?,
                height: record.int("pane_height")?,
                active: record.flag("pane_active")?,
                last: record.flag("pane_last")?,
            });
            width = record.int("window_width")?;
            height = record.int("window_height")?;
            border_status = match record.text("pane-border-status")? {
                "top" => BorderStatus::Top,
                "bottom" => BorderStatus::Bottom,
                _ => BorderStatus::Off,
            };
        }
        Ok(Self {
            panes,
            width,
            height,
            border_status,
        })
    }

    /// The pane `step` names from the active pane; `None` when there is none (a window
    /// of one pane, or no previous pane).
    pub fn step(&self, step: PaneStep) -> Option<&Placed> {
        let from = self.panes.iter().find(|pane| pane.active)?;
        match step {
            PaneStep::Last => self.panes.iter().find(|pane| pane.last),
            PaneStep::Next | PaneStep::Previous => {
                let mut by_index: Vec<&Placed> = self.panes.iter().collect();
                by_index.sort_by_key(|pane| pane.index);
                let at = by_index.iter().position(|pane| pane.id == from.id)?;
                let count = by_index.len();
                let to = if step == PaneStep::Next {
                    (at + 1) % count
                } else {
                    (at + count - 1) % count
                };
                Some(by_index[to]).filter(|pane| pane.id != from.id)
            }
            PaneStep::Up | PaneStep::Down | PaneStep::Left | PaneStep::Right => self.beside(from, step),
        }
    }

    /// The pane across `from`'s edge in a geometric `step`, wrapping at the window's edge.
    fn beside(&self, from: &Placed, step: PaneStep) -> Option<&Placed> {
        let vertical = matches!(step, PaneStep::Up | PaneStep::Down);
        // The line the neighbour's near edge must touch, past the border cell.
        let edge = match step {
            PaneStep::Up => match self.border_status {
                BorderStatus::Top if from.top == 1 => self.height + 1,
                BorderStatus::Bottom if from.top == 0 => self.height,
                BorderStatus::Off if from.top == 0 => self.height + 1,
                _ => from.top,
            },
            PaneStep::Down => {
                let below = from.top + from.height + 1;
                match self.border_status {
                    BorderStatus::Top if below >= self.height => 1,
                    BorderStatus::Bottom if below >= self.height - 1 => 0,
                    BorderStatus::Off if below >= self.height => 0,
                    _ => below,
                }
            }
            PaneStep::Left if from.left == 0 => self.width + 1,
            PaneStep::Left => from.left,
            _ => {
                let right = from.left + from.width + 1;
                if right >= self.width {
                    0
                } else {
                    right
                }
            }
        };
        let touches = |pane: &Placed| match step {
            PaneStep::Up => pane.top + pane.height + 1 == edge,
            PaneStep::Down => pane.top == edge,
            PaneStep::Left => pane.left + pane.width + 1 == edge,
            _ => pane.left == edge,
        };
        // The span along the edge that a neighbour must overlap.
        let (start, end) = if vertical {
            (from.left, from.left + from.width)
        } else {
            (from.top, from.top + from.height)
        };
        let overlaps = |pane: &Placed| {
            let (near, far) = if vertical {
                (pane.left, pane.left + pane.width - 1)
            } else {
                (pane.top, pane.top + pane.height - 1)
            };
            (near < start && far > end) || (start..=end).contains(&near) || (start..=end).contains(&far)
        };
        let mut found: Vec<&Placed> = self
            .panes
            .iter()
            .filter(|pane| pane.id != from.id && touches(pane) && overlaps(pane))
            .collect();
        found.sort_by_key(|pane| (!pane.last, pane.index));
        found.first().copied()
    }
}

/// The id of the window `step` names from `session`'s current window; `None` when
/// there is none (a session of one window, or no previous window).
///
/// # Errors
/// tmux failed (the session is gone), or its answer could not be read.
pub async fn window_step(
    gate: &ReadGate<'_>,
    session: SessionId,
    step: WindowStep,
) -> Result<Option<String>, ToolError> {
    let list = ReadCommand::new(ReadVerb::ListWindows)
        .arg("-t")
        .arg(session.to_string())
        .arg("-F")
        .arg(record_format(&WINDOW_FIELDS));
    let output = gate.run(list).await?;
    let text = String::from_utf8_lossy(&output);
    let mut windows = Vec::new();
    for record in parse_records("list-windows", &WINDOW_FIELDS, &text)? {
        windows.push((
            record.int("window_index")?,
            record.text("window_id")?.to_string(),
            record.flag("window_active")?,
            record.flag("window_last_flag")?,
        ));
    }
    windows.sort();
    let Some(at) = windows.iter().position(|(_, _, active, _)| *active) else {
        return Ok(None);
    };
    let count = windows.len();
    let to = match step {
        WindowStep::Last => return Ok(windows.into_iter().find(|w| w.3).map(|w| w.1)),
        WindowStep::Next => (at + 1) % count,
        WindowStep::Previous => (at + count - 1) % count,
    };
    // A session of one window has no other to step to.
    Ok((to != at).then(|| windows.swap_remove(to).1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(id: &str, index: i64, (left, top, width, height): (i64, i64, i64, i64)) -> Placed {
        Placed {
            id: id.into(),
            index,
            left,
            top,
            width,
            height,
            active: false,
            last: false,
        }
    }

    /// An 80x24 window: %1 on the left half, %2 top right, %3 bottom right.
    fn three() -> Window {
        let mut panes = vec![
            pane("%1", 0, (0, 0, 40, 24)),
            pane("%2", 1, (41, 0, 39, 12)),
            pane("%3", 2, (41, 13, 39, 11)),
        ];
        panes[0].active = true;
        Window {
            panes,
            width: 80,
            height: 24,
            border_status: BorderStatus::Off,
        }
    }

    fn with_active(mut window: Window, id: &str) -> Window {
        for pane in &mut window.panes {
            pane.active = pane.id == id;
        }
        window
    }

    fn stepped(window: &Window, step: PaneStep) -> Option<&str> {
        window.step(step).map(|pane| pane.id.as_str())
    }

    #[test]
    fn a_step_across_a_border_finds_the_pane_that_meets_it() {
        let window = with_active(three(), "%2");
        assert_eq!(stepped(&window, PaneStep::Down), Some("%3"));
        assert_eq!(stepped(&window, PaneStep::Left), Some("%1"));
        let window = with_active(three(), "%3");
        assert_eq!(stepped(&window, PaneStep::Up), Some("%2"));
    }

    #[test]
    fn a_step_off_the_window_wraps_to_the_far_side() {
        let window = with_active(three(), "%3");
        assert_eq!(stepped(&window, PaneStep::Down), Some("%2"));
        assert_eq!(stepped(&window, PaneStep::Right), Some("%1"));
        // %1 is alone in its column: up and down wrap onto itself, which is no step.
        let window = three();
        assert_eq!(stepped(&window, PaneStep::Up), None);
        assert_eq!(stepped(&window, PaneStep::Left), Some("%2"));
    }

    #[test]
    fn of_several_neighbours_the_previous_pane_wins_then_the_lowest_index() {
        let window = three();
        assert_eq!(stepped(&window, PaneStep::Right), Some("%2"));
        let mut window = three();
        window.panes[2].last = true;
        assert_eq!(stepped(&window, PaneStep::Right), Some("%3"));
    }

    #[test]
    fn last_next_and_previous_follow_tmux_flags_and_indexes() {
        let mut window = three();
        assert_eq!(stepped(&window, PaneStep::Last), None);
        window.panes[1].last = true;
        assert_eq!(stepped(&window, PaneStep::Last), Some("%2"));
        assert_eq!(stepped(&window, PaneStep::Next), Some("%2"));
        assert_eq!(stepped(&window, PaneStep::Previous), Some("%3"));
    }

    #[test]
    fn a_top_border_status_moves_the_wrap_by_its_row() {
        // With titles on top every pane starts a row lower.
        let mut panes = vec![pane("%1", 0, (0, 1, 80, 11)), pane("%2", 1, (0, 13, 80, 11))];
        panes[0].active = true;
        let window = Window {
            panes,
            width: 80,
            height: 24,
            border_status: BorderStatus::Top,
        };
        assert_eq!(stepped(&window, PaneStep::Up), Some("%2"));
        assert_eq!(stepped(&window, PaneStep::Down), Some("%2"));
    }
}
