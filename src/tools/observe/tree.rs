//! The session → window → pane tree: the three lists, the three single-object tools
//! and `find_pane_by_position`, each one tmux round trip.
//!
//! Single objects are read with a command that fails for a missing id (`list-windows
//! -t $1`, `list-panes -t @2`) or, for a pane, checked against the id that comes back:
//! `display-message -t` prints empty values for a pane that does not exist.

use crate::generated::types::{
    Client, FindPaneByPositionInput, FindPaneByPositionInputPosition, FindPaneByPositionOutput,
    FindPaneByPositionOutputPosition, GetPaneInfoInput, GetPaneInfoOutput, GetPaneInfoOutputCursor,
    GetSessionInfoInput, GetSessionInfoOutput, GetWindowInfoInput, GetWindowInfoOutput, ListPanesInput,
    ListPanesInputDetail, ListPanesOutput, ListSessionsInput, ListSessionsInputDetail, ListSessionsOutput,
    ListWindowsInput, ListWindowsInputDetail, ListWindowsOutput, PaneGeometry, PaneRow,
};
use crate::guard::ReadGate;
use crate::runtime::error::{echo, ToolError, ToolErrorKind};
use crate::tmux::format::{parse_records, record_format, Record};
use crate::tmux::{ReadCommand, ReadVerb, TmuxError};
use crate::tools::args;
use crate::tools::observe::filter;
use crate::tools::observe::objects::{
    capped, fields, pane_from, session_from, terminal_clients, window_from, AttachedCount, CLIENT_FIELDS, PANE_FIELDS,
    PANE_ROW_FIELDS, SESSION_FIELDS, WINDOW_FIELDS,
};
use crate::tools::observe::pane_state::{describe_pane, exit_status, pane_record};
use crate::tools::observe::rows::{brief_pane_row, pane_row, session_row, window_row, Detail};

fn text(output: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(output)
}

fn list_clients(target: Option<&str>) -> ReadCommand {
    let command = ReadCommand::new(ReadVerb::ListClients);
    let command = match target {
        Some(session) => command.arg("-t").arg(session),
        None => command,
    };
    command.arg("-F").arg(record_format(&CLIENT_FIELDS))
}

fn read_clients(output: &[u8]) -> Result<Vec<Client>, ToolError> {
    let text = text(output);
    let records = parse_records("list-clients", &CLIENT_FIELDS, &text)?;
    terminal_clients(&records)
}

pub async fn list_sessions(gate: &ReadGate<'_>, input: ListSessionsInput) -> Result<ListSessionsOutput, ToolError> {
    let ListSessionsInput {
        attached,
        detail,
        name,
        path_under,
    } = input;
    let detail = Detail::from_full(matches!(detail, Some(ListSessionsInputDetail::Full)));
    let folder = filter::folder("/path_under", path_under.as_deref().map(String::as_str))?;
    let list = ReadCommand::new(ReadVerb::ListSessions)
        .arg("-F")
        .arg(record_format(&SESSION_FIELDS));
    let [sessions, clients] = gate.run_each([list, list_clients(None)]).await?;
    let attached_count = AttachedCount::new(&read_clients(&clients)?);
    let text = text(&sessions);
    let sessions = parse_records("list-sessions", &SESSION_FIELDS, &text)?
        .iter()
        .map(|record| session_from(record, &attached_count, None))
        .collect::<Result<Vec<_>, _>>()?;
    let narrowed = filter::narrowed(sessions, |session| {
        filter::passes(name.as_deref(), session.name.as_str())
            && filter::passes(attached.as_ref(), &(session.attached_clients > 0))
            && filter::under(folder.as_ref(), &session.path)
    });
    Ok(ListSessionsOutput {
        sessions: narrowed.items.into_iter().map(|s| session_row(s, detail)).collect(),
        total: narrowed.total,
        filtered_out: detail.count(narrowed.filtered_out),
        truncated: detail.flag(narrowed.truncated),
    })
}

