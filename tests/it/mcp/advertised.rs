//! Every method paneward answers is advertised, and every one it advertises is
//! answered, in both eras: the capabilities of `initialize` (2025-11-25) and of
//! `server/discover` (2026-07-28), per profile and tier, against what each MCP request
//! method actually gets. "Not answered" is -32601 (method not found); any other
//! answer, a result or another error, is an answer. rmcp 3.11 refuses methods a server
//! did not advertise, so a capability paneward forgets to declare silently turns a
//! feature off, and one it declares without serving lies to the client.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::collections::BTreeSet;

use crate::support::{Client, TmuxServer};
use serde_json::{json, Value};

/// Every request method of MCP up to 2026-07-28 and its extensions, client to server
/// and (which a server must not answer) server to client, with params of the right
/// shape where the method takes some, for a request of `era`.
fn every_method(era: &str) -> Vec<(&'static str, Value)> {
    // Where it is served, a well-formed listen streams until cancelled, so it is sent
    // malformed there (an answer, -32602); where it is not, well-formed (-32601).
    let listen = if era == "2026-07-28" {
        json!({"notifications": 5})
    } else {
        json!({"notifications": {"resourceSubscriptions": ["tmux://sessions"]}})
    };
    vec![
        (
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        ),
        ("ping", json!({})),
        ("server/discover", json!({})),
        ("tools/list", json!({})),
        ("tools/call", json!({"name": "list_sessions", "arguments": {}})),
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("resources/read", json!({"uri": "tmux://sessions"})),
        ("resources/subscribe", json!({"uri": "tmux://sessions"})),
        ("resources/unsubscribe", json!({"uri": "tmux://sessions"})),
        ("resources/directory/read", json!({"uri": "skill://diagnose-pane"})),
        ("subscriptions/listen", listen),
        ("prompts/list", json!({})),
        (
            "prompts/get",
            json!({"name": "diagnose_pane", "arguments": {"pane_id": "%0"}}),
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "diagnose_pane"}, "argument": {"name": "pane_id", "value": ""}}),
        ),
        ("logging/setLevel", json!({"level": "error"})),
        ("tasks/get", json!({"taskId": "probe"})),
        ("tasks/update", json!({"taskId": "probe", "inputResponses": {}})),
        ("tasks/cancel", json!({"taskId": "probe"})),
        ("tasks/result", json!({"taskId": "probe"})),
        ("tasks/list", json!({})),
        ("skills/list", json!({})),
        ("skills/get", json!({"uri": "skill://diagnose-pane/SKILL.md"})),
        ("sampling/createMessage", json!({"messages": [], "maxTokens": 1})),
        (
            "elicitation/create",
            json!({"message": "?", "requestedSchema": {"type": "object", "properties": {}}}),
        ),
        ("roots/list", json!({})),
    ]
}

/// The methods `capabilities` advertise in `era` (`"2026-07-28"` or a handshake one),
/// with the lifecycle methods of that era, which need no capability.
fn advertised(capabilities: &Value, era: &str) -> BTreeSet<&'static str> {
    let stateless = era == "2026-07-28";
    let mut methods: BTreeSet<&'static str> = BTreeSet::new();
    methods.insert("server/discover");
    if !stateless {
        methods.extend(["initialize", "ping"]);
    }
    let has = |key: &str| capabilities.get(key).is_some_and(Value::is_object);
    let extension = |id: &str| capabilities["extensions"].get(id).is_some_and(Value::is_object);
    if has("tools") {
        methods.extend(["tools/list", "tools/call"]);
    }
    if has("prompts") {
        methods.extend(["prompts/list", "prompts/get"]);
    }
    if has("completions") {
        methods.insert("completion/complete");
    }
    if has("resources") {
        methods.extend(["resources/list", "resources/templates/list", "resources/read"]);
        if capabilities["resources"]["subscribe"] == json!(true) {
            if stateless {
                methods.insert("subscriptions/listen");
            } else {
                methods.extend(["resources/subscribe", "resources/unsubscribe"]);
            }
        }
    }
    // 2026-07-28 keeps `logging` for the per-request level in `_meta`; the method went.
    if has("logging") && !stateless {
        methods.insert("logging/setLevel");
    }
    if extension("io.modelcontextprotocol/tasks") {
        methods.extend(["tasks/get", "tasks/update", "tasks/cancel"]);
    }
    if extension("io.modelcontextprotocol/skills") {
        methods.extend(["skills/list", "skills/get"]);
        if capabilities["extensions"]["io.modelcontextprotocol/skills"]["directoryRead"] == json!(true) {
            methods.insert("resources/directory/read");
        }
    }
    methods
}

/// The methods that get an answer other than -32601, each request sent by `send`.
fn answered(era: &str, mut send: impl FnMut(&str, Value) -> Value) -> BTreeSet<&'static str> {
    every_method(era)
        .into_iter()
        .filter(|(method, params)| {
            let reply = send(method, params.clone());
            assert!(
                reply.get("result").is_some() || reply.get("error").is_some(),
                "{method}: {reply}"
            );
            reply["error"]["code"] != -32601
        })
        .map(|(method, _)| method)
        .collect()
}

/// The `_meta` of a 2026-07-28 request whose client declares every extension.
fn stateless(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {
            "extensions": {"io.modelcontextprotocol/tasks": {}, "io.modelcontextprotocol/skills": {}}
        },
        "io.modelcontextprotocol/clientInfo": {"name": "paneward-tests", "version": "0"}
    });
    params
}

#[test]
fn every_method_answered_is_advertised_and_every_one_advertised_is_answered_in_both_eras() {
    let tmux = TmuxServer::start();
    for flags in [
        vec!["--safety", "mutating"],
        vec!["--safety", "readonly"],
        vec!["--safety", "destructive"],
        vec!["--profile", "python"],
    ] {
        // 2026-07-28: capabilities from server/discover; every request on its own _meta.
        let mut client: Client = tmux.paneward_with(&flags, &[]);
        let discovered = client.request("server/discover", stateless(json!({})));
        let capabilities = discovered["result"]["capabilities"].clone();
        let got = answered("2026-07-28", |method, params| client.request(method, stateless(params)));
        assert_eq!(
            got,
            advertised(&capabilities, "2026-07-28"),
            "{flags:?} 2026-07-28: {capabilities}"
        );
        client.close();

        // 2025-11-25: capabilities from initialize, where the client declares the
        // extensions too (they are capabilities of the handshake there).
        let mut client: Client = tmux.paneward_with(&flags, &[]);
        let init = client.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25",
                   "capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}, "io.modelcontextprotocol/skills": {}}},
                   "clientInfo": {"name": "paneward-tests", "version": "0"}}),
        );
        client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        let capabilities = init["result"]["capabilities"].clone();
        let got = answered("2025-11-25", |method, params| client.request(method, params));
        assert_eq!(
            got,
            advertised(&capabilities, "2025-11-25"),
            "{flags:?} 2025-11-25: {capabilities}"
        );
        client.close();
    }
}
