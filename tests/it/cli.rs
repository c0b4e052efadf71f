//! The operator's commands: `paneward call`, `paneward doctor`, and the notice a
//! person sees when starting the server at a terminal.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::process::{Command, Output};

use serde_json::{json, Value};

use crate::support::{clean_env, TmuxServer};

fn paneward(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    command.envs(env.iter().copied()).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn call_prints_the_structured_result_as_json() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_showing("echo called-from-a-shell", "called-from-a-shell");
    let out = paneward(&["call", "list_panes", "-L", &tmux.name], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let panes: Value = serde_json::from_slice(&out.stdout).unwrap();
    crate::support::assert_valid_output("list_panes", &panes);
    assert!(text(&out.stdout).contains("\n  "), "pretty-printed");
    let args = json!({"pane_id": pane}).to_string();
    let out = paneward(&["-L", &tmux.name, "call", "snapshot_pane", &args], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let snapshot: Value = serde_json::from_slice(&out.stdout).unwrap();
    crate::support::assert_valid_output("snapshot_pane", &snapshot);
    assert!(snapshot.to_string().contains("called-from-a-shell"));
}

#[test]
fn call_errors_go_to_stderr_with_status_one_and_nothing_changes() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    // Bad input: the pointer and rule, exit 1.
    let out = paneward(&["-L", &tmux.name, "call", "capture_pane", r#"{"pane_id": 7}"#], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("/pane_id"), "{}", text(&out.stderr));
    // The tier holds: send_keys is refused at readonly, and nothing is typed.
    let args = json!({"paneId": pane, "keys": "echo typed-by-call", "enter": true}).to_string();
    let out = paneward(
        &["-L", &tmux.name, "--safety", "readonly", "call", "send_keys", &args],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("send_keys"), "{}", text(&out.stderr));
    assert!(!tmux.capture(&pane).contains("typed-by-call"));
    let out = paneward(&["-L", &tmux.name, "call", "no_such_tool"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let out = paneward(&["-L", &tmux.name, "call", "list_panes", "[]"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("JSON object"));
}

#[test]
fn doctor_reports_a_server_that_answers_and_exits_zero() {
    let tmux = TmuxServer::start();
    tmux.window_running("exec sleep 100000");
    let out = paneward(&["doctor", "-L", &tmux.name], &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!("socket name {:?} (-L), chosen by --socket-name", tmux.name)),
        "{stdout}"
    );
    assert!(stdout.contains("1 sessions, 2 windows, 2 panes"), "{stdout}");
    assert!(stdout.contains("safety tier    mutating"), "{stdout}");
    assert!(stdout.contains("profile        default"), "{stdout}");
    assert!(stdout.contains("caller pane    none: not run inside tmux"), "{stdout}");
    assert!(stdout.contains("connection     control mode"), "{stdout}");
    assert!(stdout.contains("ok: paneward can serve"), "{stdout}");

    let out = paneward(
        &["doctor", "--no-control-mode", "--profile", "python"],
        &[("PANEWARD_SOCKET_NAME", &tmux.name)],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("chosen by PANEWARD_SOCKET_NAME"), "{stdout}");
    assert!(stdout.contains("profile        python"), "{stdout}");
    assert!(
        stdout.contains("tmux's client protocol over its socket, no process per call: control mode is off"),
        "{stdout}"
    );
}

#[test]
fn doctor_says_why_control_mode_is_refused() {
    let tmux = TmuxServer::start();
    tmux.tmux(&["set-option", "-g", "detach-on-destroy", "no-detached"]);
    let out = paneward(&["doctor", "-L", &tmux.name], &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(
            "tmux's client protocol over its socket, no process per call: a session uses detach-on-destroy no-detached"
        ),
        "{stdout}"
    );
}

#[test]
fn doctor_says_when_the_native_client_cannot_speak_to_tmux() {
    let tmux = TmuxServer::start();
    let out = paneward(
        &["doctor", "-L", &tmux.name, "--no-control-mode"],
        &[("PANEWARD_NATIVE_PROTOCOL", "7")],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("one tmux process per call (tmux speaks client protocol version 8, paneward spoke 7)"),
        "{stdout}"
    );
}

#[test]
fn doctor_without_a_server_exits_one_with_the_reason() {
    let name = format!("pw-doctor-none-{}", std::process::id());
    let out = paneward(&["doctor", "-L", &name], &[]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no tmux server answers on socket name"), "{stderr}");
    assert!(
        text(&out.stdout).contains("server         does not answer"),
        "{}",
        text(&out.stdout)
    );
    let out = paneward(&["doctor", "--tmux", "/nonexistent/tmux"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot run tmux"), "{}", text(&out.stderr));
}

#[test]
fn help_lists_every_flag_and_subcommand_as_defined() {
    use paneward::cli::flags::FLAGS;
    use paneward::cli::help::env_note;
    use paneward::cli::parse::SUBCOMMANDS;
    let out = paneward(&["--help"], &[]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for flag in FLAGS {
        // Its spelling starts a line, its first line of help beside it, under its section.
        let line = help
            .lines()
            .find(|line| {
                line.trim_start().starts_with(&flag.spelling().trim_start().to_string()) && line.contains(flag.help[0])
            })
            .unwrap_or_else(|| panic!("--help lacks {} with {:?}", flag.spelling(), flag.help[0]));
        let section = help.find(flag.section.heading()).expect("its section");
        assert!(
            help[section..].contains(line),
            "{} is listed outside {:?}",
            flag.long,
            flag.section.heading()
        );
        for more in flag.help {
            assert!(help.contains(more), "--help lacks {more:?} of --{}", flag.long);
        }
        if let Some(note) = env_note(flag) {
            assert!(help.contains(&note), "--help lacks {note} of --{}", flag.long);
        }
    }
    for command in SUBCOMMANDS.iter().chain(&["conform"]) {
        assert!(
            help.contains(&format!("\n  paneward {command} ")),
            "--help lacks paneward {command}"
        );
    }
    // And nothing the parser does not know: every --flag the text names is defined.
    for word in help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if let Some(long) = word.strip_prefix("--").filter(|long| !long.is_empty()) {
            assert!(
                FLAGS.iter().any(|flag| flag.long == long),
                "--help names --{long}, which no flag defines"
            );
        }
    }
}

#[test]
fn at_a_terminal_the_server_says_how_it_is_meant_to_be_run_and_then_serves() {
    let tmux = TmuxServer::start();
    let binary = env!("CARGO_BIN_EXE_paneward");
    // `script` gives paneward a terminal on standard input; Ctrl-D typed there ends it.
    let mut command = Command::new("script");
    clean_env(&mut command);
    let out = command
        .args(["-qec", &format!("{binary} -L {}", tmux.name), "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"\x04")?;
            child.wait_with_output()
        })
        .expect("run script (util-linux)");
    let seen = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{seen}");
    for line in [
        "paneward is an MCP server",
        "paneward doctor",
        "paneward call list_panes",
    ] {
        assert!(seen.contains(line), "{line:?} missing from:\n{seen}");
    }
    // Started by a client (standard input a pipe), it says nothing of the kind.
    let mut command = Command::new(binary);
    clean_env(&mut command);
    let piped = command
        .args(["-L", &tmux.name])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        !text(&piped.stderr).contains("paneward is an MCP server"),
        "{}",
        text(&piped.stderr)
    );
}

/// A home folder whose `~/.tmux.conf` sets `@from_user_conf`: a server that read it says so.
fn home_with_a_tmux_conf() -> crate::support::Scratch {
    let home = crate::support::Scratch::new();
    std::fs::write(home.path(".tmux.conf"), "set -g @from_user_conf yes\n").unwrap();
    home
}

fn read_user_conf(server: &TmuxServer) -> String {
    server
        .tmux(&["show-options", "-gqv", "@from_user_conf"])
        .trim()
        .to_string()
}

#[test]
fn a_private_server_is_started_by_create_session_without_the_persons_config_and_scoped_to_owned() {
    let name = TmuxServer::unique_name("t");
    let server = TmuxServer::to_be_started(format!("paneward-{name}"));
    let home = home_with_a_tmux_conf();
    let env = [("HOME", home.path("").trim_end_matches('/').to_string())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();

    let out = paneward(&["--private", &name, "doctor"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let doctor = text(&out.stdout);
    assert!(
        doctor.contains(&format!("watch          tmux -L paneward-{name} attach")),
        "{doctor}"
    );
    assert!(doctor.contains("scope          owned"), "{doctor}");
    assert!(doctor.contains("create_session will start it"), "{doctor}");
    assert!(!server.try_tmux(&["list-sessions"]), "doctor started nothing");

    let out = paneward(
        &["--private", &name, "call", "create_session", r#"{"name": "agent"}"#],
        &env,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["serverStarted"], json!(true), "{reply}");
    assert_eq!(server.tmux(&["list-sessions", "-F", "#{session_name}"]).trim(), "agent");
    assert_eq!(read_user_conf(&server), "", "the private server read ~/.tmux.conf");
    // Everything it made is marked; a second create finds the server running.
    let pane = reply["paneId"].as_str().unwrap();
    assert_eq!(
        server
            .tmux(&["show-options", "-pqv", "-t", pane, "@paneward_owned_pane"])
            .trim(),
        "1"
    );
    let out = paneward(&["--private", &name, "call", "create_session", "{}"], &env);
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again.get("serverStarted"), None, "{again}");

    // The scope is owned: a window the person made there is not the agent's.
    let theirs = server
        .tmux(&["new-window", "-d", "-P", "-F", "#{pane_id}"])
        .trim()
        .to_string();
    let args = json!({"pane_id": theirs, "title": "taken"}).to_string();
    let out = paneward(&["--private", &name, "call", "set_pane_title", &args], &env);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--scope owned"), "{}", text(&out.stderr));

    let out = paneward(&["--private", &name, "-L", "other", "doctor"], &env);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--private"), "{}", text(&out.stderr));
    let out = paneward(&["--private", "a/b", "doctor"], &env);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn create_session_starts_a_server_on_a_named_socket_only_when_start_server_allows_it() {
    let server = TmuxServer::to_be_started(TmuxServer::unique_name("pw-start-"));
    let home = home_with_a_tmux_conf();
    let home_path = home.path("").trim_end_matches('/').to_string();
    let env = [("HOME", home_path.as_str())];

    let out = paneward(&["-L", &server.name, "call", "create_session", "{}"], &env);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no tmux server is running") && stderr.contains("--start-server"),
        "{stderr}"
    );
    assert!(!server.try_tmux(&["list-sessions"]), "nothing was started");

    let out = paneward(
        &["-L", &server.name, "--start-server", "call", "create_session", "{}"],
        &env,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["serverStarted"], json!(true), "{reply}");
    // Started as tmux itself would start it: the person's configuration is read.
    assert_eq!(read_user_conf(&server), "yes");
}

#[test]
fn grant_and_revoke_hand_a_persons_pane_to_scope_owned_and_back_and_are_audited() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let scratch = crate::support::Scratch::new();
    let log = scratch.path("audit.log");
    let title = |t: &str| json!({"pane_id": pane, "title": t}).to_string();
    let owned = ["-L", tmux.name.as_str(), "--scope", "owned"];
    let set_title = |t: &str| paneward(&[&owned[..], &["call", "set_pane_title", &title(t)]].concat(), &[]);

    assert_eq!(set_title("before").status.code(), Some(1), "not the agent's yet");

    let out = paneward(&["-L", &tmux.name, "--audit-log", &log, "grant", &pane], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with(&format!("granted: pane {pane}")),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        tmux.tmux(&["show-options", "-pqv", "-t", &pane, "@paneward_owned_pane"])
            .trim(),
        "1"
    );
    let out = set_title("granted");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(tmux.pane_value(&pane, "#{pane_title}"), "granted");

    let out = paneward(&["-L", &tmux.name, "--audit-log", &log, "revoke", &pane], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with(&format!("revoked: pane {pane}")),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        tmux.tmux(&["show-options", "-pqv", "-t", &pane, "@paneward_owned_pane"])
            .trim(),
        ""
    );
    assert_eq!(set_title("after").status.code(), Some(1), "taken back");
    assert_eq!(tmux.pane_value(&pane, "#{pane_title}"), "granted");

    let lines: Vec<Value> = scratch
        .read("audit.log")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let seen: Vec<(Value, Value, Value)> = lines
        .iter()
        .map(|l| {
            (
                l["tool"].clone(),
                l["arguments"]["pane_id"].clone(),
                l["outcome"].clone(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (json!("grant"), json!(pane), json!("ok")),
            (json!("revoke"), json!(pane), json!("ok"))
        ]
    );

    // A missing pane, or a malformed one, changes nothing and says why.
    let out = paneward(&["-L", &tmux.name, "grant", "%999"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("%999"), "{}", text(&out.stderr));
    let out = paneward(&["-L", &tmux.name, "grant", "main"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("pane id"), "{}", text(&out.stderr));
}

#[test]
fn grant_without_a_pane_takes_the_shells_own_pane_only_on_paneward_s_server() {
    let tmux = TmuxServer::start();
    let other = TmuxServer::start();
    let pane = tmux.first_pane();
    let identity = |server: &TmuxServer| {
        let facts = server.tmux(&["display-message", "-p", "#{socket_path},#{pid},0"]);
        facts.trim().to_string()
    };
    // This shell's pane is on `other`: its id means nothing on `tmux`, so it is refused.
    let elsewhere = identity(&other);
    let out = paneward(
        &["-L", &tmux.name, "grant"],
        &[("TMUX", &elsewhere), ("TMUX_PANE", &pane)],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("another tmux server"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        tmux.tmux(&["show-options", "-pqv", "-t", &pane, "@paneward_owned_pane"])
            .trim(),
        ""
    );
    // Outside tmux there is nothing to default to.
    let out = paneward(&["-L", &tmux.name, "grant"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("give the pane"), "{}", text(&out.stderr));

    let here = identity(&tmux);
    let out = paneward(&["-L", &tmux.name, "grant"], &[("TMUX", &here), ("TMUX_PANE", &pane)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        tmux.tmux(&["show-options", "-pqv", "-t", &pane, "@paneward_owned_pane"])
            .trim(),
        "1"
    );
}

/// Runs `paneward ARGS` with its standard output a pipe whose reader is already gone,
/// as `paneward ARGS | head -0` would be once head has exited.
fn into_a_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    command
        .args(args)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn no_command_panics_when_its_reader_has_gone() {
    let tmux = TmuxServer::start();
    for args in [
        vec!["tools"],
        vec!["tools", "--json"],
        vec!["--help"],
        vec!["call", "--help"],
        vec!["--version"],
        vec!["doctor", "-L", &tmux.name],
        vec!["call", "list_panes", "-L", &tmux.name],
    ] {
        let out = into_a_closed_pipe(&args);
        let stderr = text(&out.stderr);
        assert_ne!(out.status.code(), Some(101), "{args:?} panicked: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn each_subcommand_has_its_own_help() {
    for (subcommand, has, lacks) in [
        ("serve", "--token-file", "--json"),
        ("call", "paneward call TOOL [JSON]", "--token-file"),
        ("tools", "--json", "--token-file"),
        ("doctor", "paneward doctor", "--json"),
        ("conform", "--timeout", "--socket-name"),
    ] {
        let out = paneward(&[subcommand, "--help"], &[]);
        let help = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{subcommand}: {}", text(&out.stderr));
        assert!(
            help.starts_with(&format!("paneward {subcommand}\n")),
            "{subcommand}: {help}"
        );
        assert!(help.contains(has), "{subcommand} --help lacks {has}: {help}");
        assert!(!help.contains(lacks), "{subcommand} --help shows {lacks}: {help}");
    }
}

#[test]
fn a_mistyped_command_flag_or_tool_gets_a_suggestion() {
    let out = paneward(&["doctr"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean doctor?"),
        "{}",
        text(&out.stderr)
    );
    let out = paneward(&["tools", "--jsno"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean --json?"),
        "{}",
        text(&out.stderr)
    );
    let out = paneward(&["--socket-nam", "x"], &[]);
    assert!(
        text(&out.stderr).contains("did you mean --socket-name?"),
        "{}",
        text(&out.stderr)
    );
    let tmux = TmuxServer::start();
    let out = paneward(&["-L", &tmux.name, "call", "snapshot_pan"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("did you mean snapshot_pane?"),
        "{}",
        text(&out.stderr)
    );
    // Nothing close: no guess.
    let out = paneward(&["-L", &tmux.name, "call", "make_coffee"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stderr).contains("did you mean"), "{}", text(&out.stderr));
}

#[test]
fn call_names_every_argument_problem() {
    let tmux = TmuxServer::start();
    let args = r#"{"pane_id": 7, "history": "yes", "max_lines": "ten"}"#;
    let out = paneward(&["-L", &tmux.name, "call", "capture_pane", args], &[]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    for pointer in ["/pane_id", "/history", "/max_lines"] {
        assert!(stderr.contains(pointer), "{pointer} missing: {stderr}");
    }
    assert!(!stderr.contains("more problem"), "{stderr}");
}

#[test]
fn tools_prints_one_aligned_line_per_tool() {
    let out = paneward(&["tools", "--safety", "destructive"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listing = text(&out.stdout);
    let mut lines = listing.lines();
    let head = lines.next().unwrap();
    let count: usize = head.split_whitespace().next().unwrap().parse().unwrap();
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), count, "one line per tool:\n{listing}");
    // The tier column starts at the same place on every line.
    let tier_at = |row: &str| {
        ["readonly", "mutating", "destructive"]
            .iter()
            .filter_map(|t| row.find(&format!("  {t} ")))
            .min()
    };
    let first = tier_at(rows[0]).unwrap();
    for row in &rows {
        assert_eq!(tier_at(row), Some(first), "misaligned: {row}");
        assert!(row.len() < 200, "a paragraph, not a title: {row}");
    }
    let batch = rows
        .iter()
        .find(|row| row.trim_start().starts_with("send_keys_batch "))
        .unwrap();
    assert!(
        !batch.contains("permissions"),
        "send_keys_batch shows its description: {batch}"
    );
}

#[test]
fn doctor_says_what_chose_the_socket_inside_tmux_and_not_ok_without_tmux() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let socket = tmux
        .tmux(&["display-message", "-p", "#{socket_path}"])
        .trim()
        .to_string();
    let pid = tmux.tmux(&["display-message", "-p", "#{pid}"]).trim().to_string();
    let inside = format!("{socket},{pid},0");
    let out = paneward(&["doctor"], &[("TMUX", &inside), ("TMUX_PANE", &pane)]);
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("chosen by none"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "socket         the server this tmux runs in ({socket}, from $TMUX)"
        )),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    // No tmux on PATH: NOT OK, and the reason says so.
    let out = paneward(&["doctor", "-L", &tmux.name], &[("PATH", "/nonexistent")]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("NOT OK: cannot run tmux: tmux is not installed or not on PATH"),
        "{stdout}"
    );
}
