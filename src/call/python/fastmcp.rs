//! Tool results as libtmux-mcp's server (FastMCP) writes them: the text beside the
//! structured content is its compact JSON; a reply that is text (a tool whose upstream
//! declares no output schema) is that text alone, with an object's text also as the
//! structured content and any other wrapped as `{"result": …}`; a tool whose output
//! schema says `x-fastmcp-wrap-result` has its bare value wrapped so; an error's
//! `_meta` is `{error_type, expected, suggestion}` and its text ends with the
//! suggestion. The served style of `--profile python` ([`super::super::reply_text`]).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde_json::{json, Map, Value};

use crate::runtime::reply_text::ReplyStyle;
use crate::runtime::ToolError;

/// libtmux-mcp's replies.
pub struct FastMcp;

impl ReplyStyle for FastMcp {
    fn name(&self) -> &'static str {
        "fastmcp"
    }

    // A structured reply is always an object, so a string is the reply of a tool that
    // declares no output schema. FastMCP still sends structured content for it: an
    // object's text as that object, any other text wrapped as `{result}`.
    fn success(&self, structured: Value) -> CallToolResult {
        match structured {
            Value::String(text) => match serde_json::from_str::<Value>(&text) {
                Ok(object @ Value::Object(_)) => {
                    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                    result.structured_content = Some(object);
                    result
                }
                _ => wrapped_result(json!({ "result": text })),
            },
            structured => CallToolResult::structured(structured),
        }
    }

    fn tool_success(&self, tool: &str, structured: Value) -> CallToolResult {
        if wraps_result(tool) {
            wrapped_result(structured)
        } else {
            self.success(structured)
        }
    }

    fn failure(&self, error: &ToolError) -> CallToolResult {
        let upstream = error.upstream();
        let mut meta = Map::new();
        meta.insert("error_type".into(), Value::String(upstream.error_type.into()));
        meta.insert("expected".into(), Value::Bool(upstream.expected));
        let mut text = in_this_contract(error.message());
        if let Some(suggestion) = upstream.suggestion {
            text.push('\n');
            text.push_str(&suggestion);
            meta.insert("suggestion".into(), Value::String(suggestion));
        }
        CallToolResult::error(vec![ContentBlock::text(text)]).with_meta(Some(MetaObject(meta)))
    }
}

/// paneward's refusal `message` as this contract reads it: the `force` argument its
/// safety rules mention is not one of libtmux-mcp's, so the advice to pass it becomes
/// what it means here (paneward does not type there), and "force does not change this"
/// goes.
fn in_this_contract(message: &str) -> String {
    message
        .replace(
            "(input there needs force: true)",
            "(paneward does not type there; this contract has no force)",
        )
        .replace("; force does not change this)", ")")
        .replace(" (force does not change this)", "")
        .replace(" (no option or force overrides this)", " (no option overrides this)")
}

/// Whether the profile's tool `tool` answers a bare value wrapped as `{"result": …}`:
/// its output schema says so (`x-fastmcp-wrap-result`), as its upstream's does. Read
/// from the generated table once.
fn wraps_result(tool: &str) -> bool {
    static WRAPPING: OnceLock<BTreeSet<&'static str>> = OnceLock::new();
    WRAPPING
        .get_or_init(|| {
            crate::generated::python::TOOLS
                .iter()
                .filter(|spec| {
                    spec.output_schema
                        .and_then(|schema| serde_json::from_str::<Value>(schema).ok())
                        .is_some_and(|schema| schema.get("x-fastmcp-wrap-result") == Some(&Value::Bool(true)))
                })
                .map(|spec| spec.name)
                .collect()
        })
        .contains(tool)
}

/// libtmux-mcp's reply for a tool whose upstream declares a bare value wrapped as
/// `{"result": …}`: the structured content is the wrapper, the text is the bare value
/// (a string as it is, anything else as JSON, an empty list as no text at all, as
/// FastMCP writes them), and `_meta` says the result was wrapped.
fn wrapped_result(structured: Value) -> CallToolResult {
    let content = match structured.get("result") {
        Some(Value::String(text)) => vec![ContentBlock::text(text.clone())],
        Some(Value::Array(items)) if items.is_empty() => Vec::new(),
        Some(value) => vec![ContentBlock::text(value.to_string())],
        None => vec![ContentBlock::text(structured.to_string())],
    };
    let mut result = CallToolResult::success(content);
    result.structured_content = Some(structured);
    let mut meta = Map::new();
    meta.insert("fastmcp".into(), json!({"wrap_result": true}));
    result.with_meta(Some(MetaObject(meta)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_is_the_compact_json_and_the_structured_content_is_untouched() {
        let value = json!({"sessions": [{"id": "$1", "name": "work"}], "total": 1});
        let result = FastMcp.success(value.clone());
        assert_eq!(result.structured_content, Some(value.clone()));
        assert_eq!(result.is_error, Some(false));
        assert_eq!(result.content[0].as_text().unwrap().text, value.to_string());
    }

    #[test]
    fn a_refusal_never_advises_an_argument_this_contract_lacks() {
        let error = ToolError::blocked(
            "pane %3 is the caller pane, the one paneward itself runs in (input there needs force: true); nothing was typed",
        );
        let result = FastMcp.failure(&error);
        let text = &result.content[0].as_text().unwrap().text;
        assert!(!text.contains("force: true"), "{text}");
        assert!(
            text.contains("paneward does not type there; this contract has no force"),
            "{text}"
        );
    }

    #[test]
    fn a_tool_whose_schema_says_so_has_its_value_wrapped() {
        let wrapping = crate::generated::python::TOOLS
            .iter()
            .find(|spec| {
                spec.output_schema
                    .is_some_and(|schema| schema.contains("\"x-fastmcp-wrap-result\":true"))
            })
            .map(|spec| spec.name)
            .expect("the profile has a tool whose result is wrapped");
        let result = FastMcp.tool_success(wrapping, json!({"result": []}));
        assert!(result.content.is_empty(), "an empty list is no text");
        assert_eq!(result.meta.unwrap().0["fastmcp"], json!({"wrap_result": true}));
        let plain = FastMcp.tool_success("get_server_info", json!({"result": []}));
        assert!(plain.meta.is_none());
    }
}
