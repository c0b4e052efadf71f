//! The differential suite of `--profile libtmux`: the real `tmux-mcp` 0.1.2 and
//! paneward, each on a private tmux server built the same way, run one scripted session
//! (`tests/libtmux-profile/session.json`: a success and a failure call for each of the
//! 45 tools, as an agent would make them), and their replies are compared structurally:
//! `isError`, `structuredContent`, the text (as JSON) and `_meta`, with what cannot be
//! equal between two servers (a pane's working folder, each server's own name)
//! normalised away. Where both fail, the family's `data` (`kind`, `retryable`, `stale`)
//! is compared and the `message` is paneward's own wording. Every other difference left
//! must be an exception of `tests/libtmux-profile/exceptions.json`, with its reason; an
//! exception that no longer occurs fails too. The figures (equal, documented, not
//! documented) are printed; `PANEWARD_DIFF_DRAFT=1` prints the differences not yet
//! listed, as exceptions to fill in.
//!
//! `tmux-mcp` comes from `tests/libtmux-profile/install` (`.ci/run` runs it), into
//! `target/tmux-mcp`, or from `PANEWARD_TMUX_MCP_DIR` (the `--root` it was installed to).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::support::differential::{covers, cut, differences, exceptions, parse_texts};
use crate::support::{root, Client, TmuxServer};

use super::tmux_mcp;

/// Members whose values differ between any two servers, whatever they serve: a new
/// pane's working folder is null until its shell reports one, so when it is read is chance.
const VOLATILE: [&str; 1] = ["path"];

/// One server of the pair: its tmux, its client and the values the script saved.
struct Twin {
    tmux: TmuxServer,
    client: Client,
    values: BTreeMap<String, String>,
}

impl Twin {
    fn new(tmux: TmuxServer, client: Client) -> Self {
        let mut values = BTreeMap::new();
        let pane = tmux.first_pane();
        values.insert("window".into(), tmux.pane_value(&pane, "#{window_id}"));
        values.insert("session".into(), tmux.pane_value(&pane, "#{session_id}"));
        values.insert("pane".into(), pane);
        Self { tmux, client, values }
    }

    fn call(&mut self, tool: &str, arguments: &Value) -> Value {
        let mut text = arguments.to_string();
        for (name, value) in &self.values {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        self.client.call(tool, serde_json::from_str(&text).unwrap())
    }

    fn save(&mut self, saves: &Value, result: &Value, label: &str) {
        for (name, pointer) in saves.as_object().into_iter().flatten() {
            let value = result["structuredContent"]
                .pointer(pointer.as_str().unwrap())
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("{label}: no {pointer} to save as {name}: {result}"));
            self.values.insert(name.clone(), value.to_string());
        }
    }

    /// The reply as compared: texts parsed, volatile members and this server's name
    /// replaced.
    fn normalised(&self, result: &Value) -> Value {
        let mut result = result.clone();
        parse_texts(&mut result);
        scrub(&mut result, &self.tmux.name);
        result
    }
}

fn scrub(value: &mut Value, own_name: &str) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                if VOLATILE.contains(&key.as_str()) {
                    *field = json!("<volatile>");
                } else {
                    scrub(field, own_name);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| scrub(item, own_name)),
        Value::String(text) if text.contains(own_name) => *text = text.replace(own_name, "<server>"),
        _ => {}
    }
}

/// Where both replies are the family's error, the message is each server's own
/// wording: it is taken out of the comparison (and counted), `data` stays in.
fn without_wording(theirs: &mut Value, ours: &mut Value) -> bool {
    let both_failed = theirs["isError"] == json!(true) && ours["isError"] == json!(true);
    let (Some(a), Some(b)) = (
        theirs.pointer_mut("/content/0/text").and_then(Value::as_object_mut),
        ours.pointer_mut("/content/0/text").and_then(Value::as_object_mut),
    ) else {
        return false;
    };
    if !both_failed {
        return false;
    }
    let worded = a.get("message") != b.get("message");
    a.remove("message");
    b.remove("message");
    worded
}

