//! The differential suite: the real libtmux-mcp 0.1.0a22 and `paneward --profile
//! python`, each on a private tmux server built the same way, run one scripted session
//! (`tests/python-profile/session.json`: a success and a failure call for each of the 54
//! tools), and their replies are compared structurally: `isError`, `structuredContent`,
//! the text (as JSON where it is JSON) and `_meta`, with what cannot be equal (process
//! ids, terminals, times, the temp folder) normalised away. Every difference left must
//! be an exception of `tests/python-profile/exceptions.json`, with its reason; an
//! exception that no longer occurs fails too, so the list stays true.
//! `PANEWARD_DIFF_DRAFT=1` prints the differences not yet listed as exceptions to add.
//! The test prints its figures (calls equal, different only as listed, different
//! otherwise); `PANEWARD_DIFF_AA=1` runs libtmux-mcp on both sides instead, to show
//! what the harness itself cannot hold equal (it then only reports).
//!
//! libtmux-mcp comes from `tests/python-profile/install` (`.ci/run` runs it), into
//! `target/libtmux-mcp`, or from `PANEWARD_LIBTMUX_MCP` (its executable).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::support::{root, Client, TmuxServer};

/// Members whose values differ between any two servers, whatever they serve (a new
/// pane's path is null until its shell reports one, so when it is read is chance).
const VOLATILE: [&str; 9] = [
    "pane_current_path",
    "pane_pid",
    "pane_tty",
    "session_created",
    "elapsed_seconds",
    "elapsed",
    "socket_path",
    "pid",
    "session_activity",
];

fn libtmux_mcp() -> PathBuf {
    let program = std::env::var_os("PANEWARD_LIBTMUX_MCP")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/libtmux-mcp/bin/libtmux-mcp"));
    assert!(
        program.is_file(),
        "libtmux-mcp is not installed at {}: run tests/python-profile/install (or set PANEWARD_LIBTMUX_MCP)",
        program.display()
    );
    program
}

/// One server of the pair: its tmux, its client and the values the script saved.
struct Twin {
    tmux: TmuxServer,
    client: Client,
    values: BTreeMap<String, String>,
}

impl Twin {
    fn new(tmux: TmuxServer, client: Client, tmp: &Path) -> Self {
        let mut values = BTreeMap::new();
        let pane = tmux.first_pane();
        values.insert("pane".into(), pane.clone());
        values.insert("window".into(), tmux.pane_value(&pane, "#{window_id}"));
        values.insert("session".into(), tmux.pane_value(&pane, "#{session_id}"));
        values.insert("tmp".into(), tmp.display().to_string());
        Self { tmux, client, values }
    }

    /// `arguments` with each `{name}` of this server's values filled in.
    fn filled(&self, arguments: &Value) -> Value {
        let mut text = arguments.to_string();
        for (name, value) in &self.values {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        serde_json::from_str(&text).unwrap()
    }

    fn call(&mut self, tool: &str, arguments: &Value) -> Value {
        let arguments = self.filled(arguments);
        self.client.call(tool, arguments)
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
}

/// The reply as compared: volatile members and this server's own names replaced.
fn normalised(result: &Value, twin: &Twin) -> Value {
    let mut result = result.clone();
    parse_texts(&mut result);
    let own = [twin.tmux.name.clone()];
    scrub(&mut result, &own);
    result
}

/// Every `text` member holding a JSON object or list, at any depth (a batch row's
/// content too), as the value it holds: key order is no difference.
fn parse_texts(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                let parsed = field.as_str().and_then(|text| serde_json::from_str::<Value>(text).ok());
                match parsed {
                    Some(parsed) if key == "text" && (parsed.is_object() || parsed.is_array()) => {
                        *field = parsed;
                        parse_texts(field);
                    }
                    _ => parse_texts(field),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(parse_texts),
        _ => {}
    }
}

/// A buffer's name carries a random part each server draws for itself; tmux's own
/// message template (`display_message ""`) ends with the clock, which may turn between
/// the twins' calls.
fn buffer_names(text: &str) -> String {
    let pattern = regex::Regex::new("libtmux_mcp_[0-9a-f]{32}_").unwrap();
    let text = pattern.replace_all(text, "libtmux_mcp_<hex>_");
    let clock = regex::Regex::new(r"\(\d\d:\d\d \d\d-[A-Z][a-z]{2}-\d\d\)$").unwrap();
    clock.replace_all(&text, "(<time>)").into_owned()
}

fn scrub(value: &mut Value, own: &[String]) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                if VOLATILE.contains(&key.as_str()) {
                    *field = json!("<volatile>");
                } else {
                    scrub(field, own);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| scrub(item, own)),
        Value::String(text) => {
            *text = buffer_names(text);
            for name in own {
                if text.contains(name.as_str()) {
                    *text = text.replace(name.as_str(), "<server>");
                }
            }
        }
        _ => {}
    }
}

