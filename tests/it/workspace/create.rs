//! Creating sessions, windows and panes (`create_session`, `create_window`,
//! `split_window`) against real tmux servers: detached by default, marked as
//! paneward's in the same step, names and directories kept as data, commands run
//! without a shell unless one is asked for.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::{wait_for, Scratch, TmuxServer};
use serde_json::json;

/// The ownership mark of each level, as `show-options -v` prints it ("" when unset).
fn mark(tmux: &TmuxServer, level: &str, target: &str) -> String {
    let (flag, option) = match level {
        "session" => ("-qv", "@paneward_owned_session"),
        "window" => ("-wqv", "@paneward_owned_window"),
        _ => ("-pqv", "@paneward_owned_pane"),
    };
    tmux.tmux(&["show-options", flag, "-t", target, option])
        .trim()
        .to_string()
}

/// The names in the scratch directory, sorted.
fn files_in(scratch: &Scratch) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(scratch.path(""))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn session_names(tmux: &TmuxServer) -> Vec<String> {
    tmux.tmux(&["list-sessions", "-F", "#{session_name}"])
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn create_session_is_detached_sized_marked_and_reports_the_stored_name() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "create_session",
        json!({"name": "work.one:x", "window_name": "editor", "width": 100, "height": 30}),
    );
    assert_eq!(reply["name"], json!("work_one_x"), "{reply}");
    assert_eq!(
        (reply["width"].clone(), reply["height"].clone()),
        (json!(100), json!(30))
    );
    let (session, window, pane) = (
        reply["sessionId"].as_str().unwrap().to_string(),
        reply["windowId"].as_str().unwrap().to_string(),
        reply["paneId"].as_str().unwrap().to_string(),
    );
    assert_eq!(
        tmux.pane_value(&pane, "#{session_id} #{window_id} #{window_name} #{session_attached}"),
        format!("{session} {window} editor 0")
    );
    assert_eq!(mark(&tmux, "session", &session), "1");
    assert_eq!(mark(&tmux, "window", &window), "1");
    assert_eq!(mark(&tmux, "pane", &pane), "1");
    // Nothing of the person's is marked, and no temporary name is left behind.
    assert_eq!(mark(&tmux, "session", "main"), "");
    assert_eq!(mark(&tmux, "pane", &tmux.first_pane()), "");
    let names = session_names(&tmux);
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().all(|n| !n.starts_with("paneward-new-")), "{names:?}");

    // Without a name, a short one of paneward's.
    let unnamed = client.call_ok("create_session", json!({}));
    let name = unnamed["name"].as_str().unwrap();
    assert!(
        name.len() == 17 && name.starts_with("paneward-") && name[9..].bytes().all(|b| b.is_ascii_hexdigit()),
        "{name}"
    );
    assert_eq!(mark(&tmux, "session", unnamed["sessionId"].as_str().unwrap()), "1");
}

