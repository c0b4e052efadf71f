//! The pane, window, session and client shapes that every inspect reply shares, the
//! tmux formats that fill them, and the step that turns a reply into its generated type.
//!
//! typify gives each tool file its own Rust types, even where the schemas are equal
//! (the pane object appears in three files). The shapes are therefore written once
//! here and converted with [`reshape`]; `tests/contract.rs` checks that the
//! copies in the schema files stay equal.

use std::collections::HashMap;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::call::error::ToolError;
use crate::guard::caller::{is_caller, CallerPane};
use crate::tmux::format::Record;
use crate::tmux::{PaneId, TmuxError};

/// The most items a list in a reply carries: a pane is about 450 bytes of JSON, so a
/// full list stays under half a megabyte (the batch tool caps a whole reply at 1 MB).
pub const MAX_LISTED: usize = 1_000;

/// Converts a reply built from the shared shapes into the tool's generated type.
///
/// # Errors
/// The reply does not fit the type: a paneward fault, caught here rather than shipped.
pub fn reshape<T: DeserializeOwned>(reply: &impl Serialize) -> Result<T, ToolError> {
    let value = serde_json::to_value(reply).map_err(|e| ToolError::internal(format!("encoding a reply: {e}")))?;
    serde_json::from_value(value).map_err(|e| ToolError::internal(format!("a reply does not fit its contract: {e}")))
}

/// The longest piece of a caller's text that an error message repeats.
const ECHO_LIMIT: usize = 80;

/// A caller's text for an error message: quoted, escaped, and cut at [`ECHO_LIMIT`].
pub fn echo(text: &str) -> String {
    format!("\"{}\"", paneward_contract::excerpt(text, ECHO_LIMIT).escape_debug())
}

/// Keeps the first [`MAX_LISTED`] items; returns them with the full count and whether
/// some were cut.
pub fn capped<T>(mut items: Vec<T>) -> (Vec<T>, i64, bool) {
    let total = i64::try_from(items.len()).unwrap_or(i64::MAX);
    let truncated = items.len() > MAX_LISTED;
    items.truncate(MAX_LISTED);
    (items, total, truncated)
}

/// Where a pane sits in its window, in cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Geometry {
    pub left: i64,
    pub top: i64,
    pub width: i64,
    pub height: i64,
}

impl Geometry {
    pub fn right(&self) -> i64 {
        self.left + self.width
    }

    pub fn bottom(&self) -> i64 {
        self.top + self.height
    }
}

/// A pane, as `list_panes`, `get_pane_info` and `find_pane_by_position` describe it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pane {
    pub id: String,
    pub index: i64,
    pub session: String,
    pub session_id: String,
    pub window: String,
    pub window_id: String,
    pub window_index: i64,
    pub active: bool,
    pub geometry: Geometry,
    pub current_command: String,
    pub current_path: String,
    pub pid: i64,
    pub dead: bool,
    pub in_mode: bool,
    pub is_caller: bool,
}

/// The variables a [`Pane`] needs, plus the server's identity for the caller check.
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
    "socket_path",
    "pid",
    "session_name",
    "window_name",
    "pane_current_command",
    "pane_current_path",
];

/// Reads a [`Pane`] from a record that holds [`PANE_FIELDS`].
///
/// # Errors
/// A field is missing or not a number where one is expected.
pub fn pane_from(record: &Record<'_>, caller: Option<&CallerPane>) -> Result<Pane, TmuxError> {
    let id = record.text("pane_id")?;
    let is_caller = match id.parse::<PaneId>() {
        Ok(pane) => is_caller(caller, pane, record)?,
        Err(_) => false,
    };
    Ok(Pane {
        id: id.to_string(),
        index: record.int("pane_index")?,
        session: record.text("session_name")?.to_string(),
        session_id: record.text("session_id")?.to_string(),
        window: record.text("window_name")?.to_string(),
        window_id: record.text("window_id")?.to_string(),
        window_index: record.int("window_index")?,
        active: record.flag("pane_active")?,
        geometry: Geometry {
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
    })
}

/// A window, as `list_windows`, `get_session_info` and `get_window_info` describe it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    pub id: String,
    pub index: i64,
    pub name: String,
    pub session: String,
    pub session_id: String,
    pub active: bool,
    pub pane_count: i64,
    pub active_pane_id: String,
    pub width: i64,
    pub height: i64,
    pub layout: String,
    pub zoomed: bool,
}

