//! `create_window`: a window at a free index, or beside the session's current one.

use crate::generated::types::{CreateWindowInput, CreateWindowOutput};
use crate::guard::owner::OwnedMark;
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb};
use crate::limits::CREATE_ATTEMPTS;
use crate::runtime::error::ToolError;
use crate::tmux::format::{literal, parse_one, record_format};
use crate::tmux::{ReadCommand, ReadVerb, SessionId, TmuxError};
use crate::tools::args;
use crate::tools::workspace::rename::{check_name, stored_as_written};
use crate::tools::workspace::scrollback;

use super::{created_anyway, waited_ready, Spawn, NEW_WINDOW};

/// A number `display-message` prints for `session` (`#{base-index}`, the current
/// window's `#{window_index}`), checked to be that session's: display-message falls
/// back to another session when the target is missing.
fn session_number(session: SessionId, printed: &[u8], what: &str) -> Result<u32, ToolError> {
    let printed = String::from_utf8_lossy(printed);
    match printed.trim().split_once(' ') {
        Some((id, number)) if id == session.to_string() => number
            .parse()
            .map_err(|_| ToolError::internal(format!("tmux printed no {what}"))),
        _ => Err(TmuxError::ObjectGone {
            message: format!("can't find session: {session}"),
        }
        .into()),
    }
}

fn display_for(session: SessionId, variable: &str) -> ReadCommand {
    ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-p")
        .arg("-t")
        .arg(session.to_string())
        .arg(format!("#{{session_id}} #{{{variable}}}"))
}

/// The lowest window index at or above `base-index` that no window of `session` uses:
/// where tmux itself would put a new window.
async fn free_index(gate: &ChangeGate<'_>, session: SessionId) -> Result<u32, ToolError> {
    let used = ReadCommand::new(ReadVerb::ListWindows)
        .arg("-t")
        .arg(session.to_string())
        .arg("-F")
        .arg("#{window_index}");
    let [base, used] = gate.run_each([display_for(session, "base-index"), used]).await?;
    let base = session_number(session, &base, "base-index")?;
    let used: Vec<u32> = String::from_utf8_lossy(&used)
        .lines()
        .filter_map(|line| line.trim().parse().ok())
        .collect();
    let mut index = base;
    while used.contains(&index) {
        index = index.saturating_add(1);
    }
    Ok(index)
}

/// The index of `session`'s current window.
async fn current_index(gate: &ChangeGate<'_>, session: SessionId) -> Result<u32, ToolError> {
    let [printed] = gate.run_each([display_for(session, "window_index")]).await?;
    session_number(session, &printed, "window index")
}

/// Creates a window at a free index (or the caller's), marks it and its pane there,
/// in one tmux step.
///
/// # Errors
/// Bad arguments, a missing session, a taken index, or tmux failing.
pub async fn create_window(gate: &ChangeGate<'_>, input: CreateWindowInput) -> Result<CreateWindowOutput, ToolError> {
    create_window_placed(gate, input, Placement::Index).await
}

/// Where a new window goes among its session's windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The index the input gives, or the lowest free one.
    Index,
    /// Just before the session's current window, which moves up one with the windows
    /// after it (tmux's `new-window -b`).
    BeforeCurrent,
    /// Just after the session's current window, moving later windows up one where the
    /// next index is taken (tmux's `new-window -a`).
    AfterCurrent,
}