#[test]
fn format_text_in_names_titles_and_directories_never_runs_or_expands() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let job = |name: &str| format!("#(touch {})", scratch.path(name));
    // A directory whose name is format text: if tmux expanded it, the pane would start
    // in a directory that does not exist, which tmux silently replaces.
    let directory = scratch.path("#{pane_id}#S#(true)");
    std::fs::create_dir_all(&directory).unwrap();
    let mut client = tmux.paneward();

    let name = format!("{}#{{pane_id}}.x", job("session"));
    let created = client.call_ok(
        "create_session",
        json!({"name": name, "window_name": format!("{}#W", job("window")), "start_directory": directory}),
    );
    assert_eq!(created["name"], json!(name.replace('.', "_")));
    let pane = created["paneId"].as_str().unwrap().to_string();
    assert_eq!(tmux.pane_value(&pane, "#{window_name}"), format!("{}#W", job("window")));
    tmux.wait_for_value(&pane, "#{pane_current_path}", &directory);

    let session = created["sessionId"].as_str().unwrap().to_string();
    let window = client.call_ok(
        "create_window",
        json!({"session_id": session, "name": format!("{}#{{window_id}}", job("new-window")), "start_directory": directory}),
    );
    assert_eq!(window["name"], json!(format!("{}#{{window_id}}", job("new-window"))));
    tmux.wait_for_value(window["paneId"].as_str().unwrap(), "#{pane_current_path}", &directory);

    let split = client.call_ok("split_window", json!({"pane_id": pane, "start_directory": directory}));
    tmux.wait_for_value(split["paneId"].as_str().unwrap(), "#{pane_current_path}", &directory);

    let renamed = client.call_ok(
        "rename_session",
        json!({"session_id": session, "name": format!("{}#{{session_id}}", job("rename-session"))}),
    );
    assert_eq!(
        renamed["name"],
        json!(format!("{}#{{session_id}}", job("rename-session")))
    );
    let window_id = window["windowId"].as_str().unwrap();
    let renamed = client.call_ok(
        "rename_window",
        json!({"window_id": window_id, "name": format!("{}#S", job("rename-window"))}),
    );
    assert_eq!(renamed["name"], json!(format!("{}#S", job("rename-window"))));
    let titled = client.call_ok(
        "set_pane_title",
        json!({"pane_id": pane, "title": format!("{}#{{pane_id}}", job("title"))}),
    );
    assert_eq!(titled["title"], json!(format!("{}#{{pane_id}}", job("title"))));
    assert_eq!(
        tmux.pane_value(&pane, "#{pane_title}"),
        format!("{}#{{pane_id}}", job("title"))
    );

    // The server does run jobs: a control job started last finishes, and none of ours
    // ever ran.
    // tmux kills a format job when the client that asked for it exits, so the control
    // job's client stays until the job has had time to run (`run-shell` blocks it).
    tmux.tmux(&["display-message", "-p", &job("control"), ";", "run-shell", "sleep 0.5"]);
    wait_for("the control job", || {
        files_in(&scratch).contains(&"control".to_string()).then_some(())
    });
    let files = files_in(&scratch);
    assert_eq!(files, ["#{pane_id}#S#(true)", "control"], "{files:?}");
}

