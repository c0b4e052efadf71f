//! Comparing tool annotations.
//!
//! Annotations change no validation; clients read them as promises about the tool
//! (auto-approve what only reads, retry what is idempotent). So they are judged like an
//! output: a promise dropped breaks clients that relied on it, a promise made or a
//! reworded title does not. A hint left out means its MCP default, so writing the
//! default out is no change of meaning.

use paneward_contract::pointer_token;
use serde_json::Value;

use super::{Changes, Class, Rule};

/// Each boolean hint: its MCP default, the value that is a promise, and that promise.
const HINTS: [(&str, bool, bool, &str); 4] = [
    ("readOnlyHint", false, true, "not to modify its environment"),
    ("destructiveHint", true, false, "to make only additive updates"),
    (
        "idempotentHint",
        false,
        true,
        "that repeating a call has no further effect",
    ),
    ("openWorldHint", true, false, "to stay within a closed set of entities"),
];

pub(super) fn compare(changes: &mut Changes<'_>, old: &Value, new: &Value) {
    let keys = |value: &Value| {
        value
            .as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let mut names = keys(old);
    names.extend(keys(new));
    names.sort();
    names.dedup();
    for name in names {
        let (before, after) = (old.get(&name), new.get(&name));
        if before == after {
            continue;
        }
        let here = format!("/annotations/{}", pointer_token(&name));
        let hint = HINTS.iter().find(|(hint, ..)| *hint == name);
        let Some((_, default, promise, meaning)) = hint else {
            let verb = match (before, after) {
                (None, _) => "added",
                (_, None) => "removed",
                _ => "changed",
            };
            changes.push(
                &here,
                Class::Compatible,
                Rule::AnnotationChanged,
                format!("annotation `{name}` {verb}"),
            );
            continue;
        };
        let effective = |value: Option<&Value>| value.map_or(Some(*default), Value::as_bool);
        match (effective(before), effective(after)) {
            (Some(b), Some(a)) if b == a => changes.push(
                &here,
                Class::Compatible,
                Rule::AnnotationChanged,
                format!(
                    "`{name}` {} (same meaning: {b})",
                    if after.is_some() {
                        "written out"
                    } else {
                        "left to its default"
                    }
                ),
            ),
            (Some(b), Some(a)) if b == *promise => changes.push(
                &here,
                Class::Breaking,
                Rule::AnnotationPromiseDropped,
                format!("`{name}` {b} → {a}: the tool no longer promises {meaning}"),
            ),
            (Some(b), Some(a)) => changes.push(
                &here,
                Class::Compatible,
                Rule::AnnotationChanged,
                format!("`{name}` {b} → {a}: the tool now promises {meaning}"),
            ),
            (Some(_), None) => changes.push(
                &here,
                Class::Breaking,
                Rule::AnnotationPromiseDropped,
                format!("`{name}` is not a boolean any more; clients cannot read it"),
            ),
            // Clients could not read it before either, so no promise is lost.
            (None, None) => changes.push(
                &here,
                Class::Compatible,
                Rule::AnnotationChanged,
                format!("`{name}` changed, and is still not a boolean"),
            ),
            (None, Some(a)) => changes.push(
                &here,
                Class::Compatible,
                Rule::AnnotationChanged,
                format!("`{name}` is a boolean again ({a})"),
            ),
        }
    }
}
