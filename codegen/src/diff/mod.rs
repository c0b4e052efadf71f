//! What changed between two contracts, and whether it breaks clients.
//!
//! Each change is reported by tool and JSON pointer (into the new contract, or into the
//! old one for what was removed) and classified from the client's side. The direction
//! matters: a client *sends* inputs, so an input schema that accepts less breaks it; a
//! client *receives* outputs, so an output schema that promises less (a field gone or
//! optional, more values possible) breaks it. The module `schema` holds those rules.

mod annotations;
pub mod report;
mod schema;
mod types;
mod variants;

use serde::Serialize;

use crate::load::Tier;
use crate::source::{Contract, ContractTool};

/// Whether a change can break a client written against the old contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    Compatible,
    Breaking,
}

impl Class {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Compatible => "compatible",
            Self::Breaking => "breaking",
        }
    }
}

/// The rule a change falls under (stable names, used by `--json` and the tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    ToolAdded,
    ToolRemoved,
    TitleChanged,
    DescriptionChanged,
    SourceChanged,
    TierRaised,
    TierLowered,
    /// An argument value now needs a higher tier than before (an escalation added).
    EscalationAdded,
    /// An escalation removed: a call value needs less than before.
    EscalationRemoved,
    RequiredInputAdded,
    OptionalInputAdded,
    InputRemoved,
    InputMadeRequired,
    InputMadeOptional,
    OutputFieldAdded,
    OutputFieldAddedToClosedObject,
    OutputFieldRemoved,
    OutputFieldMadeOptional,
    OutputFieldMadeRequired,
    OutputSchemaAdded,
    OutputSchemaRemoved,
    /// The schema at the pointer accepts fewer values than before.
    Narrowed,
    /// The schema at the pointer accepts more values than before.
    Widened,
    /// Neither narrower nor wider (a type or const replaced): some old values are refused
    /// and some new ones allowed.
    Changed,
    /// Prose, examples or defaults inside a schema; validation is unchanged.
    DocumentationChanged,
    /// A keyword whose effect this tool does not model: read the change yourself.
    UnknownKeywordChanged,
    /// An annotation no longer promises what it did (e.g. `readOnlyHint` true → false).
    AnnotationPromiseDropped,
    /// An annotation promises more, or only its wording changed.
    AnnotationChanged,
    /// The toolset of the family's capability record moved: a client choosing tools by
    /// toolset (`LIBTMUX_TOOLSETS`) gets it where it did not, or no longer gets it.
    ToolsetChanged,
    /// Another member of the family's capability record changed (its process reach,
    /// tmux effects, output classes, ...): what the tool may do, for an operator to review.
    CapabilityChanged,
}

impl Rule {
    pub fn as_str(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// One change between two contracts.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Change {
    pub tool: String,
    /// RFC 6901 pointer into the tool; empty for the whole tool.
    pub pointer: String,
    pub class: Class,
    pub rule: Rule,
    /// What changed, in words.
    pub message: String,
}

/// Collects changes for one tool.
struct Changes<'a> {
    tool: &'a str,
    list: Vec<Change>,
}

impl Changes<'_> {
    fn push(&mut self, pointer: &str, class: Class, rule: Rule, message: impl Into<String>) {
        self.list.push(Change {
            tool: self.tool.to_string(),
            pointer: pointer.to_string(),
            class,
            rule,
            message: message.into(),
        });
    }
}

/// Every change from `old` to `new`, sorted by tool, pointer and rule.
pub fn diff(old: &Contract, new: &Contract) -> Vec<Change> {
    let mut changes = Vec::new();
    for name in old.keys() {
        if !new.contains_key(name) {
            changes.push(Change {
                tool: name.clone(),
                pointer: String::new(),
                class: Class::Breaking,
                rule: Rule::ToolRemoved,
                message: "tool removed".into(),
            });
        }
    }
    for (name, new_tool) in new {
        changes.extend(diff_tool(old.get(name), new_tool));
    }
    changes.sort();
    changes
}

