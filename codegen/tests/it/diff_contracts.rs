//! The rules of `diff` beyond schemas (tools, words, tiers, annotations, keywords it
//! does not model), then the command line: report lines, `--json`, exit codes, and
//! the kinds of contract it compares.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::common::probe::{base, changes_between, expect, input, remove, tool};
use crate::common::{codegen, stdout, TempDir};
use paneward_codegen::diff::{diff, diff_tool};
use paneward_codegen::source::Contract;
use serde_json::{json, Value};

// ---- words, tools, tiers, annotations

#[test]
fn descriptions_and_titles_changed_are_compatible() {
    expect(
        |t| t["description"] = json!("Probes."),
        "compatible",
        "description-changed",
        "/description",
    );
    expect(
        |t| t["title"] = json!("Probe it"),
        "compatible",
        "title-changed",
        "/title",
    );
    expect(
        |t| input(t)["properties"]["pane_id"]["description"] = json!("the pane"),
        "compatible",
        "documentation-changed",
        "/inputSchema/properties/pane_id/description",
    );
}

#[test]
fn a_tool_removed_is_breaking_and_a_tool_added_is_compatible() {
    let one: Contract = [("probe".to_string(), tool(&base()))].into();
    let none = Contract::new();
    let removed = diff(&one, &none);
    assert_eq!(removed.len(), 1);
    assert_eq!(
        (removed[0].class.as_str(), removed[0].rule.as_str().as_str()),
        ("breaking", "tool-removed")
    );
    assert_eq!((removed[0].tool.as_str(), removed[0].pointer.as_str()), ("probe", ""));
    let added = diff(&none, &one);
    assert_eq!(added.len(), 1);
    assert_eq!(
        (added[0].class.as_str(), added[0].rule.as_str().as_str()),
        ("compatible", "tool-added")
    );
    assert_eq!((added[0].tool.as_str(), added[0].pointer.as_str()), ("probe", ""));
}

#[test]
fn a_tier_raised_is_breaking_and_lowered_is_compatible() {
    expect(|t| t["tier"] = json!("mutating"), "breaking", "tier-raised", "/tier");
    let old = {
        let mut v = base();
        v["tier"] = json!("destructive");
        v
    };
    let lowered = diff_tool(Some(&tool(&old)), &tool(&base()));
    assert_eq!(lowered.len(), 1);
    assert_eq!(
        (lowered[0].class.as_str(), lowered[0].rule.as_str().as_str()),
        ("compatible", "tier-lowered")
    );
}

#[test]
fn an_escalation_added_is_breaking_and_removed_is_compatible() {
    let escalate =
        |t: &mut Value| t["escalations"] = json!([{"argument": "mode", "equals": "slow", "tier": "mutating"}]);
    expect(escalate, "breaking", "escalation-added", "/escalations");
    let removed = changes_between(escalate, |_| {});
    assert_eq!(
        removed,
        [(
            "compatible".to_string(),
            "escalation-removed".to_string(),
            "/escalations".to_string()
        )]
    );
}

#[test]
fn an_annotation_that_drops_a_promise_is_breaking() {
    expect(
        |t| t["annotations"]["readOnlyHint"] = json!(false),
        "breaking",
        "annotation-promise-dropped",
        "/annotations/readOnlyHint",
    );
    // Left out, destructiveHint means its default, true: the promise is gone too.
    expect(
        |t| remove(&mut t["annotations"], "destructiveHint"),
        "breaking",
        "annotation-promise-dropped",
        "/annotations/destructiveHint",
    );
}

#[test]
fn an_annotation_that_adds_a_promise_or_changes_wording_is_compatible() {
    expect(
        |t| t["annotations"]["idempotentHint"] = json!(true),
        "compatible",
        "annotation-changed",
        "/annotations/idempotentHint",
    );
    expect(
        |t| t["annotations"]["openWorldHint"] = json!(true),
        "compatible",
        "annotation-changed",
        "/annotations/openWorldHint",
    );
    expect(
        |t| t["annotations"]["title"] = json!("Probe it"),
        "compatible",
        "annotation-changed",
        "/annotations/title",
    );
}

