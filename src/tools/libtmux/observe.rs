//! The family's inspect tools under `--profile libtmux`: listings and descriptions read
//! as the family's views ([`super::views`]), pane text read through paneward's own
//! capture (its own rows hidden, blank rows below the last written one left out), and
//! the tools paneward has too (`capture_since`, `get_tmux_variables`) answered by its
//! own handlers and reshaped into the family's replies.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::generated::libtmux::types::*;
use crate::generated::types as own;
use crate::guard::ReadGate;
use crate::runtime::{decode_arguments, Encoded, ToolError};
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::{PaneId, ReadCommand, ReadVerb};
use crate::tools::observe::pane_state::{capture, capture_range};
use crate::tools::observe::text::split_capture;

use super::target::{self, bad_input};
use super::views::{self, typed, Scope};

/// What a family capture reads: the visible screen, all the history, or tmux's rows
/// `start` to `end`.
pub async fn read_rows(
    gate: &ReadGate<'_>,
    pane: PaneId,
    history: bool,
    start: Option<i64>,
    end: Option<i64>,
) -> Result<Vec<String>, ToolError> {
    let command = match (start, end) {
        (None, None) => capture(pane, history),
        (start, end) => capture_range(pane, start, end, false),
    };
    Ok(split_capture(&gate.run(command).await?))
}

pub async fn capture_pane(
    gate: &ReadGate<'_>,
    input: CapturePaneInput,
) -> Result<Encoded<CapturePaneOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    // The last command's output is found by the prompt marks tmux 3.7 keeps; before
    // 3.7 there are none, so the answer is the screen, saying the marks are unsupported.
    let (rows, marks) = if input.last_command {
        (read_rows(gate, pane, false, None, None).await?, "unsupported")
    } else {
        (
            read_rows(
                gate,
                pane,
                input.history,
                input.start.map(i64::from),
                input.end.map(i64::from),
            )
            .await?,
            "not_asked",
        )
    };
    typed(json!({
        "pane": pane.to_string(),
        "lines": rows.len(),
        "text": rows.join("\n"),
        "marks": marks,
    }))
}

pub async fn capture_since(
    gate: &ReadGate<'_>,
    input: CaptureSinceInput,
) -> Result<Encoded<CaptureSinceOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    let first = input.cursor.is_none();
    let own_input: own::CaptureSinceInput = decode_arguments(json!({
        "pane_id": pane.to_string(),
        "cursor": input.cursor,
    }))?;
    let read = crate::tools::observe::since::capture_since(gate, own_input).await?;
    typed(json!({
        "pane": pane.to_string(),
        "cursor": read.cursor,
        "text": read.lines.join("\n"),
        "first": first,
        "missed": read.lines_missed,
        "closed": false,
    }))
}

pub async fn find_pane_by_position(
    gate: &ReadGate<'_>,
    input: FindPaneByPositionInput,
) -> Result<Encoded<FindPaneByPositionOutput>, ToolError> {
    let (top, left) = match input.corner.as_str() {
        "top-left" => (true, true),
        "top-right" => (true, false),
        "bottom-left" => (false, true),
        "bottom-right" => (false, false),
        other => {
            return Err(bad_input(format!(
                "corner must be top-left, top-right, bottom-left, or bottom-right, not {other}"
            )))
        }
    };
    let (window, _) = target::window(gate, &input.window).await?;
    const EDGES: [&str; 5] = [
        "pane_id",
        "pane_at_top",
        "pane_at_bottom",
        "pane_at_left",
        "pane_at_right",
    ];
    let list = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-t")
        .arg(window.to_string())
        .arg("-F")
        .arg(record_format(&EDGES));
    let output = gate.run(list).await?;
    let text = String::from_utf8_lossy(&output);
    let mut found = None;
    for record in parse_records("list-panes", &EDGES, &text)? {
        let vertical = if top { "pane_at_top" } else { "pane_at_bottom" };
        let horizontal = if left { "pane_at_left" } else { "pane_at_right" };
        if record.flag(vertical)? && record.flag(horizontal)? {
            found = Some(record.text("pane_id")?.to_string());
            break;
        }
    }
    let id = found.ok_or_else(|| views::gone("pane at corner", &input.corner))?;
    typed(views::pane(gate, &id).await?)
}

