//! `--scope owned`: every call of a tool above readonly may touch only the panes,
//! windows and sessions paneward created (marked by `guard::owner`). Checked once, in
//! the request path, from the tool's input schema rather than per handler: every
//! argument whose schema is a pane, window or session id pattern (at any depth, rows of
//! arrays included) names an object. Beyond those, a call must not end, close or change
//! anything paneward did not create (`Reach`: what a kill ends inside, what a move
//! closes, the window a split or resize changes, the panes synchronize-panes copies
//! input to). Each mark is read at its own level, never inherited (`guard::owner`).
//!
//! What names no object:
//! - a call that leaves out every id its tool could take (`set_option` or
//!   `set_environment` at global scope) changes the whole server: refused;
//! - the tools of `SERVER_WIDE` (`kill_server`): refused;
//! - any other tool that takes no id at all (creating a session, paneward's own
//!   buffers, the batches, whose rows are each checked like a call): allowed.

use serde_json::Value;

use crate::guard::owner::{OwnedMark, OWNED_VALUE};
use crate::guard::state::GuardState;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::Command;

/// Tools that name no object yet change the whole server.
const SERVER_WIDE: [&str; 1] = ["kill_server"];

/// Tools whose own question to the person is their scope: `request_pane` names a pane
/// outside the scope on purpose, and changes it only with the person's yes.
const ASKS_THE_PERSON: [&str; 1] = ["request_pane"];

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

/// Where every pane of the server is, one record per pane and session it is in (a
/// window linked into two sessions is listed under both).
const PLACE_FIELDS: [&str; 6] = [
    "pane_id",
    "window_id",
    "session_id",
    "window_panes",
    "session_windows",
    // The pane's effective value: a pane option overrides the window's.
    "synchronize-panes",
];

/// One pane in one session, as the check sees it.
struct Place {
    pane: String,
    window: String,
    session: String,
    /// The pane is its window's only pane: ending or moving it closes the window.
    last_pane: bool,
    /// The window is its session's only window: closing it closes the session.
    last_window: bool,
    synchronized: bool,
}

/// What a tool does to objects beyond the ones it names, and so which of those must be
/// paneward's too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Ending a window or session ends everything inside it.
    Contents,
    /// Ending or moving away a window's last pane closes the window; a session's last
    /// window, the session.
    Closing,
    /// The pane's window changes shape (a new pane, a size, zoom, a pane swapped in or out).
    PaneWindow,
    /// The window's sessions change (a window leaves one, or gains an index).
    WindowSession,
    /// A pane broken out becomes a new window of its session.
    PaneSession,
    /// Keys typed into a pane with `synchronize-panes` on reach its synchronized siblings.
    Cohort,
}

/// The reaches of a call of `tool` with `arguments`.
fn reaches(tool: &str, arguments: &Value) -> &'static [Reach] {
    match tool {
        "kill_pane" => &[Reach::Closing],
        "kill_window" | "kill_session" => &[Reach::Contents, Reach::Closing],
        "move_pane" if arguments.get("to_window_id").is_none() => &[Reach::PaneWindow, Reach::PaneSession],
        "move_pane" => &[Reach::PaneWindow, Reach::Closing],
        "move_window" => &[Reach::WindowSession],
        "split_window" | "resize_pane" | "swap_pane" => &[Reach::PaneWindow],
        "send_keys" | "send_keys_batch" | "paste_text" | "paste_buffer" | "run_command" => &[Reach::Cohort],
        _ => &[],
    }
}

/// An object the call would touch, and how, for the refusal.
struct Touched {
    id: String,
    how: String,
}

fn touch(touched: &mut Vec<Touched>, id: &str, how: impl FnOnce() -> String) {
    if !touched.iter().any(|t| t.id == id) {
        touched.push(Touched {
            id: id.to_string(),
            how: how(),
        });
    }
}

