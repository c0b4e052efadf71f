//! `import`: turning upstream contracts into tool files in `schemas/`.
//!
//! Nothing is written until everything is known to be good: every source is read, every
//! resulting file passes the checks `build.rs` applies (and the whole folder still
//! generates), and only then are the changed files written, each atomically.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::diff::{self, Change};
use crate::error::CodegenError;
use crate::load::{self, Tier, ToolFile};
use crate::source::{self, json, server, ContractTool};

/// Where to import from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A documentation page or a JSON file.
    File(PathBuf),
    /// A server started with this command line, read over stdio.
    Server(Vec<String>),
}

/// How to import.
#[derive(Debug, Clone)]
pub struct Options {
    /// The `schemas` folder (holding `tools/` and `profiles/`).
    pub schemas: PathBuf,
    /// Write into `schemas/profiles/<profile>/` instead of `schemas/tools/`.
    pub profile: Option<String>,
    /// The tier of tools that have no file yet.
    pub tier: Option<Tier>,
    /// The source URL of tools whose own source names none.
    pub source: Option<String>,
    /// The handler module of tools that have no file yet.
    pub handler: Option<String>,
    /// The toolset and access class of tools that have no file yet.
    pub toolset: Option<String>,
    pub class: Option<String>,
    /// The facts of tools that have no file yet (`reaches`, `paneText`, `batch`,
    /// `dryRun`; `paneward_contract::facts`), as a tool file writes them.
    pub facts: Map<String, Value>,
    /// Where to keep what a server listed (`--save`), so the import can be repeated
    /// from the file.
    pub save: Option<PathBuf>,
    /// Report what would change, write nothing.
    pub dry_run: bool,
}

impl Options {
    /// Default options for the `schemas` folder at `schemas`.
    pub fn new(schemas: impl Into<PathBuf>) -> Self {
        Self {
            schemas: schemas.into(),
            profile: None,
            tier: None,
            source: None,
            handler: None,
            toolset: None,
            class: None,
            facts: Map::new(),
            save: None,
            dry_run: false,
        }
    }
}

/// One tool file to write.
#[derive(Debug)]
pub struct Planned {
    pub path: PathBuf,
    pub tool: ToolFile,
    /// The canonical text to write.
    pub text: String,
    /// Whether the file differs from what is there now (or is new).
    pub changed: bool,
    /// The contract changes against the file there now.
    pub changes: Vec<Change>,
}

/// What an import did.
#[derive(Debug, Default)]
pub struct Outcome {
    pub planned: Vec<Planned>,
    /// Things the maintainer should know: kept fields, ignored fields, files the server
    /// no longer offers.
    pub notes: Vec<String>,
}

impl Outcome {
    /// Every contract change, sorted.
    pub fn changes(&self) -> Vec<Change> {
        let mut all: Vec<Change> = self.planned.iter().flat_map(|p| p.changes.iter().cloned()).collect();
        all.sort();
        all
    }
}

/// Imports `sources` into the schemas folder of `options`.
///
/// # Errors
/// A source cannot be read or is malformed, a tool is new and has no tier or source,
/// a resulting file fails the checks of `build.rs`, or a write fails. Nothing is
/// written unless every file passed.
pub fn import(sources: &[Source], options: &Options) -> Result<Outcome, CodegenError> {
    let outcome = plan(sources, options)?;
    if !options.dry_run {
        for planned in outcome.planned.iter().filter(|p| p.changed) {
            crate::canonical::write_atomically(&planned.path, &planned.text)?;
        }
    }
    Ok(outcome)
}

