//! Shared shapes: objects that several tools return alike (a pane, a window), each
//! given one Rust type name in `schemas/shapes/<name>.json`.
//!
//! A shape file is `{"name": "Pane", "schema": {...}}`. When [`crate::naming`] titles a
//! tool's schema, every object sub-schema JSON-equal to a shape's schema is titled with
//! the shape's name (its parts with names derived from it), so typify emits one `Pane`
//! that every such tool uses. An object that differs in anything, a description
//! included, keeps its own positional name: a separate type, which the handler building
//! the shape's type then fails to compile against. The advertised files are untouched;
//! shapes only steer naming.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::case::pascal_case;
use crate::error::CodegenError;

/// One shape file.
#[derive(Debug, Clone)]
pub struct Shape {
    /// The Rust type name, PascalCase, matching the file name (`pane.json` → `Pane`).
    pub name: String,
    pub schema: Value,
    pub path: PathBuf,
}

/// `<schemas>/shapes` beside a `<schemas>/tools` or `<schemas>/profiles/<name>` folder,
/// when it exists.
pub fn beside(tools: &Path) -> Option<PathBuf> {
    let parent = tools.parent()?;
    let schemas = if parent.file_name().is_some_and(|name| name == "profiles") {
        parent.parent()?
    } else {
        parent
    };
    let shapes = schemas.join("shapes");
    shapes.is_dir().then_some(shapes)
}

/// Loads every `*.json` shape file of `dir`, sorted by name.
///
/// # Errors
/// A file is not a shape file: not JSON, unknown or missing keys, a name that is not
/// the PascalCase of its file name, a schema that is not an object schema, or two files
/// holding equal schemas.
pub fn load_dir(dir: &Path) -> Result<Vec<Shape>, CodegenError> {
    let mut shapes = Vec::new();
    for path in crate::load::json_files(dir)? {
        shapes.push(load_file(&path)?);
    }
    shapes.sort_by(|a, b| a.name.cmp(&b.name));
    let mut seen: BTreeMap<String, &Path> = BTreeMap::new();
    for shape in &shapes {
        if let Some(other) = seen.insert(shape.schema.to_string(), &shape.path) {
            return Err(CodegenError::new(
                &shape.path,
                "/schema",
                format!("the same schema as {}; keep one of the two files", other.display()),
            ));
        }
    }
    Ok(shapes)
}

fn load_file(path: &Path) -> Result<Shape, CodegenError> {
    let text = std::fs::read_to_string(path).map_err(|e| CodegenError::new(path, "", format!("cannot read: {e}")))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| CodegenError::new(path, "", format!("not valid JSON: {e}")))?;
    let Value::Object(mut object) = value else {
        return Err(CodegenError::new(
            path,
            "",
            "a shape file is a JSON object with `name` and `schema`",
        ));
    };
    if let Some(key) = object.keys().find(|key| !matches!(key.as_str(), "name" | "schema")) {
        return Err(CodegenError::new(
            path,
            format!("/{}", paneward_contract::pointer_token(key)),
            "unknown key; a shape file holds only `name` and `schema`",
        ));
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match object.remove("name") {
        Some(Value::String(name)) if name == pascal_case(&stem) => name,
        Some(_) => {
            return Err(CodegenError::new(
                path,
                "/name",
                format!("must be `{}`, the PascalCase of the file name", pascal_case(&stem)),
            ))
        }
        None => return Err(CodegenError::new(path, "", "`name` is missing")),
    };
    let schema = object
        .remove("schema")
        .ok_or_else(|| CodegenError::new(path, "", "`schema` is missing"))?;
    if schema.get("type") != Some(&Value::String("object".into()))
        || !schema.get("properties").is_some_and(Value::is_object)
    {
        return Err(CodegenError::new(
            path,
            "/schema",
            "must be an object schema with `properties`: only objects are shared by name",
        ));
    }
    Ok(Shape {
        name,
        schema,
        path: path.to_path_buf(),
    })
}
