//! A workspace document: the tmuxp-style YAML that `load_workspace` reads and
//! `freeze_workspace` writes. This module only reads and checks it; every key it does
//! not know is refused by name, so a tmuxp file never loads half-understood.
//!
//! Supported keys (anything else is refused, with its place in the document):
//! - session: `session_name` (required), `start_directory`, `environment`, `windows`
//! - window: `window_name`, `layout`, `start_directory`, `panes`
//! - pane: a string (typed into its shell, as tmuxp does), nothing (a blank pane), or
//!   `shell_command` (one line, typed), `command` (argv, run without a shell), `shell`
//!   (a line run by a shell, asked for by name), `start_directory`

use serde_json::{Map, Value};

use crate::limits::WORKSPACE_DOCUMENT_MAX_BYTES;
use crate::runtime::error::ToolError;
use crate::tools::workspace::layout::check_alone;

const SESSION_KEYS: [&str; 4] = ["session_name", "start_directory", "environment", "windows"];
const WINDOW_KEYS: [&str; 4] = ["window_name", "layout", "start_directory", "panes"];
const PANE_KEYS: [&str; 4] = ["shell_command", "command", "shell", "start_directory"];

/// tmux's preset layouts (3.3a, and every later tmux): the only layouts a document
/// takes. A layout string is checked (its checksum, its cells, its pane count) and then
/// refused all the same: it names the panes it was made for, the panes a document
/// makes are new, and `select_layout` would refuse it at its step, after the session
/// was created.
const PRESET_LAYOUTS: [&str; 5] = [
    "even-horizontal",
    "even-vertical",
    "main-horizontal",
    "main-vertical",
    "tiled",
];

/// What a pane runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Run {
    /// The default shell, nothing typed.
    Nothing,
    /// A program and its arguments, without a shell.
    Program(Vec<String>),
    /// A line a shell runs as the pane's program (asked for with `shell`).
    Shell(String),
    /// A line typed into the pane's shell once it starts (tmuxp's `shell_command`).
    Typed(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pane {
    pub start_directory: Option<String>,
    pub run: Run,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    pub name: Option<String>,
    pub layout: Option<String>,
    pub start_directory: Option<String>,
    pub panes: Vec<Pane>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub session_name: String,
    pub start_directory: Option<String>,
    pub environment: Map<String, Value>,
    pub windows: Vec<Window>,
}

pub(super) fn bad(at: &str, rule: impl std::fmt::Display) -> ToolError {
    ToolError::invalid_argument("/document", format!("at {at}: {rule}; nothing was created"))
}

fn mapping<'v>(value: &'v Value, at: &str, keys: &[&str]) -> Result<&'v Map<String, Value>, ToolError> {
    let Some(map) = value.as_object() else {
        return Err(bad(at, "must be a mapping"));
    };
    if let Some(unknown) = map.keys().find(|key| !keys.contains(&key.as_str())) {
        return Err(bad(
            &format!("{at}/{unknown}"),
            format!(
                "the key `{unknown}` is not supported by paneward's workspace documents (supported here: {})",
                keys.join(", ")
            ),
        ));
    }
    Ok(map)
}

fn string(map: &Map<String, Value>, key: &str, at: &str) -> Result<Option<String>, ToolError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if !text.is_empty() => Ok(Some(text.clone())),
        Some(_) => Err(bad(&format!("{at}/{key}"), "must be a non-empty string")),
    }
}

/// A start directory: absolute, as the tools take it (no `~`, no relative path, which
/// tmuxp would resolve against a directory paneward does not have).
fn directory(map: &Map<String, Value>, at: &str) -> Result<Option<String>, ToolError> {
    let directory = string(map, "start_directory", at)?;
    if let Some(text) = &directory {
        if !text.starts_with('/') {
            return Err(bad(
                &format!("{at}/start_directory"),
                format!("{text:?} is not an absolute directory (write it out in full; `~` is not expanded)"),
            ));
        }
    }
    Ok(directory)
}

/// A window's `layout`, checked in full here, before anything is created (`panes`: how
/// many the window has in the document).
fn layout(map: &Map<String, Value>, at: &str, panes: usize) -> Result<Option<String>, ToolError> {
    let layout = string(map, "layout", at)?;
    let Some(text) = &layout else {
        return Ok(None);
    };
    if PRESET_LAYOUTS.contains(&text.as_str()) {
        return Ok(layout);
    }
    let at = format!("{at}/layout");
    let presets = PRESET_LAYOUTS.join(", ");
    let cells = match check_alone(text) {
        Ok(cells) => cells,
        Err(_) if !text.contains(',') => {
            return Err(bad(
                &at,
                format!("{text:?} is neither a preset ({presets}) nor a tmux layout string"),
            ))
        }
        Err(rule) => return Err(bad(&at, rule)),
    };
    if cells != panes {
        return Err(bad(
            &at,
            format!("the layout string has {cells} pane cells but this window has {panes} panes in the document"),
        ));
    }
    Err(bad(
        &at,
        format!(
            "a layout string names the panes it was made for, and the panes a document makes are new, so select_layout would refuse it after the session was created; use a preset ({presets}), or select_layout with a string read from the window once it exists"
        ),
    ))
}