/// Reads, checks and renders everything `import` would write, without writing.
///
/// # Errors
/// As [`import`], except the writes.
pub fn plan(sources: &[Source], options: &Options) -> Result<Outcome, CodegenError> {
    if !options.schemas.is_dir() {
        return Err(CodegenError::new(
            &options.schemas,
            "",
            "no schemas folder here: run from the repository root or pass --schemas DIR",
        ));
    }
    let dir = target_dir(options)?;
    let mut tools = Vec::new();
    let mut listed_by_server = false;
    for source in sources {
        match source {
            Source::File(path) => tools.extend(source::read_file(path)?),
            Source::Server(command) => {
                let save = options.save.as_deref().filter(|_| !options.dry_run);
                tools.extend(server::list_tools(command, save)?);
                listed_by_server = true;
            }
        }
    }
    if tools.is_empty() {
        return Err(CodegenError::new(&dir, "", "the sources hold no tools"));
    }
    let contract = source::collect(tools)?;
    let mut outcome = Outcome::default();
    for tool in contract.values() {
        outcome
            .planned
            .push(plan_tool(tool, &dir, options, &mut outcome.notes)?);
    }
    check_generation(&dir, &outcome.planned)?;
    if listed_by_server {
        for path in load::json_files(&dir).unwrap_or_default() {
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !contract.contains_key(&stem) {
                outcome.notes.push(format!(
                    "{}: the server does not offer `{stem}`; the file is left as it is",
                    path.display()
                ));
            }
        }
    }
    Ok(outcome)
}

fn target_dir(options: &Options) -> Result<PathBuf, CodegenError> {
    let Some(profile) = &options.profile else {
        return Ok(options.schemas.join("tools"));
    };
    let mut chars = profile.chars();
    let ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if !ok {
        return Err(CodegenError::new(
            &options.schemas.join("profiles"),
            "",
            format!("profile name `{profile}` must match ^[a-z0-9][a-z0-9_-]*$"),
        ));
    }
    Ok(options.schemas.join("profiles").join(profile))
}

/// The existing file at `path`, read leniently: only to keep its tier and source and to
/// compare against, so it need not pass every check.
fn existing(path: &Path) -> Result<Option<(String, ContractTool)>, CodegenError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CodegenError::new(path, "", format!("cannot read the file: {e}"))),
    };
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        CodegenError::new(
            path,
            "",
            format!("the existing file is not valid JSON ({e}): fix or delete it before importing over it"),
        )
    })?;
    Ok(Some((text, json::tool_at(path, "", &value)?)))
}

