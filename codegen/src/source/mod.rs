//! Reading contracts from where they are published: documentation pages, MCP `Tool`
//! JSON (one tool, a `tools/list` result, or a JSON-RPC response carrying one), running
//! servers, and paneward's own tool files.
//!
//! Every reader produces the same [`ContractTool`]: what MCP advertises, plus the two
//! fields paneward keeps for itself when the source has them. `import` turns these into
//! tool files; `diff` compares two sets of them.

pub mod json;
pub mod page;
pub mod server;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::CodegenError;
use crate::load::{Tier, ToolFile};

/// One tool's contract as a source states it.
#[derive(Debug, Clone, PartialEq)]
pub struct ContractTool {
    /// Where it was read: the file (or the server command), and the JSON pointer of the
    /// tool inside that file ("" for a page or a single tool).
    pub origin: Origin,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub input_schema: Value,
    pub output_schema: Option<Value>,
    /// Always an object; `{}` when the source gives none.
    pub annotations: Value,
    /// The upstream page: a page's `Source:` line, or a tool file's `source`.
    pub source: Option<String>,
    /// Only paneward's own tool files carry a tier.
    pub tier: Option<Tier>,
    /// Only paneward's own tool files name a handler module.
    pub handler: Option<String>,
    /// Only paneward's own tool files declare a toolset and an access class.
    pub toolset: Option<String>,
    pub class: Option<String>,
    /// Only paneward's own tool files declare argument escalations (as written).
    pub escalations: Option<Value>,
    /// Only paneward's own tool files state facts for the guards and batches
    /// (`paneward_contract::facts::FIELDS`), as written.
    pub facts: Map<String, Value>,
    /// The tool's `_meta` object, as the source gives it.
    pub meta: Option<Value>,
    /// Fields of an MCP `Tool` that a tool file cannot hold (`icons`, …).
    pub ignored: Vec<String>,
}

/// Where a [`ContractTool`] was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub file: PathBuf,
    pub pointer: String,
}

impl Origin {
    /// An error about this tool, at `pointer` inside the tool.
    pub fn error(&self, pointer: &str, message: impl Into<String>) -> CodegenError {
        CodegenError::new(&self.file, format!("{}{pointer}", self.pointer), message)
    }
}

impl ContractTool {
    /// The contract of a checked tool file.
    pub fn from_tool_file(tool: &ToolFile) -> Self {
        Self {
            origin: Origin {
                file: tool.path.clone(),
                pointer: String::new(),
            },
            name: tool.name.clone(),
            title: tool.title.clone(),
            description: Some(tool.description.clone()),
            input_schema: tool.input_schema.clone(),
            output_schema: tool.output_schema.clone(),
            annotations: tool.annotations.clone(),
            source: Some(tool.source.clone()),
            tier: Some(tool.tier),
            handler: tool.handler.clone(),
            toolset: tool.toolset.map(|t| t.as_str().to_string()),
            class: tool.class.map(|c| c.as_str().to_string()),
            escalations: (!tool.escalations.is_empty()).then(|| {
                Value::Array(
                    tool.escalations
                        .iter()
                        .map(paneward_contract::Escalation::to_value)
                        .collect(),
                )
            }),
            facts: tool.facts.written.clone(),
            meta: tool.meta.clone().map(Value::Object),
            ignored: Vec::new(),
        }
    }
}

/// A set of tools by name.
pub type Contract = BTreeMap<String, ContractTool>;

/// Reads the tools of one file: a documentation page, or JSON (told apart by a leading `{`
/// or `[`).
///
/// # Errors
/// The file cannot be read, its JSON is invalid, or the page or JSON lacks a part of
/// the contract (each error names the file and what is missing).
pub fn read_file(path: &Path) -> Result<Vec<ContractTool>, CodegenError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| CodegenError::new(path, "", format!("cannot read the file: {e}")))?;
    let text = text.trim_start_matches('\u{feff}');
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let value: Value =
            serde_json::from_str(text).map_err(|e| CodegenError::new(path, "", format!("not valid JSON: {e}")))?;
        json::tools_of(path, &value)
    } else {
        page::parse(path, text).map(|tool| vec![tool])
    }
}

/// Reads a whole contract: a folder of tool files (its `*.json`), or one file as in
/// [`read_file`].
///
/// # Errors
/// As [`read_file`], and a tool defined twice.
pub fn read_contract(path: &Path) -> Result<Contract, CodegenError> {
    let tools = if path.is_dir() {
        let mut tools = Vec::new();
        for file in crate::load::json_files(path)? {
            tools.extend(read_file(&file)?);
        }
        tools
    } else {
        read_file(path)?
    };
    collect(tools)
}

/// Indexes `tools` by name.
///
/// # Errors
/// Two tools of the same name, naming both places.
pub fn collect(tools: Vec<ContractTool>) -> Result<Contract, CodegenError> {
    let mut contract = Contract::new();
    for tool in tools {
        if let Some(other) = contract.get(&tool.name) {
            return Err(tool.origin.error(
                "/name",
                format!(
                    "tool `{}` is also defined in {}{}",
                    tool.name,
                    other.origin.file.display(),
                    pointer_suffix(&other.origin.pointer)
                ),
            ));
        }
        contract.insert(tool.name.clone(), tool);
    }
    Ok(contract)
}

fn pointer_suffix(pointer: &str) -> String {
    if pointer.is_empty() {
        String::new()
    } else {
        format!(" at {pointer}")
    }
}
