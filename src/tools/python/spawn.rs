//! The environment libtmux-mcp's creating tools take for a new pane: a map, or a JSON
//! string of one (a workaround some clients need), with the variables that keep the new
//! shell's history unsaved added when `suppress_persistent_history` asks for them.

use serde_json::{Map, Value};

use crate::runtime::ToolError;

use super::target::upstream_error;

/// The variables that keep a new shell's history out of its history file (bash, zsh
/// and fish read these; other shells ignore them), each with the value it must hold.
const HISTORY_OFF: [(&str, &str); 3] = [("HISTFILE", ""), ("fish_history", ""), ("fish_private_mode", "1")];

/// The environment `value` (the profile's input as JSON: `null`, a map, or a map's
/// JSON) as a map, with the history controls added when `suppress_persistent_history`.
///
/// # Errors
/// Not a map of strings, or a variable set against the history controls.
pub fn environment(tool: &str, value: Value, suppress_persistent_history: bool) -> Result<Value, ToolError> {
    let not_strings = || unsupported(tool, "environment", "must be an object of strings, or its JSON");
    let mut map = match value {
        Value::Null => Map::new(),
        Value::Object(map) => map,
        Value::String(text) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => map,
            _ => return Err(not_strings()),
        },
        _ => return Err(not_strings()),
    };
    if suppress_persistent_history {
        if map.values().any(|value| !value.is_string()) {
            return Err(upstream_error(
                "ExpectedToolError",
                "environment keys and values must be strings",
                None,
            ));
        }
        without_saved_history(&mut map).map_err(|(name, required)| {
            let correction = match required.as_str() {
                "" => "omit it or set it to an empty string".to_string(),
                value => format!("omit it or set it to '{value}'"),
            };
            upstream_error(
                "ExpectedToolError",
                &format!("environment variable {name} conflicts with suppress_persistent_history=True; {correction}"),
                None,
            )
        })?;
    }
    Ok(Value::Object(map))
}

/// An argument libtmux-mcp takes that paneward cannot honour as asked: refused by name,
/// nothing changed.
pub fn unsupported(tool: &str, argument: &str, why: &str) -> ToolError {
    upstream_error(
        "ExpectedToolError",
        &format!("{tool}: `{argument}` {why}; nothing changed"),
        None,
    )
}

/// Adds to `environment` what keeps a new shell's history from being saved: an empty
/// `HISTFILE` (and fish's equivalents), and `ignorespace` in `HISTCONTROL`, so a
/// command typed with a leading space is not kept in memory either.
///
/// # Errors
/// The caller set one of those variables to something else: its name, and the value it
/// must have (nothing is overridden silently).
fn without_saved_history(environment: &mut Map<String, Value>) -> Result<(), (String, String)> {
    for (name, required) in HISTORY_OFF {
        match environment.get(name) {
            Some(Value::String(value)) if value == required => {}
            Some(_) => return Err((name.to_string(), required.to_string())),
            None => {
                environment.insert(name.to_string(), required.into());
            }
        }
    }
    let control = environment.get("HISTCONTROL").and_then(Value::as_str).unwrap_or("");
    let mut words: Vec<&str> = control.split(':').filter(|word| !word.is_empty()).collect();
    if !words.iter().any(|word| *word == "ignorespace" || *word == "ignoreboth") {
        words.push("ignorespace");
    }
    let control = words.join(":");
    environment.insert("HISTCONTROL".into(), control.into());
    Ok(())
}
