//! The libtmux family's three views of tmux objects, as `tmux-mcp` 0.1.2 answers them:
//! a pane (`id`, `window_id`, `active`, `caller`, `command`, `path`), a window (`id`,
//! `session_id`, `index`, `name`, `panes`, `active`, `linked`) and a session (`id`,
//! `name`, `windows`, `attached`), each list read in one round trip, in tmux's order.
//! Built as JSON with the family's field names written here once; a handler turns a
//! view into its generated output type with [`typed`].

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use crate::guard::ReadGate;
use crate::runtime::{Encoded, ToolError, ToolErrorKind};
use crate::tmux::format::{parse_records, record_format, Record};
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::observe::objects::{pane_from, PANE_FIELDS};

const PANE: [&str; 5] = [
    "pane_id",
    "window_id",
    "pane_active",
    "pane_current_command",
    "pane_current_path",
];

const WINDOW: [&str; 7] = [
    "window_id",
    "session_id",
    "window_index",
    "window_name",
    "window_panes",
    "window_active",
    "window_linked",
];

const SESSION: [&str; 4] = ["session_id", "session_name", "session_windows", "session_attached"];

/// Text tmux printed, or null where it printed none (a variable it had no value for).
fn optional(record: &Record<'_>, name: &str) -> Result<Value, ToolError> {
    let text = record.text(name)?;
    Ok(if text.is_empty() { Value::Null } else { json!(text) })
}

/// Which panes a listing covers; the ids come from a lookup, never from the caller as is.
#[derive(Debug, Clone, Copy)]
pub enum Scope<'a> {
    Server,
    /// Every pane of the session with this id (`-s -t $1`).
    Session(&'a str),
    /// The panes of the window with this id (`-t @2`).
    Window(&'a str),
}

/// The panes `scope` covers, as the family's pane view, in tmux's order.
///
/// # Errors
/// tmux failed (a target that does not exist among them), or its answer could not be read.
pub async fn panes(gate: &ReadGate<'_>, scope: Scope<'_>) -> Result<Vec<Value>, ToolError> {
    let mut names: Vec<&str> = PANE.to_vec();
    names.extend(PANE_FIELDS.iter().filter(|name| !PANE.contains(name)));
    let list = ReadCommand::new(ReadVerb::ListPanes);
    let list = match scope {
        Scope::Server => list.arg("-a"),
        Scope::Session(id) => list.arg("-s").arg("-t").arg(id),
        Scope::Window(id) => list.arg("-t").arg(id),
    };
    let output = gate.run(list.arg("-F").arg(record_format(&names))).await?;
    let text = String::from_utf8_lossy(&output);
    let caller = gate.state().caller.as_ref();
    parse_records("list-panes", &names, &text)?
        .iter()
        .map(|record| {
            // Three answers, as the family's: no tmux around paneward, this pane, another.
            let relation = match caller {
                None => "unknown",
                Some(_) if pane_from(record, caller)?.is_caller => "self",
                Some(_) => "other",
            };
            Ok(json!({
                "id": record.text("pane_id")?,
                "window_id": record.text("window_id")?,
                "active": record.flag("pane_active")?,
                "caller": relation,
                "command": optional(record, "pane_current_command")?,
                "path": optional(record, "pane_current_path")?,
            }))
        })
        .collect()
}

/// Every window of the server (`list-windows -a`), as the family's window view.
///
/// # Errors
/// tmux failed, or its answer could not be read.
pub async fn windows(gate: &ReadGate<'_>) -> Result<Vec<Value>, ToolError> {
    let list = ReadCommand::new(ReadVerb::ListWindows)
        .arg("-a")
        .arg("-F")
        .arg(record_format(&WINDOW));
    let output = gate.run(list).await?;
    let text = String::from_utf8_lossy(&output);
    parse_records("list-windows", &WINDOW, &text)?
        .iter()
        .map(window_view)
        .collect()
}

fn window_view(record: &Record<'_>) -> Result<Value, ToolError> {
    Ok(json!({
        "id": record.text("window_id")?,
        "session_id": record.text("session_id")?,
        "index": record.int("window_index")?,
        "name": record.text("window_name")?,
        "panes": record.count("window_panes")?,
        "active": record.flag("window_active")?,
        "linked": record.flag("window_linked")?,
    }))
}

/// Every session of the server, as the family's session view.
///
/// # Errors
/// tmux failed, or its answer could not be read.
pub async fn sessions(gate: &ReadGate<'_>) -> Result<Vec<Value>, ToolError> {
    let list = ReadCommand::new(ReadVerb::ListSessions)
        .arg("-F")
        .arg(record_format(&SESSION));
    let output = gate.run(list).await?;
    let text = String::from_utf8_lossy(&output);
    parse_records("list-sessions", &SESSION, &text)?
        .iter()
        .map(|record| {
            Ok(json!({
                "id": record.text("session_id")?,
                "name": record.text("session_name")?,
                "windows": record.count("session_windows")?,
                "attached": record.count("session_attached")? > 0,
            }))
        })
        .collect()
}

/// The view among `views` whose `id` is `id`, else the family's answer for an object
/// that is not there: `no pane %9` (an `object_gone` error).
///
/// # Errors
/// No view has that id.
pub fn one(views: Vec<Value>, what: &str, id: &str) -> Result<Value, ToolError> {
    views
        .into_iter()
        .find(|view| view["id"] == id)
        .ok_or_else(|| gone(what, id))
}

/// The family's refusal of an id that names nothing (now): `no window @9`.
pub fn gone(what: &str, id: &str) -> ToolError {
    ToolError::new(ToolErrorKind::NotFound, format!("no {what} {id}"))
}

pub async fn pane(gate: &ReadGate<'_>, id: &str) -> Result<Value, ToolError> {
    one(panes(gate, Scope::Server).await?, "pane", id)
}

pub async fn window(gate: &ReadGate<'_>, id: &str) -> Result<Value, ToolError> {
    one(windows(gate).await?, "window", id)
}

pub async fn session(gate: &ReadGate<'_>, id: &str) -> Result<Value, ToolError> {
    one(sessions(gate).await?, "session", id)
}

/// `view` as the reply of a tool whose generated output type is `T`: checked to be one
/// (a view that does not fit is a fault here, reported as one), and sent as built, so a
/// member the family writes as `null` stays `null` rather than being left out.
///
/// # Errors
/// The view does not fit the type.
pub fn typed<T: DeserializeOwned + Serialize>(view: Value) -> Result<Encoded<T>, ToolError> {
    let checked: T = serde_json::from_value(view.clone())
        .map_err(|e| ToolError::internal(format!("the reply does not fit its type: {e}")))?;
    Encoded::moving(
        checked,
        |_| view,
        |encoded, view| {
            *encoded = view;
            Ok(())
        },
    )
}
