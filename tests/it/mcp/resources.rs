//! MCP resources against a real tmux: the declared lists (locked by snapshots), a read
//! of every resource in its declared shape, not-found and malformed URIs, bounded pane
//! text, completion of template variables, and subscriptions (a pane's writes, a burst,
//! a new window, unsubscribing, and no tmux client added for watching); and
//! `run_command` jobs as `tmux://jobs/…` (read, told when they end, read again by a
//! restarted paneward, malformed and unknown ids).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use crate::support::{assert_json_rpc, root, wait_for, Client, Scratch, TmuxServer, PATIENCE};
use paneward::catalog::schema::strict_copy;

/// paneward's `WATCH_COALESCE_INTERVAL` (src/limits.rs), in seconds: at most one
/// notification per URI in each such interval.
const WATCH_COALESCE_SECONDS: f64 = 0.25;

/// A declaration file of `schemas/resources/`.
fn declaration(name: &str) -> Value {
    let path = root().join("schemas/resources").join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[track_caller]
fn assert_valid(schema: &Value, instance: &Value, what: &str) {
    // Closed, as a reply is checked: nothing the declaration does not name.
    let validator = jsonschema::validator_for(&strict_copy(schema)).unwrap();
    let problems: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(
        problems.is_empty(),
        "{what} breaks its declared schema: {problems:?}\n{instance}"
    );
}

/// A client that keeps the notifications it reads while waiting for responses.
struct Session {
    client: Client,
    next_id: i64,
    /// `notifications/resources/updated` URIs, with when each was read.
    updates: Vec<(String, SystemTime)>,
}

impl Session {
    fn open(server: &TmuxServer, args: &[&str]) -> Self {
        let mut client = server.paneward_with(args, &[]);
        client.initialize();
        Self {
            client,
            next_id: 1000,
            updates: Vec::new(),
        }
    }

    fn keep(&mut self, message: &Value) {
        if message["method"] == "notifications/resources/updated" {
            let uri = message["params"]["uri"].as_str().unwrap().to_string();
            self.updates.push((uri, SystemTime::now()));
        }
    }

    /// The whole JSON-RPC response to `method`.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = json!(self.next_id);
        self.next_id += 1;
        self.client
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self.client.next_raw_line().expect("paneward closed stdout");
            let message = assert_json_rpc(&line);
            if message.get("id") == Some(&id) {
                return message;
            }
            self.keep(&message);
        }
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    fn error(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("result").is_none(), "{method} should fail: {response}");
        response["error"].clone()
    }

    fn read(&mut self, uri: &str) -> Value {
        let result = self.result("resources/read", json!({"uri": uri}));
        let contents = result["contents"].as_array().unwrap();
        assert_eq!(contents.len(), 1, "{result}");
        assert_eq!(contents[0]["uri"], uri, "the reply keeps the URI as spelled");
        contents[0].clone()
    }

    /// Reads notifications for up to `wait`, stopping early once `until` holds.
    fn listen(&mut self, wait: Duration, until: impl Fn(&[(String, SystemTime)]) -> bool) {
        let deadline = std::time::Instant::now() + wait;
        while !until(&self.updates) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return;
            }
            if let Some(line) = self.client.next_raw_line_within(left) {
                let message = assert_json_rpc(&line);
                self.keep(&message);
            }
        }
    }

    /// Waits (up to [`PATIENCE`]) for an update of `uri`; fails without one.
    #[track_caller]
    fn expect_update(&mut self, uri: &str) {
        self.listen(PATIENCE, |updates| updates.iter().any(|(u, _)| u == uri));
        assert!(
            self.updates.iter().any(|(u, _)| u == uri),
            "no notifications/resources/updated for {uri}; got {:?}",
            self.updates
        );
    }

    /// Reads notifications until none has come for `quiet`.
    fn drain_until_quiet(&mut self, quiet: Duration) {
        while let Some(line) = self.client.next_raw_line_within(quiet) {
            let message = assert_json_rpc(&line);
            self.keep(&message);
        }
    }

    fn updates_of(&self, uri: &str) -> usize {
        self.updates.iter().filter(|(u, _)| u == uri).count()
    }
}

fn digits(id: &str) -> &str {
    &id[1..]
}

#[test]
fn initialize_declares_resources_with_subscribe_and_completions() {
    let server = TmuxServer::start();
    let mut client = server.paneward();
    let result = client.initialize();
    let capabilities = &result["capabilities"];
    assert_eq!(capabilities["resources"], json!({"subscribe": true}));
    assert_eq!(capabilities["completions"], json!({}));
    assert!(capabilities.get("tools").is_some());
}

