//! The whole job an agent does, on each server, with that server's own tools: make a
//! window, run a command that prints 300 lines and exits 3, read its output and exit
//! status, and kill the window. One sample is the whole job; it counts the calls the
//! server needed and checks the answer was exact (every line, in order, and the 3).

use std::time::Duration;

use serde_json::{json, Value};

use crate::cases::Flavour;
use crate::fixture::Fixture;
use crate::mcp::Server;

/// Lines the job's command prints.
pub const JOB_LINES: usize = 300;
/// Its exit status.
pub const JOB_STATUS: i64 = 3;
/// What the job runs, in a `/bin/sh` pane.
pub const JOB_COMMAND: &str = "seq 1 300; sh -c 'exit 3'";

/// The tools the job needs on `flavour`'s server.
pub fn tools(flavour: Flavour) -> &'static [&'static str] {
    match flavour {
        Flavour::TmuxMcp => &[
            "create_window",
            "list_panes",
            "send_keys",
            "wait_for_text",
            "capture_pane",
            "kill_window",
        ],
        _ => &["create_window", "run_command", "kill_window"],
    }
}

/// One job's outcome.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    pub elapsed: Duration,
    pub calls: usize,
    /// Every line came back, in order, and the exit status was 3.
    pub exact: bool,
}

/// Whether `lines` hold `1` … `300` in order as lines of their own (a server may keep
/// the echoed command line or a prompt around them).
fn complete(lines: &[String]) -> bool {
    let numbers: Vec<usize> = lines
        .iter()
        .filter_map(|line| line.trim_end().parse::<usize>().ok())
        .collect();
    let start = numbers.iter().position(|&n| n == 1);
    start.is_some_and(|start| numbers[start..].iter().copied().take(JOB_LINES).eq(1..=JOB_LINES))
}

fn lines_of(value: &Value) -> Vec<String> {
    match value {
        Value::String(text) => text.lines().map(str::to_string).collect(),
        Value::Array(items) => items.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    }
}

/// A tool call counted against the job.
struct Counter<'a> {
    server: &'a mut Server,
    calls: usize,
    elapsed: Duration,
}

impl Counter<'_> {
    fn call(&mut self, tool: &str, arguments: Value) -> Result<Value, String> {
        let (elapsed, reply) = self.server.call_reply(tool, &arguments)?;
        self.calls += 1;
        self.elapsed += elapsed;
        Ok(reply["result"]["structuredContent"].clone())
    }
}

fn text(value: &Value, key: &str) -> Result<String, String> {
    value[key]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("no {key} in {value}"))
}

/// Runs the job once on `server`.
///
/// # Errors
/// A call failed, or a reply lacked what the next call needs.
pub fn run(server: &mut Server, flavour: Flavour, fixture: &Fixture) -> Result<Job, String> {
    let mut counter = Counter {
        server,
        calls: 0,
        elapsed: Duration::ZERO,
    };
    let session = fixture.session_id.clone();
    let exact = match flavour {
        Flavour::Paneward | Flavour::PanewardHttp | Flavour::PanewardSsh | Flavour::PanewardOneShot => {
            let made = counter.call("create_window", json!({"session_id": session, "shell": "/bin/sh"}))?;
            let (window, pane) = (text(&made, "windowId")?, text(&made, "paneId")?);
            let ran = counter.call(
                "run_command",
                json!({"pane_id": pane, "command": JOB_COMMAND, "max_lines": JOB_LINES + 50}),
            )?;
            counter.call("kill_window", json!({"window_id": window}))?;
            complete(&lines_of(&ran["output"])) && ran["exitStatus"] == json!(JOB_STATUS)
        }
        // `--profile python` is called as libtmux-mcp is.
        Flavour::LibtmuxMcp | Flavour::PanewardPython => {
            let made = counter.call("create_window", json!({"session_id": session}))?;
            let (window, pane) = (text(&made, "window_id")?, text(&made, "active_pane_id")?);
            let ran = counter.call("run_command", json!({"pane_id": pane, "command": JOB_COMMAND}))?;
            let mut lines = lines_of(&ran["output"]);
            if !complete(&lines) {
                // The reply holds the visible screen: read the history for the rest.
                let captured = counter.call(
                    "capture_pane",
                    json!({"pane_id": pane, "start": -((JOB_LINES + 50) as i64), "max_lines": JOB_LINES + 100}),
                )?;
                lines = lines_of(&captured["content"]);
                if lines.is_empty() {
                    lines = lines_of(&captured["result"]);
                }
            }
            counter.call("kill_window", json!({"window_id": window}))?;
            complete(&lines) && ran["exit_status"] == json!(JOB_STATUS)
        }
        Flavour::TmuxMcp => tmux_mcp(&mut counter, &session)?,
    };
    Ok(Job {
        elapsed: counter.elapsed,
        calls: counter.calls,
        exact,
    })
}

/// tmux-mcp 0.1.2's `run_shell_command` needs tmux 3.7, so on 3.3a the job is typed,
/// waited for and read back; the exit status is printed, as an agent would have to.
fn tmux_mcp(counter: &mut Counter<'_>, session: &str) -> Result<bool, String> {
    let made = counter.call("create_window", json!({"session": session}))?;
    let window = text(&made, "id")?;
    let panes = counter.call("list_panes", json!({}))?;
    let pane = pane_in(&panes, &window).ok_or_else(|| format!("no pane of {window} in {panes}"))?;
    // `sta""tus` on the typed line, `status` only in what the command prints.
    let typed = format!("{JOB_COMMAND}; echo \"sta\"\"tus=$?\"");
    counter.call("send_keys", json!({"pane": pane, "text": typed, "enter": true}))?;
    counter.call(
        "wait_for_text",
        json!({"pane": pane, "patterns": ["status="], "seconds": 30}),
    )?;
    let captured = counter.call(
        "capture_pane",
        json!({"pane": pane, "start": -((JOB_LINES + 50) as i64)}),
    )?;
    counter.call("kill_window", json!({"window": window}))?;
    let lines = match &captured["lines"] {
        Value::Array(_) => lines_of(&captured["lines"]),
        _ => lines_of(&captured["text"]),
    };
    let status = format!("status={JOB_STATUS}");
    Ok(complete(&lines) && lines.iter().any(|line| line.trim_end() == status))
}

/// The id of a pane of `window` in a `list_panes` reply, whatever its field names: the
/// `%` value of an item that holds `window`.
fn pane_in(reply: &Value, window: &str) -> Option<String> {
    let items = reply.as_object()?.values().find_map(Value::as_array)?;
    items.iter().find_map(|item| {
        let values: Vec<&str> = item.as_object()?.values().filter_map(Value::as_str).collect();
        values
            .contains(&window)
            .then(|| values.iter().find(|v| v.starts_with('%')).map(|v| v.to_string()))?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_is_complete_only_with_every_line_in_order() {
        let mut lines: Vec<String> = vec!["$ seq 1 300".into()];
        lines.extend((1..=300).map(|n| n.to_string()));
        lines.push("$ ".into());
        assert!(complete(&lines));
        lines.remove(150);
        assert!(!complete(&lines));
        assert!(!complete(&(250..=300).map(|n| n.to_string()).collect::<Vec<_>>()));
    }
}
