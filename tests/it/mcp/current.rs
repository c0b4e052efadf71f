//! MCP 2026-07-28 (stateless) beside the legacy revisions, with the real binary over
//! stdio and Streamable HTTP: `server/discover`, requests served on their own `_meta`
//! with no handshake, the revision's errors for a missing or malformed required key,
//! `resultType` only for this revision, ids echoed as written, cancellation, and no
//! `Mcp-Session-Id` over HTTP while the token, Host and Origin checks hold.
//! docs/mcp-quirks.md says what differs between the revisions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::http::HttpServer;
use crate::support::{wait_for, Client, TmuxServer};
use serde_json::{json, Value};

/// The `_meta` every 2026-07-28 request carries (clientInfo is optional).
pub(crate) fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "paneward-tests", "version": "0"}
    })
}

/// `params` with the revision's `_meta` added.
pub(crate) fn current(mut params: Value) -> Value {
    params["_meta"] = meta();
    params
}

#[test]
fn server_discover_answers_without_a_handshake_and_requests_are_served_on_their_own_meta() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let discovered = client.request("server/discover", current(json!({})));
    let result = &discovered["result"];
    assert_eq!(result["resultType"], "complete", "{discovered}");
    let versions = crate::support::strings(&result["supportedVersions"]);
    assert_eq!(
        versions,
        ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
        "{discovered}"
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "paneward"
    );
    assert!(result["capabilities"]["tools"].is_object(), "{discovered}");
    assert!(result["instructions"].as_str().unwrap().contains("untrusted"));
    // No initialize: each request names its revision.
    let listed = client.request("tools/list", current(json!({})));
    assert_eq!(listed["result"]["resultType"], "complete", "{listed}");
    assert!(!listed["result"]["tools"].as_array().unwrap().is_empty());
    let pane = tmux.first_pane();
    let called = client.request(
        "tools/call",
        current(json!({"name": "snapshot_pane", "arguments": {"pane_id": pane}})),
    );
    assert_eq!(called["result"]["resultType"], "complete", "{called}");
    assert_eq!(called["result"]["structuredContent"]["pane"]["id"], json!(pane));
    assert_eq!(client.close().code(), Some(0));
}

