//! Checking a call's arguments against the advertised input schema, with a message
//! that names the JSON pointer and the rule broken.
//!
//! typify's types and serde alone do not enforce `minItems`, `maxItems` or `maximum`,
//! so this runs first. jsonschema's own messages quote the offending value (which may
//! be huge or secret) and say only "not valid under any of the schemas" for a
//! `oneOf`; we write our own, and for a `oneOf` of batch operations we report the
//! errors of the branch whose `tool` matches.

use crate::limits::{ERROR_ENUM_MAX_CHARS, ERROR_FIELD_NAME_MAX_CHARS, ERROR_RULE_MAX_CHARS, ERROR_VALUE_MAX_CHARS};
use jsonschema::error::{ValidationError, ValidationErrorKind};
use paneward_contract::{excerpt, pointer_token};
use serde_json::Value;
use std::sync::OnceLock;

use crate::runtime::error::ToolError;

/// A schema and its validator, compiled on first use: building every tool's validators
/// took most of start-up, and a session calls a few tools. Every schema of the catalogue
/// is compiled by a test (`catalog::tests`) and by `paneward doctor`, so a schema that
/// does not compile is still caught before a call meets it.
pub struct SchemaCheck {
    schema: Value,
    validator: OnceLock<Result<jsonschema::Validator, String>>,
}

impl SchemaCheck {
    /// Compiles `schema` now.
    ///
    /// # Errors
    /// The schema does not compile.
    pub fn new(schema: Value) -> Result<Self, String> {
        let check = Self::lazy(schema);
        check.validator()?;
        Ok(check)
    }

    /// Keeps `schema`, to be compiled when it first checks something.
    pub fn lazy(schema: Value) -> Self {
        Self {
            schema,
            validator: OnceLock::new(),
        }
    }

