//! Whether a pane's program is waiting for input: blocked reading its terminal
//! (`tmux::foreground`), where that can be told. It is positive evidence only: tmux
//! on another host (`--ssh`), or any process this machine cannot read, is
//! [`TerminalRead::Unknown`], and a caller that needs the evidence to act does not act.

use crate::guard::ReadGate;
use crate::tmux::foreground::{self, TerminalRead};
use crate::tmux::format::{parse_one, Record};
use crate::tmux::input_wait::{input_wait, Groups, InputWait};
use crate::tmux::{PaneId, ReadCommand, ReadVerb, TmuxError};

const FIELDS: [&str; 2] = ["pane_pid", "pane_tty"];

/// Why the kernel cannot be asked about tmux's panes from here, if it cannot.
pub fn cannot_ask_kernel(gate: &ReadGate<'_>) -> Option<&'static str> {
    if gate.state().backend.tmux().is_remote() {
        Some("tmux runs on another host, whose processes cannot be read from here")
    } else if !cfg!(target_os = "linux") {
        Some("only Linux's /proc shows it")
    } else {
        None
    }
}

/// What `pane`'s foreground program is doing with its terminal.
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn terminal_read(gate: &ReadGate<'_>, pane: PaneId) -> Result<TerminalRead, TmuxError> {
    if let Some(why) = cannot_ask_kernel(gate) {
        return Ok(TerminalRead::Unknown(why.into()));
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

/// A pane's first process and its terminal as tmux lists them (`pane_pid`, `pane_tty`,
/// `pane_dead`), for [`input_waits`]: a dead pane's pid is no process of it, so its
/// terminal is left empty, and an empty terminal is never looked at.
///
/// # Errors
/// The record lacks one of those fields, or tmux garbled one.
pub fn listed_process<'a>(record: &Record<'a>) -> Result<(u32, &'a str), TmuxError> {
    let pid = u32::try_from(record.count("pane_pid")?).unwrap_or(0);
    let tty = if record.flag("pane_dead")? {
        ""
    } else {
        record.text("pane_tty")?
    };
    Ok((pid, tty))
}

/// Whether each of `panes` (its first process's pid and its terminal, as tmux lists
/// them) waits for input: one look at `/proc` per pane, no tmux round trip.
pub fn input_waits(gate: &ReadGate<'_>, panes: &[(u32, &str)]) -> Vec<InputWait> {
    if let Some(why) = cannot_ask_kernel(gate) {
        return panes.iter().map(|_| InputWait::Unknown(why.into())).collect();
    }
    let mut groups = Groups::default();
    panes
        .iter()
        .map(|(pid, tty)| {
            if tty.is_empty() {
                InputWait::Unknown("the pane has no terminal".into())
            } else {
                input_wait(*pid, std::path::Path::new(tty), &mut groups)
            }
        })
        .collect()
}

/// Whether `pane`'s foreground program waits for input (one `display-message` for its
/// pid and terminal, then `/proc`).
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn pane_input_wait(gate: &ReadGate<'_>, pane: PaneId) -> Result<InputWait, TmuxError> {
    const PROCESS: [&str; 3] = ["pane_pid", "pane_tty", "pane_dead"];
    let output = gate
        .run(
            ReadCommand::new(ReadVerb::DisplayMessage)
                .arg("-t")
                .arg(pane.to_string())
                .arg(crate::tmux::format::record_format(&PROCESS)),
        )
        .await?;
    let output = String::from_utf8_lossy(&output);
    let record = parse_one("display-message", &PROCESS, &output)?;
    Ok(input_waits(gate, &[listed_process(&record)?])
        .pop()
        .unwrap_or(InputWait::Unknown("nothing was read".into())))
}
