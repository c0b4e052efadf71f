//! A failure as the libtmux family reports it: `{"message": …, "data": {"kind",
//! "retryable", "stale"}}`, the object an agent decides its next move by. The reply
//! style of `--profile libtmux` (`call::libtmux`) writes it as an error's text, and the
//! profile's `send_keys_batch` and `call_read_tools_batch` as a failed row's `error`.

use serde_json::{json, Value};

use super::{ToolError, ToolErrorKind};

/// The family's account of `error`.
pub fn body(error: &ToolError) -> Value {
    json!({
        "message": error.message(),
        "data": {
            "kind": family_kind(error.kind()),
            "retryable": error.retry_safe(),
            "stale": error.kind() == ToolErrorKind::NotFound,
        },
    })
}

/// A failed batch row: a JSON-RPC error object whose code says whose move it is (the
/// caller's, `-32602`, else `-32603`), as the family's batches write it.
pub fn row_error(error: &ToolError) -> Value {
    let callers = matches!(
        error.kind(),
        ToolErrorKind::InvalidArguments | ToolErrorKind::NotFound | ToolErrorKind::Refused | ToolErrorKind::NotAllowed
    );
    json!({
        "code": if callers { -32602 } else { -32603 },
        "message": error.message(),
        "data": body(error)["data"],
    })
}

/// The family's name for what went wrong (the `kind` its agents branch on), for
/// paneward's kind of error.
fn family_kind(kind: ToolErrorKind) -> &'static str {
    match kind {
        ToolErrorKind::InvalidArguments => "invalid_input",
        // Gone, or never there: looking again is what helps, as for the family's.
        ToolErrorKind::NotFound => "object_gone",
        ToolErrorKind::NotAllowed | ToolErrorKind::Refused | ToolErrorKind::Blocked => "refused",
        ToolErrorKind::UnknownTool => "dispatch_unknown",
        ToolErrorKind::TmuxUnavailable => "server_gone",
        ToolErrorKind::Timeout => "timeout",
        ToolErrorKind::MayHaveRun => "partial_effect",
        ToolErrorKind::BadReply => "decode",
        ToolErrorKind::Cancelled | ToolErrorKind::Internal => "internal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_object_is_gone_and_stale_and_not_worth_retrying_unchanged() {
        let error = ToolError::new(ToolErrorKind::NotFound, "no pane %99");
        assert_eq!(
            body(&error),
            json!({"message": "no pane %99", "data": {"kind": "object_gone", "retryable": false, "stale": true}})
        );
        assert_eq!(row_error(&error)["code"], -32602);
    }
}
