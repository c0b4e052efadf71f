//! The house rules a compiler cannot check, checked on the source: every handler
//! destructures its generated input exhaustively (so a field an upstream import adds is a
//! compile error where it must be handled, not a silently ignored argument), every
//! bound a tool file advertises either repeats its Rust limit or says why it has none,
//! every input of paneward's own tools is spelled in snake_case, every tool above
//! readonly says what it reaches, and no guard or batch decides by a tool's name.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use paneward::limits::{
    ARRANGE_MAX_CELLS, BATCH_MAX_OPERATIONS, CONFIRM_MAX_WAIT_MS, COPY_MODE_SCROLL_MAX_LINES, HISTORY_LIMIT_MAX_LINES,
    JOIN_MAX_PERCENT, KEYS_MAX_CHARS, LAYOUT_MAX_BYTES, LISTED_MAX_ITEMS, OPTION_NAME_MAX_CHARS, PIPE_PATH_MAX_BYTES,
    RUN_COMMAND_MAX_CHARS, SEARCH_MAX_PER_REQUEST, STAGED_TEXT_MAX_BYTES, TEXT_MAX_LINES, VARIABLE_NAMES_MAX,
    WAIT_MAX_PANES, WAIT_REPLY_MAX_ROWS, WORKSPACE_DOCUMENT_MAX_BYTES,
};
use regex::Regex;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The default tool files: `(file stem, parsed file)`.
fn tool_files() -> Vec<(String, Value)> {
    tool_files_in("schemas/tools")
}

/// The tool files of `folder` (relative to the repository): `(file stem, parsed file)`.
fn tool_files_in(folder: &str) -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join(folder))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            (stem, serde_json::from_str(&text).unwrap())
        })
        .collect()
}

/// Every `.rs` file under `src/tools`, however the modules are grouped into folders;
/// `profile` picks the handlers of that profile (`src/tools/<profile>`), else the others.
fn handler_sources(profile: Option<&str>) -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    let tools = Path::new(ROOT).join("src/tools");
    match profile {
        Some(profile) => walk(&tools.join(profile), &mut out),
        None => {
            walk(&tools, &mut out);
            let profiles = Path::new(ROOT).join("schemas/profiles");
            out.retain(|(path, _)| {
                std::fs::read_dir(&profiles)
                    .unwrap()
                    .all(|entry| !path.starts_with(tools.join(entry.unwrap().file_name())))
            });
        }
    }
    out
}

/// The generated type name of a tool's input, as codegen spells it.
fn input_type(tool: &str) -> String {
    let mut name: String = tool
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect();
    name.push_str("Input");
    name
}

/// A top-level function of a source file.
struct Function<'a> {
    name: &'a str,
    /// From the name to the `{` that opens the body.
    signature: &'a str,
    body: &'a str,
}

impl Function<'_> {
    /// The parameter of type `ty`, if it takes one.
    fn parameter_of(&self, ty: &str) -> Option<String> {
        let parameter = Regex::new(&format!(r"\b(\w+): {ty}\b")).unwrap();
        parameter
            .captures(self.signature)
            .map(|captures| captures[1].to_string())
    }
}

/// The top-level functions of `source`; a body runs to the first line that is a lone
/// `}` (rustfmt closes a top-level fn so).
fn functions(source: &str) -> Vec<Function<'_>> {
    let head = Regex::new(r"(?m)^(?:pub(?:\([a-z]+\))? )?(?:async )?fn (\w+)").unwrap();
    head.captures_iter(source)
        .filter_map(|captures| {
            let name = captures.get(1).unwrap();
            let open = name.end() + source[name.end()..].find("{\n")?;
            let end = source[open..].find("\n}\n").map_or(source.len(), |at| open + at);
            Some(Function {
                name: name.as_str(),
                signature: &source[name.end()..open],
                body: &source[open..end],
            })
        })
        .collect()
}

/// Whether `body` destructures `ty` from `binding` with a pattern that names every field.
fn destructures(body: &str, ty: &str, binding: &str) -> Result<bool, String> {
    let pattern = Regex::new(&format!(r"let {ty} \{{([^}}]*)\}} = {binding};")).unwrap();
    match pattern.captures(body) {
        Some(captures) if captures[1].contains("..") => Err(format!("destructures {ty} with `..`")),
        Some(_) => Ok(true),
        None => Ok(false),
    }
}

