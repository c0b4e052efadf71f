//! `--ssh`: tmux on "another host", reached through a real sshd the test starts on a
//! loopback port (same machine, same user, the test's private tmux socket on the far
//! side). Skipped with a loud note when sshd is not installed, except in CI.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::process::{Command, Stdio};

use serde_json::json;

use crate::support::sshd::Sshd;
use crate::support::{clean_env, strings, Client, Scratch, TmuxServer};

/// The two ways a call reaches tmux over ssh: a control-mode client (`ssh ... tmux -C
/// attach`), and one `ssh ... tmux source-file -` per round trip.
const TRANSPORTS: [&[&str]; 2] = [&[], &["--no-control-mode"]];

fn paneward_over(sshd: &Sshd, tmux: &TmuxServer, extra: &[&str], env: &[(&str, &str)]) -> Client {
    let destination = sshd.destination();
    let config = sshd.client_config();
    let mut args = vec![
        "--ssh",
        destination.as_str(),
        "--ssh-config",
        config.as_str(),
        "--safety",
        "destructive",
    ];
    args.extend_from_slice(extra);
    let mut client = tmux.paneward_with(&args, env);
    client.initialize();
    client
}

#[test]
fn the_tools_work_on_a_tmux_reached_over_ssh() {
    let Some(sshd) = Sshd::start() else { return };
    let tmux = TmuxServer::start();
    let pane = tmux.window_showing("printf 'far side ready\\n'; exec cat", "far side ready");
    for extra in TRANSPORTS {
        // As if paneward ran inside this very server: over ssh that cannot be so.
        let env = [("TMUX", tmux.tmux_env()), ("TMUX_PANE", tmux.first_pane())];
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let mut client = paneward_over(&sshd, &tmux, extra, &env);

        let info = client.call_ok("get_server_info", json!({}));
        assert_eq!(info["host"], sshd.destination(), "{extra:?}: {info}");
        assert_eq!(info["callerPaneId"], json!(null), "no caller pane over ssh: {info}");
        let pid = tmux.tmux(&["display-message", "-p", "#{pid}"]);
        assert_eq!(info["pid"].to_string(), pid.trim());

        let panes = client.call_ok("list_panes", json!({}));
        let ids: Vec<String> = panes["panes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect();
        assert!(ids.contains(&pane), "{extra:?}: {ids:?}");

        let snapshot = client.call_ok("snapshot_pane", json!({"pane_id": pane}));
        assert!(
            strings(&snapshot["lines"]).iter().any(|l| l == "far side ready"),
            "{snapshot}"
        );

        let typed = format!("typed over ssh {}", extra.len());
        client.call_ok(
            "send_keys",
            json!({"pane_id": pane, "keys": typed, "literal": true, "enter": true}),
        );
        tmux.wait_for_text(&pane, &typed);
        client.close();
    }
}

/// Writes an executable `name` into `scratch` that appends its arguments, one a line,
/// to `log`, then runs `real` with them.
fn spy(scratch: &Scratch, name: &str, real: &str, log: &str) -> String {
    let path = scratch.path(name);
    std::fs::write(
        &path,
        format!("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> {log}\nexec {real} \"$@\"\n"),
    )
    .unwrap();
    let mode = Command::new("chmod").args(["+x", &path]).status().unwrap();
    assert!(mode.success());
    path
}

#[test]
fn typed_and_pasted_text_is_in_no_argv_on_either_machine() {
    let Some(sshd) = Sshd::start() else { return };
    let tmux = TmuxServer::start();
    let scratch = Scratch::new();
    std::fs::create_dir_all(scratch.path("bin")).unwrap();
    // Every ssh paneward starts, on this side, and every tmux ssh starts on the far side.
    spy(&scratch, "bin/ssh", "/usr/bin/ssh", &scratch.path("ssh.argv"));
    let far_tmux = spy(&scratch, "tmux-spy", "tmux", &scratch.path("tmux.argv"));
    let path = format!("{}:{}", scratch.path("bin"), std::env::var("PATH").unwrap());
    for (round, extra) in TRANSPORTS.iter().enumerate() {
        let pane = tmux.window_showing("printf 'ready\\n'; exec cat", "ready");
        let mut args = vec!["--tmux", far_tmux.as_str()];
        args.extend_from_slice(extra);
        let mut client = paneward_over(&sshd, &tmux, &args, &[("PATH", &path)]);
        let typed = format!("secret-typed-{round}-4f1c");
        let pasted = format!("secret-pasted-{round}-9b2e");
        client.call_ok(
            "send_keys",
            json!({"pane_id": pane, "keys": typed, "literal": true, "enter": true}),
        );
        client.call_ok("paste_text", json!({"pane_id": pane, "text": format!("{pasted}\n")}));
        tmux.wait_for_text(&pane, &typed);
        tmux.wait_for_text(&pane, &pasted);
        client.close();
        let ssh_argv = scratch.read("ssh.argv");
        let tmux_argv = scratch.read("tmux.argv");
        // The spies saw the real traffic: ssh to the destination, tmux reading a script.
        assert!(ssh_argv.contains(&sshd.destination()), "{ssh_argv}");
        assert!(
            tmux_argv.contains("source-file") || tmux_argv.contains("-C"),
            "{tmux_argv}"
        );
        for secret in [&typed, &pasted] {
            assert!(
                !ssh_argv.contains(secret.as_str()),
                "{secret} in ssh's argv: {ssh_argv}"
            );
            assert!(
                !tmux_argv.contains(secret.as_str()),
                "{secret} in the far tmux's argv: {tmux_argv}"
            );
        }
    }
}

#[test]
fn a_host_ssh_cannot_reach_is_an_error_that_names_ssh() {
    let Some(sshd) = Sshd::start() else { return };
    let tmux = TmuxServer::start();
    let closed = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let destination = sshd.destination().replace(&sshd.port.to_string(), &port.to_string());
    let config = sshd.client_config();
    let mut client = tmux.paneward_with(&["--ssh", &destination, "--ssh-config", &config], &[]);
    client.initialize();
    let error = client.call_err("list_panes", json!({}));
    assert!(error.contains("through ssh") && error.contains("ssh:"), "{error}");
    client.close();
}

#[test]
fn doctor_says_which_host_and_why_the_native_client_is_off() {
    let Some(sshd) = Sshd::start() else { return };
    let tmux = TmuxServer::start();
    let mut command = Command::new(env!("CARGO_BIN_EXE_paneward"));
    clean_env(&mut command);
    let output = command
        .args([
            "doctor",
            "-L",
            &tmux.name,
            "--no-control-mode",
            "--ssh",
            &sshd.destination(),
        ])
        .args(["--ssh-config", &sshd.client_config()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{text}\nsshd: {}", sshd.log());
    assert!(text.contains(&format!("{} through ssh", sshd.destination())), "{text}");
    assert!(
        text.contains("the native client speaks only to a socket on this machine"),
        "{text}"
    );
    assert!(
        text.contains("paneward cannot run inside a server on another host"),
        "{text}"
    );
}