fn typed_line(value: &Value, at: &str) -> Result<String, ToolError> {
    let line = match value {
        Value::String(line) => Some(line.as_str()),
        Value::Array(lines) if lines.len() == 1 => lines[0].as_str(),
        _ => None,
    };
    match line {
        Some(line) if !line.trim().is_empty() => Ok(line.to_string()),
        _ => Err(bad(
            at,
            "must be one non-empty command line (paneward types one line per pane; join more with &&)",
        )),
    }
}

fn pane(value: &Value, at: &str) -> Result<Pane, ToolError> {
    let map = match value {
        Value::Null => {
            return Ok(Pane {
                start_directory: None,
                run: Run::Nothing,
            })
        }
        Value::String(_) => {
            return Ok(Pane {
                start_directory: None,
                run: Run::Typed(typed_line(value, at)?),
            })
        }
        other => mapping(other, at, &PANE_KEYS)?,
    };
    let given: Vec<&str> = ["shell_command", "command", "shell"]
        .into_iter()
        .filter(|key| map.get(*key).is_some_and(|v| !v.is_null()))
        .collect();
    if given.len() > 1 {
        return Err(bad(
            at,
            format!(
                "give one of shell_command, command and shell, not {}",
                given.join(" and ")
            ),
        ));
    }
    let run = match given.first().copied() {
        None => Run::Nothing,
        Some("shell_command") => Run::Typed(typed_line(&map["shell_command"], &format!("{at}/shell_command"))?),
        Some("shell") => Run::Shell(string(map, "shell", at)?.unwrap_or_default()),
        Some(_) => {
            let argv: Option<Vec<String>> = map["command"]
                .as_array()
                .map(|items| items.iter().map(|item| item.as_str().map(String::from)).collect())
                .unwrap_or(None);
            match argv {
                Some(argv) if !argv.is_empty() => Run::Program(argv),
                _ => {
                    return Err(bad(
                        &format!("{at}/command"),
                        "must be a list of strings: the program, then its arguments",
                    ))
                }
            }
        }
    };
    Ok(Pane {
        start_directory: directory(map, at)?,
        run,
    })
}

fn window(value: &Value, at: &str) -> Result<Window, ToolError> {
    let map = mapping(value, at, &WINDOW_KEYS)?;
    let panes = match map.get("panes") {
        None | Some(Value::Null) => vec![Pane {
            start_directory: None,
            run: Run::Nothing,
        }],
        Some(Value::Array(panes)) if !panes.is_empty() => panes
            .iter()
            .enumerate()
            .map(|(index, value)| pane(value, &format!("{at}/panes/{index}")))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(bad(&format!("{at}/panes"), "must be a non-empty list")),
    };
    Ok(Window {
        name: string(map, "window_name", at)?,
        layout: layout(map, at, panes.len())?,
        start_directory: directory(map, at)?,
        panes,
    })
}

/// The parser's defaults (a repeated key refused, aliases within a budget), with the
/// error on one line: it goes into a tool error, not to a terminal.
fn yaml_options() -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    options.with_snippet = false;
    options
}

/// Reads and checks a document.
///
/// # Errors
/// Not YAML, a key paneward does not support (named), or a value of the wrong kind;
/// the error says where.
pub fn parse(text: &str) -> Result<Document, ToolError> {
    if text.len() > WORKSPACE_DOCUMENT_MAX_BYTES {
        return Err(bad(
            "/",
            format!("the document is over {WORKSPACE_DOCUMENT_MAX_BYTES} bytes"),
        ));
    }
    let value: Value = serde_saphyr::from_str_with_options(text, yaml_options()).map_err(|e| {
        // The wording meant for the person who wrote the document, not for a programmer
        // configuring the parser.
        let why = e.render_with_formatter(&serde_saphyr::UserMessageFormatter);
        bad("/", format!("not a YAML mapping paneward reads: {why}"))
    })?;
    let map = mapping(&value, "", &SESSION_KEYS)?;
    let Some(session_name) = string(map, "session_name", "")? else {
        return Err(bad("/session_name", "is required"));
    };
    let environment = match map.get("environment") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(variables)) => {
            if let Some((name, _)) = variables.iter().find(|(_, value)| !value.is_string()) {
                return Err(bad(&format!("/environment/{name}"), "must be a string (quote numbers)"));
            }
            variables.clone()
        }
        Some(_) => return Err(bad("/environment", "must be a mapping of names to strings")),
    };
    let windows = match map.get("windows") {
        Some(Value::Array(windows)) if !windows.is_empty() => windows
            .iter()
            .enumerate()
            .map(|(index, value)| window(value, &format!("/windows/{index}")))
            .collect::<Result<_, _>>()?,
        _ => return Err(bad("/windows", "is required: a non-empty list of windows")),
    };
    Ok(Document {
        session_name,
        start_directory: directory(map, "")?,
        environment,
        windows,
    })
}