pub async fn list_windows(gate: &ReadGate<'_>, input: ListWindowsInput) -> Result<ListWindowsOutput, ToolError> {
    let ListWindowsInput {
        active,
        detail,
        name,
        session,
    } = input;
    let detail = Detail::from_full(matches!(detail, Some(ListWindowsInputDetail::Full)));
    // Every window of every session, matched on the exact name here: as a tmux target
    // the name would be matched as a prefix or a pattern.
    let list = ReadCommand::new(ReadVerb::ListWindows)
        .arg("-a")
        .arg("-F")
        .arg(record_format(&WINDOW_FIELDS));
    let output = gate.run(list).await?;
    let text = text(&output);
    let mut windows = Vec::new();
    for record in parse_records("list-windows", &WINDOW_FIELDS, &text)? {
        if session
            .as_deref()
            .is_none_or(|name| record.text("session_name").is_ok_and(|n| n == name))
        {
            windows.push(window_from(&record, None)?);
        }
    }
    if let (Some(name), true) = (&session, windows.is_empty()) {
        return Err(ToolError::new(
            ToolErrorKind::NotFound,
            format!(
                "no session is named {} (/session, matched exactly); list_sessions shows the names",
                echo(name)
            ),
        ));
    }
    // The session is the list's scope (an unknown one is an error, above); the
    // filters only narrow it.
    let narrowed = filter::narrowed(windows, |window| {
        filter::passes(name.as_deref(), window.name.as_str()) && filter::passes(active.as_ref(), &window.active)
    });
    Ok(ListWindowsOutput {
        session,
        windows: narrowed.items.into_iter().map(|w| window_row(w, detail)).collect(),
        total: narrowed.total,
        filtered_out: detail.count(narrowed.filtered_out),
        truncated: detail.flag(narrowed.truncated),
    })
}

/// The panes `list-panes` lists with `scope` (`-a` for all, `-t @2` for a window's),
/// in the pane shape, in one round trip.
///
/// # Errors
/// tmux failed, or its answer could not be read.
pub async fn panes_listed(
    gate: &ReadGate<'_>,
    scope: &[&str],
) -> Result<Vec<crate::generated::types::Pane>, ToolError> {
    let mut list = ReadCommand::new(ReadVerb::ListPanes);
    for word in scope {
        list = list.arg(*word);
    }
    let output = gate.run(list.arg("-F").arg(record_format(&PANE_FIELDS))).await?;
    parse_records("list-panes", &PANE_FIELDS, &text(&output))?
        .iter()
        .map(|record| pane_from(record, gate.state().caller.as_ref()))
        .collect()
}

/// A pane as `list_panes` lists it: its row, and its session's name, which the filter
/// reads and a brief row leaves out.
struct ListedPane {
    row: PaneRow,
    session: String,
}

/// Every pane as a row at `detail`, in one round trip that asks tmux only for what
/// those rows hold ([`PANE_ROW_FIELDS`] for brief ones).
async fn pane_rows_listed(gate: &ReadGate<'_>, detail: Detail) -> Result<Vec<ListedPane>, ToolError> {
    let names: &[&str] = match detail {
        Detail::Brief => &PANE_ROW_FIELDS,
        Detail::Full => &PANE_FIELDS,
    };
    let list = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-a")
        .arg("-F")
        .arg(record_format(names));
    let output = gate.run(list).await?;
    let caller = gate.state().caller.as_ref();
    parse_records("list-panes", names, &text(&output))?
        .iter()
        .map(|record| {
            let row = match detail {
                Detail::Brief => brief_pane_row(record, caller)?,
                Detail::Full => pane_row(pane_from(record, caller)?, detail),
            };
            Ok(ListedPane {
                row,
                session: record.text("session_name")?.to_string(),
            })
        })
        .collect()
}

pub async fn list_panes(gate: &ReadGate<'_>, input: ListPanesInput) -> Result<ListPanesOutput, ToolError> {
    let ListPanesInput {
        active,
        current_command,
        dead,
        detail,
        path_under,
        session,
    } = input;
    let detail = Detail::from_full(matches!(detail, Some(ListPanesInputDetail::Full)));
    let folder = filter::folder("/path_under", path_under.as_deref().map(String::as_str))?;
    let narrowed = filter::narrowed(pane_rows_listed(gate, detail).await?, |pane| {
        filter::passes(session.as_deref(), pane.session.as_str())
            && filter::passes(current_command.as_deref(), pane.row.current_command.as_str())
            // A brief row leaves a false flag out.
            && filter::passes(active.as_ref(), &pane.row.active.unwrap_or(false))
            && filter::passes(dead.as_ref(), &pane.row.dead.unwrap_or(false))
            && filter::under(folder.as_ref(), &pane.row.current_path)
    });
    Ok(ListPanesOutput {
        panes: narrowed.items.into_iter().map(|pane| pane.row).collect(),
        total: narrowed.total,
        filtered_out: detail.count(narrowed.filtered_out),
        truncated: detail.flag(narrowed.truncated),
    })
}

