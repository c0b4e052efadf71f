//! The generated types: the batch's sixteen `arguments` objects are sixteen distinct
//! types (typify would otherwise merge them), and seed-shaped inputs round-trip.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use paneward::generated::types::{
    CallReadToolsBatchInput, CallReadToolsBatchInputOperationsItem as Op, SendKeysBatchInput,
};
use paneward::generated::TOOLS;
use serde_json::json;

#[test]
fn every_batch_operation_keeps_its_own_arguments() {
    let input: CallReadToolsBatchInput = serde_json::from_value(json!({
        "operations": [
            {"tool": "list_sessions"},
            {"tool": "get_pane_info", "arguments": {"pane_id": "%1"}},
            {"tool": "capture_pane", "arguments": {"pane_id": "%2", "history": true, "max_lines": 7}},
            {"tool": "search_panes", "arguments": {"pattern": "err", "regex": true, "max_matches_per_pane": 3}},
            {"tool": "get_tmux_variables", "arguments": {"names": null}},
            {"tool": "find_pane_by_position", "arguments": {"window_id": "@1", "position": "top-left"}}
        ],
        "on_error": "continue"
    }))
    .expect("seed-shaped batch input decodes");
    let ops = input.operations.expect("operations");
    assert!(matches!(&ops[0], Op::ListSessions { arguments: None }));
    match &ops[1] {
        Op::GetPaneInfo { arguments: Some(a) } => assert_eq!(a.pane_id, "%1"),
        other => panic!("{other:?}"),
    }
    match &ops[2] {
        Op::CapturePane { arguments: Some(a) } => {
            assert_eq!(
                (a.pane_id.as_str(), a.history, a.max_lines),
                ("%2", Some(true), Some(7))
            );
        }
        other => panic!("{other:?}"),
    }
    match &ops[3] {
        Op::SearchPanes { arguments: Some(a) } => {
            assert_eq!(a.pattern.as_str(), "err");
            assert_eq!(a.max_matches_per_pane, Some(3));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&ops[4], Op::GetTmuxVariables { arguments: Some(a) } if a.names.is_none()));
    assert!(matches!(&ops[5], Op::FindPaneByPosition { arguments: Some(a) } if a.window_id == "@1"));
}

#[test]
fn a_field_of_one_operation_is_refused_on_another() {
    // With merged types, list_sessions would accept get_pane_info's pane_id (or refuse it
    // in get_pane_info); distinct closed types refuse it only where it does not belong.
    let wrong = json!({"operations": [{"tool": "list_sessions", "arguments": {"pane_id": "%1"}}]});
    assert!(serde_json::from_value::<CallReadToolsBatchInput>(wrong).is_err());
}

#[test]
fn send_keys_rows_enforce_the_pane_id_pattern() {
    let ok = json!({"operations": [{"paneId": "%3", "keys": "ls"}]});
    assert!(serde_json::from_value::<SendKeysBatchInput>(ok).is_ok());
    let bad = json!({"operations": [{"paneId": "main:0", "keys": "ls"}]});
    assert!(serde_json::from_value::<SendKeysBatchInput>(bad).is_err());
}

#[test]
fn the_tool_table_is_sorted_and_carries_compact_schemas() {
    let names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    for tool in &TOOLS {
        let schema: serde_json::Value = serde_json::from_str(tool.input_schema).unwrap();
        assert_eq!(schema["type"], "object", "{}", tool.name);
    }
}
