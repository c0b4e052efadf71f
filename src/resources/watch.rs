//! Resource subscriptions, and the task that watches them: one legacy connection's
//! (`resources/subscribe`, `unsubscribe`; told through the connection), or one
//! `subscriptions/listen` request's (2026-07-28; told on that request's stream, tagged
//! with its id, and over when the request ends). Both go through the same code, for any
//! URI [`uri::parse`] and [`probe`] know.
//!
//! No tmux client is added for this (paneward's attach policy stands, and its control
//! client, where attached, carries no `%output`): a task probes tmux every
//! [`WATCH_PROBE_INTERVAL`] in one round trip over the client paneward already uses
//! (see [`probe`]) while anything is watched, and stops with the last unsubscribe or
//! the connection. Each URI is told under the exact spelling the client subscribed
//! with (clients route by that string), at most once per [`WATCH_COALESCE_INTERVAL`]:
//! a change seen sooner is held, and told when the interval has passed.

use crate::limits::{ATTENTION_SETTLE, WATCH_COALESCE_INTERVAL, WATCH_MAX_SUBSCRIPTIONS, WATCH_PROBE_INTERVAL};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use rmcp::model::{ErrorData, ResourceUpdatedNotificationParam};
use rmcp::service::{Peer, SubscriptionSink};
use rmcp::RoleServer;
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};

use crate::guard::ReadGate;
use crate::resources::probe::{self, Fingerprint, GONE};
use crate::resources::uri::{self, Target};
use crate::resources::Servers;
use crate::runtime::error::echo;
use crate::runtime::CallContext;

/// One connection's subscriptions (kept in its `McpServer`, never shared between
/// connections), or one `subscriptions/listen` request's.
#[derive(Default)]
pub struct Subscriptions {
    state: Arc<Mutex<State>>,
}

/// Where `notifications/resources/updated` goes.
#[derive(Clone)]
pub enum UpdateSink {
    /// The legacy connection that subscribed.
    Connection(Peer<RoleServer>),
    /// The stream of one `subscriptions/listen` request (rmcp tags each notification
    /// with the request's id and refuses URIs the request did not ask for).
    Listen(SubscriptionSink),
}

impl UpdateSink {
    async fn updated(&self, spelled: String) -> Result<(), String> {
        match self {
            Self::Connection(peer) => peer
                .notify_resource_updated(ResourceUpdatedNotificationParam::new(spelled))
                .await
                .map_err(|error| error.to_string()),
            Self::Listen(sink) => sink
                .notify_resource_updated(spelled)
                .await
                .map_err(|error| error.to_string()),
        }
    }
}

#[derive(Default)]
struct State {
    /// By the URI as the client spelled it.
    watched: HashMap<String, Watch>,
    /// Subscriptions still reading tmux, by spelling, with their ticket: requests run
    /// concurrently, so an unsubscribe may be handled while its subscribe still reads;
    /// it withdraws the ticket, and the subscribe then adds nothing.
    pending: HashMap<String, u64>,
    next_ticket: u64,
    task: Option<JoinHandle<()>>,
}