    /// The validator, compiled now if this is its first use.
    ///
    /// # Errors
    /// The schema does not compile (codegen and a test checked it, so a paneward fault).
    pub fn validator(&self) -> Result<&jsonschema::Validator, String> {
        self.validator
            .get_or_init(|| jsonschema::validator_for(&self.schema).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The schema as given.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// Checks `arguments`; the error names every problem, each by pointer and rule.
    ///
    /// # Errors
    /// An [`ToolError`] of kind `InvalidArguments`, or an internal one when the schema
    /// does not compile.
    pub fn check(&self, arguments: &Value) -> Result<(), ToolError> {
        let validator = self
            .validator()
            .map_err(|e| ToolError::internal(format!("the input schema does not compile: {e}")))?;
        // Most calls are valid: `is_valid` settles them without building an error for
        // every branch of a `oneOf` that does not match (a batch's sixteen operations
        // each try every branch).
        if validator.is_valid(arguments) {
            return Ok(());
        }
        let errors: Vec<ValidationError<'_>> = validator.iter_errors(arguments).collect();
        let Some(first) = errors.first() else {
            return Ok(());
        };
        let (pointer, rule) = describe(&self.schema, arguments, first);
        // Every problem at once: fixing one at a time costs a caller a round trip each.
        let more: String = errors[1..]
            .iter()
            .map(|error| {
                let (pointer, rule) = describe(&self.schema, arguments, error);
                let at = if pointer.is_empty() {
                    "(the arguments object)"
                } else {
                    pointer.as_str()
                };
                format!("; {at}: {rule}")
            })
            .collect();
        Err(ToolError::invalid_argument(&pointer, format!("{rule}{more}")))
    }

    /// Lists every problem as `(pointer, rule)`, for reports that show them all; a
    /// schema that does not compile is one problem at the root.
    pub fn problems(&self, instance: &Value) -> Vec<(String, String)> {
        match self.validator() {
            Ok(validator) => validator
                .iter_errors(instance)
                .map(|e| describe(&self.schema, instance, &e))
                .collect(),
            Err(error) => vec![(String::new(), format!("the schema does not compile: {error}"))],
        }
    }
}

/// A copy of `schema` that closes every object: `additionalProperties: false` is added
/// wherever an object schema lists `properties` and says nothing about other fields.
///
/// The advertised schemas leave unknown fields open where upstream does, and every
/// reply open (so that a later version may add a field), but a tool that types or
/// changes something must not guess what a misspelt field meant, and a reply must not
/// carry a field its contract does not name: the request path checks those calls, and
/// debug builds and the tests those replies, against this copy, never advertised.
pub fn strict_copy(schema: &Value) -> Value {
    let Value::Object(object) = schema else {
        return schema.clone();
    };
    let mut closed = serde_json::Map::with_capacity(object.len() + 1);
    for (keyword, value) in object {
        let value = match (keyword.as_str(), value) {
            // Maps from a name to a subschema: the names are data, the values schemas.
            ("properties" | "patternProperties" | "definitions" | "$defs", Value::Object(map)) => Value::Object(
                map.iter()
                    .map(|(name, subschema)| (name.clone(), strict_copy(subschema)))
                    .collect(),
            ),
            ("items" | "additionalItems" | "additionalProperties" | "not" | "if" | "then" | "else", _) => match value {
                Value::Array(schemas) => Value::Array(schemas.iter().map(strict_copy).collect()),
                _ => strict_copy(value),
            },
            ("oneOf" | "anyOf" | "allOf", Value::Array(schemas)) => {
                Value::Array(schemas.iter().map(strict_copy).collect())
            }
            _ => value.clone(),
        };
        closed.insert(keyword.clone(), value);
    }
    if closed.contains_key("properties") && !closed.contains_key("additionalProperties") {
        closed.insert("additionalProperties".into(), Value::Bool(false));
    }
    Value::Object(closed)
}

/// Turns one validation error into a JSON pointer and a sentence naming the rule;
/// `root` is the whole instance that was validated.
fn describe(schema: &Value, root: &Value, error: &ValidationError<'_>) -> (String, String) {
    let at = error.instance_path().to_string();
    let schema_at = error.schema_path().to_string();
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            (format!("{at}/{}", pointer_token(name)), "is required".into())
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let name = unexpected.first().map(String::as_str).unwrap_or_default();
            let parent = parent_pointer(&schema_at);
            let allowed = schema
                .pointer(&format!("{parent}/properties"))
                .and_then(Value::as_object)
                .map(|p| p.keys().map(String::as_str).collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            let rule = if allowed.is_empty() {
                "is not allowed: this object takes no fields".to_string()
            } else {
                format!("is not a known field (additionalProperties is false); the fields are: {allowed}")
            };
            (
                format!("{at}/{}", pointer_token(&excerpt(name, ERROR_FIELD_NAME_MAX_CHARS))),
                rule,
            )
        }
        // jsonschema reports a field of a closed object that declares no `properties`
        // at the object itself, holding the field's value: find the field's name.
        ValidationErrorKind::FalseSchema if schema_at.ends_with("/additionalProperties") => {
            let parent = parent_pointer(&schema_at);
            let known = schema
                .pointer(&format!("{parent}/properties"))
                .and_then(Value::as_object);
            let name = root
                .pointer(&at)
                .and_then(Value::as_object)
                .and_then(|object| object.keys().find(|key| known.is_none_or(|k| !k.contains_key(*key))))
                .map(String::as_str)
                .unwrap_or_default();
            (
                format!("{at}/{}", pointer_token(&excerpt(name, ERROR_FIELD_NAME_MAX_CHARS))),
                "is not allowed: this object takes no fields".into(),
            )
        }
        ValidationErrorKind::Type { kind } => (at, format!("must be of type {}", type_names(kind))),
        ValidationErrorKind::Maximum { limit } => (at, format!("must be at most {limit} (maximum)")),
        ValidationErrorKind::Minimum { limit } => (at, format!("must be at least {limit} (minimum)")),
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            (at, format!("must be less than {limit} (exclusiveMaximum)"))
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            (at, format!("must be greater than {limit} (exclusiveMinimum)"))
        }
        ValidationErrorKind::MaxItems { limit } => (at, format!("must have at most {limit} items (maxItems)")),
        ValidationErrorKind::MinItems { limit } => (
            at,
            format!(
                "must have at least {limit} item{} (minItems)",
                if *limit == 1 { "" } else { "s" }
            ),
        ),
        ValidationErrorKind::MaxLength { limit } => {
            (at, format!("must be at most {limit} characters long (maxLength)"))
        }
        ValidationErrorKind::MinLength { limit } => {
            (at, format!("must be at least {limit} characters long (minLength)"))
        }
        ValidationErrorKind::Pattern { pattern } => (at, format!("must match the pattern {pattern}")),
        ValidationErrorKind::Enum { options } => (
            at,
            format!("must be one of {}", excerpt(&options.to_string(), ERROR_ENUM_MAX_CHARS)),
        ),
        ValidationErrorKind::Constant { expected_value } => (
            at,
            format!(
                "must be {}",
                excerpt(&expected_value.to_string(), ERROR_VALUE_MAX_CHARS)
            ),
        ),
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            describe_variants(schema, root, &schema_at, &at, error.instance(), context)
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            (at, "matches more than one of the allowed shapes (oneOf)".into())
        }
        _ => (at, excerpt(&error.to_string(), ERROR_RULE_MAX_CHARS)),
    }
}

