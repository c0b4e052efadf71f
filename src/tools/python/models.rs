//! libtmux-mcp's three records, `SessionInfo`, `WindowInfo` and `PaneInfo`, read from
//! tmux in one round trip each. libtmux hands most tmux variables through as the text
//! tmux prints (`window_index: "1"`), a few as numbers or flags; each field below says
//! which. Each record is built as JSON, and a handler turns it into its generated output
//! type with [`typed`], so the field names live here once.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::guard::ReadGate;
use crate::runtime::ToolError;
use crate::tmux::format::{parse_records, record_format, Record};
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::observe::objects::{pane_from, PANE_FIELDS};

/// How libtmux-mcp types one field read from a tmux variable.
#[derive(Clone, Copy)]
enum Kind {
    /// The text as tmux prints it (null when tmux prints nothing, as libtmux does for
    /// an unset variable).
    Text,
    /// A number; null when empty.
    Int,
    /// `"1"` is true, anything else false; null when empty.
    Flag,
}

/// A field of a record: its name in the reply, the tmux variable it is read from, and
/// its kind.
type Field = (&'static str, &'static str, Kind);

const SESSION: [Field; 6] = [
    ("session_id", "session_id", Kind::Text),
    ("session_name", "session_name", Kind::Text),
    ("window_count", "session_windows", Kind::Int),
    ("session_attached", "session_attached", Kind::Text),
    ("session_created", "session_created", Kind::Text),
    // In a session's context tmux's pane is its current window's active pane.
    ("active_pane_id", "pane_id", Kind::Text),
];

const WINDOW: [Field; 11] = [
    ("window_id", "window_id", Kind::Text),
    ("window_name", "window_name", Kind::Text),
    ("window_index", "window_index", Kind::Text),
    ("session_id", "session_id", Kind::Text),
    ("session_name", "session_name", Kind::Text),
    ("pane_count", "window_panes", Kind::Int),
    ("window_layout", "window_layout", Kind::Text),
    ("window_active", "window_active", Kind::Text),
    ("window_width", "window_width", Kind::Text),
    ("window_height", "window_height", Kind::Text),
    ("active_pane_id", "pane_id", Kind::Text),
];

const PANE: [Field; 20] = [
    ("pane_id", "pane_id", Kind::Text),
    ("pane_index", "pane_index", Kind::Text),
    ("pane_width", "pane_width", Kind::Text),
    ("pane_height", "pane_height", Kind::Text),
    ("pane_left", "pane_left", Kind::Int),
    ("pane_top", "pane_top", Kind::Int),
    ("pane_right", "pane_right", Kind::Int),
    ("pane_bottom", "pane_bottom", Kind::Int),
    ("pane_at_left", "pane_at_left", Kind::Flag),
    ("pane_at_right", "pane_at_right", Kind::Flag),
    ("pane_at_top", "pane_at_top", Kind::Flag),
    ("pane_at_bottom", "pane_at_bottom", Kind::Flag),
    ("pane_tty", "pane_tty", Kind::Text),
    ("pane_current_command", "pane_current_command", Kind::Text),
    ("pane_current_path", "pane_current_path", Kind::Text),
    ("pane_pid", "pane_pid", Kind::Text),
    ("pane_title", "pane_title", Kind::Text),
    ("pane_active", "pane_active", Kind::Text),
    ("window_id", "window_id", Kind::Text),
    ("session_id", "session_id", Kind::Text),
];

/// Which objects a listing covers: the whole server (`-a`), or one session's or
/// window's (`-t ID`; the id comes from a resolution, never from the caller as is).
#[derive(Debug, Clone, Copy)]
pub enum Scope<'a> {
    Server,
    Target(&'a str),
}

impl Scope<'_> {
    fn words(self) -> Vec<String> {
        match self {
            Self::Server => vec!["-a".into()],
            Self::Target(id) => vec!["-t".into(), id.into()],
        }
    }
}

/// `SessionInfo` of every session (a scope of `-a` or a session id is not a thing
/// `list-sessions` takes, so sessions are always all of them, in tmux's order).
///
/// # Errors
/// tmux failed, or its answer could not be read.
pub async fn sessions(gate: &ReadGate<'_>) -> Result<Vec<Value>, ToolError> {
    let names = variables(&SESSION);
    let list = ReadCommand::new(ReadVerb::ListSessions)
        .arg("-F")
        .arg(record_format(&names));
    let output = gate.run(list).await?;
    let text = String::from_utf8_lossy(&output);
    parse_records("list-sessions", &names, &text)?
        .iter()
        .map(|record| build(record, &SESSION))
        .collect()
}

/// `WindowInfo` of the windows `scope` covers, in tmux's order.
///
/// # Errors
/// tmux failed, or its answer could not be read.
pub async fn windows(gate: &ReadGate<'_>, scope: Scope<'_>) -> Result<Vec<Value>, ToolError> {
    let names = variables(&WINDOW);
    let mut list = ReadCommand::new(ReadVerb::ListWindows);
    for word in scope.words() {
        list = list.arg(word);
    }
    let output = gate.run(list.arg("-F").arg(record_format(&names))).await?;
    let text = String::from_utf8_lossy(&output);
    parse_records("list-windows", &names, &text)?
        .iter()
        .map(|record| build(record, &WINDOW))
        .collect()
}