#[test]
fn every_tier_lists_the_declared_resources_and_templates() {
    let server = TmuxServer::start();
    let mut lists = Vec::new();
    for tier in ["readonly", "mutating", "destructive"] {
        let mut session = Session::open(&server, &["--safety", tier]);
        let resources = session.result("resources/list", json!({}));
        let templates = session.result("resources/templates/list", json!({}));
        lists.push((resources, templates));
    }
    assert!(
        lists.windows(2).all(|pair| pair[0] == pair[1]),
        "the tier changes nothing"
    );
    let (resources, templates) = lists.remove(0);
    let mut advertised: Vec<(String, Value)> = Vec::new();
    for resource in resources["resources"].as_array().unwrap() {
        advertised.push((resource["name"].as_str().unwrap().into(), resource.clone()));
    }
    for template in templates["resourceTemplates"].as_array().unwrap() {
        advertised.push((template["name"].as_str().unwrap().into(), template.clone()));
    }
    let mut files: Vec<String> = std::fs::read_dir(root().join("schemas/resources"))
        .unwrap()
        .map(|e| e.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut names: Vec<String> = advertised.iter().map(|(n, _)| n.clone()).collect();
    names.sort();
    assert_eq!(names, files, "one resource or template per declaration file");
    for (name, listed) in &advertised {
        let file = declaration(name);
        for field in ["title", "description", "mimeType"] {
            assert_eq!(listed[field], file[field], "{name}: {field}");
        }
        let uri = listed.get("uri").or_else(|| listed.get("uriTemplate"));
        assert_eq!(uri, file.get("uri").or_else(|| file.get("uriTemplate")), "{name}");
    }
    insta::with_settings!({snapshot_path => "../../../snapshots", prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_json_snapshot!("resources_list", resources);
        insta::assert_json_snapshot!("resources_templates_list", templates);
    });
}

#[test]
fn every_resource_reads_in_its_declared_shape() {
    let server = TmuxServer::start();
    let pane = server.window_showing("echo resource-marker", "resource-marker");
    let window = server.tmux(&["display-message", "-p", "-t", &pane, "#{window_id}"]);
    let window = window.trim();
    let session_id = server.tmux(&["display-message", "-p", "-t", &pane, "#{session_id}"]);
    let session_id = session_id.trim();
    let mut session = Session::open(&server, &["--safety", "readonly"]);
    let (s, w, p) = (digits(session_id), digits(window), digits(&pane));
    let reads = [
        ("sessions", "tmux://sessions".to_string()),
        ("session", format!("tmux://sessions/{s}")),
        ("session_windows", format!("tmux://sessions/{s}/windows")),
        ("window", format!("tmux://windows/{w}")),
        ("window_panes", format!("tmux://windows/{w}/panes")),
        ("pane", format!("tmux://panes/{p}")),
        ("pane_content", format!("tmux://panes/{p}/content")),
    ];
    for (name, uri) in reads {
        let file = declaration(name);
        let content = session.read(&uri);
        assert_eq!(content["mimeType"], file["mimeType"], "{uri}");
        let text = content["text"].as_str().unwrap();
        if let Some(schema) = file.get("contentSchema") {
            let value: Value = serde_json::from_str(text).unwrap();
            assert_valid(schema, &value, &uri);
            let mentions = match name {
                "sessions" | "session" | "session_windows" => session_id,
                "window" | "window_panes" => window,
                _ => &pane,
            };
            assert!(
                text.contains(&format!("\"{mentions}\"")),
                "{uri} names {mentions}: {text}"
            );
        } else {
            assert!(text.contains("resource-marker"), "{uri}: {text}");
            assert_valid(&file["metaSchema"], &content["_meta"]["paneward/text"], &uri);
        }
    }
    // The same pane, its sigil percent-encoded or raw.
    for spelled in [format!("tmux://panes/%25{p}"), format!("tmux://panes/%{p}")] {
        let value: Value = serde_json::from_str(session.read(&spelled)["text"].as_str().unwrap()).unwrap();
        assert_eq!(value["pane"]["id"], pane.as_str(), "{spelled}");
    }
    let windows: Value = serde_json::from_str(
        session.read(&format!("tmux://sessions/%24{s}/windows"))["text"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(windows["windows"].as_array().unwrap().len(), 2, "{windows}");
}

/// The names `resources/list` and `resources/templates/list` give, sorted.
fn listed_names(session: &mut Session) -> Vec<String> {
    let resources = session.result("resources/list", json!({}));
    let templates = session.result("resources/templates/list", json!({}));
    let mut names: Vec<String> = resources["resources"]
        .as_array()
        .unwrap()
        .iter()
        .chain(templates["resourceTemplates"].as_array().unwrap())
        .map(|listed| listed["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn resources_follow_the_surface_and_pane_text_needs_a_served_capture_pane() {
    let server = TmuxServer::start();
    let pane = server.window_showing("echo secret-marker-71", "secret-marker-71");
    let content = format!("tmux://panes/{}/content", digits(&pane));
    let every = {
        let mut session = Session::open(&server, &[]);
        assert!(session.read(&content)["text"]
            .as_str()
            .unwrap()
            .contains("secret-marker-71"));
        listed_names(&mut session)
    };
    for (args, left) in [
        (&["--toolsets", ""][..], vec!["capabilities"]),
        (
            &["--exclude-tools", "capture_pane"][..],
            every
                .iter()
                .filter(|name| *name != "pane_content")
                .map(String::as_str)
                .collect(),
        ),
    ] {
        let mut session = Session::open(&server, args);
        assert_eq!(listed_names(&mut session), left, "{args:?}");
        let error = session.error("resources/read", json!({"uri": content}));
        assert_eq!(error["code"], -32602, "{args:?}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(
            message.contains("not served here") && message.contains("capture_pane"),
            "{message}"
        );
        assert!(!error.to_string().contains("secret-marker-71"), "{error}");
        let error = session.error("resources/subscribe", json!({"uri": content}));
        assert_eq!(error["code"], -32602, "{args:?}: {error}");
        let error = session.error(
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "tmux://panes/{pane}/content"},
                   "argument": {"name": "pane", "value": ""}}),
        );
        assert_eq!(error["code"], -32602, "{args:?}: {error}");
        // The surface itself is always there.
        session.read("tmux://capabilities");
    }
    // Excluding capture_pane keeps what other served tools read.
    let mut session = Session::open(&server, &["--exclude-tools", "capture_pane"]);
    let read = session.read(&format!("tmux://panes/{}", digits(&pane)));
    assert!(
        read["text"].as_str().unwrap().contains(&format!("\"{pane}\"")),
        "{read}"
    );
}

#[test]
fn a_uri_naming_nothing_is_32002_and_a_malformed_one_is_refused_clearly() {
    let server = TmuxServer::start();
    let mut session = Session::open(&server, &[]);
    for uri in [
        "tmux://panes/9999",
        "tmux://panes/9999/content",
        "tmux://windows/9999",
        "tmux://windows/9999/panes",
        "tmux://sessions/9999",
        "tmux://sessions/9999/windows",
    ] {
        let error = session.error("resources/read", json!({"uri": uri}));
        assert_eq!(error["code"], -32002, "{uri}: {error}");
        assert!(
            error["message"].as_str().unwrap().contains("tmux://sessions"),
            "{error}"
        );
    }
    for uri in [
        "tmux://panes/main",
        "tmux://pane/1",
        "file:///etc/passwd",
        "tmux://sessions/1/panes",
    ] {
        let error = session.error("resources/read", json!({"uri": uri}));
        assert_eq!(error["code"], -32602, "{uri}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(message.starts_with("/params/uri: "), "{message}");
        assert!(message.contains("tmux://panes/{pane}/content"), "{message}");
    }
    let error = session.error("resources/read", json!({"uri": 5}));
    assert_eq!(error["code"], -32602, "{error}");
    // The server keeps serving.
    session.read("tmux://sessions");
}

#[test]
fn pane_content_keeps_the_newest_rows_and_says_what_it_left_out() {
    let server = TmuxServer::start();
    let pane = server.window_showing("seq 1 1200; echo seq-done", "seq-done");
    let mut session = Session::open(&server, &[]);
    let content = session.read(&format!("tmux://panes/{}/content", digits(&pane)));
    let text = content["text"].as_str().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("[paneward: "), "{}", lines[0]);
    assert!(lines[0].contains("older rows left out"), "{}", lines[0]);
    assert_eq!(lines.len(), 501, "the note and the newest 500 rows");
    assert_eq!(*lines.last().unwrap(), "seq-done");
    let counts = &content["_meta"]["paneward/text"];
    assert_valid(&declaration("pane_content")["metaSchema"], counts, "pane content meta");
    assert_eq!(counts["truncated"], true);
    assert_eq!(counts["lines"], 500);
    assert!(counts["truncatedLines"].as_u64().unwrap() >= 700, "{counts}");
}

#[test]
fn completion_offers_live_ids_narrowed_to_the_chosen_session_and_capped() {
    let server = TmuxServer::start();
    server.tmux(&["new-session", "-d", "-s", "other", "/bin/sh"]);
    let other = server.tmux(&["display-message", "-p", "-t", "other:", "#{session_id}"]);
    let other_window = server.tmux(&["display-message", "-p", "-t", "other:", "#{window_id}"]);
    let other_pane = server.tmux(&["display-message", "-p", "-t", "other:", "#{pane_id}"]);
    let mut session = Session::open(&server, &[]);
    let complete = |session: &mut Session, template: &str, name: &str, value: &str, context: Value| {
        let mut params = json!({
            "ref": {"type": "ref/resource", "uri": template},
            "argument": {"name": name, "value": value},
        });
        if !context.is_null() {
            params["context"] = json!({ "arguments": context });
        }
        session.result("completion/complete", params)["completion"].clone()
    };
    let sessions = complete(&mut session, "tmux://sessions/{session}", "session", "", Value::Null);
    assert_eq!(sessions["values"].as_array().unwrap().len(), 2, "{sessions}");
    let narrowed = complete(
        &mut session,
        "tmux://windows/{window}/panes",
        "window",
        "",
        json!({"session": digits(other.trim())}),
    );
    assert_eq!(narrowed["values"], json!([digits(other_window.trim())]), "{narrowed}");
    let panes = complete(
        &mut session,
        "tmux://panes/{pane}/content",
        "pane",
        "",
        json!({"session": other.trim()}),
    );
    assert_eq!(panes["values"], json!([digits(other_pane.trim())]), "{panes}");
    // More than 100 windows: 100 values, hasMore and the total.
    let mut args: Vec<&str> = Vec::new();
    for _ in 0..110 {
        args.extend(["new-window", "-d", "-t", "other:", "sleep 600", ";"]);
    }
    args.pop();
    server.tmux(&args);
    let many = complete(&mut session, "tmux://windows/{window}", "window", "", Value::Null);
    assert_eq!(many["values"].as_array().unwrap().len(), 100, "{many}");
    assert_eq!(
        (many["hasMore"].clone(), many["total"].clone()),
        (json!(true), json!(112))
    );
    let prefixed = complete(&mut session, "tmux://windows/{window}", "window", "1", Value::Null);
    assert!(
        prefixed["values"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| v.as_str().unwrap().starts_with('1')),
        "{prefixed}"
    );
    let error = session.error(
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "tmux://nothing/{x}"}, "argument": {"name": "x", "value": ""}}),
    );
    assert_eq!(error["code"], -32602, "{error}");
}

