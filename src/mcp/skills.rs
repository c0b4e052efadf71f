//! MCP's Skills extension (`io.modelcontextprotocol/skills`, SEP-2640): paneward's
//! playbooks as Agent Skills. Each is a prompt file of `schemas/prompts/`, the one
//! place a recipe is written; `crate::prompts::skill` renders it as a `SKILL.md`,
//! served at `skill://<name>/SKILL.md` through `resources/read` and described by
//! `skills/list` and `skills/get` (with its digest and size).
//!
//! A skill is served only where every tool it names is served: its tier is within the
//! server's, and no tool it names was left out (`--tools`, `--toolsets`, the tier).
//! Under `--profile python` none is: the recipes name paneward's own tools.

use rmcp::model::{
    ErrorData, GetSkillResult, ReadResourceResult, ResourceContents, ServerCapabilities, Skill, SkillFrontmatter,
    SkillResource, SkillResources,
};

use crate::app::App;
use crate::catalog::profile::Profile;
use crate::prompts::skill::{skill_markdown, skill_name, words};
use crate::prompts::PromptSpec;

/// The URI scheme of skills.
const SCHEME: &str = "skill://";

/// The media type of a `SKILL.md`.
const MARKDOWN: &str = "text/markdown";

/// Whether this server offers skills: paneward's own contract, whose tools the
/// playbooks name.
pub fn offered(app: &App) -> bool {
    app.config.profile == Profile::Default
}

/// Declares the extension in `capabilities` (it rides on resources, which paneward
/// always serves). No directory reads: a skill is its one file.
pub fn declare(capabilities: &mut ServerCapabilities) {
    let declared = ServerCapabilities::builder().enable_skills().build();
    if let Some(extensions) = declared.extensions {
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .extend(extensions);
    }
}

/// The `SKILL.md` URI of `spec`.
pub fn uri(spec: &PromptSpec) -> String {
    format!("{SCHEME}{}/SKILL.md", skill_name(spec))
}

/// The tools of paneward's contract that `spec`'s playbook names.
pub fn tools_named(spec: &PromptSpec) -> Vec<&'static str> {
    let known = Profile::Default.table();
    let mut named: Vec<&'static str> = spec
        .message
        .iter()
        .flat_map(|line| words(line))
        .filter_map(|word| known.iter().find(|tool| tool.name == word).map(|tool| tool.name))
        .collect();
    named.sort_unstable();
    named.dedup();
    named
}

/// The playbooks this server serves as skills: see the module documentation.
pub fn served(app: &App) -> Vec<&PromptSpec> {
    if !offered(app) {
        return Vec::new();
    }
    let tier = app.config.safety;
    let serves = |tool: &str| app.catalog.listed(tier).any(|entry| entry.tool.name == tool);
    app.prompts
        .listed(tier)
        .filter(|spec| tools_named(spec).into_iter().all(serves))
        .collect()
}

fn skill_of(spec: &PromptSpec) -> Skill {
    let uri = uri(spec);
    let text = skill_markdown(spec);
    Skill::new(
        uri.clone(),
        SkillFrontmatter::new(skill_name(spec), spec.description.clone()),
        SkillResources::Files(vec![SkillResource::from_bytes(uri, text.as_bytes())]),
    )
}

/// `skills/list`: every served skill.
pub fn list(app: &App) -> Vec<Skill> {
    served(app).into_iter().map(skill_of).collect()
}

/// `skills/get`.
///
/// # Errors
/// -32602 for a URI that names no skill this server serves.
pub fn get(app: &App, uri: &str) -> Result<GetSkillResult, ErrorData> {
    find(app, uri).map(|spec| GetSkillResult::new(skill_of(spec)))
}

/// Whether `uri` is a skill's (`resources/read` hands those here).
pub fn is_skill_uri(uri: &str) -> bool {
    uri.starts_with(SCHEME)
}

/// `resources/read` of a skill's `SKILL.md`.
///
/// # Errors
/// -32602 (with the URI in `data`) for one this server does not serve.
pub fn read(app: &App, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let spec = find(app, uri)?;
    Ok(ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
        uri: uri.to_string(),
        mime_type: Some(MARKDOWN.to_string()),
        text: skill_markdown(spec),
        meta: None,
    }]))
}

fn find<'a>(app: &'a App, uri: &str) -> Result<&'a PromptSpec, ErrorData> {
    served(app)
        .into_iter()
        .find(|spec| self::uri(spec) == uri)
        .ok_or_else(|| {
            ErrorData::invalid_params(
                format!(
                    "/params/uri: {} is no skill this server serves; skills/list names them",
                    crate::runtime::error::echo(uri)
                ),
                Some(serde_json::json!({ "uri": uri })),
            )
        })
}
