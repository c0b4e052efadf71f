//! `call_read_tools_batch` against real tmux servers, through the binary: order, error
//! policy, and the 1,000,000-byte bound measured on the line paneward writes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use crate::support::{assert_valid_output, strings, Client, TmuxServer};
use serde_json::{json, Value};

/// A `tmux` that appends its arguments (and the script it reads) to a log, one line per
/// run, then runs tmux: it shows what paneward asked tmux to do, and in which order.
struct LoggingTmux {
    dir: PathBuf,
}

impl LoggingTmux {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("pw-batch-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("tmux");
        let log = dir.join("log");
        std::fs::write(
            &script,
            format!(
                // paneward sends its commands as a script on standard input
                // (`source-file -`): log that script, with tmux's quotes taken out.
                "#!/bin/sh\nlog='{}'\ncase \"$*\" in\n*'source-file -')\n  script=$(cat)\n  printf '%s %s\\n' \"$*\" \"$(printf '%s' \"$script\" | tr -d \"'\")\" >> \"$log\"\n  printf '%s\\n' \"$script\" | exec tmux \"$@\" ;;\n*)\n  printf '%s\\n' \"$*\" >> \"$log\"\n  exec tmux \"$@\" ;;\nesac\n",
                log.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        Self { dir }
    }

    fn client(&self, tmux: &TmuxServer) -> Client {
        let binary = self.dir.join("tmux");
        // Without control mode every round trip is a tmux process the wrapper logs.
        let args = [
            "--tmux",
            binary.to_str().unwrap(),
            "--no-control-mode",
            "--no-native-client",
        ];
        let mut client = tmux.paneward_with(&args, &[]);
        client.initialize();
        client
    }

    fn runs(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.join("log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

impl Drop for LoggingTmux {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn batch(operations: Vec<Value>, on_error: Option<&str>) -> Value {
    let mut arguments = json!({"operations": operations});
    if let Some(on_error) = on_error {
        arguments["on_error"] = json!(on_error);
    }
    arguments
}

#[test]
fn sixteen_operations_run_in_order_each_through_its_own_tool_in_one_tmux_run_per_round() {
    let tmux = TmuxServer::start();
    let words = ["alpha", "bravo", "charlie", "delta"];
    let panes: Vec<String> = words
        .iter()
        .map(|w| tmux.window_showing(&format!("echo {w}"), w))
        .collect();
    let logging = LoggingTmux::new("order");
    let mut client = logging.client(&tmux);
    assert_eq!(logging.runs(), Vec::<String>::new(), "nothing ran before the batch");

    let tools = ["capture_pane", "snapshot_pane", "capture_since", "search_panes"];
    let operations: Vec<Value> = (0..16)
        .map(|i| {
            let (tool, k) = (tools[i % 4], (i / 4 + i) % 4);
            let arguments = if tool == "search_panes" {
                json!({"pattern": words[k]})
            } else {
                json!({"pane_id": panes[k]})
            };
            json!({"tool": tool, "arguments": arguments})
        })
        .collect();
    let reply = client.call_ok("call_read_tools_batch", batch(operations.clone(), None));
    assert_eq!(
        (reply["succeeded"].clone(), reply["failed"].clone()),
        (json!(16), json!(0))
    );
    assert_eq!(
        (reply["onError"].clone(), reply["stoppedAt"].clone()),
        (json!("stop"), Value::Null)
    );
    assert_eq!(
        (reply["truncated"].clone(), reply["truncatedBytes"].clone()),
        (json!(false), json!(0))
    );

    let mut ordered_targets = Vec::new();
    for (i, row) in reply["results"].as_array().unwrap().iter().enumerate() {
        let k = (i / 4 + i) % 4;
        let tool = tools[i % 4];
        assert_eq!(row["index"], i);
        assert_eq!(row["tool"], tool);
        assert_eq!(
            (row["success"].clone(), row["error"].clone()),
            (json!(true), Value::Null)
        );
        assert_eq!(row["resultTruncated"], false);
        let result = &row["result"];
        // Each row holds what the tool returns on its own, for the pane it named.
        assert_valid_output(tool, result);
        if tool == "search_panes" {
            assert_eq!(result["panes"][0]["paneId"], json!(panes[k]), "row {i}");
        } else {
            assert!(result.to_string().contains(words[k]), "row {i}: {result}");
            ordered_targets.push(panes[k].clone());
        }
    }
    // Without control mode the rows' reads go together, one tmux run for all the
    // reads the rows send before they wait: the first holds every row's reads in row
    // order (each search's listing among them), the second the searches' captures.
    let runs = logging.runs();
    assert_eq!(runs.len(), 2, "{runs:#?}");
    let first: Vec<&str> = runs[0].split(' ').collect();
    let mut targets: Vec<String> = first
        .windows(2)
        .filter(|w| w[0] == "-t")
        .map(|w| w[1].to_string())
        .collect();
    targets.dedup();
    assert_eq!(targets, ordered_targets, "{}", runs[0]);
    assert_eq!(runs[0].matches(" list-panes -a ").count(), 4, "each search lists");
    assert!(runs[1].contains(" list-panes -a ") && runs[1].contains(" capture-pane "));
}

#[test]
fn seventeen_operations_are_rejected_before_anything_runs() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let logging = LoggingTmux::new("seventeen");
    let mut client = logging.client(&tmux);
    let operations = vec![json!({"tool": "capture_pane", "arguments": {"pane_id": pane}}); 17];
    let text = client.call_err("call_read_tools_batch", batch(operations, None));
    assert!(text.contains("/operations") && text.contains("at most 16"), "{text}");
    // An operation that breaks its branch of the schema rejects the batch too, by pointer.
    let operations = vec![
        json!({"tool": "capture_pane", "arguments": {"pane_id": pane}}),
        json!({"tool": "capture_pane", "arguments": {"pane_id": pane, "lines": 3}}),
    ];
    let text = client.call_err("call_read_tools_batch", batch(operations, None));
    assert!(
        text.contains("/operations/1/arguments/lines") && text.contains("not a known field"),
        "{text}"
    );
    let text = client.call_err("call_read_tools_batch", json!({"operations": []}));
    assert!(text.contains("/operations") && text.contains("at least 1"), "{text}");
    let text = client.call_err("call_read_tools_batch", json!({"operations": null}));
    assert!(text.contains("/operations") && text.contains("not null"), "{text}");
    assert_eq!(logging.runs(), Vec::<String>::new(), "tmux never ran");
}

#[test]
fn stop_ends_at_a_failing_operation_and_continue_runs_the_rest() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_showing("echo steady", "steady");
    let mut client = tmux.paneward();
    let operations = vec![
        json!({"tool": "capture_pane", "arguments": {"pane_id": pane}}),
        json!({"tool": "capture_pane", "arguments": {"pane_id": "%9999"}}),
        json!({"tool": "capture_since", "arguments": {"pane_id": pane, "max_lines": 0}}),
        json!({"tool": "snapshot_pane", "arguments": {"pane_id": pane}}),
    ];

    let stopped = client.call_ok("call_read_tools_batch", batch(operations.clone(), None));
    let rows = stopped["results"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(stopped["stoppedAt"], 1);
    assert_eq!(
        (stopped["succeeded"].clone(), stopped["failed"].clone()),
        (json!(1), json!(1))
    );
    let failed = &rows[1];
    assert_eq!(
        (failed["success"].clone(), failed["result"].clone()),
        (json!(false), Value::Null)
    );
    assert_eq!(failed["resultTruncated"], false);
    assert!(
        failed["error"].as_str().unwrap().contains("can't find pane: %9999"),
        "{failed}"
    );

    let all = client.call_ok("call_read_tools_batch", batch(operations, Some("continue")));
    let rows = all["results"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(
        (all["stoppedAt"].clone(), all["onError"].clone()),
        (Value::Null, json!("continue"))
    );
    assert_eq!((all["succeeded"].clone(), all["failed"].clone()), (json!(2), json!(2)));
    let success: Vec<bool> = rows.iter().map(|r| r["success"].as_bool().unwrap()).collect();
    assert_eq!(success, [true, false, false, true]);
    let error = rows[2]["error"].as_str().unwrap();
    assert!(
        error.contains("/max_lines") && error.contains("between 1 and 5000"),
        "{error}"
    );
    assert_eq!(rows[3]["result"]["pane"]["id"], json!(pane));
}

/// The raw JSON-RPC line paneward writes for a request, and its parsed `result`.
fn raw_call(client: &mut Client, id: i64, tool: &str, arguments: Value) -> (String, Value) {
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}}));
    let (line, message) = client.response_line(&json!(id));
    (line, message["result"].clone())
}

#[test]
fn results_of_several_megabytes_are_kept_smallest_first_and_the_rest_shortened_to_fit_one_megabyte() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["set-option", "-g", "history-limit", "10000"]);
    // 6,000 rows of 79 characters (no wrapping at 80 columns), numbered.
    let pane = tmux.window_running(
        "awk 'BEGIN { s = sprintf(\"%74s\", \"\"); gsub(/ /, \"x\", s); \
         for (i = 1; i <= 6000; i++) printf \"%05d%s\\n\", i, s }'; exec sleep 100000",
    );
    tmux.wait_for_text(&pane, "06000x");
    let mut client = tmux.paneward();

