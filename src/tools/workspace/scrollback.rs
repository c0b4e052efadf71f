//! `history_limit` of the create tools: scrollback sized for the new pane alone.
//!
//! tmux 3.3a fixes a pane's scrollback when it creates the pane, from the
//! `history-limit` of the session it is created in, and never resizes it after. So the
//! limit is set on that session (never globally) in the same command list, just before
//! the creating command, and put back just after it: the session's own value if it had
//! one, else unset so it inherits again. Nothing else runs between, so no other pane
//! gets the limit (docs/tmux-quirks.md, "history-limit").

use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb};
use crate::limits::HISTORY_LIMIT_MAX_LINES;
use crate::runtime::error::ToolError;
use crate::tmux::{ReadCommand, ReadVerb, SessionId};

/// The session option a new pane's scrollback is taken from.
const OPTION: &str = "history-limit";

/// The caller's `history_limit`, checked against [`HISTORY_LIMIT_MAX_LINES`].
///
/// # Errors
/// A negative number or one above the bound.
pub fn checked(history_limit: Option<i64>) -> Result<Option<u32>, ToolError> {
    history_limit
        .map(|lines| {
            u32::try_from(lines)
                .ok()
                .filter(|lines| *lines <= HISTORY_LIMIT_MAX_LINES)
                .ok_or_else(|| {
                    ToolError::invalid_argument(
                        "/history_limit",
                        format!("must be a number of lines from 0 to {HISTORY_LIMIT_MAX_LINES}"),
                    )
                })
        })
        .transpose()
}

/// Sets the limit on the session `target` names, for the pane created next.
pub fn set(target: &str, lines: u32) -> ChangeCommand {
    ChangeCommand::new(ChangeVerb::SetOption)
        .arg("-t")
        .arg(target)
        .arg(OPTION)
        .arg(lines.to_string())
}

/// Puts the session's limit back: its own `previous` value, or unset to inherit.
pub fn restore(target: &str, previous: Option<&str>) -> ChangeCommand {
    let command = ChangeCommand::new(ChangeVerb::SetOption);
    match previous {
        Some(value) => command.arg("-t").arg(target).arg(OPTION).arg(value),
        None => command.arg("-u").arg("-t").arg(target).arg(OPTION),
    }
}

/// The limit `session` sets itself, if any (`show-options` without `-g` or `-A` leaves
/// inherited values out).
///
/// # Errors
/// tmux failed (a missing session among them).
pub async fn own_value(gate: &ChangeGate<'_>, session: SessionId) -> Result<Option<String>, ToolError> {
    let read = ReadCommand::new(ReadVerb::ShowOptions)
        .arg("-qv")
        .arg("-t")
        .arg(session.to_string())
        .arg(OPTION);
    let output = gate.run(read).await?;
    let value = String::from_utf8_lossy(&output).trim().to_string();
    Ok((!value.is_empty()).then_some(value))
}

/// After a command list that set the limit failed part-way (tmux stops at the first
/// failing command, so the restore may not have run): puts it back, best effort.
pub async fn restore_after_failure(gate: &ChangeGate<'_>, target: &str, previous: Option<&str>) {
    if let Err(error) = gate.change_all(&[restore(target, previous)]).await {
        tracing::warn!(%error, "cannot put a session's history-limit back after a failed create");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_bounded_and_the_schema_says_the_same_bound() {
        assert_eq!(checked(None).unwrap(), None);
        assert_eq!(checked(Some(0)).unwrap(), Some(0));
        assert_eq!(
            checked(Some(i64::from(HISTORY_LIMIT_MAX_LINES))).unwrap(),
            Some(HISTORY_LIMIT_MAX_LINES)
        );
        let error = checked(Some(i64::from(HISTORY_LIMIT_MAX_LINES) + 1)).unwrap_err();
        assert!(error.message().contains("/history_limit"), "{error:?}");
        assert!(checked(Some(-1)).is_err());
        for tool in ["create_session", "create_window", "split_window"] {
            let path = format!("{}/schemas/tools/{tool}.json", env!("CARGO_MANIFEST_DIR"));
            let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            let maximum = &schema["inputSchema"]["properties"]["history_limit"]["maximum"];
            assert_eq!(maximum.as_u64(), Some(u64::from(HISTORY_LIMIT_MAX_LINES)), "{tool}");
        }
    }

    #[test]
    fn the_restore_unsets_a_limit_the_session_did_not_set_itself() {
        let summary = |c: ChangeCommand| c.summary();
        assert_eq!(summary(set("$1", 50_000)), "set-option -t $1 history-limit 50000");
        assert_eq!(summary(restore("$1", None)), "set-option -u -t $1 history-limit");
        assert_eq!(
            summary(restore("$1", Some("9000"))),
            "set-option -t $1 history-limit 9000"
        );
    }
}