#[test]
fn a_missing_or_malformed_required_meta_key_gets_invalid_params_naming_it() {
    let mut client = Client::spawn(&["-L", "pw-unused-current-meta"], &[]);
    // Before and after the first well-formed request: the rule is the request's own.
    for started in [false, true] {
        let mut without_capabilities = meta();
        without_capabilities
            .as_object_mut()
            .unwrap()
            .remove("io.modelcontextprotocol/clientCapabilities");
        let mut bad_version = meta();
        bad_version["io.modelcontextprotocol/protocolVersion"] = json!(20260728);
        for (meta, key) in [
            (without_capabilities, "io.modelcontextprotocol/clientCapabilities"),
            (bad_version, "io.modelcontextprotocol/protocolVersion"),
        ] {
            let answer = client.request("tools/list", json!({"_meta": meta}));
            assert_eq!(answer["error"]["code"], -32602, "{started}: {answer}");
            let message = answer["error"]["message"].as_str().unwrap();
            assert!(message.contains(key), "{started}: {message}");
        }
        let mut unserved = meta();
        unserved["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
        let answer = client.request("tools/list", json!({"_meta": unserved}));
        assert_eq!(answer["error"]["code"], -32022, "UnsupportedProtocolVersion: {answer}");
        assert!(
            crate::support::strings(&answer["error"]["data"]["supported"]).contains(&"2026-07-28".to_string()),
            "{answer}"
        );
        if !started {
            assert!(client.request("tools/list", current(json!({})))["result"]["tools"].is_array());
        }
    }
}

#[test]
fn legacy_clients_see_no_result_type_and_the_same_tools() {
    let mut legacy = Client::spawn(&["-L", "pw-unused-current-legacy"], &[]);
    legacy.initialize_with("2025-11-25");
    let old = legacy.list_tools();
    for key in ["resultType", "ttlMs", "cacheScope"] {
        assert!(old.get(key).is_none(), "{key} reached a legacy client");
    }
    let mut modern = Client::spawn(&["-L", "pw-unused-current-legacy"], &[]);
    let new = modern.request("tools/list", current(json!({})))["result"].clone();
    assert_eq!(new["resultType"], "complete");
    assert_eq!(new["tools"], old["tools"], "the tools differ between the revisions");
    // initialize never agrees the stateless revision: it counter-offers the newest with a handshake.
    let mut offered = Client::spawn(&["-L", "pw-unused-current-legacy"], &[]);
    assert_eq!(offered.initialize_with("2026-07-28")["protocolVersion"], "2025-11-25");
}

#[test]
fn ids_are_echoed_as_written_for_the_current_revision() {
    let mut client = Client::spawn(&["-L", "pw-unused-current-ids"], &[]);
    let params = json!({"_meta": meta()}).to_string();
    for id in ["1.50", "18446744073709551615", "\"a\\u0062\"", "-0"] {
        client.send_line(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{params}}}"#
        ));
        let line = client.next_raw_line().unwrap();
        assert!(line.contains(&format!(r#""id":{id},"#)), "{id}: {}", &line[..80]);
        assert!(line.contains(r#""resultType":"complete""#), "{id}");
    }
}

#[test]
fn ping_and_set_level_are_gone_for_the_current_revision_and_the_server_goes_on() {
    let mut client = Client::spawn(&["-L", "pw-unused-current-gone"], &[]);
    assert!(client.request("tools/list", current(json!({})))["result"]["tools"].is_array());
    for (method, params) in [("ping", json!({})), ("logging/setLevel", json!({"level": "debug"}))] {
        let answer = client.request(method, current(params));
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
    // Without a handshake every request names its revision, ping included.
    let bare = client.request("ping", json!({}));
    assert_eq!(bare["error"]["code"], -32602, "{bare}");
    assert!(client.request("tools/list", current(json!({})))["result"]["tools"].is_array());
}

#[test]
fn a_cancelled_current_revision_wait_leaves_no_tmux_process_behind() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let channel = format!("{}.cancel-current", tmux.name);
    let id = json!("wait-1");
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": current(json!({"name": "wait_for_channel", "arguments": {"channel": channel}}))}));
    wait_for("the wait-for process", || {
        crate::wait::channel::wait_for_process_exists(&channel).then_some(())
    });
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}}));
    wait_for("the cancelled wait-for to be gone", || {
        (!crate::wait::channel::wait_for_process_exists(&channel)).then_some(())
    });
    let listed = client.request("tools/list", current(json!({})));
    assert!(listed["result"]["tools"].is_array(), "still serving: {listed}");
}

/// A 2026-07-28 POST: no session, the revision's headers, the token.
pub(crate) fn current_headers(server: &HttpServer, method: &str, name: Option<&str>) -> Vec<String> {
    let mut headers = vec![
        "Content-Type: application/json".to_string(),
        "Accept: application/json, text/event-stream".to_string(),
        server.bearer(),
        "MCP-Protocol-Version: 2026-07-28".to_string(),
        format!("Mcp-Method: {method}"),
    ];
    if let Some(name) = name {
        headers.push(format!("Mcp-Name: {name}"));
    }
    headers
}

pub(crate) fn message_of(reply: &crate::support::http::Reply) -> Value {
    if reply.header("content-type") == Some("application/json") {
        return serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {reply:?}"));
    }
    reply
        .body
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .find(|message| message.get("id").is_some())
        .unwrap_or_else(|| panic!("no JSON-RPC response in {reply:?}"))
}

