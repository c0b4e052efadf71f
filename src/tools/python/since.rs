//! libtmux-mcp's `capture_since` under `--profile python`, adapted onto paneward's own
//! `capture_since` ([`crate::tools::observe::since`]): its cursors are paneward's (sealed,
//! tied to the pane), the rows are what paneward finds after the cursor's anchor, and
//! `max_bytes` then cuts the oldest of them as libtmux-mcp does.
//!
//! Stricter than libtmux-mcp: `max_lines` is at most paneward's 5,000 (`null` means
//! 5,000), and a cursor from libtmux-mcp itself is not one paneward can open.

use std::time::Instant;

use serde_json::json;

use crate::generated::python::types::CaptureSinceInput;
use crate::generated::types::CaptureSinceInput as OwnInput;
use crate::guard::ReadGate;
use crate::limits::TEXT_MAX_LINES;
use crate::runtime::ToolError;
use crate::tools::observe::cursor::CursorKey;
use crate::tools::observe::since::capture_since_at;

use super::capture::resolved_pane;
use super::target::{checked, upstream_error, Targeting};

pub async fn capture_since(gate: &ReadGate<'_>, input: CaptureSinceInput) -> Result<String, ToolError> {
    let CaptureSinceInput {
        max_bytes, max_lines, ..
    } = input;
    for (name, limit) in [("max_lines", max_lines), ("max_bytes", max_bytes)] {
        if let Some(n) = limit.filter(|n| *n <= 0) {
            return Err(upstream_error(
                "ExpectedToolError",
                &format!("{name} must be positive or None (received {n})"),
                None,
            ));
        }
    }
    let targeting = checked(gate, &input)?;
    let started = Instant::now();
    // A cursor alone names its pane.
    // The profile's cursor is paneward's, then `~` and the fingerprint of the row the
    // terminal cursor was on (see `row_mark`).
    let (own_cursor, mark) = match input.cursor.as_deref().map(|text| text.rsplit_once('~')) {
        Some(Some((own, mark))) => (Some(own.to_string()), Some(mark.to_string())),
        Some(None) => (input.cursor.clone(), None),
        None => (None, None),
    };
    let cursor_pane = match own_cursor.as_deref() {
        Some(text) => Some(
            CursorKey::process()?
                .open(text)
                .map_err(|e| upstream_error("ExpectedToolError", &format!("invalid capture_since cursor: {e}"), None))?
                .pane,
        ),
        None => None,
    };
    let targeted = targeting.pane_id.is_some()
        || targeting.session_name.is_some()
        || targeting.session_id.is_some()
        || targeting.window_id.is_some();
    let cursor_id = cursor_pane.map(|pane| pane.to_string());
    let targeting = Targeting {
        pane_id: if targeted {
            targeting.pane_id
        } else {
            cursor_id.as_deref()
        },
        ..targeting
    };
    let pane = resolved_pane(gate, &targeting).await?;
    if let Some(from) = cursor_pane.filter(|from| *from != pane) {
        return Err(upstream_error(
            "ExpectedToolError",
            &format!("cursor pane {from} does not match requested pane {pane}"),
            None,
        ));
    }
    let own = OwnInput {
        cursor: own_cursor,
        max_lines: Some(max_lines.map_or(TEXT_MAX_LINES, |n| n.min(TEXT_MAX_LINES))),
        pane_id: pane.to_string(),
    };
    let (read, cursor_row) = capture_since_at(gate, own).await?;
    let mut lines = read.lines;
    // paneward returns the cursor's row again, as it may still change; libtmux-mcp
    // leaves it out while it is unchanged, so polling until nothing is new ends.
    let unchanged = |row: &String| mark.as_deref() == Some(row_mark(row).as_str());
    if !read.lines_missed && read.truncated_lines == 0 && lines.first().is_some_and(unchanged) {
        lines.remove(0);
    }
    let cursor = format!(
        "{}~{}",
        read.cursor,
        row_mark(cursor_row.as_deref().unwrap_or_default())
    );
    let mut truncated_lines = read.truncated_lines;
    let mut truncated_bytes = read.truncated_bytes;
    if let Some(limit) = max_bytes.and_then(|n| usize::try_from(n).ok()) {
        let size = |lines: &[String]| lines.iter().map(|l| l.len() + 1).sum::<usize>().saturating_sub(1);
        while !lines.is_empty() && size(&lines) > limit {
            if lines.len() == 1 {
                // One line over the bound keeps its newest bytes, on a character boundary.
                let line = &lines[0];
                let mut cut = line.len() - limit;
                while !line.is_char_boundary(cut) {
                    cut += 1;
                }
                truncated_bytes += u64::try_from(cut).unwrap_or(0);
                lines[0] = line[cut..].to_string();
                break;
            }
            let removed = lines.remove(0);
            truncated_lines += 1;
            truncated_bytes += u64::try_from(removed.len() + 1).unwrap_or(0);
        }
    }
    let elapsed = (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;
    Ok(json!({
        "pane_id": pane.to_string(),
        "cursor": cursor,
        "lines": lines,
        "elapsed_seconds": elapsed,
        "lines_missed": read.lines_missed,
        "truncated": truncated_lines > 0 || truncated_bytes > 0,
        "truncated_lines": truncated_lines,
        "truncated_bytes": truncated_bytes,
    })
    .to_string())
}

/// A short fingerprint of a row's text, carried in the profile's cursor: the row is
/// compared, never stored (a cursor holds no pane text).
fn row_mark(row: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    row.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}