pub async fn get_session_info(
    gate: &ReadGate<'_>,
    input: GetSessionInfoInput,
) -> Result<GetSessionInfoOutput, ToolError> {
    let GetSessionInfoInput { session_id } = input;
    let id = args::session_id("/session_id", &session_id)?.to_string();
    // Window records carry their session's variables too: one command describes both.
    let names = fields(&[&WINDOW_FIELDS, &SESSION_FIELDS]);
    let windows = ReadCommand::new(ReadVerb::ListWindows)
        .arg("-t")
        .arg(id.as_str())
        .arg("-F")
        .arg(record_format(&names));
    let [windows, clients] = gate.run_each([windows, list_clients(Some(&id))]).await?;
    let clients = read_clients(&clients)?;
    let text = text(&windows);
    let records = parse_records("list-windows", &names, &text)?;
    let first = records
        .iter()
        .find(|record| record.text("session_id").is_ok_and(|s| s == id))
        .ok_or_else(|| gone(format!("can't find session: {id}")))?;
    let current = records
        .iter()
        .find(|record| record.flag("window_active").unwrap_or(false))
        .map(|record| record.text("window_id"))
        .transpose()?;
    let session = session_from(first, &AttachedCount::new(&clients), current)?;
    let windows = records
        .iter()
        .map(|record| window_from(record, None))
        .collect::<Result<Vec<_>, _>>()?;
    let (windows, _, _) = capped(windows);
    // The session's attached count above is taken before the cap.
    let (clients, _, _) = capped(clients);
    Ok(GetSessionInfoOutput {
        session,
        windows,
        clients,
    })
}

/// A pane, window or session that tmux no longer has.
fn gone(message: String) -> ToolError {
    TmuxError::ObjectGone { message }.into()
}

/// Window variables read alongside a window's panes.
const WINDOW_DETAIL: [&str; 2] = ["synchronize-panes", "window_linked_sessions"];

/// The panes of window `id`, each record also holding the window's variables.
fn list_window_panes(id: &str, names: &[&str]) -> ReadCommand {
    ReadCommand::new(ReadVerb::ListPanes)
        .arg("-t")
        .arg(id)
        .arg("-F")
        .arg(record_format(names))
}

/// Reads the records of [`list_window_panes`], checking they describe window `id`.
fn window_panes<'a>(id: &str, names: &'a [&'a str], output: &'a str) -> Result<Vec<Record<'a>>, ToolError> {
    let records = parse_records("list-panes", names, output)?;
    if records.is_empty()
        || records
            .iter()
            .any(|record| !record.text("window_id").is_ok_and(|w| w == id))
    {
        return Err(gone(format!("can't find window: {id}")));
    }
    Ok(records)
}

