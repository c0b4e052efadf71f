//! The change report, as text (one line per change) or JSON, and the exit status that
//! summarises it.

use serde_json::json;

use super::{Change, Class};

/// Exit status: no change.
pub const EXIT_UNCHANGED: u8 = 0;
/// Exit status: only compatible changes.
pub const EXIT_COMPATIBLE: u8 = 1;
/// Exit status: at least one breaking change.
pub const EXIT_BREAKING: u8 = 2;
/// Exit status: the comparison (or import) could not be made.
pub const EXIT_ERROR: u8 = 3;

/// The exit status for `changes`.
pub fn exit_status(changes: &[Change]) -> u8 {
    if changes.iter().any(|change| change.class == Class::Breaking) {
        EXIT_BREAKING
    } else if changes.is_empty() {
        EXIT_UNCHANGED
    } else {
        EXIT_COMPATIBLE
    }
}

/// One line per change (`breaking   tool#/pointer: what`), then a summary line.
pub fn text(changes: &[Change]) -> String {
    let mut out = String::new();
    for change in changes {
        let place = if change.pointer.is_empty() {
            change.tool.clone()
        } else {
            format!("{}#{}", change.tool, change.pointer)
        };
        out.push_str(&format!("{:<10} {place}: {}\n", change.class.as_str(), change.message));
    }
    out.push_str(&summary(changes));
    out.push('\n');
    out
}

/// "no changes", or "3 changes: 1 breaking, 2 compatible".
pub fn summary(changes: &[Change]) -> String {
    let breaking = changes.iter().filter(|c| c.class == Class::Breaking).count();
    match changes.len() {
        0 => "no changes".to_string(),
        total => format!(
            "{total} change{}: {breaking} breaking, {} compatible",
            if total == 1 { "" } else { "s" },
            total - breaking
        ),
    }
}

/// The report as one JSON document: `{"changes": [...], "breaking": n, "compatible": m}`.
pub fn json(changes: &[Change]) -> String {
    let breaking = changes.iter().filter(|c| c.class == Class::Breaking).count();
    let document = json!({
        "changes": changes,
        "breaking": breaking,
        "compatible": changes.len() - breaking,
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}
