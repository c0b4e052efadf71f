//! The one rule for the output schema of a tool of paneward's own: it describes a reply
//! (its fields, their types, which are always there, what they mean, and how many
//! rows at most) and polices nothing.
//!
//! Every session reads every output schema before its first call, and a model reads a
//! reply, not a validator's verdict on it. So a reply's objects are left open, which also
//! lets a later version add a field without breaking a client that validates, and the
//! form of a value paneward writes (an id's pattern, a name's length) is not said
//! again: the input side, where a caller writes that value, carries it. paneward still
//! checks every reply closed, in debug builds and in the tests (`strict_copy`), so no
//! field slips in unsaid. A seeded file keeps its output schema as its upstream page
//! published it.

use serde_json::Value;

use crate::error::ContractError;
use crate::load::{ToolFile, OWN_SOURCE};
use crate::shape::children;

/// Keywords an output schema of paneward's own leaves out: each constrains a value
/// paneward writes rather than saying what the reply holds. Two stay: `maxItems` (a cap
/// on rows tells the reader a list may have been cut, and the fleet's merge cuts to it)
/// and `minimum` (a count's `0` says it is a count, and makes it unsigned in Rust).
pub const POLICING_KEYWORDS: [&str; 8] = [
    "pattern",
    "format",
    "minLength",
    "maxLength",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
];

/// Checks that `tool`'s output schema, if it is paneward's own, closes no object and
/// polices no value.
///
/// # Errors
/// The first `additionalProperties: false` or keyword of [`POLICING_KEYWORDS`], naming
/// the file and the pointer.
pub fn check_open(tool: &ToolFile) -> Result<(), ContractError> {
    match (&tool.output_schema, tool.source.as_str()) {
        (Some(schema), OWN_SOURCE) => check_at(tool, "/outputSchema", schema),
        _ => Ok(()),
    }
}

fn check_at(tool: &ToolFile, pointer: &str, schema: &Value) -> Result<(), ContractError> {
    let Value::Object(object) = schema else {
        return Ok(());
    };
    if object.get("additionalProperties") == Some(&Value::Bool(false)) {
        return Err(ContractError::new(
            &tool.path,
            format!("{pointer}/additionalProperties"),
            "a reply's objects are left open, so that a later version may add a field (paneward's tests check replies closed)",
        ));
    }
    if let Some(keyword) = POLICING_KEYWORDS.iter().find(|k| object.contains_key(**k)) {
        return Err(ContractError::new(
            &tool.path,
            format!("{pointer}/{keyword}"),
            format!("a reply says what a value means, not the form paneward writes it in: `{keyword}` belongs to the inputs where a caller writes that value"),
        ));
    }
    for child in children(schema) {
        if let Some(sub) = child.of(schema) {
            check_at(tool, &format!("{pointer}{}", child.pointer()), sub)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(source: &str, output: Value) -> ToolFile {
        let file = json!({
            "name": "list_things",
            "description": "Lists things.",
            "tier": "readonly",
            "source": source,
            "inputSchema": {"type": "object"},
            "outputSchema": output,
            "annotations": {},
        });
        crate::load::check_tool_value(std::path::Path::new("schemas/tools/list_things.json"), file).unwrap()
    }

    #[test]
    fn a_closed_object_or_a_policed_value_in_a_reply_is_refused_by_pointer() {
        let closed = tool(
            OWN_SOURCE,
            json!({"type": "object", "properties": {"rows": {"type": "array", "items": {
                "type": "object", "additionalProperties": false, "properties": {"id": {"type": "string"}}
            }}}}),
        );
        let error = check_open(&closed).unwrap_err().to_string();
        assert!(
            error.contains("/outputSchema/properties/rows/items/additionalProperties"),
            "{error}"
        );
        let policed = tool(
            OWN_SOURCE,
            json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^%[0-9]+$"}}}),
        );
        let error = check_open(&policed).unwrap_err().to_string();
        assert!(error.contains("/outputSchema/properties/id/pattern"), "{error}");
    }

    #[test]
    fn an_open_reply_with_a_row_cap_passes_and_a_seeded_file_is_kept_as_published() {
        let open = tool(
            OWN_SOURCE,
            json!({"type": "object", "properties": {"rows": {"type": "array", "maxItems": 10, "items": {"type": "string"}}}}),
        );
        check_open(&open).unwrap();
        let seeded = tool(
            "https://example.org/upstream/list_things/",
            json!({"type": "object", "additionalProperties": false, "properties": {}}),
        );
        check_open(&seeded).unwrap();
    }
}
