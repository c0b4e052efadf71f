//! Pairing the variants of an old `oneOf`/`anyOf` with the new ones, so that a variant
//! inserted in the middle reads as one addition rather than every later variant changed.

use paneward_contract::pointer_token;
use serde_json::Value;

/// The property whose `const` tells the variants apart (e.g. `tool` in a batch), if every
/// variant on both sides has one and no two on a side share it.
fn discriminator<'v>(before: &'v [Value], after: &'v [Value]) -> Option<&'v str> {
    let consts = |variant: &'v Value| -> Vec<&'v str> {
        variant
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| {
                props
                    .iter()
                    .filter(|(_, schema)| schema.get("const").is_some())
                    .map(|(name, _)| name.as_str())
                    .collect()
            })
            .unwrap_or_default()
    };
    let candidates = consts(before.first().or(after.first())?);
    candidates.into_iter().find(|name| {
        [before, after].iter().all(|side| {
            let keys: Vec<&Value> = side
                .iter()
                .filter_map(|v| v.pointer(&format!("/properties/{}/const", pointer_token(name))))
                .collect();
            keys.len() == side.len() && keys.iter().enumerate().all(|(i, k)| !keys[..i].contains(k))
        })
    })
}

/// Pairs old variants with new ones: by discriminator when there is one, otherwise equal
/// variants first and the rest in order. Returns (pairs, removed old, added new).
pub(super) fn match_variants(before: &[Value], after: &[Value]) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
    let mut pairs = Vec::new();
    let mut old_left: Vec<usize> = (0..before.len()).collect();
    let mut new_left: Vec<usize> = (0..after.len()).collect();
    if let Some(name) = discriminator(before, after) {
        let path = format!("/properties/{}/const", pointer_token(name));
        for (b, variant) in before.iter().enumerate() {
            if let Some(a) = after.iter().position(|v| v.pointer(&path) == variant.pointer(&path)) {
                pairs.push((b, a));
            }
        }
    } else {
        for (b, variant) in before.iter().enumerate() {
            let taken: Vec<usize> = pairs.iter().map(|(_, a)| *a).collect();
            if let Some(a) = (0..after.len()).find(|a| !taken.contains(a) && after[*a] == *variant) {
                pairs.push((b, a));
            }
        }
        let matched_old: Vec<usize> = pairs.iter().map(|(b, _)| *b).collect();
        let matched_new: Vec<usize> = pairs.iter().map(|(_, a)| *a).collect();
        let rest_old: Vec<usize> = old_left.iter().copied().filter(|b| !matched_old.contains(b)).collect();
        let rest_new: Vec<usize> = new_left.iter().copied().filter(|a| !matched_new.contains(a)).collect();
        pairs.extend(rest_old.into_iter().zip(rest_new));
    }
    old_left.retain(|b| !pairs.iter().any(|(pb, _)| pb == b));
    new_left.retain(|a| !pairs.iter().any(|(_, pa)| pa == a));
    (pairs, old_left, new_left)
}

/// How a variant is named in messages: by its discriminating `const`, if it has one.
pub(super) fn label(variant: &Value) -> String {
    let consts = variant.get("properties").and_then(Value::as_object).and_then(|props| {
        props
            .iter()
            .find_map(|(name, schema)| schema.get("const").map(|value| format!("{name} = {value} ")))
    });
    consts.unwrap_or_default()
}
