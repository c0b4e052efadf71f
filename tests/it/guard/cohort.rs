//! The cohort check against real tmux servers: synchronize-panes, the caller pane,
//! copy mode and dead panes, each refused or delivered as the rules say.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{Scratch, TmuxServer};
use serde_json::{json, Value};

/// Opens a window of `count` panes, each running `cat`; returns their ids.
fn window_of_cats(tmux: &TmuxServer, count: usize) -> Vec<String> {
    let first = tmux.window_running("cat");
    let mut panes = vec![first.clone()];
    for _ in 1..count {
        panes.push(tmux.split(&first, "-v", "cat"));
    }
    panes
}

fn sorted(value: &Value) -> Vec<String> {
    let mut ids = crate::support::strings(value);
    ids.sort();
    ids
}

fn one_failure(reply: &Value) -> String {
    assert_eq!(reply["completed"], 0, "{reply}");
    assert_eq!(reply["targets"], json!([]), "{reply}");
    reply["failures"][0]["reason"].as_str().unwrap().to_string()
}

#[test]
fn with_synchronize_panes_on_every_pane_of_the_window_receives_and_is_reported() {
    let tmux = TmuxServer::start();
    let panes = window_of_cats(&tmux, 3);
    tmux.tmux(&["set-option", "-w", "-t", &panes[0], "synchronize-panes", "on"]);
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "send_keys_batch",
        json!({"operations": [{"paneId": panes[1], "keys": "typed-everywhere", "literal": true}]}),
    );
    assert_eq!(reply["completed"], 1);
    let target = &reply["targets"][0];
    assert_eq!(target["resolvedPaneIds"][0], json!(panes[1]), "the target comes first");
    let mut expected = panes.clone();
    expected.sort();
    assert_eq!(sorted(&target["resolvedPaneIds"]), expected);
    for pane in &panes {
        tmux.wait_for_text(pane, "typed-everywhere");
    }

    // A zoomed window shows one pane, and tmux synchronizes only to panes it shows.
    tmux.tmux(&["resize-pane", "-Z", "-t", &panes[1]]);
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": panes[1], "keys": "while-zoomed", "literal": true}),
    );
    assert_eq!(reply["resolvedPaneIds"], json!([panes[1]]));
    tmux.tmux(&["resize-pane", "-Z", "-t", &panes[1]]);
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": panes[1], "keys": "unzoomed", "literal": true}),
    );
    assert_eq!(reply["resolvedPaneIds"].as_array().unwrap().len(), 3);
    tmux.wait_for_text(&panes[0], "unzoomed");
    assert!(!tmux.capture(&panes[0]).contains("while-zoomed"));

    // With synchronize-panes off, only the target.
    tmux.tmux(&["set-option", "-w", "-t", &panes[0], "synchronize-panes", "off"]);
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": panes[2], "keys": "only-here", "literal": true}),
    );
    assert_eq!(reply["resolvedPaneIds"], json!([panes[2]]));
    tmux.wait_for_text(&panes[2], "only-here");
    client.call_ok(
        "send_keys",
        json!({"pane_id": panes[0], "keys": "then-here", "literal": true}),
    );
    tmux.wait_for_text(&panes[0], "then-here");
    assert!(!tmux.capture(&panes[0]).contains("only-here"));
}

