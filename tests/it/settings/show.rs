//! get_tmux_variables, show_option, show_environment and show_hooks against real tmux
//! servers on private sockets, and bad input to every inspect tool.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::TmuxServer;
use serde_json::{json, Value};

/// The value of variable `name` in a get_tmux_variables reply.
fn value_of<'a>(reply: &'a Value, name: &str) -> Option<&'a Value> {
    reply["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .map(|v| &v["value"])
}

#[test]
fn get_tmux_variables_returns_known_names_and_reports_unknown_ones() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    let reply = client.call_ok(
        "get_tmux_variables",
        json!({"names": ["session_name", "no_such_variable", "version", "session_name"]}),
    );
    assert_eq!(
        reply["variables"],
        json!([
            {"name": "session_name", "value": "main"},
            {"name": "version", "value": tmux.pane_value("main", "#{version}")},
        ])
    );
    assert_eq!(reply["unknown"], json!(["no_such_variable"]));
    assert_eq!(
        reply["context"],
        json!({
            "sessionId": tmux.pane_value("main", "#{session_id}"),
            "windowId": tmux.pane_value("main", "#{window_id}"),
            "paneId": tmux.first_pane(),
        })
    );

    let all = client.call_ok("get_tmux_variables", json!({"names": null}));
    assert_eq!(all["unknown"], json!([]));
    assert!(all["variables"].as_array().unwrap().len() > 50, "{all}");
    assert_eq!(value_of(&all, "pane_id"), Some(&json!(tmux.first_pane())));
    assert_eq!(value_of(&all, "history_limit"), Some(&json!("2000")));
}

#[test]
fn a_program_cannot_forge_variables_or_the_context_through_a_value() {
    // The current pane sits in a directory whose name holds lines shaped like variables.
    let tmux = TmuxServer::start();
    let base = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("forge-{}", tmux.name));
    let evil = base.join("x\npane_id=%999\nsession_id=$77\nwindow_id=@55");
    std::fs::create_dir_all(&evil).unwrap();
    let pane = tmux
        .tmux(&[
            "new-window",
            "-P",
            "-F",
            "#{pane_id}",
            "-c",
            evil.to_str().unwrap(),
            "exec sleep 100000",
        ])
        .trim()
        .to_string();
    let mut client = tmux.paneward();
    for names in [json!(["pane_id", "session_id", "pane_current_path"]), json!(null)] {
        let reply = client.call_ok("get_tmux_variables", json!({ "names": names }));
        assert_eq!(reply["context"]["paneId"], json!(pane), "{names}");
        assert_eq!(
            reply["context"]["sessionId"],
            json!(tmux.pane_value(&pane, "#{session_id}"))
        );
        assert_eq!(
            reply["context"]["windowId"],
            json!(tmux.pane_value(&pane, "#{window_id}"))
        );
        assert_eq!(value_of(&reply, "pane_id"), Some(&json!(pane)), "{names}");
        assert_eq!(
            value_of(&reply, "session_id"),
            Some(&json!(tmux.pane_value(&pane, "#{session_id}")))
        );
        assert_eq!(
            value_of(&reply, "pane_current_path"),
            Some(&json!(evil.to_str().unwrap()))
        );
    }
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn get_tmux_variables_refuses_names_that_are_not_plain_variable_names() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    for (names, pointer) in [
        (json!(["pane_id", "#(touch /tmp/pw-never)"]), "/names/1"),
        (json!(["pane id"]), "/names/0"),
        (json!(["x".repeat(65)]), "/names/0"),
        (json!(vec!["a"; 257]), "/names"),
    ] {
        let text = client.call_err("get_tmux_variables", json!({"names": names}));
        assert!(text.contains(pointer), "{pointer}: {text}");
    }
}

#[test]
fn get_tmux_variables_without_names_or_with_none_or_the_former_null_reads_every_variable() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    for arguments in [json!({}), json!({"names": []}), json!({"names": null})] {
        let reply = client.call_ok("get_tmux_variables", arguments.clone());
        let names: Vec<&str> = reply["variables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"session_name") && names.contains(&"pane_id"),
            "{arguments}: {names:?}"
        );
        assert_eq!(reply["unknown"], json!([]), "{arguments}");
    }
}

