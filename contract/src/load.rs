//! Loading and checking `schemas/tools/*.json`: the checks the build applies, and
//! `paneward conform --schemas` and `paneward-codegen import` apply the same ones.
//!
//! Everything a later stage relies on is checked here first, with the file and JSON
//! pointer of each problem: typify panics (`todo!`) on some malformed schemas, so it
//! must never be the first code to see one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::ContractError;
use crate::escalation::Escalation;
use crate::facts::Facts;
use crate::pointer::pointer_token;
/// The type of [`ToolFile::tier`], also reachable from here for the loader's callers.
pub use crate::tier::Tier;
use crate::toolset::{AccessClass, Toolset};

/// The `source` of a tool file whose contract is paneward's own; any other source is an
/// upstream page the file was seeded from, whose annotations and output schema are kept
/// as published.
pub const OWN_SOURCE: &str = "paneward";

/// One checked tool file; `input_schema`, `output_schema` and `annotations` are exactly
/// as written, which is what paneward advertises.
#[derive(Debug, Clone)]
pub struct ToolFile {
    pub path: PathBuf,
    pub name: String,
    pub title: Option<String>,
    pub description: String,
    pub tier: Tier,
    /// The toolset an operator selects it by (`--toolsets`); required of served files
    /// by [`crate::surface::check_declared`], optional here so imports read any file.
    pub toolset: Option<Toolset>,
    /// Its access class (upstream Go's seven), reported by `tmux://capabilities` and
    /// deciding its annotations ([`crate::surface::expected_hints`]).
    pub class: Option<AccessClass>,
    /// The module of `src/tools/` whose function of the tool's name handles it
    /// (`"hierarchy"` → `crate::tools::hierarchy::list_panes`). Optional in a profile,
    /// whose tools are handled where the default tool of the same name is.
    pub handler: Option<String>,
    /// Argument values that need a higher tier than `tier` (see [`crate::escalation`]).
    pub escalations: Vec<Escalation>,
    /// What paneward's guards and batches know of the tool (see [`crate::facts`]).
    pub facts: Facts,
    pub source: String,
    pub input_schema: Value,
    /// None only where the upstream a profile mirrors advertises none (a tool whose
    /// reply is text alone); paneward's own tools must have one ([`crate::surface`]).
    pub output_schema: Option<Value>,
    pub annotations: Value,
    /// The tool's `_meta`, advertised as written: only the keys of [`META_KEYS`].
    pub meta: Option<Map<String, Value>>,
}

/// The top-level fields a tool file may have, and whether each is required.
const FIELDS: [(&str, bool); 19] = [
    ("name", true),
    ("title", false),
    ("description", true),
    ("tier", true),
    ("toolset", false),
    ("class", false),
    ("handler", false),
    ("escalations", false),
    ("reaches", false),
    ("paneText", false),
    ("batch", false),
    ("dryRun", false),
    ("checkedAlone", false),
    ("fleet", false),
    ("source", true),
    ("inputSchema", true),
    ("outputSchema", false),
    ("annotations", true),
    ("_meta", false),
];

/// The `_meta` keys a tool file may carry, with the JSON type of each. A client reads
/// them beside the tool, so an unknown key (a typo) would silently do nothing.
/// `anthropic/alwaysLoad`: Claude Code keeps the tool's schema loaded on every turn
/// rather than deferring it behind its tool search.
pub const META_KEYS: [(&str, &str); 3] = [
    ("anthropic/alwaysLoad", "boolean"),
    // A FastMCP server's own (its tags), kept so a profile advertises it as served.
    ("fastmcp", "object"),
    // The libtmux MCP family's capability record (toolset, process reach, tmux effects,
    // ...), kept so the libtmux profile advertises it as the family serves it.
    (CAPABILITY_META, "object"),
];

/// The `_meta` key under which the libtmux MCP family (Go, TypeScript, the Rust port
/// `tmux-mcp`, ...) declares each tool's capability record, its toolset among them.
pub const CAPABILITY_META: &str = "com.git-pull.libtmux-mcp/capability";

/// The annotation keys MCP defines, with the JSON type each must have.
pub const ANNOTATIONS: [(&str, &str); 5] = [
    ("title", "string"),
    ("readOnlyHint", "boolean"),
    ("destructiveHint", "boolean"),
    ("idempotentHint", "boolean"),
    ("openWorldHint", "boolean"),
];

