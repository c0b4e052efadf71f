//! The layers of `docs/architecture.md`, checked over the source: every `crate::` path
//! in `src/` names its own layer or one below it, and the request path names no tool
//! module (it reaches handlers only through the generated dispatch). Same-layer imports
//! are allowed but may not form a cycle between modules. A failure names the file, the
//! line and the rule, so the fix is to move the type down (or the code up), not to
//! widen the table.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::support::root;

/// The layers, bottom first, each with the module paths it holds (the longest prefix
/// decides). Keep in step with `docs/architecture.md`.
const LAYERS: &[(&str, &[&str])] = &[
    ("limits", &["limits"]),
    // The runtime the generated code and handlers name, with the generated types and
    // tool table (its dispatch function sits higher, below).
    ("runtime", &["runtime", "generated"]),
    ("tmux", &["tmux"]),
    ("catalogue and settings", &["catalog", "config", "audit"]),
    ("guard", &["guard"]),
    ("tools", &["tools"]),
    ("generated dispatch", &["generated::dispatch"]),
    ("prompts and resources", &["prompts", "resources"]),
    ("state", &["app"]),
    ("request path", &["call"]),
    ("transports", &["mcp", "fault"]),
    ("commands", &["cli", "conform", "main"]),
];

/// Imports that point down but skip a layer they must go through.
const FORBIDDEN: &[(&str, &str, &str)] = &[(
    "call",
    "tools",
    "the request path reaches handlers only through the generated dispatch",
)];

/// Where `module` (a path without `crate::`) sits: the layer's index and the prefix
/// that matched, which is also the unit cycles are counted between.
fn place(module: &str) -> Option<(usize, &'static str)> {
    let mut best: Option<(usize, &'static str)> = None;
    for (index, (_, prefixes)) in LAYERS.iter().enumerate() {
        for prefix in prefixes.iter().copied() {
            let matches = module == prefix || module.starts_with(&format!("{prefix}::"));
            if matches && best.is_none_or(|(_, found)| prefix.len() > found.len()) {
                best = Some((index, prefix));
            }
        }
    }
    best
}

/// The module path of a source file: `src/tools/observe/tree.rs` is `tools::observe::tree`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    parts.join("::")
}

fn rust_files(folder: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

/// The module each `crate::` path of `line` names (lower-case segments only: a type or
/// function name ends the module path), comments left out.
fn named_modules(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `paneward_crate::`, not ours
        }
        let segments: Vec<&str> = rest
            .split("::")
            .map(|segment| {
                let end = segment
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(segment.len());
                &segment[..end]
            })
            .take_while(|segment| segment.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
            .collect();
        // `crate::generated::dispatch(...)` names the dispatch; the rest of `generated`
        // (types, the table) is the runtime's.
        found.push(segments.join("::"));
    }
    found
}

struct Import {
    file: String,
    line: usize,
    from: (usize, &'static str),
    to: (usize, &'static str),
}

fn imports() -> Vec<Import> {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut imports = Vec::new();
    for file in files {
        let module = module_of(&src, &file);
        if module == "lib" {
            continue; // declares the modules; names none of them by path
        }
        let from = place(&module).unwrap_or_else(|| panic!("{}: in no layer of LAYERS", file.display()));
        let text = std::fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            for named in named_modules(line) {
                if named.is_empty() {
                    continue; // a crate-root item (`crate::CLIENT_LOG_TARGET`): anyone may name it
                }
                let to = place(&named)
                    .unwrap_or_else(|| panic!("{}:{}: crate::{named} is in no layer", file.display(), number + 1));
                imports.push(Import {
                    file: file.strip_prefix(root()).unwrap().display().to_string(),
                    line: number + 1,
                    from,
                    to,
                });
            }
        }
    }
    imports
}

#[test]
fn every_import_points_to_its_own_layer_or_below() {
    let problems: Vec<String> = imports()
        .iter()
        .filter(|import| import.to.0 > import.from.0)
        .map(|import| {
            format!(
                "{}:{}: {} ({}) names {} ({}), a higher layer",
                import.file, import.line, import.from.1, LAYERS[import.from.0].0, import.to.1, LAYERS[import.to.0].0
            )
        })
        .collect();
    assert!(problems.is_empty(), "upward imports:\n{}", problems.join("\n"));
}

#[test]
fn no_layer_is_skipped_where_the_design_forbids_it() {
    let problems: Vec<String> = imports()
        .iter()
        .filter_map(|import| {
            FORBIDDEN
                .iter()
                .find(|(from, to, _)| import.from.1 == *from && import.to.1 == *to)
                .map(|(from, to, why)| format!("{}:{}: {from} names {to}: {why}", import.file, import.line))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn modules_of_one_layer_import_each_other_without_a_cycle() {
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for import in imports() {
        if import.from.1 != import.to.1 {
            edges.entry(import.from.1).or_default().insert(import.to.1);
        }
    }
    // A cycle is a path back to where it started; every unit is tried as a start.
    for start in edges.keys().copied() {
        let mut path = vec![start];
        let mut seen = BTreeSet::new();
        if let Some(cycle) = cycle_from(start, start, &edges, &mut path, &mut seen) {
            panic!("import cycle: {}", cycle.join(" -> "));
        }
    }
}

fn cycle_from<'a>(
    start: &'a str,
    at: &'a str,
    edges: &BTreeMap<&'a str, BTreeSet<&'a str>>,
    path: &mut Vec<&'a str>,
    seen: &mut BTreeSet<&'a str>,
) -> Option<Vec<&'a str>> {
    for next in edges.get(at).into_iter().flatten().copied() {
        if next == start {
            let mut cycle = path.clone();
            cycle.push(start);
            return Some(cycle);
        }
        if seen.insert(next) {
            path.push(next);
            if let Some(cycle) = cycle_from(start, next, edges, path, seen) {
                return Some(cycle);
            }
            path.pop();
        }
    }
    None
}

#[test]
fn every_layer_of_the_table_is_written_down() {
    let text = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    for (name, _) in LAYERS {
        assert!(
            text.contains(name),
            "docs/architecture.md does not name the layer `{name}`"
        );
    }
}
