//! Comparing two JSON Schemas keyword by keyword.
//!
//! Most keywords only make a schema accept fewer values (narrower) or more (wider);
//! [`Direction`] turns that into a class: narrowing an input breaks clients that sent
//! what is now refused, widening an output breaks clients that relied on the old
//! guarantee. Properties get their own rules, because a client *uses* a field even
//! where the set of valid values would allow its removal.

use paneward_contract::pointer_token;
use serde_json::{Map, Value};

use super::types::{covers, types, types_folded};
use super::variants::{label, match_variants};
use super::{Changes, Class, Rule};

/// Which way the data flows through the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Clients send it (inputSchema).
    Input,
    /// Clients receive it (outputSchema).
    Output,
}

/// How the set of values a schema accepts changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variance {
    Narrower,
    Wider,
    /// Some values newly refused and others newly accepted.
    Incomparable,
}

/// Keywords that only bound a value from above or below: (keyword, true when an upper bound).
const BOUNDS: [(&str, bool); 10] = [
    ("maximum", true),
    ("exclusiveMaximum", true),
    ("maxLength", true),
    ("maxItems", true),
    ("maxProperties", true),
    ("minimum", false),
    ("exclusiveMinimum", false),
    ("minLength", false),
    ("minItems", false),
    ("minProperties", false),
];

/// Keywords that restrict values in a way that is not ordered: adding one narrows,
/// removing one widens, changing one is neither.
const RESTRICTIONS: [&str; 5] = ["pattern", "format", "multipleOf", "contentMediaType", "contentEncoding"];

/// Keywords that document a schema without changing what it accepts.
const DOCUMENTATION: [&str; 10] = [
    "description",
    "title",
    "$comment",
    "examples",
    "deprecated",
    "default",
    "readOnly",
    "writeOnly",
    "$schema",
    "$id",
];

/// Keywords the comparison below understands; any other that changes is reported for review.
const STRUCTURE: [&str; 11] = [
    "type",
    "enum",
    "const",
    "uniqueItems",
    "additionalProperties",
    "properties",
    "required",
    "items",
    "prefixItems",
    "oneOf",
    "anyOf",
];

/// Compares the tool's `inputSchema` or `outputSchema`.
pub(super) fn compare_root(changes: &mut Changes<'_>, old: &Value, new: &Value, direction: Direction) {
    let pointer = match direction {
        Direction::Input => "/inputSchema",
        Direction::Output => "/outputSchema",
    };
    Walker { changes, direction }.compare(old, new, pointer);
}

struct Walker<'c, 'a> {
    changes: &'c mut Changes<'a>,
    direction: Direction,
}

impl Walker<'_, '_> {
    fn class(&self, variance: Variance) -> Class {
        match (self.direction, variance) {
            (Direction::Input, Variance::Wider) | (Direction::Output, Variance::Narrower) => Class::Compatible,
            _ => Class::Breaking,
        }
    }

    fn report(&mut self, pointer: &str, variance: Variance, message: String) {
        let rule = match variance {
            Variance::Narrower => Rule::Narrowed,
            Variance::Wider => Rule::Widened,
            Variance::Incomparable => Rule::Changed,
        };
        let class = self.class(variance);
        self.changes.push(pointer, class, rule, message);
    }

    fn compare(&mut self, old: &Value, new: &Value, pointer: &str) {
        if old == new {
            return;
        }
        let empty = Map::new();
        match (old, new) {
            (Value::Bool(false), _) => self.report(pointer, Variance::Wider, "schema accepted nothing before".into()),
            (_, Value::Bool(false)) => self.report(pointer, Variance::Narrower, "schema now accepts nothing".into()),
            (Value::Object(_) | Value::Bool(true), Value::Object(_) | Value::Bool(true)) => {
                let old = old.as_object().unwrap_or(&empty);
                let new = new.as_object().unwrap_or(&empty);
                self.compare_objects(old, new, pointer);
            }
            _ => self.report(
                pointer,
                Variance::Incomparable,
                "schema replaced by a value that is not a schema".into(),
            ),
        }
    }