pub async fn get_window_info(gate: &ReadGate<'_>, input: GetWindowInfoInput) -> Result<GetWindowInfoOutput, ToolError> {
    let GetWindowInfoInput { window_id } = input;
    let id = args::window_id("/window_id", &window_id)?.to_string();
    let names = fields(&[&PANE_FIELDS, &WINDOW_FIELDS, &WINDOW_DETAIL]);
    let output = gate.run(list_window_panes(&id, &names)).await?;
    let text = text(&output);
    let records = window_panes(&id, &names, &text)?;
    let panes = records
        .iter()
        .map(|record| pane_from(record, gate.state().caller.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    let active = panes.iter().find(|pane| pane.active).map(|pane| pane.id.as_str());
    let first = &records[0];
    let window = window_from(first, active)?;
    // A pane can override the window's option, and tmux copies input only between
    // panes that have it on: the window synchronizes only if every pane does.
    let synchronize_panes = records
        .iter()
        .map(|record| record.flag("synchronize-panes"))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .all(|on| on);
    let linked_sessions = first.int("window_linked_sessions")?;
    let (panes, _, _) = capped(panes);
    Ok(GetWindowInfoOutput {
        window,
        panes,
        synchronize_panes,
        linked_sessions,
    })
}

/// Pane variables that only `get_pane_info` reports. Not `history_bytes`: tmux walks the
/// whole history to count it (2.5 ms on a 200,000-line pane, the server blocked), so it
/// is read only when the caller asks ([`HISTORY_BYTES`]).
pub const PANE_DETAIL: [&str; 12] = [
    "pane_dead_status",
    "pane_dead_signal",
    "pane_tty",
    "pane_mode",
    "window_zoomed_flag",
    "history_size",
    "history_limit",
    "cursor_x",
    "cursor_y",
    "alternate_on",
    "pane_synchronized",
    // Set by the program in the pane: free text, last.
    "pane_title",
];

/// The costly count of scrollback bytes, read only on request.
pub const HISTORY_BYTES: &str = "history_bytes";

pub async fn get_pane_info(gate: &ReadGate<'_>, input: GetPaneInfoInput) -> Result<GetPaneInfoOutput, ToolError> {
    let GetPaneInfoInput { history_bytes, pane_id } = input;
    let pane_id = args::pane_id("/pane_id", &pane_id)?;
    let history_bytes = history_bytes.unwrap_or(false);
    let asked: &[&str] = if history_bytes { &[HISTORY_BYTES] } else { &[] };
    let names = fields(&[&PANE_FIELDS, &PANE_DETAIL, asked]);
    let output = gate.run(describe_pane(pane_id, &names)).await?;
    let text = text(&output);
    let record = pane_record(pane_id, &names, &text)?;
    let pane = pane_from(&record, gate.state().caller.as_ref())?;
    let exit_status = exit_status(&record)?;
    let mode = Some(record.text("pane_mode")?)
        .filter(|mode| pane.in_mode && !mode.is_empty())
        .map(str::to_string);
    Ok(GetPaneInfoOutput {
        exit_status,
        title: record.text("pane_title")?.to_string(),
        tty: record.text("pane_tty")?.to_string(),
        mode,
        window_zoomed: record.flag("window_zoomed_flag")?,
        history_size: record.int("history_size")?,
        history_limit: record.int("history_limit")?,
        history_bytes: history_bytes.then(|| record.int(HISTORY_BYTES)).transpose()?,
        cursor: GetPaneInfoOutputCursor {
            x: record.int("cursor_x")?,
            y: record.int("cursor_y")?,
        },
        alternate_screen: record.flag("alternate_on")?,
        synchronized: record.flag("pane_synchronized")?,
        pane,
    })
}

/// A corner of a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corner {
    TopLeft,
    TopRight,
    BottomLeft,
    BottomRight,
}

impl Corner {
    fn name(self) -> &'static str {
        match self {
            Self::TopLeft => "top-left",
            Self::TopRight => "top-right",
            Self::BottomLeft => "bottom-left",
            Self::BottomRight => "bottom-right",
        }
    }

    /// The corner as the reply names it.
    fn position(self) -> FindPaneByPositionOutputPosition {
        match self {
            Self::TopLeft => FindPaneByPositionOutputPosition::TopLeft,
            Self::TopRight => FindPaneByPositionOutputPosition::TopRight,
            Self::BottomLeft => FindPaneByPositionOutputPosition::BottomLeft,
            Self::BottomRight => FindPaneByPositionOutputPosition::BottomRight,
        }
    }
}

impl From<FindPaneByPositionInputPosition> for Corner {
    fn from(position: FindPaneByPositionInputPosition) -> Self {
        match position {
            FindPaneByPositionInputPosition::TopLeft => Self::TopLeft,
            FindPaneByPositionInputPosition::TopRight => Self::TopRight,
            FindPaneByPositionInputPosition::BottomLeft => Self::BottomLeft,
            FindPaneByPositionInputPosition::BottomRight => Self::BottomRight,
        }
    }
}

fn right(g: &PaneGeometry) -> i64 {
    g.left + g.width
}

fn bottom(g: &PaneGeometry) -> i64 {
    g.top + g.height
}