/// [`create_window`] with the new window placed as `placement` says.
///
/// # Errors
/// As [`create_window`]; an index together with a placement beside the current window.
pub async fn create_window_placed(
    gate: &ChangeGate<'_>,
    input: CreateWindowInput,
    placement: Placement,
) -> Result<CreateWindowOutput, ToolError> {
    let CreateWindowInput {
        session_id,
        name,
        start_directory,
        command,
        shell,
        environment,
        index,
        select,
        history_limit,
        wait_ready,
    } = input;
    let session = args::session_id("/session_id", &session_id)?;
    let history_limit = scrollback::checked(history_limit)?;
    let name = name.map(|n| n.to_string());
    if let Some(name) = &name {
        check_name("/name", name)?;
    }
    let spawn = Spawn::new(gate.state(), start_directory, command, shell, environment)?;
    let asked_index = index.map(|i| u32::try_from(i).unwrap_or(u32::MAX));
    if asked_index.is_some() && placement != Placement::Index {
        return Err(ToolError::invalid_argument(
            "/index",
            "give an index or a place beside the current window, not both; nothing was created",
        ));
    }
    let session_target = session.to_string();
    let previous_limit = match history_limit {
        Some(_) => scrollback::own_value(gate, session).await?,
        None => None,
    };
    let mut attempt = 0;
    loop {
        attempt += 1;
        // The window tmux is told to place the new one at or beside, and the handle the
        // new window has once placed (which the marks in the same step name).
        let (index, flag, handle) = match (placement, asked_index) {
            (Placement::Index, Some(index)) => (index, None, format!("{session}:{index}")),
            (Placement::Index, None) => {
                let index = free_index(gate, session).await?;
                (index, None, format!("{session}:{index}"))
            }
            (Placement::BeforeCurrent, _) => {
                let index = current_index(gate, session).await?;
                (index, Some("-b"), format!("{session}:{index}"))
            }
            (Placement::AfterCurrent, _) => {
                let index = current_index(gate, session).await?;
                (index, Some("-a"), format!("{session}:{}", index.saturating_add(1)))
            }
        };
        let mut create = ChangeCommand::new(ChangeVerb::NewWindow);
        if !select.unwrap_or(false) {
            create = create.arg("-d");
        }
        if let Some(flag) = flag {
            create = create.arg(flag);
        }
        create = create.arg("-t").arg(format!("{session}:{index}"));
        if let Some(name) = &name {
            create = create.arg("-n").arg(literal(name));
        }
        create = create.arg("-P").arg("-F").arg(record_format(&NEW_WINDOW));
        let create = spawn.apply(create);
        let mut commands = Vec::new();
        if let Some(lines) = history_limit {
            commands.push(scrollback::set(&session_target, lines));
        }
        let created_at = commands.len();
        commands.push(create);
        if history_limit.is_some() {
            commands.push(scrollback::restore(&session_target, previous_limit.as_deref()));
        }
        commands.extend([OwnedMark::Window.mark(&handle), OwnedMark::Pane.mark(&handle)]);
        let result = gate.change_all(&commands).await;
        if result.is_err() && history_limit.is_some() {
            scrollback::restore_after_failure(gate, &session_target, previous_limit.as_deref()).await;
        }
        match result {
            Ok(outputs) => {
                let created =
                    String::from_utf8_lossy(outputs.get(created_at).map_or(&[][..], |o| o.as_slice())).into_owned();
                let record = parse_one("new-window", &NEW_WINDOW, &created)?;
                if let Some(name) = &name {
                    stored_as_written("window name", name, record.text("window_name")?)
                        .map_err(|e| created_anyway(e, record.text("window_id").unwrap_or_default()))?;
                }
                let pane_id = record.text("pane_id")?.to_string();
                let (ready, not_ready_reason) = waited_ready(gate, &spawn, wait_ready, &pane_id).await?;
                return Ok(CreateWindowOutput {
                    window_id: record.text("window_id")?.to_string(),
                    index: record.int("window_index")?,
                    name: record.text("window_name")?.to_string(),
                    pane_id,
                    width: record.int("window_width")?,
                    height: record.int("window_height")?,
                    history_limit: record.int("history_limit")?,
                    ready,
                    not_ready_reason,
                });
            }
            Err(error) if error.is_index_in_use() && asked_index.is_some() => {
                return Err(ToolError::invalid_argument(
                    "/index",
                    format!("session {session} already has a window at index {index}; nothing was created"),
                ))
            }
            // Another client took the index paneward chose: choose again.
            Err(error) if error.is_index_in_use() && attempt < CREATE_ATTEMPTS => {}
            Err(error) => return Err(error.into()),
        }
    }
}
