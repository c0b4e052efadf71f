//! A write batch's `dry_run`: what each row would do, said in words, with the tmux
//! command it centres on and the objects it would close, read from tmux as it stands
//! now. The words, the command and what closes are each tool file's `dryRun`
//! (templates: `paneward_contract::template`), rendered here. Nothing runs: the only call made is one `list_panes` (readonly), and only when a
//! row would close something.

use serde_json::{json, Map, Value};

use crate::generated::TOOLS;
use crate::guard::Rows;
use crate::runtime::error::ToolError;
use crate::runtime::facts::{CloseBy, DryRunSpec, Form, Piece, Placeholder};
use crate::runtime::{CallContext, ToolSpec};
use crate::tools::batch::refs::References;

/// One row of the batch as the preview sees it.
pub struct Planned<'a> {
    pub tool: &'a str,
    pub arguments: &'a Map<String, Value>,
    pub references: &'a References,
}

/// Where a pane sits, from `list_panes`.
struct Place {
    pane: String,
    window: String,
    session: String,
}

/// The row's arguments for display: a referenced id shows as what will set it.
fn shown(row: &Planned<'_>) -> Map<String, Value> {
    let mut shown = row.arguments.clone();
    for (argument, reference) in row.references {
        shown.insert(
            argument.clone(),
            Value::String(format!("<row{}.{}>", reference.row, reference.field)),
        );
    }
    shown
}

fn text<'m>(arguments: &'m Map<String, Value>, name: &str) -> Option<&'m str> {
    arguments.get(name).and_then(Value::as_str)
}

/// A word as a person would type it: quoted when it holds anything but plain characters.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "%@$<>_-./:=,+".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// How a template shows a value: as it is (what a row does), or as a person would type
/// it (its tmux command).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shown {
    AsIs,
    Typed,
}

/// The dry-run facts of `tool`'s file. The rows of a write batch are paneward's own
/// tools, so the default table's.
fn dry_run_of(tool: &str) -> Option<&'static DryRunSpec> {
    ToolSpec::find(&TOOLS, tool)?.dry_run
}

/// The first argument of `placeholder` the row gives: a text, or a program's words.
fn given<'m>(arguments: &'m Map<String, Value>, placeholder: &Placeholder) -> Option<&'m Value> {
    placeholder
        .arguments
        .iter()
        .filter_map(|name| arguments.get(*name))
        .find(|value| value.is_string() || value.is_array())
}

fn shown_as(word: &str, shown: Shown) -> String {
    match shown {
        Shown::AsIs => word.to_string(),
        Shown::Typed => quoted(word),
    }
}

/// One placeholder's text: the value given (a program as `--` and its words), else
/// the literal or `?`, in its form.
fn value(placeholder: &Placeholder, arguments: &Map<String, Value>, shown: Shown) -> String {
    let found = given(arguments, placeholder);
    if let Some(Value::Array(words)) = found {
        return std::iter::once("--")
            .chain(words.iter().filter_map(Value::as_str))
            .map(|word| shown_as(word, shown))
            .collect::<Vec<_>>()
            .join(" ");
    }
    let chosen = found.and_then(Value::as_str).or(placeholder.fallback);
    let text = match placeholder.form {
        Form::Plain => chosen.unwrap_or("?").to_string(),
        Form::Quoted => format!("{:?}", chosen.unwrap_or("?")),
        Form::Choice { cases, otherwise } => cases
            .iter()
            .find(|(case, _)| Some(*case) == chosen)
            .map_or(otherwise, |(_, word)| word)
            .to_string(),
    };
    shown_as(&text, shown)
}

/// A template with the row's arguments in it; an optional part only when the row
/// gives every argument it names.
fn render(pieces: &[Piece], arguments: &Map<String, Value>, shown: Shown) -> String {
    let mut out = String::new();
    for piece in pieces {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Value(placeholder) => out.push_str(&value(placeholder, arguments, shown)),
            Piece::Optional(part) => {
                let complete = part.iter().all(|piece| match piece {
                    Piece::Value(placeholder) => given(arguments, placeholder).is_some(),
                    _ => true,
                });
                if complete {
                    out.push_str(&render(part, arguments, shown));
                }
            }
        }
    }
    out
}

