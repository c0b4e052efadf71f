//! The tmux formats that fill the pane, window, session and client objects every
//! inspect reply shares, and the readers that build them.
//!
//! Each object is one generated type ([`Pane`], [`Window`], [`Session`], [`Client`]),
//! named by its shape file in `schemas/shapes/`, so every tool returning one uses the
//! same type and the compiler checks each reply's shape.

use crate::limits::LISTED_MAX_ITEMS;
use std::collections::HashMap;
use std::fmt::Display;
use std::str::FromStr;

use crate::generated::types::{Client, Pane, PaneGeometry, Session, Window};
use crate::guard::caller::{is_caller, CallerPane};
use crate::guard::owner::OwnedMark;
use crate::runtime::error::{echo, ToolError};
use crate::tmux::format::Record;
use crate::tmux::{PaneId, SessionId, WindowId};

/// An id tmux printed, parsed as `T` (a [`crate::tmux`] id).
///
/// # Errors
/// The text is not such an id: tmux printed something unexpected, a paneward fault
/// reported rather than shipped.
pub fn checked<T>(text: &str) -> Result<T, ToolError>
where
    T: FromStr,
    T::Err: Display,
{
    text.parse()
        .map_err(|e| ToolError::internal(format!("tmux printed {} where the reply needs an id: {e}", echo(text))))
}

/// An id tmux printed, for a reply: checked as a `T` first, since a reply's schema
/// describes its ids without policing them (`contract/src/reply.rs`).
///
/// # Errors
/// As [`checked`].
pub fn reply_id<T>(text: &str) -> Result<String, ToolError>
where
    T: FromStr + Display,
    T::Err: Display,
{
    checked::<T>(text).map(|id| id.to_string())
}

/// A count for a reply, whose integers are `i64`.
pub fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Keeps the first [`LISTED_MAX_ITEMS`] items; returns them with the full count and whether
/// some were cut.
pub fn capped<T>(mut items: Vec<T>) -> (Vec<T>, i64, bool) {
    let total = count(items.len());
    let truncated = items.len() > LISTED_MAX_ITEMS;
    items.truncate(LISTED_MAX_ITEMS);
    (items, total, truncated)
}

/// The ownership marks (`guard::owner`), read as format variables: each is set only at
/// its own level, so a pane's lookup of the pane mark never finds its window's.
pub const OWNED_PANE: &str = OwnedMark::Pane.option();
pub const OWNED_WINDOW: &str = OwnedMark::Window.option();
pub const OWNED_SESSION: &str = OwnedMark::Session.option();

/// The variables a [`Pane`] needs, plus the server's `pid` for the caller check (which
/// compares no socket path: [`crate::guard::caller::CallerPane::is`]). tmux expands
/// each variable for every pane listed, so one never read costs every list.
pub const PANE_FIELDS: [&str; 19] = [
    "pane_id",
    "pane_index",
    "session_id",
    "window_id",
    "window_index",
    "pane_active",
    "pane_left",
    "pane_top",
    "pane_width",
    "pane_height",
    "pane_pid",
    "pane_dead",
    "pane_in_mode",
    "pid",
    "session_name",
    "window_name",
    "pane_current_command",
    "pane_current_path",
    OWNED_PANE,
];

/// The variables a brief `list_panes` row needs (`rows::brief_pane_row`), with the
/// `session_name` its filter reads: about half of [`PANE_FIELDS`], and tmux spends
/// about a microsecond on each variable of each pane (BENCHMARKS.md, "A fleet").
pub const PANE_ROW_FIELDS: [&str; 10] = [
    "pane_id",
    "window_id",
    "pane_active",
    "pane_dead",
    "pane_in_mode",
    "pid",
    "session_name",
    "pane_current_command",
    "pane_current_path",
    OWNED_PANE,
];

/// Whether the pane of `record` (its `pane_id` is `id`) is the caller's.
pub fn caller_flag(id: &str, record: &Record<'_>, caller: Option<&CallerPane>) -> Result<bool, ToolError> {
    match id.parse::<PaneId>() {
        Ok(pane) => Ok(is_caller(caller, pane, record)?),
        Err(_) => Ok(false),
    }
}

