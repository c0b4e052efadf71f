//! MCP's Skills extension (SEP-2640): paneward's playbooks, the prompt files of
//! `schemas/prompts/`, served as skills (`skills/list`, `skills/get`, and the
//! `SKILL.md` through `resources/read`), each only where the served surface has every
//! tool it names: per tier, per toolset choice, and none under `--profile python`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{tools_of_tier, Client, TmuxServer, TIERS};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

fn current(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "paneward-tests", "version": "0"}
    });
    params
}

/// The words of `text` that are the names of paneward's tools (any tier).
fn tools_named(text: &str) -> Vec<String> {
    let every = tools_of_tier(&TIERS);
    let mut named: Vec<String> = text
        .split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
        .filter(|word| every.iter().any(|tool| tool == word))
        .map(str::to_string)
        .collect();
    named.sort();
    named.dedup();
    named
}

/// The served skills of `client`'s paneward, each checked against the surface it
/// serves: its `SKILL.md` reads back with the manifest's digest and size, names only
/// listed tools, and `skills/get` agrees with `skills/list`. Returns the skill names.
fn checked_skills(client: &mut Client) -> Vec<String> {
    let tools: Vec<String> = client.request("tools/list", current(json!({})))["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_string())
        .collect();
    let listed = client.request("skills/list", current(json!({})));
    let mut names = Vec::new();
    for skill in listed["result"]["skills"].as_array().expect("skills") {
        let uri = skill["uri"].as_str().unwrap();
        let name = skill["frontmatter"]["name"].as_str().unwrap();
        assert_eq!(uri, format!("skill://{name}/SKILL.md"));
        let read = client.request("resources/read", current(json!({"uri": uri})));
        let contents = &read["result"]["contents"][0];
        assert_eq!(contents["mimeType"], "text/markdown", "{read}");
        let text = contents["text"].as_str().unwrap();
        let file = &skill["resources"][0];
        assert_eq!(file["uri"], uri);
        assert_eq!(file["size"], text.len(), "{uri}");
        let digest: String = Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(file["digest"], format!("sha256:{digest}"), "{uri}");
        assert!(text.starts_with(&format!("---\nname: \"{name}\"\n")), "{text}");
        let named = tools_named(text);
        assert!(!named.is_empty(), "{uri} names no tool");
        for tool in &named {
            assert!(
                tools.contains(tool),
                "{uri} names {tool}, which this surface does not serve"
            );
        }
        let got = client.request("skills/get", current(json!({"uri": uri})));
        assert_eq!(got["result"]["skill"], *skill, "{got}");
        names.push(name.to_string());
    }
    names
}

#[test]
fn each_surface_serves_the_skills_whose_tools_it_has_and_no_other() {
    let tmux = TmuxServer::start();
    let every = [
        "diagnose-pane",
        "drive-agent",
        "recover-pane",
        "run-and-wait",
        "set-up-workspace",
        "watch-panes",
    ];
    for (flags, expected) in [
        (vec!["--safety", "readonly"], vec!["diagnose-pane", "watch-panes"]),
        (vec!["--safety", "mutating"], every.to_vec()),
        (vec!["--safety", "destructive"], every.to_vec()),
        // Without the manage toolset there is no exit_copy_mode nor select_layout.
        (
            vec!["--safety", "mutating", "--toolsets", "inspect,execute"],
            vec!["diagnose-pane", "drive-agent", "run-and-wait", "watch-panes"],
        ),
    ] {
        let mut client = tmux.paneward_with(&flags, &[]);
        let discovered = client.request("server/discover", current(json!({})));
        assert!(
            discovered["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"].is_object(),
            "{flags:?}: {discovered}"
        );
        assert_eq!(checked_skills(&mut client), expected, "{flags:?}");
        client.close();
    }
    // The playbooks name paneward's tools: under libtmux-mcp's contract none is served,
    // and the extension is not declared, so its methods are not found.
    let mut python = tmux.paneward_with(&["--profile", "python"], &[]);
    let discovered = python.request("server/discover", current(json!({})));
    assert!(
        discovered["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"].is_null(),
        "{discovered}"
    );
    let refused = python.request("skills/list", current(json!({})));
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
}

#[test]
fn a_skill_is_its_prompt_file_and_an_unserved_one_is_refused_naming_the_uri() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward_with(&["--safety", "readonly"], &[]);
    let read = client.request(
        "resources/read",
        current(json!({"uri": "skill://diagnose-pane/SKILL.md"})),
    );
    let text = read["result"]["contents"][0]["text"].as_str().unwrap().to_string();
    // Written once: the prompt file's description, title and steps, placeholders named.
    let prompt: Value = serde_json::from_str(
        &std::fs::read_to_string(crate::support::root().join("schemas/prompts/diagnose_pane.json")).unwrap(),
    )
    .unwrap();
    assert!(
        text.contains(&format!("description: {}\n", prompt["description"])),
        "{text}"
    );
    assert!(
        text.contains(&format!("# {}\n", prompt["title"].as_str().unwrap())),
        "{text}"
    );
    for line in prompt["message"].as_array().unwrap() {
        let line = line.as_str().unwrap().replace("{{pane_id}}", "<pane_id>");
        assert!(text.contains(&line), "{line}\n---\n{text}");
    }
    assert!(text.contains("- `<pane_id>` (required): "), "{text}");
    // The prompt itself renders the same steps.
    let rendered = client.request(
        "prompts/get",
        current(json!({"name": "diagnose_pane", "arguments": {"pane_id": "%7"}})),
    );
    let message = rendered["result"]["messages"][0]["content"]["text"].as_str().unwrap();
    assert!(message.contains("Call get_pane_info on %7"), "{message}");
    assert!(text.contains("Call get_pane_info on <pane_id>"), "{text}");

    // A skill above the tier, and one that does not exist: -32602 with the URI.
    for uri in ["skill://recover-pane/SKILL.md", "skill://nothing/SKILL.md"] {
        for (method, params) in [
            ("skills/get", json!({"uri": uri})),
            ("resources/read", json!({"uri": uri})),
        ] {
            let refused = client.request(method, current(params));
            assert_eq!(refused["error"]["code"], -32602, "{method} {uri}: {refused}");
            assert_eq!(refused["error"]["data"]["uri"], uri, "{method}: {refused}");
        }
    }
}
