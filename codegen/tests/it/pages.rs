//! How documentation pages are read: the markdown and the plain-text renderings, where
//! the name, description, title and source come from, and which copy of a schema wins
//! when a page renders it twice.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::common::TempDir;
use paneward_codegen::source::{read_file, ContractTool};
use serde_json::json;

const INPUT: &str = r#"{"type": "object", "properties": {"pane_id": {"type": "string"}}, "required": ["pane_id"]}"#;
const OUTPUT: &str = r#"{"type": "object", "properties": {"ok": {"type": "boolean"}}}"#;

fn read(text: &str) -> Result<ContractTool, String> {
    let dir = TempDir::new();
    let path = dir.file("page.txt", text);
    read_file(&path)
        .map(|mut tools| tools.remove(0))
        .map_err(|e| e.to_string().replace(&path.display().to_string(), "<page>"))
}

#[test]
fn a_markdown_page_gives_name_description_title_source_and_the_three_blocks() {
    let page = format!(
        "# probe_tool[¶](https://example.org/probe_tool#top)\n\nSource: <https://example.org/tools/probe_tool/>\n\n\
         > Probes a pane \\*gently\\*;\n> never types.\n\nMCP is in development\n\n## Schemas\n\n\
         ### Input schema\n\n```json\n{INPUT}\n```\n\nOutput schema:\n\n  ```json\n  {OUTPUT}\n  ```\n\n\
         Tool annotations\n\n```json\n{{\"readOnlyHint\": true, \"title\": \"Probe a pane\"}}\n```\n"
    );
    let tool = read(&page).unwrap();
    assert_eq!(tool.name, "probe_tool");
    assert_eq!(
        tool.description.as_deref(),
        Some("Probes a pane *gently*; never types.")
    );
    assert_eq!(tool.title.as_deref(), Some("Probe a pane"));
    assert_eq!(tool.source.as_deref(), Some("https://example.org/tools/probe_tool/"));
    assert_eq!(
        tool.input_schema,
        serde_json::from_str::<serde_json::Value>(INPUT).unwrap()
    );
    assert_eq!(tool.output_schema, Some(serde_json::from_str(OUTPUT).unwrap()));
    assert_eq!(tool.annotations, json!({"readOnlyHint": true, "title": "Probe a pane"}));
}

#[test]
fn a_plain_text_page_gives_the_first_line_as_name_and_the_paragraph_before_the_navigation_as_description() {
    let page = format!(
        "probe_tool\n\nTypeScript\n\nPython\nRust Unavailable\n\nProbes a pane.\nIt never types.\n\n\
         All TypeScript tools · JSON · Source\n\nArguments\n\npane_id required · string: the pane.\n\n\
         Input schema\n\n{INPUT}\n\nOutput schema\n\n{OUTPUT}\n\nTool annotations\n\n{{\"openWorldHint\": false}}"
    );
    let tool = read(&page).unwrap();
    assert_eq!(tool.name, "probe_tool");
    assert_eq!(tool.description.as_deref(), Some("Probes a pane. It never types."));
    assert_eq!(tool.title, None, "no title in the annotations, none for the tool");
    assert_eq!(tool.source, None, "the plain rendering has no Source line");
    assert_eq!(tool.annotations, json!({"openWorldHint": false}));
}

#[test]
fn a_byte_order_mark_does_not_hide_the_heading() {
    let page = format!(
        "\u{feff}# probe_tool\n\n> Probes.\n\nInput schema\n\n{INPUT}\n\nOutput schema\n\n{OUTPUT}\n\n\
         Tool annotations\n\n{{}}"
    );
    assert_eq!(read(&page).unwrap().name, "probe_tool");
}

#[test]
fn the_quote_wins_over_the_paragraph_before_the_navigation() {
    let page = format!(
        "# probe_tool\n\n> The quoted description.\n\nA repeated description.\n\n[All Go tools](x) · [JSON](y)\n\n\
         Input schema\n\n{INPUT}\n\nOutput schema\n\n{OUTPUT}\n\nTool annotations\n\n{{}}"
    );
    assert_eq!(
        read(&page).unwrap().description.as_deref(),
        Some("The quoted description.")
    );
}

#[test]
fn the_protocol_data_copy_wins_when_a_page_renders_a_schema_twice() {
    let prose_copy = r#"{"type": "object", "properties": {"pane_id": {"description": "prose copy"}}}"#;
    let page = format!(
        "# probe_tool\n\n> Probes.\n\n## Arguments\n\nInput schema\n\n```json\n{prose_copy}\n```\n\n\
         ## Annotations[#](x)\n\n* [`destructiveHint`](g#destructiveHint)\n\n  `false`\n\n\
         * [`title`](g#title)\n\n  `\"Probe\"`\n\n\
         ## Protocol data[#](x)\n\n  Input schema\n\n  ```json\n  {INPUT}\n  ```\n\n  Output schema\n\n  ```json\n  {OUTPUT}\n  ```\n"
    );
    let tool = read(&page).unwrap();
    assert_eq!(
        tool.input_schema,
        serde_json::from_str::<serde_json::Value>(INPUT).unwrap()
    );
    assert_eq!(
        tool.annotations,
        json!({"destructiveHint": false, "title": "Probe"}),
        "from the list"
    );
    assert_eq!(tool.title.as_deref(), Some("Probe"));
}

#[test]
fn two_different_copies_without_protocol_data_are_refused_with_both_lines() {
    let other = r#"{"type": "object"}"#;
    let page = format!(
        "# probe_tool\n\n> Probes.\n\nInput schema\n\n{INPUT}\n\nInput schema\n\n{other}\n\n\
         Output schema\n\n{OUTPUT}\n\nTool annotations\n\n{{}}"
    );
    assert_eq!(
        read(&page).unwrap_err(),
        "<page>: \"Input schema\" is rendered twice with different content (lines 5 and 9) and neither copy is \
         under a \"Protocol data\" heading: cannot tell which is the contract"
    );
}

#[test]
fn a_heading_followed_by_prose_is_not_a_block() {
    let page = format!(
        "# probe_tool\n\n> Probes.\n\n## Input schema\n\nThe arguments, described in words.\n\n## Protocol data\n\n\
         Input schema\n\n{INPUT}\n\nOutput schema\n\n{OUTPUT}\n\nTool annotations\n\n{{}}"
    );
    assert_eq!(read(&page).unwrap().input_schema["required"], json!(["pane_id"]));
}

#[test]
fn the_four_seed_pages_read_as_their_tools() {
    // Each with an output field only its own page has (the Go and Python batches differ).
    for (page, name, title, output_field) in [
        (
            "000_e4f42a30e7e3fc17.txt",
            "call_read_tools_batch",
            Some("Call read tools in a batch"),
            "onError",
        ),
        (
            "001_039d2ea31acf6622.txt",
            "call_read_tools_batch",
            None,
            "response_truncated",
        ),
        ("003_a849fd8044bdd967.txt", "send_keys_batch", None, "completed"),
        (
            "004_a9b3d516c071323e.txt",
            "snapshot_pane",
            Some("Snapshot a pane"),
            "exitStatus",
        ),
    ] {
        let tools = read_file(&crate::common::seed(page)).unwrap();
        assert_eq!(tools.len(), 1);
        assert_eq!(tools[0].name, name, "{page}");
        assert_eq!(tools[0].title.as_deref(), title, "{page}");
        let output = tools[0].output_schema.as_ref().unwrap();
        assert!(
            output["properties"].get(output_field).is_some(),
            "{page}: no `{output_field}` in {output}"
        );
    }
}
