//! libtmux-mcp's `search_panes` under `--profile python`: every pane in scope (a session,
//! or the server) is captured through paneward's own capture (wrapped rows joined,
//! paneward's own rows hidden, `content_start`/`content_end` as tmux's line numbers), in
//! one round trip, and searched here; the matching panes are sorted by id, then paged
//! with `offset`/`limit`, each keeping its newest `max_matched_lines_per_pane` lines.
//!
//! Unlike libtmux-mcp, the pattern never reaches tmux (libtmux-mcp hands plain text to
//! tmux's `#{C:...}` filter): all matching is paneward's, with Rust's `regex`, whose
//! matching time is linear, so there is no match deadline to run out. Its syntax has no
//! look-around or back-references; such a pattern is refused as not compiling.

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::generated::python::types::SearchPanesInput;
use crate::guard::ReadGate;
use crate::runtime::ToolError;
use crate::tools::args;
use crate::tools::observe::pane_state::capture_range;
use crate::tools::observe::text::split_capture;

use super::models::{self, Scope};
use super::target::{checked, session_id, upstream_error};

/// libtmux-mcp's bound on a pattern's length.
const PATTERN_MAX_CHARS: usize = 1_000;

/// The fields of a match copied from the pane's `PaneInfo`, in libtmux-mcp's order.
const PANE_FIELDS: [&str; 13] = [
    "pane_left",
    "pane_top",
    "pane_right",
    "pane_bottom",
    "pane_at_left",
    "pane_at_right",
    "pane_at_top",
    "pane_at_bottom",
    "pane_tty",
    "pane_current_command",
    "pane_current_path",
    "window_id",
    "session_id",
];

pub async fn search_panes(gate: &ReadGate<'_>, input: SearchPanesInput) -> Result<String, ToolError> {
    let compiled = compiled(&input.pattern, input.regex, input.match_case)?;
    let targeting = checked(gate, &input)?;
    let session = if targeting.session_id.is_some() || targeting.session_name.is_some() {
        Some(session_id(gate, &targeting).await?)
    } else {
        None
    };
    let SearchPanesInput {
        content_end,
        content_start,
        limit,
        max_matched_lines_per_pane,
        offset,
        ..
    } = input;
    let mut panes = models::panes(gate, Scope::Server).await?;
    if let Some(session) = &session {
        panes.retain(|pane| pane.get("session_id").and_then(Value::as_str) == Some(session.as_str()));
    }
    // A pane listed in several sessions (a linked window) is searched once.
    let mut seen = std::collections::HashSet::new();
    panes.retain(|pane| seen.insert(text(pane, "pane_id").to_string()));
    let names = names(gate).await?;
    let ids = panes
        .iter()
        .map(|pane| args::pane_id("/pane_id", text(pane, "pane_id")))
        .collect::<Result<Vec<_>, _>>()?;
    let captures: Vec<_> = ids
        .iter()
        .map(|id| capture_range(*id, content_start, content_end, true))
        .collect();
    let outputs = if captures.is_empty() {
        Vec::new()
    } else {
        gate.run_all(&captures).await?
    };
    let per_pane = usize::try_from(max_matched_lines_per_pane.max(0)).unwrap_or(usize::MAX);
    let mut lines_cut = false;
    let mut matches: Vec<(u32, Value)> = Vec::new();
    for ((pane, id), output) in panes.iter().zip(&ids).zip(outputs) {
        let mut matched: Vec<String> = split_capture(&output)
            .into_iter()
            .filter(|line| compiled.is_match(line))
            .collect();
        if matched.is_empty() {
            continue;
        }
        if matched.len() > per_pane {
            matched.drain(..matched.len() - per_pane);
            lines_cut = true;
        }
        let mut entry = Map::new();
        entry.insert("pane_id".into(), json!(id.to_string()));
        for field in PANE_FIELDS {
            entry.insert(field.into(), pane.get(field).cloned().unwrap_or(Value::Null));
        }
        let (window_name, session_name) = names
            .get(text(pane, "window_id"))
            .cloned()
            .unwrap_or((Value::Null, Value::Null));
        entry.insert("window_name".into(), window_name);
        entry.insert("session_name".into(), session_name);
        entry.insert("matched_lines".into(), json!(matched));
        entry.insert(
            "is_caller".into(),
            pane.get("is_caller").cloned().unwrap_or(Value::Null),
        );
        matches.push((id.0, Value::Object(entry)));
    }
    matches.sort_by_key(|(number, _)| *number);
    let total = matches.len();
    let start = usize::try_from(offset.max(0)).unwrap_or(usize::MAX).min(total);
    let end = match limit {
        None => total,
        Some(limit) => start
            .saturating_add(usize::try_from(limit.max(0)).unwrap_or(usize::MAX))
            .min(total),
    };
    let skipped: Vec<Value> = matches[end..].iter().map(|(_, m)| m["pane_id"].clone()).collect();
    let page: Vec<Value> = matches.drain(start..end).map(|(_, m)| m).collect();
    let reply = json!({
        "matches": page,
        "truncated": lines_cut || !skipped.is_empty(),
        "truncated_panes": skipped,
        "total_panes_matched": total,
        "offset": offset,
        "limit": limit,
    });
    Ok(reply.to_string())
}

/// The pattern as paneward matches it: escaped unless `regex`, case-insensitive unless
/// `match_case`.
///
/// # Errors
/// Too long, or it does not compile: libtmux-mcp's messages.
fn compiled(pattern: &str, regex: bool, match_case: bool) -> Result<regex::Regex, ToolError> {
    if pattern.chars().count() > PATTERN_MAX_CHARS {
        return Err(upstream_error(
            "ExpectedToolError",
            &format!(
                "pattern is longer than {PATTERN_MAX_CHARS} characters. Compilation runs before the match deadline applies, so the length is bounded instead."
            ),
            None,
        ));
    }
    let source = if regex {
        pattern.to_string()
    } else {
        regex::escape(pattern)
    };
    regex::RegexBuilder::new(&source)
        .case_insensitive(!match_case)
        .size_limit(1 << 22)
        .build()
        // libtmux-mcp names this error by the regex module's exception, `error`.
        .map_err(|e| upstream_error("error", &format!("Invalid regex pattern: {e}"), None))
}

/// Each window's name and its session's name, by window id.
async fn names(gate: &ReadGate<'_>) -> Result<HashMap<String, (Value, Value)>, ToolError> {
    Ok(models::windows(gate, Scope::Server)
        .await?
        .into_iter()
        .map(|window| {
            let id = text(&window, "window_id").to_string();
            let names = (
                window.get("window_name").cloned().unwrap_or(Value::Null),
                window.get("session_name").cloned().unwrap_or(Value::Null),
            );
            (id, names)
        })
        .collect())
}

fn text<'a>(record: &'a Value, key: &str) -> &'a str {
    record.get(key).and_then(Value::as_str).unwrap_or_default()
}