    let big = json!({"pane_id": pane, "history": true, "max_lines": 5000});
    let small = json!({"pane_id": pane, "history": true, "max_lines": 50});
    let smalls = [3, 7, 11, 15];
    let operations: Vec<Value> = (0..16)
        .map(|i| json!({"tool": "capture_pane", "arguments": if smalls.contains(&i) { &small } else { &big }}))
        .collect();
    let (line, result) = raw_call(
        &mut client,
        100,
        "call_read_tools_batch",
        json!({"operations": operations}),
    );

    // The bound, on the bytes written to stdout (the newline counts).
    let written = line.len() + 1;
    assert!(written <= 1_000_000, "{written} bytes");
    assert_ne!(result["isError"], json!(true));
    let reply = result["structuredContent"].clone();
    assert_valid_output("call_read_tools_batch", &reply);
    crate::support::assert_text_of(&result, crate::support::TextStyle::Compact);
    assert_eq!(
        (reply["succeeded"].clone(), reply["truncated"].clone()),
        (json!(16), json!(true))
    );

    // Whole results are kept smallest first: the small ones, then one large one (about
    // 830 kB on the line), of equal results the earliest.
    let alone_big = client.call_ok("capture_pane", big.clone());
    let alone_small = client.call_ok("capture_pane", small.clone());
    let all_lines = alone_big["lines"].as_array().unwrap();
    assert_eq!(all_lines.len(), 5000);
    assert!(all_lines[4999].as_str().unwrap().starts_with("06000x"));
    let rows = reply["results"].as_array().unwrap();
    let mut lost = 0;
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["success"], true);
        if smalls.contains(&i) {
            assert_eq!(row["result"], alone_small, "row {i}");
            assert_eq!(row["resultTruncated"], false);
            continue;
        }
        if i == 0 {
            assert_eq!(row["result"], alone_big, "row {i}");
            assert_eq!(row["resultTruncated"], false);
            continue;
        }
        // The other large ones keep their newest lines and count the rest themselves.
        assert_eq!(row["resultTruncated"], true, "row {i}");
        let result = &row["result"];
        assert_valid_output("capture_pane", result);
        let lines = result["lines"].as_array().unwrap();
        assert!(
            !lines.is_empty() && lines.len() < 5000,
            "row {i}: {} lines",
            lines.len()
        );
        assert_eq!(lines[..], all_lines[5000 - lines.len()..], "row {i}: the newest lines");
        let cut = 5000 - lines.len() as u64;
        assert_eq!(
            result["truncatedLines"],
            json!(alone_big["truncatedLines"].as_u64().unwrap() + cut)
        );
        assert_eq!(result["truncated"], true);
        // The alone result could not count the unread history's bytes; nor can this one.
        assert_eq!(result.get("truncatedBytes"), alone_big.get("truncatedBytes"));
        assert_eq!(
            (&result["paneId"], &result["history"]),
            (&alone_big["paneId"], &alone_big["history"])
        );
        lost += serde_json::to_string(&alone_big).unwrap().len() - serde_json::to_string(result).unwrap().len();
    }
    // truncatedBytes: the compact JSON the results lost.
    assert_eq!(reply["truncatedBytes"], json!(lost));
    assert!(lost > 4_000_000, "several megabytes were left out: {lost}");
}