    fn compare_objects(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, pointer: &str) {
        // Only when both sides have a `type` (as written or folded): folding one side alone
        // turns a variant added to an `anyOf` into `type` removed and `anyOf` added.
        let folded = types_folded(old).zip(types_folded(new));
        let (old, new) = match &folded {
            Some((old, new)) => (old, new),
            None => (old, new),
        };
        if old == new {
            return;
        }
        if !self.compare_types(old, new, pointer) {
            return;
        }
        self.compare_enum(old, new, pointer);
        self.compare_const(old, new, pointer);
        for (keyword, upper) in BOUNDS {
            self.compare_bound(old.get(keyword), new.get(keyword), keyword, upper, pointer);
        }
        for keyword in RESTRICTIONS {
            self.compare_restriction(old.get(keyword), new.get(keyword), keyword, pointer);
        }
        let unique = |schema: &Map<String, Value>| schema.get("uniqueItems") == Some(&Value::Bool(true));
        match (unique(old), unique(new)) {
            (false, true) => self.report(
                &format!("{pointer}/uniqueItems"),
                Variance::Narrower,
                "items must now be unique".into(),
            ),
            (true, false) => self.report(
                &format!("{pointer}/uniqueItems"),
                Variance::Wider,
                "items need no longer be unique".into(),
            ),
            _ => {}
        }
        self.compare_additional_properties(old, new, pointer);
        self.compare_properties(old, new, pointer);
        self.compare_items(old, new, pointer);
        for keyword in ["oneOf", "anyOf"] {
            self.compare_variants(old.get(keyword), new.get(keyword), keyword, pointer);
        }
        for keyword in DOCUMENTATION {
            let (before, after) = (old.get(keyword), new.get(keyword));
            if before != after {
                let what = match (before, after, keyword) {
                    (Some(b), Some(a), "default") => format!("default changed from {b} to {a}"),
                    (None, _, _) => format!("`{keyword}` added"),
                    (_, None, _) => format!("`{keyword}` removed"),
                    _ => format!("`{keyword}` changed"),
                };
                self.changes.push(
                    &format!("{pointer}/{}", pointer_token(keyword)),
                    Class::Compatible,
                    Rule::DocumentationChanged,
                    what,
                );
            }
        }
        self.compare_unknown(old, new, pointer);
    }

    /// Returns false when the types changed so much that comparing further is noise.
    fn compare_types(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, pointer: &str) -> bool {
        let (before, after) = (types(old.get("type")), types(new.get("type")));
        let variance = match (&before, &after) {
            (None, None) => return true,
            (None, Some(_)) => Variance::Narrower,
            (Some(_), None) => Variance::Wider,
            (Some(b), Some(a)) => {
                let wider = b.iter().all(|t| covers(a, t));
                let narrower = a.iter().all(|t| covers(b, t));
                match (wider, narrower) {
                    (true, true) => return true,
                    (true, false) => Variance::Wider,
                    (false, true) => Variance::Narrower,
                    (false, false) => Variance::Incomparable,
                }
            }
        };
        let show = |value: Option<&Value>| value.map_or_else(|| "any".to_string(), Value::to_string);
        let verb = match variance {
            Variance::Narrower => "narrowed",
            Variance::Wider => "widened",
            Variance::Incomparable => "changed",
        };
        let message = format!(
            "type {verb} from {} to {}",
            show(old.get("type")),
            show(new.get("type"))
        );
        self.report(&format!("{pointer}/type"), variance, message);
        variance != Variance::Incomparable
    }

