//! The tool `probe` that the diff tests edit, and helpers to list the changes an edit makes.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use paneward_codegen::diff::diff_tool;
use paneward_codegen::source::{json::tool_at, ContractTool};
use serde_json::{json, Value};

/// The old contract of the tool `probe`: each case edits a copy into the new one.
pub fn base() -> Value {
    json!({
        "name": "probe",
        "title": "Probe",
        "description": "Probes a pane.",
        "tier": "readonly",
        "source": "https://example.org/probe/",
        "inputSchema": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "pane_id": {"type": "string", "maxLength": 20},
                "mode": {"type": "string", "enum": ["fast", "slow"]},
                "count": {"type": "integer", "minimum": 1, "maximum": 10},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
                "note": {"type": ["string", "null"]},
                "name": {"type": "string"},
                "options": {"type": "object"},
                "op": {"oneOf": [
                    {"type": "object", "properties": {"tool": {"const": "list"}}},
                    {"type": "object", "properties": {"tool": {"const": "show"}, "what": {"type": "string"}}}
                ]}
            },
            "required": ["pane_id"]
        },
        "outputSchema": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "ok": {"type": "boolean"},
                "lines": {"type": "array", "items": {"type": "string"}},
                "state": {"type": "string", "enum": ["idle", "busy"]},
                "extra": {"type": "object", "properties": {"a": {"type": "string"}}}
            },
            "required": ["ok", "lines"]
        },
        "annotations": {"title": "Probe", "readOnlyHint": true, "destructiveHint": false}
    })
}

pub fn tool(value: &Value) -> ContractTool {
    tool_at(Path::new("probe.json"), "", value).unwrap()
}

/// The changes from `base()` to `base()` edited by `edit`, as (class, rule, pointer).
pub fn changes(edit: impl FnOnce(&mut Value)) -> Vec<(String, String, String)> {
    changes_between(|_| {}, edit)
}

/// The changes from `base()` edited by `old_edit` to `base()` edited by `new_edit`.
pub fn changes_between(
    old_edit: impl FnOnce(&mut Value),
    new_edit: impl FnOnce(&mut Value),
) -> Vec<(String, String, String)> {
    let mut old = base();
    old_edit(&mut old);
    let mut new = base();
    new_edit(&mut new);
    diff_tool(Some(&tool(&old)), &tool(&new))
        .into_iter()
        .map(|c| (c.class.as_str().to_string(), c.rule.as_str(), c.pointer))
        .collect()
}

#[track_caller]
pub fn expect(edit: impl FnOnce(&mut Value), class: &str, rule: &str, pointer: &str) {
    assert_eq!(
        changes(edit),
        vec![(class.to_string(), rule.to_string(), pointer.to_string())]
    );
}

pub fn input(value: &mut Value) -> &mut Value {
    &mut value["inputSchema"]
}

pub fn output(value: &mut Value) -> &mut Value {
    &mut value["outputSchema"]
}

pub fn remove(value: &mut Value, key: &str) {
    value.as_object_mut().unwrap().remove(key);
}