/// Whether `value` is of `kind`, a JSON type as [`ANNOTATIONS`] names it. Tool files and
/// documentation pages are checked by this one rule.
pub fn is_annotation_kind(value: &Value, kind: &str) -> bool {
    match kind {
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        _ => false,
    }
}

/// Loads every `*.json` file of `dir`, sorted by tool name.
///
/// # Errors
/// The first problem found, naming the file and the JSON pointer; also a duplicate
/// tool name or an unreadable folder.
pub fn load_dir(dir: &Path) -> Result<Vec<ToolFile>, ContractError> {
    let paths = json_files(dir)?;
    let mut tools = Vec::with_capacity(paths.len());
    for path in &paths {
        tools.push(load_file(path)?);
    }
    let mut seen = BTreeMap::new();
    for tool in &tools {
        if let Some(other) = seen.insert(tool.name.clone(), tool.path.clone()) {
            return Err(ContractError::new(
                &tool.path,
                "/name",
                format!("tool `{}` is also defined in {}", tool.name, other.display()),
            ));
        }
    }
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tools)
}

/// The `*.json` entries of `dir`, sorted: the files the build loads, so that every
/// other reader of a tool folder sees the same set. An entry that is not a readable
/// file is kept, to fail when it is read rather than be skipped.
///
/// # Errors
/// The folder cannot be read or listed.
pub fn json_files(dir: &Path) -> Result<Vec<PathBuf>, ContractError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| ContractError::new(dir, "", format!("cannot read the folder: {e}")))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| ContractError::new(dir, "", format!("cannot list the folder: {e}")))?;
        let path = entry.path();
        if path.extension().is_some_and(|ext| ext == "json") {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths)
}

/// Loads and checks one tool file.
///
/// # Errors
/// Unreadable file, invalid JSON (with line and column), a missing, unknown or
/// mistyped field, a name that does not match the file name, an unknown tier, or a
/// schema that is not valid JSON Schema.
pub fn load_file(path: &Path) -> Result<ToolFile, ContractError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ContractError::new(path, "", format!("cannot read the file: {e}")))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| ContractError::new(path, "", format!("not valid JSON: {e}")))?;
    check_tool_value(path, value)
}

/// Checks an already-parsed tool document; `path` is used for messages and the
/// file-name rule.
///
/// # Errors
/// As [`load_file`], minus the reading and parsing.
pub fn check_tool_value(path: &Path, value: Value) -> Result<ToolFile, ContractError> {
    let Value::Object(mut doc) = value else {
        return Err(ContractError::new(path, "", "a tool file must be a JSON object"));
    };
    for key in doc.keys() {
        if !FIELDS.iter().any(|(field, _)| field == key) {
            let known: Vec<&str> = FIELDS.iter().map(|(field, _)| *field).collect();
            return Err(ContractError::new(
                path,
                format!("/{}", pointer_token(key)),
                format!("unknown field; a tool file has only {}", known.join(", ")),
            ));
        }
    }
    for (field, required) in FIELDS {
        if required && !doc.contains_key(field) {
            return Err(ContractError::new(
                path,
                format!("/{field}"),
                format!("missing required field `{field}`"),
            ));
        }
    }
    let name = take_string(path, &mut doc, "name")?;
    check_tool_name(path, &name)?;
    let title = match doc.remove("title") {
        None => None,
        Some(Value::String(title)) => Some(title),
        Some(_) => return Err(ContractError::new(path, "/title", "must be a string")),
    };
    let description = take_string(path, &mut doc, "description")?;
    let tier_text = take_string(path, &mut doc, "tier")?;
    let tier = tier_text
        .parse::<Tier>()
        .map_err(|unknown| ContractError::new(path, "/tier", unknown.to_string()))?;
    let toolset = take_name::<Toolset>(path, &mut doc, "toolset")?;
    let class = take_name::<AccessClass>(path, &mut doc, "class")?;
    let handler = match doc.remove("handler") {
        None => None,
        Some(Value::String(module)) if is_module_path(&module) => Some(module),
        Some(_) => {
            return Err(ContractError::new(
                path,
                "/handler",
                "must be the path of a module of src/tools (snake_case names joined by `::`, like `observe::tree`)",
            ))
        }
    };
    let source = take_string(path, &mut doc, "source")?;
    let input_schema = take_schema(path, &mut doc, "inputSchema")?;
    let output_schema = match doc.contains_key("outputSchema") {
        true => Some(take_schema(path, &mut doc, "outputSchema")?),
        false => None,
    };
    let escalations = match doc.remove("escalations") {
        None => Vec::new(),
        Some(value) => crate::escalation::parse(path, &value, &input_schema, tier)?,
    };
    let facts = crate::facts::take(path, &mut doc, &input_schema, output_schema.as_ref())?;
    let annotations = doc.remove("annotations").unwrap_or(Value::Null);
    check_annotations(path, &annotations)?;
    let meta = take_meta(path, &mut doc)?;
    Ok(ToolFile {
        path: path.to_path_buf(),
        name,
        title,
        description,
        tier,
        toolset,
        class,
        handler,
        escalations,
        facts,
        source,
        input_schema,
        output_schema,
        annotations,
        meta,
    })
}

