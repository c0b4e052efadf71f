//! Connections that have not yet sent a request with the token, and the bound on them.
//!
//! Each accepted connection is a stranger until a request on it carries the right
//! bearer token. Strangers are bounded: at the bound the oldest is closed to make room
//! for the newest, so a crowd of half-sent requests cannot take every descriptor and
//! shut out a client that has the token (that client's new connection is the newest,
//! and it authenticates with its first request).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio_util::sync::CancellationToken;

/// The strangers, oldest first, each with the token that closes it.
#[derive(Debug)]
pub struct Strangers {
    max: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    next: u64,
    open: BTreeMap<u64, CancellationToken>,
}

impl Strangers {
    pub fn new(max: usize) -> Arc<Self> {
        Arc::new(Self {
            max,
            state: Mutex::default(),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // Nothing panics while holding the lock; if something did, the map is still sound.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a new connection, closing the oldest stranger if the bound is reached.
    pub fn admit(self: &Arc<Self>) -> Stranger {
        let close = CancellationToken::new();
        let mut state = self.state();
        // One in, at most one out: the map never holds more than the bound.
        if state.open.len() >= self.max {
            if let Some((_, oldest)) = state.open.pop_first() {
                oldest.cancel();
            }
        }
        let number = state.next;
        state.next += 1;
        state.open.insert(number, close.clone());
        Stranger {
            strangers: Arc::clone(self),
            number,
            close,
        }
    }

    /// Closes the oldest stranger, if any: a descriptor for someone else.
    pub fn close_oldest(&self) -> bool {
        let oldest = self.state().open.pop_first();
        oldest.map(|(_, close)| close.cancel()).is_some()
    }

    /// How many strangers are open.
    pub fn count(&self) -> usize {
        self.state().open.len()
    }

    fn forget(&self, number: u64) {
        self.state().open.remove(&number);
    }
}

/// One connection's place among the strangers, until it authenticates or ends.
#[derive(Debug)]
pub struct Stranger {
    strangers: Arc<Strangers>,
    number: u64,
    close: CancellationToken,
}

impl Stranger {
    /// Completes when this connection must close to make room.
    pub fn closing(&self) -> CancellationToken {
        self.close.clone()
    }

    /// A request with the token came: this connection is no stranger and stays.
    pub fn authenticated(&self) {
        self.strangers.forget(self.number);
    }
}

impl Drop for Stranger {
    fn drop(&mut self) {
        self.strangers.forget(self.number);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_the_bound_the_oldest_stranger_is_closed_and_a_known_client_never() {
        let strangers = Strangers::new(2);
        let known = strangers.admit();
        known.authenticated();
        let first = strangers.admit();
        let second = strangers.admit();
        let third = strangers.admit();
        assert!(first.closing().is_cancelled(), "the oldest made room");
        assert!(!second.closing().is_cancelled() && !third.closing().is_cancelled());
        assert!(!known.closing().is_cancelled(), "an authenticated connection stays");
        assert_eq!(strangers.count(), 2);
        drop(second);
        assert_eq!(strangers.count(), 1);
        assert!(strangers.close_oldest());
        assert!(third.closing().is_cancelled());
        assert!(!strangers.close_oldest());
    }
}