#[test]
fn commands_run_without_a_shell_unless_a_shell_is_asked_for() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let mut client = tmux.paneward();
    let session = tmux.pane_value("main", "#{session_id}");
    tmux.tmux(&["set-option", "-g", "remain-on-exit", "on"]);

    // One word: through a shell, this would create the file; run as a program name, it
    // is not found.
    let one_word = client.call_ok(
        "create_window",
        json!({"session_id": session, "command": [format!("touch {}", scratch.path("shell-ran"))]}),
    );
    let pane = one_word["paneId"].as_str().unwrap();
    tmux.wait_for_value(pane, "#{pane_dead}", "1");
    assert_eq!(scratch.read("shell-ran"), "");
    // A working one-word command runs as itself, started through env, not sh -c.
    let cat = client.call_ok("create_window", json!({"session_id": session, "command": ["cat"]}));
    let cat = cat["paneId"].as_str().unwrap();
    tmux.wait_for_value(cat, "#{pane_current_command}", "cat");
    assert_eq!(tmux.pane_value(cat, "#{pane_start_command}"), "/usr/bin/env -- cat");

    // Several words are an argument vector: `$HOME` and `;` reach the program as text.
    let out = scratch.path("argv");
    let argv = client.call_ok(
        "split_window",
        json!({"pane_id": cat, "command": ["sh", "-c", "printf '%s|' \"$@\" > \"$0\"", out, "$HOME", "a;b", "#{pane_id}"]}),
    );
    assert!(argv["paneId"].as_str().unwrap().starts_with('%'));
    wait_for("the argument vector", || {
        (!scratch.read("argv").is_empty()).then_some(())
    });
    assert_eq!(scratch.read("argv"), "$HOME|a;b|#{pane_id}|");

    // `shell` is a shell line, with the environment given; the value is never echoed.
    let secret = "s3cr3t value";
    let result = client.call(
        "create_window",
        json!({"session_id": session, "shell": format!("printf '%s' \"$PW_SECRET\" > {}", scratch.path("env")),
               "environment": {"PW_SECRET": secret}}),
    );
    assert_ne!(result["isError"], json!(true), "{result}");
    assert!(!result.to_string().contains(secret), "{result}");
    wait_for("the shell line", || (!scratch.read("env").is_empty()).then_some(()));
    assert_eq!(scratch.read("env"), secret);

    // Refused before anything changes, naming the field, never repeating a value.
    let windows = tmux.tmux(&["list-windows", "-a", "-F", "#{window_id}"]);
    let bad_name = client.call_err(
        "create_window",
        json!({"session_id": session, "environment": {"1BAD": secret}}),
    );
    assert!(
        bad_name.contains("/environment") && !bad_name.contains(secret),
        "{bad_name}"
    );
    let nul = client.call_err(
        "create_window",
        json!({"session_id": session, "environment": {"OK": "a\u{0}b"}}),
    );
    assert!(nul.contains("/environment/OK") && nul.contains("NUL"), "{nul}");
    let both = client.call_err(
        "create_window",
        json!({"session_id": session, "command": ["true"], "shell": "true"}),
    );
    assert!(both.contains("/shell") && both.contains("not both"), "{both}");
    let long = client.call_err(
        "create_window",
        json!({"session_id": session, "command": ["true", "x".repeat(70_000)]}),
    );
    assert!(long.contains("65536 bytes"), "{long}");
    assert_eq!(tmux.tmux(&["list-windows", "-a", "-F", "#{window_id}"]), windows);
}

#[test]
fn create_window_leaves_the_view_alone_and_marks_the_window_and_its_pane() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let session = tmux.pane_value("main", "#{session_id}");
    let current = tmux.pane_value("main", "#{window_id}");
    let made = client.call_ok("create_window", json!({"session_id": session, "name": "w"}));
    assert_eq!(made["index"], json!(1));
    assert_eq!(
        tmux.pane_value("main", "#{window_id}"),
        current,
        "the session stayed where it was"
    );
    let (window, pane) = (made["windowId"].as_str().unwrap(), made["paneId"].as_str().unwrap());
    assert_eq!(
        (mark(&tmux, "window", window), mark(&tmux, "pane", pane)),
        ("1".into(), "1".into())
    );
    assert_eq!(mark(&tmux, "window", &current), "");
    assert_eq!((made["width"].clone(), made["height"].clone()), (json!(80), json!(24)));

    // A chosen index; a taken one is refused; the lowest free one is the default.
    let at = client.call_ok("create_window", json!({"session_id": session, "index": 5}));
    assert_eq!(at["index"], json!(5));
    assert_eq!(mark(&tmux, "pane", at["paneId"].as_str().unwrap()), "1");
    let taken = client.call_err("create_window", json!({"session_id": session, "index": 5}));
    assert!(
        taken.contains("/index") && taken.contains("nothing was created"),
        "{taken}"
    );
    tmux.tmux(&["set-option", "-t", "main", "base-index", "3"]);
    let next = client.call_ok("create_window", json!({"session_id": session}));
    assert_eq!(next["index"], json!(3));

    // select: true switches the session to it.
    let selected = client.call_ok("create_window", json!({"session_id": session, "select": true}));
    assert_eq!(
        tmux.pane_value("main", "#{window_id}"),
        selected["windowId"].as_str().unwrap()
    );
}

