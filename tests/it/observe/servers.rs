//! `list_servers` against real tmux servers in the user's socket folder: the target
//! first and marked, other live servers after it, stale sockets found by a refused
//! connect, shown only on request and never removed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::os::unix::net::UnixListener;
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::support::TmuxServer;

/// A socket file nobody listens on any more, in the same folder as `beside`'s.
struct StaleSocket(PathBuf);

impl StaleSocket {
    fn beside(tmux: &TmuxServer, name: &str) -> Self {
        let folder = PathBuf::from(tmux.pane_value(&tmux.first_pane(), "#{socket_path}"));
        let path = folder.parent().expect("a socket folder").join(name);
        drop(UnixListener::bind(&path).expect("bind a socket"));
        Self(path)
    }
}

impl Drop for StaleSocket {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn names(reply: &Value) -> Vec<(String, bool, bool)> {
    reply["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap_or_default().to_string(),
                s["isTarget"].as_bool().unwrap_or_default(),
                s["alive"].as_bool().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn the_target_comes_first_and_other_servers_are_probed_not_driven() {
    let target = TmuxServer::start();
    let other = TmuxServer::start();
    let stale = StaleSocket::beside(&target, &format!("stale-{}", other.name));
    let mut client = target.paneward();

    let reply = client.call_ok("list_servers", json!({"name_contains": other.name}));
    assert_eq!(
        names(&reply),
        [(target.name.clone(), true, true), (other.name.clone(), false, true)],
        "{reply}"
    );
    assert_eq!(reply["total"], 2);
    assert_eq!(reply["truncated"], false);
    assert!(
        reply["note"]
            .as_str()
            .unwrap_or_default()
            .contains("start another paneward"),
        "{reply}"
    );
    let folder = stale.0.parent().unwrap().to_string_lossy().into_owned();
    assert_eq!(reply["searchedIn"], json!(folder));

    let with_dead = client.call_ok(
        "list_servers",
        json!({"name_contains": other.name, "include_dead": true}),
    );
    let stale_name = stale.0.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        names(&with_dead),
        [
            (target.name.clone(), true, true),
            (other.name.clone(), false, true),
            (stale_name, false, false)
        ],
        "{with_dead}"
    );
    assert!(stale.0.exists(), "a stale socket is reported, not removed");

    let first = client.call_ok("list_servers", json!({"name_contains": other.name, "max_servers": 1}));
    assert_eq!(names(&first), [(target.name.clone(), true, true)]);
    assert_eq!(
        (first["total"].clone(), first["truncated"].clone()),
        (json!(2), json!(true))
    );

    // Still driving the same server.
    let sessions = client.call_ok("list_sessions", json!({}));
    assert_eq!(sessions["sessions"][0]["name"], "main");
    assert!(
        other.try_tmux(&["has-session", "-t", "main"]),
        "the other server is untouched"
    );
}

#[test]
fn bad_arguments_are_refused_by_field() {
    let tmux = TmuxServer::start();
    let mut client = tmux.paneward();
    for (arguments, pointer) in [
        (json!({"max_servers": 0}), "/max_servers"),
        (json!({"max_servers": 101}), "/max_servers"),
        (json!({"socket": "/tmp/x"}), "socket"),
    ] {
        let error = client.call_err("list_servers", arguments);
        assert!(error.contains(pointer), "{error}");
    }
}