#[test]
fn the_caller_pane_is_refused_without_force_and_typed_into_with_it() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let caller = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward_in(&caller);

    let refused = client.call_ok(
        "send_keys_batch",
        json!({"operations": [{"paneId": caller, "keys": "refused", "literal": true}]}),
    );
    let reason = one_failure(&refused);
    assert!(
        reason.contains(&format!("pane {caller} is the caller pane")) && reason.contains("force: true"),
        "{reason}"
    );
    let text = client.call_err(
        "send_keys",
        json!({"pane_id": caller, "keys": "refused", "literal": true}),
    );
    assert!(text.contains("caller pane"), "{text}");

    let forced = client.call_ok(
        "send_keys",
        json!({"pane_id": caller, "keys": "forced", "literal": true, "force": true}),
    );
    assert_eq!(forced["resolvedPaneIds"], json!([caller]));
    // Input is ordered: the refused lines would have arrived before this one.
    assert_eq!(scratch.wait_for_lines("typed", 1), "forced\n");

    // The same pane id on another server is not the caller.
    let mut elsewhere = tmux.paneward_with(
        &[],
        &[("TMUX", "/tmp/another-server,1,0"), ("TMUX_PANE", caller.as_str())],
    );
    elsewhere.initialize();
    elsewhere.call_ok(
        "send_keys",
        json!({"pane_id": caller, "keys": "elsewhere", "literal": true}),
    );
    assert_eq!(scratch.wait_for_lines("typed", 2), "forced\nelsewhere\n");
}

#[test]
fn a_synchronized_window_holding_the_caller_pane_refuses_rows_aimed_at_its_siblings() {
    let tmux = TmuxServer::start();
    let panes = window_of_cats(&tmux, 2);
    let (sibling, caller) = (&panes[0], &panes[1]);
    tmux.tmux(&["set-option", "-w", "-t", sibling, "synchronize-panes", "on"]);
    let mut client = tmux.paneward_in(caller);
    let reply = client.call_ok(
        "send_keys_batch",
        json!({"operations": [{"paneId": sibling, "keys": "refused", "literal": true}]}),
    );
    let reason = one_failure(&reply);
    assert!(
        reason.contains("synchronize-panes is on")
            && reason.contains(&format!("also reaches pane {caller}"))
            && reason.contains(&format!("pane {caller} is the caller pane")),
        "{reason}"
    );

    let forced = client.call_ok(
        "send_keys",
        json!({"pane_id": sibling, "keys": "forced", "literal": true, "force": true}),
    );
    assert_eq!(forced["resolvedPaneIds"], json!([sibling, caller]));
    for pane in &panes {
        tmux.wait_for_text(pane, "forced");
        assert!(!tmux.capture(pane).contains("refused"), "{pane}");
    }
}

#[test]
fn a_pane_in_copy_mode_is_refused_and_force_sends_keys_to_the_mode() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("cat");
    tmux.tmux(&["copy-mode", "-t", &pane]);
    tmux.wait_for_value(&pane, "#{pane_in_mode}", "1");
    let mut client = tmux.paneward();
    let text = client.call_err("send_keys", json!({"pane_id": pane, "keys": "q", "enter": false}));
    assert!(
        text.contains(&format!("pane {pane} is in a mode such as copy mode")) && text.contains("force: true"),
        "{text}"
    );
    assert_eq!(tmux.pane_value(&pane, "#{pane_in_mode}"), "1");
    // In copy mode `q` is the mode's own command: leaving it.
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": pane, "keys": "q", "enter": false, "force": true}),
    );
    assert_eq!(reply["resolvedPaneIds"], json!([pane]));
    tmux.wait_for_value(&pane, "#{pane_in_mode}", "0");
}

#[test]
fn a_sibling_in_copy_mode_refuses_the_row_and_with_force_is_skipped_as_tmux_skips_it() {
    let tmux = TmuxServer::start();
    let panes = window_of_cats(&tmux, 2);
    tmux.tmux(&["set-option", "-w", "-t", &panes[0], "synchronize-panes", "on"]);
    tmux.tmux(&["copy-mode", "-t", &panes[1]]);
    tmux.wait_for_value(&panes[1], "#{pane_in_mode}", "1");
    let mut client = tmux.paneward();
    let text = client.call_err("send_keys", json!({"pane_id": panes[0], "keys": "x", "literal": true}));
    assert!(text.contains(&format!("pane {} is in a mode", panes[1])), "{text}");
    let reply = client.call_ok(
        "send_keys",
        json!({"pane_id": panes[0], "keys": "forced", "literal": true, "force": true}),
    );
    assert_eq!(reply["resolvedPaneIds"], json!([panes[0]]));
    tmux.wait_for_text(&panes[0], "forced");
    assert_eq!(tmux.pane_value(&panes[1], "#{pane_in_mode}"), "1", "still in copy mode");
}

