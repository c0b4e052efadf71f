//! Structural differences between two JSON values, each named by its JSON pointer.

use paneward_contract::pointer_token;
use serde_json::Value;

/// How a value at one pointer differs.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Both sides have a value there, and they differ.
    Changed { expected: Value, actual: Value },
    /// Only the expected side has a value there.
    Missing { expected: Value },
    /// Only the actual side has a value there.
    Unexpected { actual: Value },
}

/// One difference: where (an RFC 6901 JSON pointer) and what.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub pointer: String,
    pub change: Change,
}

/// Every difference between `expected` and `actual`: object members in key order,
/// array items by index, so the same two values always give the same list.
pub fn diff(expected: &Value, actual: &Value) -> Vec<Difference> {
    let mut out = Vec::new();
    walk(expected, actual, &mut String::new(), &mut out);
    out
}

fn walk(expected: &Value, actual: &Value, pointer: &mut String, out: &mut Vec<Difference>) {
    match (expected, actual) {
        (Value::Object(left), Value::Object(right)) => {
            let mut keys: Vec<&String> = left.keys().chain(right.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                at(
                    pointer,
                    &pointer_token(key),
                    out,
                    left.get(key.as_str()),
                    right.get(key.as_str()),
                );
            }
        }
        (Value::Array(left), Value::Array(right)) => {
            for index in 0..left.len().max(right.len()) {
                at(pointer, &index.to_string(), out, left.get(index), right.get(index));
            }
        }
        _ if expected == actual => {}
        _ => out.push(Difference {
            pointer: pointer.clone(),
            change: Change::Changed {
                expected: expected.clone(),
                actual: actual.clone(),
            },
        }),
    }
}

/// Compares the members named `segment` below `pointer`.
fn at(pointer: &mut String, segment: &str, out: &mut Vec<Difference>, left: Option<&Value>, right: Option<&Value>) {
    let length = pointer.len();
    pointer.push('/');
    pointer.push_str(segment);
    match (left, right) {
        (Some(left), Some(right)) => walk(left, right, pointer, out),
        (Some(left), None) => out.push(Difference {
            pointer: pointer.clone(),
            change: Change::Missing { expected: left.clone() },
        }),
        (None, Some(right)) => out.push(Difference {
            pointer: pointer.clone(),
            change: Change::Unexpected { actual: right.clone() },
        }),
        (None, None) => {}
    }
    pointer.truncate(length);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pointers(expected: Value, actual: Value) -> Vec<(String, Change)> {
        diff(&expected, &actual)
            .into_iter()
            .map(|d| (d.pointer, d.change))
            .collect()
    }

    #[test]
    fn equal_values_have_no_differences() {
        let value = json!({"a": [1, {"b": null}], "c": "d"});
        assert!(diff(&value, &value.clone()).is_empty());
    }

    #[test]
    fn each_difference_is_named_by_its_pointer_in_a_stable_order() {
        let found = pointers(
            json!({"z": 1, "a": {"type": "boolean"}, "req": ["x", "y", "z"]}),
            json!({"a": {"type": "string"}, "req": ["x", "y"], "new": true, "z": 1}),
        );
        assert_eq!(
            found,
            vec![
                (
                    "/a/type".into(),
                    Change::Changed {
                        expected: json!("boolean"),
                        actual: json!("string")
                    }
                ),
                ("/new".into(), Change::Unexpected { actual: json!(true) }),
                ("/req/2".into(), Change::Missing { expected: json!("z") }),
            ]
        );
    }

    #[test]
    fn member_names_are_escaped_in_pointers() {
        let found = pointers(json!({"a/b": {"~c": 1}}), json!({"a/b": {"~c": 2}}));
        assert_eq!(found[0].0, "/a~1b/~0c");
    }

    #[test]
    fn a_change_of_kind_is_one_difference_at_that_pointer() {
        let found = pointers(json!({"t": ["array"]}), json!({"t": "array"}));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "/t");
    }
}
