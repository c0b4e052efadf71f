//! Every schema rule of `diff`, each on a hand-made pair of contracts: narrowing an
//! input and widening an output break clients, the reverse does not. Each test asserts
//! the class, the rule and the JSON pointer of exactly the changes expected, so a rule
//! that also reports noise fails too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::common::probe::{changes, changes_between, expect, input, output, remove};
use serde_json::json;

#[test]
fn identical_contracts_have_no_changes() {
    assert_eq!(changes(|_| {}), vec![]);
}

// ---- inputs: narrowing breaks clients

#[test]
fn a_required_input_added_is_breaking() {
    expect(
        |t| {
            input(t)["properties"]["window_id"] = json!({"type": "string"});
            input(t)["required"] = json!(["pane_id", "window_id"]);
        },
        "breaking",
        "required-input-added",
        "/inputSchema/properties/window_id",
    );
}

#[test]
fn an_input_removed_is_breaking() {
    expect(
        |t| remove(&mut input(t)["properties"], "name"),
        "breaking",
        "input-removed",
        "/inputSchema/properties/name",
    );
}

#[test]
fn an_optional_input_made_required_is_breaking() {
    expect(
        |t| input(t)["required"] = json!(["pane_id", "mode"]),
        "breaking",
        "input-made-required",
        "/inputSchema/properties/mode",
    );
}

#[test]
fn an_input_enum_value_removed_is_breaking() {
    expect(
        |t| input(t)["properties"]["mode"]["enum"] = json!(["fast"]),
        "breaking",
        "narrowed",
        "/inputSchema/properties/mode/enum",
    );
}

#[test]
fn an_input_type_narrowed_is_breaking() {
    expect(
        |t| input(t)["properties"]["note"]["type"] = json!("string"),
        "breaking",
        "narrowed",
        "/inputSchema/properties/note/type",
    );
}

#[test]
fn a_lower_or_new_upper_bound_on_an_input_is_breaking() {
    let p = "/inputSchema/properties";
    expect(
        |t| input(t)["properties"]["pane_id"]["maxLength"] = json!(10),
        "breaking",
        "narrowed",
        &format!("{p}/pane_id/maxLength"),
    );
    expect(
        |t| input(t)["properties"]["name"]["maxLength"] = json!(64),
        "breaking",
        "narrowed",
        &format!("{p}/name/maxLength"),
    );
    expect(
        |t| input(t)["properties"]["tags"]["maxItems"] = json!(3),
        "breaking",
        "narrowed",
        &format!("{p}/tags/maxItems"),
    );
    expect(
        |t| input(t)["properties"]["count"]["maximum"] = json!(5),
        "breaking",
        "narrowed",
        &format!("{p}/count/maximum"),
    );
    expect(
        |t| input(t)["properties"]["count"]["minimum"] = json!(2),
        "breaking",
        "narrowed",
        &format!("{p}/count/minimum"),
    );
}

#[test]
fn a_pattern_added_to_an_input_is_breaking() {
    expect(
        |t| input(t)["properties"]["pane_id"]["pattern"] = json!("^%\\d+$"),
        "breaking",
        "narrowed",
        "/inputSchema/properties/pane_id/pattern",
    );
}

#[test]
fn an_input_object_closed_is_breaking() {
    expect(
        |t| input(t)["properties"]["options"]["additionalProperties"] = json!(false),
        "breaking",
        "narrowed",
        "/inputSchema/properties/options/additionalProperties",
    );
}

#[test]
fn an_input_type_changed_is_breaking_and_reported_once() {
    // `maximum` and `minimum` no longer apply to a string; the type change says it all.
    expect(
        |t| input(t)["properties"]["count"]["type"] = json!("string"),
        "breaking",
        "changed",
        "/inputSchema/properties/count/type",
    );
}

#[test]
fn a_variant_removed_from_an_input_is_breaking_and_variants_pair_by_their_const() {
    assert_eq!(
        changes(|t| {
            let variants = input(t)["properties"]["op"]["oneOf"].as_array_mut().unwrap();
            variants.remove(0);
            variants[0]["properties"]["what"]["maxLength"] = json!(8);
            variants.push(json!({"type": "object", "properties": {"tool": {"const": "watch"}}}));
        }),
        vec![
            (
                "breaking".into(),
                "narrowed".into(),
                "/inputSchema/properties/op/oneOf/0".into()
            ),
            (
                "breaking".into(),
                "narrowed".into(),
                "/inputSchema/properties/op/oneOf/0/properties/what/maxLength".into()
            ),
            (
                "compatible".into(),
                "widened".into(),
                "/inputSchema/properties/op/oneOf/1".into()
            ),
        ]
    );
}

// ---- inputs: widening is compatible

#[test]
fn an_optional_input_added_is_compatible() {
    expect(
        |t| input(t)["properties"]["history"] = json!({"type": "boolean"}),
        "compatible",
        "optional-input-added",
        "/inputSchema/properties/history",
    );
}

#[test]
fn a_required_input_made_optional_is_compatible() {
    expect(
        |t| input(t)["required"] = json!([]),
        "compatible",
        "input-made-optional",
        "/inputSchema/properties/pane_id",
    );
}