#[test]
fn a_dead_or_missing_pane_is_refused_even_with_force() {
    let tmux = TmuxServer::start();
    let dead = tmux.dead_pane(0);
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "send_keys_batch",
        json!({"operations": [
            {"paneId": dead, "keys": "x", "literal": true, "force": true},
            {"paneId": "%99999", "keys": "x", "literal": true, "force": true}
        ], "onError": "continue"}),
    );
    assert_eq!(reply["completed"], 0);
    let reasons: Vec<&str> = reply["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons.len(), 2);
    assert!(reasons[0].contains(&format!("pane {dead} is dead")), "{}", reasons[0]);
    assert!(reasons[1].contains("pane %99999 does not exist"), "{}", reasons[1]);
}

#[test]
fn each_row_is_checked_just_before_its_own_input_not_all_rows_up_front() {
    // Row 0 sends `q` to a pane in copy mode (with force): tmux runs the mode's command
    // at once and the pane leaves copy mode. Row 1, without force, aims at the same pane:
    // a check made up front would refuse it; the check made before its input passes.
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("cat");
    tmux.tmux(&["copy-mode", "-t", &pane]);
    tmux.wait_for_value(&pane, "#{pane_in_mode}", "1");
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "send_keys_batch",
        json!({"operations": [
            {"paneId": pane, "keys": "q", "enter": false, "force": true},
            {"paneId": pane, "keys": "after-copy-mode", "literal": true}
        ]}),
    );
    assert_eq!(reply["failures"], json!([]), "{reply}");
    assert_eq!(reply["completed"], 2);
    tmux.wait_for_text(&pane, "after-copy-mode");
}

#[test]
fn a_pane_that_turns_synchronize_panes_off_is_left_out_and_the_window_is_not_reported_synchronized() {
    let tmux = TmuxServer::start();
    let panes = window_of_cats(&tmux, 3);
    tmux.tmux(&["set-option", "-w", "-t", &panes[0], "synchronize-panes", "on"]);
    tmux.tmux(&["set-option", "-p", "-t", &panes[2], "synchronize-panes", "off"]);
    let mut client = tmux.paneward();
    let window = tmux.pane_value(&panes[0], "#{window_id}");
    let info = client.call_ok("get_window_info", json!({"window_id": window}));
    assert_eq!(info["synchronizePanes"], false, "pane {} does not take part", panes[2]);

    let reply = client.call_ok(
        "send_keys_batch",
        json!({"operations": [{"paneId": panes[0], "keys": "only-two", "literal": true}]}),
    );
    let mut expected = vec![panes[0].clone(), panes[1].clone()];
    expected.sort();
    assert_eq!(sorted(&reply["targets"][0]["resolvedPaneIds"]), expected);
    tmux.wait_for_text(&panes[1], "only-two");
    assert!(!tmux.capture(&panes[2]).contains("only-two"));

    // With the override gone every pane synchronizes, and the window says so.
    tmux.tmux(&["set-option", "-p", "-u", "-t", &panes[2], "synchronize-panes"]);
    let info = client.call_ok("get_window_info", json!({"window_id": window}));
    assert_eq!(info["synchronizePanes"], true);
}

/// Flips `synchronize-panes` on `window` as fast as one control client can ask, until
/// dropped: a `tmux -C` client fed a stream of `set-option` lines.
struct Toggler {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    writer: Option<std::thread::JoinHandle<()>>,
    client: std::process::Child,
}

