//! A differential suite, whatever pair of servers it compares: both run one scripted
//! session, each on its own tmux server built the same way, and their replies are
//! compared structurally, with what cannot be equal between two servers normalised away.
//! Every difference left must be a listed exception (each with its reason), checked both
//! ways: a difference not listed fails, and so does a listed one that no longer occurs,
//! so the list stays true. What differs between suites (the peer, its files, its
//! volatile members, its own normalising) is a `Suite`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{json, Value};

use super::{root, Client, TmuxServer};

/// The two tmux servers of a pair, each with its shell at its prompt.
pub fn tmux_pair() -> (TmuxServer, TmuxServer) {
    let pair = (TmuxServer::start(), TmuxServer::start());
    for tmux in [&pair.0, &pair.1] {
        tmux.wait_for_prompt(&tmux.first_pane());
    }
    pair
}

/// One server of the pair: its tmux, its client, the values the script fills in
/// (`{pane}`, `{window}`, `{session}`, what the script saved, what the suite adds) and
/// the values of its own that its replies read as placeholders.
pub struct Twin {
    tmux: TmuxServer,
    client: Client,
    values: BTreeMap<String, String>,
    own: Vec<(String, String)>,
}

impl Twin {
    pub fn new(tmux: TmuxServer, client: Client) -> Self {
        let mut values = BTreeMap::new();
        let pane = tmux.first_pane();
        values.insert("window".into(), tmux.pane_value(&pane, "#{window_id}"));
        values.insert("session".into(), tmux.pane_value(&pane, "#{session_id}"));
        values.insert("pane".into(), pane);
        let own = vec![(tmux.name.clone(), "<server>".to_string())];
        Self {
            tmux,
            client,
            values,
            own,
        }
    }

    /// A folder of this server's, `{name}` in the script and `<name>` in its replies.
    pub fn with_folder(mut self, name: &str, folder: &Path) -> Self {
        let folder = folder.display().to_string();
        self.values.insert(name.to_string(), folder.clone());
        self.own.push((folder, format!("<{name}>")));
        self
    }

    /// `arguments` with each `{name}` of this server's values filled in, sent.
    fn call(&mut self, tool: &str, arguments: &Value) -> Value {
        let mut text = arguments.to_string();
        for (name, value) in &self.values {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        self.client.call(tool, serde_json::from_str(&text).unwrap())
    }

    /// Keeps what `saves` names (`{name: pointer into structuredContent}`) for later calls.
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

/// What one differential suite compares, and how.
pub struct Suite {
    /// The other server, as report lines name it.
    pub peer: &'static str,
    /// The scripted session and the listed exceptions, relative to the repository.
    pub script: &'static str,
    pub exceptions: &'static str,
    /// The member of each call that says what the peer does: `ok` or `error`.
    pub outcome: &'static str,
    /// Members whose values differ between any two servers, whatever they serve.
    pub volatile: &'static [&'static str],
    /// Where both fail, whether the message is compared; if not, each server's wording
    /// is left out (and counted) and the rest of the error stays in.
    pub compare_wording: bool,
    /// What else this suite holds equal, on each reply of `tool` after the common normalising.
    pub normalise: fn(tool: &str, reply: &mut Value),
}

/// What a run found: calls answered equal, equal but for an error's wording, different
/// only as listed, different otherwise; the differences not listed (as report lines and
/// as draft exceptions) and the listed exceptions that did not occur.
pub struct Figures {
    pub calls: usize,
    pub tools: BTreeSet<String>,
    pub equal: usize,
    pub worded: usize,
    pub documented: usize,
    pub undocumented: usize,
    pub unlisted: Vec<String>,
    pub drafts: Vec<Value>,
    pub stale: Vec<String>,
}

impl Suite {
    /// Runs the script on both twins and compares each pair of replies.
    pub fn run(&self, theirs: &mut Twin, ours: &mut Twin) -> Figures {
        let script: Value = serde_json::from_str(&std::fs::read_to_string(root().join(self.script)).unwrap()).unwrap();
        let calls = script["calls"].as_array().unwrap();
        let listed = exceptions(&root().join(self.exceptions));
        let mut used = vec![false; listed.len()];
        let mut figures = Figures {
            calls: calls.len(),
            tools: BTreeSet::new(),
            equal: 0,
            worded: 0,
            documented: 0,
            undocumented: 0,
            unlisted: Vec::new(),
            drafts: Vec::new(),
            stale: Vec::new(),
        };
        let mut ordinals: BTreeMap<String, usize> = BTreeMap::new();
        for call in calls {
            let tool = call["tool"].as_str().unwrap();
            figures.tools.insert(tool.to_string());
            let ordinal = ordinals.entry(tool.to_string()).or_insert(0);
            *ordinal += 1;
            let label = format!("{tool}#{ordinal}");
            let their_result = theirs.call(tool, &call["arguments"]);
            assert_eq!(
                their_result["isError"] == json!(true),
                call[self.outcome] == "error",
                "{label}: the script expects {} of {} itself: {their_result}",
                call[self.outcome],
                self.peer
            );
            let our_result = ours.call(tool, &call["arguments"]);
            if let Some(saves) = call.get("save") {
                theirs.save(saves, &their_result, &label);
                if our_result["isError"] != json!(true) {
                    ours.save(saves, &our_result, &label);
                }
            }
            let (mut a, mut b) = (
                self.normalised(tool, &their_result, theirs),
                self.normalised(tool, &our_result, ours),
            );
            let reworded = !self.compare_wording && without_wording(&mut a, &mut b);
            let mut found = Vec::new();
            differences("", &a, &b, &mut found);
            let mut allowed_only = true;
            for (path, their_value, our_value) in &found {
                match listed.iter().position(|e| covers(e, &label, path)) {
                    Some(index) => used[index] = true,
                    None => {
                        allowed_only = false;
                        figures.unlisted.push(format!(
                            "{label} {path}: {} {} / paneward {}",
                            self.peer,
                            cut(their_value),
                            cut(our_value)
                        ));
                        figures
                            .drafts
                            .push(json!({"call": label, "path": path, "reason": "TODO"}));
                    }
                }
            }
            match (found.is_empty(), allowed_only) {
                (true, _) if reworded => figures.worded += 1,
                (true, _) => figures.equal += 1,
                (false, true) => figures.documented += 1,
                (false, false) => figures.undocumented += 1,
            }
        }
        figures.stale = listed
            .iter()
            .zip(&used)
            .filter(|(_, used)| !**used)
            .map(|(e, _)| format!("{} {}", e.call, e.path))
            .collect();
        figures
    }