/// The JSON pointers where `ours` differs from `theirs`, with both values.
fn differences(path: &str, theirs: &Value, ours: &Value, out: &mut Vec<(String, Value, Value)>) {
    match (theirs, ours) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                let at = format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"));
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => differences(&at, x, y, out),
                    (x, y) => out.push((
                        at,
                        x.cloned().unwrap_or(json!("<absent>")),
                        y.cloned().unwrap_or(json!("<absent>")),
                    )),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                differences(&format!("{path}/{index}"), x, y, out);
            }
        }
        (a, b) if a != b => out.push((path.to_string(), a.clone(), b.clone())),
        _ => {}
    }
}

/// One listed difference: the call (`tool#n`, the n-th call of the tool in the script,
/// or `tool#*`), the pointer it starts at, and why it is allowed.
struct Exception {
    call: String,
    path: String,
}

fn exceptions() -> Vec<Exception> {
    let text = std::fs::read_to_string(root().join("tests/python-profile/exceptions.json")).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    file["exceptions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            assert!(
                item["reason"].as_str().is_some_and(|reason| !reason.is_empty()),
                "an exception says why: {item}"
            );
            Exception {
                call: item["call"].as_str().unwrap().to_string(),
                path: item["path"].as_str().unwrap().to_string(),
            }
        })
        .collect()
}

fn covers(exception: &Exception, label: &str, path: &str) -> bool {
    let tool = label.split('#').next().unwrap_or_default();
    let call_matches = exception.call == label || exception.call == format!("{tool}#*");
    call_matches && (path == exception.path || path.starts_with(&format!("{}/", exception.path)))
}

fn cut(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 300 {
        format!(
            "{}…",
            &text[..text.char_indices().nth(300).map_or(text.len(), |(i, _)| i)]
        )
    } else {
        text
    }
}

