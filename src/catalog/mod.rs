//! The tools this server knows, built once at start-up from the generated table:
//! each tool's advertised MCP `Tool` (raw schemas, untouched) and its validators
//! (strict ones, closed to unknown fields, for tools above the readonly tier), each
//! compiled on its tool's first call ([`schema::SchemaCheck`]). A profile serves its
//! own generated table instead of paneward's.

pub mod fleet;
pub mod profile;
pub mod schema;
pub mod surface;

use std::sync::Arc;

use paneward_contract::{AccessClass, Escalation, Toolset};
use rmcp::model::{JsonObject, MetaObject, Tool, ToolAnnotations};
use serde_json::Value;

use crate::catalog::profile::{Envelope, Profile};
use crate::catalog::schema::{strict_copy, SchemaCheck};
use crate::runtime::{Tier, ToolError, ToolSpec};

/// One tool, ready to list and to call.
pub struct CatalogEntry {
    /// The tool's row of the generated table served (its name and handler).
    pub spec: &'static ToolSpec,
    /// The tier its tool file declares.
    pub tier: Tier,
    /// Argument values that need a higher tier than `tier` (refused below it by the
    /// request path).
    pub escalations: Vec<Escalation>,
    pub toolset: Toolset,
    pub class: AccessClass,
    /// Whether the operator's choice of toolsets and tools serves it ([`Catalog::narrow`]);
    /// a tool not served answers as an unknown one.
    pub served: bool,
    /// How the reply is encoded.
    pub envelope: Envelope,
    pub tool: Tool,
    pub input: SchemaCheck,
    /// Checks each reply in debug builds (tests); release builds never compile it.
    #[cfg(debug_assertions)]
    pub output: SchemaCheck,
}

impl CatalogEntry {
    /// The highest tier a call of this tool can need.
    pub fn reach(&self) -> Tier {
        paneward_contract::escalation::reach(self.tier, &self.escalations)
    }

    /// Whether the output schema compiles: its validator, in debug builds; in release
    /// builds, which keep none, a copy compiled and dropped.
    fn output_compiles(&self) -> Result<(), String> {
        #[cfg(debug_assertions)]
        {
            self.output.validator().map(|_| ())
        }
        #[cfg(not(debug_assertions))]
        {
            self.tool.output_schema.as_ref().map_or(Ok(()), |schema| {
                jsonschema::validator_for(&Value::Object(JsonObject::clone(schema)))
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
        }
    }

    /// The first escalation `arguments` meet that is above `tier`.
    pub fn escalation_above(&self, tier: Tier, arguments: &Value) -> Option<&Escalation> {
        self.escalations.iter().find(|e| e.tier > tier && e.met_by(arguments))
    }
}

/// Every tool of the contract, sorted by name.
pub struct Catalog {
    entries: Vec<CatalogEntry>,
}

fn parse_object(name: &str, what: &str, text: &str) -> Result<JsonObject, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err(format!("{name}: {what} is not a JSON object")),
        Err(e) => Err(format!("{name}: {what} is not JSON: {e}")),
    }
}

