//! Python's `filters` argument (`list_sessions`, `list_windows`, `list_panes`): the
//! Django-style lookups of libtmux's `QueryList` (`session_name__contains: "dev"`),
//! applied to the records [`super::models`] builds. A key is `FIELD` (exact match) or
//! `FIELD__LOOKUP`; every key must hold for a record to be kept. Values are compared
//! with the text tmux prints for the field, as libtmux holds it (`"1"`, not `1` or
//! `true`); a field without a value matches nothing.
//!
//! Where paneward is stricter than libtmux-mcp: a field that is not one of the record's
//! (or the tmux variable it is read from) is refused by name instead of silently
//! matching nothing, and a `regex` that does not compile is refused. Regular
//! expressions are Rust's `regex` syntax (no look-around or back-references).

use serde::Serialize;
use serde_json::Value;

use crate::runtime::error::short_echo;
use crate::runtime::ToolError;

use super::target::upstream_error;

/// The lookups libtmux's `QueryList` knows, by the name a key ends with.
const LOOKUPS: [&str; 13] = [
    "contains",
    "endswith",
    "eq",
    "exact",
    "icontains",
    "iendswith",
    "iexact",
    "in",
    "iregex",
    "istartswith",
    "nin",
    "regex",
    "startswith",
];

/// A parsed `filters` argument: every lookup a record must pass.
#[derive(Debug)]
pub struct Filters {
    lookups: Vec<Lookup>,
}

#[derive(Debug)]
struct Lookup {
    /// The record's key the lookup reads.
    key: &'static str,
    test: Test,
}

#[derive(Debug)]
enum Test {
    Exact(Value),
    IExact(Value),
    Contains(Value),
    IContains(Value),
    StartsWith(Value),
    IStartsWith(Value),
    EndsWith(Value),
    IEndsWith(Value),
    In(Value),
    NotIn(Value),
    Regex(regex::Regex),
}

impl Filters {
    /// Reads `filters` (an object, its JSON text, an empty text or null) against the
    /// fields a record has: `fields` pairs each name a caller may use with the record
    /// key it reads.
    ///
    /// # Errors
    /// The text is not JSON or not an object, a key names an unknown lookup or field,
    /// or a regular expression does not compile: each with libtmux-mcp's error type.
    pub fn parse(filters: &impl Serialize, fields: &[(&'static str, &'static str)]) -> Result<Self, ToolError> {
        let value = serde_json::to_value(filters)
            .map_err(|e| ToolError::internal(format!("filters could not be read: {e}")))?;
        let object = match value {
            Value::Null => return Ok(Self { lookups: Vec::new() }),
            Value::String(text) if text.is_empty() => return Ok(Self { lookups: Vec::new() }),
            Value::String(text) => match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(object)) => object,
                Ok(other) => {
                    return Err(upstream_error(
                        "ExpectedToolError",
                        &format!("filters must be a JSON object, got {}", python_type(&other)),
                        None,
                    ))
                }
                Err(e) => {
                    return Err(upstream_error(
                        "JSONDecodeError",
                        &format!("Invalid filters JSON: {e}"),
                        None,
                    ))
                }
            },
            Value::Object(object) => object,
            other => {
                return Err(upstream_error(
                    "ExpectedToolError",
                    &format!("filters must be a JSON object, got {}", python_type(&other)),
                    None,
                ))
            }
        };
        let lookups = object
            .into_iter()
            .map(|(key, value)| lookup(&key, value, fields))
            .collect::<Result<_, _>>()?;
        Ok(Self { lookups })
    }

    /// The records every lookup holds for, in their order.
    pub fn keep(&self, records: Vec<Value>) -> Vec<Value> {
        records.into_iter().filter(|record| self.holds(record)).collect()
    }

    fn holds(&self, record: &Value) -> bool {
        self.lookups.iter().all(|lookup| match text_of(record.get(lookup.key)) {
            Some(data) => lookup.test.passes(&data),
            None => false,
        })
    }
}

fn lookup(key: &str, value: Value, fields: &[(&'static str, &'static str)]) -> Result<Lookup, ToolError> {
    let (field, op) = match key.rsplit_once("__") {
        Some((field, op)) => {
            if !LOOKUPS.contains(&op) {
                return Err(upstream_error(
                    "ExpectedToolError",
                    &format!(
                        "Invalid filter operator '{}' in '{}'. Valid operators: {}",
                        short_echo(op),
                        short_echo(key),
                        LOOKUPS.join(", ")
                    ),
                    None,
                ));
            }
            (field, op)
        }
        None => (key, "exact"),
    };
    let Some(&(_, record_key)) = fields.iter().find(|(name, _)| *name == field) else {
        let mut names: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        return Err(upstream_error(
            "ExpectedToolError",
            &format!(
                "Unknown filter field '{}' in '{}'. Valid fields: {}",
                short_echo(field),
                short_echo(key),
                names.join(", ")
            ),
            None,
        ));
    };
    let test = match op {
        "exact" | "eq" => Test::Exact(value),
        "iexact" => Test::IExact(value),
        "contains" => Test::Contains(value),
        "icontains" => Test::IContains(value),
        "startswith" => Test::StartsWith(value),
        "istartswith" => Test::IStartsWith(value),
        "endswith" => Test::EndsWith(value),
        "iendswith" => Test::IEndsWith(value),
        "in" => Test::In(value),
        "nin" => Test::NotIn(value),
        regex_op => {
            let Value::String(pattern) = value else {
                // libtmux's regex lookups match nothing unless given a pattern.
                return Ok(Lookup {
                    key: record_key,
                    test: Test::Exact(Value::Null),
                });
            };
            let built = regex::RegexBuilder::new(&pattern)
                .case_insensitive(regex_op == "iregex")
                .size_limit(1 << 20)
                .build()
                .map_err(|e| {
                    upstream_error(
                        "ExpectedToolError",
                        &format!("Invalid regular expression in '{}': {e}", short_echo(key)),
                        None,
                    )
                })?;
            Test::Regex(built)
        }
    };
    Ok(Lookup { key: record_key, test })
}