pub async fn get_pane_info(
    gate: &ReadGate<'_>,
    input: GetPaneInfoInput,
) -> Result<Encoded<GetPaneInfoOutput>, ToolError> {
    typed(target::pane(gate, &input.pane).await?.1)
}

pub async fn get_window_info(
    gate: &ReadGate<'_>,
    input: GetWindowInfoInput,
) -> Result<Encoded<GetWindowInfoOutput>, ToolError> {
    typed(target::window(gate, &input.window).await?.1)
}

pub async fn get_session_info(
    gate: &ReadGate<'_>,
    input: GetSessionInfoInput,
) -> Result<Encoded<GetSessionInfoOutput>, ToolError> {
    typed(target::session(gate, &input.session).await?.1)
}

pub async fn list_panes(gate: &ReadGate<'_>, _input: ListPanesInput) -> Result<Encoded<ListPanesOutput>, ToolError> {
    typed(json!({ "panes": views::panes(gate, Scope::Server).await? }))
}

pub async fn list_windows(
    gate: &ReadGate<'_>,
    _input: ListWindowsInput,
) -> Result<Encoded<ListWindowsOutput>, ToolError> {
    typed(json!({ "windows": views::windows(gate).await? }))
}

pub async fn list_sessions(
    gate: &ReadGate<'_>,
    _input: ListSessionsInput,
) -> Result<Encoded<ListSessionsOutput>, ToolError> {
    typed(json!({ "sessions": views::sessions(gate).await? }))
}

/// Every session with its windows and their panes: the three listings, joined by id.
pub async fn get_server_info(
    gate: &ReadGate<'_>,
    _input: GetServerInfoInput,
) -> Result<Encoded<GetServerInfoOutput>, ToolError> {
    let sessions = views::sessions(gate).await?;
    let windows = views::windows(gate).await?;
    let panes = views::panes(gate, Scope::Server).await?;
    let tree: Vec<Value> = sessions
        .into_iter()
        .map(|session| {
            let branches: Vec<Value> = windows
                .iter()
                .filter(|window| window["session_id"] == session["id"])
                .map(|window| {
                    let leaves: Vec<Value> = panes
                        .iter()
                        .filter(|pane| pane["window_id"] == window["id"])
                        .map(|pane| json!({"id": pane["id"], "command": pane["command"], "active": pane["active"]}))
                        .collect();
                    json!({
                        "id": window["id"],
                        "index": window["index"],
                        "name": window["name"],
                        "active": window["active"],
                        "linked": window["linked"],
                        "panes": leaves,
                    })
                })
                .collect();
            json!({
                "id": session["id"],
                "name": session["name"],
                "attached": session["attached"],
                "windows": branches,
            })
        })
        .collect();
    typed(json!({ "sessions": tree }))
}

pub async fn get_tmux_variables(
    gate: &ReadGate<'_>,
    input: GetTmuxVariablesInput,
) -> Result<Encoded<GetTmuxVariablesOutput>, ToolError> {
    if !(1..=32).contains(&input.names.len()) {
        return Err(bad_input("names must contain between one and 32 tmux variables"));
    }
    let pane = match input.pane.as_deref() {
        Some(text) => Some(target::pane(gate, text).await?.0.to_string()),
        None => None,
    };
    let names: Vec<String> = input.names.iter().map(|name| name.to_string()).collect();
    let own_input: own::GetTmuxVariablesInput = decode_arguments(json!({ "names": names, "pane_id": pane }))?;
    let read = crate::tools::observe::server::get_tmux_variables(gate, own_input).await?;
    let read = serde_json::to_value(read).map_err(|e| ToolError::internal(e.to_string()))?;
    if let Some(unknown) = read["unknown"].as_array().and_then(|names| names.first()) {
        return Err(bad_input(format!(
            "{} is not a tmux variable this server knows; paneward reads only the names tmux lists",
            unknown.as_str().unwrap_or_default()
        )));
    }
    let values: BTreeMap<String, Value> = read["variables"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|variable| Some((variable["name"].as_str()?.to_string(), variable["value"].clone())))
        .collect();
    typed(json!({ "values": values }))
}

