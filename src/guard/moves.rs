//! The one way to move a pane or a window: `join-pane`, `break-pane`, `move-window`.
//!
//! A move can close things: joining a window's last pane elsewhere closes that window
//! (and its session, if it was the session's last window), and moving a session's last
//! window to another session closes that session. No program ends (it moves along), but
//! a person looking at the closed window or session is switched away or detached.
//! When what would close holds the caller pane (the pane paneward runs in), the move is
//! refused, with no override: paneward does not pull its own window or session out
//! from under the person beside it. Other closings are allowed and reported by the
//! tools, which read what is left after the move in the same round trip.
//!
//! As in `guard::end`, the check and the move are one tmux command list, decided inside
//! tmux by `if-shell -F` with a condition built only from ids, so nothing can move the
//! caller pane in between.

use crate::guard::gate::{ChangeCommand, ChangeGate};
use crate::runtime::error::ToolError;
use crate::tmux::{Command, PaneId, ReadCommand, SessionId, WindowId};

/// Where a joined pane goes, beside the target window's active pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Below,
    Above,
    Right,
    Left,
}

/// A move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Move {
    /// `join-pane -d`: `pane` into `into`, split from that window's active pane, taking
    /// `percent` of it (tmux's default half when `None`).
    JoinPane {
        pane: PaneId,
        into: WindowId,
        side: Side,
        percent: Option<u32>,
    },
    /// `break-pane -d`: `pane` out into a new window of its session.
    BreakPane { pane: PaneId },
    /// `move-window -d`: `window` into `session` at `index`, or its next free index.
    MoveWindow {
        window: WindowId,
        session: SessionId,
        index: Option<u32>,
    },
}

impl Move {
    fn command(&self) -> Command {
        match self {
            Self::JoinPane {
                pane,
                into,
                side,
                percent,
            } => {
                let mut command = Command::new("join-pane").arg("-d");
                command = match side {
                    Side::Below => command.arg("-v"),
                    Side::Above => command.arg("-v").arg("-b"),
                    Side::Right => command.arg("-h"),
                    Side::Left => command.arg("-h").arg("-b"),
                };
                if let Some(percent) = percent {
                    command = command.arg("-l").arg(format!("{percent}%"));
                }
                command.arg("-s").arg(pane.to_string()).arg("-t").arg(into.to_string())
            }
            Self::BreakPane { pane } => Command::new("break-pane").arg("-d").arg("-s").arg(pane.to_string()),
            Self::MoveWindow { window, session, index } => Command::new("move-window")
                .arg("-d")
                .arg("-s")
                .arg(window.to_string())
                .arg("-t")
                .arg(match index {
                    Some(index) => format!("{session}:{index}"),
                    None => format!("{session}:"),
                }),
        }
    }

    /// The tmux format, expanded with the caller pane as target, that is `1` when this
    /// move would close the caller's window or session. Only parsed ids go into it.
    fn closes_callers_place(&self) -> String {
        match self {
            // The window closes only if the pane is its last: then the pane is the caller.
            Self::JoinPane { pane, .. } => format!("#{{&&:#{{==:#{{pane_id}},{pane}}},#{{==:#{{window_panes}},1}}}}"),
            // A lone pane broken out keeps its window (tmux moves the window instead).
            Self::BreakPane { .. } => "0".into(),
            // The source session closes if this was its last window and it goes elsewhere.
            Self::MoveWindow { window, session, .. } => format!(
                "#{{&&:#{{==:#{{window_id}},{window}}},#{{&&:#{{==:#{{session_windows}},1}},#{{!=:#{{session_id}},{session}}}}}}}"
            ),
        }
    }

    fn refusal(&self, caller: PaneId) -> ToolError {
        let what = match self {
            Self::JoinPane { pane, .. } => format!("moving pane {pane} would close its window"),
            Self::BreakPane { pane, .. } => format!("breaking out pane {pane} would close its window"),
            Self::MoveWindow { window, .. } => format!("moving window {window} would close its session"),
        };
        ToolError::blocked(format!(
            "refused: {what}, which holds pane {caller}, the pane paneward itself runs in; paneward never closes its own window or session (no option overrides this); nothing moved"
        ))
    }
}

/// The marker printed by the refusing branch; paneward's own constant, never caller text.
const REFUSED: &str = "paneward-move-refused";

/// The outputs of a move's round trip.
#[derive(Debug)]
pub struct Moved {
    /// One output per read sent before the move.
    pub before: Vec<Vec<u8>>,
    /// One output per read sent after the move.
    pub after: Vec<Vec<u8>>,
}

impl ChangeGate<'_> {
    /// Runs `before`, the move, then `after` in one round trip, unless the move would
    /// close the window or session that holds the caller pane.
    ///
    /// # Errors
    /// A refusal naming the caller pane, or tmux's failure (a missing target is
    /// `NotFound`).
    pub async fn move_sparing_caller(
        &self,
        moving: &Move,
        before: &[ReadCommand],
        after: &[ReadCommand],
    ) -> Result<Moved, ToolError> {
        let caller = self.state().caller.as_ref();
        let command = match caller {
            // paneward does not run inside tmux: nothing of it can be closed.
            None => moving.command(),
            Some(caller) => caller.guard(&moving.closes_callers_place(), REFUSED, &[moving.command()], false),
        };
        let mut commands: Vec<ChangeCommand> = before.iter().cloned().map(ChangeCommand::from).collect();
        commands.push(ChangeCommand::guarded(command));
        commands.extend(after.iter().cloned().map(ChangeCommand::from));
        let mut outputs = self.change_all(&commands).await?;
        if outputs.len() != commands.len() {
            return Err(ToolError::internal("a move came back with another number of outputs"));
        }
        let after = outputs.split_off(before.len() + 1);
        let printed = outputs.pop().unwrap_or_default();
        if let Some(caller) = caller {
            if String::from_utf8_lossy(&printed).trim() == REFUSED {
                return Err(moving.refusal(caller.pane));
            }
        }
        Ok(Moved { before: outputs, after })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_built_from_ids_with_focus_left_alone() {
        let join = Move::JoinPane {
            pane: PaneId(3),
            into: WindowId(2),
            side: Side::Left,
            percent: Some(30),
        };
        assert_eq!(join.command().summary(), "join-pane -d -h -b -l 30% -s %3 -t @2");
        let to_window = Move::MoveWindow {
            window: WindowId(4),
            session: SessionId(1),
            index: None,
        };
        assert_eq!(to_window.command().summary(), "move-window -d -s @4 -t $1:");
        assert_eq!(
            to_window.closes_callers_place(),
            "#{&&:#{==:#{window_id},@4},#{&&:#{==:#{session_windows},1},#{!=:#{session_id},$1}}}"
        );
    }
}