impl Toggler {
    fn start(tmux: &TmuxServer, window: &str) -> Self {
        use std::io::{Read, Write};
        use std::process::Stdio;
        let mut client = tmux
            .command()
            .args(["-C", "attach-session", "-t", window])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = client.stdin.take().unwrap();
        let mut stdout = client.stdout.take().unwrap();
        // Drained so tmux never waits on a full pipe.
        std::thread::spawn(move || {
            let mut sink = [0u8; 65536];
            while matches!(stdout.read(&mut sink), Ok(n) if n > 0) {}
        });
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopping = stop.clone();
        let window = window.to_string();
        let writer = std::thread::spawn(move || {
            // Bounded in time whatever happens to the test.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(40);
            let lines = format!(
                "set-option -w -t {window} synchronize-panes on\nset-option -w -t {window} synchronize-panes off\n"
            );
            while !stopping.load(std::sync::atomic::Ordering::Relaxed) && std::time::Instant::now() < deadline {
                if stdin.write_all(lines.as_bytes()).is_err() {
                    break;
                }
            }
        });
        Self {
            stop,
            writer: Some(writer),
            client,
        }
    }
}

impl Drop for Toggler {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
        let _ = self.client.kill();
        let _ = self.client.wait();
    }
}

/// While another client flips `synchronize-panes` on the caller's window, hundreds of
/// rows aimed at a sibling of the caller pane: no input reaches the caller pane, and
/// every accepted reply names exactly the panes that received its token.
fn toggling_synchronize_panes_never_lets_input_reach_the_caller_pane(flags: &[&str]) {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let caller = tmux.window_running(&format!("cat > {}", scratch.path("caller")));
    let sibling = tmux.split(&caller, "-v", &format!("cat > {}", scratch.path("sibling")));
    let env = [("TMUX", tmux.tmux_env()), ("TMUX_PANE", caller.clone())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut client = tmux.paneward_with(flags, &env);
    client.initialize();

    let toggler = Toggler::start(&tmux, &caller);
    let mut accepted = Vec::new();
    let mut refused = 0;
    for i in 0..300 {
        let token = format!("token-{i}");
        let result = client.call("send_keys", json!({"pane_id": sibling, "keys": token, "literal": true}));
        if result["isError"] == json!(true) {
            let reason = result["content"][0]["text"].as_str().unwrap();
            assert!(reason.contains("is the caller pane"), "{reason}");
            refused += 1;
        } else {
            let received = &result["structuredContent"]["resolvedPaneIds"];
            assert_eq!(received, &json!([sibling]), "row {i}");
            accepted.push(token);
        }
    }
    drop(toggler);
    assert!(
        !accepted.is_empty() && refused > 0,
        "the toggling must meet both states to test anything: {} accepted, {refused} refused",
        accepted.len()
    );

    // Settle both recorders with one last line each, typed with synchronize-panes off.
    tmux.tmux(&["set-option", "-w", "-t", &caller, "synchronize-panes", "off"]);
    client.call_ok(
        "send_keys",
        json!({"pane_id": sibling, "keys": "sibling-end", "literal": true}),
    );
    client.call_ok(
        "send_keys",
        json!({"pane_id": caller, "keys": "caller-end", "literal": true, "force": true}),
    );
    let sibling_lines = scratch.wait_for_lines("sibling", accepted.len() + 1);
    let caller_lines = scratch.wait_for_lines("caller", 1);
    assert_eq!(caller_lines, "caller-end\n", "input reached the caller pane");
    let mut expected: Vec<String> = accepted;
    expected.push("sibling-end".into());
    assert_eq!(sibling_lines.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn toggling_synchronize_panes_never_lets_input_reach_the_caller_pane_over_control_mode() {
    toggling_synchronize_panes_never_lets_input_reach_the_caller_pane(&[]);
}

#[test]
fn toggling_synchronize_panes_never_lets_input_reach_the_caller_pane_without_control_mode() {
    toggling_synchronize_panes_never_lets_input_reach_the_caller_pane(&["--no-control-mode"]);
}

/// tmux's verdict (a format) and paneward's (`evaluate`) judge the same reading; they
/// must agree on every state, or paneward reports an internal error instead of a reply.
/// Walks every combination of: synchronize-panes on the window and per pane, panes in
/// copy mode, with input off, dead, the caller among them, zoom, and force.
#[test]
fn tmux_and_paneward_agree_on_every_cohort_state() {
    let tmux = TmuxServer::start();
    let caller = tmux.window_running("cat");
    let target = tmux.split(&caller, "-v", "cat");
    let sibling = tmux.split(&caller, "-v", "cat");
    tmux.tmux(&["set-option", "-g", "remain-on-exit", "on"]);
    let dead = tmux.split(&caller, "-v", "read line; exit 0");
    tmux.tmux(&["send-keys", "-t", &dead, "Enter"]);
    tmux.wait_for_exit_status(&dead, 0);
    let mut client = tmux.paneward_in(&caller);

    let (mut allowed, mut refused) = (0, 0);
    // 2 window flags x 4 sibling states x 3 target states x 2 x 2 x 2 x 2 = 384 states.
    for state in 0..384 {
        let window_sync = state % 2 == 1;
        let sibling_state = (state / 2) % 4; // normal, copy mode, input off, own sync off
        let target_state = (state / 8) % 3; // normal, copy mode, input off
        let dead_sync_off = (state / 24) % 2 == 1;
        let caller_sync_off = (state / 48) % 2 == 1;
        let zoomed = (state / 96) % 2 == 1;
        let force = (state / 192) % 2 == 1;
        let on_off = |on: bool| if on { "on" } else { "off" };
        let mut script: Vec<String> = Vec::new();
        let mut add = |args: &[&str]| {
            if !script.is_empty() {
                script.push(";".into());
            }
            script.extend(args.iter().map(|a| (*a).to_string()));
        };
        add(&[
            "set-option",
            "-w",
            "-t",
            &target,
            "synchronize-panes",
            on_off(window_sync),
        ]);
        for (pane, off) in [
            (&sibling, sibling_state == 3),
            (&dead, dead_sync_off),
            (&caller, caller_sync_off),
        ] {
            if off {
                add(&["set-option", "-p", "-t", pane, "synchronize-panes", "off"]);
            } else {
                add(&["set-option", "-p", "-u", "-t", pane, "synchronize-panes"]);
            }
        }
        for (pane, pane_state) in [(&sibling, sibling_state), (&target, target_state)] {
            add(&["copy-mode", "-q", "-t", pane]);
            add(&["select-pane", "-e", "-t", pane]);
            match pane_state {
                1 => add(&["copy-mode", "-t", pane]),
                2 => add(&["select-pane", "-d", "-t", pane]),
                _ => {}
            }
        }
        add(&[
            "if-shell",
            "-F",
            "-t",
            &target,
            "#{window_zoomed_flag}",
            &format!("resize-pane -Z -t {target}"),
        ]);
        if zoomed {
            add(&["resize-pane", "-Z", "-t", &target]);
        }
        let script: Vec<&str> = script.iter().map(String::as_str).collect();
        tmux.tmux(&script);

        for aimed in [&target, &sibling] {
            let result = client.call(
                "send_keys",
                json!({"pane_id": aimed, "keys": "k", "literal": true, "enter": false, "force": force}),
            );
            let text = result["content"][0]["text"].as_str().unwrap();
            if result["isError"] == json!(true) {
                assert!(
                    text.contains("nothing was typed") && !text.contains("paneward's"),
                    "state {state}, aimed at {aimed}: {text}"
                );
                refused += 1;
            } else {
                assert_eq!(result["structuredContent"]["resolvedPaneIds"][0], json!(aimed));
                allowed += 1;
            }
        }
    }
    assert!(allowed > 0 && refused > 0, "{allowed} allowed, {refused} refused");
}
