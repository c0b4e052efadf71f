//! The layers of `docs/architecture.md`, checked over the source: every `crate::` path
//! in `src/` names its own layer or one below it, and the request path names no tool
//! module (it reaches handlers only through the generated dispatch). Same-layer imports
//! are allowed but may not form a cycle between modules. Below the layers, every folder
//! of every crate of the workspace is checked the same way: the files and subfolders
//! of one folder (`guard/gate.rs`, `tools/run/`) may import each other only without a
//! cycle, counting `crate::`, `super::` and `self::` paths alike. A failure names the
//! file, the line and the rule, so the fix is to move the type down (or the code up),
//! not to widen the table.
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

/// The source folders of the workspace's crates, each checked folder by folder.
const CRATE_SOURCES: [&str; 3] = ["src", "codegen/src", "contract/src"];

/// A module of one crate: its path segments (`["tools", "run"]` for
/// `src/tools/run/mod.rs`; empty for the crate root).
type Module = Vec<String>;

/// Every module of the crate whose source folder is `src`, with its file.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .into_iter()
        .map(|file| {
            let module = module_of(src, &file);
            let segments = match module.as_str() {
                "lib" | "main" => Vec::new(),
                _ => module.split("::").map(str::to_string).collect(),
            };
            (segments, file)
        })
        .collect()
}

/// `text` with its comments and the insides of its string and character literals
/// blanked (newlines kept): an intra-doc link or a message names a module without
/// importing it.
fn code_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while at < chars.len() {
        let rest = &chars[at..];
        if rest.starts_with(&['/', '/']) {
            while at < chars.len() && chars[at] != '\n' {
                out.push(' ');
                at += 1;
            }
        } else if rest.starts_with(&['/', '*']) {
            let mut depth = 0;
            while at < chars.len() {
                if chars[at..].starts_with(&['/', '*']) {
                    depth += 1;
                } else if chars[at..].starts_with(&['*', '/']) {
                    depth -= 1;
                    if depth == 0 {
                        out.push_str("  ");
                        at += 2;
                        break;
                    }
                }
                out.push(blank(chars[at]));
                at += 1;
            }
        } else if rest[0] == 'r'
            && rest.get(1).is_some_and(|c| *c == '#' || *c == '"')
            && !chars[..at]
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            let hashes = rest[1..].iter().take_while(|c| **c == '#').count();
            if rest.get(1 + hashes) != Some(&'"') {
                out.push(rest[0]);
                at += 1;
                continue;
            }
            at += 2 + hashes;
            out.push_str(&" ".repeat(2 + hashes));
            while at < chars.len() {
                let closes =
                    chars[at] == '"' && chars[at + 1..].iter().take(hashes).filter(|c| **c == '#').count() == hashes;
                if closes {
                    at += 1 + hashes;
                    out.push_str(&" ".repeat(1 + hashes));
                    break;
                }
                out.push(blank(chars[at]));
                at += 1;
            }
        } else if rest[0] == '"' {
            out.push(' ');
            at += 1;
            while at < chars.len() && chars[at] != '"' {
                if chars[at] == '\\' {
                    out.push(' ');
                    at += 1;
                }
                if at < chars.len() {
                    out.push(blank(chars[at]));
                    at += 1;
                }
            }
            out.push(' ');
            at += 1;
        } else if rest[0] == '\'' && (rest.get(2) == Some(&'\'') || rest.get(1) == Some(&'\\')) {
            // A character literal ('"', '\n'); a lifetime has no closing quote.
            let length = rest.iter().skip(1).position(|c| *c == '\'').map_or(1, |end| end + 2);
            out.push_str(&" ".repeat(length));
            at += length;
        } else {
            out.push(rest[0]);
            at += 1;
        }
    }
    out
}

/// The paths of a `use` tree (`super::{a::B, c}` is `super::a::B` and `super::c`),
/// spaces and renames dropped.
fn expand_use(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let tree = tree.trim();
    if let (Some(open), true) = (tree.find('{'), tree.ends_with('}')) {
        let prefix = tree[..open].replace(' ', "");
        let inner = &tree[open + 1..tree.len() - 1];
        let mut parts = Vec::new();
        let (mut depth, mut start) = (0usize, 0usize);
        for (at, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[start..at]);
                    start = at + 1;
                }
                _ => {}
            }
        }
        parts.push(&inner[start..]);
        return parts
            .into_iter()
            .filter(|part| !part.trim().is_empty())
            .flat_map(|part| expand_use(part).into_iter().map(|path| format!("{prefix}{path}")))
            .collect();
    }
    let path = tree.split(" as ").next().unwrap_or(tree);
    vec![path.replace(' ', "")]
}

