//! The client conformance suite: drives a built paneward binary over stdio with the
//! official MCP SDKs (installed by `tests/conformance/install`), on a private tmux
//! fixture, runs every case of `cases.json` through each client, and judges the
//! outcomes here, in one place, against the cases and `expected-failures.yaml`.
//! The clients only report what their SDK returned or raised (`python/client.py`,
//! `node/client.mjs`); schema checks of replies are the SDKs' own.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sha2::Digest;

use super::expected;
use super::prompt_cases;
use crate::support::http::HttpServer;
use crate::support::{clean_env, root, TmuxServer};

/// The clients, in the order they run.
pub const CLIENTS: [&str; 3] = ["python", "python-legacy", "node"];

/// The revision each client must agree with paneward: the Python SDK's default mode
/// speaks 2026-07-28 where the server offers it, and pinned to `mode="legacy"` shakes
/// hands on 2025-11-25. The TypeScript SDK (1.32.2, handshake only) does not say what
/// it agreed: `None`, nothing to compare.
fn negotiated_version(client: &str) -> Option<&'static str> {
    match client {
        "python" => Some("2026-07-28"),
        "python-legacy" => Some("2025-11-25"),
        _ => None,
    }
}

/// How long one client may take for all its cases before it counts as hung; each of
/// its calls has its own 30 s limit inside the client.
const CLIENT_DEADLINE: Duration = Duration::from_secs(120);

/// Where `tests/conformance/install` put the clients.
pub fn install_dir() -> PathBuf {
    std::env::var_os("PANEWARD_CONFORMANCE_DIR").map_or_else(|| root().join("target/conformance"), PathBuf::from)
}

/// The installed client folders that are missing, if any.
pub fn missing_clients() -> Vec<PathBuf> {
    let dir = install_dir();
    [dir.join("python/.installed"), dir.join("node/.installed")]
        .into_iter()
        .filter(|stamp| !stamp.exists())
        .collect()
}

/// A file of the suite in `tests/conformance`.
pub fn data(file: &str) -> PathBuf {
    root().join("tests/conformance").join(file)
}

/// What the suite found for one binary.
pub struct SuiteReport {
    /// One line per client and tool, then a summary.
    pub text: String,
    /// Everything that fails the suite: (client, tool, what).
    pub problems: Vec<(String, String, String)>,
}