/// Reads a [`Pane`] from a record that holds [`PANE_FIELDS`].
///
/// # Errors
/// A field is missing, not a number where one is expected, or not an id where one is.
pub fn pane_from(record: &Record<'_>, caller: Option<&CallerPane>) -> Result<Pane, ToolError> {
    let id = record.text("pane_id")?;
    let is_caller = caller_flag(id, record, caller)?;
    Ok(Pane {
        id: reply_id::<PaneId>(id)?,
        index: record.int("pane_index")?,
        session: record.text("session_name")?.to_string(),
        session_id: reply_id::<SessionId>(record.text("session_id")?)?,
        window: record.text("window_name")?.to_string(),
        window_id: reply_id::<WindowId>(record.text("window_id")?)?,
        window_index: record.int("window_index")?,
        active: record.flag("pane_active")?,
        geometry: PaneGeometry {
            left: record.int("pane_left")?,
            top: record.int("pane_top")?,
            width: record.int("pane_width")?,
            height: record.int("pane_height")?,
        },
        current_command: record.text("pane_current_command")?.to_string(),
        current_path: record.text("pane_current_path")?.to_string(),
        pid: record.int("pane_pid")?,
        dead: record.flag("pane_dead")?,
        in_mode: record.flag("pane_in_mode")?,
        is_caller,
        owned: record.flag(OWNED_PANE)?,
    })
}

/// The variables a [`Window`] needs. In a window's own context `pane_id` is its active
/// pane; where records are panes, the caller passes the active pane instead.
pub const WINDOW_FIELDS: [&str; 13] = [
    "window_id",
    "window_index",
    "session_id",
    "window_active",
    "window_panes",
    "pane_id",
    "window_width",
    "window_height",
    "window_zoomed_flag",
    "window_layout",
    "session_name",
    "window_name",
    OWNED_WINDOW,
];

/// Reads a [`Window`] from a record holding [`WINDOW_FIELDS`]; `active_pane` overrides
/// `pane_id` when the record describes one of the window's panes.
///
/// # Errors
/// A field is missing or malformed.
pub fn window_from(record: &Record<'_>, active_pane: Option<&str>) -> Result<Window, ToolError> {
    Ok(Window {
        id: reply_id::<WindowId>(record.text("window_id")?)?,
        index: record.int("window_index")?,
        name: record.text("window_name")?.to_string(),
        session: record.text("session_name")?.to_string(),
        session_id: reply_id::<SessionId>(record.text("session_id")?)?,
        active: record.flag("window_active")?,
        pane_count: record.int("window_panes")?,
        active_pane_id: match active_pane {
            Some(pane) => reply_id::<PaneId>(pane)?,
            None => reply_id::<PaneId>(record.text("pane_id")?)?,
        },
        width: record.int("window_width")?,
        height: record.int("window_height")?,
        layout: record.text("window_layout")?.to_string(),
        zoomed: record.flag("window_zoomed_flag")?,
        owned: record.flag(OWNED_WINDOW)?,
    })
}

/// The variables a [`Session`] needs (attached clients are counted from
/// [`CLIENT_FIELDS`], so that control-mode clients can be left out). In a session's own
/// context `window_id` is its current window.
pub const SESSION_FIELDS: [&str; 10] = [
    "session_id",
    "session_windows",
    "session_created",
    "session_activity",
    "window_id",
    "session_grouped",
    "session_name",
    "session_path",
    "session_group",
    OWNED_SESSION,
];

