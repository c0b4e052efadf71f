//! `select_window`, `select_pane`, `resize_pane`, `resize_window`, `swap_pane` against
//! real tmux: each changes what it names, reports what was there before, and that
//! "before" undoes the change.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::TmuxServer;
use serde_json::json;

fn window_of(tmux: &TmuxServer, pane: &str) -> String {
    tmux.pane_value(pane, "#{window_id}")
}

#[test]
fn select_window_reports_the_window_current_before_and_its_undo_restores_it() {
    let tmux = TmuxServer::start();
    let first = window_of(&tmux, &tmux.first_pane());
    let other_pane = tmux.window_running("exec sleep 100000");
    let other = window_of(&tmux, &other_pane);
    let session = tmux.pane_value(&other_pane, "#{session_id}");
    let mut client = tmux.paneward();
    let reply = client.call_ok("select_window", json!({"window_id": other}));
    assert_eq!(
        reply,
        json!({"windowId": other, "sessionId": session, "previousWindowId": first})
    );
    assert_eq!(tmux.pane_value(&other_pane, "#{window_active}"), "1");
    let reply = client.call_ok("select_window", json!({"window_id": reply["previousWindowId"]}));
    assert_eq!(reply["previousWindowId"], other.as_str());
    assert_eq!(tmux.pane_value(&other_pane, "#{window_active}"), "0");
    let text = client.call_err("select_window", json!({"window_id": "@999999"}));
    assert!(text.contains("@999999"), "{text}");
    let text = client.call_err("select_window", json!({"window_id": "main:1"}));
    assert!(text.contains("/window_id"), "{text}");
}

#[test]
fn select_pane_moves_only_the_active_pane_and_keeps_a_zoomed_window_zoomed() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let second = tmux.split(&first, "-h", "exec sleep 100000");
    // Another window is current; selecting a pane must not select its window.
    let elsewhere = tmux.window_running("exec sleep 100000");
    tmux.tmux(&["select-window", "-t", &window_of(&tmux, &elsewhere)]);
    tmux.tmux(&["resize-pane", "-Z", "-t", &first]);
    let mut client = tmux.paneward();
    let reply = client.call_ok("select_pane", json!({"pane_id": second}));
    assert_eq!(
        reply,
        json!({"paneId": second, "windowId": window_of(&tmux, &first), "previousPaneId": first})
    );
    assert_eq!(tmux.pane_value(&second, "#{pane_active}:#{window_zoomed_flag}"), "1:1");
    assert_eq!(tmux.pane_value(&elsewhere, "#{window_active}"), "1");
    let reply = client.call_ok("select_pane", json!({"pane_id": reply["previousPaneId"]}));
    assert_eq!(reply["paneId"], first.as_str());
    assert_eq!(tmux.pane_value(&first, "#{pane_active}"), "1");
}

