//! Setting a window's zoom without toggling it. tmux has only a toggle
//! (`resize-pane -Z`), so a retried "zoom" would undo itself; here each toggle runs only
//! if tmux, in the same command list, finds the window in the other state. The
//! conditions are built from constants only and the branch is one fixed command.

use crate::guard::gate::{ChangeCommand, ChangeGate};
use crate::tmux::script::command_line;
use crate::tmux::{Command, PaneId};

/// Runs `resize-pane -Z -t pane` when `condition`, expanded for `pane`, is true.
fn toggle_if(pane: PaneId, condition: &str) -> ChangeCommand {
    let toggle = Command::new("resize-pane").arg("-Z").arg("-t").arg(pane.to_string());
    ChangeCommand::guarded(
        Command::new("if-shell")
            .arg("-F")
            .arg("-t")
            .arg(pane.to_string())
            .arg(condition)
            .arg(command_line(&[toggle])),
    )
}

impl ChangeGate<'_> {
    /// The commands that leave `pane`'s window zoomed on `pane` (`zoom`) or not zoomed,
    /// whatever it was: to be sent in one list.
    pub fn set_zoom_commands(pane: PaneId, zoom: bool) -> Vec<ChangeCommand> {
        if zoom {
            vec![
                // Zoomed on another pane (the zoomed pane is always the active one):
                // unzoom first, so the next toggle zooms this pane.
                toggle_if(pane, "#{&&:#{window_zoomed_flag},#{?pane_active,0,1}}"),
                toggle_if(pane, "#{?window_zoomed_flag,0,1}"),
            ]
        } else {
            vec![toggle_if(pane, "#{window_zoomed_flag}")]
        }
    }
}