impl Catalog {
    /// Builds the catalog from the generated table of `profile`'s contract.
    ///
    /// # Errors
    /// A table entry that does not parse (a build fault, reported at start-up).
    /// Validators compile later: see [`Catalog::compile_all`].
    pub fn load(profile: Profile) -> Result<Self, String> {
        let table = profile.table();
        let envelope = profile.envelope();
        let mut entries = Vec::with_capacity(table.len());
        for spec in table {
            let input = parse_object(spec.name, "inputSchema", spec.input_schema)?;
            // Shared with the advertised tool; only debug builds check replies against it.
            // A profile's tool may have none (its upstream's reply is text alone).
            let output = spec
                .output_schema
                .map(|text| parse_object(spec.name, "outputSchema", text).map(Arc::new))
                .transpose()?;
            let annotations: ToolAnnotations =
                serde_json::from_str(spec.annotations).map_err(|e| format!("{}: annotations: {e}", spec.name))?;
            let mut tool =
                Tool::new(spec.name, spec.description, Arc::new(input.clone())).with_annotations(annotations);
            if let Some(output) = &output {
                tool = tool.with_raw_output_schema(Arc::clone(output));
            }
            if let Some(title) = spec.title {
                tool = tool.with_title(title);
            }
            if let Some(meta) = spec.meta {
                tool = tool.with_meta(MetaObject::from(parse_object(spec.name, "_meta", meta)?));
            }
            // paneward's tools above the readonly tier refuse fields they do not know (see
            // strict_copy); a profile's are validated as its upstream advertises them.
            let input = if spec.tier > Tier::Readonly && envelope == Envelope::Native {
                strict_copy(&Value::Object(input))
            } else {
                Value::Object(input)
            };
            let escalations = spec
                .escalations
                .iter()
                .map(|e| {
                    let equals = serde_json::from_str(e.equals)
                        .map_err(|error| format!("{}: escalation of `{}`: {error}", spec.name, e.argument))?;
                    Ok(Escalation {
                        argument: e.argument.to_string(),
                        equals,
                        tier: e.tier,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            let (toolset, class) = declared(spec.name, spec.toolset, spec.class)?;
            entries.push(CatalogEntry {
                spec,
                tier: spec.tier,
                escalations,
                toolset,
                class,
                served: true,
                envelope,
                tool,
                input: SchemaCheck::lazy(input),
                #[cfg(debug_assertions)]
                output: SchemaCheck::lazy(output.map_or(Value::Bool(true), |o| {
                    // paneward's replies are advertised open, so that a later version may
                    // add a field; they are checked closed, so that none slips in unsaid.
                    let advertised = Value::Object(JsonObject::clone(&o));
                    match envelope {
                        Envelope::Native => strict_copy(&advertised),
                        Envelope::Python | Envelope::Libtmux => advertised,
                    }
                })),
            });
        }
        Ok(Self { entries })
    }

    /// Serves only what `choice` chooses (the profile's default toolsets when it names
    /// none); tools above `tier` stay unserved by the tier as before.
    ///
    /// # Errors
    /// `--tools` names a tool above `tier`: that cannot be served, and saying nothing
    /// would leave the operator believing it is.
    pub fn narrow(&mut self, choice: &surface::SurfaceChoice, defaults: &[Toolset], tier: Tier) -> Result<(), String> {
        if let Some(entry) = self
            .entries
            .iter()
            .find(|entry| entry.tier > tier && choice.tools.contains(entry.spec.name))
        {
            return Err(format!(
                "--tools (or PANEWARD_TOOLS, LIBTMUX_TOOLS) names `{}`, a {} tool, above --safety {tier}; raise --safety or leave it out",
                entry.spec.name, entry.tier
            ));
        }
        for entry in &mut self.entries {
            entry.served = choice.serves(entry.spec.name, entry.toolset, defaults);
        }
        Ok(())
    }

    /// Compiles every tool's validators now (`paneward doctor`, and a test): one that
    /// does not compile is a build fault, otherwise met only by that tool's first call.
    ///
    /// # Errors
    /// Each schema that does not compile, by tool and field.
    pub fn compile_all(&self) -> Result<(), String> {
        let mut faults = Vec::new();
        for entry in &self.entries {
            if let Err(error) = entry.input.validator() {
                faults.push(format!("{}: inputSchema: {error}", entry.spec.name));
            }
            if let Err(error) = entry.output_compiles() {
                faults.push(format!("{}: outputSchema: {error}", entry.spec.name));
            }
        }
        if faults.is_empty() {
            Ok(())
        } else {
            Err(faults.join("; "))
        }
    }

    pub fn get(&self, name: &str) -> Option<&CatalogEntry> {
        self.entries.iter().find(|entry| entry.spec.name == name)
    }

    /// The served tool `name`, if a server at `tier` may call it.
    ///
    /// # Errors
    /// A tool the operator's choice does not serve answers as if it did not exist; one
    /// above the tier names the tier it needs (before its arguments are read).
    pub fn callable(&self, name: &str, tier: Tier) -> Result<&CatalogEntry, ToolError> {
        let entry = self
            .get(name)
            .filter(|entry| entry.served)
            .ok_or_else(|| ToolError::unknown_tool(name))?;
        if entry.tier > tier {
            return Err(ToolError::not_allowed(name, entry.tier, tier));
        }
        Ok(entry)
    }

    /// Every served tool's input schema.
    pub fn input_schemas(&self) -> impl Iterator<Item = &Value> {
        self.entries.iter().map(|entry| entry.input.schema())
    }

    /// The tools a server at `tier` lists, in name order.
    pub fn listed(&self, tier: Tier) -> impl Iterator<Item = &CatalogEntry> {
        self.entries
            .iter()
            .filter(move |entry| entry.served && entry.tier <= tier)
    }
}

/// A tool's toolset and class; `build.rs` checks every file declares both, so a missing
/// one is a build fault reported at start-up.
impl Catalog {
    /// Advertises and validates `tool`'s `argument` with `value` as its default: a
    /// profile whose upstream publishes a setting as a default does so (the python
    /// profile's `LIBTMUX_SUPPRESS_HISTORY`). The request path fills an absent argument
    /// from the advertised default, so the call follows it too.
    ///
    /// # Errors
    /// The tool or the argument is not in the catalog (a build fault).
    pub fn set_argument_default(&mut self, tool: &str, argument: &str, value: Value) -> Result<(), String> {
        let entry = self
            .entries
            .iter_mut()
            .find(|entry| entry.spec.name == tool)
            .ok_or_else(|| format!("no tool `{tool}` to set a default of"))?;
        let mut schema = JsonObject::clone(&entry.tool.input_schema);
        let property = schema
            .get_mut("properties")
            .and_then(|properties| properties.get_mut(argument))
            .and_then(Value::as_object_mut)
            .ok_or_else(|| format!("`{tool}` has no argument `{argument}`"))?;
        property.insert("default".into(), value);
        entry.input = SchemaCheck::lazy(Value::Object(schema.clone()));
        entry.tool.input_schema = Arc::new(schema);
        Ok(())
    }
}

fn declared(
    name: &str,
    toolset: Option<Toolset>,
    class: Option<AccessClass>,
) -> Result<(Toolset, AccessClass), String> {
    match (toolset, class) {
        (Some(toolset), Some(class)) => Ok((toolset, class)),
        _ => Err(format!("{name}: the tool file declares no toolset or class")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The build checks every schema against the meta-schema; this compiles each one as
    /// the request path will, since start-up no longer does.
    #[test]
    fn every_validator_of_every_profile_compiles() {
        for profile in [Profile::Default, Profile::Python] {
            let catalog = Catalog::load(profile).unwrap();
            assert_eq!(catalog.compile_all(), Ok(()), "{profile}");
        }
    }

    #[test]
    fn a_schema_that_does_not_compile_is_named_by_compile_all_and_refused_at_its_call() {
        let mut catalog = Catalog::load(Profile::Default).unwrap();
        let broken = serde_json::json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}});
        let entry = &mut catalog.entries[0];
        entry.input = SchemaCheck::lazy(broken);
        let name = entry.spec.name;
        let fault = catalog.compile_all().unwrap_err();
        assert!(fault.starts_with(&format!("{name}: inputSchema: ")), "{fault}");
        let error = catalog.entries[0]
            .input
            .check(&serde_json::json!({"a": "x"}))
            .unwrap_err();
        assert_eq!(error.kind(), crate::runtime::error::ToolErrorKind::Internal, "{error}");
    }
}