pub(crate) fn body(id: Value, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

#[test]
fn over_http_the_current_revision_needs_no_session_and_the_checks_stay_as_strict() {
    let tmux = TmuxServer::start();
    let server = HttpServer::start(&["-L", &tmux.name], &[]);
    let discover = body(json!(1), "server/discover", current(json!({})));
    let reply = server.exchange(
        "POST",
        "/mcp",
        &current_headers(&server, "server/discover", None),
        &discover,
    );
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(reply.header("mcp-session-id").is_none(), "{reply:?}");
    let discovered = message_of(&reply);
    assert!(
        crate::support::strings(&discovered["result"]["supportedVersions"]).contains(&"2026-07-28".to_string()),
        "{discovered}"
    );
    let pane = tmux.first_pane();
    let call = body(
        json!("c"),
        "tools/call",
        current(json!({"name": "snapshot_pane", "arguments": {"pane_id": pane}})),
    );
    let headers = current_headers(&server, "tools/call", Some("snapshot_pane"));
    let reply = server.exchange("POST", "/mcp", &headers, &call);
    assert_eq!(reply.status, 200, "{reply:?}");
    let called = message_of(&reply);
    assert_eq!(called["id"], "c");
    assert_eq!(called["result"]["resultType"], "complete", "{called}");
    assert_eq!(called["result"]["structuredContent"]["pane"]["id"], json!(pane));
    // A missing required key: -32602 naming it, 400.
    let bare = body(
        json!(2),
        "tools/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
    );
    let reply = server.exchange("POST", "/mcp", &current_headers(&server, "tools/list", None), &bare);
    assert_eq!(reply.status, 400, "{reply:?}");
    let refused = message_of(&reply);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(refused["error"]["message"]
        .as_str()
        .unwrap()
        .contains("io.modelcontextprotocol/clientCapabilities"));
    // The revision's statuses for what the protocol layer refuses: 404 for a method not
    // served, 400 for params that do not fit (naming the member).
    let unserved = body(json!(4), "paneward/nonsense", current(json!({})));
    let reply = server.exchange(
        "POST",
        "/mcp",
        &current_headers(&server, "paneward/nonsense", None),
        &unserved,
    );
    assert_eq!(
        (reply.status, message_of(&reply)["error"]["code"].clone()),
        (404, json!(-32601)),
        "{reply:?}"
    );
    // A method the revision removed, whatever its params: 404 and -32601, with the id.
    for (id, method) in [
        (500, "initialize"),
        (501, "ping"),
        (502, "logging/setLevel"),
        (503, "resources/subscribe"),
        (504, "resources/unsubscribe"),
    ] {
        let removed = body(json!(id), method, current(json!({})));
        let reply = server.exchange("POST", "/mcp", &current_headers(&server, method, None), &removed);
        let answer = message_of(&reply);
        assert_eq!(
            (reply.status, answer["error"]["code"].clone(), answer["id"].clone()),
            (404, json!(-32601), json!(id)),
            "{method}: {reply:?}"
        );
    }
    let bad = body(json!(5), "tools/call", current(json!({"name": 5})));
    let reply = server.exchange("POST", "/mcp", &current_headers(&server, "tools/call", Some("5")), &bad);
    let refused = message_of(&reply);
    assert_eq!(
        (reply.status, refused["error"]["code"].clone()),
        (400, json!(-32602)),
        "{reply:?}"
    );
    assert!(
        refused["error"]["message"].as_str().unwrap().contains("/params/name"),
        "{refused}"
    );
    // The token, Host and Origin checks hold for a request that needs no session.
    let list = body(json!(3), "tools/list", current(json!({})));
    let without = |drop: &str, add: &[&str]| {
        let mut headers: Vec<String> = current_headers(&server, "tools/list", None)
            .into_iter()
            .filter(|h| drop.is_empty() || !h.starts_with(drop))
            .collect();
        headers.extend(add.iter().map(|h| (*h).to_string()));
        server.exchange("POST", "/mcp", &headers, &list).status
    };
    assert_eq!(without("Authorization", &[]), 401);
    assert_eq!(without("Authorization", &["Authorization: Bearer wrong"]), 401);
    assert_eq!(without("", &["Origin: http://evil.example"]), 403);
    assert_eq!(without("", &["Host: evil.example"]), 403);
    assert_eq!(without("", &["Host: localhost", "Host: evil.example"]), 400);
    assert_eq!(without("", &[]), 200);
}

/// The next message on stdout, whatever it is.
fn next_message(client: &mut Client) -> Value {
    crate::support::assert_json_rpc(&client.next_raw_line().expect("a line"))
}

#[test]
fn subscriptions_listen_tells_updates_under_the_clients_id_until_cancelled() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    // A prompt drawn after listening would be the update, before the echo ran.
    tmux.wait_for_prompt(&pane);
    let mut client = tmux.paneward();
    let uri = format!("tmux://panes/{}/content", pane.trim_start_matches('%'));
    let id = json!("listen-1");
    let filter = json!({"resourceSubscriptions": [uri, "not-a-tmux-uri"]});
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
        "params": current(json!({"notifications": filter}))}));
    let ack = next_message(&mut client);
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged", "{ack}");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], id,
        "{ack}"
    );
    // Only paneward's URIs are accepted.
    assert_eq!(
        ack["params"]["notifications"]["resourceSubscriptions"],
        json!([uri]),
        "{ack}"
    );
    // The legacy method is gone for this revision.
    let legacy = client.request("resources/subscribe", current(json!({"uri": uri})));
    assert_eq!(legacy["error"]["code"], -32601, "{legacy}");
    tmux.tmux(&["send-keys", "-t", &pane, "echo told-by-listen", "Enter"]);
    // Each update says "read it again": the client reads after each until it sees the
    // text, keeping an update that arrives while a read is out for the next read.
    let (mut reads, mut reading, mut told_since_read) = (0, false, false);
    let read = |reads: i64| {
        json!({"jsonrpc": "2.0", "id": format!("read-{reads}"), "method": "resources/read",
            "params": current(json!({"uri": uri}))})
    };
    loop {
        let message = next_message(&mut client);
        if message["method"] == "notifications/resources/updated" {
            assert_eq!(message["params"]["uri"], json!(uri), "{message}");
            let subscription = &message["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"];
            assert_eq!(subscription, &id, "{message}");
            told_since_read = true;
        } else if message["id"] == json!(format!("read-{reads}")) {
            reading = false;
            let text = message["result"]["contents"][0]["text"].as_str().unwrap_or_default();
            if text.contains("\ntold-by-listen") {
                break;
            }
        }
        if told_since_read && !reading {
            reads += 1;
            client.send(&read(reads));
            (reading, told_since_read) = (true, false);
        }
    }
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}}));
    let listed = client.request("tools/list", current(json!({})));
    assert!(listed["result"]["tools"].is_array(), "still serving: {listed}");
    assert_eq!(client.close().code(), Some(0));
}

