//! `split_window`: a pane beside another, placed and marked in one tmux step that runs
//! only if the pane split is still where paneward read it.

use crate::generated::types::{SplitWindowInput, SplitWindowInputDirection, SplitWindowOutput};
use crate::guard::owner::OwnedMark;
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb};
use crate::limits::CREATE_ATTEMPTS;
use crate::runtime::error::ToolError;
use crate::tmux::format::{parse_one, record_format};
use crate::tmux::{ReadCommand, ReadVerb, SessionId, TmuxError};
use crate::tools::args;
use crate::tools::workspace::scrollback;

use super::{int, waited_ready, Spawn, NEW_PANE, PLACE};

/// Splits a pane and marks the new one, in one tmux step that runs only if the pane is
/// still where paneward read it.
///
/// # Errors
/// Bad arguments, a missing pane, no room, or tmux failing.
pub async fn split_window(gate: &ChangeGate<'_>, input: SplitWindowInput) -> Result<SplitWindowOutput, ToolError> {
    let SplitWindowInput {
        pane_id,
        direction,
        size_cells,
        size_percent,
        start_directory,
        command,
        shell,
        environment,
        select,
        history_limit,
        wait_ready,
    } = input;
    let target = args::pane_id("/pane_id", &pane_id)?;
    let history_limit = scrollback::checked(history_limit)?;
    let (flag, before) = match direction.unwrap_or(SplitWindowInputDirection::Below) {
        SplitWindowInputDirection::Below => ("-v", false),
        SplitWindowInputDirection::Above => ("-v", true),
        SplitWindowInputDirection::Right => ("-h", false),
        SplitWindowInputDirection::Left => ("-h", true),
    };
    let size = match (size_cells, size_percent) {
        (Some(_), Some(_)) => {
            return Err(ToolError::invalid_argument(
                "/size_percent",
                "give size_cells or size_percent, not both",
            ))
        }
        (Some(cells), None) => Some(cells.to_string()),
        (None, Some(percent)) => Some(format!("{percent}%")),
        (None, None) => None,
    };
    let spawn = Spawn::new(gate.state(), start_directory, command, shell, environment)?;
    for _ in 0..CREATE_ATTEMPTS {
        let place = ReadCommand::new(ReadVerb::DisplayMessage)
            .arg("-p")
            .arg("-t")
            .arg(target.to_string())
            .arg(record_format(&PLACE));
        let place = String::from_utf8_lossy(&gate.run(place).await?).into_owned();
        let record = parse_one("display-message", &PLACE, &place)?;
        // display-message falls back to another pane when the target is missing.
        if record.text("pane_id")? != target.to_string() {
            return Err(TmuxError::ObjectGone {
                message: format!("can't find pane: {target}"),
            }
            .into());
        }
        let window: crate::tmux::WindowId = crate::tools::observe::objects::checked(record.text("window_id")?)?;
        let index = int(record.int("pane_index")?)?;
        let zoomed = record.flag("window_zoomed_flag")?;
        let session: SessionId = crate::tools::observe::objects::checked(record.text("session_id")?)?;
        let previous_limit = match history_limit {
            Some(_) => scrollback::own_value(gate, session).await?,
            None => None,
        };
        // tmux puts the new pane right after the pane split, or right before it.
        let new_index = if before { index } else { index + 1 };
        let mut split = ChangeCommand::new(ChangeVerb::SplitWindow);
        if !select.unwrap_or(false) {
            split = split.arg("-d");
        }
        split = split.arg("-t").arg(target.to_string()).arg(flag);
        if before {
            split = split.arg("-b");
        }
        if let Some(size) = &size {
            split = split.arg("-l").arg(size.as_str());
        }
        if zoomed {
            // tmux unzooms a window to split it; -Z zooms it again afterwards (on the
            // active pane: the one zoomed before, unless `select`). Without zoom, -Z
            // would zoom the window, so it is given only to a zoomed one.
            split = split.arg("-Z");
        }
        split = split.arg("-P").arg("-F").arg(record_format(&NEW_PANE));
        let split = spawn.apply(split);
        let marked = OwnedMark::Pane.mark(&format!("{window}.{new_index}"));
        // The split takes its scrollback from the session the pane's target resolves to,
        // the one read above: the limit is set there and put back around it.
        let session_target = session.to_string();
        let commands = match history_limit {
            None => vec![split, marked],
            Some(lines) => vec![
                scrollback::set(&session_target, lines),
                split,
                scrollback::restore(&session_target, previous_limit.as_deref()),
                marked,
            ],
        };
        let result = gate.change_if_pane_at(target, (window, index, zoomed), &commands).await;
        if result.is_err() && history_limit.is_some() {
            scrollback::restore_after_failure(gate, &session_target, previous_limit.as_deref()).await;
        }
        let Some(output) = result? else {
            continue;
        };
        let output = String::from_utf8_lossy(&output).into_owned();
        let record = parse_one("split-window", &NEW_PANE, &output)?;
        let pane_id = record.text("pane_id")?.to_string();
        let (ready, not_ready_reason) = waited_ready(gate, &spawn, wait_ready, &pane_id).await?;
        return Ok(SplitWindowOutput {
            pane_id,
            split_pane_id: target.to_string(),
            window_id: record.text("window_id")?.to_string(),
            width: record.int("pane_width")?,
            height: record.int("pane_height")?,
            history_limit: record.int("history_limit")?,
            ready,
            not_ready_reason,
        });
    }
    Err(ToolError::new(
        crate::runtime::error::ToolErrorKind::Refused,
        format!("pane {target} kept moving while paneward split it ({CREATE_ATTEMPTS} attempts); nothing was created"),
    ))
}
