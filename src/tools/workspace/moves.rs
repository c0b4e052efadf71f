//! `move_window` and `move_pane`: moves through `guard::moves`, which refuses to close
//! the window or session holding the caller pane. Each reply says where the object was
//! (to undo) and what the move closed, read in the same command list as the move.

use crate::generated::types::{MovePaneInput, MovePaneInputSide, MovePaneOutput, MoveWindowInput, MoveWindowOutput};
use crate::guard::moves::{Move, Side};
use crate::guard::ChangeGate;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::Record;
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::args;
use crate::tools::workspace::readback::{display, parse, record_of, typed};

/// Every session id now, one a line.
fn session_ids() -> ReadCommand {
    ReadCommand::new(ReadVerb::ListSessions).arg("-F").arg("#{session_id}")
}

/// Every window id now, one a line.
fn window_ids() -> ReadCommand {
    ReadCommand::new(ReadVerb::ListWindows)
        .arg("-a")
        .arg("-F")
        .arg("#{window_id}")
}

/// Those of `ids` (window or session ids) that `listed` no longer holds.
fn gone(ids: &[&str], listed: &[&[u8]]) -> Vec<String> {
    let present: Vec<String> = listed
        .iter()
        .flat_map(|output| {
            String::from_utf8_lossy(output)
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    ids.iter()
        .filter(|id| !present.iter().any(|p| p == *id))
        .map(|id| (*id).to_string())
        .collect()
}

fn text(output: Option<&Vec<u8>>) -> Result<String, ToolError> {
    output
        .map(|o| String::from_utf8_lossy(o).into_owned())
        .ok_or_else(|| ToolError::internal("a move came back without its reads"))
}

fn index(record: &Record<'_>) -> Result<u64, ToolError> {
    u64::try_from(record.int("index")?).map_err(|_| ToolError::internal("a negative window index"))
}

/// A window's place.
const WINDOW_PLACE: [&str; 3] = ["#{window_id}", "#{session_id}", "#{window_index}"];
const WINDOW_PLACE_NAMES: [&str; 3] = ["id", "session", "index"];

/// Moves a window to another session and/or index.
///
/// # Errors
/// A refusal for the caller's session, an index in use, a missing window or session.
pub async fn move_window(gate: &ChangeGate<'_>, input: MoveWindowInput) -> Result<MoveWindowOutput, ToolError> {
    let MoveWindowInput {
        window_id,
        to_session_id,
        to_index,
    } = input;
    let window = args::window_id("/window_id", &window_id)?;
    let to_session = to_session_id
        .map(|s| args::session_id("/to_session_id", &s))
        .transpose()?;
    let to_index = to_index
        .map(|i| u32::try_from(i).map_err(|_| ToolError::invalid_argument("/to_index", "must be 0 or more")))
        .transpose()?;
    let format = record_of(&WINDOW_PLACE);
    let session = match to_session {
        Some(session) => session,
        None => {
            let read = gate.run(display(window, &format)).await?;
            let read = String::from_utf8_lossy(&read);
            parse(window, &WINDOW_PLACE_NAMES, &read)?
                .text("session")?
                .parse()
                .map_err(|_| ToolError::internal("tmux printed a session without a session id"))?
        }
    };
    let moving = Move::MoveWindow {
        window,
        session,
        index: to_index,
    };
    let moved = gate
        .move_sparing_caller(
            &moving,
            &[display(window, &format)],
            &[display(window, &format), session_ids()],
        )
        .await?;
    let before = text(moved.before.first())?;
    let before = parse(window, &WINDOW_PLACE_NAMES, &before)?;
    let after = text(moved.after.first())?;
    let after = parse(window, &WINDOW_PLACE_NAMES, &after)?;
    let sessions: Vec<&[u8]> = moved.after.iter().skip(1).map(Vec::as_slice).collect();
    let closed = gone(&[before.text("session")?], &sessions);
    Ok(MoveWindowOutput {
        window_id: typed(window)?,
        session_id: typed(after.text("session")?)?,
        index: index(&after)?,
        previous_session_id: typed(before.text("session")?)?,
        previous_index: index(&before)?,
        closed: closed.into_iter().map(typed).collect::<Result<_, _>>()?,
    })
}

/// A pane's place, and what its window looks like.
const PANE_PLACE: [&str; 5] = [
    "#{pane_id}",
    "#{window_id}",
    "#{session_id}",
    "#{window_panes}",
    "#{window_layout}",
];
const PANE_PLACE_NAMES: [&str; 5] = ["id", "window", "session", "panes", "layout"];

/// Joins a pane into another window, or breaks it out into a new one.
///
/// # Errors
/// A refusal for the caller's window, breaking out a pane that is already alone, a
/// missing pane or window, or tmux failing (no room for the pane).
pub async fn move_pane(gate: &ChangeGate<'_>, input: MovePaneInput) -> Result<MovePaneOutput, ToolError> {
    let MovePaneInput {
        pane_id,
        to_window_id,
        side,
        size_percent,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let format = record_of(&PANE_PLACE);
    let moving = match to_window_id {
        Some(into) => Move::JoinPane {
            pane,
            into: args::window_id("/to_window_id", &into)?,
            side: match side.unwrap_or(MovePaneInputSide::Below) {
                MovePaneInputSide::Below => Side::Below,
                MovePaneInputSide::Above => Side::Above,
                MovePaneInputSide::Right => Side::Right,
                MovePaneInputSide::Left => Side::Left,
            },
            percent: size_percent
                .map(|p| {
                    u32::try_from(u64::from(p))
                        .map_err(|_| ToolError::invalid_argument("/size_percent", "must be 1 to 99"))
                })
                .transpose()?,
        },
        None => {
            if side.is_some() || size_percent.is_some() {
                return Err(ToolError::invalid_argument(
                    "/to_window_id",
                    "side and size_percent place a pane joined into a window; give to_window_id",
                ));
            }
            let read = gate.run(display(pane, &format)).await?;
            let read = String::from_utf8_lossy(&read);
            let now = parse(pane, &PANE_PLACE_NAMES, &read)?;
            if now.int("panes")? == 1 {
                return Err(ToolError::new(
                    ToolErrorKind::Refused,
                    format!(
                        "pane {pane} is already the only pane of window {}; nothing to break out, nothing changed",
                        now.text("window")?
                    ),
                ));
            }
            Move::BreakPane { pane }
        }
    };
    let moved = gate
        .move_sparing_caller(
            &moving,
            &[display(pane, &format)],
            &[display(pane, &format), window_ids(), session_ids()],
        )
        .await?;
    let before = text(moved.before.first())?;
    let before = parse(pane, &PANE_PLACE_NAMES, &before)?;
    let after = text(moved.after.first())?;
    let after = parse(pane, &PANE_PLACE_NAMES, &after)?;
    let listed: Vec<&[u8]> = moved.after.iter().skip(1).map(Vec::as_slice).collect();
    let closed = gone(&[before.text("window")?, before.text("session")?], &listed);
    Ok(MovePaneOutput {
        pane_id: typed(pane)?,
        window_id: typed(after.text("window")?)?,
        previous_window_id: typed(before.text("window")?)?,
        previous_layout: typed(before.text("layout")?)?,
        closed: closed.into_iter().map(typed).collect::<Result<_, _>>()?,
    })
}
