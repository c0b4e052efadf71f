//! Text staged in tmux buffers and pasted into panes (`paste_text`, `load_buffer`,
//! `paste_buffer`, `show_buffer`, `delete_buffer`), against real tmux servers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{strings, Scratch, TmuxServer};
use serde_json::{json, Value};

/// Exactly 1 MiB of lines mixing UTF-8, tabs, quotes, format and command syntax,
/// backslashes, control characters, empty lines and leading dashes; it ends without a
/// newline. Lines are long enough that all of them fit in one `show_buffer` reply.
fn mebibyte_of_mixed_text() -> String {
    let pieces = [
        "--leading -dashes -- \t tab\tand 'single' \"double\" quotes",
        "#{pane_id} #(touch /tmp/never) ##{x} ;; a;b \\; \\\\ back\\slash $HOME ~ `id`",
        "ünïcødé 中文 😀 \u{7f} \u{1b}[31m escape \r carriage",
    ];
    let long_line = pieces.concat().repeat(6);
    let mut text = String::new();
    while text.len() < (1 << 20) - long_line.len() - 8 {
        text.push_str(&long_line);
        text.push_str("\n-\n\n");
    }
    while text.len() < 1 << 20 {
        text.push('x');
    }
    assert_eq!(text.len(), 1 << 20);
    text
}

/// The text `show_buffer` returned, joined back.
fn shown_text(reply: &Value) -> String {
    let lines = strings(&reply["lines"]);
    let mut text = lines.join("\n");
    if reply["endsWithNewline"] == json!(true) {
        text.push('\n');
    }
    text
}

