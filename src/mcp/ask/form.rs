//! The one question paneward puts to a person, in MCP's form mode: a yes/no field
//! `allow`, and how an answer to it reads. Both ways of asking use it (a legacy
//! `elicitation/create`, and the input request of a 2026-07-28 round trip).

use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use serde_json::json;

use crate::runtime::ask::Answer;

/// The form field that carries the person's answer.
const ALLOW: &str = "allow";

/// The form asking `question`.
///
/// # Errors
/// rmcp refuses the form (a build fault; said in words).
pub fn consent_form(question: String) -> Result<ElicitRequestParams, String> {
    let params = json!({
        "mode": "form",
        "message": question,
        "requestedSchema": {
            "type": "object",
            "properties": {
                ALLOW: {
                    "type": "boolean",
                    "title": "Allow this once",
                    "description": "Yes lets paneward do this one thing; no refuses it.",
                    "default": false
                }
            },
            "required": [ALLOW]
        }
    });
    serde_json::from_value(params).map_err(|error| format!("paneward could not build the question: {error}"))
}

/// What the person said: yes only when they accepted the form with `allow` true.
pub fn answer_of(result: &ElicitResult) -> Answer {
    match result.action {
        ElicitationAction::Accept => {
            let allowed = result
                .content
                .as_ref()
                .and_then(|content| content.get(ALLOW))
                .and_then(serde_json::Value::as_bool);
            if allowed == Some(true) {
                Answer::Yes
            } else {
                Answer::No
            }
        }
        // Decline, cancel, and any action a later revision adds.
        _ => Answer::No,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(value: serde_json::Value) -> ElicitResult {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn only_an_accepted_allow_of_true_is_a_yes() {
        assert_eq!(
            answer_of(&result(json!({"action": "accept", "content": {"allow": true}}))),
            Answer::Yes
        );
        assert_eq!(
            answer_of(&result(json!({"action": "accept", "content": {"allow": false}}))),
            Answer::No
        );
        assert_eq!(
            answer_of(&result(json!({"action": "accept", "content": {"allow": "true"}}))),
            Answer::No
        );
        assert_eq!(answer_of(&result(json!({"action": "accept"}))), Answer::No);
        assert_eq!(answer_of(&result(json!({"action": "decline"}))), Answer::No);
        assert_eq!(answer_of(&result(json!({"action": "cancel"}))), Answer::No);
    }
}