/// For a `oneOf` whose branches are told apart by a `tool` const (the batch), report
/// the branch the caller meant; otherwise say no shape matched.
fn describe_variants(
    schema: &Value,
    root: &Value,
    schema_at: &str,
    at: &str,
    instance: &Value,
    context: &[Vec<ValidationError<'static>>],
) -> (String, String) {
    let branches = schema.pointer(schema_at).and_then(Value::as_array);
    let tools: Vec<&str> = branches
        .map(|b| {
            b.iter()
                .filter_map(|v| v.pointer("/properties/tool/const").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    if tools.is_empty() {
        return (
            at.to_string(),
            "does not match any of the allowed shapes (oneOf)".into(),
        );
    }
    if !instance.is_object() {
        return (at.to_string(), "must be of type object".into());
    }
    let Some(tool) = instance.get("tool") else {
        return (format!("{at}/tool"), "is required".into());
    };
    let Some(name) = tool.as_str() else {
        return (format!("{at}/tool"), "must be of type string".into());
    };
    match tools.iter().position(|t| *t == name) {
        Some(index) => match context.get(index).and_then(|errors| errors.first()) {
            Some(inner) => describe(schema, root, inner),
            None => (at.to_string(), format!("does not match the `{name}` operation")),
        },
        None => (format!("{at}/tool"), format!("must be one of: {}", tools.join(", "))),
    }
}

fn type_names(kind: &jsonschema::error::TypeKind) -> String {
    match kind {
        jsonschema::error::TypeKind::Single(t) => t.to_string(),
        jsonschema::error::TypeKind::Multiple(set) => {
            set.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" or ")
        }
    }
}

fn parent_pointer(pointer: &str) -> &str {
    pointer.rfind('/').map_or("", |i| &pointer[..i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value, args: Value) -> String {
        SchemaCheck::new(schema).unwrap().check(&args).unwrap_err().to_string()
    }

    #[test]
    fn a_missing_field_is_named_with_its_pointer() {
        let schema = json!({"type": "object", "properties": {"pane_id": {"type": "string"}}, "required": ["pane_id"]});
        assert_eq!(check(schema, json!({})), "invalid arguments: /pane_id: is required");
    }

    #[test]
    fn an_unknown_field_lists_the_known_ones() {
        let schema = json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}, "b": {"type": "string"}}});
        let message = check(schema, json!({"zzz": 1}));
        assert!(
            message.starts_with("invalid arguments: /zzz: is not a known field"),
            "{message}"
        );
        assert!(message.ends_with("the fields are: a, b"), "{message}");
    }

    #[test]
    fn a_field_of_an_object_that_takes_none_is_named() {
        let schema = json!({"type": "object", "additionalProperties": false});
        assert_eq!(
            check(schema.clone(), json!({"all": true})),
            "invalid arguments: /all: is not allowed: this object takes no fields"
        );
        let batch = json!({"type": "object", "properties": {"ops": {"type": "array", "items": {"oneOf": [{
            "type": "object", "additionalProperties": false, "required": ["tool"],
            "properties": {"tool": {"const": "a", "type": "string"}, "arguments": schema}}]}}}});
        assert_eq!(
            check(batch, json!({"ops": [{"tool": "a", "arguments": {"x": 1}}]})),
            "invalid arguments: /ops/0/arguments/x: is not allowed: this object takes no fields"
        );
    }

    #[test]
    fn a_huge_value_is_not_echoed() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let message = check(schema, json!({"n": "x".repeat(100_000)}));
        assert_eq!(message, "invalid arguments: /n: must be of type integer");
    }

    #[test]
    fn a_batch_operation_reports_the_branch_its_tool_names() {
        let branch = |tool: &str, required: &str| {
            json!({
                "type": "object", "additionalProperties": false, "required": ["tool"],
                "properties": {"tool": {"const": tool, "type": "string"}, "arguments": {
                    "type": "object", "additionalProperties": false,
                    "properties": {required: {"type": "string"}}, "required": [required]}}
            })
        };
        let schema = json!({"type": "object", "properties": {"operations": {"type": "array", "items": {"oneOf": [branch("a", "x"), branch("b", "y")]}}}});
        let message = check(schema.clone(), json!({"operations": [{"tool": "b", "arguments": {}}]}));
        assert_eq!(message, "invalid arguments: /operations/0/arguments/y: is required");
        let message = check(schema.clone(), json!({"operations": [{"tool": "c"}]}));
        assert_eq!(message, "invalid arguments: /operations/0/tool: must be one of: a, b");
        // A row that is not an object has no `tool` to be missing.
        for row in [json!(5), json!("a")] {
            let message = check(schema.clone(), json!({"operations": [row]}));
            assert_eq!(message, "invalid arguments: /operations/0: must be of type object");
        }
    }

    #[test]
    fn the_strict_copy_closes_every_object_with_properties_and_keeps_the_rest() {
        let schema = json!({"type": "object", "properties": {
            "properties": {"type": "string"},
            "operations": {"type": "array", "items": {"type": "object", "properties": {"enter": {"type": "boolean"}}}},
            "open": {"type": "object", "additionalProperties": true, "properties": {"x": {"type": "string"}}}
        }});
        let strict = strict_copy(&schema);
        assert_eq!(strict["additionalProperties"], json!(false));
        assert_eq!(
            strict["properties"]["operations"]["items"]["additionalProperties"],
            json!(false)
        );
        assert_eq!(
            strict["properties"]["open"]["additionalProperties"],
            json!(true),
            "a stated rule stays"
        );
        assert_eq!(
            strict["properties"]["properties"],
            json!({"type": "string"}),
            "a field's name is not a keyword"
        );
        let error = check(strict, json!({"operations": [{"enter": true, "enterr": false}]}));
        assert!(
            error.starts_with("invalid arguments: /operations/0/enterr: is not a known field"),
            "{error}"
        );
        assert!(error.contains("the fields are: enter"), "{error}");
    }
}
