//! `command_history`: the commands a bash set up with OSC 133 marks ran (typed by the
//! person, here through tmux), with their output and exit status, read from the pane's
//! `pipe_pane` recording; `marks: absent` without a recording or without marks.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use crate::support::{wait_for, Scratch, TmuxServer};

/// The bash setup docs/running-commands.md gives, as an rc file.
const MARKING_RC: &str = r#"PS1='\[\e]133;A\a\]marked$ \[\e]133;B\a\]'
PS0='\e]133;C\a'
PROMPT_COMMAND='printf "\033]133;D;%s\007" "$?"'
"#;

fn typed(tmux: &TmuxServer, pane: &str, line: &str, then: &str) {
    tmux.tmux(&["send-keys", "-t", pane, "-l", line]);
    tmux.tmux(&["send-keys", "-t", pane, "Enter"]);
    tmux.wait_for_text(pane, then);
}

#[test]
fn a_marking_shell_s_commands_come_back_with_output_and_status_and_no_marks_say_absent() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let rc = scratch.path("bashrc");
    std::fs::write(&rc, MARKING_RC).unwrap();
    let pane = tmux.window_running(&format!("exec bash --rcfile {rc} -i"));
    tmux.wait_for_text(&pane, "marked$");
    let mut client = tmux.paneward();
    let none = client.call_ok("command_history", json!({"pane_id": pane}));
    assert_eq!(none["marks"], "absent", "{none}");
    assert!(none["why"].as_str().unwrap().contains("pipe_pane"), "{none}");

    client.call_ok("pipe_pane", json!({"pane_id": pane, "path": scratch.path("recording")}));
    typed(&tmux, &pane, "echo first-command", "first-command\n");
    typed(&tmux, &pane, "ls /nonexistent-path-for-history", "No such file");
    typed(&tmux, &pane, "printf 'two\\nlines\\n'", "lines\n");
    let history: Value = wait_for("three finished commands in the recording", || {
        let history = client.call_ok("command_history", json!({"pane_id": pane, "last": 2}));
        (history["total"] == 3 && history["commands"][1]["finished"] == true).then_some(history)
    });
    assert_eq!(history["marks"], "present", "{history}");
    let commands = history["commands"].as_array().unwrap();
    assert_eq!(commands.len(), 2, "the last two: {history}");
    assert_eq!(commands[0]["command"], "ls /nonexistent-path-for-history");
    assert_eq!(commands[0]["exitStatus"], 2, "{history}");
    assert_eq!(commands[1]["command"], "printf 'two\\nlines\\n'");
    assert_eq!(commands[1]["output"], json!(["two", "lines"]));
    assert_eq!(commands[1]["exitStatus"], 0);

    // A recording of a shell that prints no marks: absent, never guessed from its prompt.
    let plain = tmux.first_pane();
    tmux.wait_for_prompt(&plain);
    client.call_ok("pipe_pane", json!({"pane_id": plain, "path": scratch.path("plain")}));
    typed(&tmux, &plain, "echo unmarked", "unmarked\n");
    let absent = client.call_ok("command_history", json!({"pane_id": plain}));
    assert_eq!(absent["marks"], "absent", "{absent}");
    assert!(absent["why"].as_str().unwrap().contains("no OSC 133 marks"), "{absent}");
}
