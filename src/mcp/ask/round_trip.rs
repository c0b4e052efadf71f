//! Asking the person of a 2026-07-28 client, which forbids server-to-client requests:
//! the call that needs an answer ends with an `InputRequiredResult` (the consent form
//! under [`INPUT_KEY`], and a sealed `requestState`); the client asks its person and
//! sends the same call again with the answer in `inputResponses` and the state echoed.
//!
//! The repeat runs the whole call again, so a question may be put off only while the
//! call has changed nothing (a batch whose earlier rows ran gets a refusal instead),
//! and once one is put off the call changes nothing more. An answer lifts the one
//! question it was given to, once.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use rmcp::model::{
    CallToolRequestParams, ElicitRequest, ElicitResult, InputRequest, InputRequests, InputRequiredResult,
};
use rmcp::ErrorData;

use crate::mcp::ask::form;
use crate::mcp::ask::request_state::{self, Opened};
use crate::runtime::ask::{Answer, AskPerson};

/// The key of the one input request paneward makes, and of its answer.
pub const INPUT_KEY: &str = "consent";

/// The answer a repeated call brought, to the question its state names.
struct Given {
    question: String,
    answer: Answer,
}

/// The asker of one 2026-07-28 `tools/call`.
pub struct RoundTripAsker {
    /// The answer this call brought, until the question it answers is asked.
    given: Mutex<Option<Given>>,
    /// A question put off to the repeat of the call.
    pending: Mutex<Option<String>>,
    /// The call has changed tmux (a batch row ran).
    changed: AtomicBool,
}

impl RoundTripAsker {
    /// The asker of `request`: with the answer it brings, once its state is opened.
    ///
    /// # Errors
    /// A `requestState` that cannot be trusted: an invalid-params error naming the
    /// field, and the call does not run. `inputResponses` without a state answer no
    /// question paneward can tell (an answer counts only with the state that names its
    /// question): they are ignored, and a call that needs the person asks anew, as
    /// SEP-2322 has servers ignore what they do not recognise and re-request what is
    /// missing.
    pub fn for_request(request: &CallToolRequestParams) -> Result<Self, ErrorData> {
        let given = match (&request.request_state, &request.input_responses) {
            (None, None) => None,
            (None, Some(_)) => {
                tracing::debug!(tool = %request.name, "inputResponses without requestState: ignored, nothing is taken as an answer");
                None
            }
            (Some(state), responses) => {
                let arguments = request_state::arguments_digest(request.arguments.as_ref());
                let Opened { question } = request_state::open(state, &request.name, &arguments)
                    .map_err(|why| ErrorData::invalid_params(format!("/params/requestState: {why}"), None))?;
                let answer = match responses.as_ref().and_then(|responses| responses.get(INPUT_KEY)) {
                    None => Answer::None(format!("the client sent no answer under inputResponses/{INPUT_KEY}")),
                    Some(response) => match serde_json::from_value::<ElicitResult>(response.clone()) {
                        Ok(result) => form::answer_of(&result),
                        Err(error) => {
                            return Err(ErrorData::invalid_params(
                                format!("/params/inputResponses/{INPUT_KEY}: is not an elicitation result: {error}"),
                                None,
                            ))
                        }
                    },
                };
                Some(Given { question, answer })
            }
        };
        Ok(Self {
            given: Mutex::new(given),
            pending: Mutex::default(),
            changed: AtomicBool::new(false),
        })
    }

    /// The result that asks the client to put the question put off to its person, if
    /// the call put one off; the caller returns it in place of the call's own result.
    ///
    /// # Errors
    /// The state cannot be sealed (no randomness) or the form not built.
    pub fn input_required(&self, request: &CallToolRequestParams) -> Result<Option<InputRequiredResult>, ErrorData> {
        let Some(question) = self.pending.lock().unwrap_or_else(PoisonError::into_inner).take() else {
            return Ok(None);
        };
        let arguments = request_state::arguments_digest(request.arguments.as_ref());
        let state = request_state::seal(&request.name, &arguments, &question)
            .map_err(|e| ErrorData::internal_error(e, None))?;
        let form = form::consent_form(question).map_err(|e| ErrorData::internal_error(e, None))?;
        let mut requests = InputRequests::new();
        requests.insert(INPUT_KEY.into(), InputRequest::Elicitation(ElicitRequest::new(form)));
        Ok(Some(InputRequiredResult::new(Some(requests), Some(state))))
    }
}

