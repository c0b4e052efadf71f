//! `command_history`: the commands a pane's shell marked with OSC 133, whoever ran
//! them, from the recording `pipe_pane` writes (escape sequences included), whose file
//! paneward notes on the pane (`marks::RECORDING_OPTION`).
//!
//! tmux 3.3a drops OSC 133 as it parses a pane's output (its OSC handler knows titles,
//! colours and the clipboard; prompt marks in the grid came with tmux 3.4), and
//! paneward's control client carries no `%output`: a recording of the pane's own bytes
//! is the one place the marks survive. Only the newest [`HISTORY_READ_MAX_BYTES`] of
//! the file are read. With no recording, or no marks in it, the answer is
//! `marks: absent` and why; a prompt is never taken for a mark.

use std::io::{Read, Seek, SeekFrom};

use crate::generated::types::{
    CommandHistoryInput, CommandHistoryOutput, CommandHistoryOutputCommandsItem as Command,
    CommandHistoryOutputMarks as Marks,
};
use crate::guard::ReadGate;
use crate::limits::{HISTORY_DEFAULT_COMMANDS, HISTORY_DEFAULT_LINES, HISTORY_READ_MAX_BYTES};
use crate::runtime::error::ToolError;
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::args;
use crate::tools::observe::marks::{commands, RECORDING_OPTION};

/// The newest [`HISTORY_READ_MAX_BYTES`] of `path`.
fn read_tail(path: &str) -> std::io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let length = file.metadata()?.len();
    file.seek(SeekFrom::Start(length.saturating_sub(HISTORY_READ_MAX_BYTES)))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn absent(pane: String, why: String) -> CommandHistoryOutput {
    CommandHistoryOutput {
        pane_id: pane,
        marks: Marks::Absent,
        commands: Vec::new(),
        total: 0,
        why: Some(why),
    }
}

/// `command_history`: see `schemas/tools/command_history.json`.
///
/// # Errors
/// A bad pane id, a missing pane, or tmux failing.
pub async fn command_history(
    gate: &ReadGate<'_>,
    input: CommandHistoryInput,
) -> Result<CommandHistoryOutput, ToolError> {
    let CommandHistoryInput {
        pane_id,
        last,
        max_lines,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let last = last.map_or(HISTORY_DEFAULT_COMMANDS, |n| {
        usize::try_from(n.get()).unwrap_or(usize::MAX)
    });
    let max_lines = max_lines.map_or(HISTORY_DEFAULT_LINES, |n| {
        usize::try_from(n.get()).unwrap_or(usize::MAX)
    });
    // list-panes, not `show-options -q`: tmux 3.3a answers the latter with nothing, and no
    // error, for a pane that does not exist. The format is paneward's own, never the caller's.
    let read = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-t")
        .arg(pane.to_string())
        .arg("-F")
        .arg(format!("#{{pane_id}} #{{{RECORDING_OPTION}}}"));
    let id = pane.to_string();
    let listing = String::from_utf8_lossy(&gate.run(read).await?).into_owned();
    let path = listing
        .lines()
        .find_map(|line| line.strip_prefix(id.as_str())?.strip_prefix(' '))
        .unwrap_or_default()
        .trim()
        .to_string();
    if path.is_empty() {
        return Ok(absent(
            id,
            format!(
                "no recording of {pane}: tmux 3.3a keeps no OSC 133 marks, so paneward reads them from a pipe_pane \
                 recording; start pipe_pane on {pane}, and set its shell up to print the marks"
            ),
        ));
    }
    if gate.state().settings.ssh_host.is_some() {
        return Ok(absent(
            id,
            "the recording is on tmux's host (--ssh), which paneward does not read".into(),
        ));
    }
    let bytes = match read_tail(&path) {
        Ok(bytes) => bytes,
        Err(error) => {
            return Ok(absent(
                id,
                format!("the recording of {pane} cannot be read here: {error}"),
            ))
        }
    };
    let (found, marked) = commands(&bytes);
    if !marked {
        return Ok(absent(
            id,
            format!(
                "the recording of {pane} holds no OSC 133 marks: its shell does not print them (see \
                 docs/running-commands.md for bash, zsh and fish), or nothing ran since the recording began"
            ),
        ));
    }
    let total = found.len();
    let commands = found
        .into_iter()
        .skip(total.saturating_sub(last))
        .map(|marked| {
            let cut = marked.output.len().saturating_sub(max_lines);
            Command {
                command: marked.command,
                output: marked.output[cut..].to_vec(),
                output_truncated: cut > 0,
                exit_status: marked.exit_status,
                finished: marked.finished,
            }
        })
        .collect();
    Ok(CommandHistoryOutput {
        pane_id: id,
        marks: Marks::Present,
        commands,
        total: i64::try_from(total).unwrap_or(i64::MAX),
        why: None,
    })
}
