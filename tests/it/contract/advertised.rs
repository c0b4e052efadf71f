//! The advertised contract: seeded tools equal their upstream pages, every tool equals
//! its file in `schemas/`, and an insta snapshot locks the whole `tools/list` reply.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::process::Command;

use crate::support::{root, seed_blocks, seeds_dir, tool_file};
use serde_json::{json, Value};

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
fn the_tools_list_reply_at_each_tier_is_locked_by_a_snapshot() {
    insta::with_settings!({snapshot_path => "../../../snapshots", prepend_module_to_snapshot => false, omit_expression => true}, {
        for tier in ["readonly", "mutating", "destructive"] {
            insta::assert_json_snapshot!(format!("tools_list_{tier}"), advertised(tier));
        }
    });
}

/// The inspect tools whose contracts paneward writes (the batch seed fixes their inputs).
const AUTHORED_INSPECT_TOOLS: [&str; 12] = [
    "list_sessions",
    "list_windows",
    "list_panes",
    "get_server_info",
    "get_session_info",
    "get_window_info",
    "get_pane_info",
    "find_pane_by_position",
    "get_tmux_variables",
    "show_option",
    "show_environment",
    "show_hooks",
];

/// The `arguments` schema of each branch of the Go batch seed's `oneOf`, by tool.
fn batch_branches() -> Vec<(String, Value)> {
    let input = &seed_blocks("000_e4f42a30e7e3fc17.txt")[0];
    input["properties"]["operations"]["items"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|branch| {
            let tool = branch["properties"]["tool"]["const"].as_str().unwrap().to_string();
            (tool, branch["properties"]["arguments"].clone())
        })
        .collect()
}

/// Optional inputs an inspect tool takes beyond its batch branch (a batch row, which
/// the branch checks, is still a valid call of the tool): (tool, input).
const INPUTS_BEYOND_THE_BATCH_BRANCH: [(&str, &str); 16] = [
    ("get_tmux_variables", "pane_id"),
    // Counting scrollback bytes walks the whole history: asked for, never by default.
    ("get_pane_info", "history_bytes"),
    // The filters of the lists (docs/portability.md).
    ("list_sessions", "name"),
    ("list_sessions", "attached"),
    ("list_sessions", "path_under"),
    ("list_windows", "name"),
    ("list_windows", "active"),
    ("list_panes", "session"),
    ("list_panes", "current_command"),
    ("list_panes", "active"),
    ("list_panes", "dead"),
    ("list_panes", "path_under"),
    // Every field of each row, for a caller that needs more than the brief rows.
    ("list_sessions", "detail"),
    ("list_windows", "detail"),
    ("list_panes", "detail"),
    ("search_panes", "detail"),
];

/// Inputs an inspect tool spells in a form more clients accept than its batch branch's,
/// the branch's form still accepted (src/call/former.rs): (tool, input, the branch's
/// form, the tool's form).
const INPUTS_RESPELLED_FROM_THE_BATCH_BRANCH: [(&str, &str, &str, &str); 1] = [(
    "get_tmux_variables",
    "names",
    "required, null for every variable",
    "optional, absent or empty for every variable",
)];

#[test]
fn every_inspect_tool_takes_exactly_the_arguments_of_its_batch_branch() {
    let list = advertised("readonly");
    let mut covered = Vec::new();
    for (tool, arguments) in batch_branches() {
        if !root().join("schemas/tools").join(format!("{tool}.json")).exists() {
            continue;
        }
        let mut input = advertised_tool(&list, &tool)["inputSchema"].clone();
        for (_, extra) in INPUTS_BEYOND_THE_BATCH_BRANCH.iter().filter(|(t, _)| *t == tool) {
            let required = input["required"].as_array().cloned().unwrap_or_default();
            assert!(
                !required.iter().any(|r| r == extra),
                "{tool}: {extra} must stay optional"
            );
            let removed = input["properties"].as_object_mut().unwrap().remove(*extra);
            assert!(removed.is_some(), "{tool} no longer takes {extra}");
        }
        let mut arguments = arguments;
        for (_, respelled, _, _) in INPUTS_RESPELLED_FROM_THE_BATCH_BRANCH
            .iter()
            .filter(|(t, ..)| *t == tool)
        {
            for schema in [&mut input, &mut arguments] {
                assert!(
                    schema["properties"]
                        .as_object_mut()
                        .unwrap()
                        .remove(*respelled)
                        .is_some(),
                    "{tool} no longer takes {respelled}"
                );
                if let Some(required) = schema.get_mut("required").and_then(Value::as_array_mut) {
                    required.retain(|r| r != respelled);
                    if required.is_empty() {
                        schema.as_object_mut().unwrap().remove("required");
                    }
                }
            }
        }
        // A tool with no inputs left may say `properties: {}` or nothing.
        for schema in [&mut input, &mut arguments] {
            if schema["properties"].as_object().is_some_and(serde_json::Map::is_empty) {
                schema.as_object_mut().unwrap().remove("properties");
            }
        }
        assert_eq!(
            input, arguments,
            "{tool}: inputSchema must equal its branch's arguments schema in seed 000"
        );
        covered.push(tool);
    }
    for tool in AUTHORED_INSPECT_TOOLS
        .iter()
        .chain(&["snapshot_pane", "capture_pane", "capture_since", "search_panes"])
    {
        assert!(covered.iter().any(|c| c == tool), "{tool} has no branch or no file");
    }
    assert_eq!(
        covered.len(),
        batch_branches().len(),
        "every batch branch is a standalone tool"
    );
}

