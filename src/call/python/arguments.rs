//! Arguments as libtmux-mcp takes them. Its tools are Python functions whose parameters
//! Pydantic validates in lax mode: a number sent as a string (`"max_lines": "50"`) or a
//! flag sent as `"true"` is accepted, and a call that still does not fit is refused
//! with Pydantic's own report (`2 validation errors for call[capture_pane]` and one
//! entry per argument), which agents written for libtmux-mcp know how to read. The
//! request path hands every call of the profile through [`admit`] in place of the plain
//! schema check; the schema stays the one advertised.

use serde_json::{Map, Value};

use crate::catalog::schema::SchemaCheck;
use crate::runtime::error::{short_echo, ToolErrorKind, UpstreamError};
use crate::runtime::ToolError;

/// `arguments` with Pydantic's lax conversions made where the schema wants a number or
/// a flag, checked against `input`.
///
/// # Errors
/// What still breaks the schema, reported as Pydantic reports it.
pub fn admit(tool: &str, input: &SchemaCheck, arguments: Value) -> Result<Value, ToolError> {
    let arguments = lax(input.schema(), arguments);
    if input.check(&arguments).is_ok() {
        return Ok(with_defaults(input.schema(), arguments));
    }
    Err(report(tool, input.schema(), &arguments))
}

/// `arguments` with every absent argument at the default the advertised schema gives
/// it: the default a client was shown is the one the call gets (a setting published
/// as a default, like `LIBTMUX_SUPPRESS_HISTORY`, included).
fn with_defaults(schema: &Value, arguments: Value) -> Value {
    let (Value::Object(mut fields), Some(Value::Object(properties))) = (arguments.clone(), schema.get("properties"))
    else {
        return arguments;
    };
    for (name, property) in properties {
        if let (false, Some(default)) = (fields.contains_key(name), property.get("default")) {
            fields.insert(name.clone(), default.clone());
        }
    }
    Value::Object(fields)
}

/// The JSON types a property's schema admits (`type`, or the types of its `anyOf`).
fn types_of(schema: &Value) -> Vec<&str> {
    let mut types = Vec::new();
    match schema.get("type") {
        Some(Value::String(one)) => types.push(one.as_str()),
        Some(Value::Array(many)) => types.extend(many.iter().filter_map(Value::as_str)),
        _ => {}
    }
    if let Some(Value::Array(branches)) = schema.get("anyOf") {
        for branch in branches {
            types.extend(types_of(branch));
        }
    }
    types
}

fn lax(schema: &Value, arguments: Value) -> Value {
    let (Value::Object(mut fields), Some(Value::Object(properties))) = (arguments.clone(), schema.get("properties"))
    else {
        return arguments;
    };
    for (name, value) in fields.iter_mut() {
        let Some(property) = properties.get(name) else {
            continue;
        };
        let types = types_of(property);
        if types.contains(&"string") {
            continue;
        }
        if let Value::String(text) = value {
            if types.contains(&"integer") {
                if let Ok(number) = text.trim().parse::<i64>() {
                    *value = Value::from(number);
                }
            } else if types.contains(&"boolean") {
                if let Some(flag) = lax_bool(text) {
                    *value = Value::Bool(flag);
                }
            }
        } else if let (Some(number), true) = (value.as_i64(), types.contains(&"boolean")) {
            if number == 0 || number == 1 {
                *value = Value::Bool(number == 1);
            }
        }
    }
    Value::Object(fields)
}

/// The strings Pydantic reads as a flag.
fn lax_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "t" | "yes" | "y" | "on" => Some(true),
        "0" | "false" | "f" | "no" | "n" | "off" => Some(false),
        _ => None,
    }
}

