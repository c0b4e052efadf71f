//! Checking the `params` of the requests paneward serves before rmcp sees them.
//!
//! rmcp 3.11 reads a request whose params do not fit its method as a custom request
//! and answers -32601 with the bare method name (`tools/call` with `"name": 5`), or,
//! for params that are not an object, answers -32600 without the id. JSON-RPC wants
//! -32602; the answer here names the member at fault by its JSON pointer.

use rmcp::model::{
    CallToolRequestParams, CancelTaskParams, CompleteRequestParams, GetSkillRequestParams, GetTaskParams,
    InitializeRequestParams, PaginatedRequestParams, ReadResourceRequestParams, SubscribeRequestParams,
    SubscriptionsListenRequestParams, UnsubscribeRequestParams, UpdateTaskParams,
};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use serde_path_to_error::Segment;

/// What is wrong with the params of a request for `method`, if anything.
pub fn problem(method: &str, message: &Map<String, Value>) -> Option<String> {
    let params = message.get("params");
    match method {
        "initialize" => fits::<InitializeRequestParams>(params, true),
        "tools/call" => input_responses_problem(params)
            .or_else(|| fits::<CallToolRequestParams>(without_arguments(params).as_ref().or(params), true)),
        "tools/list" | "resources/list" | "resources/templates/list" | "skills/list" => {
            fits::<PaginatedRequestParams>(params, false)
        }
        "tasks/get" => fits::<GetTaskParams>(params, true),
        "tasks/update" => fits::<UpdateTaskParams>(params, true),
        "tasks/cancel" => fits::<CancelTaskParams>(params, true),
        "skills/get" => fits::<GetSkillRequestParams>(params, true),
        "resources/read" => fits::<ReadResourceRequestParams>(params, true),
        "resources/subscribe" => fits::<SubscribeRequestParams>(params, true),
        "resources/unsubscribe" => fits::<UnsubscribeRequestParams>(params, true),
        "subscriptions/listen" => fits::<SubscriptionsListenRequestParams>(params, true),
        "completion/complete" => fits::<CompleteRequestParams>(params, true),
        _ => fits::<Map<String, Value>>(params, false),
    }
}

/// `inputResponses` that are there but no object (`null`, a list), or a response in it
/// that is no object: rmcp would read `null` as absent, and the call would run as if
/// the client had sent nothing; a response of another shape answers nothing.
fn input_responses_problem(params: Option<&Value>) -> Option<String> {
    let Value::Object(responses) = params?.as_object()?.get("inputResponses")? else {
        return Some("/params/inputResponses: must be an object of responses, keyed as inputRequests were".into());
    };
    let (key, _) = responses.iter().find(|(_, response)| !response.is_object())?;
    let key: String = key.chars().take(crate::limits::ERROR_FIELD_NAME_MAX_CHARS).collect();
    Some(format!(
        "/params/inputResponses/{}: must be an object, the client's response to that inputRequest",
        paneward_contract::pointer_token(&key)
    ))
}

/// A tool call's params with an object of `arguments` emptied, which fit exactly when
/// the params do: rmcp takes any object as arguments. Checking them so spares a copy of
/// every argument (a batch's sixteen operations) per call. `None`: nothing to empty.
fn without_arguments(params: Option<&Value>) -> Option<Value> {
    let fields = params?.as_object()?;
    if !fields.get("arguments")?.is_object() {
        return None;
    }
    let shallow = fields
        .iter()
        .map(|(key, value)| match key.as_str() {
            "arguments" => (key.clone(), Value::Object(Map::new())),
            _ => (key.clone(), value.clone()),
        })
        .collect();
    Some(Value::Object(shallow))
}

fn fits<P: DeserializeOwned>(params: Option<&Value>, required: bool) -> Option<String> {
    let params = match params {
        None if required => return Some("/params: missing; this method takes an object".into()),
        None => return None,
        Some(params) if !params.is_object() => return Some("/params: must be an object".into()),
        Some(params) => params,
    };
    let error = serde_path_to_error::deserialize::<_, P>(params).err()?;
    let pointer: String = error
        .path()
        .iter()
        .filter_map(|segment| match segment {
            Segment::Seq { index } => Some(format!("/{index}")),
            Segment::Map { key } => Some(format!("/{}", paneward_contract::pointer_token(key))),
            Segment::Enum { .. } | Segment::Unknown => None,
        })
        .collect();
    Some(format!("/params{pointer}: {}", error.into_inner()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problem_of(method: &str, message: Value) -> Option<String> {
        problem(method, message.as_object().unwrap())
    }

    #[test]
    fn a_tool_call_names_the_member_at_fault() {
        let cases = [
            (json!({}), "/params: missing"),
            (json!({"params": {}}), "/params: missing field `name`"),
            (json!({"params": {"name": 5}}), "/params/name: invalid type"),
            (
                json!({"params": {"name": 5, "arguments": {"a": [1, {"b": null}]}}}),
                "/params/name: invalid type",
            ),
            (
                json!({"params": {"name": "x", "arguments": {}, "_meta": 3}}),
                "/params/_meta: invalid type",
            ),
            (
                json!({"params": {"name": "x", "arguments": [1]}}),
                "/params/arguments: invalid type",
            ),
            (
                json!({"params": {"name": "x", "arguments": "a"}}),
                "/params/arguments: invalid type",
            ),
            (
                json!({"params": {"name": "x", "arguments": 3}}),
                "/params/arguments: invalid type",
            ),
            (json!({"params": [1]}), "/params: must be an object"),
        ];
        for (message, expected) in cases {
            let found = problem_of("tools/call", message.clone()).unwrap_or_default();
            assert!(found.starts_with(expected), "{message}: {found}");
        }
        assert_eq!(problem_of("tools/call", json!({"params": {"name": "x"}})), None);
        let with_arguments = json!({"params": {"name": "x", "arguments": {"a": 1}}});
        assert_eq!(problem_of("tools/call", with_arguments), None);
    }

    #[test]
    fn params_are_optional_objects_elsewhere() {
        assert_eq!(problem_of("tools/list", json!({})), None);
        let null_responses = json!({"params": {"name": "x", "inputResponses": null}});
        let found = problem_of("tools/call", null_responses).unwrap_or_default();
        assert!(
            found.starts_with("/params/inputResponses: must be an object"),
            "{found}"
        );
        let object_responses = json!({"params": {"name": "x", "inputResponses": {"a": {"action": "accept"}}}});
        assert_eq!(problem_of("tools/call", object_responses), None);
        let number_response = json!({"params": {"name": "x", "inputResponses": {"a/b": 12345}}});
        let found = problem_of("tools/call", number_response).unwrap_or_default();
        assert!(
            found.starts_with("/params/inputResponses/a~1b: must be an object"),
            "{found}"
        );
        assert_eq!(problem_of("ping", json!({"params": {}})), None);
        for method in ["tools/list", "ping"] {
            let found = problem_of(method, json!({"params": []})).unwrap_or_default();
            assert!(found.starts_with("/params: must be an object"), "{method}: {found}");
        }
        let found = problem_of("tools/list", json!({"params": {"cursor": 1}})).unwrap_or_default();
        assert!(found.starts_with("/params/cursor"), "{found}");
    }
}