/// Types `command` and Enter into `pane` through tmux itself (not through paneward).
fn type_into(server: &TmuxServer, pane: &str, command: &str) {
    server.tmux(&["send-keys", "-t", pane, "-l", command]);
    server.tmux(&["send-keys", "-t", pane, "Enter"]);
}

#[test]
fn a_content_subscriber_is_told_under_each_spelling_when_the_pane_writes() {
    let server = TmuxServer::start();
    let pane = server.first_pane();
    // A prompt drawn after subscribing would be the update, before the echo ran.
    server.wait_for_prompt(&pane);
    let mut session = Session::open(&server, &[]);
    let plain = format!("tmux://panes/{}/content", digits(&pane));
    let encoded = format!("tmux://panes/%25{}/content", digits(&pane));
    for uri in [&plain, &encoded] {
        session.result("resources/subscribe", json!({"uri": uri}));
    }
    type_into(&server, &pane, "echo written-after-subscribe");
    session.expect_update(&plain);
    session.expect_update(&encoded);
    let content = session.read(&plain);
    assert!(content["text"].as_str().unwrap().contains("written-after-subscribe"));
    let error = session.error("resources/subscribe", json!({"uri": "tmux://panes/9999/content"}));
    assert_eq!(error["code"], -32002, "{error}");
    let error = session.error("resources/subscribe", json!({"uri": "tmux://panes/x"}));
    assert_eq!(error["code"], -32602, "{error}");
}

