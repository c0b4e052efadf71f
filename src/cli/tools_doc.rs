//! `paneward tools --markdown`: the tool reference, rendered from the catalog the
//! server advertises (so from `schemas/tools/`). `docs/tools.md` is its output at
//! `--safety destructive`; a test fails when the file and the output differ.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::app::App;
use crate::catalog::fleet::FleetRules;
use crate::runtime::facts::FleetRoute;

/// The command that writes `docs/tools.md`, named in the page and in the staleness test.
pub const REGENERATE: &str = "cargo run -q -- tools --markdown --safety destructive > docs/tools.md";

/// The whole reference: an index, then one section per tool.
pub fn markdown(app: &App) -> String {
    let tier = app.config.safety;
    let entries: Vec<_> = app.catalog.listed(tier).collect();
    let mut out = String::from("# Tool reference\n\n");
    let _ = writeln!(
        out,
        "<!-- Generated from schemas/tools/ by `paneward tools --markdown`; do not edit.\n     Regenerate: {REGENERATE} -->\n"
    );
    let _ = writeln!(
        out,
        "{} tools at safety tier {tier} and below (`profile {}`). Each section gives the tier, what the\n\
         tool does, its arguments and the top-level fields of its reply; the full JSON\n\
         schemas are the files in [`schemas/tools/`](../schemas/tools). How the tools\n\
         behave together: [tool-guide.md](tool-guide.md).\n",
        entries.len(),
        app.config.profile
    );
    out.push_str("| tool | tier | title |\n|---|---|---|\n");
    for entry in &entries {
        let _ = writeln!(
            out,
            "| [`{name}`](#{name}) | {} | {} |",
            entry.tier.as_str(),
            cell(entry.tool.title.as_deref().unwrap_or("")),
            name = entry.tool.name
        );
    }
    for entry in &entries {
        let tool = &entry.tool;
        let _ = write!(out, "\n## {}\n\n", tool.name);
        let mut head = match tool.title.as_deref().filter(|t| !t.is_empty()) {
            Some(title) => format!("**{title}** · tier `{}`", entry.tier.as_str()),
            None => format!("Tier `{}`", entry.tier.as_str()),
        };
        for escalation in &entry.escalations {
            let _ = write!(
                head,
                "; `{}` = `{}` needs tier `{}`",
                escalation.argument,
                escalation.equals,
                escalation.tier.as_str()
            );
        }
        let _ = writeln!(out, "{head}");
        if let Some(description) = tool.description.as_deref() {
            let _ = write!(out, "\n{}\n", description.trim());
        }
        out.push_str("\n**Arguments**\n\n");
        out.push_str(&fields_table(&tool.input_schema, true));
        if let Some(output) = &tool.output_schema {
            out.push_str("\n**Reply**\n\n");
            out.push_str(&fields_table(output, false));
        }
    }
    out.push_str(&with_several_targets(&entries));
    out
}

/// How the tools change with several targets (`--target`), from `schemas/fleet.json`
/// and each tool file's `fleet` fact.
fn with_several_targets(entries: &[&crate::catalog::CatalogEntry]) -> String {
    let Ok(rules) = FleetRules::load() else {
        return String::new();
    };
    let names_of = |route: FleetRoute| -> String {
        let names: Vec<String> = entries
            .iter()
            .filter(|entry| entry.spec.fleet == route)
            .map(|entry| format!("[`{name}`](#{name})", name = entry.tool.name))
            .collect();
        names.join(", ")
    };
    let renamed: Vec<String> = entries
        .iter()
        .filter(|entry| {
            entry.spec.fleet == FleetRoute::OneTarget && rules.argument_of(entry.input.schema()) != rules.argument
        })
        .map(|entry| format!("`{}`", entry.tool.name))
        .collect();
    let mut out = String::from("\n## With several targets\n\n");
    let _ = writeln!(
        out,
        "With more than one `--target` (docs/remote.md) every tool above is served with these\n\
         changes, derived from [`schemas/fleet.json`](../schemas/fleet.json); with one target\n\
         nothing changes.\n\n\
         - Every id names its target: `NAME/%3`, `NAME/@2`, `NAME/$1` (a job: `NAME/%3:…`), in\n  \
         arguments and replies alike. A bare `%3` is refused, naming the field.\n\
         - Fan-out reads run on every target at once and merge their rows in target order;\n  \
         a target that fails or does not answer in time is listed in `unreachable`\n  \
         (`[{{target, reason}}]`) while the others answer: {}.\n\
         - Batches whose rows route themselves, each as a call of its own: {}.\n\
         - Every other tool acts on one target: the one its ids name, or its `{}` argument\n  \
         (required when it takes no id; all ids of a call must name the same target).\n  \
         Where a tool has a `{}` of its own (a tmux id), the argument is `{}`: {}.",
        names_of(FleetRoute::FanOut),
        names_of(FleetRoute::Rows),
        rules.argument,
        rules.argument,
        rules.argument_when_taken,
        renamed.join(", ")
    );
    out
}

/// One row per top-level property: name, type, whether required, description.
fn fields_table(schema: &Map<String, Value>, with_required: bool) -> String {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return "None.\n".into();
    };
    if properties.is_empty() {
        return "None.\n".into();
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = String::new();
    if with_required {
        out.push_str("| name | type | required | description |\n|---|---|---|---|\n");
    } else {
        out.push_str("| field | type | description |\n|---|---|---|\n");
    }
    for (name, property) in properties {
        let description = property.get("description").and_then(Value::as_str).unwrap_or("");
        let kind = type_of(property);
        if with_required {
            let needed = if required.contains(&name.as_str()) { "yes" } else { "" };
            let _ = writeln!(out, "| `{name}` | {kind} | {needed} | {} |", cell(description));
        } else {
            let _ = writeln!(out, "| `{name}` | {kind} | {} |", cell(description));
        }
    }
    out
}

/// A property's type in words: its `type`, its enum values, or its alternatives.
fn type_of(property: &Value) -> String {
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        let values: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
        return format!("one of {}", values.join(", "));
    }
    match property.get("type") {
        Some(Value::String(kind)) if kind == "array" => match property.get("items") {
            Some(items) => format!("array of {}", type_of(items)),
            None => "array".into(),
        },
        Some(Value::String(kind)) => kind.clone(),
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" or "),
        _ => {
            let alternatives = ["oneOf", "anyOf"]
                .iter()
                .find_map(|key| property.get(*key).and_then(Value::as_array));
            match alternatives {
                Some(options) => options.iter().map(type_of).collect::<Vec<_>>().join(" or "),
                None => "any".into(),
            }
        }
    }
}

/// Text fit for one table cell: one line, pipes escaped.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}
