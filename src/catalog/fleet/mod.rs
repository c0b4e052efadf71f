//! The multi-target surface: the default contract with the rules of `schemas/fleet.json`
//! applied, derived at start-up and never written twice. Every id's pattern takes the
//! target in front (`NAME/%3`), a one-target tool gains the argument that names its
//! target, and a fan-out read's reply gains `unreachable`. The default schemas are
//! untouched, so with one target nothing changes.

pub mod ids;

use std::sync::Arc;

use rmcp::model::JsonObject;
use serde_json::{Map, Value};

use crate::catalog::schema::{strict_copy, SchemaCheck};
use crate::catalog::Catalog;
use crate::limits::TARGET_NAME_MAX_CHARS;
use crate::runtime::facts::FleetRoute;
use crate::runtime::{Tier, ToolSpec};

/// The rule file, built into the binary.
const RULES: &str = include_str!("../../../schemas/fleet.json");

/// `schemas/fleet.json`, read.
#[derive(Debug, Clone)]
pub struct FleetRules {
    /// Each default id pattern, and the pattern of the same id with its target.
    pub ids: Vec<(String, String)>,
    /// Argument names that hold an id where the schema gives no pattern.
    pub input_names: Vec<String>,
    /// Reply property names that hold an id where the schema gives no pattern.
    pub output_names: Vec<String>,
    /// The pattern a named id argument takes: a target, then anything.
    pub prefix: String,
    /// The name of the argument that names a one-target tool's target.
    pub argument: String,
    /// Its name for a tool that already has an argument of that name.
    pub argument_when_taken: String,
    /// The schema of that argument.
    pub target: Value,
    /// The schema of a fan-out reply's `unreachable`.
    pub unreachable: Value,
}

fn field<'a>(doc: &'a Value, pointer: &str) -> Result<&'a Value, String> {
    doc.pointer(pointer)
        .ok_or_else(|| format!("schemas/fleet.json has no {pointer}"))
}

fn strings(doc: &Value, pointer: &str) -> Result<Vec<String>, String> {
    field(doc, pointer)?
        .as_array()
        .map(|items| items.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .ok_or_else(|| format!("schemas/fleet.json: {pointer} is not a list"))
}

fn text(doc: &Value, pointer: &str) -> Result<String, String> {
    field(doc, pointer)?
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("schemas/fleet.json: {pointer} is not a string"))
}