fn plan_tool(
    tool: &ContractTool,
    dir: &Path,
    options: &Options,
    notes: &mut Vec<String>,
) -> Result<Planned, CodegenError> {
    let name = &tool.name;
    if !load::is_tool_name(name) {
        return Err(tool.origin.error(
            "/name",
            format!("tool name `{name}` must match ^[a-z][a-z0-9_]*$ to become a file in schemas/"),
        ));
    }
    let path = dir.join(format!("{name}.json"));
    let old = existing(&path)?;
    let old_tool = old.as_ref().map(|(_, tool)| tool);
    let description = tool.description.clone().ok_or_else(|| {
        tool.origin
            .error("", format!("tool `{name}` has no description; a tool file needs one"))
    })?;
    // A profile mirrors its upstream, which may declare a tool's reply as text alone;
    // paneward's own tools always declare their replies.
    let output_schema = match (&tool.output_schema, &options.profile) {
        (Some(schema), _) => Some(schema.clone()),
        (None, Some(_)) => None,
        (None, None) => {
            return Err(tool.origin.error(
                "",
                format!(
                    "tool `{name}` has no outputSchema; a tool file needs one (paneward checks every reply against it)"
                ),
            ))
        }
    };
    let tier = resolve_tier(tool, old_tool, &path, options, notes)?;
    let source_url = tool
        .source
        .clone()
        .or_else(|| options.source.clone())
        .or_else(|| old_tool.and_then(|t| t.source.clone()))
        .ok_or_else(|| {
            tool.origin.error(
                "",
                format!("tool `{name}` is new and its source names no upstream page: pass --source URL (or --source paneward)"),
            )
        })?;
    if !tool.ignored.is_empty() {
        notes.push(format!(
            "{}: `{name}`: a tool file cannot hold {}; not imported",
            tool.origin.file.display(),
            tool.ignored.join(", ")
        ));
    }
    let mut document = Map::new();
    document.insert("name".into(), Value::String(name.clone()));
    if let Some(title) = &tool.title {
        document.insert("title".into(), Value::String(title.clone()));
    }
    document.insert("description".into(), Value::String(description));
    document.insert("tier".into(), Value::String(tier.as_str().into()));
    // The toolset and class are paneward's own, like the tier: an existing file keeps
    // them; a new tool takes --toolset and --class, its source's, or (in a profile) the
    // default tool's of that name.
    // In a profile the upstream's own declaration (a toolset tag) and then the default
    // tool's come before the options, which fill in for tools paneward has no tool of.
    let default_tool = profile_default(tool, options);
    let in_profile = options.profile.is_some();
    let own = |kept: Option<String>, option: &Option<String>, upstream: Option<String>, default: Option<String>| {
        let option = option.clone();
        if in_profile {
            kept.or(upstream).or(default).or(option)
        } else {
            kept.or(option).or(upstream).or(default)
        }
    };
    for (key, kept) in [
        (
            "toolset",
            own(
                old_tool.and_then(|t| t.toolset.clone()),
                &options.toolset,
                tool.toolset.clone(),
                default_tool.as_ref().and_then(|t| t.toolset.clone()),
            ),
        ),
        (
            "class",
            own(
                old_tool.and_then(|t| t.class.clone()),
                &options.class,
                tool.class.clone(),
                default_tool.as_ref().and_then(|t| t.class.clone()),
            ),
        ),
    ] {
        if let Some(kept) = kept {
            document.insert(key.into(), Value::String(kept));
        }
    }
    // The handler module is paneward's own, like the tier: an existing file keeps its.
    // A profile's tool is handled in `<profile>::<group>`, the group of the default
    // tool of its name (`observe::tree` → `python::observe`).
    let profile_handler = options.profile.as_ref().and_then(|profile| {
        let group = default_tool
            .as_ref()?
            .handler
            .as_deref()?
            .split("::")
            .next()?
            .to_string();
        Some(format!("{profile}::{group}"))
    });
    if let Some(handler) = own(
        old_tool.and_then(|t| t.handler.clone()),
        &options.handler,
        tool.handler.clone(),
        profile_handler,
    ) {
        document.insert("handler".into(), Value::String(handler));
    }
    // Escalations are paneward's too: an existing file keeps its, checked against the
    // imported inputSchema below.
    if let Some(escalations) = old_tool
        .and_then(|t| t.escalations.clone())
        .or_else(|| tool.escalations.clone())
    {
        document.insert("escalations".into(), escalations);
    }
    // The facts are paneward's too: an existing file keeps its (checked against the
    // imported schemas below); a new tool takes --facts or its source's. A profile's
    // new tool is served through paneward's handler of its name, so it reaches what
    // that tool reaches; its other facts (pane text, batches, dry runs) belong to
    // paneward's own batches and stay there.
    let stated = |facts: &Map<String, Value>| (!facts.is_empty()).then(|| facts.clone());
    let default_reaches = default_tool
        .as_ref()
        .and_then(|t| t.facts.get("reaches"))
        .map(|reaches| Map::from_iter([("reaches".to_string(), reaches.clone())]));
    let kept = old_tool.and_then(|t| stated(&t.facts));
    let facts = if in_profile {
        kept.or_else(|| stated(&tool.facts))
            .or(default_reaches)
            .or_else(|| stated(&options.facts))
    } else {
        kept.or_else(|| stated(&options.facts)).or_else(|| stated(&tool.facts))
    };
    document.extend(facts.unwrap_or_default());
    document.insert("source".into(), Value::String(source_url));
    document.insert("inputSchema".into(), tool.input_schema.clone());
    if let Some(output_schema) = output_schema {
        document.insert("outputSchema".into(), output_schema);
    }
    document.insert("annotations".into(), tool.annotations.clone());
    // `_meta` is paneward's choice too: an existing file keeps its; from a source, only
    // the keys a tool file may carry come in.
    // In a profile `_meta` is the upstream's, like its schemas: it is what it serves.
    let meta = match old_tool.and_then(|t| t.meta.clone()).filter(|_| !in_profile) {
        Some(kept) => Some(kept),
        None => known_meta(tool, notes),
    };
    if let Some(meta) = meta {
        document.insert("_meta".into(), meta);
    }
    let checked = load::check_tool_value(&path, Value::Object(document)).map_err(|e| {
        tool.origin
            .error(&e.pointer, format!("{} (checked as {})", e.message, path.display()))
    })?;
    let text = crate::canonical::render(&checked);
    let changed = old.as_ref().is_none_or(|(previous, _)| *previous != text);
    let changes = diff::diff_tool(old_tool, &ContractTool::from_tool_file(&checked));
    Ok(Planned {
        path,
        tool: checked,
        text,
        changed,
        changes,
    })
}