#[test]
fn paneward_answers_the_scripted_session_as_libtmux_mcp_does() {
    let program = libtmux_mcp();
    let script: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/python-profile/session.json")).unwrap())
            .unwrap();
    let (theirs_tmux, ours_tmux) = (TmuxServer::start(), TmuxServer::start());
    for tmux in [&theirs_tmux, &ours_tmux] {
        tmux.wait_for_prompt(&tmux.first_pane());
    }
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pw-differential-{}", std::process::id()));
    let (theirs_tmp, ours_tmp) = (tmp.join("theirs"), tmp.join("ours"));
    std::fs::create_dir_all(&theirs_tmp).unwrap();
    std::fs::create_dir_all(&ours_tmp).unwrap();
    let toolsets = "inspect,manage,execute,teardown";
    let upstream = |tmux: &TmuxServer| {
        Client::spawn_program(
            &program,
            &[],
            &[
                ("LIBTMUX_SOCKET", tmux.name.as_str()),
                ("LIBTMUX_TOOLSETS", toolsets),
                ("FASTMCP_SHOW_CLI_BANNER", "false"),
                ("FASTMCP_LOG_LEVEL", "ERROR"),
            ],
        )
    };
    let mut theirs_client = upstream(&theirs_tmux);
    theirs_client.initialize();
    // `PANEWARD_DIFF_AA=1`: libtmux-mcp on both sides, to show the harness's own noise.
    let self_check = std::env::var_os("PANEWARD_DIFF_AA").is_some();
    // paneward at its widest: every toolset and tier, environment values shown.
    let mut ours_client = if self_check {
        upstream(&ours_tmux)
    } else {
        ours_tmux.paneward_with(
            &[
                "--profile",
                "python",
                "--safety",
                "destructive",
                "--toolsets",
                toolsets,
                "--reveal-environment",
            ],
            &[],
        )
    };
    ours_client.initialize();
    let mut theirs = Twin::new(theirs_tmux, theirs_client, &theirs_tmp);
    let mut ours = Twin::new(ours_tmux, ours_client, &ours_tmp);

    let exceptions = exceptions();
    let mut used = vec![false; exceptions.len()];
    let mut unlisted: Vec<String> = Vec::new();
    let mut drafts: Vec<Value> = Vec::new();
    let mut ordinals: BTreeMap<String, usize> = BTreeMap::new();
    // Calls answered alike, alike but for listed exceptions, and otherwise.
    let (mut equal, mut documented, mut undocumented) = (0, 0, 0);
    let calls = script["calls"].as_array().unwrap();
    for call in calls {
        let tool = call["tool"].as_str().unwrap();
        let ordinal = ordinals.entry(tool.to_string()).or_insert(0);
        *ordinal += 1;
        let label = format!("{tool}#{ordinal}");
        let expect_error = call["expect"] == "error";
        let their_result = theirs.call(tool, &call["arguments"]);
        assert_eq!(
            their_result["isError"] == json!(true),
            expect_error,
            "{label}: the script expects {} of libtmux-mcp itself: {their_result}",
            call["expect"]
        );
        let our_result = ours.call(tool, &call["arguments"]);
        if let Some(saves) = call.get("save") {
            theirs.save(saves, &their_result, &label);
            if our_result["isError"] != json!(true) {
                ours.save(saves, &our_result, &label);
            }
        }
        let mut found = Vec::new();
        let (a, b) = (normalised(&their_result, &theirs), normalised(&our_result, &ours));
        let (mut a, mut b) = (
            rescrub(a, &theirs_tmp, &ours_tmp, true),
            rescrub(b, &theirs_tmp, &ours_tmp, false),
        );
        if tool == "respawn_pane" {
            for reply in [&mut a, &mut b] {
                just_respawned(reply);
            }
        }
        differences("", &a, &b, &mut found);
        let listed = found
            .iter()
            .filter(|(path, _, _)| exceptions.iter().any(|e| covers(e, &label, path)))
            .count();
        match (found.len(), listed) {
            (0, _) => equal += 1,
            (all, listed) if all == listed => documented += 1,
            _ => undocumented += 1,
        }
        for (path, their_value, our_value) in found {
            match exceptions.iter().position(|e| covers(e, &label, &path)) {
                Some(index) => used[index] = true,
                None => {
                    unlisted.push(format!(
                        "{label} {path}: libtmux-mcp {} / paneward {}",
                        cut(&their_value),
                        cut(&our_value)
                    ));
                    drafts.push(json!({"call": label, "path": path, "reason": "TODO"}));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "differential: {} calls: {equal} equal, {documented} different as listed, {undocumented} different otherwise{}",
        calls.len(),
        if self_check {
            " (libtmux-mcp against itself)"
        } else {
            ""
        }
    );
    if self_check {
        eprintln!("{}", unlisted.join("\n"));
        return;
    }
    if std::env::var_os("PANEWARD_DIFF_DRAFT").is_some() {
        eprintln!("{}", serde_json::to_string_pretty(&drafts).unwrap());
    }
    let stale: Vec<String> = exceptions
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|(e, _)| format!("{} {}", e.call, e.path))
        .collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "{} differences not listed in tests/python-profile/exceptions.json:\n{}\n\n{} listed exceptions that no longer occur:\n{}",
        unlisted.len(),
        unlisted.join("\n"),
        stale.len(),
        stale.join("\n")
    );
    assert!(calls.len() >= 108, "a success and a failure for each tool");
}

/// The twins' temp folders read as one.
fn rescrub(value: Value, theirs: &Path, ours: &Path, is_theirs: bool) -> Value {
    let folder = if is_theirs { theirs } else { ours };
    let text = value.to_string().replace(&folder.display().to_string(), "<tmp>");
    serde_json::from_str(&text).unwrap()
}

/// A pane read just after `respawn-pane` may still run tmux's own child, before it
/// becomes the shell: `pane_current_command` is `tmux` or `sh` by chance, on either
/// server, so a respawned pane's command is not compared.
fn just_respawned(reply: &mut Value) {
    for pointer in ["/structuredContent", "/content/0/text"] {
        if let Some(Value::Object(pane)) = reply.pointer_mut(pointer) {
            if pane.contains_key("pane_current_command") {
                pane.insert("pane_current_command".into(), json!("<respawning>"));
            }
        }
    }
}
