//! The subset of JSON Schema that paneward's code generator turns into Rust.
//!
//! Tool contracts are self-contained objects; the keywords below are refused up front
//! with a clear message because typify 0.8 either panics on them (`not`, external
//! `$ref`, some `allOf` merges) or would need naming rules we have not written yet.

use std::path::Path;

use serde_json::Value;

use crate::error::ContractError;
use crate::pointer::pointer_token;

/// Keywords refused anywhere in a tool schema, each with the reason a maintainer reads.
const UNSUPPORTED: [(&str, &str); 10] = [
    ("$ref", "references are not supported; inline the schema"),
    ("$defs", "definitions are not supported; inline the schema"),
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

/// Sub-schema positions walked by the checker and the namer, as (keyword, kind).
pub enum Child<'a> {
    Property(&'a str, &'a Value),
    Items(&'a Value),
    Variant(&'static str, usize, &'a Value),
    AdditionalProperties(&'a Value),
}

/// Lists the sub-schemas of `schema` that carry types of their own.
pub fn children(schema: &Value) -> Vec<Child<'_>> {
    let mut out = Vec::new();
    let Value::Object(object) = schema else {
        return out;
    };
    if let Some(Value::Object(properties)) = object.get("properties") {
        for (name, property) in properties {
            out.push(Child::Property(name, property));
        }
    }
    match object.get("items") {
        Some(Value::Array(tuple)) => {
            for (index, item) in tuple.iter().enumerate() {
                out.push(Child::Variant("items", index, item));
            }
        }
        Some(items) => out.push(Child::Items(items)),
        None => {}
    }
    for keyword in ["oneOf", "anyOf"] {
        if let Some(Value::Array(variants)) = object.get(keyword) {
            for (index, variant) in variants.iter().enumerate() {
                out.push(Child::Variant(keyword, index, variant));
            }
        }
    }
    if let Some(extra @ Value::Object(_)) = object.get("additionalProperties") {
        out.push(Child::AdditionalProperties(extra));
    }
    out
}

/// The JSON pointer suffix of a child position.
pub fn child_pointer(child: &Child<'_>) -> String {
    match child {
        Child::Property(name, _) => format!("/properties/{}", pointer_token(name)),
        Child::Items(_) => "/items".to_string(),
        Child::Variant(keyword, index, _) => format!("/{keyword}/{index}"),
        Child::AdditionalProperties(_) => "/additionalProperties".to_string(),
    }
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
        let child_pointer = format!("{pointer}{}", child_pointer(&child));
        let value = match child {
            Child::Property(_, v) | Child::Items(v) | Child::Variant(_, _, v) => v,
            Child::AdditionalProperties(v) => v,
        };
        check_supported(file, &child_pointer, value)?;
    }
    Ok(())
}
