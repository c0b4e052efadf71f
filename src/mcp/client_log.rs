//! The client's log (`notifications/message`): the *why* of an event the client cannot
//! see in a reply, such as a refusal, a timeout, the control connection closing or
//! attaching, or a fall-back to one tmux process per command.
//!
//! Code marks such an event by logging it with target [`TARGET`]; it still goes to
//! standard error like any other. [`ClientLogLayer`] forwards it to the client that
//! chose a level: a legacy connection by `logging/setLevel` ([`ClientLog`]), or one
//! 2026-07-28 request by the `io.modelcontextprotocol/logLevel` of its `_meta`
//! ([`with_request_log`]: only the events of that request's own work, sent before its
//! reply). MCP lets a server decide what to send before a client chose; paneward sends
//! nothing, as a client that never asked may not expect notifications. Only the
//! event's own message and fields are sent, and events under this target carry ids,
//! tool names, kinds and paneward's reasons: never typed or pasted text, environment
//! values or other payload.

// rmcp marks MCP logging deprecated for protocol revisions after 2025-11-25 (SEP-2577);
// paneward serves it where it still exists: setLevel up to 2025-11-25, a request's own
// level in 2026-07-28.
#![allow(deprecated)]

use std::fmt::Debug;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::service::Peer;
use rmcp::RoleServer;
use serde_json::{Map, Value};
use tokio::sync::mpsc;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::Context;
use tracing_subscriber::Layer;

use crate::limits::CLIENT_LOG_QUEUE_MESSAGES;

/// The tracing target of events meant for the client as well.
pub use crate::CLIENT_LOG_TARGET as TARGET;

/// The logger name the client sees.
const LOGGER: &str = "paneward";

/// Where one connection's client log goes, and from which level.
#[derive(Default)]
pub struct ClientLog {
    state: Mutex<Option<Sink>>,
}

struct Sink {
    level: LoggingLevel,
    queue: mpsc::Sender<LoggingMessageNotificationParam>,
}

impl Debug for ClientLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClientLog")
    }
}

impl ClientLog {
    /// Sends events at `level` and above to the client behind `peer` from now on. The
    /// first call starts the task that writes them, in order; later calls change the
    /// level.
    pub fn set_level(&self, level: LoggingLevel, peer: &Peer<RoleServer>) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(sink) = state.as_mut() {
            sink.level = level;
            return;
        }
        let (queue, mut queued) = mpsc::channel::<LoggingMessageNotificationParam>(CLIENT_LOG_QUEUE_MESSAGES);
        let peer = peer.clone();
        tokio::spawn(async move {
            while let Some(message) = queued.recv().await {
                // Logging is deprecated only for protocol revisions after the one served.
                #[allow(deprecated)]
                if peer.notify_logging_message(message).await.is_err() {
                    break;
                }
            }
        });
        *state = Some(Sink { level, queue });
    }

    /// Queues `data` at `level` if the client asked for that level; drops it when the
    /// queue is full (the client is not reading).
    fn send(&self, level: LoggingLevel, data: Value) {
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(sink) = state.as_ref() else { return };
        if rank(level) < rank(sink.level) {
            return;
        }
        let mut message = LoggingMessageNotificationParam::new(level, data);
        message.logger = Some(LOGGER.into());
        let _ = sink.queue.try_send(message);
    }
}

tokio::task_local! {
    /// The log of the 2026-07-28 request whose work runs on this task.
    static REQUEST_LOG: Arc<RequestLog>;
}

/// Where one request's log goes, and from which level.
struct RequestLog {
    level: LoggingLevel,
    queue: mpsc::Sender<LoggingMessageNotificationParam>,
}

impl RequestLog {
    fn send(&self, level: LoggingLevel, data: Value) {
        if rank(level) < rank(self.level) {
            return;
        }
        let mut message = LoggingMessageNotificationParam::new(level, data);
        message.logger = Some(LOGGER.into());
        // Full: the client is not reading; the event still went to standard error.
        let _ = self.queue.try_send(message);
    }
}

/// Runs `work`, a 2026-07-28 request's, sending the events under [`TARGET`] it logs
/// from `level` up to the client behind `peer`, all of them before this returns (so
/// before the request's reply).
pub async fn with_request_log<F: Future>(level: LoggingLevel, peer: Peer<RoleServer>, work: F) -> F::Output {
    let (queue, mut queued) = mpsc::channel::<LoggingMessageNotificationParam>(CLIENT_LOG_QUEUE_MESSAGES);
    let writer = tokio::spawn(async move {
        while let Some(message) = queued.recv().await {
            if peer.notify_logging_message(message).await.is_err() {
                break;
            }
        }
    });
    let output = REQUEST_LOG.scope(Arc::new(RequestLog { level, queue }), work).await;
    // The scope dropped the only sender: the writer ends once the queue is written.
    if let Err(error) = writer.await {
        tracing::debug!(%error, "the request's log writer failed");
    }
    output
}

/// MCP's levels in order of severity (syslog's, lowest first).
fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

fn level_of(level: Level) -> LoggingLevel {
    match level {
        Level::ERROR => LoggingLevel::Error,
        Level::WARN => LoggingLevel::Warning,
        Level::INFO => LoggingLevel::Info,
        Level::DEBUG | Level::TRACE => LoggingLevel::Debug,
    }
}

/// The tracing layer that forwards [`TARGET`] events to a connection's [`ClientLog`].
pub struct ClientLogLayer {
    log: Arc<ClientLog>,
}

impl ClientLogLayer {
    pub fn new(log: Arc<ClientLog>) -> Self {
        Self { log }
    }
}

impl<S: Subscriber> Layer<S> for ClientLogLayer {
    fn on_event(&self, event: &Event<'_>, _context: Context<'_, S>) {
        let metadata = event.metadata();
        if metadata.target() != TARGET {
            return;
        }
        let mut fields = Fields(Map::new());
        event.record(&mut fields);
        let level = level_of(*metadata.level());
        let data = Value::Object(fields.0);
        // An event of a 2026-07-28 request's work goes to that request's client.
        let _ = REQUEST_LOG.try_with(|log| log.send(level, data.clone()));
        self.log.send(level, data);
    }
}

/// An event's fields as a JSON object; the message under `message`.
struct Fields(Map<String, Value>);

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().into(), Value::from(value));
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name().into(), Value::from(value));
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().into(), Value::from(value));
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.insert(field.name().into(), Value::from(value));
    }
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().into(), Value::from(format!("{value:?}")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_rank_as_syslog_does() {
        assert!(rank(LoggingLevel::Warning) > rank(LoggingLevel::Info));
        assert!(rank(LoggingLevel::Emergency) > rank(LoggingLevel::Error));
        assert_eq!(level_of(Level::WARN), LoggingLevel::Warning);
    }
}
