//! The tools this server knows, built once at start-up from the generated table:
//! each tool's advertised MCP `Tool` (raw schemas, untouched) and compiled validators
//! (strict ones, closed to unknown fields, for tools above the readonly tier).

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::Value;

use crate::call::runtime::{Tier, ToolSpec};
use crate::call::schema::{strict_copy, SchemaCheck};
use crate::generated::TOOLS;

/// One tool, ready to list and to call.
pub struct CatalogEntry {
    pub spec: &'static ToolSpec,
    pub tool: Tool,
    pub input: SchemaCheck,
    /// Checks each reply in debug builds (tests); release builds skip the compile.
    #[cfg(debug_assertions)]
    pub output: SchemaCheck,
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
    /// Builds the catalog from the generated table.
    ///
    /// # Errors
    /// A table entry that does not parse or compile (a build fault, reported at start-up).
    pub fn load() -> Result<Self, String> {
        let mut entries = Vec::with_capacity(TOOLS.len());
        for spec in &TOOLS {
            let input = parse_object(spec.name, "inputSchema", spec.input_schema)?;
            let output = parse_object(spec.name, "outputSchema", spec.output_schema)?;
            let annotations: ToolAnnotations =
                serde_json::from_str(spec.annotations).map_err(|e| format!("{}: annotations: {e}", spec.name))?;
            let mut tool = Tool::new(spec.name, spec.description, Arc::new(input.clone()))
                .with_raw_output_schema(Arc::new(output.clone()))
                .with_annotations(annotations);
            if let Some(title) = spec.title {
                tool = tool.with_title(title);
            }
            // Tools above the readonly tier refuse fields they do not know (see strict_copy).
            let input = if spec.tier > Tier::Readonly {
                strict_copy(&Value::Object(input))
            } else {
                Value::Object(input)
            };
            entries.push(CatalogEntry {
                spec,
                tool,
                input: SchemaCheck::new(input).map_err(|e| format!("{}: inputSchema: {e}", spec.name))?,
                #[cfg(debug_assertions)]
                output: SchemaCheck::new(Value::Object(output))
                    .map_err(|e| format!("{}: outputSchema: {e}", spec.name))?,
            });
        }
        Ok(Self { entries })
    }

    pub fn get(&self, name: &str) -> Option<&CatalogEntry> {
        self.entries.iter().find(|entry| entry.spec.name == name)
    }

    /// The tools a server at `tier` lists, in name order.
    pub fn listed(&self, tier: Tier) -> impl Iterator<Item = &CatalogEntry> {
        self.entries.iter().filter(move |entry| entry.spec.tier <= tier)
    }
}
