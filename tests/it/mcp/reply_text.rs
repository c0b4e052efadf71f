//! The text beside a structured result, on a real tmux: every list and read tool's
//! text holds every fact of its structured content and is no longer than its JSON.

use serde_json::{json, Value};

use crate::support::{assert_text_of, assert_valid_output, fact_missing_from, TextStyle, TmuxServer};

#[test]
fn every_list_and_read_reply_text_holds_every_fact_of_its_structured_content() {
    let tmux = TmuxServer::start();
    // Names a table must quote or could misread: a separator, quotes, a number, a
    // boolean, spaces at the ends.
    for name in ["a,b", "say \"hi\"", "3", "true", " padded "] {
        tmux.tmux(&["new-window", "-d", "-t", "main:", "-n", name, "exec sleep 100000"]);
    }
    tmux.tmux(&["new-session", "-d", "-s", "other,one", "exec sleep 100000"]);
    let pane = tmux.window_showing("printf 'x,y \"z\"\\n  indented\\n3\\n'", "indented");
    let mut client = tmux.paneward();
    client.initialize();
    let calls = [
        ("list_sessions", json!({})),
        ("list_windows", json!({})),
        ("list_panes", json!({})),
        ("list_pane_activity", json!({})),
        ("list_servers", json!({"name_contains": tmux.name})),
        ("search_panes", json!({"pattern": "indented"})),
        ("get_pane_info", json!({"pane_id": pane})),
        ("snapshot_pane", json!({"pane_id": pane})),
        ("capture_pane", json!({"pane_id": pane})),
        (
            "call_read_tools_batch",
            json!({"operations": [{"tool": "list_panes"}, {"tool": "capture_pane", "arguments": {"pane_id": pane}}]}),
        ),
    ];
    for (tool, arguments) in calls {
        let result = client.call(tool, arguments);
        assert_ne!(result["isError"], json!(true), "{tool} failed: {result}");
        assert_valid_output(tool, &result["structuredContent"]);
        assert_text_of(&result, TextStyle::Compact);
        let text = result["content"][0]["text"].as_str().unwrap();
        if let Some(missing) = fact_missing_from(text, &result["structuredContent"]) {
            panic!("{tool}: the text lacks {missing}:\n{text}");
        }
        let json = result["structuredContent"].to_string();
        assert!(
            text.len() <= json.len(),
            "{tool}: {} bytes of text for {} of JSON",
            text.len(),
            json.len()
        );
    }
}

#[test]
fn a_listing_reads_as_a_table_of_one_line_a_row() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    client.initialize();
    let result = client.call("list_sessions", json!({}));
    let text = result["content"][0]["text"].as_str().unwrap();
    let sessions: &Vec<Value> = result["structuredContent"]["sessions"].as_array().unwrap();
    let mut lines = text.lines().skip_while(|line| !line.starts_with("sessions["));
    let header = lines.next().expect("a sessions table");
    assert!(
        header.starts_with(&format!("sessions[{}]{{", sessions.len())),
        "{header}"
    );
    assert!(header.contains(",name,"), "{header}");
    let row = lines.next().unwrap();
    assert!(row.contains(",main,"), "one line for the session main: {row}");
    assert_eq!(row.split(',').count(), header.split(',').count(), "{header}\n{row}");
}
