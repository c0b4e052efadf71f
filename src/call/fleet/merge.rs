//! One reply from the replies of every target that answered, in target order: the
//! rows of each list one after another, counts added, `truncated` true if any was,
//! anything else as the first target said it; then `unreachable`, when some target
//! failed. A list longer than its schema's `maxItems` is cut and marked truncated.

use rmcp::model::JsonObject;
use serde_json::{json, Map, Value};

/// Merges `replies` (at least one) and lists the targets in `unreachable` with their reasons.
pub fn merge(replies: Vec<Value>, unreachable: &[(&str, String)], schema: Option<&JsonObject>) -> Value {
    let mut replies = replies.into_iter();
    let Some(Value::Object(mut merged)) = replies.next() else {
        return Value::Null;
    };
    for reply in replies {
        let Value::Object(fields) = reply else { continue };
        for (key, value) in fields {
            match (merged.get_mut(&key), value) {
                (Some(Value::Array(rows)), Value::Array(more)) => rows.extend(more),
                (Some(Value::Number(count)), Value::Number(more)) => {
                    if let (Some(a), Some(b)) = (count.as_u64(), more.as_u64()) {
                        *count = a.saturating_add(b).into();
                    }
                }
                (Some(Value::Bool(any)), Value::Bool(more)) => *any |= more,
                (None, value) => {
                    merged.insert(key, value);
                }
                _ => {}
            }
        }
    }
    cut_to_schema(&mut merged, schema);
    if !unreachable.is_empty() {
        let list: Vec<Value> = unreachable
            .iter()
            .map(|(target, reason)| json!({"target": target, "reason": reason}))
            .collect();
        merged.insert("unreachable".into(), Value::Array(list));
    }
    Value::Object(merged)
}

/// Lists cut to their `maxItems`, and `truncated` set when one was.
fn cut_to_schema(merged: &mut Map<String, Value>, schema: Option<&JsonObject>) {
    let Some(properties) = schema.and_then(|s| s.get("properties")).and_then(Value::as_object) else {
        return;
    };
    let mut cut = false;
    for (key, property) in properties {
        let Some(max) = property.get("maxItems").and_then(Value::as_u64) else {
            continue;
        };
        if let Some(Value::Array(rows)) = merged.get_mut(key) {
            let max = usize::try_from(max).unwrap_or(usize::MAX);
            if rows.len() > max {
                rows.truncate(max);
                cut = true;
            }
        }
    }
    // A brief reply leaves `truncated` out while it is false: the cut adds it.
    if cut && properties.contains_key("truncated") {
        merged.insert("truncated".into(), Value::Bool(true));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_follow_target_order_counts_add_and_the_unreachable_are_listed() {
        let a = json!({"panes": [{"id": "a/%0"}], "total": 1, "truncated": false, "filteredOut": 0});
        let b = json!({"panes": [{"id": "b/%0"}, {"id": "b/%1"}], "total": 2, "truncated": true, "filteredOut": 3});
        let merged = merge(vec![a, b], &[("c", "no server".into())], None);
        assert_eq!(
            merged,
            json!({"panes": [{"id": "a/%0"}, {"id": "b/%0"}, {"id": "b/%1"}], "total": 3, "truncated": true,
                   "filteredOut": 3, "unreachable": [{"target": "c", "reason": "no server"}]})
        );
        let schema =
            json!({"properties": {"panes": {"type": "array", "maxItems": 2}, "truncated": {"type": "boolean"}}});
        let one = json!({"panes": [1, 2], "truncated": false});
        let two = json!({"panes": [3], "truncated": false});
        let merged = merge(vec![one, two], &[], schema.as_object());
        assert_eq!(merged, json!({"panes": [1, 2], "truncated": true}));
        // Brief replies leave a false `truncated` out; the cut still says so.
        let merged = merge(
            vec![json!({"panes": [1, 2]}), json!({"panes": [3]})],
            &[],
            schema.as_object(),
        );
        assert_eq!(merged, json!({"panes": [1, 2], "truncated": true}));
    }
}
