//! Panes whose shell is still starting: `run_command` answers `notReady` with nothing
//! typed (a bash whose rc file is slow, a dash whose startup runs another program in
//! the foreground, as `mesg` from `.profile` does), and the create tools' `wait_ready`
//! returns once the new pane's shell shows its prompt.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{wait_for, Client, Scratch, TmuxServer};
use serde_json::{json, Value};

/// An rc file that says it started (file `started`), then holds the shell's startup
/// until file `go` exists, then sets a plain prompt.
fn slow_rc(scratch: &Scratch) -> String {
    let rc = scratch.path("rc");
    std::fs::write(
        &rc,
        format!(
            "touch {started}\nwhile [ ! -e {go} ]; do sleep 0.05; done\nPS1='$ '\n",
            started = scratch.path("started"),
            go = scratch.path("go"),
        ),
    )
    .unwrap();
    rc
}

fn session_id(tmux: &TmuxServer) -> String {
    tmux.pane_value("main:", "#{session_id}")
}

/// Creates a window through paneward running `command`, with `wait_ready` as given.
fn window(client: &mut Client, tmux: &TmuxServer, command: &[&str], wait_ready: Option<bool>) -> Value {
    let mut arguments = json!({"session_id": session_id(tmux), "command": command});
    if let Some(wait) = wait_ready {
        arguments["wait_ready"] = json!(wait);
    }
    client.call_ok("create_window", arguments)
}

/// Whether paneward left a job buffer behind (nothing typed means none staged either).
fn job_buffers(tmux: &TmuxServer) -> Vec<String> {
    tmux.tmux(&["list-buffers", "-F", "#{buffer_name}"])
        .lines()
        .filter(|line| line.contains("paneward"))
        .map(str::to_string)
        .collect()
}

#[track_caller]
fn assert_not_ready_and_untouched(client: &mut Client, tmux: &TmuxServer, pane: &str, program: Option<&str>) {
    let reply = client.call_ok(
        "run_command",
        json!({"pane_id": pane, "command": "echo typed", "timeout_seconds": 20}),
    );
    assert_eq!(reply["state"], "notReady", "{reply}");
    assert_eq!(reply["jobId"], Value::Null, "{reply}");
    let reason = reply["notReadyReason"].as_str().unwrap();
    assert!(reason.contains("still starting"), "{reason}");
    if let Some(program) = program {
        assert!(reason.contains(&format!("\"{program}\"")), "{reason}");
    }
    assert!(reason.contains("nothing was typed"), "{reason}");
    assert!(tmux.capture(pane).trim().is_empty(), "nothing was typed");
    assert_eq!(job_buffers(tmux), Vec::<String>::new());
}

#[test]
fn a_bash_whose_rc_file_is_still_running_is_not_ready_and_nothing_is_typed() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let rc = slow_rc(&scratch);
    let mut client = tmux.paneward();
    let created = window(
        &mut client,
        &tmux,
        &["bash", "--rcfile", &rc, "--noprofile", "-i"],
        Some(false),
    );
    assert_eq!(created.get("ready"), None, "not waited for: {created}");
    let pane = created["paneId"].as_str().unwrap().to_string();
    wait_for("the rc file to start", || {
        std::path::Path::new(&scratch.path("started")).exists().then_some(())
    });
    // bash runs its rc file before job control: the foreground is bash or its sleep.
    assert_not_ready_and_untouched(&mut client, &tmux, &pane, None);
    // Once the startup ends, the same call runs the command.
    std::fs::write(scratch.path("go"), "").unwrap();
    tmux.wait_for_text(&pane, "$");
    let reply = client.call_ok("run_command", json!({"pane_id": pane, "command": "echo ran"}));
    assert_eq!(reply["state"], "finished", "{reply}");
    assert_eq!(reply["output"], json!(["ran"]));
}

#[test]
fn a_posix_shell_whose_startup_runs_another_program_is_not_ready_rather_than_refused() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    // As `mesg` from .profile: a program of the startup in the foreground. Here `cat`
    // on a fifo, which holds until the test writes to it.
    let fifo = scratch.path("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let rc = scratch.path("env");
    std::fs::write(&rc, format!("cat {fifo} >/dev/null\nPS1='$ '\n")).unwrap();
    let mut client = tmux.paneward();
    let created = client.call_ok(
        "create_window",
        json!({"session_id": session_id(&tmux), "command": ["sh", "-i"], "environment": {"ENV": rc}}),
    );
    let pane = created["paneId"].as_str().unwrap().to_string();
    tmux.wait_for_value(&pane, "#{pane_current_command}", "cat");
    assert_not_ready_and_untouched(&mut client, &tmux, &pane, Some("cat"));
    std::fs::write(&fifo, "").unwrap();
    tmux.wait_for_text(&pane, "$");
    let reply = client.call_ok("run_command", json!({"pane_id": pane, "command": "echo ran"}));
    assert_eq!(reply["output"], json!(["ran"]), "{reply}");
}

#[test]
fn wait_ready_returns_once_the_new_shell_shows_its_prompt() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let rc = slow_rc(&scratch);
    let mut client = tmux.paneward();
    // The rc file holds the startup until this thread sees it run: the create call is
    // waiting by then.
    let started = scratch.path("started");
    let go = scratch.path("go");
    let releaser = std::thread::spawn(move || {
        wait_for("the rc file to start", || {
            std::path::Path::new(&started).exists().then_some(())
        });
        std::fs::write(go, "").unwrap();
    });
    let created = window(
        &mut client,
        &tmux,
        &["bash", "--rcfile", &rc, "--noprofile", "-i"],
        Some(true),
    );
    releaser.join().unwrap();
    assert_eq!(created["ready"], true, "{created}");
    assert_eq!(created.get("notReadyReason"), None, "{created}");
    let pane = created["paneId"].as_str().unwrap();
    let reply = client.call_ok("run_command", json!({"pane_id": pane, "command": "echo at once"}));
    assert_eq!(reply["output"], json!(["at once"]), "{reply}");
}

#[test]
fn panes_running_the_default_shell_are_waited_for_by_default_and_commands_are_not() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let session = client.call_ok("create_session", json!({}));
    assert_eq!(session["ready"], true, "{session}");
    let split = client.call_ok("split_window", json!({"pane_id": session["paneId"]}));
    assert_eq!(split["ready"], true, "{split}");
    let window = client.call_ok("create_window", json!({"session_id": session["sessionId"]}));
    assert_eq!(window["ready"], true, "{window}");
    // Ready means run_command types at once.
    let reply = client.call_ok("run_command", json!({"pane_id": split["paneId"], "command": "echo ok"}));
    assert_eq!(reply["output"], json!(["ok"]), "{reply}");
    // A command of the caller's draws no prompt: not waited for unless asked.
    let command = client.call_ok(
        "create_window",
        json!({"session_id": session["sessionId"], "command": ["sleep", "100000"]}),
    );
    assert_eq!(command.get("ready"), None, "{command}");
    // Asked for a program that draws something else: ready false at once, and why.
    let python = client.call_ok(
        "create_window",
        json!({"session_id": session["sessionId"], "command": ["python3", "-q"], "wait_ready": true}),
    );
    assert_eq!(python["ready"], false, "{python}");
    assert!(python["notReadyReason"].as_str().unwrap().contains(">>>"), "{python}");
}
