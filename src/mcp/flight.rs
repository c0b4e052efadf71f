//! The client's requests in flight, shared by the stdio layer and the tool handler.
//!
//! The stdio layer gives each request an arrival number (the id rmcp sees) and records
//! the client's own id. rmcp runs every request in a task of its own, so calls would
//! otherwise reach tmux in any order; a call that may change tmux waits here for its
//! turn: until no earlier request still holds one. A turn is given back when the
//! handler has done its tmux work, when it learns the call needs no turn, or at the
//! latest when the response line is written, so a request rmcp refuses never blocks
//! later ones. Cancellation and a gone client are recorded here too, so that a call
//! that has not started never starts.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

/// One request between its arrival and its response line.
#[derive(Debug)]
struct InFlight {
    /// The client's id as canonical JSON: the key for duplicates and cancellation.
    key: String,
    /// The client's id exactly as it was written, echoed in the response.
    echo: String,
    holds_turn: bool,
    cancelled: bool,
    started: bool,
}

#[derive(Debug, Default)]
struct State {
    entries: BTreeMap<i64, InFlight>,
    by_key: HashMap<String, i64>,
    next: i64,
    /// Standard output failed: nothing more may start.
    gone: bool,
}

/// Why a call may not start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotStarted {
    Cancelled,
    ClientGone,
}

/// What a cancellation found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled {
    pub arrival: i64,
    /// The call had already started its tmux work.
    pub started: bool,
}

/// What the writer learns when a response leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub echo: String,
    pub cancelled: bool,
}

/// The registry; see the module documentation.
#[derive(Debug, Default)]
pub struct Flight {
    state: Mutex<State>,
    changed: Notify,
}

impl Flight {
    fn state(&self) -> MutexGuard<'_, State> {
        // No code panics while holding the lock; if one did, the data is still sound.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records a request that arrived with id `key` (canonical JSON) written as `echo`;
    /// `takes_turn` for a tool call, which may change tmux. Returns its arrival number,
    /// or `None` if a request with the same id is still in flight.
    pub fn admit(&self, key: String, echo: String, takes_turn: bool) -> Option<i64> {
        let mut state = self.state();
        if state.by_key.contains_key(&key) {
            return None;
        }
        let arrival = state.next;
        state.next += 1;
        state.by_key.insert(key.clone(), arrival);
        state.entries.insert(
            arrival,
            InFlight {
                key,
                echo,
                holds_turn: takes_turn,
                cancelled: false,
                started: false,
            },
        );
        Some(arrival)
    }

    /// The client's id of request `arrival`, as written.
    pub fn echo(&self, arrival: i64) -> Option<String> {
        self.state().entries.get(&arrival).map(|entry| entry.echo.clone())
    }

    /// Gives back the turn of `arrival` (it needs none, or its tmux work is done).
    pub fn release(&self, arrival: i64) {
        if let Some(entry) = self.state().entries.get_mut(&arrival) {
            entry.holds_turn = false;
        }
        self.changed.notify_waiters();
    }

    /// Waits until every request that arrived before `arrival` has given back its
    /// turn, or `arrival` is cancelled, or the client is gone.
    pub async fn turn(&self, arrival: i64) {
        self.wait_until(|state| {
            state.gone
                || state.entries.get(&arrival).is_none_or(|entry| entry.cancelled)
                || !state.entries.range(..arrival).any(|(_, entry)| entry.holds_turn)
        })
        .await;
    }