/// Every module path a file's code names, with its line: `use` trees expanded, and
/// `crate::`, `super::` and `self::` paths written in the code.
fn paths_in(text: &str) -> Vec<(usize, String)> {
    let code = code_of(text);
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut paths = Vec::new();
    let mut outside_use = String::with_capacity(code.len());
    let mut rest = 0;
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut search = 0;
    while let Some(found) = code[search..].find("use ") {
        let at = search + found;
        search = at + 4;
        // A `use` item starts its line (after `pub`, `pub(crate)` and the like).
        let line_start = code[..at].rfind('\n').map_or(0, |newline| newline + 1);
        let lead = code[line_start..at].trim();
        if !(lead.is_empty() || lead.starts_with("pub")) || code[..at].chars().last().is_some_and(is_word) {
            continue;
        }
        let Some(end) = code[at..].find(';') else { break };
        for path in expand_use(&code[at + 4..at + end]) {
            paths.push((line_of(at), path));
        }
        // Keep the line count of what follows: the statement's newlines stay.
        outside_use.push_str(&code[rest..at]);
        outside_use.extend(code[at..at + end].chars().filter(|c| *c == '\n'));
        rest = at + end;
        search = rest;
    }
    outside_use.push_str(&code[rest..]);
    let line_of = |at: usize| outside_use[..at].matches('\n').count() + 1;
    for root in ["crate::", "super::", "self::"] {
        let mut search = 0;
        while let Some(found) = outside_use[search..].find(root) {
            let at = search + found;
            search = at + root.len();
            if outside_use[..at].chars().last().is_some_and(|c| is_word(c) || c == ':') {
                continue;
            }
            let end = outside_use[at..]
                .find(|c: char| !(is_word(c) || c == ':'))
                .map_or(outside_use.len(), |end| at + end);
            paths.push((line_of(at), outside_use[at..end].trim_end_matches(':').to_string()));
        }
    }
    paths
}

/// The module a path written in module `here` names: the longest module of the crate
/// it leads to (`super::gate::ChangeGate` in `guard::end` is `guard::gate`).
fn resolve(path: &str, here: &Module, modules: &BTreeMap<Module, PathBuf>) -> Option<Module> {
    let mut segments = path.split("::").peekable();
    let mut base: Module = match segments.peek().copied() {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        Some("super" | "self") => here.clone(),
        _ => return None,
    };
    while let Some(relative @ ("super" | "self")) = segments.peek().copied() {
        if relative == "super" {
            base.pop();
        }
        segments.next();
    }
    let mut at = base.clone();
    let mut best = base;
    for segment in segments {
        at.push(segment.to_string());
        if !modules.contains_key(&at) {
            break;
        }
        best = at.clone();
    }
    Some(best)
}

/// Imports between the parts of one folder: folder -> importing part -> imported part
/// -> where the first such import is written.
type FolderGraphs = BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>;

/// The import graph of every folder of every crate of the workspace.
fn folder_graphs() -> FolderGraphs {
    let mut graphs = FolderGraphs::new();
    for crate_source in CRATE_SOURCES {
        let src = root().join(crate_source);
        let modules = modules(&src);
        for (here, file) in &modules {
            let text = std::fs::read_to_string(file).unwrap();
            for (line, path) in paths_in(&text) {
                let Some(target) = resolve(&path, here, &modules) else {
                    continue;
                };
                let shared = here.iter().zip(&target).take_while(|(a, b)| a == b).count();
                // A folder's own file (mod.rs) and its parts may name each other: the
                // folder's face is not one of its parts.
                let (Some(from), Some(to)) = (here.get(shared), target.get(shared)) else {
                    continue;
                };
                let folder = std::iter::once(crate_source.to_string())
                    .chain(here[..shared].iter().cloned())
                    .collect::<Vec<_>>()
                    .join("/");
                let written = format!("{}:{line}", file.strip_prefix(root()).unwrap().display());
                graphs
                    .entry(folder)
                    .or_default()
                    .entry(from.clone())
                    .or_default()
                    .entry(to.clone())
                    .or_insert(written);
            }
        }
    }
    graphs
}

