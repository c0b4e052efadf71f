//! What the documents cite exists. `README.md`, `CONTRIBUTING.md` and every page of
//! `docs/` (the generated `docs/tools.md` too) point into the repository in five ways,
//! and each is checked against the files as they are now:
//!
//! - a path from the repository's root (`src/tmux/format.rs`, `tests/it/docs/`, with an
//!   optional `:LINE` or `#anchor`), in prose or code; a path that follows another
//!   word's `/` or `:` (a URL, `/home/me/src`) is not ours, so another repository's file
//!   is cited with its repository in front (`google-gemini/gemini-cli/docs/…`), and a
//!   placeholder is written with `<…>` or `*` (`snapshots/tools_list_<tier>.snap`);
//! - a relative link (`[safety](safety.md#asking-the-person)`), anchor included;
//! - a shorter `.rs` path in backticks (`guard/zoom.rs`, `tree.rs`): some source file's
//!   path ends with it;
//! - a Rust path in backticks (`tmux::format::literal`, `control::a_wedged_…`): the end
//!   of some module's path in `src/`, the tests or the other crates, or an item defined in
//!   such a module; `Type::member` when the type is one of ours; a path into a crate of
//!   `Cargo.lock` (`rmcp::…`) is another project's and not checked;
//! - a test's name in backticks (an identifier of five words or more, lower case): a
//!   function of the sources, and of the very file when it follows a cited `.rs` path
//!   (`` `tests/it/x.rs` (`a_test`, `another`) ``), as do shorter names in that position.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use regex::Regex;

use crate::support::root;

/// The folders at the repository's root a cited path may start with.
const ROOTS: &str = r"src|tests|schemas|scripts|docs|codegen|contract|bench|snapshots|\.ci";

/// The folders whose `.rs` files are the Rust sources a document may cite.
const SOURCE_FOLDERS: &[&str] = &["src", "tests", "codegen", "contract", "bench"];

/// One Rust source file: its path from the root, the module path it holds (and the
/// inline `mod`s in it), and its text.
struct Source {
    path: String,
    modules: Vec<Vec<String>>,
    text: String,
}

/// The Rust sources, with the generated code of `build.rs` as module `generated`.
struct Sources {
    files: Vec<Source>,
    /// The crates of `Cargo.lock` other than ours, with `std` and friends.
    external: BTreeSet<String>,
}

impl Sources {
    fn load() -> Sources {
        let mut files = Vec::new();
        for folder in SOURCE_FOLDERS {
            let mut paths = Vec::new();
            rust_files(&root().join(folder), &mut paths);
            for path in paths {
                let relative = path.strip_prefix(root()).unwrap().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&path).unwrap();
                files.push(Source::new(relative.clone(), module_of(&relative), text));
            }
        }
        let build = std::fs::read_to_string(root().join("build.rs")).unwrap();
        files.push(Source::new("build.rs".to_string(), Vec::new(), build));
        let generated = std::fs::read_to_string(concat!(env!("OUT_DIR"), "/tools.rs")).unwrap();
        files.push(Source::new(
            "(generated) tools.rs".to_string(),
            vec!["generated".to_string()],
            generated,
        ));
        let lock = std::fs::read_to_string(root().join("Cargo.lock")).unwrap();
        let mut external: BTreeSet<String> = lock
            .lines()
            .filter_map(|line| line.strip_prefix("name = \""))
            .map(|name| name.trim_end_matches('"').replace('-', "_"))
            .filter(|name| !name.starts_with("paneward"))
            .collect();
        external.extend(["std", "core", "alloc"].map(String::from));
        Sources { files, external }
    }

    fn file(&self, path: &str) -> Option<&Source> {
        self.files.iter().find(|file| file.path == path)
    }

    /// Whether `name` is a function anywhere in the sources.
    fn has_fn(&self, name: &str) -> bool {
        let pattern = Regex::new(&format!(r"\bfn\s+{name}\b")).unwrap();
        self.files
            .iter()
            .any(|file| file.text.contains(name) && pattern.is_match(&file.text))
    }

    /// What is wrong with a cited Rust path (`format::literal`, `crate::guard`,
    /// `TmuxServer::drop`), if anything.
    fn rust_path_problem(&self, cited: &str) -> Option<String> {
        let trimmed = cited.trim_end_matches("::");
        let trimmed = trimmed
            .strip_prefix("crate::")
            .or_else(|| trimmed.strip_prefix("paneward::"))
            .unwrap_or(trimmed);
        let segments: Vec<&str> = trimmed.split("::").collect();
        let (first, last) = (segments[0], segments[segments.len() - 1]);
        if self.external.contains(first) {
            return None;
        }
        if first.starts_with(char::is_uppercase) {
            return self.member_problem(first, &segments[1..]);
        }
        if !self.modules_ending(&segments).is_empty() {
            return None;
        }
        let parent = &segments[..segments.len() - 1];
        if !parent.is_empty() && self.modules_ending(parent).iter().any(|file| defines(&file.text, last)) {
            return None;
        }
        Some(format!("no module or item `{trimmed}` in the sources"))
    }

    /// The files holding a module whose path ends with `path`.
    fn modules_ending(&self, path: &[&str]) -> Vec<&Source> {
        self.files
            .iter()
            .filter(|file| file.modules.iter().any(|module| ends_with(module, path)))
            .collect()
    }

    /// `Type::member` of a type defined here: the member is defined where the type or
    /// one of its `impl`s is. A type defined elsewhere (`ServerHandler`) is not checked.
    fn member_problem(&self, type_name: &str, rest: &[&str]) -> Option<String> {
        let declared = Regex::new(&format!(r"\b(struct|enum|trait|type|union)\s+{type_name}\b")).unwrap();
        let implemented = Regex::new(&format!(r"\bimpl\b[^{{;]*\b{type_name}\b")).unwrap();
        let homes: Vec<&Source> = self
            .files
            .iter()
            .filter(|file| file.text.contains(type_name))
            .filter(|file| declared.is_match(&file.text) || implemented.is_match(&file.text))
            .collect();
        if !self.files.iter().any(|file| declared.is_match(&file.text)) {
            return None;
        }
        match rest {
            [member]
                if homes
                    .iter()
                    .any(|file| defines(&file.text, member) || has_field(&file.text, member)) =>
            {
                None
            }
            [member] => Some(format!("`{type_name}` has no `{member}`")),
            _ => None,
        }
    }
}

