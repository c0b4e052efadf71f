//! The contract a server is compared with: each tool as `tools/list` must advertise it,
//! with its tier, from the table compiled into paneward or from a folder of tool files
//! (loaded and checked exactly as the build checks `schemas/tools`).

use std::collections::BTreeMap;
use std::path::Path;

use paneward_contract::ToolFile;
use serde_json::{Map, Value};

use paneward_contract::Tier;

/// One tool of the contract.
#[derive(Debug, Clone, PartialEq)]
pub struct ContractTool {
    pub tier: Tier,
    /// The tool exactly as `tools/list` must carry it.
    pub advertised: Value,
}

/// Tools by name.
pub type Contract = BTreeMap<String, ContractTool>;

/// The contract compiled into this paneward binary for `profile` (the `schemas/tools`
/// files it was built from, or the profile's).
///
/// # Errors
/// A table entry that is not JSON (a build fault).
pub fn compiled(profile: crate::catalog::profile::Profile) -> Result<Contract, String> {
    let mut contract = Contract::new();
    for spec in profile.table() {
        let parse = |what: &str, text: &str| -> Result<Value, String> {
            serde_json::from_str(text).map_err(|e| format!("{}: {what} is not JSON: {e}", spec.name))
        };
        let advertised = Advertised {
            name: spec.name,
            title: spec.title,
            description: spec.description,
            input_schema: parse("inputSchema", spec.input_schema)?,
            output_schema: spec.output_schema.map(|text| parse("outputSchema", text)).transpose()?,
            annotations: parse("annotations", spec.annotations)?,
            meta: spec.meta.map(|meta| parse("_meta", meta)).transpose()?,
        };
        contract.insert(
            spec.name.to_string(),
            ContractTool {
                tier: spec.tier,
                advertised: advertised.into_value(),
            },
        );
    }
    Ok(contract)
}

/// The contract in a folder of tool files (`*.json`, as in `schemas/tools`), each
/// checked as the build checks it.
///
/// # Errors
/// The folder cannot be read or holds no tool file, or a file fails a check of the
/// build (named by file and JSON pointer), or two files define one tool.
pub fn from_dir(dir: &Path) -> Result<Contract, String> {
    let tools = paneward_contract::load::load_dir(dir).map_err(|e| e.to_string())?;
    if tools.is_empty() {
        return Err(format!("{} holds no tool file (*.json)", dir.display()));
    }
    let contract = tools
        .into_iter()
        .map(|tool| (tool.name.clone(), from_tool_file(tool)))
        .collect();
    Ok(contract)
}

fn from_tool_file(tool: ToolFile) -> ContractTool {
    let ToolFile {
        name,
        title,
        description,
        tier,
        input_schema,
        output_schema,
        annotations,
        meta,
        ..
    } = tool;
    let advertised = Advertised {
        name: &name,
        title: title.as_deref(),
        description: &description,
        input_schema,
        output_schema,
        annotations,
        meta: meta.map(Value::Object),
    };
    ContractTool {
        tier,
        advertised: advertised.into_value(),
    }
}

/// The members of a tool file that `tools/list` advertises unchanged.
struct Advertised<'a> {
    name: &'a str,
    title: Option<&'a str>,
    description: &'a str,
    input_schema: Value,
    output_schema: Option<Value>,
    annotations: Value,
    meta: Option<Value>,
}

impl Advertised<'_> {
    fn into_value(self) -> Value {
        let mut tool = Map::new();
        tool.insert("name".into(), self.name.into());
        if let Some(title) = self.title {
            tool.insert("title".into(), title.into());
        }
        tool.insert("description".into(), self.description.into());
        tool.insert("inputSchema".into(), self.input_schema);
        if let Some(output) = self.output_schema {
            tool.insert("outputSchema".into(), output);
        }
        tool.insert("annotations".into(), self.annotations);
        if let Some(meta) = self.meta {
            tool.insert("_meta".into(), meta);
        }
        Value::Object(tool)
    }
}

/// The names of the tools a server at `tier` lists.
pub fn at_tier(contract: &Contract, tier: Tier) -> impl Iterator<Item = &str> {
    contract
        .iter()
        .filter(move |(_, tool)| tool.tier <= tier)
        .map(|(name, _)| name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_contract_has_every_tool_with_its_advertised_fields() {
        let contract = compiled(crate::catalog::profile::Profile::Default).unwrap();
        assert_eq!(contract.len(), crate::generated::TOOLS.len());
        let snapshot = &contract["snapshot_pane"];
        assert_eq!(snapshot.tier, Tier::Readonly);
        assert_eq!(snapshot.advertised["title"], "Snapshot a pane");
        assert!(snapshot.advertised["outputSchema"]["properties"].is_object());
        let readonly: Vec<&str> = at_tier(&contract, Tier::Readonly).collect();
        assert!(readonly.iter().all(|name| contract[*name].tier == Tier::Readonly));
        assert!(readonly.contains(&"snapshot_pane"));
        assert!(!readonly.contains(&"send_keys"));
    }

    #[test]
    fn the_schemas_folder_is_the_compiled_contract() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/tools");
        assert_eq!(
            from_dir(&dir).unwrap(),
            compiled(crate::catalog::profile::Profile::Default).unwrap()
        );
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/profiles/python");
        assert_eq!(
            from_dir(&dir).unwrap(),
            compiled(crate::catalog::profile::Profile::Python).unwrap()
        );
    }

    #[test]
    fn a_folder_without_tool_files_is_refused() {
        let error = from_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("src").as_path()).unwrap_err();
        assert!(error.contains("holds no tool file"), "{error}");
    }
}
