//! The one text format of a tool file, and writing it safely.
//!
//! Every file in `schemas/` is written in this form, so that re-importing an unchanged
//! contract changes no byte and a reviewer's `git diff` shows only real changes: 2-space
//! indented JSON, top-level keys in a fixed order, keys of nested objects sorted,
//! non-ASCII text kept as is, and a trailing newline.

use std::io::Write;
use std::path::Path;

use serde_json::{Map, Value};

use crate::error::CodegenError;
use crate::load::ToolFile;

/// The top-level keys of a tool file, in the order they are written.
pub const KEY_ORDER: [&str; 19] = [
    "name",
    "title",
    "description",
    "tier",
    "toolset",
    "class",
    "handler",
    "escalations",
    "reaches",
    "paneText",
    "batch",
    "dryRun",
    "checkedAlone",
    "fleet",
    "source",
    "inputSchema",
    "outputSchema",
    "annotations",
    "_meta",
];

/// The canonical text of `tool`.
pub fn render(tool: &ToolFile) -> String {
    let mut fields: Vec<(&str, Value)> = vec![("name", Value::String(tool.name.clone()))];
    if let Some(title) = &tool.title {
        fields.push(("title", Value::String(title.clone())));
    }
    fields.extend([
        ("description", Value::String(tool.description.clone())),
        ("tier", Value::String(tool.tier.as_str().to_string())),
    ]);
    if let Some(toolset) = tool.toolset {
        fields.push(("toolset", Value::String(toolset.as_str().to_string())));
    }
    if let Some(class) = tool.class {
        fields.push(("class", Value::String(class.as_str().to_string())));
    }
    if let Some(handler) = &tool.handler {
        fields.push(("handler", Value::String(handler.clone())));
    }
    if !tool.escalations.is_empty() {
        let escalations = tool
            .escalations
            .iter()
            .map(paneward_contract::Escalation::to_value)
            .collect();
        fields.push(("escalations", Value::Array(escalations)));
    }
    for field in paneward_contract::facts::FIELDS {
        if let Some(value) = tool.facts.written.get(field) {
            fields.push((field, value.clone()));
        }
    }
    fields.extend([
        ("source", Value::String(tool.source.clone())),
        ("inputSchema", tool.input_schema.clone()),
    ]);
    if let Some(output) = &tool.output_schema {
        fields.push(("outputSchema", output.clone()));
    }
    fields.push(("annotations", tool.annotations.clone()));
    if let Some(meta) = &tool.meta {
        fields.push(("_meta", Value::Object(meta.clone())));
    }
    let mut text = String::from("{\n");
    for (index, (key, value)) in fields.iter().enumerate() {
        let body = pretty(&sorted(value)).replace('\n', "\n  ");
        text.push_str(&format!("  {}: {body}", Value::String((*key).to_string())));
        text.push_str(if index + 1 == fields.len() { "\n" } else { ",\n" });
    }
    text.push_str("}\n");
    text
}

/// A copy of `value` whose objects list their keys in sorted order, whichever map type
/// serde_json was built with (feature unification can turn on `preserve_order`).
pub fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(object) => {
            let mut keys: Vec<&String> = object.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for key in keys {
                out.insert(key.clone(), sorted(&object[key.as_str()]));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

fn pretty(value: &Value) -> String {
    // Serializing a Value to a String cannot fail: its keys are strings and it holds no
    // non-finite numbers.
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Writes `text` to `path` by writing a sibling temporary file and renaming it over
/// `path`, so that a reader sees either the old file or the new one, never half.
///
/// # Errors
/// The folder cannot be created, or the file cannot be written or renamed.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), CodegenError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| CodegenError::new(dir, "", format!("cannot create the folder: {e}")))?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Starts with a dot and does not end in `.json`: never read as a tool file.
    let temporary = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(text.as_bytes())?;
        file.sync_all()
    });
    if let Err(e) = written.and_then(|()| std::fs::rename(&temporary, path)) {
        let _ = std::fs::remove_file(&temporary);
        return Err(CodegenError::new(path, "", format!("cannot write the file: {e}")));
    }
    Ok(())
}