#[test]
fn a_burst_gives_a_few_notifications_and_its_last_write_is_told() {
    let server = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = server.first_pane();
    let mut session = Session::open(&server, &[]);
    let uri = format!("tmux://panes/{}/content", digits(&pane));
    session.result("resources/subscribe", json!({"uri": uri}));
    let (started, done) = (scratch.path("started"), scratch.path("done"));
    // 500 lines over a second or two (longer on a busy machine), between the times of
    // the first and the last write, in seconds.
    type_into(
        &server,
        &pane,
        &format!(
            "date +%s.%N > {started}; i=0; while [ $i -lt 500 ]; do i=$((i+1)); echo burst-line-$i; sleep 0.003; done; date +%s.%N > {done}"
        ),
    );
    session.expect_update(&uri);
    crate::support::wait_for("the burst to end", || {
        std::fs::metadata(&done).ok().filter(|m| m.len() > 0)
    });
    session.drain_until_quiet(Duration::from_secs(2));
    let told = session.updates_of(&uri);
    let last_write: f64 = std::fs::read_to_string(&done).unwrap().trim().parse().unwrap();
    let first_write: f64 = std::fs::read_to_string(&started).unwrap().trim().parse().unwrap();
    // Coalesced: at most one per interval the burst lasted, and one for its end.
    let intervals = ((last_write - first_write) / WATCH_COALESCE_SECONDS).ceil() as usize;
    assert!(
        (1..=intervals + 2).contains(&told),
        "{told} notifications for a 500-line burst over {intervals} coalescing intervals"
    );
    let last_told = session.updates.iter().rev().find(|(u, _)| *u == uri).unwrap().1;
    let last_told = last_told.duration_since(UNIX_EPOCH).unwrap().as_secs_f64();
    assert!(
        last_told > last_write,
        "the last notification ({last_told}) came before the burst's last write ({last_write})"
    );
    let content = session.read(&uri);
    assert!(content["text"].as_str().unwrap().contains("burst-line-500"));
}

