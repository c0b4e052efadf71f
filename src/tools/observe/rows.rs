//! The rows the list tools return: brief by default, every field with `detail: "full"`.
//!
//! A brief row keeps what an agent acts on (the object's id, its own name and index, its
//! container's id, what runs and where) and leaves out false flags and zero counts: a
//! model reads every byte of a list, and most panes are not dead, zoomed or in a mode.
//! Rows are built from the full objects of [`super::objects`], so every other reader
//! of those objects (single-object tools, resources, the profiles) keeps every field;
//! a brief `list_panes` row is read from a record of only what it shows
//! ([`brief_pane_row`]), since tmux's time for a list grows with each variable asked.

use crate::generated::types::{Pane, PaneRow, PaneRowGeometry, Session, SessionRow, Window, WindowRow};
use crate::guard::caller::CallerPane;
use crate::runtime::error::ToolError;
use crate::tmux::format::Record;
use crate::tmux::{PaneId, WindowId};
use crate::tools::observe::objects::{caller_flag, reply_id, OWNED_PANE};

/// How much of each row a list returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    Brief,
    Full,
}

impl Detail {
    /// The detail the caller asked for (`full` when `full` is true), brief by default.
    pub fn from_full(full: bool) -> Self {
        if full {
            Self::Full
        } else {
            Self::Brief
        }
    }

    fn full(self) -> bool {
        self == Self::Full
    }

    /// A field brief rows leave out.
    pub fn full_only<T>(self, value: T) -> Option<T> {
        self.full().then_some(value)
    }

    /// A flag: in brief rows only when true.
    pub fn flag(self, on: bool) -> Option<bool> {
        (self.full() || on).then_some(on)
    }

    /// A count: in brief rows only when not zero.
    pub fn count<N: Default + PartialEq>(self, n: N) -> Option<N> {
        (self.full() || n != N::default()).then_some(n)
    }
}

/// `pane` as a list row.
pub fn pane_row(pane: Pane, detail: Detail) -> PaneRow {
    let geometry = PaneRowGeometry {
        left: pane.geometry.left,
        top: pane.geometry.top,
        width: pane.geometry.width,
        height: pane.geometry.height,
    };
    PaneRow {
        id: pane.id,
        window_id: pane.window_id,
        current_command: pane.current_command,
        current_path: pane.current_path,
        active: detail.flag(pane.active),
        dead: detail.flag(pane.dead),
        in_mode: detail.flag(pane.in_mode),
        is_caller: detail.flag(pane.is_caller),
        owned: detail.flag(pane.owned),
        index: detail.full_only(pane.index),
        session: detail.full_only(pane.session),
        session_id: detail.full_only(pane.session_id),
        window: detail.full_only(pane.window),
        window_index: detail.full_only(pane.window_index),
        geometry: detail.full_only(geometry),
        pid: detail.full_only(pane.pid),
    }
}

/// A brief pane row read straight from a record that holds
/// [`super::objects::PANE_ROW_FIELDS`]: the row [`pane_row`] makes of the whole [`Pane`]
/// at [`Detail::Brief`], without asking tmux for what that row leaves out
/// (`tests/it/observe/brief.rs` checks on a real tmux that a brief row holds what the
/// full row says).
///
/// # Errors
/// As [`super::objects::pane_from`].
pub fn brief_pane_row(record: &Record<'_>, caller: Option<&CallerPane>) -> Result<PaneRow, ToolError> {
    let id = record.text("pane_id")?;
    let brief = Detail::Brief;
    Ok(PaneRow {
        active: brief.flag(record.flag("pane_active")?),
        dead: brief.flag(record.flag("pane_dead")?),
        in_mode: brief.flag(record.flag("pane_in_mode")?),
        is_caller: brief.flag(caller_flag(id, record, caller)?),
        owned: brief.flag(record.flag(OWNED_PANE)?),
        id: reply_id::<PaneId>(id)?,
        window_id: reply_id::<WindowId>(record.text("window_id")?)?,
        current_command: record.text("pane_current_command")?.to_string(),
        current_path: record.text("pane_current_path")?.to_string(),
        index: None,
        session: None,
        session_id: None,
        window: None,
        window_index: None,
        geometry: None,
        pid: None,
    })
}

/// `window` as a list row.
pub fn window_row(window: Window, detail: Detail) -> WindowRow {
    WindowRow {
        id: window.id,
        index: window.index,
        name: window.name,
        session_id: window.session_id,
        pane_count: window.pane_count,
        active: detail.flag(window.active),
        zoomed: detail.flag(window.zoomed),
        owned: detail.flag(window.owned),
        session: detail.full_only(window.session),
        active_pane_id: detail.full_only(window.active_pane_id),
        width: detail.full_only(window.width),
        height: detail.full_only(window.height),
        layout: detail.full_only(window.layout),
    }
}

/// `session` as a list row. Its group is there whenever it has one.
pub fn session_row(session: Session, detail: Detail) -> SessionRow {
    SessionRow {
        id: session.id,
        name: session.name,
        window_count: session.window_count,
        attached_clients: detail.count(session.attached_clients),
        owned: detail.flag(session.owned),
        active_window_id: detail.full_only(session.active_window_id),
        created: detail.full_only(session.created),
        last_activity: detail.full_only(session.last_activity),
        path: detail.full_only(session.path),
        group: session.group,
    }
}
