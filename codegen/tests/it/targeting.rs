//! A profile's inputs get their targeting from their schemas: the build implements
//! `runtime::targeting::Targeted` for every input with one of libtmux's targeting
//! properties, reading exactly those properties, and for no other input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::common::TempDir;

/// A profile tool file named `name` whose input has `properties` (`required` among them).
fn profile_tool(name: &str, properties: Value, required: &[&str]) -> String {
    json!({
        "name": name,
        "description": "A probe.",
        "tier": "readonly",
        "toolset": "inspect",
        "class": "metadata-read",
        "source": "paneward",
        "handler": "flavour::observe",
        "inputSchema": {"type": "object", "additionalProperties": false, "properties": properties, "required": required},
        "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
        "annotations": {"readOnlyHint": true, "openWorldHint": false}
    })
    .to_string()
}

/// The generated source of the profile folder holding `files`.
fn generated(files: &[(&str, String)]) -> String {
    let root = TempDir::new();
    let mut folder = None;
    for (name, text) in files {
        folder = Some(root.file(&format!("schemas/profiles/flavour/{name}"), text));
    }
    let folder = folder.unwrap().parent().unwrap().to_path_buf();
    paneward_codegen::generate::generate_folder(&folder, paneward_codegen::load::load_dir(&folder).unwrap()).unwrap()
}

/// The `impl Targeted` block generated for `input`, if any, without its whitespace
/// (the pretty-printer breaks long lines).
fn impl_for(source: &str, input: &str) -> Option<String> {
    let head = format!("impl crate::runtime::targeting::Targeted for types::{input} {{");
    let start = source.find(&head)?;
    let end = source[start..]
        .find("\n    }\n")
        .map_or(source.len(), |end| start + end);
    Some(source[start..end].chars().filter(|c| !c.is_whitespace()).collect())
}

#[test]
fn every_profile_input_with_a_targeting_property_reads_exactly_those() {
    let optional = json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": null});
    let source = generated(&[
        (
            "aim.json",
            profile_tool(
                "aim",
                json!({"pane_id": {"type": "string"}, "session_name": optional, "socket_name": optional, "keys": {"type": "string"}}),
                &["pane_id", "keys"],
            ),
        ),
        (
            "plain.json",
            profile_tool("plain", json!({"keys": {"type": "string"}}), &["keys"]),
        ),
    ]);
    let aim = impl_for(&source, "AimInput").unwrap_or_else(|| panic!("no impl for AimInput in\n{source}"));
    for present in ["pane_id", "session_name", "socket_name"] {
        assert!(
            aim.contains(&format!(
                "{present}:crate::runtime::targeting::TargetField::target(&self.{present},)"
            )) || aim.contains(&format!(
                "{present}:crate::runtime::targeting::TargetField::target(&self.{present})"
            )),
            "{present} is read from the input:\n{aim}"
        );
    }
    for absent in ["session_id", "window_id", "window_index"] {
        assert!(
            aim.contains(&format!("{absent}:::std::option::Option::None")),
            "{absent} is none:\n{aim}"
        );
    }
    assert!(!aim.contains("keys"), "only targeting properties are read:\n{aim}");
    assert!(
        impl_for(&source, "PlainInput").is_none(),
        "an input without targeting gets no impl"
    );
}

#[test]
fn the_default_tools_get_no_targeting() {
    let dir = TempDir::new();
    dir.file(
        "probe.json",
        &profile_tool("probe", json!({"pane_id": {"type": "string"}}), &["pane_id"])
            .replace(",\"handler\":\"flavour::observe\"", ""),
    );
    let source = paneward_codegen::generate_from_dir(dir.path()).unwrap();
    assert!(source.contains("pub struct ProbeInput"), "{source}");
    assert!(!source.contains("Targeted"), "{source}");
}