#[test]
fn a_hint_that_stops_being_a_boolean_is_breaking_but_one_that_never_was_is_not() {
    expect(
        |t| t["annotations"]["readOnlyHint"] = json!("yes"),
        "breaking",
        "annotation-promise-dropped",
        "/annotations/readOnlyHint",
    );
    // A JSON source (not a tool file) may hold anything; unreadable before and after
    // drops no promise.
    assert_eq!(
        changes_between(
            |t| t["annotations"]["readOnlyHint"] = json!("yes"),
            |t| t["annotations"]["readOnlyHint"] = json!("always"),
        ),
        vec![(
            "compatible".into(),
            "annotation-changed".into(),
            "/annotations/readOnlyHint".into()
        )]
    );
}

#[test]
fn a_keyword_the_diff_does_not_model_is_flagged_for_review() {
    expect(
        |t| input(t)["properties"]["name"]["allOf"] = json!([{"minLength": 1}]),
        "breaking",
        "unknown-keyword-changed",
        "/inputSchema/properties/name/allOf",
    );
}

// ---- the command line

fn folder_with(dir: &TempDir, name: &str, tools: &[Value]) -> String {
    for tool in tools {
        dir.file(
            &format!("{name}/{}.json", tool["name"].as_str().unwrap()),
            &tool.to_string(),
        );
    }
    dir.path().join(name).display().to_string()
}

#[test]
fn the_command_line_exits_0_1_2_for_none_compatible_breaking_and_3_for_errors() {
    let dir = TempDir::new();
    let old = folder_with(&dir, "old", &[base()]);
    let same = folder_with(&dir, "same", &[base()]);
    let mut reworded = base();
    reworded["description"] = json!("Probes.");
    let compatible = folder_with(&dir, "compatible", &[reworded]);
    let mut other = base();
    other["name"] = json!("other");
    let breaking = folder_with(&dir, "breaking", &[other]);

    let output = codegen(&["diff", &old, &same]);
    assert_eq!(
        (output.status.code(), stdout(&output)),
        (Some(0), "no changes\n".to_string())
    );
    let output = codegen(&["diff", &old, &compatible]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output),
        "compatible probe#/description: description changed\n1 change: 0 breaking, 1 compatible\n"
    );
    let output = codegen(&["diff", &old, &breaking]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stdout(&output),
        "compatible other: tool added\nbreaking   probe: tool removed\n2 changes: 1 breaking, 1 compatible\n"
    );
    let output = codegen(&["diff", &old, &format!("{old}/missing")]);
    assert_eq!(output.status.code(), Some(3));
    assert!(
        crate::common::stderr(&output).contains("missing: cannot read the file"),
        "{}",
        crate::common::stderr(&output)
    );
    assert_eq!(codegen(&["diff", &old]).status.code(), Some(3));
}

#[test]
fn the_json_report_lists_each_change_with_class_rule_and_pointer() {
    let dir = TempDir::new();
    let old = folder_with(&dir, "old", &[base()]);
    let mut changed = base();
    changed["inputSchema"]["required"] = json!(["pane_id", "mode"]);
    let new = folder_with(&dir, "new", &[changed]);
    let output = codegen(&["diff", "--json", &old, &new]);
    assert_eq!(output.status.code(), Some(2));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report,
        json!({
            "changes": [{
                "tool": "probe",
                "pointer": "/inputSchema/properties/mode",
                "class": "breaking",
                "rule": "input-made-required",
                "message": "input `mode` is now required"
            }],
            "breaking": 1,
            "compatible": 0
        })
    );
}

#[test]
fn a_tools_list_result_compares_with_a_folder_of_tool_files() {
    // Without tier and source (tools/list has neither), the committed contract is unchanged.
    let dir = TempDir::new();
    let mut tools = Vec::new();
    for tool in paneward_codegen::load::load_dir(&crate::common::schemas().join("tools")).unwrap() {
        let mut value: Value = serde_json::from_str(&std::fs::read_to_string(&tool.path).unwrap()).unwrap();
        remove(&mut value, "tier");
        remove(&mut value, "source");
        tools.push(value);
    }
    let list = dir.file(
        "list.json",
        &json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}}).to_string(),
    );
    let folder = crate::common::schemas().join("tools");
    let output = codegen(&["diff", folder.to_str().unwrap(), list.to_str().unwrap()]);
    assert_eq!(
        (output.status.code(), stdout(&output)),
        (Some(0), "no changes\n".to_string())
    );
}
