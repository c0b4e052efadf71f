//! The contract a server is compared with: each tool as `tools/list` must advertise it,
//! with its tier, from the table compiled into paneward or from a folder of tool files.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use crate::generated::TOOLS;
use crate::runtime::Tier;

/// The members of a tool file that `tools/list` advertises unchanged.
pub const ADVERTISED_FIELDS: [&str; 6] = [
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
];

/// One tool of the contract.
#[derive(Debug, Clone, PartialEq)]
pub struct ContractTool {
    pub tier: Tier,
    /// The tool exactly as `tools/list` must carry it.
    pub advertised: Value,
}

/// Tools by name.
pub type Contract = BTreeMap<String, ContractTool>;

/// The contract compiled into this paneward binary (the `schemas/tools` files it was built from).
///
/// # Errors
/// A table entry that is not JSON (a build fault).
pub fn compiled() -> Result<Contract, String> {
    let mut contract = Contract::new();
    for spec in &TOOLS {
        let parse = |what: &str, text: &str| -> Result<Value, String> {
            serde_json::from_str(text).map_err(|e| format!("{}: {what} is not JSON: {e}", spec.name))
        };
        let mut tool = Map::new();
        tool.insert("name".into(), spec.name.into());
        if let Some(title) = spec.title {
            tool.insert("title".into(), title.into());
        }
        tool.insert("description".into(), spec.description.into());
        tool.insert("inputSchema".into(), parse("inputSchema", spec.input_schema)?);
        tool.insert("outputSchema".into(), parse("outputSchema", spec.output_schema)?);
        tool.insert("annotations".into(), parse("annotations", spec.annotations)?);
        contract.insert(
            spec.name.to_string(),
            ContractTool {
                tier: spec.tier,
                advertised: Value::Object(tool),
            },
        );
    }
    Ok(contract)
}

/// The contract in a folder of tool files (`*.json`, as in `schemas/tools`).
///
/// # Errors
/// The folder cannot be read, holds no tool file, or a file is not JSON, lacks `name`
/// or `tier`, or repeats a name.
pub fn from_dir(dir: &Path) -> Result<Contract, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?.path();
        if path.extension().is_some_and(|ext| ext == "json") {
            paths.push(path);
        }
    }
    paths.sort();
    let mut contract = Contract::new();
    for path in &paths {
        let (name, tool) = read_tool_file(path)?;
        if contract.insert(name.clone(), tool).is_some() {
            return Err(format!("{}: a second tool named {name:?}", path.display()));
        }
    }
    if contract.is_empty() {
        return Err(format!("{} holds no tool file (*.json)", dir.display()));
    }
    Ok(contract)
}

fn read_tool_file(path: &Path) -> Result<(String, ContractTool), String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let Value::Object(file) = serde_json::from_str(&text).map_err(|e| format!("{shown}: not JSON: {e}"))? else {
        return Err(format!("{shown}: not a JSON object"));
    };
    let name = match file.get("name") {
        Some(Value::String(name)) => name.clone(),
        _ => return Err(format!("{shown}: /name: a tool file needs a string name")),
    };
    let tier = match file.get("tier") {
        Some(Value::String(tier)) => tier.parse::<Tier>().map_err(|e| format!("{shown}: /tier: {e}"))?,
        _ => return Err(format!("{shown}: /tier: a tool file needs a tier")),
    };
    let advertised = ADVERTISED_FIELDS
        .iter()
        .filter_map(|field| file.get(*field).map(|value| ((*field).to_string(), value.clone())))
        .collect();
    Ok((
        name,
        ContractTool {
            tier,
            advertised: Value::Object(advertised),
        },
    ))
}

/// The tools a server at `tier` lists.
pub fn at_tier(contract: Contract, tier: Tier) -> Contract {
    contract.into_iter().filter(|(_, tool)| tool.tier <= tier).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_contract_has_every_tool_with_its_advertised_fields() {
        let contract = compiled().unwrap();
        assert_eq!(contract.len(), TOOLS.len());
        let snapshot = &contract["snapshot_pane"];
        assert_eq!(snapshot.tier, Tier::Readonly);
        assert_eq!(snapshot.advertised["title"], "Snapshot a pane");
        assert!(snapshot.advertised["outputSchema"]["properties"].is_object());
        let readonly = at_tier(contract, Tier::Readonly);
        assert!(readonly.values().all(|tool| tool.tier == Tier::Readonly));
        assert!(readonly.contains_key("snapshot_pane"));
    }

    #[test]
    fn the_schemas_folder_is_the_compiled_contract() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/tools");
        assert_eq!(from_dir(&dir).unwrap(), compiled().unwrap());
    }

    #[test]
    fn a_folder_without_tool_files_is_refused() {
        let error = from_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("src").as_path()).unwrap_err();
        assert!(error.contains("holds no tool file"), "{error}");
    }
}