#[test]
fn split_window_places_sizes_and_marks_only_the_new_pane_without_taking_focus() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let first = tmux.first_pane();
    let second = tmux.split(&first, "-v", "/bin/sh");
    let right = client.call_ok(
        "split_window",
        json!({"pane_id": second, "direction": "right", "size_percent": 25}),
    );
    let new = right["paneId"].as_str().unwrap();
    assert_eq!(right["splitPaneId"], json!(second));
    assert_eq!(
        right["width"],
        json!(tmux.pane_value(new, "#{pane_width}").parse::<i64>().unwrap())
    );
    assert_eq!(
        tmux.pane_value(new, "#{pane_width}"),
        "20",
        "25% of the 80 columns of the pane split"
    );
    assert_eq!(tmux.pane_value(&first, "#{pane_active}"), "1", "focus stayed");
    assert_eq!(mark(&tmux, "pane", new), "1");
    assert_eq!(
        (mark(&tmux, "pane", &first), mark(&tmux, "pane", &second)),
        (String::new(), String::new())
    );

    let above = client.call_ok(
        "split_window",
        json!({"pane_id": second, "direction": "above", "size_cells": 4}),
    );
    let above = above["paneId"].as_str().unwrap();
    assert_eq!(tmux.pane_value(above, "#{pane_height}"), "4");
    assert_eq!(mark(&tmux, "pane", above), "1");
    assert_eq!(
        mark(&tmux, "pane", &second),
        "",
        "the pane split before it is not marked"
    );
    let marked: Vec<String> = tmux
        .tmux(&["list-panes", "-F", "#{pane_id}=#{@paneward_owned_pane}", "-t", "main:0"])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(
        marked,
        [
            format!("{first}="),
            format!("{above}=1"),
            format!("{second}="),
            format!("{new}=1")
        ]
    );

    let both = client.call_err(
        "split_window",
        json!({"pane_id": first, "size_cells": 3, "size_percent": 10}),
    );
    assert!(both.contains("/size_percent"), "{both}");
    let selected = client.call_ok("split_window", json!({"pane_id": first, "select": true}));
    assert_eq!(
        tmux.pane_value(selected["paneId"].as_str().unwrap(), "#{pane_active}"),
        "1"
    );
}

#[test]
fn targets_are_ids_and_bad_places_are_refused_before_anything_changes() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["new-session", "-d", "-s", "alpha"]);
    tmux.tmux(&["new-session", "-d", "-s", "a_b"]);
    let mut client = tmux.paneward();
    let before = tmux.tmux(&["list-panes", "-a", "-F", "#{session_name} #{window_id} #{pane_id}"]);
    for (tool, arguments, field) in [
        ("create_window", json!({"session_id": "alp"}), "/session_id"),
        ("create_window", json!({"session_id": "alpha:"}), "/session_id"),
        ("split_window", json!({"pane_id": "main:0.0"}), "/pane_id"),
        (
            "rename_session",
            json!({"session_id": "alp", "name": "x"}),
            "/session_id",
        ),
        (
            "rename_window",
            json!({"window_id": "main:0", "name": "x"}),
            "/window_id",
        ),
        ("set_pane_title", json!({"pane_id": "{last}", "title": "x"}), "/pane_id"),
        (
            "create_session",
            json!({"name": "x", "start_directory": "/no/such/directory"}),
            "/start_directory",
        ),
        (
            "create_session",
            json!({"name": "x", "start_directory": "relative/dir"}),
            "/start_directory",
        ),
        ("create_session", json!({"name": ""}), "/name"),
        ("create_session", json!({"name": "main"}), "/name"),
        ("create_session", json!({"name": "line\nbreak"}), "/name"),
        ("rename_session", json!({"session_id": "$0", "name": "alpha"}), "/name"),
    ] {
        let error = client.call_err(tool, arguments.clone());
        assert!(error.contains(field), "{tool} {arguments}: {error}");
    }
    // tmux would store a.b as a_b, which exists.
    let duplicate = client.call_err("create_session", json!({"name": "a.b"}));
    assert!(duplicate.contains("\"a_b\" exists already"), "{duplicate}");
    assert_eq!(
        tmux.tmux(&["list-panes", "-a", "-F", "#{session_name} #{window_id} #{pane_id}"]),
        before
    );
    for (tool, arguments) in [
        ("create_window", json!({"session_id": "$99"})),
        ("split_window", json!({"pane_id": "%99"})),
        ("rename_session", json!({"session_id": "$99", "name": "x"})),
        ("rename_window", json!({"window_id": "@99", "name": "x"})),
        ("set_pane_title", json!({"pane_id": "%99", "title": "x"})),
    ] {
        let missing = client.call(tool, arguments);
        assert_eq!(
            missing["_meta"]["paneward/error"]["kind"],
            json!("notFound"),
            "{tool}: {missing}"
        );
    }
}

