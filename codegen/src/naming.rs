//! Unique Rust names for every inline schema, written as `title`s into the copy of a
//! schema that is handed to typify (never into the advertised copy).
//!
//! typify 0.8 names an inline type after its position (`…Arguments`) and silently
//! reuses the first type of a name for every later schema of that name, so the 16
//! `arguments` objects of the batch `oneOf` would all become the first branch's empty
//! struct. A title per position, derived from the JSON path, makes names unique by
//! construction; the few that could still collide (`foo.items` beside `foo_item`) are
//! refused here with both pointers, and so are sibling properties that would become one
//! Rust field (`foo_bar` beside `fooBar`).

use std::collections::BTreeMap;
use std::path::Path;

use paneward_contract::shape::{self, Child};
use serde_json::Value;

use crate::case::pascal_case;
use crate::error::CodegenError;
use crate::shapes::Shape;

/// Every name handed out so far, with the file and pointer that got it, and the shared
/// shapes whose names may be handed out again.
#[derive(Default)]
pub struct NameRegistry {
    taken: BTreeMap<String, Claim>,
    shapes: Vec<Shape>,
}

/// Who got a name: the first position, and the shape it belongs to if any.
struct Claim {
    file: std::path::PathBuf,
    pointer: String,
    shape: Option<String>,
}

impl NameRegistry {
    /// A registry that titles every object equal to one of `shapes` with its name.
    pub fn with_shapes(shapes: Vec<Shape>) -> Self {
        Self {
            taken: BTreeMap::new(),
            shapes,
        }
    }

    /// Claims `name` for the schema at `file` + `pointer`.
    ///
    /// # Errors
    /// The name was already given to another schema.
    pub fn claim(&mut self, name: &str, file: &Path, pointer: &str) -> Result<(), CodegenError> {
        self.claim_for(name, file, pointer, None)
    }

    /// Claims `name` for a schema inside shape `shape` (or outside any, for `None`). A
    /// name of a shape's tree can be claimed again from the same shape, since equal
    /// schemas title alike; any other second claim is a clash.
    fn claim_for(&mut self, name: &str, file: &Path, pointer: &str, shape: Option<&str>) -> Result<(), CodegenError> {
        if let Some(claim) = self.taken.get(name) {
            if shape.is_some() && claim.shape.as_deref() == shape {
                return Ok(());
            }
            let (other_file, other_pointer) = (&claim.file, &claim.pointer);
            return Err(CodegenError::new(
                file,
                pointer,
                format!(
                    "the Rust type name `{name}` is already used by {} at {}; rename a property so the two differ",
                    other_file.display(),
                    if other_pointer.is_empty() { "/" } else { other_pointer }
                ),
            ));
        }
        self.taken.insert(
            name.to_string(),
            Claim {
                file: file.to_path_buf(),
                pointer: pointer.to_string(),
                shape: shape.map(str::to_string),
            },
        );
        Ok(())
    }

    pub fn contains(&self, name: &str) -> bool {
        self.taken.contains_key(name)
    }

    /// The shapes no schema matched: a tool's copy changed, or the shape did.
    pub fn unused_shapes(&self) -> impl Iterator<Item = &Shape> {
        self.shapes.iter().filter(|shape| !self.taken.contains_key(&shape.name))
    }

    /// The shape `schema` is JSON-equal to (key order aside).
    fn shape_of(&self, schema: &Value) -> Option<&str> {
        self.shapes
            .iter()
            .find(|shape| shape.schema == *schema)
            .map(|shape| shape.name.as_str())
    }
}

/// Returns a copy of `schema` whose every sub-schema is titled after its path, starting
/// from `root_name`; registers each name.
///
/// # Errors
/// Two positions map to the same name.
pub fn titled_copy(
    schema: &Value,
    root_name: &str,
    file: &Path,
    pointer: &str,
    registry: &mut NameRegistry,
) -> Result<Value, CodegenError> {
    let mut copy = schema.clone();
    title_in_place(&mut copy, root_name, file, pointer, registry, None)?;
    Ok(copy)
}

/// Only schemas that typify turns into named types need a title; a title on a plain
/// `{"type": "string"}` would make typify emit a pointless newtype. Every schema typify
/// names must be titled here: typify reuses the first type of a name for any later
/// schema it names alike, silently (`x.items` and `x_item` both become `…XItem`).
fn needs_name(object: &serde_json::Map<String, Value>) -> bool {
    const NAMED: [&str; 9] = [
        "properties",
        "additionalProperties",
        "enum",
        "oneOf",
        "anyOf",
        "pattern",
        "maxLength",
        "minLength",
        "format",
    ];
    object.get("type") == Some(&Value::String("object".into()))
        || NAMED.iter().any(|keyword| object.contains_key(*keyword))
        || is_union_of_types(object.get("type"))
}

/// `"type": ["string", "integer"]`: typify makes an enum of it. One type and `null` is
/// an `Option` of that type, not a type of its own.
fn is_union_of_types(types: Option<&Value>) -> bool {
    let Some(Value::Array(types)) = types else {
        return false;
    };
    types.iter().filter(|t| t.as_str() != Some("null")).count() > 1
}