/// The messages paneward writes up to and including the reply to `id`.
fn until_reply(client: &mut Client, id: i64) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let line = client.next_raw_line().expect("paneward closed stdout");
        let message: Value = serde_json::from_str(&line).expect("JSON");
        let done = message["id"] == json!(id) && message.get("method").is_none();
        seen.push(message);
        if done {
            return seen;
        }
    }
}

#[test]
fn a_request_s_own_log_level_brings_its_log_before_its_reply_and_nothing_without() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    // kill_server is above the default tier: refused, and the refusal is logged.
    let refused = |level: Option<&str>, id: i64| {
        let mut params = current(json!({"name": "kill_server", "arguments": {}}));
        if let Some(level) = level {
            params["_meta"]["io.modelcontextprotocol/logLevel"] = json!(level);
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
    };
    client.send(&refused(Some("info"), 1));
    let seen = until_reply(&mut client, 1);
    let logged: Vec<&Value> = seen.iter().filter(|m| m["method"] == "notifications/message").collect();
    assert_eq!(logged.len(), 1, "{seen:?}");
    assert_eq!(logged[0]["params"]["logger"], "paneward");
    assert_eq!(logged[0]["params"]["level"], "info");
    assert_eq!(logged[0]["params"]["data"]["tool"], "kill_server", "{seen:?}");
    assert_eq!(seen.last().unwrap()["result"]["isError"], true);
    // Above the event's level, and without a level, the request's log stays silent.
    client.send(&refused(Some("warning"), 2));
    let seen = until_reply(&mut client, 2);
    assert_eq!(seen.len(), 1, "{seen:?}");
    client.send(&refused(None, 3));
    let seen = until_reply(&mut client, 3);
    assert_eq!(seen.len(), 1, "{seen:?}");
}

