//! `--scope owned`: every call of a tool above readonly may touch only the panes,
//! windows and sessions paneward created (marked by `guard::owner`). Checked once, in
//! the request path, from the tool's input schema rather than per handler: every
//! argument whose schema is a pane, window or session id pattern (at any depth, rows of
//! arrays included) names an object, and all of them are looked up in one tmux round
//! trip before the handler runs.
//!
//! What names no object:
//! - a call that leaves out every id its tool could take (`set_option` or
//!   `set_environment` at global scope) changes the whole server: refused;
//! - the tools of [`SERVER_WIDE`] (`kill_server`): refused;
//! - any other tool that takes no id at all (creating a session, paneward's own
//!   buffers, the batches, whose rows are each checked like a call): allowed.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::app::App;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::Command;

/// Which objects tools above readonly may touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// Every pane, window and session of the server (the default).
    #[default]
    All,
    /// Only what paneward created.
    Owned,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Owned => "owned",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scope {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "all" => Ok(Self::All),
            "owned" => Ok(Self::Owned),
            _ => Err(format!(
                "unknown scope {:?}; use owned or all",
                text.chars().take(40).collect::<String>()
            )),
        }
    }
}

/// Tools that name no object yet change the whole server.
const SERVER_WIDE: [&str; 1] = ["kill_server"];

/// The `pattern`s by which a tool schema says a string is a pane, window or session id.
const ID_PATTERNS: [&str; 6] = [
    "^%[0-9]+$",
    "^%\\d+$",
    "^@[0-9]+$",
    "^\\$[0-9]+$",
    "^[%@$][0-9]+$",
    "^\\$\\d+$",
];

fn is_id_schema(schema: &Value) -> bool {
    schema
        .get("pattern")
        .and_then(Value::as_str)
        .is_some_and(|pattern| ID_PATTERNS.contains(&pattern))
}

/// The sub-schemas of `schema` (properties, items, variants).
fn has_id_position(schema: &Value) -> bool {
    if is_id_schema(schema) {
        return true;
    }
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.values());
    let items = schema.get("items").into_iter();
    let variants = ["anyOf", "oneOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten();
    properties.chain(items).chain(variants).any(has_id_position)
}

/// Every id in `value` at a position `schema` declares as an id.
fn collect_ids(schema: &Value, value: &Value, ids: &mut Vec<String>) {
    if let (true, Some(text)) = (is_id_schema(schema), value.as_str()) {
        if !ids.iter().any(|id| id == text) {
            ids.push(text.to_string());
        }
        return;
    }
    if let (Some(properties), Some(object)) = (schema.get("properties").and_then(Value::as_object), value.as_object()) {
        for (name, sub) in properties {
            if let Some(inner) = object.get(name) {
                collect_ids(sub, inner, ids);
            }
        }
    }
    if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
        for item in array {
            collect_ids(items, item, ids);
        }
    }
    for keyword in ["anyOf", "oneOf"] {
        for variant in schema.get(keyword).and_then(Value::as_array).into_iter().flatten() {
            collect_ids(variant, value, ids);
        }
    }
}

/// The ids a call of a tool with input `schema` names, or `None` when the tool takes
/// ids but this call gave none (a server-wide form).
fn named_ids(schema: &Value, arguments: &Value) -> Option<Vec<String>> {
    let mut ids = Vec::new();
    collect_ids(schema, arguments, &mut ids);
    if ids.is_empty() && has_id_position(schema) {
        return None;
    }
    Some(ids)
}

fn refusal(tool: &str, what: &str) -> ToolError {
    ToolError::new(
        ToolErrorKind::NotAllowed,
        format!(
            "`{tool}` {what}, and this server runs with --scope owned: tools that change tmux may touch only panes, windows and sessions paneward created; nothing changed"
        ),
    )
}

/// The marks read, one record per pane, with its window's and session's.
const MARK_FIELDS: [&str; 6] = [
    "pane_id",
    "window_id",
    "session_id",
    crate::tools::observe::objects::OWNED_PANE,
    crate::tools::observe::objects::OWNED_WINDOW,
    crate::tools::observe::objects::OWNED_SESSION,
];

/// Refuses a call of `tool` (input `schema`, validated `arguments`) that would touch
/// something paneward did not create.
///
/// # Errors
/// `notAllowed` naming the object (or the server-wide change) and the scope;
/// `notFound` for an id that names nothing; tmux failing.
pub async fn check(app: &App, tool: &str, schema: &Value, arguments: &Value) -> Result<(), ToolError> {
    if SERVER_WIDE.contains(&tool) {
        return Err(refusal(tool, "changes the whole tmux server"));
    }
    let Some(ids) = named_ids(schema, arguments) else {
        return Err(refusal(
            tool,
            "names no pane, window or session here, so it would change the whole tmux server",
        ));
    };
    if ids.is_empty() {
        return Ok(());
    }
    let command = Command::from(
        crate::tmux::ReadCommand::new(crate::tmux::ReadVerb::ListPanes)
            .arg("-a")
            .arg("-F")
            .arg(record_format(&MARK_FIELDS)),
    );
    let output = app.backend.tmux().run(command).await?;
    let text = String::from_utf8_lossy(&output);
    let mut owned: HashMap<&str, bool> = HashMap::new();
    for record in parse_records("list-panes", &MARK_FIELDS, &text)? {
        for (id, mark) in [(0, 3), (1, 4), (2, 5)] {
            owned.insert(record.text(MARK_FIELDS[id])?, record.flag(MARK_FIELDS[mark])?);
        }
    }
    for id in &ids {
        let kind = match id.chars().next() {
            Some('%') => "pane",
            Some('@') => "window",
            _ => "session",
        };
        match owned.get(id.as_str()) {
            None => {
                return Err(ToolError::new(
                    ToolErrorKind::NotFound,
                    format!("{kind} {id} does not exist; list panes (or windows, sessions) again for current ids; nothing changed"),
                ))
            }
            Some(false) => return Err(refusal(tool, &format!("would touch {kind} {id}, which paneward did not create"))),
            Some(true) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ids_are_found_by_their_schema_pattern_at_any_depth() {
        let schema = json!({"properties": {
            "pane_id": {"type": "string", "pattern": "^%[0-9]+$"},
            "name": {"type": "string"},
            "keys": {"type": "array", "items": {"properties": {"paneId": {"type": "string", "pattern": "^%\\d+$"}}}}
        }});
        let arguments = json!({"pane_id": "%1", "name": "%9", "keys": [{"paneId": "%2"}, {"paneId": "%1"}]});
        let mut ids = named_ids(&schema, &arguments).unwrap();
        ids.sort();
        assert_eq!(ids, ["%1", "%2"], "each once; the free-text name is not an id");
    }

    #[test]
    fn leaving_out_every_id_is_a_server_wide_call_and_no_id_position_is_none() {
        let schema = json!({"properties": {"target": {"type": "string", "pattern": "^[%@$][0-9]+$"}}});
        assert_eq!(named_ids(&schema, &json!({})), None);
        assert_eq!(
            named_ids(
                &json!({"properties": {"text": {"type": "string"}}}),
                &json!({"text": "%1"})
            ),
            Some(vec![])
        );
    }

    #[test]
    fn scopes_read_back_from_their_names() {
        for scope in [Scope::All, Scope::Owned] {
            assert_eq!(scope.as_str().parse::<Scope>(), Ok(scope));
        }
        assert!("mine".parse::<Scope>().is_err());
    }
}
