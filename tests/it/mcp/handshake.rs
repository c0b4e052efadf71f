//! `initialize`: the capabilities declared are exactly those served, and the
//! instructions stay short and say the tier and the caller pane.

use serde_json::json;

use crate::support::{Client, TmuxServer};

#[test]
fn initialize_declares_exactly_the_capabilities_served() {
    let mut client = Client::spawn(&["-L", "pw-unused-handshake"], &[]);
    let result = client.initialize();
    let capabilities = result["capabilities"].as_object().expect("capabilities");
    let mut declared: Vec<&str> = capabilities.keys().map(String::as_str).collect();
    declared.sort_unstable();
    assert_eq!(
        declared,
        ["completions", "extensions", "logging", "prompts", "resources", "tools"],
        "{result}"
    );
    assert_eq!(capabilities["resources"]["subscribe"], json!(true), "{result}");
    // The extensions, whose methods tests/it/mcp/advertised.rs holds to them.
    assert_eq!(
        capabilities["extensions"],
        json!({"io.modelcontextprotocol/skills": {}, "io.modelcontextprotocol/tasks": {}}),
        "{result}"
    );
    // Each one declared is served (none answers method-not-found)...
    for (method, params) in [
        ("tools/list", json!({})),
        ("prompts/list", json!({})),
        ("logging/setLevel", json!({"level": "warning"})),
        ("resources/templates/list", json!({})),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "diagnose_pane"}, "argument": {"name": "pane_id", "value": ""}}),
        ),
    ] {
        let answer = client.request(method, params);
        assert!(answer.get("result").is_some(), "{method}: {answer}");
    }
    // ...and one not declared is not.
    assert_eq!(
        client.request("sampling/createMessage", json!({}))["error"]["code"],
        -32601
    );
}

#[test]
fn the_instructions_are_short_and_name_the_tier_and_the_caller_pane() {
    let tmux = TmuxServer::start();
    let caller = tmux.first_pane();
    let mut inside = tmux.paneward_with(
        &["--safety", "readonly"],
        &[("TMUX", &tmux.tmux_env()), ("TMUX_PANE", &caller)],
    );
    let text = inside.initialize()["instructions"]
        .as_str()
        .expect("instructions")
        .to_string();
    assert!(text.len() <= 2_048, "{} bytes", text.len());
    assert!(
        text.contains("safety tier `readonly`") && text.contains("reading only"),
        "{text}"
    );
    assert!(
        text.contains(&format!("runs in pane {caller} of this server")),
        "{text}"
    );

    // A pane of another server is not this server's caller pane.
    let mut elsewhere = tmux.paneward_with(&[], &[("TMUX", "/tmp/another-server,1,0"), ("TMUX_PANE", &caller)]);
    let text = elsewhere.initialize()["instructions"]
        .as_str()
        .expect("instructions")
        .to_string();
    assert!(text.contains("does not run inside a pane"), "{text}");

    let mut outside = tmux.paneward_with(&["--safety", "destructive"], &[]);
    let text = outside.initialize()["instructions"]
        .as_str()
        .expect("instructions")
        .to_string();
    assert!(text.len() <= 2_048, "{} bytes", text.len());
    assert!(
        text.contains("safety tier `destructive`") && text.contains("does not run inside a pane"),
        "{text}"
    );
}