    /// Marks `arrival` as started, unless it was cancelled or the client is gone.
    ///
    /// # Errors
    /// The reason it must not start.
    pub fn start(&self, arrival: i64) -> Result<(), NotStarted> {
        let mut state = self.state();
        if state.gone {
            return Err(NotStarted::ClientGone);
        }
        match state.entries.get_mut(&arrival) {
            Some(entry) if entry.cancelled => Err(NotStarted::Cancelled),
            Some(entry) => {
                entry.started = true;
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// Records the client's cancellation of the request it called `key`.
    pub fn cancel(&self, key: &str) -> Option<Cancelled> {
        let mut state = self.state();
        // The id stays taken until the call is finished: a cancelled change may still be
        // running, and a new request under its id would be a duplicate in flight.
        let arrival = *state.by_key.get(key)?;
        let entry = state.entries.get_mut(&arrival)?;
        entry.cancelled = true;
        let started = entry.started;
        drop(state);
        self.changed.notify_waiters();
        Some(Cancelled { arrival, started })
    }

    pub fn is_cancelled(&self, arrival: i64) -> bool {
        self.state().entries.get(&arrival).is_some_and(|entry| entry.cancelled)
    }

    /// Resolves once `arrival` is cancelled.
    pub async fn cancelled(&self, arrival: i64) {
        self.wait_until(|state| state.entries.get(&arrival).is_some_and(|entry| entry.cancelled))
            .await;
    }

    /// Forgets `arrival`, whose response line is being written.
    pub fn finish(&self, arrival: i64) -> Option<Finished> {
        let mut state = self.state();
        let entry = state.entries.remove(&arrival)?;
        if state.by_key.get(&entry.key) == Some(&arrival) {
            state.by_key.remove(&entry.key);
        }
        drop(state);
        self.changed.notify_waiters();
        Some(Finished {
            echo: entry.echo,
            cancelled: entry.cancelled,
        })
    }

    /// Waits until fewer than `max` requests are in flight (or the client is gone).
    pub async fn room(&self, max: usize) {
        self.wait_until(|state| state.gone || state.entries.len() < max).await;
    }

    /// Standard output failed: no call may start from now on.
    pub fn client_gone(&self) {
        self.state().gone = true;
        self.changed.notify_waiters();
    }

    /// Resolves once [`Flight::client_gone`] was called.
    pub async fn gone(&self) {
        self.wait_until(|state| state.gone).await;
    }

    async fn wait_until(&self, ready: impl Fn(&State) -> bool) {
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            // Registered before the check, so a change between the two is not missed.
            notified.as_mut().enable();
            if ready(&self.state()) {
                return;
            }
            notified.await;
        }
    }
}

/// Gives the turn back when dropped: when the handler returns, fails or is dropped.
pub struct TurnGuard {
    flight: Arc<Flight>,
    arrival: i64,
}

impl TurnGuard {
    pub fn new(flight: Arc<Flight>, arrival: i64) -> Self {
        Self { flight, arrival }
    }
}

impl Drop for TurnGuard {
    fn drop(&mut self) {
        self.flight.release(self.arrival);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn admit(flight: &Flight, key: &str, turn: bool) -> i64 {
        flight.admit(key.into(), key.into(), turn).unwrap()
    }

    async fn waits(flight: &Flight, arrival: i64) -> bool {
        tokio::time::timeout(Duration::from_millis(20), flight.turn(arrival))
            .await
            .is_err()
    }

    #[tokio::test]
    async fn a_call_waits_for_every_earlier_turn_and_only_those() {
        let flight = Flight::default();
        let first = admit(&flight, "1", true);
        let _list_in_flight = admit(&flight, "2", false);
        let second = admit(&flight, "3", true);
        assert!(!waits(&flight, first).await);
        assert!(waits(&flight, second).await);
        flight.release(first);
        assert!(!waits(&flight, second).await);
    }

    #[tokio::test]
    async fn a_written_response_or_a_cancellation_ends_the_wait() {
        let flight = Flight::default();
        let refused_by_rmcp = admit(&flight, "a", true);
        let next = admit(&flight, "b", true);
        let last = admit(&flight, "c", true);
        assert_eq!(flight.finish(refused_by_rmcp).unwrap().echo, "a");
        assert!(!waits(&flight, next).await);
        assert!(waits(&flight, last).await);
        assert_eq!(
            flight.cancel("c"),
            Some(Cancelled {
                arrival: last,
                started: false
            })
        );
        assert!(!waits(&flight, last).await);
        assert_eq!(flight.start(last), Err(NotStarted::Cancelled));
    }

    #[tokio::test]
    async fn an_id_in_flight_is_refused_until_its_response_leaves() {
        let flight = Flight::default();
        let first = admit(&flight, "\"k\"", true);
        assert_eq!(flight.admit("\"k\"".into(), "\"k\"".into(), true), None);
        flight.finish(first);
        assert!(flight.admit("\"k\"".into(), "\"k\"".into(), true).is_some());
    }

    #[tokio::test]
    async fn nothing_starts_once_the_client_is_gone() {
        let flight = Flight::default();
        let first = admit(&flight, "1", true);
        let second = admit(&flight, "2", true);
        flight.client_gone();
        assert!(!waits(&flight, second).await);
        assert_eq!(flight.start(first), Err(NotStarted::ClientGone));
    }
}