#[test]
fn renames_and_titles_report_what_was_there_before() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let pane = tmux.first_pane();
    let session = tmux.pane_value(&pane, "#{session_id}");
    let window = tmux.pane_value(&pane, "#{window_id}");

    let renamed = client.call_ok("rename_session", json!({"session_id": session, "name": "a.b"}));
    assert_eq!(
        renamed,
        json!({"sessionId": session, "previousName": "main", "name": "a_b"})
    );
    let renamed = client.call_ok("rename_window", json!({"window_id": window, "name": "editor"}));
    assert_eq!(renamed["previousAutomaticRename"], json!(true), "{renamed}");
    assert_eq!(renamed["name"], json!("editor"));
    assert_eq!(tmux.pane_value(&window, "#{automatic-rename}"), "0");
    let again = client.call_ok("rename_window", json!({"window_id": window, "name": "two"}));
    assert_eq!(
        (again["previousName"].clone(), again["previousAutomaticRename"].clone()),
        (json!("editor"), json!(false))
    );

    let other = tmux.split(&pane, "-h", "/bin/sh");
    let before = tmux.pane_value(&other, "#{pane_title}");
    let titled = client.call_ok("set_pane_title", json!({"pane_id": other, "title": "build"}));
    assert_eq!(
        titled,
        json!({"paneId": other, "previousTitle": before, "title": "build"})
    );
    assert_eq!(
        tmux.pane_value(&pane, "#{pane_active}"),
        "1",
        "setting a title selects nothing"
    );
    let cleared = client.call_ok("set_pane_title", json!({"pane_id": other, "title": ""}));
    assert_eq!(
        (cleared["previousTitle"].clone(), cleared["title"].clone()),
        (json!("build"), json!(""))
    );
    let control = client.call_err("set_pane_title", json!({"pane_id": other, "title": "a\u{7}b"}));
    assert!(control.contains("/title") && control.contains("control"), "{control}");
}

#[test]
fn environment_values_and_command_words_stay_out_of_errors_and_logs() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let log = scratch.path("paneward.log");
    // paneward's own log at its most detailed (rmcp's trace level prints whole requests).
    let mut client = crate::support::Client::spawn_with_stderr(
        &["-L", &tmux.name],
        &[("PANEWARD_LOG", "trace,rmcp=warn")],
        std::process::Stdio::from(std::fs::File::create(&log).unwrap()),
    );
    client.initialize();
    // A pane too small to split: tmux refuses with the command still holding the secrets.
    let tiny = tmux
        .tmux(&[
            "new-session",
            "-d",
            "-s",
            "tiny",
            "-x",
            "2",
            "-y",
            "2",
            "-P",
            "-F",
            "#{pane_id}",
        ])
        .trim()
        .to_string();
    let (secret, word) = ("value-s3cr3t", "word-s3cr3t");
    let error = client.call_err(
        "split_window",
        json!({"pane_id": tiny, "command": ["printf", word], "environment": {"PW_SECRET": secret}}),
    );
    assert!(error.contains("no space"), "{error}");
    let made = client.call_ok(
        "create_window",
        json!({"session_id": "$0", "command": ["printf", word], "environment": {"PW_SECRET": secret}}),
    );
    assert!(!made.to_string().contains(secret));
    drop(client);
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(!logged.is_empty(), "the log was written");
    for text in [&error, &logged] {
        assert!(!text.contains(secret) && !text.contains(word), "{text}");
    }
}

