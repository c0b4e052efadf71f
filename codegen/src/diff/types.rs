//! The `type` keyword as a set of JSON types, for telling a widened type from a narrowed
//! or a changed one.

use serde_json::{Map, Value};

/// `{"anyOf": [{"type": "string"}, {"type": "null"}]}` written as `{"type": ["string", "null"]}`,
/// so the two spellings of a nullable type (Go and Python pages use one each) compare equal.
/// `None` when the schema has neither spelling: no `type`, and no `anyOf`/`oneOf` of bare types.
pub(super) fn types_folded(schema: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut folded = schema.clone();
    if schema.contains_key("type") {
        return Some(folded);
    }
    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(variants)) = schema.get(keyword) else {
            continue;
        };
        let only_types: Option<Vec<Value>> = variants
            .iter()
            .map(|variant| match variant.as_object() {
                Some(object) if object.len() == 1 => object.get("type").cloned(),
                _ => None,
            })
            .collect();
        let Some(only_types) = only_types else { continue };
        let mut names: Vec<Value> = Vec::new();
        for value in only_types {
            let listed = match value {
                Value::Array(many) => many,
                one => vec![one],
            };
            for name in listed {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        folded.remove(keyword);
        folded.insert("type".into(), Value::Array(names));
        return Some(folded);
    }
    None
}

/// The JSON types a `type` keyword allows; `None` when it allows any.
pub(super) fn types(value: Option<&Value>) -> Option<Vec<&str>> {
    match value? {
        Value::String(one) => Some(vec![one.as_str()]),
        Value::Array(many) => Some(many.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// Whether a set of types accepts every value of `kind` (integers are numbers).
pub(super) fn covers(types: &[&str], kind: &str) -> bool {
    types.contains(&kind) || (kind == "integer" && types.contains(&"number"))
}
