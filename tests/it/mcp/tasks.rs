//! MCP's Tasks extension (SEP-2663) on `run_command`'s jobs, with the real binary over
//! stdio: a command that outlives its request is a task, polled with `tasks/get` to
//! the very reply `run_command` gives, read the same by a second and a restarted
//! paneward, cancelled with Ctrl-C by `tasks/cancel`; a client without the extension
//! sees `run_command` as before, as does a handshake-era request even from a client
//! that declares the extension (tasks are answered only on 2026-07-28), which may still
//! read a task by id.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{assert_valid_output, wait_for, Client, TmuxServer};
use serde_json::{json, Value};

/// The `_meta` of a 2026-07-28 request whose client declares the extension, or not.
fn meta(tasks: bool) -> Value {
    let extensions = if tasks {
        json!({"io.modelcontextprotocol/tasks": {}})
    } else {
        json!({})
    };
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"extensions": extensions},
        "io.modelcontextprotocol/clientInfo": {"name": "paneward-tests", "version": "0"}
    })
}

fn with_meta(mut params: Value, tasks: bool) -> Value {
    params["_meta"] = meta(tasks);
    params
}

/// `tasks/get` of `task` as a 2026-07-28 client that declares the extension.
fn get(client: &mut Client, task: &str) -> Value {
    client.request("tasks/get", with_meta(json!({"taskId": task}), true))
}

/// Polls `task` until its status is `status`; returns that result.
fn until(client: &mut Client, task: &str, status: &str) -> Value {
    wait_for(&format!("task {task} to be {status}"), || {
        let got = get(client, task);
        (got["result"]["status"] == status).then(|| got["result"].clone())
    })
}

/// A `run_command` call as a 2026-07-28 request.
fn run_command(client: &mut Client, pane: &str, command: &str, tasks: bool) -> Value {
    client.request(
        "tools/call",
        with_meta(
            json!({"name": "run_command", "arguments": {"pane_id": pane, "command": command}}),
            tasks,
        ),
    )
}

/// The task a reply created, checked for the extension's shape.
#[track_caller]
fn created(reply: &Value) -> String {
    let result = &reply["result"];
    assert_eq!(result["resultType"], "task", "{reply}");
    assert_eq!(result["status"], "working", "{reply}");
    assert!(
        result.get("result").is_none() && result.get("task").is_none(),
        "{reply}"
    );
    assert!(
        result["ttlMs"].is_null() && result.as_object().unwrap().contains_key("ttlMs"),
        "{reply}"
    );
    assert!(result["pollIntervalMs"].as_u64().unwrap() > 0, "{reply}");
    for stamp in ["createdAt", "lastUpdatedAt"] {
        let text = result[stamp].as_str().unwrap();
        assert!(
            text.len() == 24 && text.ends_with('Z') && text.as_bytes()[10] == b'T',
            "{stamp}: {text}"
        );
    }
    result["taskId"].as_str().unwrap().to_string()
}

#[test]
fn a_command_outliving_its_request_is_a_task_polled_to_run_commands_own_reply_and_read_after_a_restart() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward_with(&[], &[]);
    let reply = run_command(
        &mut client,
        &pane,
        "echo started; read go; echo \"got $go\"; exit 4",
        true,
    );
    let task = created(&reply);
    // The task is the job: get_job reads it too.
    let job = client.request(
        "tools/call",
        with_meta(json!({"name": "get_job", "arguments": {"job_id": task}}), false),
    );
    assert_eq!(job["result"]["isError"], false, "{job}");

    let working = wait_for("the command to start", || {
        let got = get(&mut client, &task)["result"].clone();
        let output = client.request(
            "tools/call",
            with_meta(json!({"name": "get_job", "arguments": {"job_id": task}}), false),
        );
        (output["result"]["structuredContent"]["output"] == json!(["started"])).then_some(got)
    });
    assert_eq!(working["status"], "working", "{working}");
    assert_eq!(working["resultType"], "complete", "{working}");
    assert!(working.get("result").is_none(), "{working}");
    assert_eq!(working["createdAt"], reply["result"]["createdAt"], "{working}");

    // A second paneward on the same server reads the same task.
    let mut second = tmux.paneward_with(&[], &[]);
    assert_eq!(get(&mut second, &task)["result"]["status"], "working");

    tmux.tmux(&["send-keys", "-t", &pane, "-l", "yes"]);
    tmux.tmux(&["send-keys", "-t", &pane, "Enter"]);
    let completed = until(&mut client, &task, "completed");
    let result = &completed["result"];
    let structured = &result["structuredContent"];
    assert_valid_output("run_command", structured);
    assert_eq!(structured["state"], "finished", "{completed}");
    assert_eq!(structured["exitStatus"], 4, "{completed}");
    assert_eq!(structured["output"], json!(["started", "yes", "got yes"]));
    assert_eq!(structured["jobId"], Value::Null, "{completed}");
    assert_eq!(
        structured["timeoutSeconds"], 30.0,
        "the wait asked for, as the reply says it"
    );
    assert_eq!(result["isError"], false, "{completed}");
    assert!(
        result["content"][0]["text"].as_str().unwrap().contains("got yes"),
        "{completed}"
    );
    assert!(completed["statusMessage"].as_str().unwrap().contains("exit status 4"));

    // Restarted, paneward answers the same, and again the same.
    second.close();
    client.close();
    let mut client = tmux.paneward_with(&[], &[]);
    let again = get(&mut client, &task)["result"].clone();
    assert_eq!(again, completed);

    // The next command in the pane collects the job, and with it the task.
    let next = run_command(&mut client, &pane, "true", true);
    assert_eq!(
        next["result"]["resultType"], "complete",
        "a quick command answers at once: {next}"
    );
    assert_eq!(next["result"]["structuredContent"]["state"], "finished", "{next}");
    let gone = get(&mut client, &task);
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
    assert!(
        gone["error"]["message"].as_str().unwrap().contains("holds no job"),
        "{gone}"
    );
    let options = tmux.tmux(&["show-options", "-p", "-t", &pane]);
    assert!(!options.contains("paneward"), "{options}");
}