#[test]
fn sixteen_history_captures_of_a_long_scrollback_all_return_their_newest_rows() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["set-option", "-g", "history-limit", "250000"]);
    let pane = tmux.window_running("seq 1 200000; echo done; exec sleep 100000");
    tmux.wait_for_text(&pane, "done");
    let mut client = tmux.paneward();
    let capture = json!({"tool": "capture_pane", "arguments": {"pane_id": pane, "history": true, "max_lines": 5000}});
    let (line, result) = raw_call(
        &mut client,
        7,
        "call_read_tools_batch",
        json!({"operations": vec![capture; 16]}),
    );
    assert!(line.len() < 1_000_000, "{} bytes", line.len());
    let reply = result["structuredContent"].clone();
    assert_valid_output("call_read_tools_batch", &reply);
    let rows = reply["results"].as_array().unwrap();
    assert_eq!(rows.len(), 16);
    let whole = rows.iter().filter(|row| row["resultTruncated"] == false).count();
    assert!(whole > 0, "some results fit whole");
    for (i, row) in rows.iter().enumerate() {
        let lines = strings(&row["result"]["lines"]);
        assert_eq!(lines.last().map(String::as_str), Some("done"), "row {i}");
        let n = u32::try_from(lines.len()).unwrap();
        let mut expected: Vec<String> = (200_001 - n + 1..=200_000).map(|i| i.to_string()).collect();
        expected.push("done".into());
        assert_eq!(lines, expected, "row {i}");
        assert_eq!(row["resultTruncated"], json!(n < 5000), "row {i}");
    }
}

