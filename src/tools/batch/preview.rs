//! A write batch's `dry_run`: what each row would do, said in words, with the tmux
//! command it centres on and the objects it would close, read from tmux as it stands
//! now. Nothing runs: the only call made is one `list_panes` (readonly), and only when a
//! row would close something.

use serde_json::{json, Map, Value};

use crate::guard::Rows;
use crate::runtime::error::ToolError;
use crate::runtime::CallContext;
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
            self.0.push(quoted(value));
        }
        self
    }
    fn program(mut self, arguments: &Map<String, Value>) -> Self {
        if let Some(argv) = arguments.get("command").and_then(Value::as_array) {
            self.0.push("--".to_string());
            self.0.extend(argv.iter().filter_map(Value::as_str).map(quoted));
        } else if let Some(line) = text(arguments, "shell") {
            self.0.push(quoted(line));
        }
        self
    }
    fn done(self) -> String {
        self.0.join(" ")
    }
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

/// What the row would do, in a sentence, and the tmux command it centres on.
fn described(tool: &str, a: &Map<String, Value>) -> (String, Vec<String>) {
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
                .word(&quoted(text(a, "layout").unwrap_or("?")))
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
                .word(&quoted(&id("name")))
                .done()],
        ),
        "rename_window" => (
            format!("rename window {}", id("window_id")),
            vec![Line::new("rename-window")
                .flag("-t", text(a, "window_id"))
                .word(&quoted(&id("name")))
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
                .word(&quoted(&id("name")))
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
fn closing(places: &[Place], pane: Option<&str>, window: Option<&str>, session: Option<&str>) -> Vec<String> {
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

fn closes_of(row: &Planned<'_>, places: &[Place]) -> Vec<String> {
    let a = row.arguments;
    let referenced = |name: &str| row.references.get(name).map(|r| format!("<row{}.{}>", r.row, r.field));
    let given = |name: &str| text(a, name);
    match row.tool {
        "kill_pane" => referenced("pane_id").map_or_else(|| closing(places, given("pane_id"), None, None), |r| vec![r]),
        "kill_window" => {
            referenced("window_id").map_or_else(|| closing(places, None, given("window_id"), None), |r| vec![r])
        }
        "kill_session" => {
            referenced("session_id").map_or_else(|| closing(places, None, None, given("session_id")), |r| vec![r])
        }
        // The pane leaves its window: the window closes when it held only that pane.
        "move_pane" => given("pane_id")
            .map(|pane| {
                closing(places, Some(pane), None, None)
                    .into_iter()
                    .filter(|id| id.starts_with('@'))
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
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

const CLOSING_TOOLS: [&str; 4] = ["kill_pane", "kill_window", "kill_session", "move_pane"];

/// The preview of every row: `{does, tmux, closes}`.
///
/// # Errors
/// tmux could not be read for what the rows would close.
pub async fn preview(rows: &Rows<'_>, context: &CallContext, planned: &[Planned<'_>]) -> Result<Vec<Value>, ToolError> {
    let places = if planned.iter().any(|row| CLOSING_TOOLS.contains(&row.tool)) {
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