/// The document that describes `windows` of a session named `session_name` (each a
/// name and its panes' directories), as YAML. No layout: the string tmux reports names
/// the panes it was made for, and `select_layout` refuses it for new panes.
pub fn write(session_name: &str, windows: &[(String, Vec<String>)]) -> String {
    let windows: Vec<Value> = windows
        .iter()
        .map(|(name, directories)| {
            let panes: Vec<Value> = directories
                .iter()
                .map(|directory| serde_json::json!({"start_directory": directory}))
                .collect();
            serde_json::json!({"window_name": name, "panes": panes})
        })
        .collect();
    let document = serde_json::json!({"session_name": session_name, "windows": windows});
    // A map of strings and lists always serializes.
    serde_saphyr::to_string(&document).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse(text).unwrap_err().message().to_string()
    }

    #[test]
    fn a_tmuxp_document_reads_with_its_defaults() {
        let document = parse(
            "session_name: dev\nstart_directory: /tmp\nwindows:\n  - window_name: edit\n    layout: main-vertical\n    panes:\n      - vim\n      -\n      - command: [top, -d, '2']\n  - window_name: logs\n",
        )
        .unwrap();
        assert_eq!(document.session_name, "dev");
        assert_eq!(document.windows.len(), 2);
        let panes = &document.windows[0].panes;
        assert_eq!(panes[0].run, Run::Typed("vim".into()));
        assert_eq!(panes[1].run, Run::Nothing);
        assert_eq!(panes[2].run, Run::Program(vec!["top".into(), "-d".into(), "2".into()]));
        assert_eq!(document.windows[1].panes.len(), 1);
    }

    #[test]
    fn unsupported_tmuxp_keys_are_refused_by_name_and_place() {
        let cases = [
            (
                "session_name: a\nbefore_script: ./x\nwindows: [{}]\n",
                "/before_script",
                "`before_script`",
            ),
            (
                "session_name: a\nwindows:\n  - focus: true\n",
                "/windows/0/focus",
                "`focus`",
            ),
            (
                "session_name: a\nwindows:\n  - panes:\n    - sleep_before: 1\n",
                "/windows/0/panes/0/sleep_before",
                "`sleep_before`",
            ),
            (
                "session_name: a\nwindows:\n  - shell_command_before: [x]\n",
                "/windows/0/shell_command_before",
                "`shell_command_before`",
            ),
        ];
        for (text, at, key) in cases {
            let message = error(text);
            assert!(
                message.contains(&format!("at {at}:")) && message.contains(key),
                "{message}"
            );
        }
    }

    #[test]
    fn bad_values_are_refused_with_their_rule() {
        let cases = [
            ("windows: [{}]\n", "/session_name: is required"),
            ("session_name: a\n", "/windows: is required"),
            ("session_name: a\nwindows:\n  - layout: spiral\n", "neither a preset"),
            (
                "session_name: a\nwindows:\n  - layout: 0000,80x24,0,0,0\n",
                "the layout string's checksum is 0000 but its body sums to b25d",
            ),
            (
                "session_name: a\nwindows:\n  - layout: b25d,80x24,0,0,0\n    panes: [a, b]\n",
                "has 1 pane cells but this window has 2 panes",
            ),
            (
                "session_name: a\nwindows:\n  - layout: b25d,80x24,0,0,0\n",
                "the panes a document makes are new",
            ),
            (
                "session_name: a\nstart_directory: ~/src\nwindows: [{}]\n",
                "not an absolute directory",
            ),
            (
                "session_name: a\nwindows:\n  - panes:\n    - shell_command: [a, b]\n",
                "one non-empty command line",
            ),
            (
                "session_name: a\nwindows:\n  - panes:\n    - {command: [a], shell: b}\n",
                "not command and shell",
            ),
            (
                "session_name: a\nwindows:\n  - panes:\n    - command: a b\n",
                "must be a list of strings",
            ),
            ("session_name: a\nenvironment: {N: 1}\nwindows: [{}]\n", "quote numbers"),
            ("[1, 2]", "must be a mapping"),
            ("session_name: [", "not a YAML mapping"),
        ];
        for (text, expected) in cases {
            let message = error(text);
            assert!(message.contains(expected), "{text:?}: {message}");
        }
    }

    #[test]
    fn a_key_given_twice_is_refused_not_silently_overridden() {
        // Which of the two a person meant is not for paneward to guess.
        let message = error("session_name: a\nsession_name: b\nwindows: [{}]\n");
        assert!(
            message.contains("not a YAML mapping") && message.contains("duplicate mapping key `session_name`"),
            "{message}"
        );
        assert!(!message.contains('\n'), "the error is one line: {message}");
    }

    #[test]
    fn a_frozen_document_reads_back() {
        let text = write("frozen one", &[("edit".into(), vec!["/tmp".into(), "/".into()])]);
        let document = parse(&text).unwrap();
        assert_eq!(document.session_name, "frozen one");
        assert_eq!(document.windows[0].name.as_deref(), Some("edit"));
        assert_eq!(document.windows[0].panes[1].start_directory.as_deref(), Some("/"));
    }
}