/// The names of every buffer of the server.
fn buffer_names(tmux: &TmuxServer) -> Vec<String> {
    tmux.tmux(&["list-buffers", "-F", "#{buffer_name}"])
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_mebibyte_of_mixed_text_round_trips_byte_for_byte_through_load_buffer_and_show_buffer() {
    let tmux = TmuxServer::start();
    let text = mebibyte_of_mixed_text();
    // Over the control connection, the native client and one tmux process per round
    // trip, which print a buffer differently.
    for args in [
        &[][..],
        &["--no-control-mode"][..],
        &["--no-control-mode", "--no-native-client"][..],
    ] {
        let mut client = tmux.paneward_with(args, &[]);
        client.initialize();
        let loaded = client.call_ok("load_buffer", json!({"text": text, "label": "big"}));
        assert_eq!(loaded["bytes"], 1 << 20);
        let name = loaded["bufferName"].as_str().unwrap().to_string();
        assert!(name.starts_with("paneward_") && name.ends_with("_big"), "{name}");
        // tmux holds exactly the bytes.
        let mut save = tmux.command();
        let saved = save.args(["save-buffer", "-b", &name, "-"]).output().unwrap();
        assert!(saved.stdout == text.as_bytes(), "tmux holds other bytes ({args:?})");

        let shown = client.call_ok("show_buffer", json!({"buffer_name": name, "max_lines": 5000}));
        assert_eq!(shown["truncated"], false);
        assert_eq!(shown["totalBytes"], 1 << 20);
        assert!(shown_text(&shown) == text, "show_buffer changed the text ({args:?})");
        // A text ending in a newline says so.
        let loaded = client.call_ok("load_buffer", json!({"text": "a\\b\tc\n"}));
        let shown = client.call_ok("show_buffer", json!({"buffer_name": loaded["bufferName"]}));
        assert_eq!(shown["lines"], json!(["a\\b\tc"]));
        assert_eq!(shown["endsWithNewline"], true);
    }
}

#[test]
fn staged_text_never_appears_in_the_arguments_of_any_tmux_process_paneward_starts() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    // A tmux that writes its arguments to a log, then runs the real tmux.
    let log = scratch.path("argv.log");
    let wrapper = scratch.path("tmux");
    let real = String::from_utf8(
        std::process::Command::new("sh")
            .args(["-c", "command -v tmux"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> {log}\nexec {} \"$@\"\n",
            real.trim()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let pane = tmux.window_running("exec cat > /dev/null");
    let secret = "argv-canary-5f3a91";
    // The hidden client and the native client start no tmux process: these two ways do.
    for args in [
        &["--tmux", wrapper.as_str(), "--no-hidden-client"][..],
        &["--tmux", wrapper.as_str(), "--no-control-mode", "--no-native-client"][..],
    ] {
        let mut client = tmux.paneward_with(args, &[]);
        client.initialize();
        let loaded = client.call_ok("load_buffer", json!({"text": format!("{secret} load")}));
        client.call_ok("show_buffer", json!({"buffer_name": loaded["bufferName"]}));
        client.call_ok(
            "paste_text",
            json!({"pane_id": pane, "text": format!("{secret} paste")}),
        );
        client.close();
    }
    let logged = scratch.read("argv.log");
    assert!(
        logged.contains("source-file") && logged.contains("-C"),
        "the wrapper ran: {logged}"
    );
    assert!(!logged.contains(secret), "{logged}");
}

#[test]
fn a_paste_reaches_only_its_target_though_synchronize_panes_copies_the_enter_after_it() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let target = tmux.recorder(&scratch.path("target"));
    let sibling = tmux.split(
        &target,
        "-h",
        &format!(
            "while IFS= read -r line; do printf '%s\\n' \"$line\" >> {}; done",
            scratch.path("sibling")
        ),
    );
    tmux.tmux(&["set-option", "-w", "-t", &target, "synchronize-panes", "on"]);
    let mut client = tmux.paneward();
    let reply = client.call_ok("paste_text", json!({"pane_id": target, "text": "pasted line\n"}));
    assert_eq!(
        reply,
        json!({"paneId": target, "bytes": 12, "resolvedPaneIds": [target], "enterPaneIds": []})
    );
    scratch.wait_for_lines("target", 1);
    // With enter, the Enter is a key press, which tmux copies to the sibling.
    let reply = client.call_ok(
        "paste_text",
        json!({"pane_id": target, "text": "second", "enter": true}),
    );
    assert_eq!(reply["resolvedPaneIds"], json!([target]));
    assert_eq!(reply["enterPaneIds"], json!([target, sibling]));
    assert_eq!(scratch.wait_for_lines("target", 2), "pasted line\nsecond\n");
    assert_eq!(
        scratch.wait_for_lines("sibling", 1),
        "\n",
        "the sibling got the Enter and no text"
    );
    assert_eq!(buffer_names(&tmux), Vec::<String>::new(), "paste_text leaves no buffer");
}

#[test]
fn a_paste_is_refused_for_a_pane_that_cannot_take_input_and_for_the_caller_or_a_mode_pane_without_force() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let caller = tmux.first_pane();
    let mut client = tmux.paneward_in(&caller);
    let dead = tmux.dead_pane(0);
    let off = tmux.window_running("exec cat > /dev/null");
    tmux.tmux(&["select-pane", "-d", "-t", &off]);
    let moded = tmux.recorder(&scratch.path("moded"));
    tmux.tmux(&["copy-mode", "-t", &moded]);
    let staged = client.call_ok("load_buffer", json!({"text": "staged\n"}));
    for (pane, rule, forceable) in [
        ("%999999", "does not exist", false),
        (dead.as_str(), "is dead", false),
        (off.as_str(), "input disabled", false),
        (caller.as_str(), "is the caller pane", true),
        (moded.as_str(), "is in a mode", true),
    ] {
        for force in [false, true] {
            if force && forceable {
                continue;
            }
            let text = client.call_err("paste_text", json!({"pane_id": pane, "text": "x\n", "force": force}));
            assert!(text.contains(rule), "{pane}: {text}");
            let text = client.call_err(
                "paste_buffer",
                json!({"buffer_name": staged["bufferName"], "pane_id": pane, "force": force}),
            );
            assert!(text.contains(rule), "{pane}: {text}");
        }
    }
    let staged_name = staged["bufferName"].as_str().unwrap().to_string();
    assert_eq!(
        buffer_names(&tmux),
        [staged_name],
        "a refused paste_text leaves no buffer"
    );
    // With force, a paste reaches the program of a pane in copy mode (tmux 3.3a), and
    // the pane stays in the mode.
    let reply = client.call_ok(
        "paste_text",
        json!({"pane_id": moded, "text": "through\n", "force": true}),
    );
    assert_eq!(reply["resolvedPaneIds"], json!([moded]));
    assert_eq!(scratch.wait_for_lines("moded", 1), "through\n");
    assert_eq!(tmux.pane_value(&moded, "#{pane_in_mode}"), "1");
}

#[test]
fn paste_buffer_pastes_a_staged_buffer_and_deletes_it_only_when_asked_and_a_second_delete_is_safe() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let pane = tmux.recorder(&scratch.path("typed"));
    let mut client = tmux.paneward();
    let name = client.call_ok("load_buffer", json!({"text": "from a buffer\n", "label": "note"}))["bufferName"].clone();
    let reply = client.call_ok("paste_buffer", json!({"buffer_name": name, "pane_id": pane}));
    assert_eq!(
        reply,
        json!({"bufferName": name, "paneId": pane, "deleted": false, "resolvedPaneIds": [pane], "enterPaneIds": []})
    );
    assert_eq!(scratch.wait_for_lines("typed", 1), "from a buffer\n");
    client.call_ok("show_buffer", json!({"buffer_name": name}));
    let reply = client.call_ok(
        "paste_buffer",
        json!({"buffer_name": name, "pane_id": pane, "delete": true}),
    );
    assert_eq!(reply["deleted"], true);
    assert_eq!(scratch.wait_for_lines("typed", 2), "from a buffer\nfrom a buffer\n");
    assert_eq!(buffer_names(&tmux), Vec::<String>::new());
    let text = client.call_err("show_buffer", json!({"buffer_name": name}));
    assert!(text.contains("no buffer named"), "{text}");
    let text = client.call_err("paste_buffer", json!({"buffer_name": name, "pane_id": pane}));
    assert!(text.contains("no buffer named"), "{text}");
    assert_eq!(
        client.call_ok("delete_buffer", json!({"buffer_name": name})),
        json!({"bufferName": name, "existed": false})
    );
    let other = client.call_ok("load_buffer", json!({"text": "x"}))["bufferName"].clone();
    assert_eq!(
        client.call_ok("delete_buffer", json!({"buffer_name": other})),
        json!({"bufferName": other, "existed": true})
    );
    assert_eq!(
        client.call_ok("delete_buffer", json!({"buffer_name": other}))["existed"],
        false
    );
}