#[test]
fn tasks_cancel_types_ctrl_c_and_the_task_ends_cancelled_saying_what_happened() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward_with(&[], &[]);
    let task = created(&run_command(&mut client, &pane, "echo napping; sleep 60", true));
    wait_for("the command to start", || {
        tmux.capture(&pane).contains("napping").then_some(())
    });
    let ack = client.request("tasks/cancel", with_meta(json!({"taskId": task}), true));
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let cancelled = until(&mut client, &task, "cancelled");
    let said = cancelled["statusMessage"].as_str().unwrap();
    assert!(said.contains("Ctrl-C") && said.contains("exit status 130"), "{said}");
    assert!(cancelled.get("result").is_none(), "{cancelled}");
    // A second cancel is acknowledged and types nothing: the record already says so.
    let again = client.request("tasks/cancel", with_meta(json!({"taskId": task}), true));
    assert_eq!(again["result"], json!({"resultType": "complete"}), "{again}");
    assert_eq!(until(&mut client, &task, "cancelled"), cancelled);

    // A task that had ended is left as it was.
    let ended = created(&run_command(&mut client, &pane, "sleep 1.5; echo done", true));
    let completed = until(&mut client, &ended, "completed");
    let ack = client.request("tasks/cancel", with_meta(json!({"taskId": ended}), true));
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    assert_eq!(get(&mut client, &ended)["result"], completed);
}

#[test]
fn a_client_without_the_extension_sees_run_command_as_before_and_task_ids_are_not_guessable() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let mut client = tmux.paneward_with(&[], &[]);
    let discovered = client.request("server/discover", with_meta(json!({}), false));
    let extensions = &discovered["result"]["capabilities"]["extensions"];
    assert!(extensions["io.modelcontextprotocol/tasks"].is_object(), "{discovered}");
    assert!(
        discovered["result"]["capabilities"].get("tasks").is_none(),
        "{discovered}"
    );

    let plain = client.request(
        "tools/call",
        with_meta(
            json!({"name": "run_command", "arguments": {"pane_id": pane, "command": "sleep 60", "timeout_seconds": 0.2}}),
            false,
        ),
    );
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    let job = plain["result"]["structuredContent"]["jobId"]
        .as_str()
        .unwrap()
        .to_string();
    // The tasks methods need the extension (-32021, naming it) ...
    for method in ["tasks/get", "tasks/cancel"] {
        let refused = client.request(method, with_meta(json!({"taskId": job}), false));
        assert_eq!(refused["error"]["code"], -32021, "{refused}");
        assert!(
            refused["error"]["data"]["requiredCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"].is_object(),
            "{refused}"
        );
    }
    // ... and a job started without one is no task, even to a client that has it.
    let not_task = get(&mut client, &job);
    assert_eq!(not_task["error"]["code"], -32602, "{not_task}");
    assert!(
        not_task["error"]["message"].as_str().unwrap().contains("is no task"),
        "{not_task}"
    );
    // Ids no pane holds: a well-formed guess, and text of another form.
    let (pane_part, random) = job.split_once(':').unwrap();
    let guessed = format!("{pane_part}:{}", "0".repeat(random.len()));
    for id in [guessed.as_str(), "not-a-task", "tasks-conformance-isolation-probe"] {
        for method in ["tasks/get", "tasks/cancel", "tasks/update"] {
            let mut params = json!({"taskId": id});
            if method == "tasks/update" {
                params["inputResponses"] = json!({});
            }
            let refused = client.request(method, with_meta(params, true));
            assert_eq!(refused["error"]["code"], -32602, "{method} {id}: {refused}");
        }
    }
    // The methods the extension removed are not found.
    for method in ["tasks/result", "tasks/list"] {
        let refused = client.request(method, with_meta(json!({"taskId": job}), true));
        assert_eq!(refused["error"]["code"], -32601, "{method}: {refused}");
    }
}

#[test]
fn a_handshake_client_gets_run_command_as_before_even_declaring_the_extension_and_may_read_a_task() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let second = tmux.tmux(&["split-window", "-P", "-F", "#{pane_id}", "-t", &pane]);
    let second = second.trim().to_string();
    let mut current = tmux.paneward_with(&[], &[]);
    let task = created(&run_command(&mut current, &pane, "sleep 1.5; echo late", true));

    let mut client = tmux.paneward_with(&[], &[]);
    let init = client.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25",
               "capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
               "clientInfo": {"name": "paneward-tests", "version": "0"}}),
    );
    assert!(
        init["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"].is_object(),
        "{init}"
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    // 2025-11-25 has tasks of its own, with another wire: no task answer in this era.
    let reply = client.call(
        "run_command",
        json!({"pane_id": second, "command": "sleep 60", "timeout_seconds": 0.2}),
    );
    assert!(
        reply.get("resultType").is_none() && reply.get("taskId").is_none(),
        "{reply}"
    );
    assert_eq!(reply["structuredContent"]["state"], "running", "{reply}");
    // A task made for a 2026-07-28 client reads here too, in this era's shape.
    let completed = wait_for("the task to complete", || {
        let got = client.request("tasks/get", json!({"taskId": task}));
        (got["result"]["status"] == "completed").then(|| got["result"].clone())
    });
    assert_eq!(
        completed["result"]["structuredContent"]["output"],
        json!(["late"]),
        "{completed}"
    );
    assert!(completed["result"].get("resultType").is_none(), "{completed}");
}
