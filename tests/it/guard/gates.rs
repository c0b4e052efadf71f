//! The destructive gate against a real tmux: ending anything that holds the caller pane
//! (its pane, window, session, server, or respawning it live) is refused, with nothing
//! ended; anything else is ended. The read and change gates are enforced by types (see
//! the `compile_fail` examples in src/guard/gate.rs); the cohort gate by cohort.rs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use paneward::limits::TMUX_CLIENTS_DEFAULT_MAX;
use std::path::PathBuf;

use paneward::app::App;
use paneward::catalog::profile::Profile;
use paneward::config::Config;
use paneward::guard::caller::CallerPane;
use paneward::guard::end::Ending;
use paneward::guard::respawn::Respawn;
use paneward::guard::EndGate;
use paneward::runtime::{CallContext, Tier, ToolErrorKind};
use paneward::tmux::ServerAddress;

use crate::support::TmuxServer;

/// paneward's configuration for `tmux` at the destructive tier.
fn config(tmux: &TmuxServer, control_mode: bool) -> Config {
    Config {
        ssh: None,
        tmux_binary: PathBuf::from("tmux"),
        address: ServerAddress::Name(tmux.name.clone()),
        safety: Tier::Destructive,
        scope: paneward::config::Scope::All,
        reveal_environment: false,
        show_commands: false,
        allow_attended_input: false,
        suppress_history: true,
        control_mode,
        native_client: true,
        hidden_client: true,
        max_tmux_clients: TMUX_CLIENTS_DEFAULT_MAX,
        max_wait: paneward::limits::MAX_WAIT_DEFAULT,
        profile: Profile::Default,
        surface: Default::default(),
        audit_log: None,
        address_origin: "the test",
        private: None,
        server_start: paneward::config::ServerStart::Refused,
        targets: Vec::new(),
        max_connected_targets: paneward::limits::CONNECTED_TARGETS_DEFAULT_MAX,
        deployment: None,
    }
}

fn app_for(tmux: &TmuxServer, caller: Option<&str>, control_mode: bool) -> App {
    let config = config(tmux, control_mode);
    let caller = caller.map(|pane| {
        let env = tmux.tmux_env();
        CallerPane::from_env(Some(&env), Some(pane)).expect("a caller pane")
    });
    App::new(config, caller).expect("the app builds")
}

fn end(app: &App, ending: Ending) -> Result<(), paneward::runtime::ToolError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let context = CallContext::nested();
    runtime.block_on(EndGate::new(&app.guard, &context).end(&ending))
}

fn exists(tmux: &TmuxServer, target: &str) -> bool {
    tmux.try_tmux(&["list-panes", "-t", target])
}

#[test]
fn nothing_that_holds_the_caller_pane_is_ended_in_either_connection_mode() {
    for control_mode in [true, false] {
        let tmux = TmuxServer::start();
        let caller = tmux.first_pane();
        let window = tmux.pane_value(&caller, "#{window_id}");
        let session = tmux.pane_value(&caller, "#{session_id}");
        let app = app_for(&tmux, Some(&caller), control_mode);
        for ending in [
            Ending::KillPane(caller.parse().unwrap()),
            Ending::RespawnLivePane(Respawn::new(caller.parse().unwrap())),
            Ending::KillWindow(window.parse().unwrap()),
            Ending::KillSession(session.parse().unwrap()),
            Ending::KillServer,
        ] {
            let error = end(&app, ending.clone()).expect_err("ending what holds the caller pane is refused");
            assert_eq!(error.kind(), ToolErrorKind::Blocked, "{ending}: {error}");
            assert!(
                error.message().contains(&caller),
                "the refusal names the caller pane: {error}"
            );
            assert!(exists(&tmux, &caller), "{ending}: the caller pane is still there");
        }
    }
}

#[test]
fn what_does_not_hold_the_caller_pane_is_ended() {
    let tmux = TmuxServer::start();
    let caller = tmux.first_pane();
    let other = tmux.window_running("sleep 600");
    let other_window = tmux.pane_value(&other, "#{window_id}");
    let sibling = tmux.split(&caller, "-h", "sleep 600");
    let app = app_for(&tmux, Some(&caller), true);
    end(&app, Ending::KillPane(sibling.parse().unwrap())).expect("a sibling of the caller pane may be killed");
    assert!(!exists(&tmux, &sibling));
    end(&app, Ending::KillWindow(other_window.parse().unwrap())).expect("another window may be killed");
    assert!(!exists(&tmux, &other_window));
    assert!(exists(&tmux, &caller));
}

#[test]
fn a_caller_pane_of_another_server_protects_nothing_here() {
    let here = TmuxServer::start();
    let elsewhere = TmuxServer::start();
    let pane = here.window_running("sleep 600");
    let window = here.pane_value(&pane, "#{window_id}");
    // paneward runs in a pane of `elsewhere` whose id is the one about to be killed here.
    let config = config(&here, true);
    let caller = CallerPane::from_env(Some(&elsewhere.tmux_env()), Some(&pane)).unwrap();
    let app = App::new(config, Some(caller)).unwrap();
    end(&app, Ending::KillWindow(window.parse().unwrap())).expect("another server's caller pane is not ours");
    assert!(!exists(&here, &window));
}
