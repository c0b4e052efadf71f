//! The resources and resource templates paneward serves, as declared in
//! `schemas/resources/*.json` and compiled in: what `resources/list` and
//! `resources/templates/list` advertise, unchanged, and the schema each read's content
//! (JSON) or `_meta` (text) must meet.

use std::sync::LazyLock;

use serde::Deserialize;
use serde_json::Value;

use crate::catalog::schema::{strict_copy, SchemaCheck};
use crate::resources::uri::Target;

use rmcp::model::{Resource, ResourceTemplate};

/// The declaration files, by name; a unit test checks this is the whole folder.
const FILES: [(&str, &str); 10] = [
    ("sessions", include_str!("../../schemas/resources/sessions.json")),
    ("session", include_str!("../../schemas/resources/session.json")),
    (
        "session_windows",
        include_str!("../../schemas/resources/session_windows.json"),
    ),
    ("window", include_str!("../../schemas/resources/window.json")),
    (
        "window_panes",
        include_str!("../../schemas/resources/window_panes.json"),
    ),
    ("pane", include_str!("../../schemas/resources/pane.json")),
    (
        "pane_content",
        include_str!("../../schemas/resources/pane_content.json"),
    ),
    (
        "capabilities",
        include_str!("../../schemas/resources/capabilities.json"),
    ),
    ("job", include_str!("../../schemas/resources/job.json")),
    ("attention", include_str!("../../schemas/resources/attention.json")),
];

/// One declaration file.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Declared {
    pub name: String,
    pub title: String,
    pub description: String,
    /// A fixed resource's URI; a template has `uri_template` instead.
    pub uri: Option<String>,
    pub uri_template: Option<String>,
    pub mime_type: String,
    /// The tools that read the same thing (paneward's own field, never advertised): the
    /// resource is served only while one of them is, so narrowing the tools narrows the
    /// resources. Empty for a resource that reads nothing a tool guards (the surface).
    pub served_with: Vec<String>,
    /// The JSON schema of the content, for JSON resources.
    pub content_schema: Option<Value>,
    /// The JSON schema of `_meta["paneward/text"]`, for text resources.
    pub meta_schema: Option<Value>,
}

static DECLARED: LazyLock<Result<Vec<Declared>, String>> = LazyLock::new(load);

/// Every declaration, in file order, read once.
///
/// # Errors
/// A file that does not parse or lacks a URI (a build fault).
pub fn all() -> Result<&'static [Declared], String> {
    DECLARED.as_deref().map_err(Clone::clone)
}

/// The declaration file that describes `target`.
pub fn name_of(target: Target) -> &'static str {
    match target {
        Target::Sessions => "sessions",
        Target::Session(_) => "session",
        Target::SessionWindows(_) => "session_windows",
        Target::Window(_) => "window",
        Target::WindowPanes(_) => "window_panes",
        Target::Pane(_) => "pane",
        Target::PaneContent(_) => "pane_content",
        Target::Job(_) => "job",
        Target::Attention => "attention",
    }
}

impl Declared {
    /// Whether this resource is served, `serves` saying whether a tool is.
    pub fn served(&self, serves: impl Fn(&str) -> bool) -> bool {
        self.served_with.is_empty() || self.served_with.iter().any(|tool| serves(tool))
    }
}

/// The declaration of `target`.
///
/// # Errors
/// As [`all`].
pub fn of(target: Target) -> Result<&'static Declared, String> {
    let name = name_of(target);
    all()?
        .iter()
        .find(|d| d.name == name)
        .ok_or_else(|| format!("schemas/resources/{name}.json is not compiled in"))
}

/// Checks what a read of `target` produced against its declared schema (the content's,
/// or the text's `_meta`): the problems found, empty when it holds.
///
/// # Errors
/// As [`all`], or a schema that does not compile.
pub fn problems(target: Target, instance: &Value) -> Result<Vec<(String, String)>, String> {
    let declared = of(target)?;
    let schema = declared
        .content_schema
        .as_ref()
        .or(declared.meta_schema.as_ref())
        .cloned()
        .unwrap_or(Value::Bool(true));
    // Declared open, as replies are; checked closed (see strict_copy).
    Ok(SchemaCheck::new(strict_copy(&schema))?.problems(instance))
}

fn load() -> Result<Vec<Declared>, String> {
    FILES
        .iter()
        .map(|(name, text)| {
            let declared: Declared =
                serde_json::from_str(text).map_err(|e| format!("schemas/resources/{name}.json: {e}"))?;
            if declared.name != *name || declared.uri.is_some() == declared.uri_template.is_some() {
                return Err(format!(
                    "schemas/resources/{name}.json: needs its file name as `name` and exactly one of `uri`, `uriTemplate`"
                ));
            }
            if let Some(unknown) = declared
                .served_with
                .iter()
                .find(|tool| !crate::generated::TOOLS.iter().any(|spec| spec.name == tool.as_str()))
            {
                return Err(format!("schemas/resources/{name}.json: servedWith names no tool {unknown:?}"));
            }
            Ok(declared)
        })
        .collect()
}

/// The fixed resources served, as `resources/list` advertises them.
pub fn resources(declared: &[Declared], serves: impl Fn(&str) -> bool) -> Vec<Resource> {
    declared
        .iter()
        .filter(|d| d.served(&serves))
        .filter_map(|d| {
            let uri = d.uri.as_ref()?;
            Some(
                Resource::new(uri.clone(), d.name.clone())
                    .with_title(d.title.clone())
                    .with_description(d.description.clone())
                    .with_mime_type(d.mime_type.clone()),
            )
        })
        .collect()
}

/// The templates served, as `resources/templates/list` advertises them.
pub fn templates(declared: &[Declared], serves: impl Fn(&str) -> bool) -> Vec<ResourceTemplate> {
    declared
        .iter()
        .filter(|d| d.served(&serves))
        .filter_map(|d| {
            let template = d.uri_template.as_ref()?;
            Some(
                ResourceTemplate::new(template.clone(), d.name.clone())
                    .with_title(d.title.clone())
                    .with_description(d.description.clone())
                    .with_mime_type(d.mime_type.clone()),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_in_the_folder_is_compiled_in_and_loads() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/resources");
        let mut on_disk: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut compiled: Vec<String> = FILES.iter().map(|(name, _)| (*name).to_string()).collect();
        compiled.sort();
        assert_eq!(on_disk, compiled);
        let declared = all().unwrap();
        for d in declared {
            let schema = d.content_schema.as_ref().or(d.meta_schema.as_ref()).unwrap();
            jsonschema::validator_for(schema).unwrap();
            assert_eq!(
                d.content_schema.is_some(),
                d.mime_type == "application/json",
                "{}",
                d.name
            );
        }
        let every = |_: &str| true;
        assert_eq!(
            resources(declared, every).len() + templates(declared, every).len(),
            FILES.len()
        );
        // With no tool served, only what reads nothing a tool guards is left.
        let none = |_: &str| false;
        let left: Vec<String> = resources(declared, none).into_iter().map(|r| r.uri.clone()).collect();
        assert_eq!(left, ["tmux://capabilities"]);
        assert!(templates(declared, none).is_empty());
    }
}