/// Pydantic's report of everything wrong with `arguments`: missing and mistyped
/// arguments in the schema's order, then unknown ones, and a suggestion for those.
fn report(tool: &str, schema: &Value, arguments: &Value) -> ToolError {
    let empty = Map::new();
    let fields = arguments.as_object().unwrap_or(&empty);
    let properties = schema.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut entries: Vec<(String, String)> = Vec::new();
    for (name, property) in properties {
        match fields.get(name) {
            None if required.contains(&name.as_str()) => {
                entries.push((name.clone(), "Missing required argument [type=missing_argument]".into()));
            }
            Some(value) if !jsonschema::is_valid(&with_defs(schema, property), value) => {
                nested(schema, property, value, name.clone(), &mut entries);
            }
            _ => {}
        }
    }
    let unknown: Vec<&str> = fields
        .keys()
        .filter(|name| !properties.contains_key(*name))
        .map(String::as_str)
        .collect();
    for name in &unknown {
        entries.push((
            (*name).to_string(),
            "Unexpected keyword argument [type=unexpected_keyword_argument]".into(),
        ));
    }
    if entries.is_empty() {
        entries.push((
            String::new(),
            "Input should be a valid dictionary [type=dict_type]".into(),
        ));
    }
    let plural = if entries.len() == 1 { "" } else { "s" };
    let tool = short_echo(tool);
    let mut message = format!("{} validation error{plural} for call[{tool}]", entries.len());
    for (name, rule) in &entries {
        let name = short_echo(name);
        message.push_str(&format!("\n{name}\n  {rule}"));
    }
    let suggestion = (!unknown.is_empty()).then(|| {
        let names: Vec<String> = unknown.iter().map(|name| short_echo(name)).collect();
        format!("Remove or correct the unrecognized argument(s): {}.", names.join(", "))
    });
    ToolError::new(ToolErrorKind::InvalidArguments, message).with_upstream(UpstreamError {
        error_type: "ValidationError",
        expected: true,
        suggestion,
    })
}

/// `schema` made checkable on its own: with the root's `$defs` beside it, so a `$ref`
/// into them resolves.
fn with_defs(root: &Value, schema: &Value) -> Value {
    match (root.get("$defs"), schema) {
        (Some(defs), Value::Object(fields)) if !fields.contains_key("$defs") => {
            let mut fields = fields.clone();
            fields.insert("$defs".into(), defs.clone());
            Value::Object(fields)
        }
        _ => schema.clone(),
    }
}

/// The schema a local `$ref` names, or `schema` itself.
fn resolved<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
        .unwrap_or(schema)
}

/// Pydantic's entries for `value` at `path` (`operations.0.tool`), which `schema`
/// refuses: inside a model (an object) or a list it names the member that is wrong, as
/// Pydantic does; elsewhere the value itself.
fn nested(root: &Value, schema: &Value, value: &Value, path: String, entries: &mut Vec<(String, String)>) {
    let schema = resolved(root, schema);
    // An optional value (`anyOf: [X, null]`) that is not null is judged as an X.
    if let (Some(branches), false) = (schema.get("anyOf").and_then(Value::as_array), value.is_null()) {
        let not_null: Vec<&Value> = branches
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"))
            .collect();
        if let [only] = not_null.as_slice() {
            return nested(root, only, value, path, entries);
        }
    }
    let kind = schema.get("type").and_then(Value::as_str);
    match (kind, value) {
        (Some("object"), Value::Object(fields)) => {
            let empty = Map::new();
            let properties = schema.get("properties").and_then(Value::as_object).unwrap_or(&empty);
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|names| names.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (name, property) in properties {
                let at = format!("{path}.{name}");
                match fields.get(name) {
                    None if required.contains(&name.as_str()) => {
                        entries.push((at, "Field required [type=missing]".into()));
                    }
                    Some(member) if !jsonschema::is_valid(&with_defs(root, property), member) => {
                        nested(root, property, member, at, entries);
                    }
                    _ => {}
                }
            }
            if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
                for name in fields.keys().filter(|name| !properties.contains_key(*name)) {
                    entries.push((
                        format!("{path}.{name}"),
                        "Extra inputs are not permitted [type=extra_forbidden]".into(),
                    ));
                }
            }
        }
        (Some("array"), Value::Array(items)) => {
            let before = entries.len();
            if let Some(item_schema) = schema.get("items") {
                for (index, item) in items.iter().enumerate() {
                    if !jsonschema::is_valid(&with_defs(root, item_schema), item) {
                        nested(root, item_schema, item, format!("{path}.{index}"), entries);
                    }
                }
            }
            if entries.len() == before {
                // The items fit; the list itself does not (its length, say).
                entries.push((path, "List does not fit this argument [type=list_type]".into()));
            }
        }
        _ => entries.push((path, mismatch(schema, value))),
    }
}

