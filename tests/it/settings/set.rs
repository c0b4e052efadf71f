//! Writing settings (`set_option`, `set_environment`) against real tmux servers: what
//! is stored, what is returned for undo, and what is refused.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::TmuxServer;
use serde_json::json;

#[test]
fn set_option_stores_the_value_and_returns_the_previous_one_for_undo() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let session = tmux.pane_value(&pane, "#{session_id}");
    let window = tmux.pane_value(&pane, "#{window_id}");
    let mut client = tmux.paneward();
    let set = |client: &mut crate::support::Client, args: serde_json::Value| client.call_ok("set_option", args);
    let reply = set(
        &mut client,
        json!({"name": "status-left", "scope": "session", "target": session, "value": "one ; 'two'"}),
    );
    assert_eq!(
        reply,
        json!({"name": "status-left", "scope": "session", "target": session, "optionScope": "session",
               "value": "one ; 'two'", "values": null, "previous": null, "previousValues": null})
    );
    assert_eq!(
        tmux.tmux(&["show-options", "-v", "-t", &session, "status-left"]),
        "one ; 'two'\n"
    );
    let reply = set(
        &mut client,
        json!({"name": "status-left", "scope": "session", "target": session, "value": "-x", "append": true}),
    );
    assert_eq!(
        (reply["previous"].clone(), reply["value"].clone()),
        (json!("one ; 'two'"), json!("one ; 'two'-x"))
    );
    let reply = set(
        &mut client,
        json!({"name": "status-left", "scope": "session", "target": session, "unset": true}),
    );
    assert_eq!(
        (reply["previous"].clone(), reply["value"].clone()),
        (json!("one ; 'two'-x"), json!(null))
    );
    assert_eq!(tmux.tmux(&["show-options", "-t", &session, "status-left"]), "");

    let reply = set(
        &mut client,
        json!({"name": "mode-keys", "scope": "window", "target": window, "value": "vi"}),
    );
    assert_eq!(
        (reply["optionScope"].clone(), reply["value"].clone()),
        (json!("window"), json!("vi"))
    );
    assert_eq!(tmux.tmux(&["show-options", "-wv", "-t", &window, "mode-keys"]), "vi\n");
    let reply = set(
        &mut client,
        json!({"name": "@mark", "scope": "pane", "target": pane, "value": "p"}),
    );
    assert_eq!(
        (reply["optionScope"].clone(), reply["value"].clone()),
        (json!("user"), json!("p"))
    );
    assert_eq!(tmux.tmux(&["show-options", "-pv", "-t", &pane, "@mark"]), "p\n");
    let before = tmux.tmux(&["show-options", "-gv", "history-limit"]);
    let reply = set(
        &mut client,
        json!({"name": "history-limit", "scope": "global", "value": "1234"}),
    );
    assert_eq!(reply["previous"], json!(before.trim()));
    assert_eq!(tmux.tmux(&["show-options", "-gv", "history-limit"]), "1234\n");
    let reply = set(
        &mut client,
        json!({"name": "mode-keys", "scope": "global", "value": "vi"}),
    );
    assert_eq!(
        (reply["optionScope"].clone(), reply["previous"].clone()),
        (json!("window"), json!("emacs"))
    );
    assert_eq!(tmux.tmux(&["show-options", "-gwv", "mode-keys"]), "vi\n");
    let reply = set(
        &mut client,
        json!({"name": "escape-time", "scope": "server", "value": "7"}),
    );
    assert_eq!(
        (reply["optionScope"].clone(), reply["value"].clone()),
        (json!("server"), json!("7"))
    );
    // An array option: an appended item shows in values.
    let reply = set(
        &mut client,
        json!({"name": "update-environment", "scope": "global", "value": "MY_VAR", "append": true}),
    );
    assert!(
        reply["values"].as_array().unwrap().contains(&json!("MY_VAR")),
        "{reply}"
    );
    assert!(
        !reply["previousValues"].as_array().unwrap().contains(&json!("MY_VAR")),
        "{reply}"
    );
}

#[test]
fn set_option_needs_a_target_of_the_kind_its_scope_names() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let session = tmux.pane_value(&pane, "#{session_id}");
    let window = tmux.pane_value(&pane, "#{window_id}");
    let mut client = tmux.paneward();
    for (arguments, field) in [
        (
            json!({"name": "status-left", "scope": "session", "target": window, "value": "x"}),
            "/target",
        ),
        (
            json!({"name": "status-left", "scope": "session", "value": "x"}),
            "/target",
        ),
        (
            json!({"name": "status-left", "scope": "global", "target": session, "value": "x"}),
            "/target",
        ),
        (
            json!({"name": "mode-keys", "scope": "session", "target": session, "value": "vi"}),
            "/scope",
        ),
        (
            json!({"name": "status-left", "scope": "window", "target": window, "value": "x"}),
            "/scope",
        ),
        (
            json!({"name": "escape-time", "scope": "pane", "target": pane, "value": "1"}),
            "/scope",
        ),
        (json!({"name": "status-lef", "scope": "global", "value": "x"}), "/name"),
        (json!({"name": "status-left", "value": "x"}), "scope"),
    ] {
        let text = client.call_err("set_option", arguments.clone());
        assert!(text.contains(field), "{arguments}: {text}");
    }
    assert_eq!(tmux.tmux(&["show-options", "-t", &session, "status-left"]), "");
    assert_eq!(tmux.tmux(&["show-options", "-w", "-t", &window]), "");
}