#[test]
fn an_input_widened_is_compatible() {
    let p = "/inputSchema/properties";
    expect(
        |t| input(t)["properties"]["mode"]["enum"] = json!(["fast", "slow", "auto"]),
        "compatible",
        "widened",
        &format!("{p}/mode/enum"),
    );
    expect(
        |t| input(t)["properties"]["pane_id"]["maxLength"] = json!(40),
        "compatible",
        "widened",
        &format!("{p}/pane_id/maxLength"),
    );
    expect(
        |t| remove(&mut input(t)["properties"]["tags"], "maxItems"),
        "compatible",
        "widened",
        &format!("{p}/tags/maxItems"),
    );
    expect(
        |t| input(t)["properties"]["name"]["type"] = json!(["string", "null"]),
        "compatible",
        "widened",
        &format!("{p}/name/type"),
    );
    expect(
        |t| input(t)["additionalProperties"] = json!(true),
        "compatible",
        "widened",
        "/inputSchema/additionalProperties",
    );
}

#[test]
fn a_nullable_type_spelled_as_any_of_is_the_same_type() {
    assert_eq!(
        changes(|t| input(t)["properties"]["note"] = json!({"anyOf": [{"type": "string"}, {"type": "null"}]})),
        vec![]
    );
}

#[test]
fn a_variant_added_to_a_nullable_any_of_input_is_only_widened() {
    let nullable = json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
    let mut wider = nullable.clone();
    wider["anyOf"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "object", "properties": {"text": {"type": "string"}}}));
    assert_eq!(
        changes_between(
            |t| input(t)["properties"]["note"] = nullable,
            |t| input(t)["properties"]["note"] = wider,
        ),
        vec![(
            "compatible".into(),
            "widened".into(),
            "/inputSchema/properties/note/anyOf/2".into()
        )]
    );
}

#[test]
fn a_type_made_nullable_by_an_any_of_is_widened() {
    assert_eq!(
        changes_between(
            |t| input(t)["properties"]["note"] = json!({"type": "string"}),
            |t| input(t)["properties"]["note"] = json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
        ),
        vec![(
            "compatible".into(),
            "widened".into(),
            "/inputSchema/properties/note/type".into()
        )]
    );
}

// ---- outputs: a promise kept less breaks clients

#[test]
fn an_output_field_removed_is_breaking() {
    expect(
        |t| {
            remove(&mut output(t)["properties"], "state");
        },
        "breaking",
        "output-field-removed",
        "/outputSchema/properties/state",
    );
}

#[test]
fn an_output_field_made_optional_is_breaking() {
    expect(
        |t| output(t)["required"] = json!(["ok"]),
        "breaking",
        "output-field-made-optional",
        "/outputSchema/properties/lines",
    );
}

#[test]
fn an_output_field_added_to_a_closed_object_is_breaking() {
    expect(
        |t| output(t)["properties"]["count"] = json!({"type": "integer"}),
        "breaking",
        "output-field-added-to-closed-object",
        "/outputSchema/properties/count",
    );
}

#[test]
fn an_output_field_added_outside_the_old_additional_properties_is_breaking() {
    // Old clients checked `count` against `additionalProperties`, which allowed only strings.
    let strings = |t: &mut serde_json::Value| {
        output(t)["properties"]["extra"]["additionalProperties"] = json!({"type": "string"});
    };
    assert_eq!(
        changes_between(strings, |t| {
            strings(t);
            output(t)["properties"]["extra"]["properties"]["count"] = json!({"type": "integer"});
        }),
        vec![(
            "breaking".into(),
            "changed".into(),
            "/outputSchema/properties/extra/properties/count/type".into()
        )]
    );
    assert_eq!(
        changes_between(strings, |t| {
            strings(t);
            output(t)["properties"]["extra"]["properties"]["b"] = json!({"type": "string"});
        }),
        vec![(
            "compatible".into(),
            "output-field-added".into(),
            "/outputSchema/properties/extra/properties/b".into()
        )]
    );
}

#[test]
fn an_output_that_may_hold_more_values_is_breaking() {
    let p = "/outputSchema/properties";
    expect(
        |t| output(t)["properties"]["state"]["enum"] = json!(["idle", "busy", "gone"]),
        "breaking",
        "widened",
        &format!("{p}/state/enum"),
    );
    expect(
        |t| output(t)["properties"]["ok"]["type"] = json!(["boolean", "null"]),
        "breaking",
        "widened",
        &format!("{p}/ok/type"),
    );
    expect(
        |t| remove(output(t), "additionalProperties"),
        "breaking",
        "widened",
        "/outputSchema/additionalProperties",
    );
}

#[test]
fn an_output_type_changed_is_breaking() {
    expect(
        |t| output(t)["properties"]["ok"]["type"] = json!("string"),
        "breaking",
        "changed",
        "/outputSchema/properties/ok/type",
    );
}

#[test]
fn an_output_schema_removed_is_breaking() {
    expect(
        |t| remove(t, "outputSchema"),
        "breaking",
        "output-schema-removed",
        "/outputSchema",
    );
}

// ---- outputs: a promise kept more is compatible

#[test]
fn an_output_field_added_where_additional_properties_allow_it_is_compatible() {
    expect(
        |t| output(t)["properties"]["extra"]["properties"]["b"] = json!({"type": "string"}),
        "compatible",
        "output-field-added",
        "/outputSchema/properties/extra/properties/b",
    );
}

#[test]
fn an_output_that_promises_more_is_compatible() {
    expect(
        |t| output(t)["properties"]["extra"]["required"] = json!(["a"]),
        "compatible",
        "output-field-made-required",
        "/outputSchema/properties/extra/properties/a",
    );
    expect(
        |t| output(t)["properties"]["state"]["enum"] = json!(["idle"]),
        "compatible",
        "narrowed",
        "/outputSchema/properties/state/enum",
    );
}
