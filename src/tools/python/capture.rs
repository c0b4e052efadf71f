//! libtmux-mcp's `capture_pane` and `snapshot_pane` under `--profile python`: a pane's
//! rows read through paneward's own capture ([`crate::tools::observe::capture`]), so its
//! own rows stay hidden, cut to the newest `max_lines` as libtmux-mcp cuts them.
//!
//! Stricter than libtmux-mcp: `max_lines` below 1 is refused, and `max_lines: null` (no
//! cut) still keeps the reply within paneward's 1,000,000-byte text bound, counting what
//! it leaves out in the same header.

use serde_json::{json, Value};

use crate::generated::python::types::{CapturePaneInput, SnapshotPaneInput};
use crate::guard::ReadGate;
use crate::limits::TEXT_MAX_BYTES;
use crate::runtime::ToolError;
use crate::tmux::PaneId;
use crate::tools::args;
use crate::tools::observe::capture::read_range;
use crate::tools::observe::pane_state::{capture_range, describe_pane, pane_record};
use crate::tools::observe::text::{keep_newest_within, split_capture};

use super::target::{checked, explained, named_pane, Level, Server, Targeting};

pub async fn capture_pane(gate: &ReadGate<'_>, input: CapturePaneInput) -> Result<String, ToolError> {
    let targeting = checked(gate, &input)?;
    let max_lines = line_cap("/max_lines", input.max_lines)?;
    let pane = match named_pane(&targeting) {
        Some(pane) => pane,
        None => resolved_pane(gate, &targeting).await?,
    };
    let lines = match read_range(gate, pane, input.start, input.end).await {
        Ok(lines) => lines,
        Err(error) => return Err(explained(gate, &targeting, error).await),
    };
    let (kept, dropped) = newest(lines, max_lines);
    let text = kept.join("\n");
    Ok(if dropped > 0 {
        format!("[... truncated {dropped} lines ...]\n{text}")
    } else {
        text
    })
}

/// The variables a snapshot reads, with how each enters the reply.
const SNAPSHOT: [(&str, Shape); 23] = [
    ("cursor_x", Shape::IntOrZero),
    ("cursor_y", Shape::IntOrZero),
    ("pane_width", Shape::IntOrZero),
    ("pane_height", Shape::IntOrZero),
    ("pane_in_mode", Shape::FlagOrFalse),
    ("pane_mode", Shape::Text),
    ("scroll_position", Shape::Int),
    ("history_size", Shape::IntOrZero),
    ("pane_title", Shape::Text),
    ("pane_current_command", Shape::Text),
    ("pane_current_path", Shape::Text),
    ("pane_left", Shape::Int),
    ("pane_top", Shape::Int),
    ("pane_right", Shape::Int),
    ("pane_bottom", Shape::Int),
    ("pane_at_left", Shape::Flag),
    ("pane_at_right", Shape::Flag),
    ("pane_at_top", Shape::Flag),
    ("pane_at_bottom", Shape::Flag),
    ("pane_tty", Shape::Text),
    ("pane_pid", Shape::Text),
    ("pane_dead", Shape::Flag),
    ("alternate_on", Shape::Flag),
];

/// How libtmux-mcp's `PaneSnapshot` types a variable (empty text is "unset").
#[derive(Clone, Copy)]
enum Shape {
    Text,
    Int,
    IntOrZero,
    Flag,
    FlagOrFalse,
}

pub async fn snapshot_pane(gate: &ReadGate<'_>, input: SnapshotPaneInput) -> Result<String, ToolError> {
    let targeting = checked(gate, &input)?;
    let max_lines = line_cap("/max_lines", input.max_lines)?;
    let server = Server::read_for(gate, &targeting, Level::Pane).await?;
    let listed = server.pane(&targeting)?;
    let pane = args::pane_id("/pane_id", listed.id.as_str())?;
    let is_caller = gate.state().caller.as_ref().map(|_| listed.is_caller);
    let mut names: Vec<&str> = vec!["pane_id"];
    names.extend(SNAPSHOT.iter().map(|(name, _)| *name));
    // The capture first: unlike display-message it fails for a pane gone meanwhile.
    let [rows, facts] = gate
        .run_each([capture_range(pane, None, None, false), describe_pane(pane, &names)])
        .await?;
    let facts = String::from_utf8_lossy(&facts);
    let record = pane_record(pane, &names, &facts)?;
    let (kept, dropped) = newest(split_capture(&rows), max_lines);
    let mut reply = serde_json::Map::new();
    reply.insert("pane_id".into(), json!(pane.to_string()));
    reply.insert("content".into(), json!(kept.join("\n")));
    for (name, shape) in SNAPSHOT {
        let text = record.text(name)?;
        let key = if name == "pane_title" { "title" } else { name };
        reply.insert(key.into(), shaped(text, shape));
    }
    reply.insert("is_caller".into(), json!(is_caller));
    reply.insert("content_truncated".into(), json!(dropped > 0));
    reply.insert("content_truncated_lines".into(), json!(dropped));
    Ok(Value::Object(reply).to_string())
}

fn shaped(text: &str, shape: Shape) -> Value {
    let int = || text.parse::<i64>().ok();
    match shape {
        Shape::Text if text.is_empty() => Value::Null,
        Shape::Text => json!(text),
        Shape::Int => int().map_or(Value::Null, Value::from),
        Shape::IntOrZero => json!(int().unwrap_or(0)),
        Shape::Flag if text.is_empty() => Value::Null,
        Shape::Flag => json!(text == "1"),
        Shape::FlagOrFalse => json!(text == "1"),
    }
}

/// The pane the targeting names, as an id paneward parsed.
///
/// # Errors
/// As [`Server::pane`].
pub async fn resolved_pane(gate: &ReadGate<'_>, targeting: &Targeting<'_>) -> Result<PaneId, ToolError> {
    let server = Server::read_for(gate, targeting, Level::Pane).await?;
    args::pane_id("/pane_id", server.pane(targeting)?.id.as_str())
}

/// `max_lines` as libtmux-mcp takes it: a count, or null for no cut.
///
/// # Errors
/// Below 1.
pub fn line_cap(field: &str, max_lines: Option<i64>) -> Result<Option<usize>, ToolError> {
    match max_lines {
        None => Ok(None),
        Some(n) if n >= 1 => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
        Some(n) => Err(ToolError::invalid_argument(
            field,
            format!("must be at least 1, or null for every line; got {n}"),
        )),
    }
}

/// The newest `max_lines` of `lines` that also fit paneward's text bound, and how many
/// were left out.
fn newest(lines: Vec<String>, max_lines: Option<usize>) -> (Vec<String>, i64) {
    let bounded = keep_newest_within(lines, max_lines.unwrap_or(usize::MAX), TEXT_MAX_BYTES);
    (bounded.lines, bounded.truncated_lines)
}