/// What the row would do, in a sentence, and the tmux command it centres on, as the
/// tool's file says (`dryRun`). Input goes through guard::input, which picks its tmux
/// commands at the row's turn: those files name none.
fn described(tool: &str, a: &Map<String, Value>) -> (String, Vec<String>) {
    let Some(dry_run) = dry_run_of(tool) else {
        return (
            format!("call `{tool}` (its tmux commands are chosen as it runs)"),
            Vec::new(),
        );
    };
    let tmux = dry_run.tmux.map(|tmux| vec![render(tmux, a, Shown::Typed)]);
    (render(dry_run.does, a, Shown::AsIs), tmux.unwrap_or_default())
}

/// What ending the object `id` names closes, as tmux stands now: the object, what is
/// inside it, and a window or session left empty by it (ids of each kind differ in
/// their first character, so one id matches one kind).
fn closing(places: &[Place], id: Option<&str>) -> Vec<String> {
    let mut closes: Vec<String> = Vec::new();
    let mut add = |id: &str| {
        if !closes.iter().any(|c| c == id) {
            closes.push(id.to_string());
        }
    };
    let panes: Vec<&Place> = places
        .iter()
        .filter(|p| id.is_some_and(|id| p.pane == id || p.window == id || p.session == id))
        .collect();
    for place in &panes {
        add(&place.pane);
    }
    for place in &panes {
        let window_empties = places
            .iter()
            .filter(|p| p.window == place.window)
            .all(|p| panes.iter().any(|q| q.pane == p.pane));
        if window_empties {
            add(&place.window);
        }
        let session_empties = places
            .iter()
            .filter(|p| p.session == place.session)
            .all(|p| panes.iter().any(|q| q.pane == p.pane));
        if session_empties {
            add(&place.session);
        }
    }
    closes
}

/// What the row closes, as its file's `dryRun.closes` says.
fn closes_of(row: &Planned<'_>, places: &[Place]) -> Vec<String> {
    let Some(closes) = dry_run_of(row.tool).and_then(|dry_run| dry_run.closes) else {
        return Vec::new();
    };
    let given = text(row.arguments, closes.argument);
    match closes.by {
        // A referenced id is not known yet: it shows as the row that will set it.
        CloseBy::Ending => match row.references.get(closes.argument) {
            Some(reference) => vec![format!("<row{}.{}>", reference.row, reference.field)],
            None => closing(places, given),
        },
        // The pane leaves its window: the window closes when it held only that pane.
        CloseBy::Leaving => given
            .map(|pane| {
                closing(places, Some(pane))
                    .into_iter()
                    .filter(|id| id.starts_with('@'))
                    .collect()
            })
            .unwrap_or_default(),
    }
}

async fn places(rows: &Rows<'_>, context: &CallContext) -> Result<Vec<Place>, ToolError> {
    let listed = rows.call("list_panes", None, &context.row_of()).await?;
    let field = |pane: &Value, name: &str| pane.get(name).and_then(Value::as_str).unwrap_or_default().to_string();
    Ok(listed
        .get("panes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|pane| Place {
            pane: field(pane, "id"),
            window: field(pane, "windowId"),
            session: field(pane, "sessionId"),
        })
        .collect())
}

/// The preview of every row: `{does, tmux, closes}`.
///
/// # Errors
/// tmux could not be read for what the rows would close.
pub async fn preview(rows: &Rows<'_>, context: &CallContext, planned: &[Planned<'_>]) -> Result<Vec<Value>, ToolError> {
    let closes_any = planned
        .iter()
        .any(|row| dry_run_of(row.tool).is_some_and(|dry_run| dry_run.closes.is_some()));
    let places = if closes_any {
        places(rows, context).await?
    } else {
        Vec::new()
    };
    Ok(planned
        .iter()
        .map(|row| {
            let (does, tmux) = described(row.tool, &shown(row));
            json!({"does": does, "tmux": tmux, "closes": closes_of(row, &places)})
        })
        .collect())
}