#[test]
fn without_control_mode_a_batch_answers_as_over_control_mode_a_failing_row_included() {
    let tmux = TmuxServer::start();
    let words = ["alpha", "bravo", "charlie"];
    let panes: Vec<String> = words
        .iter()
        .map(|w| tmux.window_showing(&format!("echo {w}"), w))
        .collect();
    // The replies name each pane's program and window: both settle once the shell has
    // handed over to `sleep` and tmux has renamed the window after it.
    for pane in &panes {
        tmux.wait_for_value(pane, "#{pane_current_command} #{window_name}", "sleep sleep");
    }
    let mut operations: Vec<Value> = (0..12)
        .map(|i| {
            let pane = &panes[i % 3];
            match i % 4 {
                0 => json!({"tool": "capture_pane", "arguments": {"pane_id": pane}}),
                1 => json!({"tool": "get_pane_info", "arguments": {"pane_id": pane}}),
                2 => json!({"tool": "capture_pane", "arguments": {"pane_id": pane, "history": true, "max_lines": 5}}),
                _ => json!({"tool": "search_panes", "arguments": {"pattern": words[i % 3]}}),
            }
        })
        .collect();
    // A row in the middle fails in tmux (the pane does not exist).
    operations[5] = json!({"tool": "capture_pane", "arguments": {"pane_id": "%9999"}});
    let mut control = tmux.paneward();
    let mut native = tmux.paneward_with(&["--no-control-mode"], &[]);
    native.initialize();
    let mut processes = tmux.paneward_with(&["--no-control-mode", "--no-native-client"], &[]);
    processes.initialize();
    for on_error in ["stop", "continue"] {
        let arguments = batch(operations.clone(), Some(on_error));
        let expected = control.call_ok("call_read_tools_batch", arguments.clone());
        let rows = expected["results"].as_array().unwrap();
        let failed: Vec<usize> = rows
            .iter()
            .filter(|row| row["success"] == false)
            .map(|row| row["index"].as_u64().unwrap() as usize)
            .collect();
        assert_eq!(failed, [5], "{on_error}: {expected}");
        assert_eq!(rows.len(), if on_error == "stop" { 6 } else { 12 });
        for (name, client) in [("native client", &mut native), ("processes", &mut processes)] {
            let reply = client.call_ok("call_read_tools_batch", arguments.clone());
            for (row, want) in reply["results"].as_array().unwrap().iter().zip(rows) {
                assert_eq!(row, want, "{name}, on_error {on_error}");
            }
            assert_eq!(reply, expected, "{name}, on_error {on_error}");
        }
    }
}
