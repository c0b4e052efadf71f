//! The asking capability a call carries beside its [`CallContext`](crate::runtime::CallContext): where the MCP client
//! can put a question to the person using it (`elicitation/create`), the transport makes
//! an [`Asker`] from the client's peer. What is asked, and what a yes lifts, is
//! `guard::consent`'s.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// How the person answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// They allowed it.
    Yes,
    /// They declined, or dismissed the question.
    No,
    /// No answer came (the client failed, or the time ran out); the reason says which.
    None(String),
}

/// A way to put a yes/no question to the person; the MCP layer makes one from the
/// client's peer when the client declared the elicitation capability.
///
/// Some clients answer within the call; others (MCP 2026-07-28) answer by sending the
/// whole call again with the answer. An asker of the second kind puts a question off
/// ([`AskPerson::awaits_answer`]), and can do so only while the call has changed
/// nothing ([`AskPerson::note_change`]), since the repeat runs it all again.
pub trait AskPerson: Send + Sync {
    fn ask(&self, question: String) -> Pin<Box<dyn Future<Output = Answer> + Send + '_>>;

    /// Hears that the call has changed tmux (a batch row ran).
    fn note_change(&self) {}

    /// Whether a question was put off to a repeat of the call: the call must change
    /// nothing more (a batch runs no further row).
    fn awaits_answer(&self) -> bool {
        false
    }
}

/// The asking capability a call carries (in its [`CallContext`](crate::runtime::CallContext)).
#[derive(Clone)]
pub struct Asker(Arc<dyn AskPerson>);

impl Asker {
    pub fn new(ask: Arc<dyn AskPerson>) -> Self {
        Self(ask)
    }

    /// Puts `question` to the person.
    pub async fn ask(&self, question: String) -> Answer {
        self.0.ask(question).await
    }

    /// See [`AskPerson::note_change`].
    pub fn note_change(&self) {
        self.0.note_change();
    }

    /// See [`AskPerson::awaits_answer`].
    pub fn awaits_answer(&self) -> bool {
        self.0.awaits_answer()
    }
}

impl fmt::Debug for Asker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Asker")
    }
}