#[test]
fn set_option_refuses_hooks_command_valued_options_and_values_a_format_would_run() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    tmux.tmux(&["set-option", "-g", "status-left", "#"]);
    let hooks_before = tmux.tmux(&["show-hooks", "-g"]) + &tmux.tmux(&["show-hooks", "-gw"]);
    let options_before = tmux.tmux(&["show-options", "-g"]) + &tmux.tmux(&["show-options", "-s"]);
    for (name, why) in [
        ("pane-died", "is a hook"),
        ("after-new-window", "is a hook"),
        ("session-created", "is a hook"),
        ("client-attached", "is a hook"),
        ("window-linked", "is a hook"),
        ("default-command", "holds a command"),
        ("default-shell", "holds a command"),
        ("command-alias", "holds a command"),
        ("lock-command", "holds a command"),
        ("destroy-unattached", "ends sessions or the server"),
        ("exit-unattached", "ends sessions or the server"),
    ] {
        let text = client.call_err(
            "set_option",
            json!({"name": name, "scope": "global", "value": "run-shell 'touch /tmp/x'"}),
        );
        assert!(text.contains("/name") && text.contains(why), "{name}: {text}");
    }
    // A `(` appended to a stored value ending in `#` or `}` would join into `#(` or `}(`.
    let text = client.call_err(
        "set_option",
        json!({"name": "status-left", "scope": "global", "value": "(id)", "append": true}),
    );
    assert!(text.contains("/value") && text.contains("appending"), "{text}");
    for value in ["#(id)", "up #{?1,#(id),}", "#{l:#}(id)"] {
        let text = client.call_err(
            "set_option",
            json!({"name": "status-right", "scope": "global", "value": value}),
        );
        assert!(text.contains("/value"), "{value}: {text}");
        let text = client.call_err(
            "set_option",
            json!({"name": "@theme", "scope": "global", "value": value}),
        );
        assert!(text.contains("/value"), "{value}: {text}");
    }
    assert_eq!(
        tmux.tmux(&["show-hooks", "-g"]) + &tmux.tmux(&["show-hooks", "-gw"]),
        hooks_before
    );
    assert_eq!(
        tmux.tmux(&["show-options", "-g"]) + &tmux.tmux(&["show-options", "-s"]),
        options_before
    );
}

#[test]
fn set_environment_never_returns_the_value_and_says_whether_the_name_existed() {
    let tmux = TmuxServer::start();
    let session = tmux.pane_value(&tmux.first_pane(), "#{session_id}");
    let mut client = tmux.paneward();
    let secret = "s3cr3t-value-e81c";
    let args = json!({"name": "MY_TOKEN", "scope": "session", "session_id": session, "value": secret});
    let result = client.call("set_environment", args.clone());
    assert!(!result.to_string().contains(secret), "{result}");
    assert_eq!(
        result["structuredContent"],
        json!({"name": "MY_TOKEN", "scope": "session", "sessionId": session, "unset": false, "existedBefore": false})
    );
    assert_eq!(
        tmux.tmux(&["show-environment", "-t", &session, "MY_TOKEN"]),
        format!("MY_TOKEN={secret}\n")
    );
    assert_eq!(client.call_ok("set_environment", args)["existedBefore"], true);
    let reply = client.call_ok(
        "set_environment",
        json!({"name": "MY_TOKEN", "scope": "session", "session_id": session, "unset": true}),
    );
    assert_eq!(
        (reply["unset"].clone(), reply["existedBefore"].clone()),
        (json!(true), json!(true))
    );
    assert!(!tmux.try_tmux(&["show-environment", "-t", &session, "MY_TOKEN"]));
    let reply = client.call_ok(
        "set_environment",
        json!({"name": "MY_GLOBAL", "scope": "global", "value": "g"}),
    );
    assert_eq!(
        (reply["sessionId"].clone(), reply["existedBefore"].clone()),
        (json!(null), json!(false))
    );
    assert_eq!(tmux.tmux(&["show-environment", "-g", "MY_GLOBAL"]), "MY_GLOBAL=g\n");
    let text = client.call_err(
        "set_environment",
        json!({"name": "X", "scope": "session", "value": "v"}),
    );
    assert!(text.contains("/session_id"), "{text}");
}

