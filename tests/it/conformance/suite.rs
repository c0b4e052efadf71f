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

use super::expected;
use crate::support::{clean_env, root, TmuxServer};

/// The clients, in the order they run.
pub const CLIENTS: [&str; 2] = ["python", "node"];

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
        let pane = tmux.first_pane();
        // A buffer named as paneward names its own, for the buffer tools to read and paste.
        let staged = "paneward_00000000000000000000000000000000_conformance";
        tmux.tmux(&["set-buffer", "-b", staged, "conformance buffer"]);
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
            ("printer_window", format(&printer, "#{window_id}")),
            ("printer_pane", printer),
            ("scratch_pane", scratch),
            ("staged_buffer", staged.to_string()),
            ("spare_pane", spare_pane),
            ("spare_window", format(&spare_window, "#{window_id}")),
            ("spare_session", format("spare:", "#{session_id}")),
            ("dead_pane", dead),
            ("missing_pane", "%999999".to_string()),
            ("missing_window", "@999999".to_string()),
            ("missing_session", "$999999".to_string()),
        ]
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
            });
        }
    }
    // Stable: every other case keeps its order.
    cases.sort_by_key(|case| case.ends_fixture);
    cases
}

/// What one client printed, and how it ended.
struct ClientRun {
    events: Vec<Value>,
    /// Exit status, stderr tail, or that it hung: shown when a case has no outcome.
    ending: String,
}

fn run_client(client: &str, cases_file: &Path, server: &[String]) -> ClientRun {
    let dir = install_dir();
    let mut command = match client {
        "python" => {
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
fn judge(case: &Case, event: Option<&Value>, ending: &str) -> Result<(), String> {
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
    if !serde_json::from_str::<Value>(text).is_ok_and(|copy| same_json(&copy, structured)) {
        return Err(format!(
            "the text block is not the structuredContent as JSON: {}",
            cut(text)
        ));
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
        match (judge(case, event, &run.ending), listed_as_failing) {
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
    let expected_failures = expected::load(expected_failures_path, &CLIENTS);

    let mut text = String::new();
    let mut problems = Vec::new();
    let (mut passed, mut expected_failed) = (0, 0);
    let mut cases = Vec::new();
    for client in CLIENTS {
        // A fresh tmux fixture per client: the destructive cases end what they touch
        // (kill_server, the last case of all, the whole fixture).
        let fixture = Fixture::start();
        cases = load_cases(&fixture, cases_path);
        let for_clients: Vec<Value> = cases
            .iter()
            .map(|c| {
                json!({"tool": c.tool, "case": c.case, "arguments": c.arguments,
                    "progress": c.progress_at_least.is_some(), "cancelAfterSeconds": c.cancel_after_seconds})
            })
            .collect();
        let cases_file = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("conformance-{label}-{client}-{}.json", fixture.tmux.name));
        std::fs::write(&cases_file, serde_json::to_vec_pretty(&for_clients).unwrap()).unwrap();
        let mut server = vec![
            binary.to_string_lossy().into_owned(),
            "-L".into(),
            fixture.tmux.name.clone(),
            "--safety".into(),
            "destructive".into(),
        ];
        server.extend(extra.iter().map(|arg| (*arg).to_string()));
        let run = run_client(client, &cases_file, &server);
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
        let mut tools: BTreeSet<&str> = case_tools.clone();
        tools.extend(listed.iter().map(String::as_str));
        for tool in tools {
            let mine: Vec<&Case> = cases.iter().filter(|c| c.tool == tool).collect();
            let verdicts = judge_tool(client, tool, &mine, listed.contains(tool), &run, &expected_failures);
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
        cases.len(),
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