/// Everything a call naming `ids` touches, the named objects first.
fn touched_by(reach: &[Reach], ids: &[String], places: &[Place]) -> Vec<Touched> {
    let mut touched = Vec::new();
    for id in ids {
        let noun = OwnedMark::of_id(id).map_or("object", OwnedMark::noun);
        touch(&mut touched, id, || format!("would touch {noun} {id}"));
    }
    for id in ids {
        for place in places {
            for reach in reach {
                match reach {
                    Reach::Contents if place.window == *id => {
                        touch(&mut touched, &place.pane, || {
                            format!("would end pane {} inside window {id}", place.pane)
                        });
                    }
                    Reach::Contents if place.session == *id => {
                        touch(&mut touched, &place.window, || {
                            format!("would end window {} inside session {id}", place.window)
                        });
                        touch(&mut touched, &place.pane, || {
                            format!("would end pane {} inside session {id}", place.pane)
                        });
                    }
                    Reach::Closing if place.pane == *id && place.last_pane => {
                        touch(&mut touched, &place.window, || {
                            format!("would close window {}, whose only pane is {id}", place.window)
                        });
                        if place.last_window {
                            touch(&mut touched, &place.session, || {
                                format!(
                                    "would close session {}, whose only window holds only pane {id}",
                                    place.session
                                )
                            });
                        }
                    }
                    Reach::Closing if place.window == *id && place.last_window => {
                        touch(&mut touched, &place.session, || {
                            format!("would close session {}, whose only window is {id}", place.session)
                        });
                    }
                    Reach::PaneWindow if place.pane == *id => {
                        touch(&mut touched, &place.window, || {
                            format!("would change window {}, which holds pane {id}", place.window)
                        });
                    }
                    Reach::WindowSession if place.window == *id => {
                        touch(&mut touched, &place.session, || {
                            format!("would change session {}, which holds window {id}", place.session)
                        });
                    }
                    Reach::PaneSession if place.pane == *id => {
                        touch(&mut touched, &place.session, || {
                            format!("would add a window to session {}, which holds pane {id}", place.session)
                        });
                    }
                    _ => {}
                }
            }
        }
        if reach.contains(&Reach::Cohort) {
            let target = places.iter().find(|p| p.pane == *id && p.synchronized);
            for sibling in places
                .iter()
                .filter(|p| target.is_some_and(|t| t.window == p.window) && p.synchronized && p.pane != *id)
            {
                touch(&mut touched, &sibling.pane, || {
                    format!(
                        "would type into pane {}: synchronize-panes is on in window {}, so input to pane {id} also reaches it",
                        sibling.pane, sibling.window
                    )
                });
            }
        }
    }
    touched
}

/// Reads where every pane is.
async fn read_places(state: &GuardState) -> Result<Vec<Place>, ToolError> {
    let command = Command::from(
        crate::tmux::ReadCommand::new(crate::tmux::ReadVerb::ListPanes)
            .arg("-a")
            .arg("-F")
            .arg(record_format(&PLACE_FIELDS)),
    );
    let output = state.backend.tmux().run(command).await?;
    let text = String::from_utf8_lossy(&output);
    let mut places = Vec::new();
    for record in parse_records("list-panes", &PLACE_FIELDS, &text)? {
        places.push(Place {
            pane: record.text("pane_id")?.to_string(),
            window: record.text("window_id")?.to_string(),
            session: record.text("session_id")?.to_string(),
            last_pane: record.int("window_panes")? == 1,
            last_window: record.int("session_windows")? == 1,
            synchronized: record.flag("synchronize-panes")?,
        });
    }
    Ok(places)
}

/// Reads the mark of each of `ids` at its own level (never inherited), in one round trip.
async fn owned(state: &GuardState, ids: &[&str]) -> Result<Vec<bool>, ToolError> {
    let commands: Vec<Command> = ids
        .iter()
        .map(|id| {
            let mark =
                OwnedMark::of_id(id).ok_or_else(|| ToolError::internal(format!("{id:?} is not an object id")))?;
            Ok(Command::from(mark.read_own(id)))
        })
        .collect::<Result<_, ToolError>>()?;
    let outputs = state.backend.tmux().run_all(&commands).await?;
    Ok(outputs
        .iter()
        .map(|output| String::from_utf8_lossy(output).trim() == OWNED_VALUE)
        .collect())
}