#[test]
fn paneward_answers_the_scripted_session_as_tmux_mcp_does() {
    let program = tmux_mcp();
    let script: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/libtmux-profile/session.json")).unwrap())
            .unwrap();
    let (theirs_tmux, ours_tmux) = (TmuxServer::start(), TmuxServer::start());
    for tmux in [&theirs_tmux, &ours_tmux] {
        tmux.wait_for_prompt(&tmux.first_pane());
    }
    let toolsets = "inspect,manage,execute,teardown";
    let mut theirs_client = Client::spawn_program(
        &program,
        &["-L", theirs_tmux.name.as_str()],
        &[("LIBTMUX_TOOLSETS", toolsets)],
    );
    theirs_client.initialize();
    // PANEWARD_DIFF_SELF=1 runs tmux-mcp on both sides: the noise of the comparison
    // itself (the A/A run), which should be none.
    let mut ours_client = if std::env::var_os("PANEWARD_DIFF_SELF").is_some() {
        Client::spawn_program(
            &program,
            &["-L", ours_tmux.name.as_str()],
            &[("LIBTMUX_TOOLSETS", toolsets)],
        )
    } else {
        ours_tmux.paneward_with(&super::PROFILE, &[])
    };
    ours_client.initialize();
    let mut theirs = Twin::new(theirs_tmux, theirs_client);
    let mut ours = Twin::new(ours_tmux, ours_client);

    let listed = exceptions(&root().join("tests/libtmux-profile/exceptions.json"));
    let mut used = vec![false; listed.len()];
    let mut unlisted: Vec<String> = Vec::new();
    let mut drafts: Vec<Value> = Vec::new();
    let (mut equal, mut documented, mut worded, mut undocumented) = (0, 0, 0, 0);
    let mut ordinals: BTreeMap<String, usize> = BTreeMap::new();
    let calls = script["calls"].as_array().unwrap();
    for call in calls {
        let tool = call["tool"].as_str().unwrap();
        let ordinal = ordinals.entry(tool.to_string()).or_insert(0);
        *ordinal += 1;
        let label = format!("{tool}#{ordinal}");
        let their_result = theirs.call(tool, &call["arguments"]);
        assert_eq!(
            their_result["isError"] == json!(true),
            call["peer"] == "error",
            "{label}: the script expects {} of tmux-mcp itself: {their_result}",
            call["peer"]
        );
        let our_result = ours.call(tool, &call["arguments"]);
        if let Some(saves) = call.get("save") {
            theirs.save(saves, &their_result, &label);
            if our_result["isError"] != json!(true) {
                ours.save(saves, &our_result, &label);
            }
        }
        let (mut a, mut b) = (theirs.normalised(&their_result), ours.normalised(&our_result));
        let reworded = without_wording(&mut a, &mut b);
        let mut found = Vec::new();
        differences("", &a, &b, &mut found);
        let mut allowed_only = true;
        for (path, their_value, our_value) in &found {
            match listed.iter().position(|e| covers(e, &label, path)) {
                Some(index) => used[index] = true,
                None => {
                    allowed_only = false;
                    unlisted.push(format!(
                        "{label} {path}: tmux-mcp {} / paneward {}",
                        cut(their_value),
                        cut(our_value)
                    ));
                    drafts.push(json!({"call": label, "path": path, "reason": "TODO"}));
                }
            }
        }
        match (found.is_empty(), allowed_only) {
            (true, _) if reworded => worded += 1,
            (true, _) => equal += 1,
            (false, true) => documented += 1,
            (false, false) => undocumented += 1,
        }
    }
    eprintln!(
        "libtmux differential: {} calls: {equal} equal, {worded} equal but for the error's wording, \
         {documented} different as documented, {undocumented} different and not documented",
        calls.len()
    );
    if std::env::var_os("PANEWARD_DIFF_DRAFT").is_some() {
        eprintln!("{}", serde_json::to_string_pretty(&drafts).unwrap());
    }
    if std::env::var_os("PANEWARD_DIFF_SELF").is_some() {
        assert_eq!(
            equal + worded,
            calls.len(),
            "tmux-mcp against itself differs: {unlisted:?}"
        );
        return;
    }
    let stale: Vec<String> = listed
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|(e, _)| format!("{} {}", e.call, e.path))
        .collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "{} differences not listed in tests/libtmux-profile/exceptions.json:\n{}\n\n{} listed exceptions that no longer occur:\n{}",
        unlisted.len(),
        unlisted.join("\n"),
        stale.len(),
        stale.join("\n")
    );
    let tools: std::collections::BTreeSet<&str> = calls.iter().filter_map(|call| call["tool"].as_str()).collect();
    assert_eq!(tools.len(), 45, "every tool of the family is called");
    assert!(calls.len() >= 90, "a success and a failure for each tool");
}