impl FleetRules {
    /// Reads the built-in rule file.
    ///
    /// # Errors
    /// The file lacks a field (a build fault, reported at start-up and by a test).
    pub fn load() -> Result<Self, String> {
        let doc: Value = serde_json::from_str(RULES).map_err(|e| format!("schemas/fleet.json: {e}"))?;
        let ids = field(&doc, "/ids")?
            .as_array()
            .into_iter()
            .flatten()
            .map(|rule| Ok((text(rule, "/pattern")?, text(rule, "/fleet")?)))
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Self {
            ids,
            input_names: strings(&doc, "/namedIds/input")?,
            output_names: strings(&doc, "/namedIds/output")?,
            prefix: text(&doc, "/namedIds/prefix")?,
            argument: text(&doc, "/argument/name")?,
            argument_when_taken: text(&doc, "/argument/whenTaken")?,
            target: field(&doc, "/target")?.clone(),
            unreachable: field(&doc, "/unreachable")?.clone(),
        })
    }

    /// The patterns of ids in the default contract.
    pub fn default_patterns(&self) -> Vec<String> {
        self.ids.iter().map(|(default, _)| default.clone()).collect()
    }

    /// The patterns of ids with their target: each id's, and the named ids' prefix.
    pub fn fleet_patterns(&self) -> Vec<String> {
        self.ids
            .iter()
            .map(|(_, fleet)| fleet.clone())
            .chain(std::iter::once(self.prefix.clone()))
            .collect()
    }

    /// The name of the argument that names the target of a tool with input `schema`.
    pub fn argument_of(&self, schema: &Value) -> &str {
        let taken = schema.get("properties").and_then(|p| p.get(&self.argument)).is_some();
        if taken {
            &self.argument_when_taken
        } else {
            &self.argument
        }
    }

    /// A tool's input schema on the multi-target surface.
    pub fn input_schema(&self, schema: &Value, route: FleetRoute, table: &[ToolSpec]) -> Value {
        self.rewrite_input(schema, route, table, true)
    }

    /// An input schema with its ids given their target and, for a one-target tool
    /// when `with_argument`, the argument that names the target.
    fn rewrite_input(&self, schema: &Value, route: FleetRoute, table: &[ToolSpec], with_argument: bool) -> Value {
        let argument = self.argument_of(schema).to_string();
        let mut schema = schema.clone();
        let takes_ids = self.rewrite_ids(&mut schema, None, table);
        if route == FleetRoute::OneTarget && with_argument {
            if let Value::Object(object) = &mut schema {
                let properties = object.entry("properties").or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(properties) = properties {
                    properties.insert(argument.clone(), self.target.clone());
                }
            }
            // A tool that takes no id must say which target; one that does may leave
            // it to its ids.
            if !takes_ids {
                if let Value::Object(object) = &mut schema {
                    let required = object.entry("required").or_insert_with(|| Value::Array(Vec::new()));
                    if let Value::Array(required) = required {
                        required.push(Value::String(argument));
                    }
                }
            }
        }
        schema
    }

    /// A tool's output schema on the multi-target surface.
    pub fn output_schema(&self, schema: &Value, route: FleetRoute) -> Value {
        let mut schema = schema.clone();
        self.rewrite_ids(&mut schema, None, &[]);
        if route == FleetRoute::FanOut {
            if let Some(Value::Object(properties)) = schema.get_mut("properties") {
                properties.insert("unreachable".into(), self.unreachable.clone());
            }
        }
        schema
    }

    /// Gives every id position of `schema` its target; returns whether there is one.
    /// A batch's row (`tool` a constant, `arguments` its arguments) is rewritten as
    /// that tool's own input, since the row is routed as a call of its own.
    fn rewrite_ids(&self, schema: &mut Value, name: Option<&str>, table: &[ToolSpec]) -> bool {
        let Value::Object(object) = schema else {
            return false;
        };
        if let Some(pattern) = object.get("pattern").and_then(Value::as_str) {
            if let Some((_, fleet)) = self.ids.iter().find(|(default, _)| default == pattern) {
                object.insert("pattern".into(), Value::String(fleet.clone()));
                widen(object);
                return true;
            }
            return false;
        }
        let named = name.is_some_and(|name| self.input_names.iter().any(|n| n == name));
        if named && object.get("type").and_then(Value::as_str) == Some("string") {
            object.insert("pattern".into(), Value::String(self.prefix.clone()));
            widen(object);
            return true;
        }
        let mut found = false;
        if let Some(row_tool) = batch_row_tool(object, table) {
            // A read batch's rows are decoded by the batch's own closed types, which
            // have no room for a target argument: such a row names its target by its
            // ids, or is a fan-out read; a row of a tool that takes neither is refused
            // at its turn, naming `target`.
            if let Some(arguments) = object.get_mut("properties").and_then(|p| p.get_mut("arguments")) {
                *arguments = self.rewrite_input(arguments, row_tool.fleet, table, false);
            }
            return false;
        }
        if let Some(Value::Object(properties)) = object.get_mut("properties") {
            for (key, sub) in properties.iter_mut() {
                found |= self.rewrite_ids(sub, Some(key), table);
            }
        }
        if let Some(items) = object.get_mut("items") {
            found |= self.rewrite_ids(items, name, table);
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(Value::Array(variants)) = object.get_mut(keyword) {
                for variant in variants {
                    found |= self.rewrite_ids(variant, name, table);
                }
            }
        }
        found
    }
}

/// Room in `maxLength` for the target's name and its `/`.
fn widen(object: &mut Map<String, Value>) {
    if let Some(max) = object.get("maxLength").and_then(Value::as_u64) {
        let room = u64::try_from(TARGET_NAME_MAX_CHARS + 1).unwrap_or(u64::MAX);
        object.insert("maxLength".into(), Value::from(max.saturating_add(room)));
    }
}

/// The tool a batch row's schema stands for (`properties.tool.const`).
fn batch_row_tool<'t>(object: &Map<String, Value>, table: &'t [ToolSpec]) -> Option<&'t ToolSpec> {
    let properties = object.get("properties")?;
    let tool = properties.get("tool")?.get("const")?.as_str()?;
    properties.get("arguments")?;
    table.iter().find(|spec| spec.name == tool)
}