fn take_meta(path: &Path, doc: &mut Map<String, Value>) -> Result<Option<Map<String, Value>>, ContractError> {
    let object = match doc.remove("_meta") {
        None => return Ok(None),
        Some(Value::Object(object)) => object,
        Some(_) => return Err(ContractError::new(path, "/_meta", "must be an object")),
    };
    check_keys(
        path,
        "_meta",
        &object,
        &META_KEYS,
        "unknown _meta key; a tool file may carry",
    )?;
    Ok(Some(object))
}

/// An optional field holding one of the names `T` parses.
fn take_name<T: std::str::FromStr>(
    path: &Path,
    doc: &mut Map<String, Value>,
    field: &str,
) -> Result<Option<T>, ContractError>
where
    T::Err: std::fmt::Display,
{
    match doc.remove(field) {
        None => Ok(None),
        Some(Value::String(text)) => text
            .parse::<T>()
            .map(Some)
            .map_err(|e| ContractError::new(path, format!("/{field}"), e.to_string())),
        Some(_) => Err(ContractError::new(path, format!("/{field}"), "must be a string")),
    }
}

fn take_string(path: &Path, doc: &mut Map<String, Value>, field: &str) -> Result<String, ContractError> {
    match doc.remove(field) {
        Some(Value::String(text)) if !text.is_empty() => Ok(text),
        Some(Value::String(_)) => Err(ContractError::new(path, format!("/{field}"), "must not be empty")),
        _ => Err(ContractError::new(path, format!("/{field}"), "must be a string")),
    }
}

/// Whether `name` is a valid tool name: MCP tool names travel in JSON and in Rust
/// identifiers (and name files), so they are snake_case.
pub fn is_tool_name(name: &str) -> bool {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_lowercase());
    first_ok && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Whether `path` names a module under `src/tools`: snake_case names joined by `::`
/// (`run`, `observe::tree`), the group first.
pub fn is_module_path(path: &str) -> bool {
    path.split("::").all(is_tool_name)
}

fn check_tool_name(path: &Path, name: &str) -> Result<(), ContractError> {
    if !is_tool_name(name) {
        return Err(ContractError::new(
            path,
            "/name",
            format!("tool name `{name}` must match ^[a-z][a-z0-9_]*$"),
        ));
    }
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    if stem != name {
        return Err(ContractError::new(
            path,
            "/name",
            format!("tool `{name}` must live in a file named {name}.json"),
        ));
    }
    Ok(())
}

fn take_schema(path: &Path, doc: &mut Map<String, Value>, field: &str) -> Result<Value, ContractError> {
    let schema = doc.remove(field).unwrap_or(Value::Null);
    let pointer = format!("/{field}");
    let Value::Object(object) = &schema else {
        return Err(ContractError::new(path, pointer, "must be a JSON Schema object"));
    };
    if object.get("type") != Some(&Value::String("object".into())) {
        return Err(ContractError::new(
            path,
            format!("{pointer}/type"),
            "MCP requires a tool schema to describe an object: set \"type\": \"object\"",
        ));
    }
    if let Err(error) = jsonschema::meta::validate(&schema) {
        return Err(ContractError::new(
            path,
            format!("{pointer}{}", error.instance_path()),
            format!("not valid JSON Schema: {error}"),
        ));
    }
    crate::shape::check_supported(path, &pointer, &crate::shape::inlined(path, &pointer, &schema)?)?;
    Ok(schema)
}