    fn compare_enum(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, pointer: &str) {
        let here = format!("{pointer}/enum");
        match (old.get("enum"), new.get("enum")) {
            (Some(Value::Array(before)), Some(Value::Array(after))) => {
                let removed: Vec<&Value> = before.iter().filter(|v| !after.contains(v)).collect();
                let added: Vec<&Value> = after.iter().filter(|v| !before.contains(v)).collect();
                if !removed.is_empty() {
                    self.report(
                        &here,
                        Variance::Narrower,
                        format!("enum value removed: {}", list(&removed)),
                    );
                }
                if !added.is_empty() {
                    self.report(&here, Variance::Wider, format!("enum value added: {}", list(&added)));
                }
            }
            (None, Some(after)) => self.report(&here, Variance::Narrower, format!("enum added: only {after}")),
            (Some(_), None) => self.report(&here, Variance::Wider, "enum removed: any value of the type".into()),
            (before, after) if before != after => self.report(&here, Variance::Incomparable, "enum changed".into()),
            _ => {}
        }
    }

    fn compare_const(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, pointer: &str) {
        let here = format!("{pointer}/const");
        match (old.get("const"), new.get("const")) {
            (None, Some(after)) => self.report(&here, Variance::Narrower, format!("const {after} added")),
            (Some(before), None) => self.report(&here, Variance::Wider, format!("const {before} removed")),
            (Some(before), Some(after)) if before != after => self.report(
                &here,
                Variance::Incomparable,
                format!("const changed from {before} to {after}"),
            ),
            _ => {}
        }
    }

    fn compare_bound(&mut self, old: Option<&Value>, new: Option<&Value>, keyword: &str, upper: bool, pointer: &str) {
        if old == new {
            return;
        }
        let here = format!("{pointer}/{keyword}");
        let number = |value: Option<&Value>| value.and_then(Value::as_f64);
        let (variance, message) = match (old, new, number(old), number(new)) {
            (None, Some(after), _, _) => (Variance::Narrower, format!("{keyword} {after} added")),
            (Some(before), None, _, _) => (Variance::Wider, format!("{keyword} removed (was {before})")),
            (Some(before), Some(after), Some(b), Some(a)) => {
                let lowered = a < b;
                let variance = if lowered == upper {
                    Variance::Narrower
                } else {
                    Variance::Wider
                };
                let verb = if lowered { "lowered" } else { "raised" };
                (variance, format!("{keyword} {verb} from {before} to {after}"))
            }
            _ => (Variance::Incomparable, format!("{keyword} changed")),
        };
        self.report(&here, variance, message);
    }

    fn compare_restriction(&mut self, old: Option<&Value>, new: Option<&Value>, keyword: &str, pointer: &str) {
        let here = format!("{pointer}/{keyword}");
        match (old, new) {
            (None, Some(after)) => self.report(&here, Variance::Narrower, format!("{keyword} {after} added")),
            (Some(before), None) => self.report(&here, Variance::Wider, format!("{keyword} {before} removed")),
            (Some(before), Some(after)) if before != after => self.report(
                &here,
                Variance::Incomparable,
                format!("{keyword} changed from {before} to {after}"),
            ),
            _ => {}
        }
    }

    fn compare_additional_properties(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, pointer: &str) {
        let here = format!("{pointer}/additionalProperties");
        let (before, after) = (old.get("additionalProperties"), new.get("additionalProperties"));
        match (extra(before), extra(after)) {
            (Extra::Schema(b), Extra::Schema(a)) => self.compare(b, a, &here),
            (Extra::Open, Extra::Open) | (Extra::Closed, Extra::Closed) => {}
            (Extra::Open, Extra::Closed) => self.report(
                &here,
                Variance::Narrower,
                "object closed: no properties beyond those listed".into(),
            ),
            (Extra::Open, Extra::Schema(_)) | (Extra::Schema(_), Extra::Closed) => self.report(
                &here,
                Variance::Narrower,
                "unlisted properties are restricted further".into(),
            ),
            (Extra::Closed, Extra::Open) => self.report(
                &here,
                Variance::Wider,
                "object opened: properties beyond those listed are allowed".into(),
            ),
            (Extra::Closed | Extra::Schema(_), _) => self.report(
                &here,
                Variance::Wider,
                "unlisted properties are allowed more freely".into(),
            ),
        }
    }