#[test]
fn show_option_reads_a_value_set_at_a_level_and_an_inherited_one() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let session = tmux.pane_value(&pane, "#{session_id}");
    let window = tmux.pane_value(&pane, "#{window_id}");
    tmux.tmux(&["set-option", "-t", &session, "status-left", "[work] "]);
    tmux.tmux(&["set-option", "-w", "-t", &window, "remain-on-exit", "on"]);
    let mut client = tmux.paneward();

    let reply = client.call_ok(
        "show_option",
        json!({"name": "status-left", "scope": "session", "target": session}),
    );
    assert_eq!(reply["value"], "[work] ");
    assert_eq!(reply["set"], true);
    assert_eq!(reply["inherited"], false);
    assert_eq!(reply["optionScope"], "session");
    assert_eq!(reply["target"], json!(session));

    // Not set on the pane itself: null without effective, the window's value with it.
    let plain = client.call_ok(
        "show_option",
        json!({"name": "remain-on-exit", "scope": "pane", "target": pane}),
    );
    assert_eq!(
        (plain["set"].clone(), plain["value"].clone()),
        (json!(false), Value::Null)
    );
    let effective = client.call_ok(
        "show_option",
        json!({"name": "remain-on-exit", "scope": "pane", "target": pane, "effective": true}),
    );
    assert_eq!(effective["value"], "on");
    assert_eq!(effective["set"], false);
    assert_eq!(effective["inherited"], true);
    assert_eq!(effective["optionScope"], "window");

    let global = client.call_ok("show_option", json!({"name": "status-left", "scope": "global"}));
    assert_eq!(
        global["value"],
        json!(tmux
            .tmux(&["show-options", "-gv", "status-left"])
            .trim_end_matches('\n'))
    );
    assert_eq!(global["set"], true);

    let default = client.call_ok("show_option", json!({"name": "escape-time"}));
    assert_eq!(default["optionScope"], "server");
    assert_eq!(
        default["value"],
        json!(tmux.tmux(&["show-options", "-sv", "escape-time"]).trim())
    );
}

#[test]
fn show_option_returns_values_exactly_and_arrays_item_by_item() {
    let tmux = TmuxServer::start();
    let awkward = "a \"q\" $x \\ b\tc\nd ~ é #{pane_id} 'single'";
    tmux.tmux(&["set-option", "-g", "@awkward", awkward]);
    tmux.tmux(&["set-option", "-g", "@empty", ""]);
    tmux.tmux(&["set-option", "-g", "@tilde", "~"]);
    let mut client = tmux.paneward();
    for (name, expected) in [("@awkward", awkward), ("@empty", ""), ("@tilde", "~")] {
        let reply = client.call_ok("show_option", json!({"name": name, "scope": "global"}));
        assert_eq!(reply["value"], expected, "{name}");
        assert_eq!(reply["optionScope"], "user");
    }
    let reply = client.call_ok("show_option", json!({"name": "@never-set", "scope": "global"}));
    assert_eq!(
        (reply["set"].clone(), reply["value"].clone()),
        (json!(false), Value::Null)
    );

    tmux.tmux(&["set-option", "-g", "update-environment[5]", "PW_EXTRA"]);
    let reply = client.call_ok("show_option", json!({"name": "update-environment", "scope": "global"}));
    assert_eq!(reply["value"], Value::Null);
    let items = reply["values"].as_array().unwrap();
    assert_eq!(items[0], json!({"index": 0, "value": "DISPLAY"}));
    assert!(items.contains(&json!({"index": 5, "value": "PW_EXTRA"})), "{items:?}");
}

#[test]
fn show_option_refuses_unknown_names_prefixes_and_the_wrong_scope() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let window = tmux.pane_value(&pane, "#{window_id}");
    let mut client = tmux.paneward();
    let cases = [
        (json!({"name": "no-such-option"}), "/name", "no option named"),
        (json!({"name": "history-lim"}), "/name", "no option named"),
        (json!({"name": "#{pane_id}"}), "/name", "exact option name"),
        (
            json!({"name": "history-limit", "scope": "window", "target": window}),
            "/scope",
            "session option",
        ),
        (
            json!({"name": "escape-time", "scope": "session", "target": "$0"}),
            "/scope",
            "server option",
        ),
        (
            json!({"name": "history-limit", "scope": "session"}),
            "/target",
            "session id",
        ),
        (
            json!({"name": "history-limit", "scope": "pane", "target": window}),
            "/target",
            "pane id",
        ),
        (
            json!({"name": "history-limit", "scope": "global", "target": window}),
            "/target",
            "no target",
        ),
        (
            json!({"name": "history-limit", "scope": "everywhere"}),
            "/scope",
            r#"must be one of ["","global","server","session","window","pane"]"#,
        ),
    ];
    for (arguments, field, rule) in cases {
        let text = client.call_err("show_option", arguments.clone());
        assert!(text.contains(field) && text.contains(rule), "{arguments} -> {text}");
    }
    let text = client.call_err(
        "show_option",
        json!({"name": "remain-on-exit", "scope": "window", "target": "@999"}),
    );
    assert!(text.contains("@999"), "{text}");
}