#[test]
fn hierarchy_subscribers_are_told_of_a_new_window_and_unsubscribing_stops_it() {
    let server = TmuxServer::start();
    let session_id = server.tmux(&["display-message", "-p", "-t", "main:", "#{session_id}"]);
    let mut session = Session::open(&server, &[]);
    let windows = format!("tmux://sessions/{}/windows", digits(session_id.trim()));
    for uri in ["tmux://sessions", windows.as_str()] {
        session.result("resources/subscribe", json!({"uri": uri}));
    }
    let pane = server.window_running("sleep 600");
    session.expect_update("tmux://sessions");
    session.expect_update(&windows);
    // A pane coming tells its window's subscribers.
    let window = server.tmux(&["display-message", "-p", "-t", &pane, "#{window_id}"]);
    let panes = format!("tmux://windows/{}/panes", digits(window.trim()));
    session.result("resources/subscribe", json!({"uri": panes}));
    server.tmux(&["split-window", "-d", "-t", &pane, "sleep 600"]);
    session.expect_update(&panes);
    for uri in ["tmux://sessions", windows.as_str(), panes.as_str()] {
        session.result("resources/unsubscribe", json!({"uri": uri}));
    }
    session.drain_until_quiet(Duration::from_millis(500));
    let before = session.updates.len();
    server.window_running("sleep 600");
    session.drain_until_quiet(Duration::from_secs(1));
    session.result("ping", json!({}));
    assert_eq!(
        session.updates.len(),
        before,
        "told after unsubscribing: {:?}",
        session.updates
    );
}

#[test]
fn watching_adds_no_tmux_client() {
    let server = TmuxServer::start();
    let pane = server.first_pane();
    let clients = || {
        server
            .tmux(&["list-clients", "-F", "#{client_name}"])
            .lines()
            .map(str::to_string)
            .collect::<BTreeSet<_>>()
    };
    let mut session = Session::open(&server, &[]);
    session.read("tmux://sessions");
    let before = clients();
    let uri = format!("tmux://panes/{}/content", digits(&pane));
    session.result("resources/subscribe", json!({"uri": uri}));
    session.result("resources/subscribe", json!({"uri": "tmux://sessions"}));
    type_into(&server, &pane, "echo watched");
    session.expect_update(&uri);
    assert_eq!(clients(), before, "watching attached a client");
}

#[test]
fn an_unsubscribe_sent_right_behind_its_subscribe_leaves_nothing_watched() {
    let server = TmuxServer::start();
    let pane = server.first_pane();
    let mut session = Session::open(&server, &[]);
    let uri = format!("tmux://panes/{}/content", digits(&pane));
    // Both lines in flight at once: the two requests run concurrently in the server.
    for (id, method) in [(1, "resources/subscribe"), (2, "resources/unsubscribe")] {
        session
            .client
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"uri": uri}}));
    }
    let mut answered = BTreeSet::new();
    while answered.len() < 2 {
        let message = assert_json_rpc(&session.client.next_raw_line().unwrap());
        if let Some(id) = message["id"].as_i64() {
            assert!(message.get("error").is_none(), "{message}");
            answered.insert(id);
        }
    }
    type_into(&server, &pane, "echo after-withdrawal");
    server.wait_for_text(&pane, "after-withdrawal");
    session.drain_until_quiet(Duration::from_secs(1));
    session.result("ping", json!({}));
    assert_eq!(session.updates_of(&uri), 0, "{:?}", session.updates);
}