    fn compare_properties(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, pointer: &str) {
        let empty = Map::new();
        let (before, after) = (properties(old).unwrap_or(&empty), properties(new).unwrap_or(&empty));
        let (required_before, required_after) = (required(old), required(new));
        let old_extra = extra(old.get("additionalProperties"));
        let mut names: Vec<&String> = before.keys().chain(after.keys()).collect();
        names.extend(required_before.iter().chain(required_after.iter()));
        names.sort();
        names.dedup();
        for name in names {
            let here = format!("{pointer}/properties/{}", pointer_token(name));
            let was_required = required_before.contains(&name);
            let is_required = required_after.contains(&name);
            let input = self.direction == Direction::Input;
            match (before.get(name), after.get(name)) {
                (Some(_), None) if input => {
                    self.changes.push(
                        &here,
                        Class::Breaking,
                        Rule::InputRemoved,
                        format!("input `{name}` removed"),
                    );
                }
                (Some(_), None) => self.changes.push(
                    &here,
                    Class::Breaking,
                    Rule::OutputFieldRemoved,
                    format!("output field `{name}` removed"),
                ),
                (None, Some(_)) if input && is_required => self.changes.push(
                    &here,
                    Class::Breaking,
                    Rule::RequiredInputAdded,
                    format!("required input `{name}` added"),
                ),
                (None, Some(_)) if input => self.changes.push(
                    &here,
                    Class::Compatible,
                    Rule::OptionalInputAdded,
                    format!("optional input `{name}` added"),
                ),
                (None, Some(added)) => self.output_field_added(&here, name, &old_extra, added),
                (before_schema, after_schema) => {
                    if let (Some(b), Some(a)) = (before_schema, after_schema) {
                        self.compare(b, a, &here);
                    }
                    self.required_change(&here, name, was_required, is_required);
                }
            }
        }
    }

    /// A new output field reached old clients as an unlisted property, which they
    /// validated against the old `additionalProperties`: it breaks them unless it is
    /// within what that allowed.
    fn output_field_added(&mut self, here: &str, name: &str, old_extra: &Extra<'_>, added: &Value) {
        match old_extra {
            Extra::Open => self.changes.push(
                here,
                Class::Compatible,
                Rule::OutputFieldAdded,
                format!("output field `{name}` added"),
            ),
            Extra::Closed => self.changes.push(
                here,
                Class::Breaking,
                Rule::OutputFieldAddedToClosedObject,
                format!(
                    "output field `{name}` added to a closed object (additionalProperties: false): \
                     clients validating against the old schema refuse it"
                ),
            ),
            Extra::Schema(allowed) => {
                let start = self.changes.list.len();
                self.compare(allowed, added, here);
                for change in &mut self.changes.list[start..] {
                    change.message = format!(
                        "output field `{name}` added, against the old additionalProperties: {}",
                        change.message
                    );
                }
                // Exactly what was allowed before: no narrower or wider, but still news.
                if self.changes.list.len() == start {
                    self.changes.push(
                        here,
                        Class::Compatible,
                        Rule::OutputFieldAdded,
                        format!("output field `{name}` added, as the old additionalProperties allowed"),
                    );
                }
            }
        }
    }

    fn required_change(&mut self, here: &str, name: &str, was_required: bool, is_required: bool) {
        let (class, rule, message) = match (self.direction, was_required, is_required) {
            (Direction::Input, false, true) => (
                Class::Breaking,
                Rule::InputMadeRequired,
                format!("input `{name}` is now required"),
            ),
            (Direction::Input, true, false) => (
                Class::Compatible,
                Rule::InputMadeOptional,
                format!("input `{name}` is now optional"),
            ),
            (Direction::Output, true, false) => (
                Class::Breaking,
                Rule::OutputFieldMadeOptional,
                format!("output field `{name}` is no longer required"),
            ),
            (Direction::Output, false, true) => (
                Class::Compatible,
                Rule::OutputFieldMadeRequired,
                format!("output field `{name}` is now always present"),
            ),
            _ => return,
        };
        self.changes.push(here, class, rule, message);
    }