impl AskPerson for RoundTripAsker {
    fn ask(&self, question: String) -> Pin<Box<dyn Future<Output = Answer> + Send + '_>> {
        Box::pin(async move {
            let digest = request_state::question_digest(&question);
            let mut given = self.given.lock().unwrap_or_else(PoisonError::into_inner);
            if given.as_ref().is_some_and(|given| given.question == digest) {
                // Spent on this question: a second question of the call is asked anew.
                if let Some(Given { answer, .. }) = given.take() {
                    return answer;
                }
            }
            drop(given);
            if self.changed.load(Ordering::SeqCst) {
                return Answer::None(
                    "this client is asked in a second round that repeats the whole call, and this call already \
                     changed tmux; make this change in a call of its own"
                        .into(),
                );
            }
            let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
            if pending.is_some() {
                return Answer::None("another question of this call waits for the person".into());
            }
            *pending = Some(question);
            Answer::None("the person is asked first, and the client sends the call again with the answer".into())
        })
    }

    fn note_change(&self) {
        self.changed.store(true, Ordering::SeqCst);
    }

    fn awaits_answer(&self) -> bool {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(arguments: serde_json::Value) -> CallToolRequestParams {
        serde_json::from_value(json!({"name": "send_keys", "arguments": arguments})).unwrap()
    }

    fn block_on<F: Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn a_question_is_put_off_then_answered_once_by_the_repeat() {
        let first = request(json!({"pane_id": "%1", "keys": "x"}));
        let asker = RoundTripAsker::for_request(&first).unwrap();
        assert!(matches!(block_on(asker.ask("Allow?".into())), Answer::None(_)));
        assert!(asker.awaits_answer());
        let asked = asker.input_required(&first).unwrap().unwrap();
        let state = asked.request_state.clone().unwrap();
        let wire = serde_json::to_value(&asked).unwrap();
        assert_eq!(wire["resultType"], "input_required");
        assert_eq!(wire["inputRequests"][INPUT_KEY]["method"], "elicitation/create");
        assert_eq!(wire["inputRequests"][INPUT_KEY]["params"]["message"], "Allow?");

        let mut repeat = first.clone();
        repeat.request_state = Some(state.clone());
        repeat.input_responses = Some(
            [(
                INPUT_KEY.to_string(),
                json!({"action": "accept", "content": {"allow": true}}),
            )]
            .into(),
        );
        let asker = RoundTripAsker::for_request(&repeat).unwrap();
        assert_eq!(block_on(asker.ask("Allow?".into())), Answer::Yes);
        // The yes is spent: the same question again in this call is put off anew.
        assert!(matches!(block_on(asker.ask("Allow?".into())), Answer::None(_)));
        // The state opens once.
        let error = RoundTripAsker::for_request(&repeat).err().unwrap();
        assert!(
            error.message.contains("/params/requestState: was used already"),
            "{error:?}"
        );
    }

    #[test]
    fn nothing_is_put_off_once_the_call_changed_tmux() {
        let asker = RoundTripAsker::for_request(&request(json!({}))).unwrap();
        asker.note_change();
        let Answer::None(why) = block_on(asker.ask("Allow?".into())) else {
            panic!("must not be a yes or no")
        };
        assert!(why.contains("already changed tmux"), "{why}");
        assert!(!asker.awaits_answer());
    }

    #[test]
    fn answers_without_their_state_count_for_nothing_and_of_another_call_are_refused() {
        // A yes without its state answers no question: the question is asked anew.
        let mut bare = request(json!({"pane_id": "%1"}));
        bare.input_responses = Some(
            [(
                INPUT_KEY.to_string(),
                json!({"action": "accept", "content": {"allow": true}}),
            )]
            .into(),
        );
        let asker = RoundTripAsker::for_request(&bare).unwrap();
        assert!(matches!(block_on(asker.ask("Allow?".into())), Answer::None(_)));
        assert!(asker.awaits_answer());

        let first = request(json!({"pane_id": "%1"}));
        let asker = RoundTripAsker::for_request(&first).unwrap();
        block_on(asker.ask("Allow?".into()));
        let state = asker.input_required(&first).unwrap().unwrap().request_state.unwrap();
        let mut other = request(json!({"pane_id": "%2"}));
        other.request_state = Some(state);
        let error = RoundTripAsker::for_request(&other).err().unwrap();
        assert!(error.message.contains("was issued for another call"), "{error:?}");
    }
}