struct Watch {
    target: Target,
    /// What the last probe saw; `None` until one has.
    seen: Option<Fingerprint>,
    last_told: Option<Instant>,
    /// A change seen and not told yet.
    held: bool,
    /// When the last change was seen: `tmux://attention` is told only once it has held
    /// still for [`ATTENTION_SETTLE`], so changes that come together are one update.
    changed_at: Instant,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Subscriptions {
    /// Subscribes `sink` to `spelled`, once tmux has been read for it, so a change
    /// right after the answer is seen.
    ///
    /// # Errors
    /// -32602 for a URI that is not paneward's, or one too many; -32002 for one that
    /// names nothing; -32603 when tmux cannot answer.
    pub async fn subscribe(&self, servers: &Servers, sink: &UpdateSink, spelled: &str) -> Result<(), ErrorData> {
        let target = uri::parse(spelled).map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        let ticket = {
            let mut state = lock(&self.state);
            state.next_ticket += 1;
            let ticket = state.next_ticket;
            state.pending.insert(spelled.to_string(), ticket);
            ticket
        };
        let call = CallContext::default();
        let gate = ReadGate::new(&servers.first, &call);
        let prints = probe::fingerprints(&gate, servers, &[target], &mut probe::Screens::new()).await;
        let mut state = lock(&self.state);
        let withdrawn = state.pending.get(spelled) != Some(&ticket);
        if !withdrawn {
            state.pending.remove(spelled);
        }
        let prints = prints.map_err(|e| ErrorData::internal_error(e.message().to_string(), None))?;
        if withdrawn {
            tracing::debug!("a subscription was withdrawn while it started");
            return Ok(());
        }
        let seen = prints.get(&target).copied().flatten();
        if seen == Some(GONE) {
            return Err(ErrorData::resource_not_found(
                format!(
                    "resource not found: {} names nothing tmux has; {}",
                    echo(spelled),
                    target.where_to_look()
                ),
                Some(serde_json::json!({ "uri": spelled })),
            ));
        }
        if state.watched.len() >= WATCH_MAX_SUBSCRIPTIONS && !state.watched.contains_key(spelled) {
            return Err(ErrorData::invalid_params(
                format!(
                    "/params/uri: at most {WATCH_MAX_SUBSCRIPTIONS} subscriptions per connection; unsubscribe first"
                ),
                None,
            ));
        }
        state.watched.entry(spelled.to_string()).or_insert(Watch {
            target,
            seen,
            last_told: None,
            held: false,
            changed_at: Instant::now(),
        });
        if state.task.is_none() {
            let watcher = watch(servers.clone(), sink.clone(), Arc::downgrade(&self.state));
            state.task = Some(tokio::spawn(watcher));
            tracing::debug!("watching started");
        }
        Ok(())
    }

    /// Ends the subscription to `spelled` (that exact spelling); the watching stops
    /// with the last one. Unsubscribing what is not subscribed is no error.
    ///
    /// # Errors
    /// -32602 for a URI that is not paneward's.
    pub fn unsubscribe(&self, spelled: &str) -> Result<(), ErrorData> {
        uri::parse(spelled).map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        let mut state = lock(&self.state);
        state.watched.remove(spelled);
        state.pending.remove(spelled);
        if state.watched.is_empty() {
            stop(&mut state);
        }
        Ok(())
    }
}

impl Drop for Subscriptions {
    /// The connection is over: stop watching.
    fn drop(&mut self) {
        stop(&mut lock(&self.state));
    }
}

fn stop(state: &mut State) {
    if let Some(task) = state.task.take() {
        task.abort();
        tracing::debug!("watching stopped");
    }
}

/// Probes tmux for the watched URIs and tells the client what changed, until nothing
/// is watched, the connection's subscriptions are dropped, or the client is gone.
async fn watch(servers: Servers, sink: UpdateSink, state: Weak<Mutex<State>>) {
    let mut ticks = tokio::time::interval(WATCH_PROBE_INTERVAL);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut screens = probe::Screens::new();
    loop {
        ticks.tick().await;
        let Some(targets) = watched_targets(&state) else {
            return;
        };
        let call = CallContext::default();
        let gate = ReadGate::new(&servers.first, &call);
        let prints = match probe::fingerprints(&gate, &servers, &targets, &mut screens).await {
            Ok(prints) => prints,
            Err(error) => {
                tracing::debug!("a watch probe failed: {}", error.message());
                continue;
            }
        };
        let Some(due) = changes_due(&state, &prints, Instant::now()) else {
            return;
        };
        for spelled in due {
            if let Err(error) = sink.updated(spelled).await {
                tracing::debug!("the client is gone ({error}): watching stopped");
                if let Some(state) = state.upgrade() {
                    let mut state = lock(&state);
                    state.watched.clear();
                    state.task = None;
                }
                return;
            }
        }
    }
}

/// The distinct targets watched now, or `None` when the task should end (it then
/// takes itself out of the state, under the same lock a subscribe takes).
fn watched_targets(state: &Weak<Mutex<State>>) -> Option<Vec<Target>> {
    let state = state.upgrade()?;
    let mut state = lock(&state);
    if state.watched.is_empty() {
        state.task = None;
        return None;
    }
    let mut targets: Vec<Target> = state.watched.values().map(|w| w.target).collect();
    targets.sort_unstable_by_key(|t| t.uri());
    targets.dedup();
    Some(targets)
}

/// Records what the probe saw at `now` and returns the spellings to tell now.
fn changes_due(
    state: &Weak<Mutex<State>>,
    prints: &HashMap<Target, Option<Fingerprint>>,
    now: Instant,
) -> Option<Vec<String>> {
    let state = state.upgrade()?;
    let mut state = lock(&state);
    let mut due = Vec::new();
    for (spelled, watch) in &mut state.watched {
        if let Some(Some(print)) = prints.get(&watch.target) {
            match watch.seen {
                Some(seen) if seen != *print => {
                    watch.held = true;
                    watch.changed_at = now;
                }
                _ => {}
            }
            watch.seen = Some(*print);
        }
        let quiet_long_enough = watch
            .last_told
            .is_none_or(|told| now.duration_since(told) >= WATCH_COALESCE_INTERVAL);
        let settled = watch.target != Target::Attention || now.duration_since(watch.changed_at) >= ATTENTION_SETTLE;
        if watch.held && quiet_long_enough && settled {
            watch.held = false;
            watch.last_told = Some(now);
            due.push(spelled.clone());
        }
    }
    Some(due)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watching(target: Target, spelled: &str, seen: Fingerprint) -> Arc<Mutex<State>> {
        let state = Arc::new(Mutex::new(State::default()));
        lock(&state).watched.insert(
            spelled.into(),
            Watch {
                target,
                seen: Some(seen),
                last_told: None,
                held: false,
                changed_at: Instant::now(),
            },
        );
        state
    }

    #[test]
    fn attention_changing_probe_after_probe_is_told_once_when_it_holds_still() {
        let uri = "tmux://attention";
        let state = watching(Target::Attention, uri, 1);
        let weak = Arc::downgrade(&state);
        let start = Instant::now();
        let at = |ms: u64| start + std::time::Duration::from_millis(ms);
        // Three panes start waiting one probe apart: no update while it still moves.
        for (print, ms) in [(2, 100), (3, 200), (4, 300)] {
            let prints = HashMap::from([(Target::Attention, Some(print))]);
            assert!(changes_due(&weak, &prints, at(ms)).unwrap().is_empty(), "at {ms} ms");
        }
        let still = HashMap::from([(Target::Attention, Some(4))]);
        assert!(
            changes_due(&weak, &still, at(700)).unwrap().is_empty(),
            "not settled yet"
        );
        assert_eq!(changes_due(&weak, &still, at(800)).unwrap(), [uri], "one update");
        assert!(changes_due(&weak, &still, at(900)).unwrap().is_empty(), "and only one");

        // Any other resource is told at the first change, as before.
        let content = Target::PaneContent(crate::tmux::PaneId(1));
        let state = watching(content, "tmux://panes/1/content", 1);
        let weak = Arc::downgrade(&state);
        let prints = HashMap::from([(content, Some(2))]);
        assert_eq!(changes_due(&weak, &prints, at(100)).unwrap().len(), 1);
    }
}
