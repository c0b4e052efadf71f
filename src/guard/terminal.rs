//! Whether a pane's program is waiting for input: blocked reading its terminal
//! (`tmux::foreground`), where that can be told. It is positive evidence only: tmux
//! on another host (`--ssh`), or any process this machine cannot read, is
//! [`TerminalRead::Unknown`], and a caller that needs the evidence to act does not act.

use crate::guard::ReadGate;
use crate::tmux::foreground::{self, TerminalRead};
use crate::tmux::format::parse_one;
use crate::tmux::{PaneId, ReadCommand, ReadVerb, TmuxError};

const FIELDS: [&str; 2] = ["pane_pid", "pane_tty"];

/// What `pane`'s foreground program is doing with its terminal.
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn terminal_read(gate: &ReadGate<'_>, pane: PaneId) -> Result<TerminalRead, TmuxError> {
    if gate.state().backend.tmux().is_remote() {
        return Ok(TerminalRead::Unknown(
            "tmux runs on another host, whose processes cannot be read from here".into(),
        ));
    }
    let output = gate
        .run(
            ReadCommand::new(ReadVerb::DisplayMessage)
                .arg("-t")
                .arg(pane.to_string())
                .arg(crate::tmux::format::record_format(&FIELDS)),
        )
        .await?;
    let output = String::from_utf8_lossy(&output);
    let record = parse_one("display-message", &FIELDS, &output)?;
    let Ok(pid) = u32::try_from(record.count("pane_pid")?) else {
        return Ok(TerminalRead::Unknown("the pane's pid is out of range".into()));
    };
    let tty = record.text("pane_tty")?;
    if tty.is_empty() {
        return Ok(TerminalRead::Unknown("the pane has no terminal".into()));
    }
    Ok(foreground::terminal_read(pid, std::path::Path::new(tty)))
}