#[cfg(test)]
mod before {
    #![allow(dead_code)]
    use serde_json::{Map, Value};
    use super::{Planned, Place, text};
/// `tmux VERB` with the flags and values the arguments give, one word each.
struct Line(Vec<String>);

impl Line {
    fn new(verb: &str) -> Self {
        Self(vec![verb.to_string()])
    }
    fn word(mut self, word: &str) -> Self {
        self.0.push(word.to_string());
        self
    }
    fn flag(mut self, flag: &str, value: Option<&str>) -> Self {
        if let Some(value) = value {
            self.0.push(flag.to_string());
            self.0.push(quoted_old(value));
        }
        self
    }
    fn program(mut self, arguments: &Map<String, Value>) -> Self {
        if let Some(argv) = arguments.get("command").and_then(Value::as_array) {
            self.0.push("--".to_string());
            self.0.extend(argv.iter().filter_map(Value::as_str).map(quoted_old));
        } else if let Some(line) = text(arguments, "shell") {
            self.0.push(quoted_old(line));
        }
        self
    }
    fn done(self) -> String {
        self.0.join(" ")
    }
}

/// A word as a person would type it: quoted when it holds anything but plain characters.
fn quoted_old(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "%@$<>_-./:=,+".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// What the row would do, in a sentence, and the tmux command it centres on.
pub fn described(tool: &str, a: &Map<String, Value>) -> (String, Vec<String>) {
    let id = |name: &str| text(a, name).unwrap_or("?").to_string();
    match tool {
        "create_session" => (
            format!(
                "create a detached session{}",
                text(a, "name").map(|n| format!(" named {n:?}")).unwrap_or_default()
            ),
            vec![Line::new("new-session")
                .word("-d")
                .flag("-s", text(a, "name"))
                .flag("-n", text(a, "window_name"))
                .flag("-c", text(a, "start_directory"))
                .program(a)
                .done()],
        ),
        "create_window" => (
            format!("create a window in session {}", id("session_id")),
            vec![Line::new("new-window")
                .word("-d")
                .flag("-t", text(a, "session_id"))
                .flag("-n", text(a, "name"))
                .flag("-c", text(a, "start_directory"))
                .program(a)
                .done()],
        ),
        "split_window" => {
            let direction = text(a, "direction").unwrap_or("below");
            (
                format!("split pane {} and put the new pane {direction}", id("pane_id")),
                vec![Line::new("split-window")
                    .word("-d")
                    .flag("-t", text(a, "pane_id"))
                    .word(if matches!(direction, "left" | "right") {
                        "-h"
                    } else {
                        "-v"
                    })
                    .flag("-c", text(a, "start_directory"))
                    .program(a)
                    .done()],
            )
        }
        "select_layout" => (
            format!("arrange window {} as {}", id("window_id"), id("layout")),
            vec![Line::new("select-layout")
                .flag("-t", text(a, "window_id"))
                .word(&quoted_old(text(a, "layout").unwrap_or("?")))
                .done()],
        ),
        // Input goes through guard::input, which picks its tmux commands (keys or a
        // paste) at the row's turn, after the pane's cohort check: none to show here.
        "send_keys" | "paste_text" | "run_command" => {
            let pane = text(a, "pane_id").or_else(|| text(a, "paneId")).unwrap_or("?");
            (
                format!("type into pane {pane} through paneward's input check, at the row's turn"),
                Vec::new(),
            )
        }
        "kill_pane" => (
            format!("end pane {}", id("pane_id")),
            vec![Line::new("kill-pane").flag("-t", text(a, "pane_id")).done()],
        ),
        "kill_window" => (
            format!("end window {}", id("window_id")),
            vec![Line::new("kill-window").flag("-t", text(a, "window_id")).done()],
        ),
        "kill_session" => (
            format!("end session {}", id("session_id")),
            vec![Line::new("kill-session").flag("-t", text(a, "session_id")).done()],
        ),
        "respawn_pane" => (
            format!("start a new program in pane {}", id("pane_id")),
            vec![Line::new("respawn-pane")
                .flag("-t", text(a, "pane_id"))
                .program(a)
                .done()],
        ),
        "rename_session" => (
            format!("rename session {}", id("session_id")),
            vec![Line::new("rename-session")
                .flag("-t", text(a, "session_id"))
                .word(&quoted_old(&id("name")))
                .done()],
        ),
        "rename_window" => (
            format!("rename window {}", id("window_id")),
            vec![Line::new("rename-window")
                .flag("-t", text(a, "window_id"))
                .word(&quoted_old(&id("name")))
                .done()],
        ),
        "select_pane" => (
            format!("make pane {} active", id("pane_id")),
            vec![Line::new("select-pane").flag("-t", text(a, "pane_id")).done()],
        ),
        "select_window" => (
            format!("make window {} current", id("window_id")),
            vec![Line::new("select-window").flag("-t", text(a, "window_id")).done()],
        ),
        "set_pane_title" => (
            format!("set the title of pane {}", id("pane_id")),
            vec![Line::new("select-pane")
                .flag("-t", text(a, "pane_id"))
                .flag("-T", text(a, "title"))
                .done()],
        ),
        "set_option" => (
            format!(
                "set option {} at {} scope",
                id("name"),
                text(a, "scope").unwrap_or("its")
            ),
            vec![Line::new("set-option")
                .flag("-t", text(a, "target"))
                .word(&quoted_old(&id("name")))
                .done()],
        ),
        "resize_pane" => (
            format!("resize pane {}", id("pane_id")),
            vec![Line::new("resize-pane").flag("-t", text(a, "pane_id")).done()],
        ),
        "swap_pane" => (
            format!("swap pane {} with pane {}", id("pane_id"), id("with_pane_id")),
            vec![Line::new("swap-pane")
                .flag("-s", text(a, "pane_id"))
                .flag("-t", text(a, "with_pane_id"))
                .done()],
        ),
        "move_pane" => (
            format!("move pane {} into window {}", id("pane_id"), id("to_window_id")),
            vec![Line::new("join-pane")
                .flag("-s", text(a, "pane_id"))
                .flag("-t", text(a, "to_window_id"))
                .done()],
        ),
        "move_window" => (
            format!("move window {}", id("window_id")),
            vec![Line::new("move-window")
                .flag("-s", text(a, "window_id"))
                .flag("-t", text(a, "to_session_id"))
                .done()],
        ),
        _ => (
            format!("call `{tool}` (its tmux commands are chosen as it runs)"),
            Vec::new(),
        ),
    }
}

/// What ending `pane`, `window` or `session` closes, as tmux stands now: the object, what
/// is inside it, and a window or session left empty by it.
fn closing_old(places: &[Place], pane: Option<&str>, window: Option<&str>, session: Option<&str>) -> Vec<String> {
    let mut closes: Vec<String> = Vec::new();
    let mut add = |id: &str| {
        if !closes.iter().any(|c| c == id) {
            closes.push(id.to_string());
        }
    };
    let panes: Vec<&Place> = places
        .iter()
        .filter(|p| {
            Some(p.pane.as_str()) == pane || Some(p.window.as_str()) == window || Some(p.session.as_str()) == session
        })
        .collect();
    for place in &panes {
        add(&place.pane);
    }
    for place in &panes {
        let window_empties = places
            .iter()
            .filter(|p| p.window == place.window)
            .all(|p| panes.iter().any(|q| q.pane == p.pane));
        if window_empties {
            add(&place.window);
        }
        let session_empties = places
            .iter()
            .filter(|p| p.session == place.session)
            .all(|p| panes.iter().any(|q| q.pane == p.pane));
        if session_empties {
            add(&place.session);
        }
    }
    closes
}

pub fn closes_of(row: &Planned<'_>, places: &[Place]) -> Vec<String> {
    let a = row.arguments;
    let referenced = |name: &str| row.references.get(name).map(|r| format!("<row{}.{}>", r.row, r.field));
    let given = |name: &str| text(a, name);
    match row.tool {
        "kill_pane" => referenced("pane_id").map_or_else(|| closing_old(places, given("pane_id"), None, None), |r| vec![r]),
        "kill_window" => {
            referenced("window_id").map_or_else(|| closing_old(places, None, given("window_id"), None), |r| vec![r])
        }
        "kill_session" => {
            referenced("session_id").map_or_else(|| closing_old(places, None, None, given("session_id")), |r| vec![r])
        }
        // The pane leaves its window: the window closes when it held only that pane.
        "move_pane" => given("pane_id")
            .map(|pane| {
                closing_old(places, Some(pane), None, None)
                    .into_iter()
                    .filter(|id| id.starts_with('@'))
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}


}

#[cfg(test)]
mod equivalence {
    use serde_json::{json, Map, Value};
    use super::*;

    #[test]
    fn templates_say_what_the_match_said() {
        let values = [json!("%1"), json!("@2"), json!("$3"), json!("it's a 'name'"), json!("plain"), json!("left"), json!("right"), json!("below"), json!(["sleep", "6 0", "x'y"]), json!("a\"b\n\u{1b}"), json!(5), json!(true)];
        let names = ["pane_id", "paneId", "window_id", "session_id", "name", "window_name", "start_directory", "command", "shell", "direction", "layout", "title", "target", "scope", "with_pane_id", "to_window_id", "to_session_id"];
        let places = vec![
            Place { pane: "%1".into(), window: "@1".into(), session: "$1".into() },
            Place { pane: "%2".into(), window: "@2".into(), session: "$1".into() },
            Place { pane: "%3".into(), window: "@2".into(), session: "$1".into() },
            Place { pane: "%4".into(), window: "@4".into(), session: "$3".into() },
        ];
        let mut checked = 0;
        for spec in crate::generated::TOOLS.iter() {
            let tool = spec.name;
            let relevant: Vec<&str> = names.iter().copied().filter(|n| *n == "paneId" || spec.input_schema.contains(&format!("\"{n}\""))).collect();
            // every argument alone, each value; and all together
            let mut cases: Vec<Map<String, Value>> = vec![Map::new()];
            for name in &relevant {
                for v in &values {
                    let mut m = Map::new();
                    m.insert(name.to_string(), v.clone());
                    cases.push(m);
                }
            }
            for v in &values {
                let mut m = Map::new();
                for name in &relevant { m.insert(name.to_string(), v.clone()); }
                cases.push(m.clone());
                for drop in &relevant { let mut n = m.clone(); n.remove(*drop); cases.push(n); }
            }
            let schema: Value = serde_json::from_str(spec.input_schema).unwrap();
            let validator = jsonschema::validator_for(&schema).unwrap();
            // Each case with the required arguments it lacks, so that it is one a batch previews.
            let defaults = json!({"pane_id": "%1", "window_id": "@2", "session_id": "$3", "name": "n x", "layout": "tiled", "scope": "pane", "with_pane_id": "%2", "keys": "k", "text": "t", "title": "t t", "to_session_id": "$1", "command": ["true"], "value": "v"});
            let required: Vec<String> = schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(|r| r.as_str().map(str::to_string)).collect();
            let cases: Vec<Map<String, Value>> = cases.into_iter().map(|mut case| {
                for name in &required {
                    if !case.contains_key(name) && !(name == "pane_id" && case.contains_key("paneId")) {
                        if let Some(value) = defaults.get(name) { case.insert(name.clone(), value.clone()); }
                    }
                }
                case
            }).collect();
            for args in &cases {
                // A batch previews only rows its tool's schema accepts (paneId: the request path's former spelling).
                let mut current = args.clone();
                if tool == "send_keys" { if let Some(former) = current.remove("paneId") { current.entry("pane_id").or_insert(former); } }
                if !validator.is_valid(&Value::Object(current)) { continue; }
                assert_eq!(described(tool, args), before::described(tool, args), "{tool} {args:?}");
                let mut references = References::new();
                for refd in [false, true] {
                    if refd {
                        for name in ["pane_id", "window_id", "session_id"] {
                            references.insert(name.to_string(), crate::tools::batch::refs::Reference { row: 0, field: "paneId".into() });
                        }
                    }
                    let row = Planned { tool, arguments: args, references: &references };
                    assert_eq!(closes_of(&row, &places), before::closes_of(&row, &places), "{tool} {args:?}");
                }
                checked += 1;
            }
        }
        assert!(checked > 300, "{checked}");
    }
}