#[test]
fn show_environment_withholds_values_unless_revealed() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["set-environment", "-t", "main", "PW_SECRET", "hunter2\nline two"]);
    tmux.tmux(&["set-environment", "-t", "main", "-r", "PW_REMOVED"]);
    let find = |reply: &Value, name: &str| -> Value {
        reply["variables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} not in {reply}"))
    };

    let mut client = tmux.paneward();
    // With one session, `session` may be omitted.
    let hidden = client.call_ok("show_environment", json!({}));
    assert_eq!(hidden["valuesRevealed"], false);
    assert!(hidden["note"].as_str().unwrap().contains("--reveal-environment"));
    assert_eq!(hidden["session"]["name"], "main");
    assert_eq!(
        find(&hidden, "PW_SECRET"),
        json!({"name": "PW_SECRET", "set": true, "value": null})
    );
    assert_eq!(
        find(&hidden, "PW_REMOVED"),
        json!({"name": "PW_REMOVED", "set": false, "value": null})
    );
    assert!(!hidden.to_string().contains("hunter2"));

    let mut revealing = tmux.paneward_with(&["--reveal-environment"], &[]);
    revealing.initialize();
    let shown = revealing.call_ok("show_environment", json!({"session": "main"}));
    assert_eq!(shown["valuesRevealed"], true);
    assert_eq!(find(&shown, "PW_SECRET")["value"], "hunter2\nline two");
    assert_eq!(find(&shown, "PW_REMOVED")["value"], Value::Null);

    let mut by_env = tmux.paneward_with(&[], &[("PANEWARD_REVEAL_ENVIRONMENT", "1")]);
    by_env.initialize();
    let shown = by_env.call_ok("show_environment", json!({}));
    assert_eq!(find(&shown, "PW_SECRET")["value"], "hunter2\nline two");
}

#[test]
fn show_environment_names_sessions_exactly() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["new-session", "-d", "-s", "mainly", "/bin/sh"]);
    tmux.tmux(&["set-environment", "-t", "mainly", "PW_WHERE", "mainly"]);
    let mut client = tmux.paneward();
    let text = client.call_err("show_environment", json!({}));
    assert!(
        text.contains("/session") && text.contains("2 sessions") && text.contains("\"mainly\""),
        "{text}"
    );
    let text = client.call_err("show_environment", json!({"session": "mai"}));
    assert!(
        text.contains("/session") && text.contains("no session is named"),
        "{text}"
    );
    let main = client.call_ok("show_environment", json!({"session": "main"}));
    assert_eq!(main["session"]["id"], json!(tmux.pane_value("main", "#{session_id}")));
    assert!(!main.to_string().contains("PW_WHERE"), "main is not mainly");
    let mainly = client.call_ok("show_environment", json!({"session": "mainly"}));
    assert!(mainly.to_string().contains("PW_WHERE"));
}