/// The variables a [`Window`] needs. In a window's own context `pane_id` is its active
/// pane; where records are panes, the caller passes the active pane instead.
pub const WINDOW_FIELDS: [&str; 12] = [
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
];

/// Reads a [`Window`] from a record holding [`WINDOW_FIELDS`]; `active_pane` overrides
/// `pane_id` when the record describes one of the window's panes.
///
/// # Errors
/// A field is missing or malformed.
pub fn window_from(record: &Record<'_>, active_pane: Option<&str>) -> Result<Window, TmuxError> {
    Ok(Window {
        id: record.text("window_id")?.to_string(),
        index: record.int("window_index")?,
        name: record.text("window_name")?.to_string(),
        session: record.text("session_name")?.to_string(),
        session_id: record.text("session_id")?.to_string(),
        active: record.flag("window_active")?,
        pane_count: record.int("window_panes")?,
        active_pane_id: match active_pane {
            Some(pane) => pane.to_string(),
            None => record.text("pane_id")?.to_string(),
        },
        width: record.int("window_width")?,
        height: record.int("window_height")?,
        layout: record.text("window_layout")?.to_string(),
        zoomed: record.flag("window_zoomed_flag")?,
    })
}

/// A session, as `list_sessions` and `get_session_info` describe it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub id: String,
    pub name: String,
    pub window_count: i64,
    pub attached_clients: i64,
    pub active_window_id: String,
    pub created: i64,
    pub last_activity: i64,
    pub path: String,
    pub group: Option<String>,
}

/// The variables a [`Session`] needs (attached clients are counted from
/// [`CLIENT_FIELDS`], so that control-mode clients can be left out). In a session's own
/// context `window_id` is its current window.
pub const SESSION_FIELDS: [&str; 9] = [
    "session_id",
    "session_windows",
    "session_created",
    "session_activity",
    "window_id",
    "session_grouped",
    "session_name",
    "session_path",
    "session_group",
];

/// Reads a [`Session`] from a record holding [`SESSION_FIELDS`].
///
/// # Errors
/// A field is missing or malformed.
pub fn session_from(
    record: &Record<'_>,
    clients: &AttachedCount,
    active_window: Option<&str>,
) -> Result<Session, TmuxError> {
    let id = record.text("session_id")?;
    Ok(Session {
        id: id.to_string(),
        name: record.text("session_name")?.to_string(),
        window_count: record.int("session_windows")?,
        attached_clients: clients.of(id),
        active_window_id: match active_window {
            Some(window) => window.to_string(),
            None => record.text("window_id")?.to_string(),
        },
        created: record.int("session_created")?,
        last_activity: record.int("session_activity")?,
        path: record.text("session_path")?.to_string(),
        group: record
            .flag("session_grouped")?
            .then(|| record.text("session_group").map(str::to_string))
            .transpose()?,
    })
}

/// A terminal client attached to the server.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Client {
    pub name: String,
    pub tty: String,
    pub session: String,
    pub session_id: String,
    pub width: i64,
    pub height: i64,
    pub term_name: String,
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
pub fn terminal_clients(records: &[Record<'_>]) -> Result<Vec<Client>, TmuxError> {
    let mut clients = Vec::new();
    for record in records {
        if record.flag("client_control_mode")? || record.text("session_id")?.is_empty() {
            continue;
        }
        clients.push(Client {
            name: record.text("client_name")?.to_string(),
            tty: record.text("client_tty")?.to_string(),
            session: record.text("session_name")?.to_string(),
            session_id: record.text("session_id")?.to_string(),
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
            *counts.entry(client.session_id.clone()).or_insert(0) += 1;
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
        let (items, total, truncated) = capped((0..MAX_LISTED + 5).collect());
        assert_eq!(items.len(), MAX_LISTED);
        assert_eq!(total, i64::try_from(MAX_LISTED + 5).unwrap());
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
    fn joined_field_lists_hold_each_name_once() {
        let all = fields(&[&PANE_FIELDS, &WINDOW_FIELDS]);
        assert_eq!(all.iter().filter(|n| **n == "pane_id").count(), 1);
        assert!(all.contains(&"window_layout") && all.contains(&"pane_current_path"));
    }
}