#[test]
fn set_environment_refuses_variables_that_steer_every_shell_unless_forced() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    for name in [
        "BASH_ENV",
        "ENV",
        "PROMPT_COMMAND",
        "LD_PRELOAD",
        "PATH",
        "BASH_FUNC_ls%%",
    ] {
        let result = client.call(
            "set_environment",
            json!({"name": name, "scope": "global", "value": "/tmp/evil"}),
        );
        assert_eq!(result["isError"], true, "{name}: {result}");
    }
    assert!(!tmux.try_tmux(&["show-environment", "-g", "BASH_ENV"]));
    let reply = client.call_ok(
        "set_environment",
        json!({"name": "BASH_ENV", "scope": "global", "value": "/tmp/rc", "force": true}),
    );
    assert_eq!(reply["existedBefore"], false);
    assert_eq!(tmux.tmux(&["show-environment", "-g", "BASH_ENV"]), "BASH_ENV=/tmp/rc\n");
    // Removing one needs no force.
    client.call_ok(
        "set_environment",
        json!({"name": "BASH_ENV", "scope": "global", "unset": true}),
    );
    assert!(!tmux.try_tmux(&["show-environment", "-g", "BASH_ENV"]));
}

/// Every option table's global values and the server's, to show a refusal changed nothing.
fn all_global_options(tmux: &TmuxServer) -> String {
    tmux.tmux(&["show-options", "-g"]) + &tmux.tmux(&["show-options", "-gw"]) + &tmux.tmux(&["show-options", "-s"])
}

#[test]
fn set_option_refuses_every_spelling_of_a_modifier_that_expands_a_value_again() {
    let tmux = TmuxServer::start();
    let window = tmux.pane_value(&tmux.first_pane(), "#{window_id}");
    let mut client = tmux.paneward();
    // A stored value that appended text could complete.
    tmux.tmux(&["set-option", "-g", "status-right", "up #{"]);
    let before = all_global_options(&tmux);
    let window_before = tmux.tmux(&["show-options", "-w", "-t", &window]);
    for value in [
        "#{E:pane_title}",
        "#{T:pane_title}",
        "#{E:pane_current_path}",
        "#{b;E:pane_title}",
        "#{E;=/20:pane_title}",
        "#{s/x/y/;T:pane_title}",
        "up #{?pane_active,#{E:pane_title},}",
        "#{W:#{E:@format}}",
        "#{l:#}{E:pane_title}",
        "#{%pE:pane_title}",
    ] {
        for (name, scope, target) in [
            ("automatic-rename-format", "global", None),
            ("automatic-rename-format", "window", Some(window.as_str())),
            ("status-left", "global", None),
            ("@format", "global", None),
        ] {
            let mut arguments = json!({"name": name, "scope": scope, "value": value});
            if let Some(target) = target {
                arguments["target"] = json!(target);
            }
            let text = client.call_err("set_option", arguments);
            assert!(
                text.contains("/value") && text.contains("format modifier") && text.contains("second time"),
                "{name} = {value}: {text}"
            );
        }
    }
    // Appended text is checked joined to what is stored.
    let text = client.call_err(
        "set_option",
        json!({"name": "status-right", "scope": "global", "value": "E:pane_title}", "append": true}),
    );
    assert!(text.contains("/value") && text.contains("appending"), "{text}");
    assert_eq!(all_global_options(&tmux), before);
    assert_eq!(tmux.tmux(&["show-options", "-w", "-t", &window]), window_before);
}

#[test]
fn a_title_a_program_prints_stays_text_in_the_format_paneward_allows() {
    let tmux = TmuxServer::start();
    let scratch = crate::support::Scratch::new();
    let canary = scratch.path("canary");
    let title = format!("#(touch {canary})");
    // A program sets its pane's title to a job; the window is renamed by tmux's timer.
    let pane = tmux.window_running(&format!("printf '\\033]2;{title}\\033\\\\'; exec sleep 100000"));
    tmux.wait_for_value(&pane, "#{pane_title}", &title);
    let window = tmux.pane_value(&pane, "#{window_id}");
    let mut client = tmux.paneward();
    for value in ["#{E:pane_title}", "#{T:pane_title}"] {
        let text = client.call_err(
            "set_option",
            json!({"name": "automatic-rename-format", "scope": "window", "target": window, "value": value}),
        );
        assert!(text.contains("/value") && text.contains("format modifier"), "{text}");
    }
    client.call_ok(
        "set_option",
        json!({"name": "automatic-rename-format", "scope": "window", "target": window, "value": "#{pane_title}"}),
    );
    // The window takes the title as its name: the format was expanded, and the title
    // in it was text.
    tmux.wait_for_value(&pane, "#{window_name}", &title);
    assert!(!std::path::Path::new(&canary).exists(), "the title ran as a command");
}
