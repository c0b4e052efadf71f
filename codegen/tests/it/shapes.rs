//! Shared shapes: an object equal to a shape file's schema becomes the shape's one Rust
//! type in every tool; an object that differs keeps a type of its own.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::common::TempDir;
use serde_json::{json, Value};

fn thing() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "description": "a thing",
        "properties": {
            "id": {"type": "string", "pattern": "^#[0-9]+$"},
            "size": {"type": "object", "properties": {"width": {"type": "integer"}}, "required": ["width"]}
        },
        "required": ["id", "size"]
    })
}

/// A readonly tool whose output holds `output_properties`.
fn tool(name: &str, output_properties: Value) -> String {
    let required: Vec<String> = output_properties.as_object().unwrap().keys().cloned().collect();
    json!({
        "name": name,
        "description": "A probe.",
        "tier": "readonly",
        "source": "paneward",
        "inputSchema": {"type": "object", "additionalProperties": false, "properties": {}},
        "outputSchema": {"type": "object", "properties": output_properties, "required": required},
        "annotations": {"readOnlyHint": true}
    })
    .to_string()
}

/// `schemas/tools/{a,b}.json` and `schemas/shapes/thing.json`; returns the folder.
fn schemas(a: Value, b: Value, shape: Value) -> TempDir {
    let dir = TempDir::new();
    dir.file("tools/a.json", &tool("a", json!({ "thing": a })));
    dir.file(
        "tools/b.json",
        &tool("b", json!({ "things": {"type": "array", "items": b} })),
    );
    dir.file(
        "shapes/thing.json",
        &json!({"name": "Thing", "schema": shape}).to_string(),
    );
    dir
}

fn generate(dir: &TempDir) -> Result<String, String> {
    paneward_codegen::generate_from_dir(&dir.path().join("tools"))
        .map_err(|e| e.to_string().replace(&dir.path().display().to_string(), "<dir>"))
}

fn count(source: &str, needle: &str) -> usize {
    source.matches(needle).count()
}

#[test]
fn equal_objects_in_two_tools_become_the_shapes_one_type() {
    let source = generate(&schemas(thing(), thing(), thing())).unwrap();
    assert_eq!(count(&source, "pub struct Thing {"), 1, "{source}");
    // Its parts are named after the shape too, once.
    assert_eq!(count(&source, "pub struct ThingId("), 1, "{source}");
    assert_eq!(count(&source, "pub struct ThingSize {"), 1, "{source}");
    assert!(source.contains("pub thing: Thing,"), "{source}");
    assert!(source.contains("pub things: ::std::vec::Vec<Thing>,"), "{source}");
    assert!(
        !source.contains("AOutputThing") && !source.contains("BOutputThingsItem"),
        "{source}"
    );
}

#[test]
fn the_build_passes_the_shapes_folder_explicitly() {
    let dir = schemas(thing(), thing(), thing());
    let source =
        paneward_codegen::generate_from_dirs(&dir.path().join("tools"), Some(&dir.path().join("shapes"))).unwrap();
    assert_eq!(count(&source, "pub struct Thing {"), 1, "{source}");
    // Without shapes each tool has its own type, as typify names them by position.
    let plain = paneward_codegen::generate_from_dirs(&dir.path().join("tools"), None).unwrap();
    assert!(!plain.contains("pub struct Thing {"), "{plain}");
    assert!(plain.contains("pub struct AOutputThing {") && plain.contains("pub struct BOutputThingsItem {"));
}

#[test]
fn an_object_one_field_off_its_shape_keeps_a_type_of_its_own() {
    let mut other = thing();
    other["properties"]["extra"] = json!({"type": "boolean"});
    let source = generate(&schemas(thing(), other, thing())).unwrap();
    assert_eq!(count(&source, "pub struct Thing {"), 1, "{source}");
    assert!(source.contains("pub thing: Thing,"), "{source}");
    // Not merged: b's object is its own type, with its extra field.
    assert!(source.contains("pub struct BOutputThingsItem {"), "{source}");
    assert!(
        source.contains("pub things: ::std::vec::Vec<BOutputThingsItem>,"),
        "{source}"
    );
    assert!(source.contains("pub extra: ::std::option::Option<bool>,"), "{source}");
}

#[test]
fn a_description_alone_makes_an_object_differ_from_its_shape() {
    let mut other = thing();
    other["description"] = json!("a thing, said otherwise");
    let source = generate(&schemas(thing(), other, thing())).unwrap();
    assert!(
        source.contains("pub things: ::std::vec::Vec<BOutputThingsItem>,"),
        "{source}"
    );
}

#[test]
fn a_shape_no_tool_matches_is_refused_with_its_file() {
    let mut shape = thing();
    shape["properties"]["gone"] = json!({"type": "string"});
    let error = generate(&schemas(thing(), thing(), shape)).unwrap_err();
    assert!(error.starts_with("<dir>/shapes/thing.json"), "{error}");
    assert!(error.contains("no tool's schema equals the shape `Thing`"), "{error}");
}

#[test]
fn a_shape_name_a_tool_position_already_has_is_refused() {
    // `AOutputThing` is the positional name of a's object; a shape of that name for
    // b's different object would make two schemas one type.
    let dir = TempDir::new();
    let mut other = thing();
    other["properties"]["extra"] = json!({"type": "boolean"});
    dir.file("tools/a.json", &tool("a", json!({ "thing": thing() })));
    dir.file("tools/b.json", &tool("b", json!({ "thing": other.clone() })));
    dir.file(
        "shapes/a_output_thing.json",
        &json!({"name": "AOutputThing", "schema": other}).to_string(),
    );
    let error = generate(&dir).unwrap_err();
    assert!(
        error.contains("the Rust type name `AOutputThing` is already used"),
        "{error}"
    );
    assert!(error.contains("<dir>/tools/a.json"), "{error}");
}

#[test]
fn shape_files_are_checked() {
    let cases = [
        (json!({"name": "Other", "schema": thing()}), "/name: must be `Thing`"),
        (json!({"name": "Thing"}), "`schema` is missing"),
        (json!({"name": "Thing", "schema": thing(), "x": 1}), "/x: unknown key"),
        (
            json!({"name": "Thing", "schema": {"type": "string"}}),
            "/schema: must be an object schema",
        ),
    ];
    for (file, expected) in cases {
        let dir = schemas(thing(), thing(), thing());
        dir.file("shapes/thing.json", &file.to_string());
        let error = generate(&dir).unwrap_err();
        assert!(
            error.contains("thing.json") && error.contains(expected),
            "{expected}: {error}"
        );
    }
}