#[test]
fn show_hooks_lists_commands_at_each_level() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let session = tmux.pane_value(&pane, "#{session_id}");
    let window = tmux.pane_value(&pane, "#{window_id}");
    tmux.tmux(&["set-hook", "-g", "after-new-window", "display-message one"]);
    tmux.tmux(&[
        "set-hook",
        "-ga",
        "after-new-window",
        "display-message \"two #{pane_id}\"",
    ]);
    tmux.tmux(&["set-hook", "-t", &session, "session-renamed", "display-message s"]);
    tmux.tmux(&["set-hook", "-w", "-t", &window, "window-renamed", "display-message w"]);
    tmux.tmux(&["set-hook", "-p", "-t", &pane, "pane-focus-in", "display-message p"]);
    let mut client = tmux.paneward();

    let global = client.call_ok("show_hooks", json!({"scope": "global", "name": "after-new-window"}));
    assert_eq!(
        global["hooks"],
        json!([
            {"name": "after-new-window", "index": 0, "command": "display-message one"},
            {"name": "after-new-window", "index": 1, "command": "display-message \"two #{pane_id}\""},
        ])
    );
    for (scope, target, hook) in [
        ("session", &session, "session-renamed"),
        ("window", &window, "window-renamed"),
        ("pane", &pane, "pane-focus-in"),
    ] {
        let reply = client.call_ok("show_hooks", json!({"scope": scope, "target": target}));
        let names: Vec<&str> = reply["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, [hook], "{scope}");
    }
    let default = client.call_ok("show_hooks", json!({"name": "window-renamed", "target": window}));
    assert_eq!(default["hooks"][0]["command"], "display-message w");
    let unset = client.call_ok(
        "show_hooks",
        json!({"name": "pane-died", "scope": "pane", "target": pane}),
    );
    assert_eq!(unset["hooks"], json!([]));

    for (arguments, field, rule) in [
        (
            json!({"name": "after-new-win", "scope": "global"}),
            "/name",
            "no hook named",
        ),
        (json!({"scope": "server"}), "/scope", "no server-level hooks"),
        (
            json!({"name": "window-renamed", "scope": "session", "target": session}),
            "/scope",
            "window hook",
        ),
        (json!({"scope": "window", "target": session}), "/target", "window id"),
        (json!({"name": "@mine"}), "/name", "hook name"),
    ] {
        let text = client.call_err("show_hooks", arguments.clone());
        assert!(text.contains(field) && text.contains(rule), "{arguments} -> {text}");
    }
    let text = client.call_err("show_hooks", json!({"scope": "pane", "target": "%999"}));
    assert!(text.contains("%999"), "{text}");
}

#[test]
fn bad_arguments_to_any_inspect_tool_change_nothing_and_the_server_keeps_serving() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    // The window's name is part of the state: let tmux name it after the shell first.
    tmux.wait_for_prompt(&pane);
    let state = || {
        tmux.tmux(&[
            "list-panes",
            "-a",
            "-F",
            "#{session_name} #{window_id} #{window_name} #{pane_id} #{pane_in_mode} #{history_limit}",
        ]) + &tmux.tmux(&["show-options", "-g"])
            + &tmux.tmux(&["show-environment", "-g"])
    };
    let before = state();
    let mut client = tmux.paneward();
    let cases = [
        ("list_sessions", json!({"all": true}), "/all"),
        ("list_windows", json!({"session": 3}), "/session"),
        ("list_panes", json!({"filter": "x"}), "/filter"),
        ("get_server_info", json!({"verbose": true}), "/verbose"),
        ("get_session_info", json!({"session_id": "main"}), "/session_id"),
        ("get_window_info", json!({"window_id": "main:0"}), "/window_id"),
        ("get_pane_info", json!({"pane_id": "{last}"}), "/pane_id"),
        ("get_pane_info", json!({}), "/pane_id"),
        ("find_pane_by_position", json!({"window_id": "@0"}), "/position"),
        ("get_tmux_variables", json!({"names": ["#(kill-server)"]}), "/names/0"),
        ("show_option", json!({"name": "#(kill-server)"}), "/name"),
        ("show_environment", json!({"session": ["main"]}), "/session"),
        ("show_hooks", json!({"name": "x;kill-server"}), "/name"),
    ];
    for (tool, arguments, field) in cases {
        let text = client.call_err(tool, arguments.clone());
        assert!(text.contains(field), "{tool} {arguments} -> {text}");
        let reply = client.call_ok("get_pane_info", json!({"pane_id": pane}));
        assert_eq!(reply["pane"]["id"], json!(pane));
    }
    assert_eq!(before, state(), "bad calls changed nothing in tmux");
}

#[test]
fn real_tmux_compat_show_options_reads_names_as_formats_and_prefixes() {
    // Why show_option and show_hooks never hand a caller's name to tmux: tmux 3.3a
    // expands it as a format (where `#(...)` would run a shell), completes a prefix,
    // and reads a known option at its own level whatever -w asked for.
    let tmux = TmuxServer::start();
    assert_eq!(
        tmux.tmux(&["show-options", "-g", "#{l:history-limit}"]),
        "history-limit 2000\n"
    );
    assert_eq!(tmux.tmux(&["show-options", "-g", "history-l"]), "history-limit 2000\n");
    let window = tmux.pane_value("main", "#{window_id}");
    assert!(tmux
        .tmux(&["show-options", "-w", "-t", &window, "escape-time"])
        .starts_with("escape-time "));
    tmux.tmux(&["set-hook", "-g", "after-new-window", "display-message x"]);
    assert!(tmux
        .tmux(&["show-hooks", "-g", "#{l:after-new-window}"])
        .starts_with("after-new-window[0]"));
}
