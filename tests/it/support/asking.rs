//! A client through which paneward asks its person, in both eras: initialized as an MCP
//! 2025-11-25 client (a question comes as an `elicitation/create` request) with a call
//! that answers the questions it raises, or as a 2026-07-28 client (the question ends
//! the call; the call is repeated with the answer). Shared by the tests of the guards
//! that ask, of `request_pane`, `hand_to_person` and of kills that need a yes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::{json, Value};

use super::Client;

impl Client {
    /// `initialize` (request id 0) as a 2025-11-25 client that shows forms (`elicit`)
    /// or declares nothing, then `notifications/initialized`.
    pub fn initialize_legacy(&mut self, elicit: bool) {
        let capabilities = if elicit {
            json!({"elicitation": {"form": {}}})
        } else {
            json!({})
        };
        self.send(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities,
            "clientInfo": {"name": "paneward-tests", "version": "0"}
        }}));
        let response = self.response(&json!(0));
        assert!(response.get("result").is_some(), "{response}");
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    /// Calls `tool` as request `id`, answering each question it raises with
    /// `answer(the question's params)`; returns the questions' params and the result.
    pub fn call_answering(
        &mut self,
        id: i64,
        tool: &str,
        arguments: Value,
        mut answer: impl FnMut(&Value) -> Value,
    ) -> (Vec<Value>, Value) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}));
        let mut questions = Vec::new();
        loop {
            let line = self.next_raw_line().expect("paneward closed stdout");
            let message: Value = serde_json::from_str(&line).expect("JSON");
            if message["method"] == "elicitation/create" {
                let reply = answer(&message["params"]);
                questions.push(message["params"].clone());
                self.send(&json!({"jsonrpc": "2.0", "id": message["id"], "result": reply}));
            } else if message["id"] == json!(id) && message.get("method").is_none() {
                return (questions, message["result"].clone());
            }
        }
    }

    /// `tools/call` of `tool` as a 2026-07-28 client that shows forms, with the second
    /// round's `requestState` and the person's answer when given.
    pub fn call_current(&mut self, tool: &str, arguments: &Value, state: Option<&str>, answer: Option<Value>) -> Value {
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "paneward-tests", "version": "0"}
        });
        let mut params = json!({"_meta": meta, "name": tool, "arguments": arguments});
        if let Some(state) = state {
            params["requestState"] = json!(state);
        }
        if let Some(answer) = answer {
            params["inputResponses"] = json!({"consent": answer});
        }
        self.request("tools/call", params)
    }
}

/// The person's yes, as the client sends it back.
pub fn yes() -> Value {
    json!({"action": "accept", "content": {"allow": true}})
}
