//! Which call the soak makes next, and its arguments: input (each with a token) three
//! times in five, the rest lifecycle calls, kept between one and [`MAX_PANES`] panes
//! and [`MAX_SESSIONS`] sessions.

use serde_json::{json, Value};

use super::server::Pane;

/// Panes the soak grows to before it only shrinks.
pub const MAX_PANES: usize = 8;
/// Sessions the soak grows to.
pub const MAX_SESSIONS: usize = 3;

/// A small xorshift generator: a soak is repeated with the seed it printed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[self.below(items.len())])
    }
}

/// The next call: a tool and its arguments; `input` when it carries the token.
pub struct Call {
    pub tool: &'static str,
    pub arguments: Value,
    pub input: bool,
}

/// The shell line that appends `token` to `log`.
pub fn append_line(token: &str, log: &str) -> String {
    format!("echo {token} >> {log}")
}

fn distinct(values: impl Iterator<Item = String>) -> Vec<String> {
    let mut values: Vec<String> = values.collect();
    values.sort();
    values.dedup();
    values
}

/// Chooses the next call on a server with `panes` (`targets`: the panes to type into
/// when the server is down, the last ones seen). `session_name` names a new session.
pub fn next_call(rng: &mut Rng, panes: &[Pane], targets: &[Pane], line: &str, dir: &str, session_name: &str) -> Call {
    let pane = rng.pick(if panes.is_empty() { targets } else { panes }).cloned();
    let pane_id = pane.as_ref().map_or("%0".to_string(), |pane| pane.id.clone());
    let windows = distinct(panes.iter().map(|pane| pane.window.clone()));
    let sessions = distinct(panes.iter().map(|pane| pane.session.clone()));
    let shell = json!(["/bin/sh"]);
    let roll = rng.below(100);
    let input = |tool, arguments| Call {
        tool,
        arguments,
        input: true,
    };
    let other = |tool, arguments| Call {
        tool,
        arguments,
        input: false,
    };
    match roll {
        0..=24 => input("send_keys", json!({"pane_id": pane_id, "keys": line, "literal": true})),
        25..=39 => input("paste_text", json!({"pane_id": pane_id, "text": line, "enter": true})),
        40..=59 => input(
            "run_command",
            json!({"pane_id": pane_id, "command": line, "timeout_seconds": 20}),
        ),
        60..=71 if panes.len() < MAX_PANES => {
            let direction = ["below", "right"][rng.below(2)];
            other(
                "split_window",
                json!({"pane_id": pane_id, "command": shell, "start_directory": dir, "direction": direction}),
            )
        }
        72..=79 if panes.len() < MAX_PANES => {
            let session = rng.pick(&sessions).cloned().unwrap_or_else(|| "$0".into());
            other(
                "create_window",
                json!({"session_id": session, "command": shell, "start_directory": dir}),
            )
        }
        80..=82 if sessions.len() < MAX_SESSIONS && panes.len() < MAX_PANES => other(
            "create_session",
            json!({"name": session_name, "command": shell, "start_directory": dir, "width": 160, "height": 48}),
        ),
        83..=84 if sessions.len() > 1 => {
            let session = rng.pick(&sessions).cloned().unwrap_or_default();
            other("kill_session", json!({"session_id": session}))
        }
        85..=87 if windows.len() > 1 => {
            let window = rng.pick(&windows).cloned().unwrap_or_default();
            other("kill_window", json!({"window_id": window}))
        }
        88..=91 => {
            let window = pane.map_or("@0".to_string(), |pane| pane.window);
            other("select_layout", json!({"window_id": window, "layout": "tiled"}))
        }
        92..=95 => other("list_panes", json!({})),
        // Growth refused above, or 96..: a pane goes, but never the last one.
        _ if panes.len() > 1 => other("kill_pane", json!({"pane_id": pane_id})),
        _ => other("list_panes", json!({})),
    }
}
