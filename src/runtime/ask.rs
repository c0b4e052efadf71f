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
pub trait AskPerson: Send + Sync {
    fn ask(&self, question: String) -> Pin<Box<dyn Future<Output = Answer> + Send + '_>>;
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
}

impl fmt::Debug for Asker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Asker")
    }
}
