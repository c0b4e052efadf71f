//! Where a schema says a string is a tmux id, and a walk over a value by its schema that
//! visits each such string: the request path strips targets from the ids of a call's
//! arguments and writes them into the ids of its reply with it.

use serde_json::Value;

/// What makes a string an id at a position of a schema: its `pattern`, or (for schemas
/// that give none) the name of the property that holds it.
pub struct IdRule<'a> {
    pub patterns: &'a [String],
    pub names: &'a [String],
}

impl IdRule<'_> {
    /// Whether `schema`, under property `name`, holds an id.
    pub fn is_id(&self, schema: &Value, name: Option<&str>) -> bool {
        match schema.get("pattern").and_then(Value::as_str) {
            Some(pattern) => self.patterns.iter().any(|p| p == pattern),
            None => name.is_some_and(|name| self.names.iter().any(|n| n == name)) && holds_strings(schema),
        }
    }
}

/// A string schema, an array of strings, or a union with a string in it.
fn holds_strings(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(kind)) if kind == "string" => true,
        Some(Value::String(kind)) if kind == "array" => schema.get("items").is_some_and(holds_strings),
        _ => false,
    }
}

/// Calls `visit` with the JSON pointer and a mutable reference of every id string in
/// `value` at a position `schema` declares as an id under `rule`; each string once.
pub fn visit_ids(schema: &Value, value: &mut Value, rule: &IdRule<'_>, visit: &mut dyn FnMut(&str, &mut String)) {
    walk(schema, None, value, rule, &mut String::new(), visit);
}

fn walk(
    schema: &Value,
    name: Option<&str>,
    value: &mut Value,
    rule: &IdRule<'_>,
    pointer: &mut String,
    visit: &mut dyn FnMut(&str, &mut String),
) {
    if rule.is_id(schema, name) {
        match value {
            Value::String(text) => visit(pointer, text),
            Value::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    if let Value::String(text) = item {
                        visit(&format!("{pointer}/{index}"), text);
                    }
                }
            }
            _ => {}
        }
        return;
    }
    if let (Some(properties), Value::Object(object)) =
        (schema.get("properties").and_then(Value::as_object), &mut *value)
    {
        for (key, sub) in properties {
            if let Some(inner) = object.get_mut(key) {
                let length = pointer.len();
                pointer.push('/');
                pointer.push_str(&paneward_contract::pointer_token(key));
                walk(sub, Some(key), inner, rule, pointer, visit);
                pointer.truncate(length);
            }
        }
    }
    if let (Some(items), Value::Array(array)) = (schema.get("items"), &mut *value) {
        for (index, item) in array.iter_mut().enumerate() {
            let length = pointer.len();
            pointer.push_str(&format!("/{index}"));
            walk(items, name, item, rule, pointer, visit);
            pointer.truncate(length);
        }
    }
    // A union: the first variant that declares an id here decides, so no string is
    // visited twice.
    for keyword in ["anyOf", "oneOf"] {
        let variants = schema.get(keyword).and_then(Value::as_array).into_iter().flatten();
        for variant in variants {
            if matches!(value, Value::String(_)) && rule.is_id(variant, name) {
                walk(variant, name, value, rule, pointer, visit);
                break;
            }
            if !matches!(value, Value::String(_)) && has_properties_or_items(variant) && fits(variant, value) {
                walk(variant, name, value, rule, pointer, visit);
            }
        }
    }
}

/// Whether `value` can be `variant` by its constants (a batch row's `tool`): only the
/// variant a row is of is walked, so no id is visited under two variants.
fn fits(variant: &Value, value: &Value) -> bool {
    let Some(properties) = variant.get("properties").and_then(Value::as_object) else {
        return true;
    };
    properties.iter().all(|(key, property)| match property.get("const") {
        Some(constant) => value.get(key) == Some(constant),
        None => true,
    })
}

fn has_properties_or_items(schema: &Value) -> bool {
    schema.get("properties").is_some() || schema.get("items").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_are_found_by_pattern_or_by_name_at_any_depth_with_their_pointers() {
        let patterns = vec!["^%[0-9]+$".to_string()];
        let names = vec!["paneId".to_string()];
        let rule = IdRule {
            patterns: &patterns,
            names: &names,
        };
        let schema = json!({"type": "object", "properties": {
            "panes": {"type": "array", "items": {"type": "object", "properties": {
                "id": {"type": "string", "pattern": "^%[0-9]+$"},
                "title": {"type": "string"}
            }}},
            "paneId": {"anyOf": [{"type": "null"}, {"type": "string"}]},
            "other": {"type": "string"}
        }});
        let mut value = json!({"panes": [{"id": "%1", "title": "%9"}, {"id": "%2"}], "paneId": "%3", "other": "%4"});
        let mut seen = Vec::new();
        visit_ids(&schema, &mut value, &rule, &mut |pointer, id| {
            seen.push(format!("{pointer}={id}"));
            id.insert_str(0, "a/");
        });
        seen.sort();
        assert_eq!(seen, ["/paneId=%3", "/panes/0/id=%1", "/panes/1/id=%2"]);
        // A union of rows by their `tool`: only the row's own variant is walked.
        let rows = json!({"type": "array", "items": {"oneOf": [
            {"type": "object", "properties": {"tool": {"const": "x"}, "arguments": {"type": "object", "properties": {"pane_id": {"type": "string", "pattern": "^%[0-9]+$"}}}}},
            {"type": "object", "properties": {"tool": {"const": "y"}, "arguments": {"type": "object", "properties": {"pane_id": {"type": "string", "pattern": "^%[0-9]+$"}}}}}
        ]}});
        let mut row = json!([{"tool": "y", "arguments": {"pane_id": "%5"}}]);
        let mut visits = 0;
        visit_ids(&rows, &mut row, &rule, &mut |_, _| visits += 1);
        assert_eq!(visits, 1);
        assert_eq!(
            value,
            json!({"panes": [{"id": "a/%1", "title": "%9"}, {"id": "a/%2"}], "paneId": "a/%3", "other": "%4"})
        );
    }
}
