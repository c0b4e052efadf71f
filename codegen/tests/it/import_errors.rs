//! A malformed page or JSON file is refused with a message naming the file and what is
//! missing, and `schemas/` is left exactly as it was: everything is checked before the
//! first byte is written.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::path::PathBuf;

use crate::common::{codegen, schemas_copy, stderr, tree, TempDir};
use paneward_codegen::import::{import, Options, Source};
use paneward_codegen::load::Tier;

const INPUT: &str = r#"{"type": "object", "properties": {"pane_id": {"type": "string"}}, "required": ["pane_id"]}"#;
const OUTPUT: &str = r#"{"type": "object", "properties": {"ok": {"type": "boolean"}}}"#;

/// A good markdown page for a new tool `probe_tool`.
fn good_page() -> String {
    format!(
        "# probe_tool\n\nSource: https://example.org/tools/probe_tool/\n\n> Probes a pane.\n\n\
         Input schema\n\n```json\n{INPUT}\n```\n\nOutput schema\n\n```json\n{OUTPUT}\n```\n\n\
         Tool annotations\n\n```json\n{{\"readOnlyHint\": true}}\n```\n"
    )
}

/// Imports `files` (name, text) as new readonly tools into a copy of `schemas/`; returns
/// the error with the temp folder written as `<tmp>`, after checking nothing changed.
fn refused(files: &[(&str, &str)]) -> String {
    let (_guard, copy) = schemas_copy();
    let dir = TempDir::new();
    let sources: Vec<Source> = files
        .iter()
        .map(|(name, text)| Source::File(dir.file(name, text)))
        .collect();
    let before = tree(&copy);
    let mut options = Options::new(&copy);
    options.tier = Some(Tier::Readonly);
    let error = import(&sources, &options).expect_err("the import must fail");
    assert_eq!(tree(&copy), before, "schemas/ must be left untouched");
    error
        .to_string()
        .replace(&dir.path().display().to_string(), "<tmp>")
        .replace(&copy.display().to_string(), "<schemas>")
}

#[test]
fn the_good_page_imports() {
    let (_guard, copy) = schemas_copy();
    let dir = TempDir::new();
    let mut options = Options::new(&copy);
    options.tier = Some(Tier::Readonly);
    import(&[Source::File(dir.file("probe.md", &good_page()))], &options).unwrap();
    assert!(copy.join("tools/probe_tool.json").is_file());
}

#[test]
fn a_page_without_an_output_schema_names_what_is_missing() {
    let page = good_page().replace("Output schema", "Result");
    assert_eq!(
        refused(&[("probe.md", &page)]),
        "<tmp>/probe.md: no output schema: expected an \"Output schema\" heading followed by a ```json block or a JSON object"
    );
}

#[test]
fn a_heading_without_json_after_it_is_named_with_its_line() {
    let page = good_page().replace(&format!("```json\n{OUTPUT}\n```"), "The result, in words.");
    assert_eq!(
        refused(&[("probe.md", &page)]),
        "<tmp>/probe.md: no output schema: the \"Output schema\" heading at line 13 is followed by neither a ```json block nor a JSON object"
    );
}

