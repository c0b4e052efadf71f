//! The advertised contract: seeded tools equal their upstream pages, every tool equals
//! its file in `schemas/`, and an insta snapshot locks the whole `tools/list` reply.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

mod support;

use std::process::Command;

use serde_json::{json, Value};
use support::{root, seed_blocks, seeds_dir, tool_file};

/// `paneward tools --json` at `tier`: the exact `tools/list` result the server sends.
fn advertised(tier: &str) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_paneward"))
        .args(["tools", "--json", "--safety", tier])
        .env_remove("PANEWARD_SAFETY")
        .output()
        .expect("run paneward tools");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("tools --json prints JSON")
}

fn advertised_tool(list: &Value, name: &str) -> Value {
    list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("{name} is not listed"))
}

/// The description a Go page quotes under its heading (`> …`).
fn quoted_description(file: &str) -> String {
    let text = std::fs::read_to_string(seeds_dir().join(file)).unwrap();
    text.lines().find_map(|l| l.strip_prefix("> ")).unwrap().to_string()
}

#[test]
fn seeded_tools_advertise_exactly_what_their_upstream_pages_publish() {
    let list = advertised("destructive");
    for (tool, page) in [
        ("call_read_tools_batch", "000_e4f42a30e7e3fc17.txt"),
        ("snapshot_pane", "004_a9b3d516c071323e.txt"),
    ] {
        let blocks = seed_blocks(page);
        assert_eq!(blocks.len(), 3, "{page}: input, output, annotations");
        let tool_json = advertised_tool(&list, tool);
        assert_eq!(tool_json["inputSchema"], blocks[0], "{tool} inputSchema");
        assert_eq!(tool_json["outputSchema"], blocks[1], "{tool} outputSchema");
        assert_eq!(tool_json["annotations"], blocks[2], "{tool} annotations");
        assert_eq!(tool_json["title"], blocks[2]["title"], "{tool} title");
        assert_eq!(
            tool_json["description"],
            json!(quoted_description(page)),
            "{tool} description"
        );
    }
    let page = "003_a849fd8044bdd967.txt";
    let blocks = seed_blocks(page);
    assert_eq!(blocks.len(), 3, "{page}: input, output, annotations");
    let tool_json = advertised_tool(&list, "send_keys_batch");
    assert_eq!(tool_json["inputSchema"], blocks[0]);
    assert_eq!(tool_json["outputSchema"], blocks[1]);
    assert_eq!(tool_json["annotations"], blocks[2]);
    assert!(tool_json.get("title").is_none(), "the TypeScript page gives no title");
    let text = std::fs::read_to_string(seeds_dir().join(page)).unwrap();
    let description = text.lines().find(|l| l.starts_with("Send input")).unwrap();
    assert_eq!(tool_json["description"], json!(description));
}

#[test]
fn every_advertised_tool_is_its_schema_file_unchanged() {
    let list = advertised("destructive");
    let mut files: Vec<String> = std::fs::read_dir(root().join("schemas/tools"))
        .unwrap()
        .map(|e| e.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let listed: Vec<String> = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        listed, files,
        "tools/list (at the widest tier) lists exactly the schema files, sorted"
    );
    for name in &files {
        let file = tool_file(name);
        let tool = advertised_tool(&list, name);
        for field in ["description", "inputSchema", "outputSchema", "annotations"] {
            assert_eq!(tool[field], file[field], "{name}: {field}");
        }
        assert_eq!(tool.get("title"), file.get("title"), "{name}: title");
    }
}

#[test]
fn the_tools_list_reply_is_locked_by_a_snapshot() {
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_json_snapshot!("tools_list_mutating", advertised("mutating"));
    });
}