#[test]
fn buffers_that_are_not_panewards_are_refused_by_paste_show_and_delete() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("exec cat > /dev/null");
    tmux.tmux(&["set-buffer", "-b", "clipboard", "a person's copy"]);
    tmux.tmux(&["set-buffer", "automatic"]);
    let automatic = buffer_names(&tmux).into_iter().find(|n| n != "clipboard").unwrap();
    let mut client = tmux.paneward();
    for name in ["clipboard", automatic.as_str(), "paneward_", "paneward_clipboard"] {
        for (tool, arguments) in [
            ("show_buffer", json!({"buffer_name": name})),
            ("delete_buffer", json!({"buffer_name": name})),
            ("paste_buffer", json!({"buffer_name": name, "pane_id": pane})),
        ] {
            let text = client.call_err(tool, arguments);
            assert!(text.contains("/buffer_name"), "{tool} {name}: {text}");
        }
    }
    let mut names = buffer_names(&tmux);
    names.sort();
    assert_eq!(names, ["buffer0", "clipboard"]);
}

#[test]
fn show_buffer_keeps_the_newest_lines_and_says_what_was_cut() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let text: String = (1..=10).map(|n| format!("line {n}\n")).collect();
    let name = client.call_ok("load_buffer", json!({"text": text}))["bufferName"].clone();
    let shown = client.call_ok("show_buffer", json!({"buffer_name": name, "max_lines": 3}));
    assert_eq!(shown["lines"], json!(["line 8", "line 9", "line 10"]));
    assert_eq!(shown["truncated"], true);
    assert_eq!(shown["truncatedLines"], 7);
    assert_eq!(shown["truncatedBytes"], 7 * 7);
    assert_eq!(shown["totalBytes"], text.len());
    let text = client.call_err("show_buffer", json!({"buffer_name": name, "max_lines": 5001}));
    assert!(text.contains("/max_lines"), "{text}");
}