#[test]
fn invalid_json_in_a_block_is_named_with_its_page_line() {
    let page = good_page().replace(r#""required": ["pane_id"]"#, r#""required": ["pane_id"],"#);
    let error = refused(&[("probe.md", &page)]);
    assert!(
        error.starts_with("<tmp>/probe.md: the JSON under \"Input schema\" (line 7) is not valid: ")
            && error.ends_with("at line 10, column 91"),
        "{error}"
    );
}

#[test]
fn an_unclosed_code_block_is_named() {
    let page = good_page().replace(&format!("{OUTPUT}\n```"), OUTPUT);
    assert!(refused(&[("probe.md", &page)]).contains("under \"Output schema\" (line 15) is never closed"));
}

#[test]
fn a_page_without_name_description_or_annotations_says_which() {
    let no_name = good_page().replace("# probe_tool\n", "Some preamble text\n");
    assert!(refused(&[("probe.md", &no_name)]).starts_with("<tmp>/probe.md: no tool name: expected a `# name` heading"));
    let no_description = good_page().replace("> Probes a pane.\n", "");
    assert!(
        refused(&[("probe.md", &no_description)]).starts_with("<tmp>/probe.md: no description: expected a `> …` quote")
    );
    let no_annotations = good_page().replace("Tool annotations", "Notes");
    assert!(refused(&[("probe.md", &no_annotations)]).starts_with("<tmp>/probe.md: no annotations: expected"));
}

#[test]
fn a_schema_that_fails_the_build_checks_is_named_by_page_and_pointer() {
    let page = good_page().replace(
        r#"{"type": "object", "properties": {"ok""#,
        r#"{"type": "array", "properties": {"ok""#,
    );
    assert_eq!(
        refused(&[("probe.md", &page)]),
        "<tmp>/probe.md at /outputSchema/type: MCP requires a tool schema to describe an object: set \"type\": \"object\" \
         (checked as <schemas>/tools/probe_tool.json)"
    );
}

#[test]
fn a_json_tool_without_an_input_schema_is_named_by_pointer() {
    let list = r#"{"tools": [{"name": "a_tool", "inputSchema": {"type": "object"}}, {"name": "b_tool"}]}"#;
    assert_eq!(
        refused(&[("list.json", list)]),
        "<tmp>/list.json at /tools/1: tool `b_tool`: missing required field `inputSchema`"
    );
}

#[test]
fn a_json_tool_without_an_output_schema_or_description_is_refused() {
    let tool = r#"{"name": "a_tool", "description": "A.", "inputSchema": {"type": "object"}}"#;
    assert!(refused(&[("a.json", tool)]).starts_with("<tmp>/a.json: tool `a_tool` has no outputSchema"));
    let tool = format!(r#"{{"name": "a_tool", "inputSchema": {INPUT}, "outputSchema": {OUTPUT}}}"#);
    assert!(refused(&[("a.json", &tool)]).starts_with("<tmp>/a.json: tool `a_tool` has no description"));
}

#[test]
fn json_that_is_not_a_contract_is_refused_with_the_shapes_accepted() {
    assert!(refused(&[("x.json", "{\"tools\": [")]).starts_with("<tmp>/x.json: not valid JSON: EOF"));
    assert!(refused(&[("x.json", r#"{"version": 1}"#)]).starts_with("<tmp>/x.json: expected an MCP Tool object"));
    assert_eq!(
        refused(&[(
            "x.json",
            r#"{"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no tools here"}}"#
        )]),
        "<tmp>/x.json at /error: a JSON-RPC error response, not a tool list: no tools here"
    );
}

#[test]
fn one_bad_source_among_good_ones_writes_nothing_at_all() {
    let bad = good_page()
        .replace("probe_tool", "other_tool")
        .replace("Output schema", "Result");
    let error = refused(&[("good.md", &good_page()), ("bad.md", &bad)]);
    assert!(error.starts_with("<tmp>/bad.md: no output schema"), "{error}");
}

#[test]
fn the_same_tool_from_two_sources_is_refused() {
    assert_eq!(
        refused(&[("one.md", &good_page()), ("two.md", &good_page())]),
        "<tmp>/two.md at /name: tool `probe_tool` is also defined in <tmp>/one.md"
    );
}

#[test]
fn an_import_that_would_break_the_build_is_refused() {
    // `probe_tool`'s output fields `foo_bar` and `fooBar` would both be the Rust field `foo_bar`.
    let output = r#"{"type": "object", "properties": {"foo_bar": {"type": "object"}, "fooBar": {"type": "object"}}}"#;
    let page = good_page().replace(OUTPUT, output);
    let error = refused(&[("probe.md", &page)]);
    assert!(
        error.contains("Rust field `foo_bar`") && error.ends_with("(the build would fail after this import)"),
        "{error}"
    );
}

#[test]
fn a_new_tool_needs_a_tier_and_a_source() {
    let (_guard, copy) = schemas_copy();
    let dir = TempDir::new();
    let before = tree(&copy);
    let page = dir.file("probe.md", &good_page());
    let error = import(&[Source::File(page.clone())], &Options::new(&copy))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("tool `probe_tool` is new: pass --tier readonly|mutating|destructive"),
        "{error}"
    );
    let mut options = Options::new(&copy);
    options.tier = Some(Tier::Mutating);
    let no_source = dir.file(
        "plain.md",
        &good_page().replace("Source: https://example.org/tools/probe_tool/\n", ""),
    );
    let error = import(&[Source::File(no_source)], &options).unwrap_err().to_string();
    assert!(
        error.contains("its source names no upstream page: pass --source URL"),
        "{error}"
    );
    assert_eq!(tree(&copy), before);
}

#[test]
fn the_command_line_reports_the_error_on_stderr_and_exits_3() {
    let (_guard, copy) = schemas_copy();
    let dir = TempDir::new();
    let before = tree(&copy);
    let page: PathBuf = dir.file("probe.md", &good_page().replace("Input schema", "Inputs"));
    let output = codegen(&[
        "import",
        "--tier",
        "readonly",
        "--schemas",
        copy.to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(3));
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).starts_with(&format!("error: {}: no input schema", page.display())),
        "{}",
        stderr(&output)
    );
    assert_eq!(tree(&copy), before);
    let output = codegen(&["import", "--tier", "sometimes", page.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(3));
    assert!(
        stderr(&output).contains("unknown safety tier \"sometimes\"; use readonly, mutating or destructive"),
        "{}",
        stderr(&output)
    );
}