/// In a profile, the default tool file of the same name, read leniently.
fn profile_default(tool: &ContractTool, options: &Options) -> Option<ContractTool> {
    options.profile.as_ref()?;
    let default = options.schemas.join("tools").join(format!("{}.json", tool.name));
    existing(&default).ok().flatten().map(|(_, t)| t)
}

/// The tier is paneward's own decision, never read from annotations: an existing file
/// keeps its tier; a new tool takes `--tier`, the tier of a paneward tool file it was
/// imported from, or (in a profile) the tier of the default tool of that name.
fn resolve_tier(
    tool: &ContractTool,
    old: Option<&ContractTool>,
    path: &Path,
    options: &Options,
    notes: &mut Vec<String>,
) -> Result<Tier, CodegenError> {
    if let Some(kept) = old.and_then(|old| old.tier) {
        if let Some(asked) = options.tier.filter(|asked| *asked != kept) {
            notes.push(format!(
                "{}: kept tier {} (--tier {} applies to new tools only; edit the file to change it)",
                path.display(),
                kept.as_str(),
                asked.as_str()
            ));
        }
        return Ok(kept);
    }
    if let Some(tier) = tool.tier.or(options.tier.filter(|_| options.profile.is_none())) {
        return Ok(tier);
    }
    if options.profile.is_some() {
        let default = options.schemas.join("tools").join(format!("{}.json", tool.name));
        if let Some(tier) = existing(&default).ok().flatten().and_then(|(_, t)| t.tier) {
            notes.push(format!(
                "{}: tier {} taken from {}",
                path.display(),
                tier.as_str(),
                default.display()
            ));
            return Ok(tier);
        }
        if let Some(tier) = options.tier {
            return Ok(tier);
        }
    }
    Err(tool.origin.error(
        "",
        format!(
            "tool `{}` is new: pass --tier {} (paneward decides tiers; annotations do not)",
            tool.name,
            Tier::NAMES.join("|")
        ),
    ))
}

/// Runs the generator over the folder as it would be after the import, so an import
/// never leaves a contract that `build.rs` refuses (a type-name clash across files).
fn check_generation(dir: &Path, planned: &[Planned]) -> Result<(), CodegenError> {
    let tools = planned.iter().map(|p| p.tool.clone()).collect();
    crate::generate::generate_folder(dir, tools)
        .map(|_| ())
        .map_err(|mut e| {
            e.message = format!("{} (the build would fail after this import)", e.message);
            e
        })
}

/// The keys of `tool`'s `_meta` that a tool file may carry (noting the others as not
/// imported), or `None` when none is left.
fn known_meta(tool: &ContractTool, notes: &mut Vec<String>) -> Option<Value> {
    let Value::Object(meta) = tool.meta.as_ref()? else {
        return None;
    };
    let (known, unknown): (Map<String, Value>, Map<String, Value>) = meta
        .iter()
        .map(|(key, value)| (key.clone(), value.clone()))
        .partition(|(key, _)| paneward_contract::load::META_KEYS.iter().any(|(name, _)| name == key));
    if !unknown.is_empty() {
        let keys: Vec<&str> = unknown.keys().map(String::as_str).collect();
        notes.push(format!(
            "{}: `{}`: _meta keys a tool file cannot hold: {}; not imported",
            tool.origin.file.display(),
            tool.name,
            keys.join(", ")
        ));
    }
    (!known.is_empty()).then_some(Value::Object(known))
}
