//! The subset of JSON Schema that paneward's code generator turns into Rust.
//!
//! Tool contracts are self-contained objects; the keywords below are refused up front
//! with a clear message because typify 0.8 either panics on them (`not`, external
//! `$ref`, some `allOf` merges) or would need naming rules we have not written yet.

use std::path::Path;

use serde_json::Value;

use crate::error::ContractError;
use crate::pointer::pointer_token;

/// Keywords refused anywhere in a tool schema (after [`inlined`] has replaced local
/// references), each with the reason a maintainer reads.
const UNSUPPORTED: [(&str, &str); 10] = [
    (
        "$ref",
        "references are not supported, except to the schema's own `#/$defs/NAME`",
    ),
    ("$defs", "definitions are only supported at the top of a tool's schema"),
    ("definitions", "definitions are not supported; inline the schema"),
    ("allOf", "allOf is not supported; merge the schemas by hand"),
    ("not", "not is not supported by the code generator"),
    ("if", "if/then/else is not supported by the code generator"),
    (
        "patternProperties",
        "patternProperties is not supported by the code generator",
    ),
    ("dependencies", "dependencies is not supported by the code generator"),
    (
        "dependentSchemas",
        "dependentSchemas is not supported by the code generator",
    ),
    (
        "unevaluatedProperties",
        "unevaluatedProperties is not supported by the code generator",
    ),
];

/// A position below a schema that holds a sub-schema of its own. The checker here and
/// the code generator's namer both walk schemas through [`children`], so they agree on
/// which sub-schemas exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Child {
    /// `properties/<name>`.
    Property(String),
    /// `items`, one schema for every item.
    Items,
    /// `oneOf/<index>`, `anyOf/<index>`, or `items/<index>` (the array form of `items`).
    Variant(&'static str, usize),
    /// `additionalProperties`, when it is a schema rather than `true` or `false`.
    AdditionalProperties,
}

impl Child {
    /// The JSON pointer suffix of this position, starting with `/`.
    pub fn pointer(&self) -> String {
        match self {
            Child::Property(name) => format!("/properties/{}", pointer_token(name)),
            Child::Items => "/items".to_string(),
            Child::Variant(keyword, index) => format!("/{keyword}/{index}"),
            Child::AdditionalProperties => "/additionalProperties".to_string(),
        }
    }

    /// The sub-schema at this position of `schema`.
    pub fn of<'a>(&self, schema: &'a Value) -> Option<&'a Value> {
        match self {
            Child::Property(name) => schema.get("properties")?.get(name),
            Child::Items => schema.get("items"),
            Child::Variant(keyword, index) => schema.get(*keyword)?.get(*index),
            Child::AdditionalProperties => schema.get("additionalProperties"),
        }
    }

    /// The sub-schema at this position of `schema`, to change in place.
    pub fn of_mut<'a>(&self, schema: &'a mut Value) -> Option<&'a mut Value> {
        match self {
            Child::Property(name) => schema.get_mut("properties")?.get_mut(name),
            Child::Items => schema.get_mut("items"),
            Child::Variant(keyword, index) => schema.get_mut(*keyword)?.get_mut(*index),
            Child::AdditionalProperties => schema.get_mut("additionalProperties"),
        }
    }
}

/// Lists the positions of the sub-schemas of `schema` that carry types of their own, in
/// a fixed order: properties, items, `oneOf`, `anyOf`, additional properties.
pub fn children(schema: &Value) -> Vec<Child> {
    let mut out = Vec::new();
    let Value::Object(object) = schema else {
        return out;
    };
    if let Some(Value::Object(properties)) = object.get("properties") {
        out.extend(properties.keys().map(|name| Child::Property(name.clone())));
    }
    match object.get("items") {
        // The tuple form is valid JSON Schema up to draft 2019-09, so a tool file that
        // declares `"$schema": ".../draft-07/schema#"` passes the metaschema with it.
        Some(Value::Array(tuple)) => out.extend((0..tuple.len()).map(|index| Child::Variant("items", index))),
        Some(_) => out.push(Child::Items),
        None => {}
    }
    for keyword in ["oneOf", "anyOf"] {
        if let Some(Value::Array(variants)) = object.get(keyword) {
            out.extend((0..variants.len()).map(|index| Child::Variant(keyword, index)));
        }
    }
    if let Some(Value::Object(_)) = object.get("additionalProperties") {
        out.push(Child::AdditionalProperties);
    }
    out
}

/// How deep definitions may name definitions: deeper is a cycle, which no Rust type of
/// ours could hold.
const MAX_REFERENCE_DEPTH: usize = 16;

/// `schema` as the checks and the code generator read it: every local reference
/// (`{"$ref": "#/$defs/NAME"}`, as a server built with schemars writes shared types)
/// replaced by the definition it names, the reference's own keys (a `description`)
/// laid over it, and the top-level `$defs` removed. A tool file keeps its references:
/// the schema advertised is the one imported, byte for byte.
///
/// # Errors
/// A reference to anything but this schema's own `$defs`, a name it does not define,
/// or definitions that name each other in a cycle.
pub fn inlined(file: &Path, pointer: &str, schema: &Value) -> Result<Value, ContractError> {
    let mut copy = schema.clone();
    let definitions = match copy.as_object_mut().and_then(|object| object.remove("$defs")) {
        Some(Value::Object(definitions)) => definitions,
        Some(_) => {
            return Err(ContractError::new(
                file,
                format!("{pointer}/$defs"),
                "must be an object of named schemas",
            ))
        }
        None => return Ok(copy),
    };
    replace_references(file, pointer, &mut copy, &definitions, 0)?;
    Ok(copy)
}