/// Pydantic's words for a value its parameter's schema refuses.
fn mismatch(property: &Value, value: &Value) -> String {
    if let Some(Value::Array(choices)) = property.get("enum") {
        let choices: Vec<String> = choices
            .iter()
            .map(|choice| match choice {
                Value::String(text) => format!("'{text}'"),
                other => other.to_string(),
            })
            .collect();
        let listed = match choices.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        return format!("Input should be {listed} [type=literal_error]");
    }
    let types = types_of(property);
    let wanted = types.iter().find(|t| **t != "null").copied().unwrap_or("");
    match (wanted, value) {
        ("string", _) => "Input should be a valid string [type=string_type]".into(),
        ("integer", Value::String(_)) => {
            "Input should be a valid integer, unable to parse string as an integer [type=int_parsing]".into()
        }
        ("integer", Value::Number(_)) => {
            "Input should be a valid integer, got a number with a fractional part [type=int_from_float]".into()
        }
        ("integer", _) => "Input should be a valid integer [type=int_type]".into(),
        ("number", Value::String(_)) => {
            "Input should be a valid number, unable to parse string as a number [type=float_parsing]".into()
        }
        ("number", _) => "Input should be a valid number [type=float_type]".into(),
        ("boolean", Value::String(_)) => {
            "Input should be a valid boolean, unable to interpret input [type=bool_parsing]".into()
        }
        ("boolean", _) => "Input should be a valid boolean [type=bool_type]".into(),
        ("array", _) => "Input should be a valid list [type=list_type]".into(),
        ("object", _) => "Input should be a valid dictionary [type=dict_type]".into(),
        _ => "Input is not valid for this argument [type=value_error]".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> SchemaCheck {
        SchemaCheck::lazy(json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "keys": {"type": "string"},
                "max_lines": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": 500},
                "enter": {"type": "boolean", "default": true}
            },
            "required": ["keys"]
        }))
    }

    #[test]
    fn numbers_and_flags_sent_as_strings_are_taken_as_pydantic_takes_them() {
        let admitted = admit(
            "t",
            &schema(),
            json!({"keys": "5", "max_lines": "50", "enter": "false"}),
        )
        .unwrap();
        assert_eq!(admitted, json!({"keys": "5", "max_lines": 50, "enter": false}));
    }

    #[test]
    fn an_absent_argument_takes_the_advertised_default() {
        let admitted = admit("t", &schema(), json!({"keys": "x"})).unwrap();
        assert_eq!(admitted, json!({"keys": "x", "max_lines": 500, "enter": true}));
    }

    #[test]
    fn a_member_of_a_list_of_models_is_named_by_its_path() {
        let schema = SchemaCheck::lazy(json!({
            "type": "object",
            "properties": {"operations": {"type": "array", "items": {
                "type": "object", "additionalProperties": false,
                "properties": {"tool": {"type": "string"}}, "required": ["tool"]
            }}},
            "required": ["operations"]
        }));
        let error = admit("batch", &schema, json!({"operations": [{"tool": "x", "extra": 1}, {}]})).unwrap_err();
        assert_eq!(
            error.message(),
            "2 validation errors for call[batch]\noperations.0.extra\n  Extra inputs are not permitted [type=extra_forbidden]\noperations.1.tool\n  Field required [type=missing]"
        );
    }

    #[test]
    fn what_does_not_fit_is_reported_as_pydantic_reports_it() {
        let error = admit("send_keys", &schema(), json!({"max_lines": "x", "bogus": 1})).unwrap_err();
        assert_eq!(
            error.message(),
            "3 validation errors for call[send_keys]\nkeys\n  Missing required argument [type=missing_argument]\nmax_lines\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing]\nbogus\n  Unexpected keyword argument [type=unexpected_keyword_argument]"
        );
        let upstream = error.upstream();
        assert_eq!(upstream.error_type, "ValidationError");
        assert_eq!(
            upstream.suggestion.as_deref(),
            Some("Remove or correct the unrecognized argument(s): bogus.")
        );
    }
}
