//! Replies as libtmux-mcp writes them. Its models are Pydantic's, which write every
//! field, a field at its default included; the generated types leave an absent optional
//! field or an empty list out. So the request path fills in, from the advertised output
//! schema, every property a reply object lacks: at the schema's default (`null` mostly),
//! an empty list, or `null`.

use rmcp::model::JsonObject;
use serde_json::Value;

/// `reply` with every absent property that `schema` (the tool's output schema) gives a
/// default filled in with it, in nested objects and array items too. A reply of text
/// alone (a string) and a tool without an output schema are left as they are.
pub fn with_defaults(schema: Option<&JsonObject>, mut reply: Value) -> Value {
    if let Some(schema) = schema {
        let root = Value::Object(schema.clone());
        fill(&root, &root, &mut reply);
    }
    reply
}

fn fill(root: &Value, schema: &Value, value: &mut Value) {
    let schema = resolve(root, schema);
    match value {
        Value::Object(fields) => {
            if let Some(Value::Object(properties)) = schema.get("properties") {
                for (name, property) in properties {
                    let property = resolve(root, property);
                    match fields.get_mut(name) {
                        Some(field) => fill(root, property, field),
                        None => {
                            if let Some(value) = pydantic_default(property) {
                                fields.insert(name.clone(), value);
                            }
                        }
                    }
                }
            }
            // An optional object (`anyOf: [{object}, {null}]`) fills by its object branch.
            if let Some(branch) = alternatives(schema).find(|b| resolve(root, b).get("properties").is_some()) {
                fill(root, branch, value);
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items {
                    fill(root, item_schema, item);
                }
            }
        }
        _ => {}
    }
}

/// What Pydantic writes for a field the reply left out: the schema's default; else an
/// empty list for a list (a `default_factory=list` field, which the schema does not
/// show); else `null` where the field may be null.
fn pydantic_default(property: &Value) -> Option<Value> {
    if let Some(default) = property.get("default") {
        return Some(default.clone());
    }
    let mut types: Vec<&Value> = vec![property];
    types.extend(alternatives(property));
    let is = |kind: &str| {
        types
            .iter()
            .any(|t| t.get("type").and_then(Value::as_str) == Some(kind))
    };
    if is("array") {
        Some(Value::Array(Vec::new()))
    } else if is("null") {
        Some(Value::Null)
    } else {
        None
    }
}

fn alternatives(schema: &Value) -> impl Iterator<Item = &Value> {
    ["anyOf", "oneOf"]
        .into_iter()
        .filter_map(|key| schema.get(key).and_then(Value::as_array))
        .flatten()
}

/// The schema a local `$ref` (`#/$defs/Name`) points at; any other schema as it is.
fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
        return schema;
    };
    let Some(pointer) = reference.strip_prefix('#') else {
        return schema;
    };
    root.pointer(pointer).unwrap_or(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn absent_fields_with_defaults_are_written_as_pydantic_writes_them() {
        let schema = json!({
            "type": "object",
            "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/Pane"}}},
            "$defs": {"Pane": {"type": "object", "properties": {
                "pane_id": {"type": "string"},
                "pane_title": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}
            }}}
        });
        let Value::Object(schema) = schema else { unreachable!() };
        let reply = with_defaults(
            Some(&schema),
            json!({"result": [{"pane_id": "%1"}, {"pane_id": "%2", "pane_title": "t"}]}),
        );
        assert_eq!(
            reply,
            json!({"result": [{"pane_id": "%1", "pane_title": null}, {"pane_id": "%2", "pane_title": "t"}]})
        );
    }

    #[test]
    fn a_text_reply_is_left_alone() {
        assert_eq!(with_defaults(None, json!("text")), json!("text"));
    }
}
