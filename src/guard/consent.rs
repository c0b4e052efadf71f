//! Asking the person. Where the MCP client can put a question to the person using it
//! (`elicitation/create`), a rule that guards the person's own terminal (input to the
//! caller pane or to a pane a terminal shows, ending whatever holds the caller pane)
//! asks them instead of refusing outright. A
//! yes is a [`Consent`], which only this module makes; the guards take one to lift
//! that one rule for that one action. `force`, which an agent sets, never makes one.
//!
//! The question names the pane and what would happen (for input, its length and
//! kind), never the text itself: it may be a secret, and a question is shown on a
//! screen and may be logged by the client.

use std::fmt;

use crate::runtime::ask::Answer;
use crate::runtime::CallContext;

/// The person's yes to one action that a rule guarding their terminal would refuse.
#[derive(Debug)]
pub struct Consent(());

/// Why no consent was obtained, as the end of a refusal message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoConsent {
    /// The client cannot ask: the refusal stands with its usual way out.
    CannotAsk,
    /// The person said no.
    Declined,
    /// The question went unanswered.
    Unanswered(String),
}

impl NoConsent {
    /// What to add to the refusal message.
    pub fn note(&self) -> String {
        match self {
            Self::CannotAsk => String::new(),
            Self::Declined => "; the person was asked and declined".into(),
            Self::Unanswered(why) => format!("; the person was asked but no answer came ({why})"),
        }
    }
}

/// Asks the person behind `context`'s client `question`.
///
/// # Errors
/// The client cannot ask, or the person did not say yes.
pub async fn ask(context: &CallContext, question: String) -> Result<Consent, NoConsent> {
    let Some(asker) = context.asker() else {
        return Err(NoConsent::CannotAsk);
    };
    let answer = asker.ask(question).await;
    tracing::info!(target: crate::CLIENT_LOG_TARGET, answer = ?answer, "asked the person");
    match answer {
        Answer::Yes => Ok(Consent(())),
        Answer::No => Err(NoConsent::Declined),
        Answer::None(why) => Err(NoConsent::Unanswered(why)),
    }
}

/// The question for input to the caller pane `pane`; `what` says what would be typed
/// without its content.
pub fn input_question(pane: impl fmt::Display, reached_through: Option<&str>, what: &str) -> String {
    let how = match reached_through {
        Some(window) => format!(" (synchronize-panes in window {window} copies the input there)"),
        None => String::new(),
    };
    format!(
        "An agent wants to type into tmux pane {pane}{how}: the pane paneward itself runs in, \
         likely your own terminal. It would send {what}. The text is not shown here, as it may be \
         secret. Allow this once?"
    )
}

/// The question for input to `pane`, which a terminal attached to tmux shows; `what`
/// says what would be typed without its content.
pub fn attended_question(pane: impl fmt::Display, reached_through: Option<&str>, what: &str) -> String {
    let how = match reached_through {
        Some(window) => format!(" (synchronize-panes in window {window} copies the input there)"),
        None => String::new(),
    };
    format!(
        "An agent wants to type into tmux pane {pane}{how}, which a terminal attached to tmux is showing \
         right now: you, or someone, may be watching or typing there. It would send {what}. The text is not \
         shown here, as it may be secret. Allow this once? (`paneward grant {pane}` hands the pane over for good.)"
    )
}

/// The question for handing the agent pane `pane`; `place` and `running` are what tmux
/// says of it (quoted as data), never anything the agent wrote.
pub fn grant_question(pane: impl fmt::Display, place: &str, running: &str) -> String {
    format!(
        "An agent asks for tmux pane {pane} (at {place}, running {running}). With your yes it may type into, \
         read and change that pane as its own, as `paneward grant {pane}` allows; its window and session stay \
         yours, and `paneward revoke {pane}` takes it back. Hand it this pane?"
    )
}

/// The question for ending `what`, which holds the caller pane `pane`.
pub fn end_question(what: impl fmt::Display, pane: impl fmt::Display) -> String {
    format!(
        "An agent wants to end {what}, which holds tmux pane {pane}: the pane paneward itself runs in, \
         likely your own terminal. Ending it ends that pane and paneward with it. Allow this once?"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_name_the_pane_and_never_more_than_a_description() {
        let question = input_question("%3", None, "literal text of 12 characters, then Enter");
        assert!(
            question.contains("pane %3") && question.contains("12 characters"),
            "{question}"
        );
        let question = end_question("window @2", "%3");
        assert!(
            question.contains("end window @2, which holds tmux pane %3"),
            "{question}"
        );
    }

    #[test]
    fn a_call_without_an_asker_cannot_ask() {
        let context = CallContext::default();
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let result = runtime.block_on(ask(&context, "?".into()));
        assert_eq!(result.unwrap_err(), NoConsent::CannotAsk);
    }
}