/// Every object schema under `schema`, with its JSON pointer.
fn objects<'a>(schema: &'a Value, pointer: String, out: &mut Vec<(String, &'a Value)>) {
    if schema.get("properties").is_some() || schema["type"] == "object" {
        out.push((pointer.clone(), schema));
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, sub) in properties {
            objects(sub, format!("{pointer}/properties/{name}"), out);
        }
    }
    if let Some(items) = schema.get("items") {
        objects(items, format!("{pointer}/items"), out);
    }
}

#[test]
fn authored_inspect_tools_follow_the_contract_conventions() {
    for tool in AUTHORED_INSPECT_TOOLS {
        let file = tool_file(tool);
        assert_eq!(file["source"], "paneward", "{tool}");
        assert_eq!(file["tier"], "readonly", "{tool}");
        // Values written by others (options, environment, hooks) are untrusted text:
        // open-world, as the annotation rule gives content reads.
        // MCP's default, open-world, is left out.
        let mut expected = json!({"readOnlyHint": true});
        if file["class"] != "content-read" {
            expected["openWorldHint"] = json!(false);
        }
        assert_eq!(file["annotations"], expected, "{tool}: a read's annotations");
        let mut found = Vec::new();
        objects(&file["outputSchema"], String::new(), &mut found);
        for (pointer, object) in found {
            // Open, so that a later version may add a field; replies are checked closed.
            assert_eq!(
                object.get("additionalProperties"),
                None,
                "{tool}: outputSchema{pointer} must be left open"
            );
            let properties: Vec<&String> = object["properties"].as_object().unwrap().keys().collect();
            for name in properties {
                assert!(
                    !name.contains('_') && name.chars().next().unwrap().is_ascii_lowercase(),
                    "{tool}: outputSchema{pointer}: {name} is not camelCase"
                );
            }
        }
    }
}

/// The schema at `pointer` in a tool file's outputSchema.
fn output_part(tool: &str, pointer: &str) -> Value {
    tool_file(tool)["outputSchema"]
        .pointer(pointer)
        .unwrap_or_else(|| panic!("{tool}: no outputSchema{pointer}"))
        .clone()
}

/// The schema of a shared shape file, `schemas/shapes/<name>.json`.
fn shape(name: &str) -> Value {
    let path = root().join("schemas/shapes").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file: Value = serde_json::from_str(&text).expect("shape file is JSON");
    file["schema"].clone()
}

#[test]
fn panes_windows_sessions_and_clients_have_one_shape_in_every_reply() {
    // The build gives each copy equal to its shape file the shape's one Rust type; a
    // copy that drifted would get a type of its own and its handler would not compile.
    // This names the copy that drifted.
    let groups = [
        (
            "pane",
            vec![
                ("get_pane_info", "/properties/pane"),
                ("find_pane_by_position", "/properties/pane"),
                ("get_window_info", "/properties/panes/items"),
            ],
        ),
        (
            "window",
            vec![
                ("get_session_info", "/properties/windows/items"),
                ("get_window_info", "/properties/window"),
            ],
        ),
        ("session", vec![("get_session_info", "/properties/session")]),
        // The list tools' rows: brief by default, every field of the shape above with
        // `detail: "full"`.
        ("pane_row", vec![("list_panes", "/properties/panes/items")]),
        ("window_row", vec![("list_windows", "/properties/windows/items")]),
        ("session_row", vec![("list_sessions", "/properties/sessions/items")]),
        (
            "client",
            vec![
                ("get_server_info", "/properties/clients/items"),
                ("get_session_info", "/properties/clients/items"),
            ],
        ),
    ];
    for (name, copies) in groups {
        let shape = shape(name);
        for (tool, pointer) in copies {
            assert_eq!(
                output_part(tool, pointer),
                shape,
                "{tool}{pointer} differs from schemas/shapes/{name}.json"
            );
        }
    }
}

