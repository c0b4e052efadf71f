//! What a differential suite needs whatever pair of servers it compares: the JSON
//! pointers where two replies differ, and the listed exceptions (each with its reason)
//! that allow a difference, checked both ways: a difference not listed fails, and so
//! does a listed one that no longer occurs, so the list stays true.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{json, Value};

/// Every `text` member holding a JSON object or list, at any depth (a batch row's
/// content too), as the value it holds: key order is no difference.
pub fn parse_texts(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                let parsed = field.as_str().and_then(|text| serde_json::from_str::<Value>(text).ok());
                match parsed {
                    Some(parsed) if key == "text" && (parsed.is_object() || parsed.is_array()) => {
                        *field = parsed;
                        parse_texts(field);
                    }
                    _ => parse_texts(field),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(parse_texts),
        _ => {}
    }
}

/// One difference: where it starts, and the two values there.
pub type Difference = (String, Value, Value);

/// The JSON pointers where `ours` differs from `theirs`, with both values.
pub fn differences(path: &str, theirs: &Value, ours: &Value, out: &mut Vec<Difference>) {
    match (theirs, ours) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                let at = format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"));
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => differences(&at, x, y, out),
                    (x, y) => out.push((
                        at,
                        x.cloned().unwrap_or(json!("<absent>")),
                        y.cloned().unwrap_or(json!("<absent>")),
                    )),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                differences(&format!("{path}/{index}"), x, y, out);
            }
        }
        (a, b) if a != b => out.push((path.to_string(), a.clone(), b.clone())),
        _ => {}
    }
}

/// One listed difference: the call (`tool#n`, the n-th call of the tool in the script,
/// or `tool#*`), the pointer it starts at, and why it is allowed.
pub struct Exception {
    pub call: String,
    pub path: String,
    pub reason: String,
}

/// The exceptions of `file` (`{"exceptions": [{call, path, reason}]}`); each must say why.
pub fn exceptions(file: &Path) -> Vec<Exception> {
    let text = std::fs::read_to_string(file).unwrap();
    let parsed: Value = serde_json::from_str(&text).unwrap();
    parsed["exceptions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let reason = item["reason"].as_str().unwrap_or_default().to_string();
            assert!(!reason.is_empty(), "an exception says why: {item}");
            Exception {
                call: item["call"].as_str().unwrap().to_string(),
                path: item["path"].as_str().unwrap().to_string(),
                reason,
            }
        })
        .collect()
}

/// Whether `exception` allows a difference at `path` of call `label` (`tool#n`).
pub fn covers(exception: &Exception, label: &str, path: &str) -> bool {
    let tool = label.split('#').next().unwrap_or_default();
    let call_matches = exception.call == label || exception.call == format!("{tool}#*");
    call_matches && (path == exception.path || path.starts_with(&format!("{}/", exception.path)))
}

/// `value` as JSON, cut to 300 characters for a report line.
pub fn cut(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(300) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}