impl Test {
    fn passes(&self, data: &str) -> bool {
        let lower = || data.to_lowercase();
        match self {
            Self::Exact(rhs) => rhs.as_str() == Some(data),
            Self::IExact(rhs) => rhs.as_str().is_some_and(|rhs| rhs.to_lowercase() == lower()),
            Self::Contains(rhs) => rhs.as_str().is_some_and(|rhs| data.contains(rhs)),
            Self::IContains(rhs) => rhs.as_str().is_some_and(|rhs| lower().contains(&rhs.to_lowercase())),
            Self::StartsWith(rhs) => rhs.as_str().is_some_and(|rhs| data.starts_with(rhs)),
            Self::IStartsWith(rhs) => rhs.as_str().is_some_and(|rhs| lower().starts_with(&rhs.to_lowercase())),
            Self::EndsWith(rhs) => rhs.as_str().is_some_and(|rhs| data.ends_with(rhs)),
            Self::IEndsWith(rhs) => rhs.as_str().is_some_and(|rhs| lower().ends_with(&rhs.to_lowercase())),
            // A list is membership; a text is, as in Python, a substring test.
            Self::In(rhs) => match rhs {
                Value::Array(items) => items.iter().any(|item| item.as_str() == Some(data)),
                Value::String(rhs) => data.contains(rhs.as_str()),
                _ => false,
            },
            Self::NotIn(rhs) => match rhs {
                Value::Array(items) => !items.iter().any(|item| item.as_str() == Some(data)),
                Value::String(rhs) => !data.contains(rhs.as_str()),
                _ => false,
            },
            Self::Regex(pattern) => pattern.is_match(data),
        }
    }
}

/// A record's value as the text tmux prints for it: numbers in decimal, flags `1`/`0`.
fn text_of(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(if *flag { "1" } else { "0" }.to_string()),
        _ => None,
    }
}

/// The name Python gives a decoded JSON value's type, as its error says it.
fn python_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(number) if number.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const FIELDS: [(&str, &str); 3] = [
        ("session_name", "session_name"),
        ("window_count", "window_count"),
        ("session_windows", "window_count"),
    ];

    fn names(filters: Value) -> Vec<String> {
        let records = vec![
            json!({"session_name": "dev-api", "window_count": 2}),
            json!({"session_name": "Dev-web", "window_count": 1}),
            json!({"session_name": null, "window_count": 1}),
        ];
        Filters::parse(&filters, &FIELDS)
            .unwrap()
            .keep(records)
            .iter()
            .map(|r| r["session_name"].as_str().unwrap_or("-").to_string())
            .collect()
    }

    #[test]
    fn each_lookup_reads_the_text_tmux_prints() {
        assert_eq!(names(json!({"session_name": "dev-api"})), ["dev-api"]);
        assert_eq!(names(json!({"session_name__iexact": "DEV-API"})), ["dev-api"]);
        assert_eq!(names(json!({"session_name__contains": "web"})), ["Dev-web"]);
        assert_eq!(names(json!({"session_name__icontains": "DEV"})), ["dev-api", "Dev-web"]);
        assert_eq!(names(json!({"session_name__startswith": "dev"})), ["dev-api"]);
        assert_eq!(names(json!({"session_name__iendswith": "WEB"})), ["Dev-web"]);
        assert_eq!(names(json!({"session_windows": "2"})), ["dev-api"]);
        assert_eq!(names(json!({"window_count__eq": "1"})), ["Dev-web", "-"]);
        assert_eq!(names(json!({"session_name__regex": "^d.*i$"})), ["dev-api"]);
        assert_eq!(names(json!({"session_name__iregex": "^D"})), ["dev-api", "Dev-web"]);
        assert_eq!(names(json!({"session_name__nin": "api"})), ["Dev-web"]);
        assert_eq!(names(json!({"session_name__in": "api"})), ["dev-api"]);
        assert_eq!(
            names(json!("{\"session_name__in\": [\"Dev-web\", \"x\"]}")),
            ["Dev-web"]
        );
        assert_eq!(
            names(json!({"session_name__startswith": "dev", "window_count": "1"})),
            Vec::<String>::new()
        );
        assert_eq!(names(json!("")).len(), 3);
        assert_eq!(names(json!({})).len(), 3);
    }

    #[test]
    fn bad_filters_are_refused_by_name() {
        let error = |filters: Value| Filters::parse(&filters, &FIELDS).unwrap_err().message().to_string();
        assert!(error(json!({"session_name__foo": "x"})).starts_with(
            "Invalid filter operator 'foo' in 'session_name__foo'. Valid operators: contains, endswith, eq"
        ));
        assert!(error(json!({"colour": "x"})).contains("Unknown filter field 'colour'"));
        assert!(error(json!("[1]")).contains("filters must be a JSON object, got list"));
        assert!(error(json!("{x")).starts_with("Invalid filters JSON"));
        assert!(error(json!({"session_name__regex": "(("})).contains("Invalid regular expression"));
    }
}