/// Reads a [`Session`] from a record holding [`SESSION_FIELDS`].
///
/// # Errors
/// A field is missing or malformed.
pub fn session_from(
    record: &Record<'_>,
    clients: &AttachedCount,
    active_window: Option<&str>,
) -> Result<Session, ToolError> {
    let id = record.text("session_id")?;
    Ok(Session {
        id: reply_id::<SessionId>(id)?,
        name: record.text("session_name")?.to_string(),
        window_count: record.int("session_windows")?,
        attached_clients: clients.of(id),
        active_window_id: match active_window {
            Some(window) => reply_id::<WindowId>(window)?,
            None => reply_id::<WindowId>(record.text("window_id")?)?,
        },
        created: record.int("session_created")?,
        last_activity: record.int("session_activity")?,
        path: record.text("session_path")?.to_string(),
        group: record
            .flag("session_grouped")?
            .then(|| record.text("session_group").map(str::to_string))
            .transpose()?,
        owned: record.flag(OWNED_SESSION)?,
    })
}

/// The variables a [`Client`] needs, with the control-mode flag that filters them.
pub const CLIENT_FIELDS: [&str; 8] = [
    "client_control_mode",
    "client_name",
    "client_tty",
    "session_id",
    "client_width",
    "client_height",
    "session_name",
    "client_termname",
];

/// Reads the terminal clients from records holding [`CLIENT_FIELDS`].
///
/// Control-mode clients (paneward's own among them) are left out, and so are clients
/// not showing a session (still attaching).
///
/// # Errors
/// A field is malformed.
pub fn terminal_clients(records: &[Record<'_>]) -> Result<Vec<Client>, ToolError> {
    let mut clients = Vec::new();
    for record in records {
        if record.flag("client_control_mode")? || record.text("session_id")?.is_empty() {
            continue;
        }
        clients.push(Client {
            name: record.text("client_name")?.to_string(),
            tty: record.text("client_tty")?.to_string(),
            session: record.text("session_name")?.to_string(),
            session_id: reply_id::<SessionId>(record.text("session_id")?)?,
            width: record.optional_int("client_width")?.unwrap_or(0),
            height: record.optional_int("client_height")?.unwrap_or(0),
            term_name: record.text("client_termname")?.to_string(),
        });
    }
    Ok(clients)
}

/// How many terminal clients show each session.
#[derive(Debug, Default)]
pub struct AttachedCount(HashMap<String, i64>);

impl AttachedCount {
    pub fn new(clients: &[Client]) -> Self {
        let mut counts = HashMap::new();
        for client in clients {
            *counts.entry(client.session_id.to_string()).or_insert(0) += 1;
        }
        Self(counts)
    }

    pub fn of(&self, session_id: &str) -> i64 {
        self.0.get(session_id).copied().unwrap_or(0)
    }
}

/// Joins field lists into one, for a record that fills several shapes at once.
pub fn fields(parts: &[&[&'static str]]) -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for part in parts {
        for name in *part {
            if !all.contains(name) {
                all.push(name);
            }
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_capped_and_say_so() {
        let (items, total, truncated) = capped((0..LISTED_MAX_ITEMS + 5).collect());
        assert_eq!(items.len(), LISTED_MAX_ITEMS);
        assert_eq!(total, i64::try_from(LISTED_MAX_ITEMS + 5).unwrap());
        assert!(truncated);
        let (items, total, truncated) = capped(vec![1, 2]);
        assert_eq!((items.len(), total, truncated), (2, 2, false));
    }

    #[test]
    fn echoed_text_is_short_and_escaped() {
        assert_eq!(echo("a\nb"), "\"a\\nb\"");
        assert!(echo(&"x".repeat(500)).chars().count() < 90);
    }

    #[test]
    fn an_id_tmux_printed_wrong_is_an_internal_fault_not_a_reply() {
        use crate::runtime::error::ToolErrorKind;
        assert_eq!(reply_id::<PaneId>("%3").unwrap(), "%3");
        let error = reply_id::<PaneId>("3").unwrap_err();
        assert_eq!(error.kind(), ToolErrorKind::Internal);
        assert!(error.to_string().contains("\"3\""), "{error}");
    }

    #[test]
    fn joined_field_lists_hold_each_name_once() {
        let all = fields(&[&PANE_FIELDS, &WINDOW_FIELDS]);
        assert_eq!(all.iter().filter(|n| **n == "pane_id").count(), 1);
        assert!(all.contains(&"window_layout") && all.contains(&"pane_current_path"));
    }
}