#[test]
fn subscriptions_listen_tells_a_job_subscriber_when_the_job_ends() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    let started = client.request(
        "tools/call",
        current(json!({"name": "run_command",
            "arguments": {"pane_id": pane, "command": "echo waiting; read go; exit 5", "timeout_seconds": 0.3}})),
    );
    let job = started["result"]["structuredContent"]["jobId"]
        .as_str()
        .unwrap_or_else(|| panic!("a job: {started}"))
        .to_string();
    let uri = format!("tmux://jobs/{}", job.trim_start_matches('%'));
    let read = |client: &mut Client| -> Value {
        let answer = client.request("resources/read", current(json!({"uri": uri})));
        serde_json::from_str(answer["result"]["contents"][0]["text"].as_str().unwrap()).unwrap()
    };
    // Running before listening: the only change left is its end.
    wait_for("the job to run", || {
        (read(&mut client)["state"] == "running").then_some(())
    });
    let id = json!("listen-job");
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
        "params": current(json!({"notifications": {"resourceSubscriptions": [uri]}}))}));
    let ack = next_message(&mut client);
    assert_eq!(
        ack["params"]["notifications"]["resourceSubscriptions"],
        json!([uri]),
        "{ack}"
    );
    // Each accepted resource is told once as the watching starts.
    let first = next_message(&mut client);
    assert_eq!(first["method"], "notifications/resources/updated", "{first}");
    tmux.tmux(&["send-keys", "-t", &pane, "go", "Enter"]);
    let told = next_message(&mut client);
    assert_eq!(told["method"], "notifications/resources/updated", "{told}");
    assert_eq!(told["params"]["uri"], json!(uri), "{told}");
    assert_eq!(
        told["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], id,
        "{told}"
    );
    let finished = read(&mut client);
    assert_eq!(
        (finished["state"].clone(), finished["exitStatus"].clone()),
        (json!("finished"), json!(5)),
        "{finished}"
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}}));
    assert_eq!(client.close().code(), Some(0));
}

/// `_meta` naming a handshake revision, with the keys 2026-07-28 asks for.
fn legacy_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2025-06-18",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

#[test]
fn a_first_request_naming_a_handshake_revision_starts_nothing_and_initialize_then_works() {
    let mut client = Client::spawn(&["-L", "pw-unused-current-mixed-legacy"], &[]);
    let refused = client.request("tools/list", json!({"_meta": legacy_meta()}));
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("2025-06-18") && message.contains("initialize first"),
        "{message}"
    );
    // The session is a handshake session like any other: bare requests are served.
    client.initialize_with("2025-06-18");
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
    let listed = client.request("tools/list", json!({}));
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    let with_meta = client.request("tools/list", json!({"_meta": legacy_meta()}));
    assert!(with_meta["result"]["tools"].is_array(), "{with_meta}");
}