#[test]
fn resize_pane_sets_absolute_and_relative_sizes_and_the_previous_layout_undoes_them() {
    let tmux = TmuxServer::start();
    let left = tmux.first_pane();
    let right = tmux.split(&left, "-h", "exec sleep 100000");
    let window = window_of(&tmux, &left);
    let layout = tmux.pane_value(&left, "#{window_layout}");
    let mut client = tmux.paneward();
    let reply = client.call_ok("resize_pane", json!({"pane_id": left, "width": 30}));
    assert_eq!(
        reply,
        json!({"paneId": left, "width": 30, "height": 24, "zoomed": false, "previousWidth": 40,
               "previousHeight": 24, "wasZoomed": false, "previousLayout": layout})
    );
    assert_eq!(tmux.pane_value(&right, "#{pane_width}"), "49");
    let reply = client.call_ok("resize_pane", json!({"pane_id": left, "width_by": -5}));
    assert_eq!(
        (reply["previousWidth"].as_u64(), reply["width"].as_u64()),
        (Some(30), Some(25))
    );
    // Zoomed, a change counts from the pane's size under the zoom, and unzooms.
    client.call_ok("resize_pane", json!({"pane_id": left, "zoom": true}));
    let reply = client.call_ok("resize_pane", json!({"pane_id": left, "width_by": 5}));
    assert_eq!(
        (reply["wasZoomed"].as_bool(), reply["zoomed"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(reply["width"], 30);
    client.call_ok("select_layout", json!({"window_id": window, "layout": layout}));
    assert_eq!(tmux.pane_value(&left, "#{window_layout}"), layout);
    let text = client.call_err("resize_pane", json!({"pane_id": left, "width": 10, "width_by": 2}));
    assert!(text.contains("/width_by"), "{text}");
    let text = client.call_err("resize_pane", json!({"pane_id": left}));
    assert!(text.contains("give width"), "{text}");
}

#[test]
fn zoom_is_set_or_unset_never_toggled() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let second = tmux.split(&first, "-v", "exec sleep 100000");
    let mut client = tmux.paneward();
    for _ in 0..2 {
        let reply = client.call_ok("resize_pane", json!({"pane_id": first, "zoom": true}));
        assert_eq!(reply["zoomed"], true);
        assert_eq!(tmux.pane_value(&first, "#{window_zoomed_flag}:#{pane_active}"), "1:1");
    }
    // Zooming another pane of a zoomed window moves the zoom to it.
    let reply = client.call_ok("resize_pane", json!({"pane_id": second, "zoom": true}));
    assert_eq!(
        (reply["wasZoomed"].as_bool(), reply["zoomed"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(tmux.pane_value(&second, "#{window_zoomed_flag}:#{pane_active}"), "1:1");
    for was in [true, false] {
        let reply = client.call_ok("resize_pane", json!({"pane_id": first, "zoom": false}));
        assert_eq!(
            (reply["wasZoomed"].as_bool(), reply["zoomed"].as_bool()),
            (Some(was), Some(false))
        );
        assert_eq!(tmux.pane_value(&first, "#{window_zoomed_flag}"), "0");
    }
    let text = client.call_err("resize_pane", json!({"pane_id": first, "zoom": true, "height": 5}));
    assert!(text.contains("/zoom"), "{text}");
}

#[test]
fn resize_window_pins_the_size_says_so_and_reset_size_gives_it_back() {
    let tmux = TmuxServer::start();
    let pane = tmux.first_pane();
    let window = window_of(&tmux, &pane);
    let mut client = tmux.paneward();
    let reply = client.call_ok("resize_window", json!({"window_id": window, "width": 60, "height": 20}));
    assert_eq!(
        reply,
        json!({"windowId": window, "width": 60, "height": 20, "windowSize": "manual",
               "previousWidth": 80, "previousHeight": 24, "previousWindowSize": ""})
    );
    assert_eq!(tmux.pane_value(&pane, "#{window_width}x#{window_height}"), "60x20");
    // Undo: the previous size, then the previous (inherited) window-size.
    let reply = client.call_ok("resize_window", json!({"window_id": window, "width": 80, "height": 24}));
    assert_eq!(reply["previousWindowSize"], "manual");
    let reply = client.call_ok("resize_window", json!({"window_id": window, "reset_size": true}));
    assert_eq!(
        (reply["previousWindowSize"].as_str(), reply["windowSize"].as_str()),
        (Some("manual"), Some(""))
    );
    assert_eq!(tmux.pane_value(&pane, "#{window_width}x#{window_height}"), "80x24");
    assert_eq!(
        tmux.tmux(&["show-options", "-w", "-v", "-t", &window, "window-size"]),
        ""
    );
    let text = client.call_err(
        "resize_window",
        json!({"window_id": window, "reset_size": true, "width": 5}),
    );
    assert!(text.contains("/reset_size"), "{text}");
}

#[test]
fn swap_pane_trades_places_across_windows_reports_both_and_swapping_again_undoes_it() {
    let tmux = TmuxServer::start();
    let first = tmux.first_pane();
    let below = tmux.split(&first, "-v", "exec sleep 100000");
    let other = tmux.window_running("exec sleep 100000");
    let (w1, w2) = (window_of(&tmux, &first), window_of(&tmux, &other));
    let mut client = tmux.paneward();
    let reply = client.call_ok("swap_pane", json!({"pane_id": below, "with_pane_id": other}));
    assert_eq!(
        reply,
        json!({"paneId": below, "withPaneId": other,
               "position": format!("{w2}.0"), "withPosition": format!("{w1}.1"),
               "previousPosition": format!("{w1}.1"), "previousWithPosition": format!("{w2}.0")})
    );
    assert_eq!(window_of(&tmux, &below), w2);
    assert_eq!(window_of(&tmux, &other), w1);
    // Focus stayed in place: the first pane is still its window's active pane.
    assert_eq!(tmux.pane_value(&first, "#{pane_active}"), "1");
    client.call_ok("swap_pane", json!({"pane_id": below, "with_pane_id": other}));
    assert_eq!(tmux.pane_value(&below, "#{window_id}.#{pane_index}"), format!("{w1}.1"));
    let text = client.call_err("swap_pane", json!({"pane_id": first, "with_pane_id": first}));
    assert!(text.contains("/with_pane_id"), "{text}");
}
