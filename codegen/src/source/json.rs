//! MCP `Tool` objects in JSON: one tool, a `tools/list` result (`{"tools": […]}`), a
//! JSON-RPC response carrying one, or an array of tools. paneward's own tool files are
//! `Tool` objects with two more fields (`tier`, `source`), so they read the same way.

use std::path::Path;

use serde_json::{Map, Value};

use super::{ContractTool, Origin};
use crate::error::CodegenError;
use crate::load::Tier;

/// What a JSON contract file may hold, for error messages.
const EXPECTED: &str = "expected an MCP Tool object (with `name` and `inputSchema`), a tools/list result \
                        (`{\"tools\": [...]}`), a JSON-RPC response carrying one, or an array of tools";

/// The tools held by `value`, read from `file`.
///
/// # Errors
/// `value` has none of the accepted shapes, is a JSON-RPC error, or a tool in it lacks a
/// field or has one of the wrong type (named by JSON pointer).
pub fn tools_of(file: &Path, value: &Value) -> Result<Vec<ContractTool>, CodegenError> {
    tools_at(file, "", value)
}

fn tools_at(file: &Path, pointer: &str, value: &Value) -> Result<Vec<ContractTool>, CodegenError> {
    match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| tool_at(file, &format!("{pointer}/{index}"), item))
            .collect(),
        Value::Object(object) if object.contains_key("name") => Ok(vec![tool_at(file, pointer, value)?]),
        Value::Object(object) if object.contains_key("tools") => match &object["tools"] {
            tools @ Value::Array(_) => tools_at(file, &format!("{pointer}/tools"), tools),
            _ => Err(CodegenError::new(
                file,
                format!("{pointer}/tools"),
                "must be an array of tools",
            )),
        },
        Value::Object(object) if object.contains_key("error") => {
            let message = object["error"]
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("(no message)");
            Err(CodegenError::new(
                file,
                format!("{pointer}/error"),
                format!("a JSON-RPC error response, not a tool list: {message}"),
            ))
        }
        Value::Object(object) if object.contains_key("result") => {
            tools_at(file, &format!("{pointer}/result"), &object["result"])
        }
        _ => Err(CodegenError::new(file, pointer, EXPECTED)),
    }
}

/// Reads one MCP `Tool` object found in `file` at `pointer`.
///
/// # Errors
/// Not an object, no string `name`, no object `inputSchema`, or a field of the wrong type.
pub fn tool_at(file: &Path, pointer: &str, value: &Value) -> Result<ContractTool, CodegenError> {
    let origin = Origin {
        file: file.to_path_buf(),
        pointer: pointer.to_string(),
    };
    let Value::Object(object) = value else {
        return Err(origin.error("", format!("a tool must be a JSON object; {EXPECTED}")));
    };
    let name = match object.get("name") {
        Some(Value::String(name)) => name.clone(),
        Some(_) => return Err(origin.error("/name", "must be a string")),
        None => return Err(origin.error("", "missing required field `name`")),
    };
    let input_schema = match object.get("inputSchema") {
        Some(schema @ Value::Object(_)) => schema.clone(),
        Some(_) => return Err(origin.error("/inputSchema", "must be a JSON Schema object")),
        None => return Err(origin.error("", format!("tool `{name}`: missing required field `inputSchema`"))),
    };
    let output_schema = match object.get("outputSchema") {
        None | Some(Value::Null) => None,
        Some(schema @ Value::Object(_)) => Some(schema.clone()),
        Some(_) => return Err(origin.error("/outputSchema", "must be a JSON Schema object")),
    };
    let annotations = match object.get("annotations") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(annotations @ Value::Object(_)) => annotations.clone(),
        Some(_) => return Err(origin.error("/annotations", "must be an object")),
    };
    let tier = match optional_string(&origin, object, "tier")? {
        None => None,
        Some(text) => Some(
            text.parse::<Tier>()
                .map_err(|unknown| origin.error("/tier", unknown.to_string()))?,
        ),
    };
    let known = crate::canonical::KEY_ORDER;
    let ignored = object
        .keys()
        .filter(|key| !known.contains(&key.as_str()))
        .cloned()
        .collect();
    Ok(ContractTool {
        title: optional_string(&origin, object, "title")?,
        description: optional_string(&origin, object, "description")?,
        source: optional_string(&origin, object, "source")?,
        handler: optional_string(&origin, object, "handler")?,
        toolset: optional_string(&origin, object, "toolset")?.or_else(|| toolset_tag(object)),
        class: optional_string(&origin, object, "class")?,
        escalations: object.get("escalations").filter(|value| !value.is_null()).cloned(),
        facts: paneward_contract::facts::FIELDS
            .iter()
            .filter_map(|field| Some((field.to_string(), object.get(*field)?.clone())))
            .collect(),
        meta: object.get("_meta").filter(|value| !value.is_null()).cloned(),
        origin,
        name,
        input_schema,
        output_schema,
        annotations,
        tier,
        ignored,
    })
}

/// The toolset a server declares: the libtmux family's capability record
/// (`_meta["com.git-pull.libtmux-mcp/capability"].toolset`, as `tmux-mcp` writes it), else
/// the one FastMCP tag that names a toolset (`_meta.fastmcp.tags`, as libtmux-mcp does).
fn toolset_tag(object: &Map<String, Value>) -> Option<String> {
    let meta = object.get("_meta")?;
    let declared = meta
        .get(paneward_contract::load::CAPABILITY_META)
        .and_then(|record| record.get("toolset"))
        .and_then(Value::as_str)
        .filter(|toolset| toolset.parse::<paneward_contract::Toolset>().is_ok());
    if let Some(toolset) = declared {
        return Some(toolset.to_string());
    }
    let tags = object.get("_meta")?.get("fastmcp")?.get("tags")?.as_array()?;
    let mut toolsets = tags
        .iter()
        .filter_map(Value::as_str)
        .filter(|tag| tag.parse::<paneward_contract::Toolset>().is_ok());
    let toolset = toolsets.next()?;
    toolsets.next().is_none().then(|| toolset.to_string())
}

fn optional_string(origin: &Origin, object: &Map<String, Value>, field: &str) -> Result<Option<String>, CodegenError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(origin.error(&format!("/{field}"), "must be a string")),
    }
}
