//! Argument escalations in a tool file: `check` (and so the build) refuses a bad one
//! naming the file and JSON pointer; a good one is generated with the gate of its reach,
//! and `import` keeps it like `handler`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::common::{codegen, stderr, TempDir};
use serde_json::{json, Value};

fn tool(escalations: Value) -> Value {
    json!({
        "name": "probe",
        "description": "A probe.",
        "tier": "mutating",
        "toolset": "execute",
        "class": "workspace-create",
        "escalations": escalations,
        "reaches": [],
        "source": "https://example.org/probe/",
        "inputSchema": {"type": "object", "additionalProperties": false, "properties": {"kill": {"type": "boolean"}}},
        "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
        "annotations": {}
    })
}

fn check(escalations: Value) -> (Option<i32>, String) {
    let dir = TempDir::new();
    dir.file("probe.json", &tool(escalations).to_string());
    let output = codegen(&["check", &dir.path().display().to_string()]);
    let text = stderr(&output).replace(&dir.path().display().to_string(), "<dir>");
    (output.status.code(), text)
}

#[test]
fn check_refuses_each_bad_escalation_at_its_pointer() {
    let cases = [
        (json!([{"argument": "force", "equals": true, "tier": "destructive"}]), "<dir>/probe.json at /escalations/0/argument: `force` is not a property of inputSchema"),
        (json!([{"argument": "kill", "equals": 1, "tier": "destructive"}]), "<dir>/probe.json at /escalations/0/equals: 1 is not a value /inputSchema/properties/kill accepts"),
        (json!([{"argument": "kill", "equals": true, "tier": "mutating"}]), "<dir>/probe.json at /escalations/0/tier: must be above the tool's tier `mutating`; an escalation only ever raises it"),
        (json!({"kill": true}), "<dir>/probe.json at /escalations: must be a non-empty array"),
    ];
    for (escalations, expected) in cases {
        let (code, text) = check(escalations.clone());
        assert_ne!(code, Some(0), "{escalations} must be refused");
        assert!(text.contains(expected), "{escalations}: {text}");
    }
}

#[test]
fn a_good_escalation_passes_and_its_tool_gets_the_gate_of_its_reach() {
    let (code, text) = check(json!([{"argument": "kill", "equals": true, "tier": "destructive"}]));
    assert_eq!(code, Some(0), "{text}");
    let dir = TempDir::new();
    dir.file(
        "probe.json",
        &tool(json!([{"argument": "kill", "equals": true, "tier": "destructive"}])).to_string(),
    );
    let source = paneward_codegen::generate_from_dir(dir.path()).unwrap();
    assert!(
        source.contains("EndGate :: for_call") || source.contains("EndGate::for_call"),
        "the gate of destructive"
    );
    assert!(source.contains("EscalationSpec"), "the table carries the escalation");
}

#[test]
fn import_keeps_the_escalations_of_an_existing_file() {
    let dir = TempDir::new();
    let schemas = dir.path().join("tools");
    std::fs::create_dir(&schemas).unwrap();
    let mut existing = tool(json!([{"argument": "kill", "equals": true, "tier": "destructive"}]));
    existing["handler"] = json!("probe");
    std::fs::write(schemas.join("probe.json"), existing.to_string()).unwrap();
    // Upstream publishes the tool without paneward's fields.
    let mut upstream = existing.clone();
    for key in ["tier", "handler", "escalations", "source"] {
        upstream.as_object_mut().unwrap().remove(key);
    }
    upstream["description"] = json!("A probe, described anew.");
    let source = dir.file("upstream.json", &upstream.to_string());
    let output = codegen(&[
        "import",
        &source.display().to_string(),
        "--schemas",
        &dir.path().display().to_string(),
    ]);
    assert_ne!(output.status.code(), Some(3), "{}", stderr(&output));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(schemas.join("probe.json")).unwrap()).unwrap();
    assert_eq!(written["description"], json!("A probe, described anew."));
    assert_eq!(written["escalations"], existing["escalations"]);
}