impl Source {
    fn new(path: String, module: Vec<String>, text: String) -> Source {
        let mut modules = vec![module.clone()];
        // Inline modules, nested by indentation (the sources are rustfmt's).
        let inline = Regex::new(r"^(\s*)(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*\{").unwrap();
        let mut open: Vec<(usize, String)> = Vec::new();
        for line in text.lines() {
            if let Some(found) = inline.captures(line) {
                let indent = found[1].len();
                open.retain(|(depth, _)| *depth < indent);
                open.push((indent, found[2].to_string()));
                let mut path = module.clone();
                path.extend(open.iter().map(|(_, name)| name.clone()));
                modules.push(path);
            }
        }
        Source { path, modules, text }
    }
}

/// The module path of a source file from the root: `src/tools/observe/tree.rs` is
/// `tools::observe::tree`, `tests/it/tmux/control.rs` is `tmux::control`, and a crate's
/// root (`lib.rs`, `main.rs`, a file of a crate's `tests/`) is its own crate.
fn module_of(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path.trim_end_matches(".rs").split('/').map(String::from).collect();
    let crate_root = match parts.as_slice() {
        [first, second, ..] if first == "tests" && second == "it" => 2,
        [first, ..] if first == "src" || first == "tests" => 1,
        [_, second, ..] if second == "src" || second == "tests" => 2,
        _ => 0,
    };
    parts.drain(..crate_root);
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

fn ends_with(module: &[String], path: &[&str]) -> bool {
    module.len() >= path.len()
        && module[module.len() - path.len()..]
            .iter()
            .zip(path)
            .all(|(a, b)| a == b)
}

/// Whether `text` defines or re-exports an item called `name`.
fn defines(text: &str, name: &str) -> bool {
    if !text.contains(name) {
        return false;
    }
    let item = format!(r"\b(fn|struct|enum|trait|type|union|const|static|mod|macro_rules!)\s+{name}\b");
    let reexport = format!(r"\bpub(\([a-z]+\))?\s+use\s[^;]*\b{name}\b");
    Regex::new(&item).unwrap().is_match(text) || Regex::new(&reexport).unwrap().is_match(text)
}

/// Whether `text` declares a struct field or enum variant called `name`.
fn has_field(text: &str, name: &str) -> bool {
    if !text.contains(name) {
        return false;
    }
    let field = format!(r"(?m)^\s*(pub(\([a-z]+\))?\s+)?{name}(\s*:|\s*[,({{]|\s*$)");
    Regex::new(&field).unwrap().is_match(text)
}

fn rust_files(folder: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if path.is_dir() && name != "node_modules" && !name.starts_with('.') {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

/// `text` with every fenced code block blanked out (line breaks kept, so offsets and
/// line numbers stay).
fn without_code_blocks(text: &str) -> String {
    let mut in_code = false;
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let fence = line.trim_start().starts_with("```");
        if fence || in_code {
            for c in line.chars() {
                match c {
                    '\n' => out.push(c),
                    _ => out.push_str(&" ".repeat(c.len_utf8())),
                }
            }
        } else {
            out.push_str(line);
        }
        in_code ^= fence;
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped,
/// spaces made `-`.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks), with GitHub's
/// `-1`, `-2` for repeats.
fn anchors(path: &Path) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut in_code = false;
    for line in std::fs::read_to_string(path).unwrap_or_default().lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        }
        let heading = line.trim_start_matches('#');
        if in_code || heading.len() == line.len() || !heading.starts_with(' ') {
            continue;
        }
        let anchor = anchor_of(heading);
        let mut unique = anchor.clone();
        let mut repeat = 0;
        while found.contains(&unique) {
            repeat += 1;
            unique = format!("{anchor}-{repeat}");
        }
        found.insert(unique);
    }
    found
}

/// What is wrong with `target` (a file or folder, relative to `base`) cited with an
/// optional `:LINE` or `#anchor`.
fn target_problem(base: &Path, target: &str, suffix: Option<&str>) -> Option<String> {
    let path = base.join(target);
    if !path.exists() {
        return Some(format!("{target} does not exist"));
    }
    if target.ends_with('/') && !path.is_dir() {
        return Some(format!("{target} is not a folder"));
    }
    match suffix {
        Some(line) if line.starts_with(':') => {
            let lines = std::fs::read_to_string(&path).unwrap_or_default().lines().count();
            let wanted: usize = line[1..].parse().unwrap();
            (wanted > lines).then(|| format!("{target} has {lines} lines, not {wanted}"))
        }
        Some(anchor) if anchor.starts_with('#') && target.ends_with(".md") => {
            (!anchors(&path).contains(&anchor[1..])).then(|| format!("{target} has no heading {anchor}"))
        }
        _ => None,
    }
}

/// Every problem with the citations of one document: `name` (its path from the root)
/// and its `text`.
fn problems_in(name: &str, text: &str, sources: &Sources) -> Vec<String> {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let document = root().join(name);
    let mut problems = Vec::new();
    let mut report = |offset: usize, problem: String| problems.push(format!("{name}:{}: {problem}", line_of(offset)));

    // Paths from the root. The character before must not continue a longer word or
    // path; the one after must not make it a placeholder.
    let rooted = Regex::new(&format!(
        r"(?:^|[^A-Za-z0-9_./~@:-])((?:{ROOTS})/[A-Za-z0-9_./-]*)(:[0-9]+|#[A-Za-z0-9_-]+)?"
    ))
    .unwrap();
    for found in rooted.captures_iter(text) {
        let whole = found.get(1).unwrap();
        let next = text[found.get(0).unwrap().end()..].chars().next();
        if matches!(next, Some('<' | '*' | '{' | '…')) {
            continue;
        }
        let target = whole.as_str().trim_end_matches('.');
        if let Some(problem) = target_problem(&root(), target, found.get(2).map(|m| m.as_str())) {
            report(whole.start(), problem);
        }
    }

    // Relative links, from the document's folder.
    let link = Regex::new(r"\]\(([^)\s#]*)(#[^)\s]*)?\)").unwrap();
    for found in link.captures_iter(text) {
        let target = &found[1];
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let suffix = found.get(2).map(|m| m.as_str());
        let problem = if target.is_empty() {
            suffix.and_then(|anchor| {
                target_problem(
                    document.parent().unwrap(),
                    document.file_name().unwrap().to_str().unwrap(),
                    Some(anchor),
                )
            })
        } else {
            target_problem(document.parent().unwrap(), target, suffix)
        };
        if let Some(problem) = problem {
            report(found.get(0).unwrap().start(), problem);
        }
    }

    // Backticked spans (which may run over a line break, not a blank line) outside
    // code blocks: shorter `.rs` paths, Rust paths, test names.
    let prose = without_code_blocks(text);
    let span = Regex::new(r"`([^`\n]+(?:\n[^`\n]+)*)`").unwrap();
    let short_rs = Regex::new(&format!(r"^(?:(?:{ROOTS})/)?([a-z0-9_/]+\.rs)(?::[0-9]+)?$")).unwrap();
    let rust_path =
        Regex::new(r"^(?:[a-z_][a-z0-9_]*|[A-Z][A-Za-z0-9]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+(?:::)?$").unwrap();
    let test_name = Regex::new(r"^[a-z0-9]+(?:_[a-z0-9]+){4,}$").unwrap();
    let after_file = Regex::new(r"^\s*[(:,]?\s*`([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)?)`").unwrap();
    let next_name =
        Regex::new(r"^(?:,\s*(?:and\s+)?|\s+and\s+)`([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)?)`").unwrap();
    let mut in_file: BTreeSet<usize> = BTreeSet::new();
    for found in span.captures_iter(&prose) {
        let whole = found.get(0).unwrap();
        let cited = &found[1];
        if let Some(rs) = short_rs.captures(cited) {
            let is_rooted = rs.get(0).unwrap().as_str() != &rs[1];
            if !is_rooted {
                let suffix = format!("/{}", &rs[1]);
                let found = |file: &Source| file.path == rs[1] || file.path.ends_with(&suffix);
                if !sources.files.iter().any(found) {
                    report(whole.start(), format!("no source file ends with {}", &rs[1]));
                }
            }
            // Names listed right after a cited source file are items of that file.
            let Some(file) = sources.file(cited.split(':').next().unwrap()) else {
                continue;
            };
            let mut rest = &prose[whole.end()..];
            let mut offset = whole.end();
            let mut pattern = &after_file;
            while let Some(name) = pattern.captures(rest) {
                let item = name.get(1).unwrap();
                let member = item.as_str().rsplit("::").next().unwrap();
                if !defines(&file.text, member) && !has_field(&file.text, member) {
                    report(offset + item.start(), format!("{} has no `{member}`", file.path));
                }
                in_file.insert(offset + item.start() - 1);
                let end = name.get(0).unwrap().end();
                offset += end;
                rest = &rest[end..];
                pattern = &next_name;
            }
        } else if in_file.contains(&whole.start()) {
            continue;
        } else if rust_path.is_match(cited) {
            if let Some(problem) = sources.rust_path_problem(cited) {
                report(whole.start(), problem);
            }
        } else if test_name.is_match(cited) && !sources.has_fn(cited) {
            report(whole.start(), format!("no function `{cited}` in the sources"));
        }
    }
    problems
}

#[test]
fn every_path_item_and_test_the_documents_cite_exists() {
    let sources = Sources::load();
    let mut problems = Vec::new();
    for document in super::documents() {
        let name = document.strip_prefix(root()).unwrap().to_string_lossy().into_owned();
        problems.extend(problems_in(
            &name,
            &std::fs::read_to_string(&document).unwrap(),
            &sources,
        ));
    }
    assert!(
        problems.is_empty(),
        "{} citations name nothing that exists (moved? find where with `git log --follow` or grep, or rewrite the sentence):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn a_citation_of_something_moved_or_gone_is_reported_and_one_that_exists_is_not() {
    let sources = Sources::load();
    let text = "\
Exists: `src/tmux/format.rs:1`, tests/it/docs/ (`tmux::format::literal`, `run::ready::`,
`guard/zoom.rs`, [a heading](architecture.md#the-rules-behind-the-table), `TmuxServer::drop`,
`rmcp::anything::at_all`, `tests/it/docs/citations.rs` (`problems_in`, `anchor_of`),
`a_citation_of_something_moved_or_gone_is_reported_and_one_that_exists_is_not`,
snapshots/tools_list_<tier>.snap, google-gemini/gemini-cli/docs/gone.md, /home/me/src/gone.
Gone: `src/gone.rs`, see docs/gone.md.
`src/tmux/format.rs:99999`
[x](architecture.md#no-such-heading)
[y](gone.md)
`tools/gone.rs`
`tmux::format::gone`
`gone::a_test_that_is_not_there_any_more`
`TmuxServer::gone`
`tests/it/docs/citations.rs` (`anchor_of`, `gone_helper`)
`a_test_that_is_not_there_any_more`
";
    let problems = problems_in("docs/example.md", text, &sources);
    let expected = [
        "docs/example.md:6: src/gone.rs does not exist",
        "docs/example.md:6: docs/gone.md does not exist",
        "docs/example.md:7: src/tmux/format.rs has",
        "docs/example.md:8: architecture.md has no heading #no-such-heading",
        "docs/example.md:9: gone.md does not exist",
        "docs/example.md:10: no source file ends with tools/gone.rs",
        "docs/example.md:11: no module or item `tmux::format::gone` in the sources",
        "docs/example.md:12: no module or item `gone::a_test_that_is_not_there_any_more` in the sources",
        "docs/example.md:13: `TmuxServer` has no `gone`",
        "docs/example.md:14: tests/it/docs/citations.rs has no `gone_helper`",
        "docs/example.md:15: no function `a_test_that_is_not_there_any_more` in the sources",
    ];
    assert_eq!(problems.len(), expected.len(), "{problems:#?}");
    for (problem, start) in problems.iter().zip(expected) {
        assert!(
            problem.starts_with(start),
            "{problem:?} is not {start:?}...\n{problems:#?}"
        );
    }
}