/// Refuses a call of `tool` (input `schema`, validated `arguments`) that would touch
/// something paneward did not create: an object it names, or one it would end, close,
/// reshape or type into beyond those (see `Reach`).
///
/// Made in the request path just before the handler runs, from two reads: where every
/// pane is, then each touched object's own mark. The marks are set only when paneward
/// creates an object and no call can set them, so only the layout can change in between
/// (a person splitting a pane into an owned window in those milliseconds). Input is
/// checked again in its own command list (`guard::cohort`: an unmarked pane in the
/// cohort refuses it); other changes are not, because a check inside tmux reads the
/// marks with formats, which inherit, so it is only a backstop to this one.
///
/// # Errors
/// `notAllowed` naming the object (or the server-wide change) and the scope;
/// `notFound` for an id that names nothing; tmux failing.
pub async fn check(state: &GuardState, tool: &str, schema: &Value, arguments: &Value) -> Result<(), ToolError> {
    if SERVER_WIDE.contains(&tool) {
        return Err(refusal(tool, "changes the whole tmux server"));
    }
    if ASKS_THE_PERSON.contains(&tool) {
        return Ok(());
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
    let places = read_places(state).await?;
    for id in &ids {
        let exists = places
            .iter()
            .any(|p| p.pane == *id || p.window == *id || p.session == *id);
        if !exists {
            let noun = OwnedMark::of_id(id).map_or("object", OwnedMark::noun);
            return Err(ToolError::new(
                ToolErrorKind::NotFound,
                format!("{noun} {id} does not exist; list panes (or windows, sessions) again for current ids; nothing changed"),
            ));
        }
    }
    let touched = touched_by(reaches(tool, arguments), &ids, &places);
    let listed: Vec<&str> = touched.iter().map(|t| t.id.as_str()).collect();
    let marks = owned(state, &listed).await?;
    if let Some((touched, _)) = touched.iter().zip(marks).find(|(_, owned)| !owned) {
        let noun = OwnedMark::of_id(&touched.id).map_or("object", OwnedMark::noun);
        return Err(refusal(
            tool,
            &format!("{}; {noun} {} is not one paneward created", touched.how, touched.id),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::config::Scope;

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

    fn place(pane: &str, window: &str, session: &str, (last_pane, last_window): (bool, bool)) -> Place {
        Place {
            pane: pane.into(),
            window: window.into(),
            session: session.into(),
            last_pane,
            last_window,
            synchronized: false,
        }
    }

    fn ids_touched(tool: &str, arguments: &Value, named: &[&str], places: &[Place]) -> Vec<String> {
        let named: Vec<String> = named.iter().map(|id| (*id).to_string()).collect();
        touched_by(reaches(tool, arguments), &named, places)
            .into_iter()
            .map(|t| t.id)
            .collect()
    }

    #[test]
    fn a_call_touches_what_it_ends_closes_or_reshapes_beyond_what_it_names() {
        let places = [
            place("%1", "@1", "$1", (false, true)),
            place("%2", "@1", "$1", (false, true)),
            place("%3", "@2", "$2", (true, true)),
        ];
        assert_eq!(
            ids_touched("kill_window", &json!({}), &["@1"], &places),
            ["@1", "%1", "$1", "%2"]
        );
        assert_eq!(
            ids_touched("kill_pane", &json!({}), &["%3"], &places),
            ["%3", "@2", "$2"]
        );
        assert_eq!(ids_touched("kill_pane", &json!({}), &["%1"], &places), ["%1"]);
        assert_eq!(ids_touched("split_window", &json!({}), &["%2"], &places), ["%2", "@1"]);
        assert_eq!(ids_touched("rename_window", &json!({}), &["@1"], &places), ["@1"]);
        let mut synced = places;
        synced[0].synchronized = true;
        synced[1].synchronized = true;
        assert_eq!(ids_touched("send_keys", &json!({}), &["%1"], &synced), ["%1", "%2"]);
    }

    #[test]
    fn scopes_read_back_from_their_names() {
        for scope in [Scope::All, Scope::Owned] {
            assert_eq!(scope.as_str().parse::<Scope>(), Ok(scope));
        }
        assert!("mine".parse::<Scope>().is_err());
    }
}
