//! Tool results as the libtmux family's Rust port, `tmux-mcp` 0.1.2, writes them (rmcp's
//! structured results): the text beside the structured content is its compact JSON,
//! and a failure is an `isError` result whose one text block is the family's JSON
//! account of it (`crate::runtime::family_error`). The served style of
//! `--profile libtmux` ([`super::reply_text`]).

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

use crate::runtime::family_error;
use crate::runtime::reply_text::ReplyStyle;
use crate::runtime::ToolError;

/// `tmux-mcp`'s replies.
pub struct Rmcp;

impl ReplyStyle for Rmcp {
    fn name(&self) -> &'static str {
        "rmcp"
    }

    fn success(&self, structured: Value) -> CallToolResult {
        CallToolResult::structured(structured)
    }

    fn failure(&self, error: &ToolError) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text(family_error::body(error).to_string())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::ToolErrorKind;
    use serde_json::json;

    #[test]
    fn a_failure_is_one_text_block_of_the_familys_json() {
        let error = ToolError::new(ToolErrorKind::InvalidArguments, "nope is not a pane id");
        let result = Rmcp.failure(&error);
        assert_eq!(result.is_error, Some(true));
        assert_eq!(result.structured_content, None);
        let text = result.content[0].as_text().unwrap().text.clone();
        let body: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(body["data"]["kind"], "invalid_input");
    }

    #[test]
    fn a_success_carries_its_json_as_text_and_as_structured_content() {
        let result = Rmcp.success(json!({"id": "%1"}));
        assert_eq!(result.structured_content, Some(json!({"id": "%1"})));
        assert_eq!(result.content[0].as_text().unwrap().text, r#"{"id":"%1"}"#);
    }
}