/// Titles `schema` and its parts. `shape` is the shared shape the schema lies in, if
/// any; a schema equal to a shape starts one, under the shape's name.
fn title_in_place(
    schema: &mut Value,
    name: &str,
    file: &Path,
    pointer: &str,
    registry: &mut NameRegistry,
    shape: Option<&str>,
) -> Result<(), CodegenError> {
    let shared = match shape {
        Some(_) => None,
        None => registry.shape_of(schema).map(str::to_string),
    };
    let (name, shape) = match &shared {
        Some(shared) => (shared.as_str(), Some(shared.as_str())),
        None => (name, shape),
    };
    let Value::Object(object) = schema else {
        return Ok(());
    };
    check_field_names(object, file, pointer)?;
    if needs_name(object) {
        registry.claim_for(name, file, pointer, shape)?;
        object.insert("title".into(), Value::String(name.to_string()));
    } else {
        // An upstream title on a plain value would still name a type: drop it here.
        object.remove("title");
    }
    for child in shape::children(schema) {
        let suffix = match &child {
            Child::Property(property) => pascal_case(property),
            Child::Items => "Item".to_string(),
            Child::Variant("items", index) => format!("Item{index}"),
            Child::Variant(_, index) => child
                .of(schema)
                .and_then(tool_const)
                .map_or_else(|| format!("Variant{index}"), |tool| pascal_case(&tool)),
            Child::AdditionalProperties => "Value".to_string(),
        };
        let child_pointer = format!("{pointer}{}", child.pointer());
        if let Some(sub) = child.of_mut(schema) {
            title_in_place(sub, &format!("{name}{suffix}"), file, &child_pointer, registry, shape)?;
        }
    }
    Ok(())
}

/// The Rust field typify makes of a property name: snake case, other characters as word
/// breaks (typify-impl 0.8 `sanitize`), so `paneId` and `pane_id` are both `pane_id`.
pub fn field_name(property: &str) -> String {
    use heck::ToSnakeCase;
    let words = property
        .replace('\'', "")
        .replace(|c: char| !(c.is_alphanumeric() || c == '_'), "-");
    let field = words.to_snake_case();
    match field.chars().next() {
        Some(c) if c.is_alphabetic() || c == '_' => field,
        _ => format!("x{field}"),
    }
}

/// Refuses sibling properties that typify would give one field name: it emits both,
/// and the build then fails in rustc with no word of the schema file.
fn check_field_names(object: &serde_json::Map<String, Value>, file: &Path, pointer: &str) -> Result<(), CodegenError> {
    let Some(Value::Object(properties)) = object.get("properties") else {
        return Ok(());
    };
    let mut fields: BTreeMap<String, &str> = BTreeMap::new();
    for property in properties.keys() {
        let field = field_name(property);
        if let Some(first) = fields.insert(field.clone(), property) {
            return Err(CodegenError::new(
                file,
                format!("{pointer}/properties/{}", paneward_contract::pointer_token(property)),
                format!(
                    "the property becomes the Rust field `{field}`, as {pointer}/properties/{} does; rename one of them",
                    paneward_contract::pointer_token(first)
                ),
            ));
        }
    }
    Ok(())
}

/// The `const` of a branch's `tool` property, which names a batch operation.
fn tool_const(variant: &Value) -> Option<String> {
    variant
        .pointer("/properties/tool/const")
        .and_then(Value::as_str)
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sibling_branches_get_names_from_their_tool_const() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"ops": {"type": "array", "items": {"oneOf": [
                {"type": "object", "properties": {"tool": {"const": "a_b"}, "arguments": {"type": "object"}}},
                {"type": "object", "properties": {"tool": {"const": "c"}, "arguments": {"type": "object"}}}
            ]}}}
        });
        let mut registry = NameRegistry::default();
        let copy = titled_copy(&schema, "T", Path::new("t.json"), "", &mut registry).unwrap();
        assert_eq!(
            copy.pointer("/properties/ops/items/oneOf/0/properties/arguments/title")
                .unwrap(),
            "TOpsItemABArguments"
        );
        assert_eq!(
            copy.pointer("/properties/ops/items/oneOf/1/properties/arguments/title")
                .unwrap(),
            "TOpsItemCArguments"
        );
        assert!(schema
            .pointer("/properties/ops/items/oneOf/0/properties/arguments/title")
            .is_none());
    }

    #[test]
    fn field_names_follow_typify() {
        assert_eq!(field_name("paneId"), "pane_id");
        assert_eq!(field_name("pane_id"), "pane_id");
        assert_eq!(field_name("max-lines"), "max_lines");
        assert_eq!(field_name("9lives"), "x9lives");
    }

    #[test]
    fn sibling_properties_with_one_field_name_are_refused_with_both_pointers() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"ops": {"type": "object", "properties": {
                "a_b": {"type": "string"},
                "aB": {"type": "integer"}
            }}}
        });
        let mut registry = NameRegistry::default();
        let error = titled_copy(&schema, "T", Path::new("t.json"), "/inputSchema", &mut registry)
            .unwrap_err()
            .to_string();
        assert!(error.contains("t.json"), "{error}");
        assert!(error.contains("`a_b`"), "{error}");
        assert!(
            error.contains("/inputSchema/properties/ops/properties/a_b")
                && error.contains("/inputSchema/properties/ops/properties/aB"),
            "{error}"
        );
    }

    #[test]
    fn two_positions_with_one_name_are_refused_with_both_pointers() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "foo": {"type": "array", "items": {"type": "object"}},
                "foo_item": {"type": "object"}
            }
        });
        let mut registry = NameRegistry::default();
        let error = titled_copy(&schema, "T", Path::new("t.json"), "", &mut registry).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("`TFooItem`"), "{text}");
        assert!(
            text.contains("/properties/foo/items") && text.contains("/properties/foo_item"),
            "{text}"
        );
    }
}