#[test]
fn a_list_row_has_every_field_of_its_object_and_requires_fewer() {
    // `detail: "full"` gives a list row every field the object's own tools give; brief
    // rows require only what an agent acts on.
    for (row_name, object_name) in [
        ("pane_row", "pane"),
        ("window_row", "window"),
        ("session_row", "session"),
    ] {
        let (row, object) = (shape(row_name), shape(object_name));
        let names = |schema: &Value, key: &str| -> Vec<String> {
            match &schema[key] {
                Value::Object(map) => map.keys().cloned().collect(),
                Value::Array(items) => items.iter().map(|v| v.as_str().unwrap().to_string()).collect(),
                _ => Vec::new(),
            }
        };
        assert_eq!(
            names(&row, "properties"),
            names(&object, "properties"),
            "{row_name} and {object_name} name different fields"
        );
        let required = names(&row, "required");
        assert!(
            required.iter().all(|r| names(&object, "required").contains(r)),
            "{row_name} requires a field {object_name} does not"
        );
        assert!(
            required.len() < names(&object, "required").len(),
            "{row_name} is not brief"
        );
    }
}

/// The JSON types a schema allows (paneward's own nullable fields spell theirs as
/// `anyOf` branches, the seeds as `type` arrays).
fn types_of(schema: &Value) -> Vec<String> {
    match (&schema["type"], &schema["anyOf"]) {
        (Value::String(one), _) => vec![one.clone()],
        (Value::Array(many), _) => many.iter().map(|t| t.as_str().unwrap().to_string()).collect(),
        (_, Value::Array(branches)) => branches.iter().flat_map(types_of).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn the_pane_shape_speaks_snapshot_panes_vocabulary() {
    let ours = output_part("list_panes", "/properties/panes/items/properties");
    let snapshot = output_part("snapshot_pane", "/properties/pane/properties");
    for (name, theirs) in snapshot.as_object().unwrap() {
        let mine = ours
            .get(name)
            .unwrap_or_else(|| panic!("snapshot_pane's pane has {name}; the shared pane shape does not"));
        for ty in types_of(mine) {
            assert!(
                types_of(theirs).contains(&ty),
                "{name}: type {ty} is not one snapshot_pane allows"
            );
        }
    }
    assert_eq!(
        output_part("list_panes", "/properties/panes/items/properties/geometry/required"),
        output_part("snapshot_pane", "/properties/pane/properties/geometry/required")
    );
}

#[test]
fn tools_returning_pane_text_are_read_only_and_open_world_unlike_the_seeded_snapshot() {
    // Their output is untrusted program output (open-world), and reading it changes
    // nothing, so a client that auto-approves reads need not ask. snapshot_pane keeps
    // the hints its upstream page published (docs/surface.md says why they differ).
    for name in ["capture_pane", "capture_since", "search_panes"] {
        let file = tool_file(name);
        assert_eq!(file["source"], "paneward", "{name}");
        assert_eq!(
            file["annotations"],
            json!({"readOnlyHint": true}),
            "{name}: annotations (open-world is MCP's default, so left out; a read's destructiveHint means nothing)"
        );
    }
    let snapshot = tool_file("snapshot_pane");
    assert_ne!(snapshot["source"], "paneward");
    assert_eq!(snapshot["annotations"]["destructiveHint"], json!(true));
}

#[test]
fn tools_json_prints_exactly_the_tools_list_result_sent_over_stdio() {
    for (tier, version) in [
        ("readonly", "2024-11-05"),
        ("mutating", "2025-06-18"),
        ("destructive", "2025-11-25"),
    ] {
        let mut client = crate::support::Client::spawn(&["-L", "pw-unused-list", "--safety", tier], &[]);
        client.initialize_with(version);
        assert_eq!(client.list_tools(), advertised(tier), "{tier} at protocol {version}");
    }
}

#[test]
fn paneward_s_own_tools_advertise_no_default_hint_and_no_second_title() {
    // A client reads a hint left out as MCP's default, and the tool's title is at its
    // top level: saying either again costs every session bytes for nothing.
    let defaults = [
        ("readOnlyHint", false),
        ("destructiveHint", true),
        ("idempotentHint", false),
        ("openWorldHint", true),
    ];
    let list = advertised("destructive");
    let mut own = 0;
    for tool in list["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        if tool_file(name)["source"] != "paneward" {
            continue;
        }
        own += 1;
        let annotations = tool["annotations"].as_object().unwrap();
        assert!(
            !annotations.contains_key("title"),
            "{name}: annotations repeat the title"
        );
        for (hint, default) in defaults {
            assert_ne!(
                annotations.get(hint),
                Some(&json!(default)),
                "{name}: {hint} says MCP's default"
            );
        }
    }
    assert!(own > 60, "only {own} of paneward's own tools listed");
    // What is left still says what differs: a read is read-only, a kill is not idempotent
    // (MCP's default, left out) and destructive (likewise), a layout change is neither.
    assert_eq!(
        advertised_tool(&list, "list_panes")["annotations"]["readOnlyHint"],
        json!(true)
    );
    assert_eq!(
        advertised_tool(&list, "kill_pane")["annotations"],
        json!({"openWorldHint": false})
    );
    assert_eq!(
        advertised_tool(&list, "select_layout")["annotations"],
        json!({"destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
    );
}
