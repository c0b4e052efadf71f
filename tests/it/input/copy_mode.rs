//! Copy mode (`enter_copy_mode`, `exit_copy_mode`) against real tmux servers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::TmuxServer;
use serde_json::json;

#[test]
fn enter_copy_mode_scrolls_up_and_exit_copy_mode_reports_whether_the_pane_was_in_a_mode() {
    let tmux = TmuxServer::start();
    let pane = tmux.window_running("seq 1 300; exec cat > /dev/null");
    tmux.wait_for_text(&pane, "300");
    let mut client = tmux.paneward();
    let reply = client.call_ok("enter_copy_mode", json!({"pane_id": pane, "scroll_up_lines": 5}));
    assert_eq!(
        reply,
        json!({"paneId": pane, "wasInMode": false, "inMode": true, "scrollPosition": 5})
    );
    assert_eq!(tmux.pane_value(&pane, "#{pane_in_mode}:#{scroll_position}"), "1:5");
    // While in the mode, keys would run mode commands: input is refused.
    let text = client.call_err("send_keys", json!({"pane_id": pane, "keys": "q"}));
    assert!(text.contains("is in a mode"), "{text}");
    let reply = client.call_ok("exit_copy_mode", json!({"pane_id": pane}));
    assert_eq!(reply, json!({"paneId": pane, "wasInMode": true, "inMode": false}));
    assert_eq!(tmux.pane_value(&pane, "#{pane_in_mode}"), "0");
    // Leaving again changes nothing and is no error.
    let reply = client.call_ok("exit_copy_mode", json!({"pane_id": pane}));
    assert_eq!(reply["wasInMode"], false);
    let reply = client.call_ok("enter_copy_mode", json!({"pane_id": pane}));
    assert_eq!(reply["scrollPosition"], 0);
}

#[test]
fn enter_copy_mode_refuses_the_caller_pane_unless_forced_and_exit_copy_mode_is_never_refused() {
    let tmux = TmuxServer::start();
    let caller = tmux.first_pane();
    let mut client = tmux.paneward_in(&caller);
    let text = client.call_err("enter_copy_mode", json!({"pane_id": caller}));
    assert!(text.contains("caller pane") && text.contains("force"), "{text}");
    assert_eq!(tmux.pane_value(&caller, "#{pane_in_mode}"), "0");
    let reply = client.call_ok("enter_copy_mode", json!({"pane_id": caller, "force": true}));
    assert_eq!(reply["inMode"], true);
    let reply = client.call_ok("exit_copy_mode", json!({"pane_id": caller}));
    assert_eq!(reply["wasInMode"], true);
    assert_eq!(tmux.pane_value(&caller, "#{pane_in_mode}"), "0");
    let text = client.call_err("exit_copy_mode", json!({"pane_id": "%999999"}));
    assert!(text.contains("%999999"), "{text}");
}