/// tmux 3.3a keeps a run of `#` before `[` through format expansion as it is, and its
/// names go through `vis`: both used to alter what the caller wrote (issue 30, 8 and 9).
#[test]
fn names_titles_and_directories_are_stored_exactly_as_written_or_refused() {
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    let directory = scratch.path("d#[x ##[y");
    std::fs::create_dir_all(&directory).unwrap();
    let mut client = tmux.paneward();

    let created = client.call_ok(
        "create_session",
        json!({"name": "s#[x ##[y #", "window_name": "w#[z", "start_directory": directory}),
    );
    assert_eq!(created["name"], json!("s#[x ##[y #"), "{created}");
    let (session, pane) = (
        created["sessionId"].as_str().unwrap().to_string(),
        created["paneId"].as_str().unwrap().to_string(),
    );
    assert_eq!(
        tmux.pane_value(&pane, "#{session_name}|#{window_name}"),
        "s#[x ##[y #|w#[z"
    );
    tmux.wait_for_value(&pane, "#{pane_current_path}", &directory);
    let window = client.call_ok(
        "create_window",
        json!({"session_id": session, "name": "n###[1", "start_directory": directory}),
    );
    assert_eq!(window["name"], json!("n###[1"), "{window}");
    tmux.wait_for_value(window["paneId"].as_str().unwrap(), "#{pane_current_path}", &directory);
    let split = client.call_ok("split_window", json!({"pane_id": pane, "start_directory": directory}));
    tmux.wait_for_value(split["paneId"].as_str().unwrap(), "#{pane_current_path}", &directory);

    let window_id = window["windowId"].as_str().unwrap();
    let renamed = client.call_ok("rename_session", json!({"session_id": session, "name": "r#[s x$ $1"}));
    assert_eq!(renamed["name"], json!("r#[s x$ $1"));
    let renamed = client.call_ok("rename_window", json!({"window_id": window_id, "name": "q##[t"}));
    assert_eq!(renamed["name"], json!("q##[t"));
    assert_eq!(tmux.pane_value(window_id, "#{window_name}"), "q##[t");
    // A title is stored raw: backslashes and `$` stay.
    let titled = client.call_ok("set_pane_title", json!({"pane_id": pane, "title": "t#[u a\\b x$HOME"}));
    assert_eq!(titled["title"], json!("t#[u a\\b x$HOME"));
    assert_eq!(tmux.pane_value(&pane, "#{pane_title}"), "t#[u a\\b x$HOME");

    // What tmux would alter is refused, naming the field, and nothing changes.
    let sessions = session_names(&tmux);
    for (name, rule) in [("a\\b", "backslash"), ("x$HOME", "$ before"), ("p\\;q", "backslash")] {
        let error = client.call_err("create_session", json!({"name": name}));
        assert!(error.contains("/name") && error.contains(rule), "{name}: {error}");
        let error = client.call_err("rename_session", json!({"session_id": session, "name": name}));
        assert!(error.contains("/name") && error.contains(rule), "{name}: {error}");
        let error = client.call_err("rename_window", json!({"window_id": window_id, "name": name}));
        assert!(error.contains("/name") && error.contains(rule), "{name}: {error}");
    }
    assert_eq!(session_names(&tmux), sessions);
    assert_eq!(
        tmux.pane_value(window_id, "#{session_name}|#{window_name}"),
        "r#[s x$ $1|q##[t"
    );
    let error = client.call_err("set_pane_title", json!({"pane_id": pane, "title": "a\u{2028}b"}));
    assert!(error.contains("/title") && error.contains("cannot display"), "{error}");
    assert_eq!(tmux.pane_value(&pane, "#{pane_title}"), "t#[u a\\b x$HOME");
}
