//! `--profile libtmux` advertises what `tmux-mcp` 0.1.2 advertises, JSON-equal: every
//! tool whole (name, title, description, schemas, annotations and `_meta` with the
//! family's capability records) against the listing captured from the server
//! (`schemas/upstream/tmux-mcp-0.1.2.tools.json`), with every toolset on and with the
//! family's default of 40 tools, teardown left out.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::collections::BTreeMap;

use serde_json::Value;

use crate::support::{root, TmuxServer};

fn captured() -> BTreeMap<String, Value> {
    let text = std::fs::read_to_string(root().join("schemas/upstream/tmux-mcp-0.1.2.tools.json")).unwrap();
    by_name(&serde_json::from_str(&text).unwrap())
}

fn by_name(list: &Value) -> BTreeMap<String, Value> {
    list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| (tool["name"].as_str().unwrap().to_string(), tool.clone()))
        .collect()
}

fn toolset(tool: &Value) -> &str {
    tool["_meta"]["com.git-pull.libtmux-mcp/capability"]["toolset"]
        .as_str()
        .unwrap()
}

#[test]
fn every_toolset_on_the_profile_lists_the_captured_45_tools_json_equal() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward_with(
        &["--profile", "libtmux", "--safety", "destructive"],
        &[("LIBTMUX_TOOLSETS", "inspect,manage,execute,teardown")],
    );
    client.initialize();
    let ours = by_name(&client.list_tools());
    let theirs = captured();
    assert_eq!(theirs.len(), 45);
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>());
    for (name, tool) in &theirs {
        assert_eq!(&ours[name], tool, "{name} is advertised as tmux-mcp advertises it");
    }
}

#[test]
fn by_default_the_profile_lists_the_familys_40_tools_and_teardown_is_opt_in() {
    let tmux = TmuxServer::start();
    // paneward's default tier: every tool of the three default toolsets is within it.
    let mut client = tmux.paneward_with(&["--profile", "libtmux"], &[]);
    client.initialize();
    let ours = by_name(&client.list_tools());
    let theirs: BTreeMap<String, Value> = captured()
        .into_iter()
        .filter(|(_, tool)| toolset(tool) != "teardown")
        .collect();
    assert_eq!(theirs.len(), 40);
    assert_eq!(ours, theirs);
    // Asking for teardown by name, as the family's clients do, lists it (with paneward's
    // destructive tier, which the teardown tools need).
    let mut client = tmux.paneward_with(
        &["--profile", "libtmux", "--safety", "destructive"],
        &[("LIBTMUX_TOOLS", "kill_pane")],
    );
    client.initialize();
    let names: Vec<String> = by_name(&client.list_tools()).into_keys().collect();
    assert_eq!(names.len(), 41);
    assert!(names.contains(&"kill_pane".to_string()));
}