fn check_annotations(path: &Path, annotations: &Value) -> Result<(), ContractError> {
    let Value::Object(object) = annotations else {
        return Err(ContractError::new(path, "/annotations", "must be an object"));
    };
    check_keys(
        path,
        "annotations",
        object,
        &ANNOTATIONS,
        "unknown annotation; MCP defines",
    )?;
    Ok(())
}

/// Checks that every key of `object` (the tool file's `field`) is one of `known`, with
/// the JSON type given there; `unknown` starts the message for another key.
fn check_keys(
    path: &Path,
    field: &str,
    object: &Map<String, Value>,
    known: &[(&str, &str)],
    unknown: &str,
) -> Result<(), ContractError> {
    for (key, value) in object {
        let pointer = format!("/{field}/{}", pointer_token(key));
        let Some((_, kind)) = known.iter().find(|(name, _)| name == key) else {
            let names: Vec<&str> = known.iter().map(|(name, _)| *name).collect();
            return Err(ContractError::new(
                path,
                pointer,
                format!("{unknown} {}", names.join(", ")),
            ));
        };
        if !is_annotation_kind(value, kind) {
            return Err(ContractError::new(path, pointer, format!("must be a {kind}")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_annotation_kind_accepts_its_type_and_nothing_else() {
        for (name, kind) in ANNOTATIONS {
            let fitting = if kind == "string" { json!("x") } else { json!(true) };
            let other = if kind == "string" { json!(true) } else { json!("true") };
            assert!(is_annotation_kind(&fitting, kind), "{name}");
            assert!(!is_annotation_kind(&other, kind), "{name}");
            assert!(!is_annotation_kind(&Value::Null, kind), "{name}");
        }
        assert!(
            !is_annotation_kind(&json!(1), "number"),
            "an unlisted kind accepts nothing"
        );
    }

    fn file_with_meta(meta: Value) -> Value {
        json!({
            "name": "list_things",
            "description": "Lists things.",
            "tier": "readonly",
            "source": "paneward",
            "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object"},
            "annotations": {},
            "_meta": meta
        })
    }

    #[test]
    fn meta_carries_only_known_keys_of_their_type() {
        let path = Path::new("schemas/tools/list_things.json");
        let tool = check_tool_value(path, file_with_meta(json!({"anthropic/alwaysLoad": true}))).unwrap();
        assert_eq!(tool.meta.unwrap()["anthropic/alwaysLoad"], true);
        let error = check_tool_value(path, file_with_meta(json!({"anthropic/alwaysload": true}))).unwrap_err();
        assert!(
            error.to_string().contains("/_meta/anthropic~1alwaysload")
                && error.to_string().contains("unknown _meta key"),
            "{error}"
        );
        let error = check_tool_value(path, file_with_meta(json!({"anthropic/alwaysLoad": "yes"}))).unwrap_err();
        assert!(error.to_string().contains("must be a boolean"), "{error}");
        let error = check_tool_value(path, file_with_meta(json!(true))).unwrap_err();
        assert!(error.to_string().contains("/_meta: must be an object"), "{error}");
    }

    #[test]
    fn the_tuple_items_of_a_draft_07_schema_are_checked_too() {
        // The 2020-12 metaschema refuses the array form of `items`; draft-07 allows it.
        let tool = json!({
            "name": "probe",
            "description": "A probe.",
            "tier": "readonly",
            "source": "paneward",
            "inputSchema": {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {"pair": {"type": "array", "items": [{"type": "string"}, {"not": {}}]}}
            },
            "outputSchema": {"type": "object"},
            "annotations": {}
        });
        let error = check_tool_value(Path::new("probe.json"), tool).unwrap_err();
        assert_eq!(
            error.to_string(),
            "probe.json at /inputSchema/properties/pair/items/1/not: not is not supported by the code generator"
        );
    }
}