/// Starts `command` in `pane` with `run_command`, left running (a short timeout), and
/// returns its job id.
fn start_job(session: &mut Session, pane: &str, command: &str) -> String {
    let reply = tool(
        session,
        "run_command",
        json!({"pane_id": pane, "command": command, "timeout_seconds": 0.3}),
    );
    assert!(
        matches!(reply["state"].as_str(), Some("running" | "pending")),
        "{reply}"
    );
    reply["jobId"].as_str().unwrap().to_string()
}

/// `tools/call` through the session (keeping notifications); the structured reply.
#[track_caller]
fn tool(session: &mut Session, name: &str, arguments: Value) -> Value {
    let result = session.result("tools/call", json!({"name": name, "arguments": arguments}));
    assert_ne!(result["isError"], json!(true), "{name} failed: {result}");
    result["structuredContent"].clone()
}

/// A job's resource URI: its id with the pane's `%` left off.
fn job_uri(job: &str) -> String {
    format!("tmux://jobs/{}", job.trim_start_matches('%'))
}

/// Reads a job's resource, checks it against its declaration, and returns the job.
#[track_caller]
fn read_job(session: &mut Session, uri: &str) -> Value {
    let content = session.read(uri);
    let file = declaration("job");
    assert_eq!(content["mimeType"], file["mimeType"], "{uri}");
    let job: Value = serde_json::from_str(content["text"].as_str().unwrap()).unwrap();
    assert_valid(&file["contentSchema"], &job, uri);
    job
}

/// `get_job`'s reply in the resource's shape (a read never waits).
fn unwaited(mut reply: Value) -> Value {
    let fields = reply.as_object_mut().unwrap();
    fields.remove("timeoutSeconds");
    fields.remove("timeoutClamped");
    reply
}

#[test]
fn a_job_reads_as_get_job_running_then_with_its_exit_status_and_after_a_restart() {
    let server = TmuxServer::start();
    let pane = server.first_pane();
    let mut session = Session::open(&server, &[]);
    let job = start_job(&mut session, &pane, "echo started; read go; echo \"got $go\"; exit 4");
    let uri = job_uri(&job);
    let running = wait_for("the job to print", || {
        let read = read_job(&mut session, &uri);
        (read["output"] == json!(["started"])).then_some(read)
    });
    assert_eq!(running["state"], "running", "{running}");
    assert_eq!(running["jobId"], job.as_str());
    assert_eq!(running["paneId"], pane.as_str());
    assert_eq!(running["exitStatus"], Value::Null);

    type_into(&server, &pane, "yes");
    let finished = wait_for("the job to end", || {
        let read = read_job(&mut session, &uri);
        (read["state"] == "finished").then_some(read)
    });
    assert_eq!(finished["exitStatus"], 4, "{finished}");
    assert_eq!(finished["output"], json!(["started", "yes", "got yes"]));
    // The same facts as get_job, and the same spelled with the pane's % encoded.
    assert_eq!(
        finished,
        unwaited(tool(&mut session, "get_job", json!({"job_id": job})))
    );
    let encoded = format!("tmux://jobs/%25{}", job.trim_start_matches('%').replacen(':', "%3A", 1));
    assert_eq!(read_job(&mut session, &encoded), finished);

    // A new paneward on the same tmux server reads the same job from tmux; under
    // --scope owned too (the pane is not paneward's): like get_job, a read is not
    // narrowed by the scope, which limits changes only.
    assert_eq!(session.client.close().code(), Some(0));
    let mut restarted = Session::open(&server, &["--scope", "owned"]);
    assert_eq!(read_job(&mut restarted, &uri), finished);
    assert_eq!(
        unwaited(tool(&mut restarted, "get_job", json!({"job_id": job}))),
        finished
    );
}