#[test]
fn the_buffers_paneward_staged_are_deleted_when_it_exits_cleanly() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["set-buffer", "-b", "clipboard", "kept"]);
    let mut client = tmux.paneward();
    let first = client.call_ok("load_buffer", json!({"text": "one"}))["bufferName"].clone();
    client.call_ok("load_buffer", json!({"text": "two", "label": "x"}));
    client.call_ok("delete_buffer", json!({"buffer_name": first}));
    assert_eq!(buffer_names(&tmux).len(), 2);
    assert!(client.close().success());
    assert_eq!(buffer_names(&tmux), ["clipboard"]);
}

#[test]
fn text_above_a_mebibyte_or_holding_nul_is_refused_and_nothing_is_staged() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("exec cat > /dev/null");
    let mut client = tmux.paneward();
    let big = "é".repeat((1 << 19) + 1);
    for (tool, arguments) in [
        ("load_buffer", json!({"text": big})),
        ("load_buffer", json!({"text": "a\u{0}b"})),
        ("paste_text", json!({"pane_id": pane, "text": big})),
        ("paste_text", json!({"pane_id": pane, "text": ""})),
    ] {
        let text = client.call_err(tool, arguments);
        assert!(text.contains("/text"), "{tool}: {text}");
    }
    assert_eq!(buffer_names(&tmux), Vec::<String>::new());
}

#[test]
fn a_paste_is_bracketed_by_default_when_the_program_asked_for_it_and_not_with_bracket_false() {
    let tmux = TmuxServer::start();
    // The program turns bracketed paste on, then shows what arrives (cat -v).
    let pane = tmux.window_showing("printf '\\033[?2004h'; stty -echo; echo ready; exec cat -v", "ready");
    let mut client = tmux.paneward();
    client.call_ok("paste_text", json!({"pane_id": pane, "text": "one\n"}));
    tmux.wait_for_text(&pane, "^[[200~one");
    client.call_ok(
        "paste_text",
        json!({"pane_id": pane, "text": "two", "bracket": false, "enter": true}),
    );
    // The line reads `^[[201~two`: the end of the first paste, then the bare text.
    tmux.wait_for_text(&pane, "~two");
    assert!(!tmux.capture(&pane).contains("[200~two"), "{}", tmux.capture(&pane));
}

#[test]
fn a_bracketed_paste_cannot_end_its_own_brackets_and_run_a_line() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let canary = scratch.path("CANARY");
    // bash's readline asks for bracketed paste.
    let pane = tmux.window_running("exec bash --norc --noprofile");
    tmux.wait_for_value(&pane, "#{pane_current_command}", "bash");
    tmux.wait_for_text(&pane, "bash-");
    let mut client = tmux.paneward();
    let before = tmux.capture(&pane);
    let text = format!("echo x \u{1b}[201~; touch {canary}\r");
    let error = client.call_err("paste_text", json!({"pane_id": pane, "text": text}));
    assert!(error.contains("/text") && error.contains("ESC"), "{error}");
    assert_eq!(buffer_names(&tmux), Vec::<String>::new());
    // Unbracketed, a line break is refused unless enter says to submit.
    let error = client.call_err(
        "paste_text",
        json!({"pane_id": pane, "text": format!("touch {canary}\n"), "bracket": false}),
    );
    assert!(error.contains("line break"), "{error}");
    // Staged first, the same text is refused by paste_buffer.
    let staged = client.call_ok(
        "load_buffer",
        json!({"text": format!("echo x \u{1b}[201~; touch {canary}\r")}),
    );
    let name = staged["bufferName"].as_str().unwrap();
    let error = client.call_err("paste_buffer", json!({"buffer_name": name, "pane_id": pane}));
    assert!(error.contains("/buffer_name") && error.contains("ESC"), "{error}");
    client.call_ok("delete_buffer", json!({"buffer_name": name}));
    // A proof that the pane takes input: a harmless paste shows, and nothing ran.
    client.call_ok("paste_text", json!({"pane_id": pane, "text": "pasted-marker"}));
    tmux.wait_for_text(&pane, "pasted-marker");
    assert!(before.contains("bash-"));
    assert!(!std::path::Path::new(&canary).exists(), "the paste ran a line");
}