/// The changes of one tool; `old` is `None` for a tool that is new.
pub fn diff_tool(old: Option<&ContractTool>, new: &ContractTool) -> Vec<Change> {
    let mut changes = Changes {
        tool: &new.name,
        list: Vec::new(),
    };
    let Some(old) = old else {
        changes.push("", Class::Compatible, Rule::ToolAdded, "tool added");
        return changes.list;
    };
    if old.title != new.title {
        changes.push(
            "/title",
            Class::Compatible,
            Rule::TitleChanged,
            format!(
                "title {}",
                describe_text_change(old.title.as_deref(), new.title.as_deref())
            ),
        );
    }
    if old.description != new.description {
        changes.push(
            "/description",
            Class::Compatible,
            Rule::DescriptionChanged,
            format!(
                "description {}",
                describe_text_change(old.description.as_deref(), new.description.as_deref())
            ),
        );
    }
    if let (Some(before), Some(after)) = (old.tier, new.tier) {
        tier_change(&mut changes, before, after);
    }
    if old.tier.is_some() && new.tier.is_some() {
        escalation_changes(&mut changes, old.escalations.as_ref(), new.escalations.as_ref());
    }
    if let (Some(before), Some(after)) = (&old.source, &new.source) {
        if before != after {
            changes.push(
                "/source",
                Class::Compatible,
                Rule::SourceChanged,
                format!("source changed from {before} to {after}"),
            );
        }
    }
    schema::compare_root(
        &mut changes,
        &resolved(&old.input_schema),
        &resolved(&new.input_schema),
        schema::Direction::Input,
    );
    match (&old.output_schema, &new.output_schema) {
        (Some(before), Some(after)) => schema::compare_root(
            &mut changes,
            &resolved(before),
            &resolved(after),
            schema::Direction::Output,
        ),
        (Some(_), None) => changes.push(
            "/outputSchema",
            Class::Breaking,
            Rule::OutputSchemaRemoved,
            "output schema removed: clients lose the structured result they validated",
        ),
        (None, Some(_)) => changes.push(
            "/outputSchema",
            Class::Compatible,
            Rule::OutputSchemaAdded,
            "output schema added",
        ),
        (None, None) => {}
    }
    annotations::compare(&mut changes, &old.annotations, &new.annotations);
    capability_changes(&mut changes, old.meta.as_ref(), new.meta.as_ref());
    changes.list.sort();
    changes.list
}

/// `schema` with its local references read as the definitions they name, so a change
/// behind a `$ref` is classified like any other (a schema whose references do not
/// resolve is compared as written, and its `$ref` reported for review).
fn resolved(schema: &serde_json::Value) -> serde_json::Value {
    paneward_contract::shape::inlined(std::path::Path::new(""), "", schema).unwrap_or_else(|_| schema.clone())
}

/// The family's capability records (`_meta["com.git-pull.libtmux-mcp/capability"]`) of
/// two versions of a tool, compared member by member. Only where both versions carry
/// one: paneward's own tools have none.
fn capability_changes(changes: &mut Changes<'_>, old: Option<&serde_json::Value>, new: Option<&serde_json::Value>) {
    let key = paneward_contract::load::CAPABILITY_META;
    let record =
        |meta: Option<&serde_json::Value>| meta.and_then(|meta| meta.get(key)).and_then(|r| r.as_object()).cloned();
    let (Some(old), Some(new)) = (record(old), record(new)) else {
        return;
    };
    let members: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for member in members {
        let (before, after) = (old.get(member), new.get(member));
        if before == after {
            continue;
        }
        let pointer = format!("/_meta/{}/{member}", key.replace('~', "~0").replace('/', "~1"));
        let shown = |value: Option<&serde_json::Value>| value.map_or_else(|| "absent".to_string(), ToString::to_string);
        if member == "toolset" {
            changes.push(
                &pointer,
                Class::Breaking,
                Rule::ToolsetChanged,
                format!(
                    "toolset {} → {}: a client choosing by toolset gets this tool elsewhere",
                    shown(before),
                    shown(after)
                ),
            );
        } else {
            changes.push(
                &pointer,
                Class::Compatible,
                Rule::CapabilityChanged,
                format!(
                    "capability `{member}` {} → {}: review what the tool may do",
                    shown(before),
                    shown(after)
                ),
            );
        }
    }
}

fn describe_text_change(old: Option<&str>, new: Option<&str>) -> String {
    match (old, new) {
        (None, Some(_)) => "added".into(),
        (Some(_), None) => "removed".into(),
        _ => "changed".into(),
    }
}

/// Escalations of two paneward tool files, compared as sets of `{argument, equals, tier}`.
fn escalation_changes(changes: &mut Changes<'_>, old: Option<&serde_json::Value>, new: Option<&serde_json::Value>) {
    let items = |value: Option<&serde_json::Value>| -> Vec<serde_json::Value> {
        value.and_then(|v| v.as_array()).cloned().unwrap_or_default()
    };
    let (old, new) = (items(old), items(new));
    for added in new.iter().filter(|item| !old.contains(item)) {
        changes.push(
            "/escalations",
            Class::Breaking,
            Rule::EscalationAdded,
            format!("escalation added: {added}; servers below that tier refuse such calls"),
        );
    }
    for removed in old.iter().filter(|item| !new.contains(item)) {
        changes.push(
            "/escalations",
            Class::Compatible,
            Rule::EscalationRemoved,
            format!("escalation removed: {removed}"),
        );
    }
}

fn tier_change(changes: &mut Changes<'_>, before: Tier, after: Tier) {
    if after > before {
        changes.push(
            "/tier",
            Class::Breaking,
            Rule::TierRaised,
            format!(
                "tier raised from {} to {}: servers at {} no longer list it",
                before.as_str(),
                after.as_str(),
                before.as_str()
            ),
        );
    } else if after < before {
        changes.push(
            "/tier",
            Class::Compatible,
            Rule::TierLowered,
            format!("tier lowered from {} to {}", before.as_str(), after.as_str()),
        );
    }
}