impl SuiteReport {
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

/// One case of `cases.json`, placeholders filled.
struct Case {
    tool: String,
    case: String,
    arguments: Value,
    expect_success: bool,
    /// `expect: "cancelled"`: neither a success nor an error case.
    expect_cancelled: bool,
    includes: Option<Value>,
    error_includes: Option<String>,
    /// The call carries a progress token; at least this many notifications must come.
    progress_at_least: Option<u64>,
    /// The client cancels the call this long after sending it; the expectation is
    /// then that it ended as cancelled (`expect: "cancelled"`).
    cancel_after_seconds: Option<f64>,
    /// The case ends the fixture (`kill_server`): it runs after every other case.
    ends_fixture: bool,
    /// Cases run by phase (`phase`, 0 unless given), so that a case that ends what
    /// others need (a kill) runs after them; tools run in name order within a phase.
    phase: u64,
    /// How the person answers if the call asks them (`accept` or `decline`); a case
    /// with it must see the question asked.
    elicit: Option<String>,
}

/// The tmux server the cases run against, and the values of the placeholders.
struct Fixture {
    tmux: TmuxServer,
    placeholders: Vec<(String, String)>,
}

impl Fixture {
    fn start() -> Self {
        let tmux = TmuxServer::start();
        // Objects for the destructive cases to end (every client gets a fresh fixture):
        // a pane beside another, a window, a session, and a dead pane to respawn.
        let split_window = tmux.window_running("exec sleep 100000");
        let spare_pane = tmux.split(&split_window, "-h", "exec sleep 100000");
        let spare_window = tmux.window_running("exec sleep 100000");
        tmux.tmux(&["new-session", "-d", "-s", "spare", "exec sleep 100000"]);
        let dead = tmux.window_running("exec sleep 100000");
        tmux.tmux(&["set-option", "-w", "-t", &dead, "remain-on-exit", "on"]);
        tmux.tmux(&["respawn-pane", "-k", "-t", &dead, "true"]);
        tmux.wait_for_value(&dead, "#{pane_dead}", "1");
        let printer = tmux.window_running("printf 'conformance one\\nconformance two\\n'; exec sleep 100000");
        tmux.wait_for_text(&printer, "conformance two");
        let scratch = tmux.window_running("exec cat");
        // paneward runs "in" this pane (its TMUX and TMUX_PANE say so), as it does when
        // started from a terminal inside tmux.
        let caller = tmux.window_running("exec cat");
        let pane = tmux.first_pane();
        // A buffer named as paneward names its own, for the buffer tools to read and paste.
        let staged = "paneward_00000000000000000000000000000000_conformance";
        tmux.tmux(&["set-buffer", "-b", staged, "conformance buffer"]);
        // And one named as libtmux-mcp names its own, for the python profile's.
        let python_buffer = "libtmux_mcp_00000000000000000000000000000000_conformance";
        tmux.tmux(&["set-buffer", "-b", python_buffer, "conformance python buffer"]);
        // A finished run_command job, recorded as its wrapper records one: fetched, and
        // its status sealed (the job's id is the first half of SHA-256 of its seal).
        let seal = "0123456789abcdef0123456789abcdef";
        let job: String = sha2::Sha256::digest(seal.as_bytes())[..16]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        tmux.tmux(&[
            "set-option",
            "-p",
            "-t",
            &printer,
            &format!("@paneward_job_{job}"),
            "1000",
        ]);
        tmux.tmux(&["set-option", "-p", "-t", &printer, &format!("@paneward_run_{job}"), "1"]);
        tmux.tmux(&[
            "set-option",
            "-p",
            "-t",
            &printer,
            &format!("@paneward_exit_{job}"),
            &format!("3 2 {seal}"),
        ]);
        let finished_job = format!("{printer}:{job}");
        let format = |target: &str, what: &str| {
            tmux.tmux(&["display-message", "-p", "-t", target, what])
                .trim()
                .to_string()
        };
        let placeholders = [
            ("pane", pane.clone()),
            ("window", format(&pane, "#{window_id}")),
            ("session", format(&pane, "#{session_id}")),
            ("session_name", format(&pane, "#{session_name}")),
            ("window_index", format(&pane, "#{window_index}")),
            ("socket_name", tmux.name.clone()),
            ("spare_session_name", "spare".to_string()),
            ("printer_window_index", format(&printer, "#{window_index}")),
            ("printer_window", format(&printer, "#{window_id}")),
            ("printer_pane", printer),
            ("scratch_pane", scratch),
            ("caller_pane", caller),
            ("staged_buffer", staged.to_string()),
            ("python_buffer", python_buffer.to_string()),
            ("spare_pane", spare_pane),
            ("spare_window", format(&spare_window, "#{window_id}")),
            ("spare_session", format("spare:", "#{session_id}")),
            ("dead_pane", dead),
            ("finished_job", finished_job),
            ("missing_pane", "%999999".to_string()),
            ("missing_window", "@999999".to_string()),
            ("missing_session", "$999999".to_string()),
        ]
        .into_iter()
        // Resource URIs write ids without their sigil: `{pane_number}` and the like.
        .flat_map(|(name, value)| {
            let number = [
                "pane",
                "window",
                "session",
                "printer_pane",
                "printer_window",
                "scratch_pane",
                "missing_pane",
                "finished_job",
            ]
            .contains(&name)
            .then(|| (format!("{name}_number"), value[1..].to_string()));
            std::iter::once((name.to_string(), value)).chain(number)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|(name, value)| (format!("{{{name}}}"), value))
        .collect();
        Self { tmux, placeholders }
    }

    /// `value` with every placeholder in every string filled; fails on an unknown one.
    fn fill(&self, value: &Value, at: &str) -> Value {
        match value {
            Value::String(text) => {
                let mut filled = text.clone();
                for (name, value) in &self.placeholders {
                    filled = filled.replace(name, value);
                }
                if let Some(start) = filled.find('{').filter(|&s| filled[s..].contains('}')) {
                    let known: Vec<&str> = self.placeholders.iter().map(|(n, _)| n.as_str()).collect();
                    panic!(
                        "cases.json {at}: unknown placeholder in {:?}; known: {known:?}",
                        &filled[start..]
                    );
                }
                Value::String(filled)
            }
            Value::Array(items) => Value::Array(items.iter().map(|v| self.fill(v, at)).collect()),
            Value::Object(members) => members.iter().map(|(k, v)| (k.clone(), self.fill(v, at))).collect(),
            other => other.clone(),
        }
    }
}

/// Reads the cases file at `path` and fills the placeholders.
fn load_cases(fixture: &Fixture, path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("cases.json is not JSON: {e}"));
    let tools = file["tools"]
        .as_object()
        .expect("cases.json: /tools is an object of tool names");
    let mut cases = Vec::new();
    for (tool, list) in tools {
        let mut names = BTreeSet::new();
        for (index, case) in list
            .as_array()
            .expect("cases.json: each tool has an array")
            .iter()
            .enumerate()
        {
            let at = format!("/tools/{tool}/{index}");
            let name = case["case"]
                .as_str()
                .unwrap_or_else(|| panic!("cases.json {at}/case: a name"));
            assert!(names.insert(name.to_string()), "cases.json {at}: case {name:?} twice");
            let cancel_after_seconds = case["cancelAfterSeconds"].as_f64();
            let expect_success = match (case["expect"].as_str(), cancel_after_seconds) {
                (Some("success"), None) => true,
                (Some("error"), None) => false,
                // A cancelled call counts as neither a success nor an error case.
                (Some("cancelled"), Some(_)) => false,
                _ => {
                    panic!("cases.json {at}/expect: \"success\" or \"error\", or \"cancelled\" with cancelAfterSeconds")
                }
            };
            let known = [
                "case",
                "arguments",
                "expect",
                "includes",
                "errorIncludes",
                "progressAtLeast",
                "cancelAfterSeconds",
                "endsFixture",
                "phase",
                "elicit",
            ];
            if let Some(member) = case.as_object().unwrap().keys().find(|k| !known.contains(&k.as_str())) {
                panic!("cases.json {at}: unknown member {member:?}; known: {known:?}");
            }
            cases.push(Case {
                tool: tool.clone(),
                case: name.to_string(),
                arguments: fixture.fill(&case["arguments"], &at),
                expect_success,
                expect_cancelled: cancel_after_seconds.is_some(),
                progress_at_least: case["progressAtLeast"].as_u64(),
                cancel_after_seconds,
                includes: case.get("includes").map(|v| fixture.fill(v, &at)),
                error_includes: case["errorIncludes"]
                    .as_str()
                    .map(|t| fixture.fill(&json!(t), &at).as_str().unwrap().to_string()),
                ends_fixture: case["endsFixture"] == json!(true),
                phase: case["phase"].as_u64().unwrap_or(0),
                elicit: case["elicit"].as_str().map(str::to_string),
            });
        }
    }
    // Stable: every other case keeps its order.
    cases.sort_by_key(|case| (case.ends_fixture, case.phase));
    cases
}

/// One case of `cases.json`'s `resources`: an MCP resource request and what must come
/// of it.
struct ResourceCase {
    case: String,
    /// What the client sends: `action` (`list`, `read`, `subscribe` or `complete`),
    /// `uri`, `argument`, `context`, and for `subscribe` the tool call (`trigger`) that
    /// makes the resource change.
    request: Value,
    expect_success: bool,
    /// Texts the client's report of the result must contain.
    mentions: Vec<String>,
    error_code: Option<i64>,
}

/// Reads the `resources` cases of the file at `path`, placeholders filled. A case may
/// name a declared template by its file (`template`) instead of writing its braces,
/// which the placeholders would take for their own.
fn load_resource_cases(fixture: &Fixture, path: &Path) -> Vec<ResourceCase> {
    let text = std::fs::read_to_string(path).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let Some(list) = file.get("resources").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut names = BTreeSet::new();
    list.iter()
        .enumerate()
        .map(|(index, case)| {
            let at = format!("/resources/{index}");
            let known = [
                "case",
                "action",
                "uri",
                "template",
                "argument",
                "context",
                "trigger",
                "expect",
                "mentions",
                "errorCode",
            ];
            if let Some(member) = case.as_object().unwrap().keys().find(|k| !known.contains(&k.as_str())) {
                panic!("cases.json {at}: unknown member {member:?}; known: {known:?}");
            }
            let name = case["case"].as_str().unwrap_or_else(|| panic!("cases.json {at}/case"));
            assert!(names.insert(name.to_string()), "cases.json {at}: case {name:?} twice");
            let mut request = json!({"case": name, "action": case["action"]});
            for member in ["uri", "argument", "context", "trigger"] {
                if let Some(value) = case.get(member) {
                    request[member] = fixture.fill(value, &at);
                }
            }
            if let Some(template) = case["template"].as_str() {
                let path = root().join("schemas/resources").join(format!("{template}.json"));
                let declared: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
                request["uri"] = declared["uriTemplate"].clone();
            }
            ResourceCase {
                case: name.to_string(),
                request,
                expect_success: case["expect"] == "success",
                mentions: case["mentions"]
                    .as_array()
                    .map(|m| {
                        m.iter()
                            .map(|t| fixture.fill(t, &at).as_str().unwrap().to_string())
                            .collect()
                    })
                    .unwrap_or_default(),
                error_code: case["errorCode"].as_i64(),
            }
        })
        .collect()
}

/// `Ok` if the client's report of a resource case meets it, else why not.
fn judge_resource(case: &ResourceCase, event: Option<&Value>, ending: &str, revision: &str) -> Result<(), String> {
    // 2026-07-28 renumbered "resource not found" from -32002 to -32602 (Invalid params).
    let error_code = match case.error_code {
        Some(-32002) if revision >= "2026-07-28" => Some(-32602),
        code => code,
    };
    let Some(event) = event else {
        return Err(format!("no outcome reported: {ending}"));
    };
    let text = event["text"].as_str().unwrap_or_default();
    match (event["outcome"].as_str(), case.expect_success) {
        (Some("result"), true) => match case.mentions.iter().find(|m| !text.contains(m.as_str())) {
            Some(missing) => Err(format!("the result does not mention {missing:?}: {}", cut(text))),
            None => Ok(()),
        },
        (Some("protocol-error"), false) if event["code"].as_i64() == error_code => Ok(()),
        (outcome, _) => Err(format!(
            "{}: {} {}",
            outcome.unwrap_or("no outcome"),
            event["code"],
            cut(event["detail"].as_str().unwrap_or(text))
        )),
    }
}

/// What one client printed, and how it ended.
struct ClientRun {
    events: Vec<Value>,
    /// Exit status, stderr tail, or that it hung: shown when a case has no outcome.
    ending: String,
}

fn run_client(client: &str, cases_file: &Path, server: &[String], env: &[(&str, &str)]) -> ClientRun {
    let dir = install_dir();
    let mut command = match client {
        "python" | "python-legacy" => {
            let mut c = Command::new(dir.join("python/bin/python"));
            c.arg(data("python/client.py"));
            c
        }
        "node" => {
            let mut c = Command::new("node");
            c.arg(data("node/client.mjs")).arg(dir.join("node"));
            c
        }
        other => panic!("no client {other}"),
    };
    clean_env(&mut command);
    if client == "python-legacy" {
        command.env("PANEWARD_CONFORMANCE_MODE", "legacy");
    }
    command.envs(env.iter().copied());
    command.arg(cases_file).arg("--").args(server);
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start the {client} client: {e}"));
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > CLIENT_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = stdout.join().unwrap();
    let stderr = stderr.join().unwrap();
    let events = stdout
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    let tail: Vec<&str> = stderr
        .lines()
        .rev()
        .take(12)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let ending = match status {
        Some(status) => format!(
            "the {client} client exited with {status}; its stderr ends:\n{}",
            tail.join("\n")
        ),
        None => format!("the {client} client hung for {CLIENT_DEADLINE:?} and was killed"),
    };
    ClientRun { events, ending }
}

/// Whether `actual` holds `part`: objects member by member, anything else equal.
fn includes(actual: &Value, part: &Value) -> bool {
    match (actual, part) {
        (Value::Object(actual), Value::Object(part)) => part
            .iter()
            .all(|(key, value)| actual.get(key).is_some_and(|a| includes(a, value))),
        _ => same_json(actual, part),
    }
}

/// `Ok` if the client's report of `case` meets the case's expectation, else why not.
fn judge(case: &Case, event: Option<&Value>, ending: &str, json_text: bool) -> Result<(), String> {
    let Some(event) = event else {
        return Err(format!("no outcome reported: {ending}"));
    };
    let detail = event["detail"].as_str().unwrap_or_default();
    if let Some(least) = case.progress_at_least {
        let got = event["progress"].as_array().map_or(0, Vec::len) as u64;
        if got < least {
            return Err(format!("{got} progress notifications, expected at least {least}"));
        }
    }
    if case.expect_cancelled {
        return match event["outcome"].as_str() {
            Some("cancelled") => Ok(()),
            _ => Err(format!("expected the call to end as cancelled: {event}")),
        };
    }
    match event["outcome"].as_str() {
        Some("result") => {}
        Some("invalid-reply") => {
            return Err(format!(
                "the client rejected the reply as breaking the outputSchema: {detail}"
            ))
        }
        Some(other) => return Err(format!("{other}: {detail}")),
        None => return Err(format!("a report without an outcome: {event}")),
    }
    let text = event["text"].as_str().unwrap_or_default();
    let is_error = event["isError"] == json!(true);
    if case.elicit.is_some() && event["asked"] != json!(1) {
        return Err(format!(
            "the person should have been asked once, was asked {}: {}",
            event["asked"],
            cut(text)
        ));
    }
    if !case.expect_success {
        if !is_error {
            return Err(format!("expected isError, got a success: {}", cut(text)));
        }
        return match &case.error_includes {
            Some(part) if !text.contains(part.as_str()) => {
                Err(format!("the error does not mention {part:?}: {}", cut(text)))
            }
            _ => Ok(()),
        };
    }
    if is_error {
        return Err(format!("unexpected isError: {}", cut(text)));
    }
    let structured = &event["structuredContent"];
    if !structured.is_object() {
        return Err(format!("no structuredContent object: {}", cut(&structured.to_string())));
    }
    // The python profile mirrors libtmux-mcp, whose text is the JSON (a value fastmcp
    // wraps as `{result}` is its bare value: a string as is, else as JSON); paneward's
    // own text is written for a model and must hold every fact of the structured content.
    let parsed = serde_json::from_str::<Value>(text).ok();
    let wrapped = structured
        .as_object()
        .filter(|members| members.len() == 1)
        .and_then(|members| members.get("result"));
    let as_json = parsed.as_ref().is_some_and(|copy| same_json(copy, structured))
        || wrapped.is_some_and(|bare| {
            bare.as_str() == Some(text) || parsed.as_ref().is_some_and(|copy| same_json(copy, bare))
        });
    if json_text && !as_json {
        return Err(format!(
            "the text block is not the structuredContent as JSON: {}",
            cut(text)
        ));
    }
    // A wrapped value's facts are the bare value's.
    let facts = if json_text {
        wrapped.unwrap_or(structured)
    } else {
        structured
    };
    if let Some(missing) = crate::support::fact_missing_from(text, facts) {
        return Err(format!("the text block lacks {missing}: {}", cut(text)));
    }
    match &case.includes {
        Some(part) if !includes(structured, part) => Err(format!(
            "structuredContent lacks {part}; it is {}",
            cut(&structured.to_string())
        )),
        _ => Ok(()),
    }
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(300) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// The cases of one tool through one client: what passed, what failed as listed in
/// the expected failures, and what fails the suite.
#[derive(Default)]
struct ToolVerdicts {
    passed: Vec<String>,
    expected: Vec<String>,
    failed: Vec<String>,
}

fn judge_tool(
    client: &str,
    tool: &str,
    cases: &[&Case],
    listed: bool,
    run: &ClientRun,
    expected_failures: &expected::ExpectedFailures,
    json_text: bool,
) -> ToolVerdicts {
    let mut verdicts = ToolVerdicts::default();
    if !listed {
        verdicts.failed.push(format!(
            "cases.json has cases for {tool}, which the server does not list"
        ));
        return verdicts;
    }
    if !(cases.iter().any(|c| c.expect_success) && cases.iter().any(|c| !c.expect_success && !c.expect_cancelled)) {
        verdicts.failed.push(
            "advertised without a success case and an error case: add both to tests/conformance/cases.json".into(),
        );
    }
    for case in cases {
        let event = run
            .events
            .iter()
            .find(|e| e["event"] == "called" && e["tool"] == tool && e["case"] == case.case.as_str());
        let entry = format!("{tool}/{}", case.case);
        let listed_as_failing = expected_failures.contains(&(client.to_string(), entry.clone()));
        match (judge(case, event, &run.ending, json_text), listed_as_failing) {
            (Ok(()), false) => verdicts.passed.push(case.case.clone()),
            (Err(why), true) => verdicts.expected.push(format!("{} ({})", case.case, cut(&why))),
            (Err(why), false) => verdicts.failed.push(format!("{}: {why}", case.case)),
            (Ok(()), true) => verdicts.failed.push(format!(
                "{}: passes, but expected-failures.yaml lists {client}: {entry}; delete that entry",
                case.case
            )),
        }
    }
    verdicts
}

/// Runs the suite against `binary` with the cases and expected failures in those files
/// (normally `data("cases.json")` and `data("expected-failures.yaml")`); `label` names
/// the run in its output.
pub fn run(binary: &Path, label: &str, cases_path: &Path, expected_failures_path: &Path) -> SuiteReport {
    run_with(binary, &[], label, cases_path, expected_failures_path)
}

/// [`run`] with `extra` arguments for the server (such as `--profile python`).
pub fn run_with(
    binary: &Path,
    extra: &[&str],
    label: &str,
    cases_path: &Path,
    expected_failures_path: &Path,
) -> SuiteReport {
    run_served(
        Served::Paneward(binary, extra),
        label,
        cases_path,
        expected_failures_path,
        false,
    )
}

/// [`run`] against libtmux-mcp at `command` instead of paneward, on the same fixture
/// (`LIBTMUX_SOCKET` naming it, every toolset on): the proof that the python profile's
/// cases expect what the server paneward mirrors does. Its resource and prompt cases are
/// not run (libtmux-mcp serves others).
pub fn run_libtmux_mcp(command: &Path, label: &str, cases_path: &Path, expected_failures_path: &Path) -> SuiteReport {
    run_served(
        Served::LibtmuxMcp(command),
        label,
        cases_path,
        expected_failures_path,
        false,
    )
}

/// The server the clients start.
#[derive(Clone, Copy)]
enum Served<'a> {
    /// paneward's binary, with extra arguments (such as `--profile python`).
    Paneward(&'a Path, &'a [&'a str]),
    /// libtmux-mcp's command.
    LibtmuxMcp(&'a Path),
}

/// [`run`] with the clients on their Streamable HTTP transports, against one
/// `paneward serve --http` (the same binary, arguments and cases), token included.
pub fn run_over_http(binary: &Path, label: &str, cases_path: &Path, expected_failures_path: &Path) -> SuiteReport {
    run_served(
        Served::Paneward(binary, &[]),
        label,
        cases_path,
        expected_failures_path,
        true,
    )
}

/// What `client` prints when it connects to `url` with `token` (or none) and makes
/// no calls: `connected`, `listed`, `done`, or one `failed` event.
pub fn connect_over_http(client: &str, url: &str, token: Option<&str>) -> Vec<Value> {
    let cases_file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("no-cases-{}.json", std::process::id()));
    std::fs::write(&cases_file, r#"{"tools": [], "resources": []}"#).unwrap();
    let env: Vec<(&str, &str)> = token.map(|t| ("PANEWARD_CONFORMANCE_TOKEN", t)).into_iter().collect();
    run_client(client, &cases_file, &["--url".into(), url.into()], &env).events
}

fn run_served(
    served: Served,
    label: &str,
    cases_path: &Path,
    expected_failures_path: &Path,
    over_http: bool,
) -> SuiteReport {
    let expected_failures = expected::load(expected_failures_path, &CLIENTS);
    let (binary, extra) = match served {
        Served::Paneward(binary, extra) => (binary, extra),
        Served::LibtmuxMcp(command) => (command, &[][..]),
    };
    let peer = matches!(served, Served::LibtmuxMcp(_));
    let json_text = peer || extra.windows(2).any(|pair| pair == ["--profile", "python"]);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(cases_path).unwrap()).unwrap();

    let mut text = String::new();
    let mut problems = Vec::new();
    let (mut passed, mut expected_failed) = (0, 0);
    let mut cases = Vec::new();
    let mut resource_count = 0;
    for client in CLIENTS {
        // A fresh tmux fixture per client: the destructive cases end what they touch
        // (kill_server, the last case of all, the whole fixture).
        let fixture = Fixture::start();
        cases = load_cases(&fixture, cases_path);
        let resource_cases = if peer {
            Vec::new()
        } else {
            load_resource_cases(&fixture, cases_path)
        };
        resource_count = resource_cases.len();
        let prompt_cases = if peer {
            Vec::new()
        } else {
            prompt_cases::load(&file, &|value, at| fixture.fill(value, at))
        };
        let for_clients = json!({
            "tools": cases
                .iter()
                .map(|c| {
                    json!({"tool": c.tool, "case": c.case, "arguments": c.arguments, "elicit": c.elicit,
                        "progress": c.progress_at_least.is_some(), "cancelAfterSeconds": c.cancel_after_seconds})
                })
                .chain(prompt_cases.iter().map(|c| c.for_client.clone()))
                .collect::<Vec<_>>(),
            "resources": resource_cases.iter().map(|c| c.request.clone()).collect::<Vec<_>>(),
        });
        let cases_file = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("conformance-{label}-{client}-{}.json", fixture.tmux.name));
        std::fs::write(&cases_file, serde_json::to_vec_pretty(&for_clients).unwrap()).unwrap();
        // paneward runs as if inside the fixture's caller pane, so the cases that touch
        // it meet caller protection (and its person's answer).
        let caller = fixture
            .placeholders
            .iter()
            .find(|(name, _)| name == "{caller_pane}")
            .map(|(_, pane)| pane.clone())
            .unwrap();
        let tmux_env = fixture.tmux.tmux_env();
        let mut args = vec![
            "-L".to_string(),
            fixture.tmux.name.clone(),
            "--safety".into(),
            "destructive".into(),
        ];
        args.extend(extra.iter().map(|arg| (*arg).to_string()));
        // Over HTTP: a `paneward serve --http` of this fixture, the client a session of it.
        let http = over_http.then(|| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            HttpServer::start(&args, &[("TMUX", tmux_env.as_str()), ("TMUX_PANE", caller.as_str())])
        });
        let (server, token) = match &http {
            None => {
                let mut server = vec![
                    "env".to_string(),
                    format!("TMUX={tmux_env}"),
                    format!("TMUX_PANE={caller}"),
                ];
                if peer {
                    server.push(format!("LIBTMUX_SOCKET={}", fixture.tmux.name));
                    server.push("LIBTMUX_TOOLSETS=inspect,manage,execute,teardown".into());
                    server.push(binary.to_string_lossy().into_owned());
                } else {
                    server.push(binary.to_string_lossy().into_owned());
                    server.extend(args);
                }
                (server, None)
            }
            Some(http) => (vec!["--url".to_string(), http.url()], Some(http.token.clone())),
        };
        let env: Vec<(&str, &str)> = token
            .as_deref()
            .map(|t| ("PANEWARD_CONFORMANCE_TOKEN", t))
            .into_iter()
            .collect();
        let run = run_client(client, &cases_file, &server, &env);
        let _ = std::fs::remove_file(&cases_file);
        let case_tools: BTreeSet<&str> = cases.iter().map(|c| c.tool.as_str()).collect();
        let listed: BTreeSet<String> = run
            .events
            .iter()
            .find(|e| e["event"] == "listed")
            .and_then(|e| e["tools"].as_array())
            .map(|names| names.iter().filter_map(|n| n.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        if listed.is_empty() {
            text.push_str(&format!(
                "conformance {label} {client:<6} FAIL  no tools listed: {}\n",
                run.ending
            ));
            problems.push((client.into(), "-".into(), format!("no tools listed: {}", run.ending)));
            continue;
        }
        let reported = run
            .events
            .iter()
            .find(|e| e["event"] == "connected")
            .map(|e| e["protocolVersion"].clone());
        let reported = reported.as_ref().and_then(Value::as_str);
        // libtmux-mcp's revisions are its own; only paneward's are asserted.
        if let Some(wanted) = negotiated_version(client).filter(|wanted| !peer && Some(*wanted) != reported) {
            let why = format!("negotiated {reported:?}, not {wanted}");
            text.push_str(&format!("conformance {label} {client:<6} FAIL  {why}\n"));
            problems.push((client.into(), "(revision)".into(), why));
        }
        text.push_str(&format!(
            "conformance {label} {client:<6} speaks {}\n",
            reported.unwrap_or("a handshake revision (not reported)")
        ));
        // Only a client that reports 2026-07-28 speaks it; the others shook hands.
        let agreed = reported.unwrap_or("2025-11-25");
        let mut tools: BTreeSet<&str> = case_tools.clone();
        tools.extend(listed.iter().map(String::as_str));
        for tool in tools {
            let mine: Vec<&Case> = cases.iter().filter(|c| c.tool == tool).collect();
            let verdicts = judge_tool(
                client,
                tool,
                &mine,
                listed.contains(tool),
                &run,
                &expected_failures,
                json_text,
            );
            passed += verdicts.passed.len();
            expected_failed += verdicts.expected.len();
            let status = if verdicts.failed.is_empty() { "pass" } else { "FAIL" };
            text.push_str(&format!(
                "conformance {label} {client:<6} {tool:<24} {status}  {}\n",
                verdicts.passed.join(", ")
            ));
            for line in &verdicts.expected {
                text.push_str(&format!("    expected failure: {line}\n"));
            }
            for line in verdicts.failed {
                text.push_str(&format!("    FAILED: {line}\n"));
                problems.push((client.into(), tool.into(), line));
            }
        }
        let mut resources_passed = Vec::new();
        let mut resources_failed = Vec::new();
        for case in &resource_cases {
            let event = run
                .events
                .iter()
                .find(|e| e["event"] == "resource" && e["case"] == case.case.as_str());
            match judge_resource(case, event, &run.ending, agreed) {
                Ok(()) => resources_passed.push(case.case.clone()),
                Err(why) => resources_failed.push(format!("{}: {why}", case.case)),
            }
        }
        passed += resources_passed.len();
        let status = if resources_failed.is_empty() { "pass" } else { "FAIL" };
        text.push_str(&format!(
            "conformance {label} {client:<6} {:<24} {status}  {}\n",
            "(resources)",
            resources_passed.join(", ")
        ));
        for line in resources_failed {
            text.push_str(&format!("    FAILED: {line}\n"));
            problems.push((client.into(), "(resources)".into(), line));
        }
        let (lines, prompt_problems) = prompt_cases::judge_all(client, &prompt_cases, &run.events, &run.ending);
        text.push_str(&lines);
        problems.extend(
            prompt_problems
                .into_iter()
                .map(|p| (client.to_string(), "prompts".to_string(), p)),
        );
    }
    for (client, entry) in &expected_failures {
        let known = cases.iter().any(|c| format!("{}/{}", c.tool, c.case) == *entry);
        if !known {
            let why = format!("expected-failures.yaml lists {client}: {entry}, which is not a case in cases.json");
            text.push_str(&format!("    FAILED: {why}\n"));
            problems.push((client.clone(), entry.clone(), why));
        }
    }
    text.push_str(&format!(
        "conformance {label}: {} clients, {} cases each: {} as expected, {} expected failures, {} problems\n",
        CLIENTS.len(),
        cases.len() + resource_count,
        passed,
        expected_failed,
        problems.len()
    ));
    SuiteReport { text, problems }
}

/// Writes `text` to the test's standard error past libtest's capture, so the suite's
/// lines show in every run, passing or not.
pub fn show(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    let _ = stderr.flush();
}

/// JSON equality where numbers compare by value: a client that re-encodes a reply
/// (JavaScript's `JSON.stringify`) writes `30.0` as `30`, the same JSON number.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64().is_some_and(|x| y.as_f64() == Some(x)),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, x)| y.get(key).is_some_and(|y| same_json(x, y)))
        }
        _ => a == b,
    }
}