#[test]
fn every_handler_destructures_its_input_exhaustively() {
    let mut faults = destructuring_faults(&tool_files(), &handler_sources(None));
    // A profile's handlers, in src/tools/<profile>, against its own tool files.
    let python = tool_files_in("schemas/profiles/python");
    assert_eq!(python.len(), 54, "the python profile's files were found");
    faults.extend(destructuring_faults(&python, &handler_sources(Some("python"))));
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// What is wrong with how the handlers in `sources` take the inputs of `tools`.
fn destructuring_faults(tools: &[(String, Value)], sources: &[(PathBuf, String)]) -> Vec<String> {
    let parsed: Vec<(&PathBuf, Vec<Function<'_>>)> =
        sources.iter().map(|(path, source)| (path, functions(source))).collect();
    assert!(tools.len() > 50, "the tool files were found");
    let mut faults = Vec::new();
    for (stem, file) in tools {
        let ty = input_type(stem);
        let ty_ref = ty.as_str();
        let handlers: Vec<_> = parsed
            .iter()
            .flat_map(|(path, functions)| {
                functions
                    .iter()
                    .filter(|function| function.name == stem)
                    .filter_map(move |function| Some((*path, functions, function, function.parameter_of(ty_ref)?)))
            })
            .collect();
        let [(path, siblings, handler, binding)] = handlers.as_slice() else {
            faults.push(format!(
                "{stem}: expected one handler `fn {stem}(.., {ty})` under src/tools, found {}",
                handlers.len()
            ));
            continue;
        };
        let shown = path.strip_prefix(ROOT).unwrap_or(path).display();
        // A profile's adapter reads its targeting through the trait codegen derives from
        // the schema (`checked(gate, &input)`); every other property of its input must be
        // named in its body, destructured or read, so an imported property is never
        // ignored without the test saying so.
        if handler.body.contains(&format!("checked(gate, &{binding})")) {
            let properties = file["inputSchema"]["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            let ignored: Vec<&String> = properties
                .keys()
                .filter(|property| !paneward_codegen::targeting::FIELDS.contains(&property.as_str()))
                .filter(|property| {
                    // The Rust field, as typify names it (`global_` is `global`).
                    let field = property.trim_end_matches('_').replace('-', "_");
                    !Regex::new(&format!(r"\b{field}\b")).unwrap().is_match(handler.body)
                })
                .collect();
            if !ignored.is_empty() {
                let ignored: Vec<&str> = ignored.iter().map(|p| p.as_str()).collect();
                faults.push(format!(
                    "{shown}: {stem} reads its targeting through `checked` and ignores {}: name each in its body",
                    ignored.join(", ")
                ));
            }
            continue;
        }
        match destructures(handler.body, &ty, binding) {
            Ok(true) => continue,
            Ok(false) => {}
            Err(fault) => {
                faults.push(format!("{shown}: {stem} {fault}"));
                continue;
            }
        }
        // A handler may hand its whole input to one helper of its file that destructures it,
        // and then reads none of its fields itself (the helper would ignore them as `_`).
        if Regex::new(&format!(r"\b{binding}\.[a-z_]"))
            .unwrap()
            .is_match(handler.body)
        {
            faults.push(format!(
                "{shown}: {stem} reads fields of its input besides handing it on: start it with `let {ty} {{ <every field> }} = {binding};`"
            ));
            continue;
        }
        let helper = siblings
            .iter()
            .filter(|function| function.name != *stem)
            .filter_map(|function| Some((function, function.parameter_of(ty_ref)?)))
            .find(|(function, _)| {
                Regex::new(&format!(r"\b{}\([^;]*\b{binding}\b", function.name))
                    .unwrap()
                    .is_match(handler.body)
            });
        match helper.map(|(function, parameter)| (function.name, destructures(function.body, &ty, &parameter))) {
            Some((_, Ok(true))) => {}
            Some((name, Err(fault))) => faults.push(format!("{shown}: {name} (for {stem}) {fault}")),
            _ => faults.push(format!(
                "{shown}: {stem} does not destructure its input: start it with `let {ty} {{ <every field> }} = {binding};`"
            )),
        }
    }
    faults
}

/// What a schema bound is, for the sweep.
enum Meaning {
    /// It repeats this Rust limit (its name, for the message).
    Limit(i64, &'static str),
    /// It is the schema's alone: why no Rust constant holds it, and its value.
    SchemaOnly(i64, &'static str),
}

macro_rules! limit {
    ($name:ident) => {
        Meaning::Limit(i64::try_from($name).unwrap(), stringify!($name))
    };
    (- $name:ident) => {
        Meaning::Limit(-i64::try_from($name).unwrap(), concat!("-", stringify!($name)))
    };
}

const ID: &str = "a tmux id (%N, @N or $N): the schema's pattern is the rule; Rust parses the id";
const NAME: &str = "a name or title tmux stores: the schema's courtesy bound, tmux has none";
const PATH: &str = "a path or shell word: PATH_MAX; tmux or the program reports a bad one";
const SPAWN: &str = "what a new pane starts with: Rust bounds it in bytes, all together (SPAWN_TEXT_MAX_BYTES)";

/// Each bound by where it sits: the pointer's tail after its last `properties/`,
/// qualified with `file:` where one file's bound differs from the others'.
fn meaning(file: &str, tail: &str) -> Option<Meaning> {
    let qualified = format!("{file}:{tail}");
    Some(match (qualified.as_str(), tail) {
        ("show_buffer:max_lines/maximum", _) => limit!(TEXT_MAX_LINES),
        ("wait_for_text:lines/maxItems", _) => limit!(WAIT_REPLY_MAX_ROWS),
        ("search_panes:panes/maxItems", _) => limit!(SEARCH_MAX_PER_REQUEST),
        ("run_command:command/maxLength", _) => limit!(RUN_COMMAND_MAX_CHARS),
        ("set_option:name/maxLength", _) => limit!(OPTION_NAME_MAX_CHARS),
        ("pipe_pane:path/maxLength", _) => limit!(PIPE_PATH_MAX_BYTES),
        ("load_workspace:document/maxLength", _) => limit!(WORKSPACE_DOCUMENT_MAX_BYTES),
        (_, "history_limit/maximum") => limit!(HISTORY_LIMIT_MAX_LINES),
        ("set_history_limit:limit/maximum", _) => limit!(HISTORY_LIMIT_MAX_LINES),
        (
            "call_mutating_tools_batch:row/maximum" | "call_destructive_tools_batch:row/maximum",
            _,
        ) => Meaning::SchemaOnly(
            15,
            "a reference's row: the last index of a batch of BATCH_MAX_OPERATIONS rows; an earlier row is checked by the handler",
        ),
        ("send_keys_batch:operations/maxItems", _) => Meaning::SchemaOnly(
            64,
            "rows of one send_keys_batch: validation refuses more before the handler runs",
        ),
        ("respawn_pane:command/maxItems", _) => Meaning::SchemaOnly(256, SPAWN),
        ("command_history:last/maximum", _) => Meaning::SchemaOnly(
            100,
            "commands of one answer: the schema's bound; the recording read is HISTORY_READ_MAX_BYTES",
        ),
        ("command_history:max_lines/maximum", _) => Meaning::SchemaOnly(
            1000,
            "output lines per command: the schema's bound; the recording read is HISTORY_READ_MAX_BYTES",
        ),
        ("hand_to_person:reason/maxLength", _) => Meaning::SchemaOnly(
            300,
            "what the person is to do: a sentence, quoted in the question shown to them",
        ),
        ("move_window:to_index/maximum", _) => Meaning::SchemaOnly(
            99_999,
            "a window index: far beyond any session; tmux refuses what it cannot use",
        ),
        ("create_window:index/maximum", _) => Meaning::SchemaOnly(
            100_000,
            "a window index: far beyond any session; tmux refuses what it cannot use",
        ),
        ("set_option:value/maxLength", _) => {
            Meaning::SchemaOnly(16_000, "an option value: the schema's bound; tmux stores it as given")
        }
        ("set_environment:value/maxLength", _) => Meaning::SchemaOnly(
            32_768,
            "a variable's value: the schema's bound; tmux stores it as given",
        ),
        ("list_servers:max_servers/maximum", _) => Meaning::SchemaOnly(
            100,
            "servers one listing reports: the schema's bound, read by the handler as given",
        ),
        ("list_servers:name_contains/maxLength", _) => {
            Meaning::SchemaOnly(100, "a substring of a socket name: the schema's bound")
        }
        (_, "operations/maxItems") => limit!(BATCH_MAX_OPERATIONS),
        (_, "max_lines/maximum" | "max_matches_per_pane/maximum" | "matches/maxItems") => {
            limit!(SEARCH_MAX_PER_REQUEST)
        }
        (_, "lines/maxItems") => limit!(TEXT_MAX_LINES),
        (
            _,
            "clients/maxItems"
            | "windows/maxItems"
            | "panes/maxItems"
            | "sessions/maxItems"
            | "variables/maxItems"
            | "values/maxItems"
            | "previousValues/maxItems"
            | "hooks/maxItems",
        ) => limit!(LISTED_MAX_ITEMS),
        (_, "unknown/maxItems") => limit!(VARIABLE_NAMES_MAX),
        (_, "width/maximum" | "height/maximum" | "width_by/maximum" | "height_by/maximum" | "size_cells/maximum") => {
            limit!(ARRANGE_MAX_CELLS)
        }
        (_, "width_by/minimum" | "height_by/minimum") => limit!(-ARRANGE_MAX_CELLS),
        (_, "size_percent/maximum") => limit!(JOIN_MAX_PERCENT),
        (_, "scroll_up_lines/maximum") => limit!(COPY_MODE_SCROLL_MAX_LINES),
        (_, "layout/maxLength" | "previousLayout/maxLength") => limit!(LAYOUT_MAX_BYTES),
        (_, "keys/maxLength") => limit!(KEYS_MAX_CHARS),
        (_, "confirm_timeout_ms/maximum") => limit!(CONFIRM_MAX_WAIT_MS),
        (_, "text/maxLength") => limit!(STAGED_TEXT_MAX_BYTES),
        (_, "pane_ids/maxItems") => limit!(WAIT_MAX_PANES),
        (_, "pattern/maxLength") => Meaning::SchemaOnly(
            4096,
            "a search pattern: the regex is bounded by its compiled size (REGEX_MAX_COMPILED_BYTES)",
        ),
        (_, "patterns/items/maxLength" | "stop/items/maxLength") => {
            Meaning::SchemaOnly(512, "one wait pattern: the regex is bounded by its compiled size")
        }
        (_, "patterns/maxItems" | "stop/maxItems") => {
            Meaning::SchemaOnly(16, "patterns of one wait: the schema's bound")
        }
        (_, "idle_seconds/maximum" | "quiet_seconds/maximum") => {
            Meaning::SchemaOnly(3600, "an idle wait: any wait is clamped to --max-wait besides")
        }
        (_, "cursor/maxLength") => Meaning::SchemaOnly(
            256,
            "a cursor paneward issued: its own are far shorter, and a forged one fails its MAC",
        ),
        (_, "buffer_name/maxLength" | "bufferName/maxLength") => Meaning::SchemaOnly(
            128,
            "a buffer name: paneward's own are at most 106 characters (BUFFER_LABEL_MAX_CHARS and the prefix)",
        ),
        (_, "closed/maxItems") => Meaning::SchemaOnly(2, "a move closes at most its source window and session"),
        (
            _,
            "position/maxLength"
            | "previousPosition/maxLength"
            | "withPosition/maxLength"
            | "previousWithPosition/maxLength",
        ) => Meaning::SchemaOnly(24, "a corner name such as bottom-right: the longest is 12"),
        (_, "windowSize/maxLength" | "previousWindowSize/maxLength") => {
            Meaning::SchemaOnly(16, "a window-size option value: the longest is 7")
        }
        (_, "name/maxLength" | "window_name/maxLength" | "title/maxLength") => Meaning::SchemaOnly(256, NAME),
        (
            _,
            "start_directory/maxLength"
            | "path_under/maxLength"
            | "shell/maxLength"
            | "command/items/maxLength"
            | "environment/additionalProperties/maxLength",
        ) => Meaning::SchemaOnly(4096, PATH),
        (_, "command/maxItems" | "environment/maxProperties") => Meaning::SchemaOnly(64, SPAWN),
        _ if tail.ends_with("/maxLength") && is_id(tail) => Meaning::SchemaOnly(12, ID),
        _ => return None,
    })
}

/// A field holding a tmux id: `pane_id`, `previousWindowId`, `target`, a list of ids.
fn is_id(tail: &str) -> bool {
    let field = tail.split('/').next().unwrap_or_default();
    field.ends_with("_id")
        || field.ends_with("Id")
        || field == "target"
        || (tail.contains("/items/") && (field.ends_with("Ids") || field == "closed"))
}

/// A floor every count or length has, or JavaScript's safe-integer range: no limit.
fn is_floor(keyword: &str, value: i64) -> bool {
    matches!(
        (keyword, value),
        ("minimum" | "minItems" | "minLength" | "minProperties", 0 | 1) | ("exclusiveMinimum", 0)
    ) || value.abs() == 9_007_199_254_740_991
}

const BOUNDS: [&str; 10] = [
    "maximum",
    "minimum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "maxItems",
    "minItems",
    "maxLength",
    "minLength",
    "maxProperties",
    "minProperties",
];

/// Every numeric bound under `value`: `(pointer, keyword, value)`.
fn bounds(value: &Value, pointer: &str, out: &mut Vec<(String, String, i64)>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let here = format!("{pointer}/{key}");
                // A property named like a keyword is a field, not a bound.
                let is_field = pointer.ends_with("/properties");
                if !is_field && BOUNDS.contains(&key.as_str()) {
                    if let Some(number) = child.as_i64() {
                        out.push((here.clone(), key.clone(), number));
                    }
                }
                bounds(child, &here, out);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                bounds(child, &format!("{pointer}/{index}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_schema_bound_repeats_its_rust_limit_or_says_why_it_has_none() {
    let mut faults = Vec::new();
    let mut limits_seen = BTreeSet::new();
    let any_of_branch = Regex::new(r"/anyOf/\d+").unwrap();
    for (file, schema) in tool_files() {
        let mut found = Vec::new();
        bounds(&schema, "", &mut found);
        for (pointer, keyword, value) in found {
            if is_floor(&keyword, value) {
                continue;
            }
            // A nullable field's bound sits in its non-null `anyOf` branch.
            let pointer = any_of_branch.replace_all(&pointer, "").into_owned();
            let tail = pointer
                .rsplit_once("/properties/")
                .map_or(pointer.as_str(), |(_, tail)| tail);
            match meaning(&file, tail) {
                Some(Meaning::Limit(limit, name)) => {
                    limits_seen.insert(name);
                    if value != limit {
                        faults.push(format!("{file}.json#{pointer} is {value}, but {name} is {limit}"));
                    }
                }
                Some(Meaning::SchemaOnly(expected, why)) if expected != value => faults.push(format!(
                    "{file}.json#{pointer} is {value}, listed as {expected} ({why}): move a limit to limits.rs or update the list"
                )),
                Some(Meaning::SchemaOnly(..)) => {}
                None => faults.push(format!(
                    "{file}.json#{pointer} = {value} is in no list: map it to its limits.rs constant in tests/it/structure.rs, or say why it has none"
                )),
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    // Every constant the mapping names is still repeated by some bound (19, and one negated).
    assert_eq!(
        limits_seen.len(),
        20,
        "a mapped limit no bound repeats: {limits_seen:?}"
    );
}

/// Every property name under `schema`'s `properties` maps, with its JSON pointer.
fn property_names(schema: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    match schema {
        Value::Object(map) => {
            for (key, child) in map {
                let here = format!("{pointer}/{key}");
                if key == "properties" {
                    if let Value::Object(properties) = child {
                        for (name, property) in properties {
                            out.push((format!("{here}/{name}"), name.clone()));
                            property_names(property, &format!("{here}/{name}"), out);
                        }
                    }
                } else {
                    property_names(child, &here, out);
                }
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                property_names(child, &format!("{pointer}/{index}"), out);
            }
        }
        _ => {}
    }
}

/// Seeded tool files (their `source` is the upstream page they were imported from)
/// keep the published spelling; paneward's own say `"source": "paneward"`.
#[test]
fn every_input_of_paneward_s_own_tools_is_snake_case() {
    let snake = Regex::new(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$").unwrap();
    let mut faults = Vec::new();
    let mut own = 0;
    for (file, tool) in tool_files() {
        if tool["source"] != "paneward" {
            continue;
        }
        own += 1;
        let mut names = Vec::new();
        property_names(&tool["inputSchema"], "/inputSchema", &mut names);
        for (pointer, name) in names {
            if !snake.is_match(&name) {
                faults.push(format!("{file}.json#{pointer}: `{name}` is not snake_case"));
            }
        }
    }
    assert!(
        own > 40,
        "only {own} tool files of paneward's own: is `source` still \"paneward\"?"
    );
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The served tool files: paneward's own and every profile's, `(folder/stem, parsed file)`.
fn served_tool_files() -> Vec<(String, Value)> {
    let mut files: Vec<(String, Value)> = tool_files()
        .into_iter()
        .map(|(stem, tool)| (format!("schemas/tools/{stem}"), tool))
        .collect();
    for entry in std::fs::read_dir(Path::new(ROOT).join("schemas/profiles")).unwrap() {
        let folder = format!("schemas/profiles/{}", entry.unwrap().file_name().to_string_lossy());
        files.extend(
            tool_files_in(&folder)
                .into_iter()
                .map(|(stem, tool)| (format!("{folder}/{stem}"), tool)),
        );
    }
    files
}

/// The files of `tools` above readonly (by tier or by an escalation) that do not say
/// what a call of them reaches.
fn unstated_reaches(tools: &[(String, Value)]) -> Vec<String> {
    tools
        .iter()
        .filter(|(_, tool)| {
            let escalated = tool["escalations"].as_array().is_some_and(|e| !e.is_empty());
            (tool["tier"] != "readonly" || escalated) && !tool["reaches"].is_array()
        })
        .map(|(file, tool)| format!("{file}.json: a {} tool says what it reaches", tool["tier"]))
        .collect()
}

/// `--scope owned` checks what a call reaches beyond the ids it names by the file's
/// `reaches`; a tool above readonly without one would be under-checked (the build
/// refuses it too: `paneward_contract::surface::check_declared`).
#[test]
fn every_tool_above_readonly_says_what_it_reaches() {
    let served = served_tool_files();
    assert!(served.len() > 100, "the default and profile files were found");
    let faults = unstated_reaches(&served);
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    // The check itself: a mutating tool that says nothing is found.
    let mut silent = served[0].1.clone();
    silent["tier"] = "mutating".into();
    silent.as_object_mut().unwrap().remove("reaches");
    assert_eq!(unstated_reaches(&[("probe".into(), silent)]).len(), 1);
}

/// Where `source` (code before its `#[cfg(test)]` module) decides by a tool's name:
/// a name in a match arm, compared with `==`/`!=`, or listed in a `const`/`static`
/// array. Naming the tool a handler calls (`rows.call("list_panes", …)`) is not that.
fn name_lists(file: &str, source: &str, names: &BTreeSet<String>) -> Vec<String> {
    let code = source.split("#[cfg(test)]").next().unwrap_or(source);
    let literal = Regex::new(r#"(==|!=)?\s*"([a-z][a-z0-9_]*)"(\s*(=>|\|))?"#).unwrap();
    let list_start = Regex::new(r"^\s*(pub(\([a-z]+\))? )?(const|static) [A-Z_]+: \[&str").unwrap();
    let mut in_list = false;
    let mut faults = Vec::new();
    for (number, line) in code.lines().enumerate() {
        let text = line.split("//").next().unwrap_or("");
        if list_start.is_match(text) {
            in_list = true;
        }
        for found in literal.captures_iter(text) {
            let name = &found[2];
            let decides = found.get(1).is_some() || found.get(4).is_some() || in_list;
            if decides && names.contains(name) {
                faults.push(format!(
                    "{file}:{}: `{name}` decides by a tool's name; state it in the tool file (paneward_contract::facts)",
                    number + 1
                ));
            }
        }
        if in_list && text.contains("];") {
            in_list = false;
        }
    }
    faults
}

/// What the guards and batches know of a tool is a field of its file (`reaches`,
/// `paneText`, `batch`, `dryRun`), generated into the table they read: none of them
/// keeps a list of tool names.
#[test]
fn no_guard_or_batch_decides_by_a_tool_s_name() {
    let names: BTreeSet<String> = served_tool_files()
        .into_iter()
        .filter_map(|(_, tool)| tool["name"].as_str().map(str::to_string))
        .collect();
    let mut faults = Vec::new();
    for folder in ["src/guard", "src/tools/batch"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join(folder))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "rs"))
            .collect();
        files.sort();
        for path in files {
            let file = path.strip_prefix(ROOT).unwrap().display().to_string();
            faults.extend(name_lists(&file, &std::fs::read_to_string(&path).unwrap(), &names));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    // The check itself, on the shapes it looks for.
    let listed = "const WAITS: [&str; 2] = [\n    \"wait_for_text\",\n    \"run_command\",\n];\nfn f(t: &str) -> bool { t == \"kill_server\" }\nfn g(t: &str) { match t { \"send_keys\" | \"paste_text\" => {} _ => {} } }\nfn h(rows: R) { rows.call(\"list_panes\", None) }\n";
    let found = name_lists("probe.rs", listed, &names);
    assert_eq!(found.len(), 5, "{found:#?}");
}
