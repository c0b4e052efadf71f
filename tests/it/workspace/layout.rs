//! `select_layout` against real tmux: words that crash tmux 3.3a never reach it, checked
//! layout strings do, and the reported previous layout undoes a change.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use crate::support::TmuxServer;
use serde_json::json;

/// tmux's layout checksum (layout-custom.c), to build strings the way tmux signs them.
fn signed(body: &str) -> String {
    let sum = body
        .bytes()
        .fold(0u16, |sum, byte| sum.rotate_right(1).wrapping_add(u16::from(byte)));
    format!("{sum:04x},{body}")
}

/// A window of session `main` split in two side by side; returns (window, left, right).
fn two_panes(tmux: &TmuxServer) -> (String, String, String) {
    let left = tmux.first_pane();
    let right = tmux.split(&left, "-h", "exec sleep 100000");
    let window = tmux.pane_value(&left, "#{window_id}");
    (window, left, right)
}

fn version(tmux: &TmuxServer) -> String {
    tmux.tmux(&["display-message", "-p", "#{version}"]).trim().to_string()
}

fn is_before_3_4(version: &str) -> bool {
    let (major, rest) = version.split_once('.').unwrap_or(("9", "9"));
    let minor: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (major.parse::<u32>().unwrap_or(9), minor.parse::<u32>().unwrap_or(9)) < (3, 4)
}

#[test]
fn words_that_crash_tmux_3_3a_are_refused_and_the_server_and_layout_survive() {
    let tmux = TmuxServer::start();
    let (window, left, right) = two_panes(&tmux);
    let pid = tmux.pane_value(&left, "#{pid}");
    let layout = tmux.pane_value(&left, "#{window_layout}");
    let mut client = tmux.paneward();
    let left_n = &left[1..];
    let right_n = &right[1..];
    let three = format!("80x24,0,0{{26x24,0,0,{left_n},26x24,27,0,{right_n},26x24,54,0,99}}");
    let bad_checksum = format!("0000,80x24,0,0{{40x24,0,0,{left_n},39x24,41,0,{right_n}}}");
    let refused = [
        ("main".to_string(), "exact preset"),
        ("tiledd".to_string(), "exact preset"),
        ("main-verticalZ".to_string(), "exact preset"),
        ("tile".to_string(), "exact preset"),
        (String::new(), "exact preset"),
        (bad_checksum, "checksum"),
        (signed(&three), "window has 2"),
        (
            signed(&format!("100x24,0,0{{50x24,0,0,{left_n},49x24,51,0,{right_n}}}")),
            "resize the window",
        ),
    ];
    let mirrored = client.call(
        "select_layout",
        json!({"window_id": window, "layout": "main-vertical-mirrored"}),
    );
    if is_before_3_4(&version(&tmux)) {
        let text = mirrored["content"][0]["text"].as_str().unwrap();
        assert_eq!(mirrored["isError"], true, "{mirrored}");
        assert!(text.contains("needs tmux 3.5"), "{text}");
    }
    for (word, rule) in refused {
        let text = client.call_err("select_layout", json!({"window_id": window, "layout": word}));
        assert!(text.contains("/layout") && text.contains(rule), "{word:?}: {text}");
        // The server lives (same pid) and the window kept its layout.
        assert_eq!(tmux.pane_value(&left, "#{pid}"), pid, "after {word:?}");
        assert_eq!(tmux.pane_value(&left, "#{window_layout}"), layout, "after {word:?}");
    }
    // And paneward still serves.
    let reply = client.call_ok("select_layout", json!({"window_id": window, "layout": "even-vertical"}));
    assert_eq!(reply["previousLayout"], layout.as_str());
}

/// What the refused words would do if sent: on tmux before 3.4, `select-layout main`
/// kills the server (layout_parse returns without an error message, which
/// cmd-select-layout.c then prints and frees). Pins why the check exists.
#[test]
fn tmux_before_3_4_dies_on_select_layout_main() {
    let tmux = TmuxServer::start();
    if !is_before_3_4(&version(&tmux)) {
        return;
    }
    two_panes(&tmux);
    assert!(!tmux.try_tmux(&["select-layout", "main"]));
    assert!(
        !tmux.try_tmux(&["has-session"]),
        "the server survived select-layout main"
    );
}

#[test]
fn a_preset_and_a_layout_string_apply_and_the_previous_layout_undoes_them() {
    let tmux = TmuxServer::start();
    let (window, left, _right) = two_panes(&tmux);
    tmux.tmux(&["resize-pane", "-t", &left, "-x", "20"]);
    let uneven = tmux.pane_value(&left, "#{window_layout}");
    let mut client = tmux.paneward();
    let reply = client.call_ok("select_layout", json!({"window_id": window, "layout": "even-vertical"}));
    assert_eq!(reply["windowId"], window.as_str());
    assert_eq!(reply["previousLayout"], uneven.as_str());
    let now = tmux.pane_value(&left, "#{window_layout}");
    assert_eq!(reply["layout"], now.as_str());
    assert_ne!(now, uneven);
    assert_eq!(tmux.pane_value(&left, "#{pane_width}"), "80");
    // The previous layout, fed back, restores the window exactly.
    let back = client.call_ok("select_layout", json!({"window_id": window, "layout": uneven}));
    assert_eq!(back["layout"], uneven.as_str());
    assert_eq!(back["previousLayout"], now.as_str());
    assert_eq!(tmux.pane_value(&left, "#{window_layout}"), uneven);
    assert_eq!(tmux.pane_value(&left, "#{pane_width}"), "20");
}

#[test]
fn a_layout_string_naming_the_panes_in_another_order_is_refused() {
    let tmux = TmuxServer::start();
    let (window, left, right) = two_panes(&tmux);
    let layout = tmux.pane_value(&left, "#{window_layout}");
    let swapped = signed(&format!(
        "80x24,0,0{{40x24,0,0,{},39x24,41,0,{}}}",
        &right[1..],
        &left[1..]
    ));
    let mut client = tmux.paneward();
    let text = client.call_err("select_layout", json!({"window_id": window, "layout": swapped}));
    assert!(text.contains("in this order"), "{text}");
    assert_eq!(tmux.pane_value(&left, "#{window_layout}"), layout);
    let text = client.call_err("select_layout", json!({"window_id": "@999999", "layout": "tiled"}));
    assert!(text.contains("@999999"), "{text}");
}