#[test]
fn a_job_subscriber_is_told_when_the_job_ends_and_when_its_pane_goes() {
    let server = TmuxServer::start();
    let pane = server.first_pane();
    let other = server.window_running("exec /bin/sh");
    server.wait_for_prompt(&other);
    let mut session = Session::open(&server, &[]);
    let job = start_job(&mut session, &pane, "echo waiting; read go; exit 3");
    let uri = job_uri(&job);
    // Running before subscribing: the only change left is its end.
    wait_for("the job to run", || {
        (read_job(&mut session, &uri)["output"] == json!(["waiting"])).then_some(())
    });
    let encoded = format!("tmux://jobs/%25{}", job.trim_start_matches('%').replacen(':', "%3A", 1));
    let clients = || server.tmux(&["list-clients", "-F", "#{client_name}"]);
    let before = clients();
    for spelled in [&uri, &encoded] {
        session.result("resources/subscribe", json!({"uri": spelled}));
    }
    let doomed = start_job(&mut session, &other, "echo doomed; sleep 600");
    let doomed_uri = job_uri(&doomed);
    wait_for("the other job to run", || {
        (read_job(&mut session, &doomed_uri)["output"] == json!(["doomed"])).then_some(())
    });
    session.result("resources/subscribe", json!({"uri": doomed_uri}));
    assert_eq!(
        session.updates_of(&uri),
        0,
        "told before the job ended: {:?}",
        session.updates
    );

    type_into(&server, &pane, "go");
    session.expect_update(&uri);
    session.expect_update(&encoded);
    assert_eq!(clients(), before, "watching a job attached a client");
    let finished = read_job(&mut session, &uri);
    assert_eq!(
        (finished["state"].clone(), finished["exitStatus"].clone()),
        (json!("finished"), json!(3))
    );

    server.tmux(&["kill-pane", "-t", &other]);
    session.expect_update(&doomed_uri);
    let error = session.error("resources/read", json!({"uri": doomed_uri}));
    assert_eq!(error["code"], -32002, "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("no longer exists"),
        "{error}"
    );
}

#[test]
fn a_malformed_job_uri_is_refused_by_rule_and_an_unknown_job_is_32002() {
    let server = TmuxServer::start();
    let pane = server.first_pane();
    let number = digits(&pane).to_string();
    let mut session = Session::open(&server, &[]);
    let hex = "0123456789abcdef0123456789abcdef";
    for uri in [
        format!("tmux://jobs/{number}"),
        format!("tmux://jobs/{number}:{}", hex.to_uppercase()),
        format!("tmux://jobs/{number}:{}", &hex[2..]),
        format!("tmux://jobs/main:{hex}"),
        format!("tmux://jobs/{number}:{hex}/output"),
    ] {
        for method in ["resources/read", "resources/subscribe"] {
            let error = session.error(method, json!({"uri": uri}));
            assert_eq!(error["code"], -32602, "{method} {uri}: {error}");
            let message = error["message"].as_str().unwrap();
            assert!(message.starts_with("/params/uri: "), "{message}");
            assert!(message.contains("tmux://jobs/{job}"), "{message}");
        }
    }
    let error = session.error("resources/read", json!({"uri": format!("tmux://jobs/{number}")}));
    assert!(
        error["message"].as_str().unwrap().contains("32 lowercase hex digits"),
        "{error}"
    );
    // Well formed, but no such job: in a pane that exists, and in one that does not.
    for (uri, reason) in [
        (format!("tmux://jobs/{number}:{hex}"), "holds no job"),
        (format!("tmux://jobs/9999:{hex}"), "no longer exists"),
    ] {
        let error = session.error("resources/read", json!({"uri": uri}));
        assert_eq!(error["code"], -32002, "{uri}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(reason) && message.contains("run_command"), "{error}");
        let error = session.error("resources/subscribe", json!({"uri": uri}));
        assert_eq!(error["code"], -32002, "{uri}: {error}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("job ids come from run_command"),
            "{error}"
        );
    }
    // The job variable completes to nothing (ids come from run_command).
    let completion = session.result(
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "tmux://jobs/{job}"}, "argument": {"name": "job", "value": ""}}),
    );
    assert_eq!(completion["completion"]["values"], json!([]), "{completion}");
}

/// The entries of `tmux://attention` as read now.
fn attention(session: &mut Session) -> Vec<Value> {
    let content = session.read("tmux://attention");
    let value: Value = serde_json::from_str(content["text"].as_str().unwrap()).unwrap();
    value["panes"].as_array().unwrap().clone()
}