/// The most matches one search returns, the most panes and lines it reads.
const SEARCH_MATCHES: usize = 200;
const SEARCH_PANES: usize = 64;
const SEARCH_LINES: usize = 8192;

pub async fn search_panes(
    gate: &ReadGate<'_>,
    input: SearchPanesInput,
) -> Result<Encoded<SearchPanesOutput>, ToolError> {
    let pattern = if input.regex {
        input.pattern.to_string()
    } else {
        regex::escape(&input.pattern)
    };
    let matcher = regex::RegexBuilder::new(&pattern)
        .case_insensitive(!input.match_case)
        .build()
        .map_err(|e| bad_input(format!("pattern {} is invalid: {e}", input.pattern.as_str())))?;
    // The scope is resolved to an id first: tmux is never handed the caller's text.
    let (window, session) = match (input.window.as_deref(), input.session.as_deref()) {
        (Some(window), _) => (Some(target::window(gate, window).await?.0.to_string()), None),
        (None, Some(session)) => (None, Some(target::session(gate, session).await?.0.to_string())),
        (None, None) => (None, None),
    };
    let scope = match (&window, &session) {
        (Some(window), _) => Scope::Window(window),
        (None, Some(session)) => Scope::Session(session),
        (None, None) => Scope::Server,
    };
    let panes = views::panes(gate, scope).await?;
    let mut matches = Vec::new();
    let mut searched = 0usize;
    let mut lines_read = 0usize;
    let mut capped = false;
    for pane in panes.iter().take(SEARCH_PANES) {
        let Some(id) = pane["id"].as_str().and_then(|id| id.parse::<PaneId>().ok()) else {
            continue;
        };
        // A pane that closed while the search ran is skipped, not a failure.
        let Ok(rows) = read_rows(gate, id, input.history, None, None).await else {
            continue;
        };
        searched += 1;
        for (number, row) in rows.iter().enumerate() {
            lines_read += 1;
            if matches.len() >= SEARCH_MATCHES || lines_read > SEARCH_LINES {
                capped = true;
                break;
            }
            if matcher.is_match(row) {
                matches
                    .push(json!({"pane": id.to_string(), "window_id": pane["window_id"], "line": number, "text": row}));
            }
        }
        if capped {
            break;
        }
    }
    capped |= panes.len() > SEARCH_PANES;
    typed(json!({ "matches": matches, "panes_searched": searched, "capped": capped }))
}

pub async fn snapshot_pane(
    gate: &ReadGate<'_>,
    input: SnapshotPaneInput,
) -> Result<Encoded<SnapshotPaneOutput>, ToolError> {
    let (pane, view) = target::pane(gate, &input.pane).await?;
    const STATE: [&str; 8] = [
        "cursor_x",
        "cursor_y",
        "pane_mode",
        "scroll_position",
        "pane_width",
        "pane_height",
        "pane_in_mode",
        "pane_dead",
    ];
    let describe = ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
        .arg(record_format(&STATE));
    let output = gate.run(describe).await?;
    let text = String::from_utf8_lossy(&output);
    let record = parse_records("display-message", &STATE, &text)?
        .into_iter()
        .next()
        .ok_or_else(|| views::gone("pane", &input.pane))?;
    let rows = read_rows(gate, pane, input.history, None, None).await?;
    let kept = input
        .max_lines
        .map_or(rows.len(), |most| usize::try_from(most).unwrap_or(usize::MAX))
        .min(rows.len());
    let dropped = rows.len() - kept;
    let mode = record.text("pane_mode")?;
    typed(json!({
        "pane": view,
        "width": record.count("pane_width")?,
        "height": record.count("pane_height")?,
        "cursor_x": record.optional_int("cursor_x")?,
        "cursor_y": record.optional_int("cursor_y")?,
        "in_mode": record.flag("pane_in_mode")?,
        "mode": if mode.is_empty() { Value::Null } else { json!(mode) },
        "scroll_position": record.optional_int("scroll_position")?,
        "dead": record.flag("pane_dead")?,
        "content": rows[dropped..].join("\n"),
        "lines": kept,
        "dropped": dropped,
    }))
}
