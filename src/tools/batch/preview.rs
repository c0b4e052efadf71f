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
    // Full rows: a brief pane row has no sessionId.
    let full = Map::from_iter([("detail".to_string(), json!("full"))]);
    let listed = rows.call("list_panes", Some(full), &context.row_of()).await?;
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
mod tests {
    use serde_json::json;

    use super::*;

    fn arguments(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_row_is_described_by_its_tool_file_s_templates() {
        let (does, tmux) = described(
            "create_session",
            &arguments(json!({"name": "planned one", "command": ["sleep", "6 0"]})),
        );
        assert_eq!(does, "create a detached session named \"planned one\"");
        assert_eq!(tmux, ["new-session -d -s 'planned one' -- sleep '6 0'"]);
        let (does, tmux) = described("create_session", &arguments(json!({"shell": "make && make test"})));
        assert_eq!(
            does, "create a detached session",
            "an optional part without its argument is left out"
        );
        assert_eq!(tmux, ["new-session -d 'make && make test'"]);
        let (does, tmux) = described(
            "split_window",
            &arguments(json!({"pane_id": "<row0.paneId>", "direction": "left"})),
        );
        assert_eq!(does, "split pane <row0.paneId> and put the new pane left");
        assert_eq!(tmux, ["split-window -d -t <row0.paneId> -h"]);
        let (does, tmux) = described("split_window", &arguments(json!({"pane_id": "%1"})));
        assert_eq!(
            does, "split pane %1 and put the new pane below",
            "the literal when not given"
        );
        assert_eq!(tmux, ["split-window -d -t %1 -v"], "the choice's word for none");
        let (_, tmux) = described("select_layout", &arguments(json!({"window_id": "@1"})));
        assert_eq!(tmux, ["select-layout -t @1 '?'"]);
        let (does, tmux) = described("send_keys", &arguments(json!({"paneId": "%4", "keys": "ls"})));
        assert_eq!(
            does,
            "type into pane %4 through paneward's input check, at the row's turn"
        );
        assert!(tmux.is_empty(), "input's commands are chosen at its turn");
        let (does, tmux) = described("list_panes", &Map::new());
        assert_eq!(does, "call `list_panes` (its tmux commands are chosen as it runs)");
        assert!(tmux.is_empty());
    }

    #[test]
    fn a_row_closes_what_it_ends_and_the_window_a_pane_leaves_empty() {
        let place = |pane: &str, window: &str, session: &str| Place {
            pane: pane.into(),
            window: window.into(),
            session: session.into(),
        };
        let places = [
            place("%1", "@1", "$1"),
            place("%2", "@2", "$1"),
            place("%3", "@2", "$1"),
            place("%4", "@4", "$4"),
        ];
        let closes = |tool: &str, args: Value, references: &References| {
            let arguments = arguments(args);
            closes_of(
                &Planned {
                    tool,
                    arguments: &arguments,
                    references,
                },
                &places,
            )
        };
        let none = References::new();
        assert_eq!(
            closes("kill_window", json!({"window_id": "@2"}), &none),
            ["%2", "%3", "@2"]
        );
        assert_eq!(closes("kill_pane", json!({"pane_id": "%4"}), &none), ["%4", "@4", "$4"]);
        assert_eq!(closes("kill_pane", json!({"pane_id": "%2"}), &none), ["%2"]);
        assert_eq!(
            closes("move_pane", json!({"pane_id": "%1", "to_window_id": "@2"}), &none),
            ["@1"]
        );
        assert!(closes("rename_window", json!({"window_id": "@4", "name": "x"}), &none).is_empty());
        let referenced = References::from([(
            "session_id".to_string(),
            crate::tools::batch::refs::Reference {
                row: 0,
                field: "sessionId".into(),
            },
        )]);
        assert_eq!(closes("kill_session", json!({}), &referenced), ["<row0.sessionId>"]);
    }
}