#[test]
fn three_panes_starting_to_wait_for_a_password_are_one_attention_update() {
    let server = TmuxServer::start();
    let panes: Vec<String> = (0..3).map(|_| server.bash_pane()).collect();
    let mut session = Session::open(&server, &[]);
    session.result("resources/subscribe", json!({"uri": "tmux://attention"}));
    assert!(attention(&mut session).is_empty(), "shells at their prompt need nobody");
    session.drain_until_quiet(Duration::from_secs(1));
    session.updates.clear();
    // One tmux command types into the three panes: they start reading together.
    let mut args = Vec::new();
    for pane in &panes {
        if !args.is_empty() {
            args.push(";".to_string());
        }
        args.extend(["send-keys", "-t", pane, "read -rs -p 'Password: ' x", "Enter"].map(String::from));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    server.tmux(&args);
    session.expect_update("tmux://attention");
    session.drain_until_quiet(Duration::from_secs(2));
    assert_eq!(
        session.updates_of("tmux://attention"),
        1,
        "three panes asking together are one update: {:?}",
        session.updates
    );
    let entries = attention(&mut session);
    for pane in &panes {
        let entry = entries
            .iter()
            .find(|e| e["paneId"] == *pane)
            .unwrap_or_else(|| panic!("{pane}: {entries:?}"));
        assert_eq!(entry["why"], "input", "{entry}");
        assert_eq!(entry["readsAs"], "password", "{entry}");
    }
}

#[test]
fn attention_lists_a_shell_back_from_work_a_bell_and_a_dead_pane_in_tmux_s_words() {
    let server = TmuxServer::start();
    let worker = server.bash_pane();
    let ringer = server.bash_pane();
    let mut session = Session::open(&server, &[]);
    session.result("resources/subscribe", json!({"uri": "tmux://attention"}));
    // Work paneward sees (the subscription looks every tick), then the prompt again.
    type_into(&server, &worker, "sleep 1");
    session.expect_update("tmux://attention");
    type_into(&server, &ringer, "printf '\\a'");
    let dead = server.dead_pane(3);
    let found = wait_for("the three reasons", || {
        let entries = attention(&mut session);
        let why = |pane: &str| entries.iter().find(|e| e["paneId"] == pane).map(|e| e["why"].clone());
        (why(&worker) == Some(json!("idleAfterWork"))
            && why(&ringer) == Some(json!("bell"))
            && why(&dead) == Some(json!("dead")))
        .then_some(entries)
    });
    let what = |pane: &str| {
        found.iter().find(|e| e["paneId"] == pane).unwrap()["what"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(what(&worker), "back at its prompt after sleep ran");
    assert!(what(&ringer).starts_with("Bell in window "), "{found:?}");
    assert_eq!(what(&dead), "Pane is dead (status 3)");
}

#[test]
fn a_known_agent_is_attention_at_its_empty_box_and_not_while_its_turn_runs() {
    let server = TmuxServer::start();
    let scratch = Scratch::new();
    let (pane, phase) = server.fake_agent(&scratch, "claude", "claude");
    let mut session = Session::open(&server, &[]);
    session.result("resources/subscribe", json!({"uri": "tmux://attention"}));
    let entry_of = |session: &mut Session| attention(session).into_iter().find(|e| e["paneId"] == *pane);
    let waiting = wait_for("the agent at its empty box", || entry_of(&mut session));
    assert_eq!(waiting["why"], "input", "{waiting}");
    assert_eq!(waiting["what"], "Claude Code waits at its empty input box", "{waiting}");
    server.tmux(&["send-keys", "-t", &pane, "run the tests", "Enter"]);
    // Mid-turn (its busy line shown, or the prompt flashing between tool calls) it
    // needs nobody.
    wait_for("the turn to start", || {
        (std::fs::read_to_string(&phase).unwrap().trim() == "working"
            && server.capture(&pane).contains("esc to interrupt"))
        .then_some(())
    });
    let mid_turn = entry_of(&mut session);
    let still_working = std::fs::read_to_string(&phase).unwrap().trim() == "working";
    assert!(
        !still_working || mid_turn.is_none(),
        "needs nobody mid-turn: {mid_turn:?}"
    );
    let done = wait_for("the agent done", || {
        entry_of(&mut session).filter(|e| e["why"] == "idleAfterWork")
    });
    assert_eq!(
        done["what"], "Claude Code is done and waits at its empty input box",
        "{done}"
    );
    assert_eq!(std::fs::read_to_string(&phase).unwrap().trim(), "idle");
}

#[test]
fn a_pane_resource_says_it_waits_for_a_password_and_its_subscriber_is_told() {
    let server = TmuxServer::start();
    let pane = server.bash_pane();
    let mut session = Session::open(&server, &[]);
    let uri = format!("tmux://panes/{}", digits(&pane));
    session.result("resources/subscribe", json!({"uri": uri}));
    let read = |session: &mut Session| -> Value {
        serde_json::from_str(session.read(&uri)["text"].as_str().unwrap()).unwrap()
    };
    assert_eq!(read(&mut session)["readsAs"], "shellPrompt");
    session.drain_until_quiet(Duration::from_millis(500));
    session.updates.clear();
    // The fingerprint of a watched pane holds the kernel's answer too, so the update
    // covers the moment the read begins, not only the typing.
    type_into(&server, &pane, "read -rs x");
    session.expect_update(&uri);
    let waiting = wait_for("the pane reading a password", || {
        let now = read(&mut session);
        (now["readsAs"] == "password").then_some(now)
    });
    assert_eq!(waiting["input"], "waiting", "{waiting}");
}