    fn compare_items(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, pointer: &str) {
        for keyword in ["items", "prefixItems"] {
            let here = format!("{pointer}/{keyword}");
            match (old.get(keyword), new.get(keyword)) {
                (None, None) => {}
                (Some(Value::Array(before)), Some(Value::Array(after))) => {
                    for (index, (b, a)) in before.iter().zip(after).enumerate() {
                        self.compare(b, a, &format!("{here}/{index}"));
                    }
                    if before.len() != after.len() {
                        let message = format!("tuple length changed from {} to {}", before.len(), after.len());
                        self.report(&here, Variance::Incomparable, message);
                    }
                }
                (Some(Value::Array(_)), _) | (_, Some(Value::Array(_))) => {
                    self.report(&here, Variance::Incomparable, format!("`{keyword}` changed form"));
                }
                // An absent `items` accepts any item, like `true`.
                (before, after) => self.compare(
                    before.unwrap_or(&Value::Bool(true)),
                    after.unwrap_or(&Value::Bool(true)),
                    &here,
                ),
            }
        }
    }

    fn compare_variants(&mut self, old: Option<&Value>, new: Option<&Value>, keyword: &str, pointer: &str) {
        let here = format!("{pointer}/{keyword}");
        let (before, after) = match (old, new) {
            (None, None) => return,
            (Some(Value::Array(before)), Some(Value::Array(after))) => (before, after),
            (None, Some(_)) => return self.report(&here, Variance::Narrower, format!("`{keyword}` added")),
            (Some(_), None) => return self.report(&here, Variance::Wider, format!("`{keyword}` removed")),
            (before, after) => {
                if before != after {
                    self.report(&here, Variance::Incomparable, format!("`{keyword}` changed"));
                }
                return;
            }
        };
        let (pairs, removed, added) = match_variants(before, after);
        for (b, a) in pairs {
            self.compare(&before[b], &after[a], &format!("{here}/{a}"));
        }
        for index in removed {
            let message = format!("variant {}removed", label(&before[index]));
            self.report(&format!("{here}/{index}"), Variance::Narrower, message);
        }
        for index in added {
            let message = format!("variant {}added", label(&after[index]));
            self.report(&format!("{here}/{index}"), Variance::Wider, message);
        }
    }

    fn compare_unknown(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, pointer: &str) {
        let known = |key: &str| {
            STRUCTURE.contains(&key)
                || DOCUMENTATION.contains(&key)
                || RESTRICTIONS.contains(&key)
                || BOUNDS.iter().any(|(bound, _)| *bound == key)
        };
        let mut keys: Vec<&String> = old.keys().chain(new.keys()).filter(|key| !known(key)).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            if old.get(key) != new.get(key) {
                self.changes.push(
                    &format!("{pointer}/{}", pointer_token(key)),
                    Class::Breaking,
                    Rule::UnknownKeywordChanged,
                    format!("`{key}` changed; its effect is not analysed, so review it by hand"),
                );
            }
        }
    }
}

fn list(values: &[&Value]) -> String {
    values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
}

fn properties(schema: &Map<String, Value>) -> Option<&Map<String, Value>> {
    schema.get("properties").and_then(Value::as_object)
}

fn required(schema: &Map<String, Value>) -> Vec<&String> {
    match schema.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(|name| match name {
                Value::String(name) => Some(name),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// What `additionalProperties` allows.
#[derive(Debug, PartialEq)]
enum Extra<'a> {
    Open,
    Closed,
    Schema(&'a Value),
}

fn extra(value: Option<&Value>) -> Extra<'_> {
    match value {
        None | Some(Value::Bool(true)) => Extra::Open,
        Some(Value::Object(object)) if object.is_empty() => Extra::Open,
        Some(Value::Bool(false)) => Extra::Closed,
        Some(schema) => Extra::Schema(schema),
    }
}