/// `PaneInfo` of the panes `scope` covers, in tmux's order; `is_caller` is null when
/// paneward does not run inside tmux, as libtmux-mcp reports it.
///
/// # Errors
/// tmux failed, or its answer could not be read.
pub async fn panes(gate: &ReadGate<'_>, scope: Scope<'_>) -> Result<Vec<Value>, ToolError> {
    let names = pane_variables();
    let mut list = ReadCommand::new(ReadVerb::ListPanes);
    for word in scope.words() {
        list = list.arg(word);
    }
    pane_records(gate, list.arg("-F").arg(record_format(&names)), &names).await
}

/// `PaneInfo` of the pane `id` (a pane id), read alone: `list-panes -t` would list
/// every pane of its window. `display-message` does not fail for a missing pane
/// (it prints empty fields), so the caller finds the record by its id, as it does in
/// a listing.
///
/// # Errors
/// tmux failed, or its answer could not be read.
pub async fn pane(gate: &ReadGate<'_>, id: &str) -> Result<Vec<Value>, ToolError> {
    let names = pane_variables();
    let describe = ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-t")
        .arg(id)
        .arg(record_format(&names));
    pane_records(gate, describe, &names).await
}

/// The variables a `PaneInfo` is read from, with those that say whether it is the
/// caller's pane.
fn pane_variables() -> Vec<&'static str> {
    let mut names = variables(&PANE);
    for name in PANE_FIELDS {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The `PaneInfo` records `command`, given [`record_format`] of `names`, prints.
async fn pane_records(gate: &ReadGate<'_>, command: ReadCommand, names: &[&str]) -> Result<Vec<Value>, ToolError> {
    let output = gate.run(command).await?;
    let text = String::from_utf8_lossy(&output);
    let caller = gate.state().caller.as_ref();
    parse_records("list-panes", names, &text)?
        .iter()
        .map(|record| {
            let mut pane = build(record, &PANE)?;
            let is_caller = match caller {
                Some(_) => Value::Bool(pane_from(record, caller)?.is_caller),
                None => Value::Null,
            };
            if let Value::Object(fields) = &mut pane {
                fields.insert("is_caller".into(), is_caller);
            }
            Ok(pane)
        })
        .collect()
}

/// The names a `filters` key may use for a `SessionInfo`, each with the record key it
/// reads: the record's own names, and the tmux variables they are read from (libtmux's
/// attribute names, such as `session_windows`).
pub fn session_filter_fields() -> Vec<(&'static str, &'static str)> {
    filter_fields(&SESSION, &[])
}

/// [`session_filter_fields`] for a `WindowInfo`.
pub fn window_filter_fields() -> Vec<(&'static str, &'static str)> {
    filter_fields(&WINDOW, &[])
}

/// [`session_filter_fields`] for a `PaneInfo`, with its `is_caller`.
pub fn pane_filter_fields() -> Vec<(&'static str, &'static str)> {
    filter_fields(&PANE, &["is_caller"])
}

fn filter_fields(fields: &[Field], extra: &[&'static str]) -> Vec<(&'static str, &'static str)> {
    let mut names: Vec<(&'static str, &'static str)> = fields.iter().map(|(name, _, _)| (*name, *name)).collect();
    names.extend(extra.iter().map(|name| (*name, *name)));
    for (name, variable, _) in fields {
        if !names.iter().any(|(known, _)| known == variable) {
            names.push((variable, name));
        }
    }
    names
}

/// The one record of `records` whose `key` is `id` (an id a resolution returned).
///
/// # Errors
/// None has it: the object went away between the resolution and the read.
pub fn one(records: Vec<Value>, key: &str, id: &str) -> Result<Value, ToolError> {
    records
        .into_iter()
        .find(|record| record.get(key).and_then(Value::as_str) == Some(id))
        .ok_or_else(|| super::target::not_found(key, id, "list"))
}

/// A record as the generated type `T` of a tool's reply (or of its items).
///
/// # Errors
/// The record does not fit `T` (a fault in paneward).
pub fn typed<T: DeserializeOwned>(record: Value) -> Result<T, ToolError> {
    serde_json::from_value(record)
        .map_err(|e| ToolError::internal(format!("a record does not fit its reply type: {e}")))
}

fn variables(fields: &[Field]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::with_capacity(fields.len());
    for (_, variable, _) in fields {
        if !names.contains(variable) {
            names.push(variable);
        }
    }
    names
}

fn build(record: &Record<'_>, fields: &[Field]) -> Result<Value, ToolError> {
    let mut object = Map::new();
    for (name, variable, kind) in fields {
        let text = record.text(variable)?;
        let value = match (kind, text) {
            (_, "") => Value::Null,
            (Kind::Text, text) => Value::String(text.to_string()),
            (Kind::Int, text) => text.parse::<i64>().map_or(Value::Null, Value::from),
            (Kind::Flag, text) => Value::Bool(text == "1"),
        };
        object.insert((*name).to_string(), value);
    }
    Ok(Value::Object(object))
}