impl Catalog {
    /// Turns this (paneward's own) catalogue into the multi-target surface: every
    /// tool's advertised schemas and validators rewritten by `rules`.
    ///
    /// # Errors
    /// A rewritten schema is not an object (a build fault).
    pub fn into_fleet(mut self, rules: &FleetRules) -> Result<Self, String> {
        let table = crate::catalog::profile::Profile::Default.table();
        for entry in &mut self.entries {
            let route = entry.spec.fleet;
            let input = rules.input_schema(
                &Value::Object(JsonObject::clone(&entry.tool.input_schema)),
                route,
                table,
            );
            let Value::Object(input_object) = input.clone() else {
                return Err(format!("{}: the fleet's inputSchema is not an object", entry.spec.name));
            };
            entry.tool.input_schema = Arc::new(input_object);
            entry.input = SchemaCheck::lazy(if entry.tier > Tier::Readonly {
                strict_copy(&input)
            } else {
                input
            });
            if let Some(output) = &entry.tool.output_schema {
                let output = rules.output_schema(&Value::Object(JsonObject::clone(output)), route);
                let Value::Object(output_object) = output.clone() else {
                    return Err(format!(
                        "{}: the fleet's outputSchema is not an object",
                        entry.spec.name
                    ));
                };
                entry.tool.output_schema = Some(Arc::new(output_object));
                #[cfg(debug_assertions)]
                {
                    entry.output = SchemaCheck::lazy(strict_copy(&output));
                }
            }
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::profile::Profile;

    #[test]
    fn the_rule_file_loads_and_every_fleet_schema_compiles() {
        let rules = FleetRules::load().unwrap();
        assert!(rules.ids.len() >= 6);
        let catalog = Catalog::load(Profile::Default).unwrap().into_fleet(&rules).unwrap();
        catalog.compile_all().unwrap();
    }

    #[test]
    fn ids_take_their_target_and_a_tool_without_ids_requires_the_target_argument() {
        let rules = FleetRules::load().unwrap();
        let table = Profile::Default.table();
        let send = ToolSpec::find(table, "send_keys").unwrap();
        let schema: Value = serde_json::from_str(send.input_schema).unwrap();
        let fleet = rules.input_schema(&schema, send.fleet, table);
        assert_eq!(
            fleet["properties"]["pane_id"]["pattern"],
            r"^[a-z][a-z0-9-]{0,31}/%\d+$"
        );
        assert_eq!(fleet["properties"]["target"], rules.target);
        assert!(!fleet["required"].as_array().unwrap().contains(&Value::from("target")));
        let create = ToolSpec::find(table, "create_session").unwrap();
        let schema: Value = serde_json::from_str(create.input_schema).unwrap();
        let fleet = rules.input_schema(&schema, create.fleet, table);
        assert!(fleet["required"].as_array().unwrap().contains(&Value::from("target")));
        // A tool whose own `target` is a tmux id names its server by the other name.
        let show = ToolSpec::find(table, "show_option").unwrap();
        let schema: Value = serde_json::from_str(show.input_schema).unwrap();
        let fleet = rules.input_schema(&schema, show.fleet, table);
        assert_eq!(fleet["properties"]["target"]["pattern"], rules.prefix);
        assert_eq!(fleet["properties"]["on_target"], rules.target);
        let panes = ToolSpec::find(table, "list_panes").unwrap();
        let output: Value = serde_json::from_str(panes.output_schema.unwrap()).unwrap();
        let fleet = rules.output_schema(&output, panes.fleet);
        assert_eq!(fleet["properties"]["unreachable"], rules.unreachable);
        // A row's id keeps no bare id's pattern: it has the fleet's, or none (a brief
        // row's id is written with its target by name, `namedIds.output`).
        let id = &fleet["properties"]["panes"]["items"]["properties"]["id"];
        assert!(
            id.get("pattern")
                .is_none_or(|pattern| pattern == "^[a-z][a-z0-9-]{0,31}/%[0-9]+$"),
            "{id}"
        );
        assert!(rules.output_names.iter().any(|name| name == "id"));
    }
}