fn replace_references(
    file: &Path,
    pointer: &str,
    schema: &mut Value,
    definitions: &serde_json::Map<String, Value>,
    depth: usize,
) -> Result<(), ContractError> {
    let Value::Object(object) = schema else {
        return Ok(());
    };
    if let Some(reference) = object.remove("$ref") {
        let at = format!("{pointer}/$ref");
        let name = reference
            .as_str()
            .and_then(|text| text.strip_prefix("#/$defs/"))
            .ok_or_else(|| {
                ContractError::new(
                    file,
                    &at,
                    "only references to the schema's own #/$defs/NAME are supported",
                )
            })?;
        let definition = definitions
            .get(name)
            .ok_or_else(|| ContractError::new(file, &at, format!("no definition `{name}` in $defs")))?;
        if depth >= MAX_REFERENCE_DEPTH {
            return Err(ContractError::new(
                file,
                &at,
                "definitions refer to each other in a cycle",
            ));
        }
        let mut resolved = definition.clone();
        replace_references(file, pointer, &mut resolved, definitions, depth + 1)?;
        if let Value::Object(mut merged) = resolved {
            merged.extend(std::mem::take(object));
            *object = merged;
        }
        return Ok(());
    }
    for (key, value) in object.iter_mut() {
        let at = format!("{pointer}/{}", pointer_token(key));
        match value {
            Value::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    replace_references(file, &format!("{at}/{index}"), item, definitions, depth)?;
                }
            }
            other => replace_references(file, &at, other, definitions, depth)?,
        }
    }
    Ok(())
}

/// Refuses what the generator cannot turn into Rust, naming file and pointer.
///
/// # Errors
/// An unsupported keyword, or a closed object that requires a property it does not
/// define (no value could ever satisfy it).
pub fn check_supported(file: &Path, pointer: &str, schema: &Value) -> Result<(), ContractError> {
    let Value::Object(object) = schema else {
        return Ok(());
    };
    for (keyword, reason) in UNSUPPORTED {
        if object.contains_key(keyword) {
            return Err(ContractError::new(
                file,
                format!("{pointer}/{}", pointer_token(keyword)),
                reason,
            ));
        }
    }
    let closed = object.get("additionalProperties") == Some(&Value::Bool(false));
    if let (true, Some(Value::Array(required))) = (closed, object.get("required")) {
        let properties = object.get("properties").and_then(Value::as_object);
        for name in required.iter().filter_map(Value::as_str) {
            if !properties.is_some_and(|p| p.contains_key(name)) {
                return Err(ContractError::new(
                    file,
                    format!("{pointer}/required"),
                    format!("`{name}` is required but the object is closed and does not define it"),
                ));
            }
        }
    }
    for child in children(schema) {
        if let Some(sub) = child.of(schema) {
            check_supported(file, &format!("{pointer}{}", child.pointer()), sub)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_local_reference_becomes_its_definition_with_its_own_keys_over_it() {
        let schema = json!({
            "$defs": {"Relation": {"type": "string", "enum": ["self", "other"]}},
            "type": "object",
            "properties": {"caller": {"$ref": "#/$defs/Relation", "description": "whose"}}
        });
        let inlined = inlined(Path::new("t.json"), "/outputSchema", &schema).unwrap();
        assert_eq!(
            inlined,
            json!({
                "type": "object",
                "properties": {"caller": {"type": "string", "enum": ["self", "other"], "description": "whose"}}
            })
        );
    }

    #[test]
    fn a_missing_definition_and_a_cycle_are_named() {
        let missing = json!({"$defs": {}, "type": "object", "properties": {"a": {"$ref": "#/$defs/Gone"}}});
        let error = inlined(Path::new("t.json"), "/inputSchema", &missing).unwrap_err();
        assert!(error.to_string().contains("/inputSchema/properties/a/$ref"), "{error}");
        assert!(error.to_string().contains("no definition `Gone`"), "{error}");
        let cycle = json!({"$defs": {"A": {"$ref": "#/$defs/A"}}, "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}});
        let error = inlined(Path::new("t.json"), "/inputSchema", &cycle).unwrap_err();
        assert!(error.to_string().contains("cycle"), "{error}");
    }

    #[test]
    fn children_name_every_position_in_walk_order() {
        let schema = json!({
            "type": "object",
            "properties": {"a/b": {"type": "string"}},
            "items": {"type": "string"},
            "oneOf": [{}, {}],
            "anyOf": [{}],
            "additionalProperties": {"type": "integer"}
        });
        let pointers: Vec<String> = children(&schema).iter().map(Child::pointer).collect();
        assert_eq!(
            pointers,
            [
                "/properties/a~1b",
                "/items",
                "/oneOf/0",
                "/oneOf/1",
                "/anyOf/0",
                "/additionalProperties"
            ]
        );
        for child in children(&schema) {
            assert!(child.of(&schema).is_some(), "{child:?}");
        }
        // `additionalProperties: false` is a rule, not a schema of values.
        assert!(children(&json!({"additionalProperties": false})).is_empty());
    }
}