/// The parts of one folder's graph by height: a part imports only parts of lower
/// heights. `None` when the graph has a cycle.
fn heights(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Option<BTreeMap<&str, usize>> {
    let parts: BTreeSet<&str> = graph
        .iter()
        .flat_map(|(from, to)| std::iter::once(from.as_str()).chain(to.keys().map(String::as_str)))
        .collect();
    let mut heights = BTreeMap::new();
    // Each pass settles the parts whose imports are all settled.
    while heights.len() < parts.len() {
        let settled = heights.len();
        for part in &parts {
            if heights.contains_key(part) {
                continue;
            }
            let imports = graph
                .get(*part)
                .map(|to| to.keys().map(String::as_str).collect::<Vec<_>>());
            let below: Option<Vec<usize>> = imports
                .unwrap_or_default()
                .iter()
                .map(|imported| heights.get(imported).copied())
                .collect();
            if let Some(below) = below {
                heights.insert(*part, below.into_iter().max().map_or(0, |top| top + 1));
            }
        }
        if heights.len() == settled {
            return None;
        }
    }
    Some(heights)
}

/// Checks that no folder holds an import cycle between its files and subfolders, and
/// prints every folder's parts by height, lowest first (`cargo test --test it --
/// layers::no_folder --nocapture` shows the whole graph).
#[test]
fn no_folder_holds_an_import_cycle_between_its_files_and_subfolders() {
    let mut problems = Vec::new();
    for (folder, graph) in folder_graphs() {
        if let Some(heights) = heights(&graph) {
            let top = heights.values().copied().max().unwrap_or(0);
            let floors: Vec<String> = (0..=top)
                .map(|height| {
                    let parts: Vec<&str> = heights.iter().filter(|(_, h)| **h == height).map(|(p, _)| *p).collect();
                    parts.join(" ")
                })
                .collect();
            println!("{folder}: {}", floors.join(" < "));
            continue;
        }
        let links: BTreeMap<&str, BTreeSet<&str>> = graph
            .iter()
            .map(|(from, to)| (from.as_str(), to.keys().map(String::as_str).collect()))
            .collect();
        for start in links.keys().copied() {
            let mut path = vec![start];
            let mut seen = BTreeSet::new();
            if let Some(cycle) = cycle_from(start, start, &links, &mut path, &mut seen) {
                let steps: Vec<String> = cycle
                    .windows(2)
                    .map(|pair| format!("{} -> {} ({})", pair[0], pair[1], graph[pair[0]][pair[1]]))
                    .collect();
                problems.push(format!("{folder}: {}", steps.join(", ")));
                break;
            }
        }
    }
    assert!(
        problems.is_empty(),
        "import cycles between the parts of a folder:\n{}",
        problems.join("\n")
    );
}

#[test]
fn use_trees_and_relative_paths_are_read_as_modules() {
    let here: Module = vec!["guard".into(), "end".into()];
    let modules: BTreeMap<Module, PathBuf> = [
        vec![],
        vec!["guard"],
        vec!["guard", "end"],
        vec!["guard", "gate"],
        vec!["tmux"],
    ]
    .into_iter()
    .map(|module| (module.into_iter().map(String::from).collect(), PathBuf::new()))
    .collect();
    let text =
        "use super::{gate::{ChangeGate, ReadGate as R}, end};\n// use crate::tmux;\nfn f() { crate::tmux::run(); }\n";
    let found: Vec<(usize, Option<Module>)> = paths_in(text)
        .into_iter()
        .map(|(line, path)| (line, resolve(&path, &here, &modules)))
        .collect();
    let module = |parts: &[&str]| Some(parts.iter().map(|p| (*p).to_string()).collect::<Module>());
    assert_eq!(
        found,
        [
            (1, module(&["guard", "gate"])),
            (1, module(&["guard", "gate"])),
            (1, module(&["guard", "end"])),
            (3, module(&["tmux"])),
        ]
    );
}