    /// The reply as compared: texts parsed, volatile members and the twin's own values
    /// replaced, then this suite's own normalising.
    fn normalised(&self, tool: &str, result: &Value, twin: &Twin) -> Value {
        let mut result = result.clone();
        parse_texts(&mut result);
        scrub(&mut result, self.volatile, &twin.own);
        (self.normalise)(tool, &mut result);
        result
    }

    /// Fails on a difference not listed or a listed exception that no longer occurs;
    /// `PANEWARD_DIFF_DRAFT=1` first prints the ones not listed, as exceptions to fill in.
    pub fn assert_listed(&self, figures: &Figures) {
        if std::env::var_os("PANEWARD_DIFF_DRAFT").is_some() {
            eprintln!("{}", serde_json::to_string_pretty(&figures.drafts).unwrap());
        }
        assert!(
            figures.unlisted.is_empty() && figures.stale.is_empty(),
            "{} differences not listed in {}:\n{}\n\n{} listed exceptions that no longer occur:\n{}",
            figures.unlisted.len(),
            self.exceptions,
            figures.unlisted.join("\n"),
            figures.stale.len(),
            figures.stale.join("\n")
        );
    }
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

/// `value` with each `volatile` member's value a placeholder and each `own` value
/// (a server's name, its folders) in a string its placeholder.
pub fn scrub(value: &mut Value, volatile: &[&str], own: &[(String, String)]) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                if volatile.contains(&key.as_str()) {
                    *field = json!("<volatile>");
                } else {
                    scrub(field, volatile, own);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| scrub(item, volatile, own)),
        Value::String(text) => {
            for (value, placeholder) in own {
                if text.contains(value.as_str()) {
                    *text = text.replace(value.as_str(), placeholder);
                }
            }
        }
        _ => {}
    }
}

/// Each string in `value`, at any depth, rewritten by `rewrite`.
pub fn rewrite_strings(value: &mut Value, rewrite: &impl Fn(&str) -> String) {
    match value {
        Value::Object(fields) => fields.values_mut().for_each(|field| rewrite_strings(field, rewrite)),
        Value::Array(items) => items.iter_mut().for_each(|item| rewrite_strings(item, rewrite)),
        Value::String(text) => *text = rewrite(text),
        _ => {}
    }
}

/// Where both replies are an error with a message, the message is each server's own
/// wording: it is taken out of the comparison (true if it differed), `data` stays in.
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

/// One difference: where it starts, and the two values there.
type Difference = (String, Value, Value);

/// The JSON pointers where `ours` differs from `theirs`, with both values.
fn differences(path: &str, theirs: &Value, ours: &Value, out: &mut Vec<Difference>) {
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
/// or `tool#*`) and the pointer it starts at.
struct Exception {
    call: String,
    path: String,
}

/// The exceptions of `file` (`{"exceptions": [{call, path, reason}]}`); each must say why.
fn exceptions(file: &Path) -> Vec<Exception> {
    let text = std::fs::read_to_string(file).unwrap();
    let parsed: Value = serde_json::from_str(&text).unwrap();
    parsed["exceptions"]
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

/// Whether `exception` allows a difference at `path` of call `label` (`tool#n`).
fn covers(exception: &Exception, label: &str, path: &str) -> bool {
    let tool = label.split('#').next().unwrap_or_default();
    let call_matches = exception.call == label || exception.call == format!("{tool}#*");
    call_matches && (path == exception.path || path.starts_with(&format!("{}/", exception.path)))
}

/// `value` as JSON, cut to 300 characters for a report line.
fn cut(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(300) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}