#[test]
fn a_stateless_start_stays_stateless_its_first_ping_is_gone_like_a_later_one_and_initialize_is_refused() {
    let mut client = Client::spawn(&["-L", "pw-unused-current-mixed-stateless"], &[]);
    let first = client.request("ping", current(json!({})));
    assert_eq!(first["error"]["code"], -32601, "the first ping: {first}");
    assert!(client.request("tools/list", current(json!({})))["result"]["tools"].is_array());
    let later = client.request("ping", current(json!({})));
    assert_eq!(later["error"], first["error"], "a later ping is answered as the first");
    let initialize = client.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    );
    assert_eq!(initialize["error"]["code"], -32600, "{initialize}");
    let message = initialize["error"]["message"].as_str().unwrap();
    assert!(message.contains("without a handshake"), "{message}");
    assert!(client.request("tools/list", current(json!({})))["result"]["tools"].is_array());
    assert_eq!(client.close().code(), Some(0));
}

#[test]
fn removed_methods_naming_the_current_revision_are_not_found_whatever_their_params() {
    let mut client = Client::spawn(&["-L", "pw-unused-current-removed"], &[]);
    for started in [false, true] {
        for method in [
            "initialize",
            "ping",
            "logging/setLevel",
            "resources/subscribe",
            "resources/unsubscribe",
        ] {
            let answer = client.request(method, current(json!({})));
            assert_eq!(answer["error"]["code"], -32601, "{started} {method}: {answer}");
        }
        if !started {
            assert!(client.request("tools/list", current(json!({})))["result"]["tools"].is_array());
        }
    }
}

#[test]
fn an_id_refused_as_in_flight_is_echoed_as_written() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward();
    client.initialize();
    // A wait that lasts until the test types its word: the id stays in flight till then.
    // It matches the word wherever it stands on the screen, so it cannot miss a word
    // typed before its first look.
    let wait = |id: &str, word: &str| {
        let arguments = json!({"pane_ids": [pane], "patterns": [word], "since_entry": false, "timeout_seconds": 120});
        let params = json!({"name": "wait_for_text", "arguments": arguments});
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#)
    };
    for (first, again, word) in [
        (r#""a""#, r#""\u0061""#, "released-one"),
        ("77.0", "7.7e1", "released-two"),
    ] {
        client.send_line(&wait(first, word));
        client.send_line(&wait(again, word));
        let refusal = client.next_raw_line().unwrap();
        assert!(refusal.contains(&format!(r#""id":{again},"#)), "{again}: {refusal}");
        assert!(refusal.contains("still in flight"), "{refusal}");
        tmux.tmux(&["send-keys", "-t", &pane, "-l", &format!("echo {word}")]);
        tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
        let released = client.next_raw_line().unwrap();
        assert!(released.contains(&format!(r#""id":{first},"#)), "{first}: {released}");
    }
}

#[test]
fn subscriptions_listen_tells_the_attention_list_when_a_pane_starts_waiting() {
    let tmux = TmuxServer::start();
    let pane = tmux.bash_pane();
    let mut client = tmux.paneward();
    let id = json!("listen-attention");
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
        "params": current(json!({"notifications": {"resourceSubscriptions": ["tmux://attention"]}}))}));
    let ack = next_message(&mut client);
    assert_eq!(
        ack["params"]["notifications"]["resourceSubscriptions"],
        json!(["tmux://attention"]),
        "{ack}"
    );
    // Each accepted resource is told once as the watching starts.
    let first = next_message(&mut client);
    assert_eq!(first["method"], "notifications/resources/updated", "{first}");
    tmux.tmux(&["send-keys", "-t", &pane, "read -rs -p 'Password: ' x", "Enter"]);
    let told = next_message(&mut client);
    assert_eq!(told["params"]["uri"], "tmux://attention", "{told}");
    assert_eq!(
        told["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], id,
        "{told}"
    );
    let answer = client.request("resources/read", current(json!({"uri": "tmux://attention"})));
    let list: Value = serde_json::from_str(answer["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
    let entry = list["panes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["paneId"] == pane)
        .cloned();
    assert_eq!(entry.map(|e| e["readsAs"].clone()), Some(json!("password")), "{list}");
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}}));
    assert_eq!(client.close().code(), Some(0));
}
