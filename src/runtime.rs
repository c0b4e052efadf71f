//! What the generated code refers to: the tool table's row type, tiers, the per-call
//! context, errors, and the argument/output conversions of the dispatch function.

use std::fmt;
use std::str::FromStr;

use rmcp::model::{CallToolResult, RequestId, ServerJsonRpcMessage, ServerResult};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

pub use crate::error::{ToolError, ToolErrorKind};

/// How much a tool may do. Tiers are ordered: a server at `Mutating` offers the
/// `Readonly` tools too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// Observes tmux; changes nothing.
    Readonly,
    /// Changes tmux or types into panes.
    Mutating,
    /// Ends something (a pane, window, session or the server).
    Destructive,
}

impl Tier {
    pub const ALL: [Tier; 3] = [Tier::Readonly, Tier::Mutating, Tier::Destructive];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Readonly => "readonly",
            Self::Mutating => "mutating",
            Self::Destructive => "destructive",
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown tier name: a start-up error, never a silent widening.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTier(pub String);

impl fmt::Display for UnknownTier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown safety tier {:?}; use readonly, mutating or destructive",
            self.0
        )
    }
}

impl std::error::Error for UnknownTier {}

impl FromStr for Tier {
    type Err = UnknownTier;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Tier::ALL
            .into_iter()
            .find(|tier| tier.as_str() == text)
            .ok_or_else(|| UnknownTier(text.chars().take(40).collect()))
    }
}

/// One row of the generated tool table: the contract of a tool as its file states it.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec {
    pub name: &'static str,
    pub title: Option<&'static str>,
    pub description: &'static str,
    pub tier: Tier,
    /// The upstream page the contract came from, or `paneward`.
    pub source: &'static str,
    /// Compact JSON, exactly as in the schema file.
    pub input_schema: &'static str,
    pub output_schema: &'static str,
    pub annotations: &'static str,
}

/// What a handler knows about the call it serves.
#[derive(Debug, Clone, Default)]
pub struct CallContext {
    /// The JSON-RPC id of the request; `None` for a call nested in a batch.
    request_id: Option<RequestId>,
}

impl CallContext {
    pub fn for_request(request_id: RequestId) -> Self {
        Self {
            request_id: Some(request_id),
        }
    }

    /// The context of a call made on behalf of another (a batch row).
    pub fn nested() -> Self {
        Self { request_id: None }
    }

    /// The exact length in bytes of the JSON-RPC response line that would carry
    /// `structured` as a successful tool result (structured content, its text copy,
    /// the envelope and the newline), as the stdio transport writes it.
    ///
    /// # Errors
    /// Serialization failed (it cannot for a `Value`).
    pub fn reply_line_len(&self, structured: &Value) -> Result<usize, ToolError> {
        let id = self.request_id.clone().unwrap_or(RequestId::Number(0));
        let result = CallToolResult::structured(structured.clone());
        let message = ServerJsonRpcMessage::response(ServerResult::CallToolResult(result), id);
        let bytes =
            serde_json::to_vec(&message).map_err(|e| ToolError::internal(format!("cannot measure a reply: {e}")))?;
        Ok(bytes.len() + 1)
    }
}

/// Decodes validated arguments into a generated input type.
///
/// # Errors
/// A value the schema allowed but the Rust type does not (named as an argument error).
pub fn decode_arguments<T: DeserializeOwned>(arguments: Value) -> Result<T, ToolError> {
    serde_json::from_value(arguments).map_err(|e| ToolError::invalid_argument("", e))
}

/// Encodes a handler's output as the JSON of `structuredContent`.
///
/// # Errors
/// Serialization failed, which is a fault in paneward.
pub fn encode_output<T: Serialize>(output: &T) -> Result<Value, ToolError> {
    serde_json::to_value(output).map_err(|e| ToolError::internal(format!("cannot encode the reply: {e}")))
}