/// The index of the pane at `corner`, from pane geometries.
///
/// Panes tile their window, so the pane at a corner is, among the panes on that
/// corner's top or bottom edge (least top, or greatest bottom), the one furthest to
/// that side. Edges are found from the panes themselves rather than the window size,
/// which keeps this right when pane-border-status puts a status line at the top.
pub fn corner_pane(geometries: &[PaneGeometry], corner: Corner) -> Option<usize> {
    let top = matches!(corner, Corner::TopLeft | Corner::TopRight);
    let left = matches!(corner, Corner::TopLeft | Corner::BottomLeft);
    let edge = if top {
        geometries.iter().map(|g| g.top).min()?
    } else {
        geometries.iter().map(bottom).max()?
    };
    let on_edge = |g: &PaneGeometry| if top { g.top == edge } else { bottom(g) == edge };
    let candidates = geometries.iter().enumerate().filter(|(_, g)| on_edge(g));
    if left {
        candidates.min_by_key(|(_, g)| g.left).map(|(index, _)| index)
    } else {
        candidates.max_by_key(|(_, g)| right(g)).map(|(index, _)| index)
    }
}

pub async fn find_pane_by_position(
    gate: &ReadGate<'_>,
    input: FindPaneByPositionInput,
) -> Result<FindPaneByPositionOutput, ToolError> {
    let FindPaneByPositionInput { position, window_id } = input;
    let id = args::window_id("/window_id", &window_id)?.to_string();
    let corner = Corner::from(position);
    let names = fields(&[&PANE_FIELDS, &["window_zoomed_flag"]]);
    let output = gate.run(list_window_panes(&id, &names)).await?;
    let text = text(&output);
    let records = window_panes(&id, &names, &text)?;
    let window_zoomed = records[0].flag("window_zoomed_flag")?;
    let mut panes = records
        .iter()
        .map(|record| pane_from(record, gate.state().caller.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    // A zoomed pane fills the window; the others keep their unzoomed geometry.
    let index = if window_zoomed {
        panes.iter().position(|pane| pane.active)
    } else {
        corner_pane(
            &panes.iter().map(|pane| pane.geometry.clone()).collect::<Vec<_>>(),
            corner,
        )
    }
    .ok_or_else(|| ToolError::internal(format!("no pane found at the {} corner of {id}", corner.name())))?;
    let pane = panes.swap_remove(index);
    Ok(FindPaneByPositionOutput {
        position: corner.position(),
        window_zoomed,
        pane,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(left: i64, top: i64, width: i64, height: i64) -> PaneGeometry {
        PaneGeometry {
            left,
            top,
            width,
            height,
        }
    }

    #[test]
    fn one_pane_is_at_every_corner() {
        let panes = [g(0, 0, 80, 24)];
        for corner in [
            Corner::TopLeft,
            Corner::TopRight,
            Corner::BottomLeft,
            Corner::BottomRight,
        ] {
            assert_eq!(corner_pane(&panes, corner), Some(0));
        }
    }

    #[test]
    fn a_full_height_pane_holds_both_left_corners() {
        // | 0 | 1 |
        // |   |---|
        // |   | 2 |
        let panes = [g(0, 0, 40, 24), g(41, 0, 39, 12), g(41, 13, 39, 11)];
        assert_eq!(corner_pane(&panes, Corner::TopLeft), Some(0));
        assert_eq!(corner_pane(&panes, Corner::BottomLeft), Some(0));
        assert_eq!(corner_pane(&panes, Corner::TopRight), Some(1));
        assert_eq!(corner_pane(&panes, Corner::BottomRight), Some(2));
    }

    #[test]
    fn corners_hold_with_a_status_line_above_the_panes() {
        // pane-border-status top: every pane starts one row down.
        let panes = [g(0, 1, 40, 11), g(0, 13, 40, 11), g(41, 1, 39, 23)];
        assert_eq!(corner_pane(&panes, Corner::TopLeft), Some(0));
        assert_eq!(corner_pane(&panes, Corner::BottomLeft), Some(1));
        assert_eq!(corner_pane(&panes, Corner::TopRight), Some(2));
        assert_eq!(corner_pane(&panes, Corner::BottomRight), Some(2));
    }

    #[test]
    fn no_panes_means_no_corner() {
        assert_eq!(corner_pane(&[], Corner::TopLeft), None);
    }
}
