//! Safety tiers through the built binary: what each tier lists and lets through, how
//! the tier is chosen, and that an unknown tier stops start-up.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::process::Command;

use crate::support::{clean_env, tools_of_tier, Client, Scratch, TmuxServer, TIERS};
use serde_json::json;

/// A start-up configuration: command-line arguments and environment variables.
type Setup<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)]);

fn rank(tier: &str) -> usize {
    TIERS
        .iter()
        .position(|t| *t == tier)
        .unwrap_or_else(|| panic!("unknown tier {tier}"))
}

/// The tools whose files put them at `tier` or below, sorted, read from `schemas/`.
fn tools_up_to(tier: &str) -> Vec<String> {
    tools_of_tier(&TIERS[..=rank(tier)])
}

fn listed(client: &mut Client) -> Vec<String> {
    client.list_tools()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

fn start(args: &[&str], env: &[(&str, &str)]) -> Client {
    let mut all = vec!["-L", "pw-unused-tiers"];
    all.extend_from_slice(args);
    let mut client = Client::spawn(&all, env);
    client.initialize();
    client
}

#[test]
fn each_tier_lists_exactly_the_tools_of_that_tier_and_below() {
    for tier in TIERS {
        let mut client = start(&["--safety", tier], &[]);
        assert_eq!(listed(&mut client), tools_up_to(tier), "--safety {tier}");
    }
    let readonly = tools_up_to("readonly");
    assert!(readonly.contains(&"call_read_tools_batch".to_string()), "{readonly:?}");
    assert!(!readonly.iter().any(|t| t.starts_with("send_keys")), "{readonly:?}");
    let mutating = tools_up_to("mutating");
    assert!(mutating.contains(&"send_keys".to_string()) && mutating.contains(&"send_keys_batch".to_string()));
}

#[test]
fn a_tool_above_the_tier_is_refused_with_the_tier_it_needs_and_types_nothing() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut readonly = tmux.paneward_with(&["--safety", "readonly"], &[]);
    readonly.initialize();
    for (tool, arguments) in [
        ("send_keys", json!({"pane_id": pane, "keys": "hidden", "literal": true})),
        (
            "send_keys_batch",
            json!({"operations": [{"paneId": pane, "keys": "hidden", "literal": true}]}),
        ),
    ] {
        let text = readonly.call_err(tool, arguments);
        assert!(
            text.contains(&format!("`{tool}` needs safety tier `mutating`"))
                && text.contains("runs at `readonly`")
                && text.contains("--safety mutating"),
            "{text}"
        );
    }
    // The readonly tools still answer.
    let snapshot = readonly.call_ok("snapshot_pane", json!({"pane_id": pane}));
    assert_eq!(snapshot["pane"]["id"], json!(pane));

    let mut mutating = tmux.paneward();
    mutating.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "allowed", "literal": true}),
    );
    assert_eq!(scratch.wait_for_lines("typed", 1), "allowed\n");
}

#[test]
fn the_tier_comes_from_the_flag_then_paneward_safety_then_libtmux_safety() {
    let cases: [(Setup<'_>, &str); 5] = [
        ((&[], &[]), "mutating"),
        ((&[], &[("PANEWARD_SAFETY", "readonly")]), "readonly"),
        ((&[], &[("LIBTMUX_SAFETY", "readonly")]), "readonly"),
        (
            (
                &[],
                &[("PANEWARD_SAFETY", "destructive"), ("LIBTMUX_SAFETY", "readonly")],
            ),
            "destructive",
        ),
        (
            (&["--safety", "readonly"], &[("PANEWARD_SAFETY", "mutating")]),
            "readonly",
        ),
    ];
    for ((args, env), tier) in cases {
        let mut client = start(args, env);
        assert_eq!(listed(&mut client), tools_up_to(tier), "{args:?} {env:?}");
    }
}

#[test]
fn an_unknown_tier_stops_start_up_with_a_message_and_nothing_on_stdout() {
    let cases: [Setup<'_>; 4] = [
        (&["--safety", "everything"], &[]),
        (&["--safety=Readonly"], &[]),
        (&[], &[("PANEWARD_SAFETY", "yolo")]),
        (&[], &[("LIBTMUX_SAFETY", "all")]),
    ];
    for (args, env) in cases {
        let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
        clean_env(&mut command);
        let output = command.args(args).envs(env.iter().copied()).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?} {env:?}");
        assert!(output.stdout.is_empty(), "{args:?} {env:?}: stdout must stay empty");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("unknown safety tier") && stderr.contains("readonly, mutating or destructive"),
            "{args:?} {env:?}: {stderr}"
        );
    }
}
