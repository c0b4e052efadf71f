//! `list_pane_activity`'s input fields, from the kernel: a shell at its prompt, a
//! password read (`read -s`: echo off), a program reading its own input, and programs
//! that are not waiting (a busy loop like a compiler's, a sleep, a shell waiting for
//! its child).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::{wait_for, Client, TmuxServer};

fn activity_of(client: &mut Client, pane: &str) -> Value {
    let listed = client.call_ok("list_pane_activity", json!({}));
    listed["panes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["id"] == pane)
        .cloned()
        .unwrap_or_else(|| panic!("{pane} not in {listed}"))
}

/// The pane's activity once the kernel says it waits for input (a program that has
/// just printed its question may not have reached its `read` yet).
fn once_waiting(client: &mut Client, pane: &str) -> Value {
    wait_for(&format!("pane {pane} waiting for input"), || {
        let activity = activity_of(client, pane);
        (activity["input"] == "waiting").then_some(activity)
    })
}

#[test]
fn a_password_read_a_shell_prompt_and_a_program_s_read_are_waiting_for_input() {
    let tmux = TmuxServer::start();
    let shell = tmux.first_pane();
    tmux.wait_for_prompt(&shell);
    let password = tmux.bash_pane();
    tmux.tmux(&["send-keys", "-t", &password, "-l", "read -rs -p 'Password: ' secret"]);
    tmux.tmux(&["send-keys", "-t", &password, "Enter"]);
    tmux.wait_for_text(&password, "Password: ");
    let reader = tmux.window_running("exec cat");
    tmux.wait_for_value(&reader, "#{pane_current_command}", "cat");
    let mut client = tmux.paneward();

    let read = once_waiting(&mut client, &password);
    assert_eq!(read["readsAs"], "password", "echo is off: {read}");
    assert_eq!(read["program"], "bash", "{read}");
    let prompt = once_waiting(&mut client, &shell);
    assert_eq!(prompt["readsAs"], "shellPrompt", "{prompt}");
    let own = once_waiting(&mut client, &reader);
    assert_eq!(own["readsAs"], "programInput", "{own}");

    // Once the person answers, the shell is back at its prompt (readline's wait).
    tmux.tmux(&["send-keys", "-t", &password, "-l", "hunter2"]);
    tmux.tmux(&["send-keys", "-t", &password, "Enter"]);
    wait_for("bash back at its prompt", || {
        let activity = activity_of(&mut client, &password);
        (activity["readsAs"] == "shellPrompt").then_some(())
    });
}

#[test]
fn a_busy_program_a_sleep_and_a_shell_running_a_child_are_not_waiting() {
    let tmux = TmuxServer::start();
    // A compiler's shape: all CPU, no system call.
    let busy = tmux.window_running("exec sh -c 'while :; do :; done'");
    let sleeper = tmux.window_running("exec sleep 100000");
    // The group leader waits for its child; the child sleeps: nobody reads.
    let parent = tmux.window_running("exec sh -c 'sleep 100000; echo never'");
    for (pane, program) in [(&busy, "sh"), (&sleeper, "sleep"), (&parent, "sh")] {
        tmux.wait_for_value(pane, "#{pane_current_command}", program);
    }
    let mut client = tmux.paneward();
    for pane in [&busy, &sleeper, &parent] {
        // The busy loop never blocks; the sleeps settle at once: each look must agree.
        let activity = wait_for(&format!("pane {pane} seen by the kernel"), || {
            let activity = activity_of(&mut client, pane);
            (activity["input"] != "unknown").then_some(activity)
        });
        assert_eq!(activity["input"], "notWaiting", "{pane}: {activity}");
        assert!(activity.get("readsAs").is_none(), "{activity}");
    }
}
