//! What the generated code refers to: the tool table's row type, tiers, the per-call
//! context, errors, and the argument/output conversions of the dispatch function.

use std::fmt;
use std::sync::Arc;

use paneward_contract::pointer_token;
use rmcp::model::{ProgressNotificationParam, ProgressToken, RequestId, ServerJsonRpcMessage, ServerResult};
use rmcp::{Peer, RoleServer};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use serde_path_to_error::Segment;
use tokio_util::sync::CancellationToken;

pub mod ask;
pub mod clock;
pub mod error;
pub mod facts;
pub mod family_error;
pub mod hex;
pub mod join;
pub mod pipe;
pub mod reentry;
pub mod reply_text;
pub mod targeting;

use crate::runtime::ask::Asker;
use crate::runtime::reply_text::ReplyText;
pub use error::{ToolError, ToolErrorKind};
/// Tiers are defined with the tool-file loader, which reads them from `schemas/tools`;
/// the generated table names them as `crate::runtime::Tier`.
pub use paneward_contract::Tier;
/// The toolset and access class a tool file declares (`build.rs` refuses a file without).
pub use paneward_contract::{AccessClass, Toolset};

/// One row of the generated tool table: the contract of a tool as its file states it.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec {
    pub name: &'static str,
    pub title: Option<&'static str>,
    pub description: &'static str,
    pub tier: Tier,
    /// Always `Some` for the built contract: `build.rs` checks every file declares them.
    pub toolset: Option<Toolset>,
    pub class: Option<AccessClass>,
    /// Compact JSON, exactly as in the schema file.
    pub input_schema: &'static str,
    /// None only for a profile's tool whose upstream declares none (its reply is text).
    pub output_schema: Option<&'static str>,
    pub annotations: &'static str,
    /// Compact JSON of the file's `_meta`, advertised beside the tool.
    pub meta: Option<&'static str>,
    /// The tool file's argument escalations.
    pub escalations: &'static [EscalationSpec],
    /// What a call touches beyond the objects it names (`--scope owned` checks it too);
    /// `None` only for a readonly tool that does not say (the build refuses it above).
    pub reaches: Option<&'static [facts::ReachSpec]>,
    /// Its result is pane text, which a batch cuts to its newest lines rather than drop.
    pub pane_text: bool,
    /// Why a batch refuses to hold it, if one does.
    pub batch: Option<&'static facts::BatchSpec>,
    /// How a write batch's dry run shows a row of it; `None`: by the tool's name alone.
    pub dry_run: Option<&'static facts::DryRunSpec>,
    /// How a call goes when paneward serves several targets (`call::fleet`).
    pub fleet: facts::FleetRoute,
}

impl ToolSpec {
    /// The row of `table` (sorted by name, as generated) for tool `name`.
    pub fn find(table: &'static [ToolSpec], name: &str) -> Option<&'static ToolSpec> {
        table
            .binary_search_by(|spec| spec.name.cmp(name))
            .ok()
            .and_then(|index| table.get(index))
    }
}

/// One argument escalation of a tool file, as the generated table holds it.
#[derive(Debug, Clone, Copy)]
pub struct EscalationSpec {
    pub argument: &'static str,
    /// Compact JSON of the value that escalates.
    pub equals: &'static str,
    pub tier: Tier,
}

/// What a handler knows about the call it serves.
#[derive(Debug, Clone, Default)]
pub struct CallContext {
    /// The JSON-RPC id of the request; `None` for a call nested in a batch.
    request_id: Option<RequestId>,
    /// For a call nested in a batch, the batch's request id (for the audit log).
    batch: Option<RequestId>,
    /// Whether this call is a row of a batch.
    nested: bool,
    /// The client's id as it will be written in the reply (JSON text), when the
    /// transport swapped it for another on the way in.
    reply_id: Option<String>,
    /// How to ask the person, when the client can (`guard::consent`).
    asker: Option<Asker>,
    /// What a long call hears and says while it runs.
    signals: Signals,
    /// Which text the reply carries beside its structured content.
    reply_text: ReplyText,
    /// The client takes a task for this call (the Tasks extension): a call whose work
    /// outlives a request waits at most this long before it answers with what it
    /// leaves behind (a job), which the transport turns into a task. `None`: no task.
    task_wait: Option<std::time::Duration>,
}

/// What a call can hear from the client and say to it while it runs: cancellation,
/// progress notifications, and giving back its turn once its changes are made.
#[derive(Clone, Default)]
struct Signals {
    /// Fired when the client cancels the request (rows of a batch share their batch's).
    cancel: CancellationToken,
    /// The client's progress token and the way to notify it; `None` without a token.
    progress: Option<(ProgressToken, Peer<RoleServer>)>,
    /// Lets calls that arrived later start; `None` where no turn is held.
    release_turn: Option<Arc<dyn Fn() + Send + Sync>>,
}

impl fmt::Debug for Signals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signals")
            .field("cancelled", &self.cancel.is_cancelled())
            .field("progress_token", &self.progress.as_ref().map(|(token, _)| token))
            .field("holds_turn", &self.release_turn.is_some())
            .finish()
    }
}

impl CallContext {
    pub fn for_request(request_id: RequestId) -> Self {
        Self {
            request_id: Some(request_id),
            ..Self::default()
        }
    }

    /// The same context, replying under `reply_id`, the client's id as JSON text.
    #[must_use]
    pub fn with_reply_id(mut self, reply_id: String) -> Self {
        self.reply_id = Some(reply_id);
        self
    }

    /// The same context, cancelled through `cancel` (the transport fires it).
    #[must_use]
    pub fn with_cancellation(mut self, cancel: CancellationToken) -> Self {
        self.signals.cancel = cancel;
        self
    }

    /// The same context, reporting progress under the client's `token` through `peer`.
    #[must_use]
    pub fn with_progress(mut self, token: ProgressToken, peer: Peer<RoleServer>) -> Self {
        self.signals.progress = Some((token, peer));
        self
    }

    /// The same context, able to give back the turn it holds through `release`.
    #[must_use]
    pub fn with_turn_release(mut self, release: Arc<dyn Fn() + Send + Sync>) -> Self {
        self.signals.release_turn = Some(release);
        self
    }

    /// Resolves once the client has cancelled this call (never, if it does not). A
    /// handler that waits selects on it to stop early; a read is also simply dropped.
    pub async fn cancelled(&self) {
        self.signals.cancel.cancelled().await;
    }

    pub fn is_cancelled(&self) -> bool {
        self.signals.cancel.is_cancelled()
    }

    /// Records the client's cancellation (the transport calls this).
    pub fn cancel(&self) {
        self.signals.cancel.cancel();
    }

    /// Tells the client how far a long call has come (`notifications/progress`), if it
    /// asked with a progress token; otherwise does nothing. Callers send at most one
    /// every second or two. A notification that cannot be sent is only logged: the
    /// call goes on.
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<String>) {
        let Some((token, peer)) = &self.signals.progress else {
            return;
        };
        let mut param = ProgressNotificationParam::new(token.clone(), progress);
        param.total = total;
        param.message = message;
        if let Err(error) = peer.notify_progress(param).await {
            tracing::debug!(%error, "a progress notification could not be sent");
        }
    }

    /// Whether the client asked for progress notifications.
    pub fn wants_progress(&self) -> bool {
        self.signals.progress.is_some()
    }

    /// Says that this call has made all its changes and now only waits or reads, so
    /// calls that arrived after it may start (changes run one at a time, in arrival
    /// order, until each says this or ends). Calling it again does nothing.
    pub fn changes_done(&self) {
        if let Some(release) = &self.signals.release_turn {
            release();
        }
    }

    /// The same context, able to ask the person through `asker`.
    #[must_use]
    pub fn with_asker(mut self, asker: Asker) -> Self {
        self.asker = Some(asker);
        self
    }

    /// How to ask the person, if the client can be asked.
    pub fn asker(&self) -> Option<&Asker> {
        self.asker.as_ref()
    }

    /// Records that this call (a batch, by one of its rows) has changed tmux, so a
    /// question can no longer be put off to a repeat of the call.
    pub fn note_change(&self) {
        if let Some(asker) = &self.asker {
            asker.note_change();
        }
    }

    /// Whether a question to the person waits for a repeat of this call: it must
    /// change nothing more.
    pub fn awaits_answer(&self) -> bool {
        self.asker.as_ref().is_some_and(Asker::awaits_answer)
    }

    /// The client's id as it will be written in the reply, if the transport set it.
    pub fn reply_id(&self) -> Option<&str> {
        self.reply_id.as_deref()
    }

    /// The context of a call made on behalf of another (a batch row).
    pub fn nested() -> Self {
        Self {
            nested: true,
            ..Self::default()
        }
    }

    /// The context of a row of the batch that `self` serves.
    pub fn row_of(&self) -> Self {
        Self {
            request_id: None,
            batch: self.client_id().or_else(|| self.batch.clone()),
            nested: true,
            reply_id: None,
            // A row is cancelled with its batch; progress and the turn stay the batch's.
            signals: Signals {
                cancel: self.signals.cancel.clone(),
                progress: None,
                release_turn: None,
            },
            // A row is still the client's call: its person can be asked.
            asker: self.asker.clone(),
            reply_text: self.reply_text,
            task_wait: None,
        }
    }

    /// Whether this call is a row of a batch.
    pub fn is_batch_row(&self) -> bool {
        self.nested
    }

    /// The request id the audit log names, as the client sent it: the call's own, or
    /// its batch's.
    pub fn audit_request_id(&self) -> Option<RequestId> {
        self.client_id().or_else(|| self.batch.clone())
    }

    /// The call's id as the client wrote it (the transport may have swapped it).
    fn client_id(&self) -> Option<RequestId> {
        match self.reply_id.as_deref().map(serde_json::from_str::<RequestId>) {
            Some(Ok(id)) => Some(id),
            _ => self.request_id.clone(),
        }
    }

    /// The call whose client takes a task: see [`CallContext::task_wait`].
    #[must_use]
    pub fn with_task_wait(mut self, wait: std::time::Duration) -> Self {
        self.task_wait = Some(wait);
        self
    }

    /// How long a call whose work outlives a request waits before it answers with
    /// what the transport turns into a task; `None` when the client takes no task
    /// (and always for a batch row: a batch answers as one).
    pub fn task_wait(&self) -> Option<std::time::Duration> {
        self.task_wait.filter(|_| !self.nested)
    }

    /// The call whose reply carries `style` of text beside its structured content.
    #[must_use]
    pub fn with_reply_text(mut self, style: ReplyText) -> Self {
        self.reply_text = style;
        self
    }

    /// Which text the reply carries beside its structured content.
    pub fn reply_text(&self) -> ReplyText {
        self.reply_text
    }

    /// The exact length in bytes of the JSON-RPC response line that would carry
    /// `structured` as a successful tool result (structured content, its text, the
    /// envelope and the newline), as the stdio transport writes it.
    ///
    /// # Errors
    /// Serialization failed (it cannot for a `Value`).
    pub fn reply_line_len(&self, structured: Value) -> Result<usize, ToolError> {
        // Measured with `0` (one byte) in place of a swapped id, then corrected.
        let (id, correction) = match (&self.reply_id, &self.request_id) {
            (Some(reply_id), _) => (RequestId::Number(0), reply_id.len()),
            (None, Some(id)) => (id.clone(), 1),
            (None, None) => (RequestId::Number(0), 1),
        };
        let result = self.reply_text.success(structured);
        let message = ServerJsonRpcMessage::response(ServerResult::CallToolResult(result), id);
        let bytes =
            serde_json::to_vec(&message).map_err(|e| ToolError::internal(format!("cannot measure a reply: {e}")))?;
        Ok(bytes.len() - 1 + correction + 1)
    }
}

/// Decodes validated arguments into a generated input type.
///
/// # Errors
/// A value the schema allowed but the Rust type does not, such as `1.0` or `1e20` for
/// an unbounded `integer` that typify made an `i64`; named by its JSON pointer.
pub fn decode_arguments<T: DeserializeOwned>(arguments: Value) -> Result<T, ToolError> {
    serde_path_to_error::deserialize(arguments).map_err(|error| {
        let pointer: String = error
            .path()
            .iter()
            .filter_map(|segment| match segment {
                Segment::Seq { index } => Some(format!("/{index}")),
                Segment::Map { key } => Some(format!("/{}", pointer_token(key))),
                Segment::Enum { .. } | Segment::Unknown => None,
            })
            .collect();
        ToolError::invalid_argument(&pointer, error.into_inner())
    })
}

/// Encodes a handler's output as the JSON of `structuredContent`.
///
/// # Errors
/// Serialization failed, which is a fault in paneward.
pub fn encode_output<T: Serialize>(output: &T) -> Result<Value, ToolError> {
    serde_json::to_value(output).map_err(|e| ToolError::internal(format!("cannot encode the reply: {e}")))
}

/// What a handler may return for a tool whose generated output type is `T`: `T` itself,
/// which serde encodes, or an [`Encoded<T>`]. The generated dispatch names `T`, so a
/// handler still cannot reply in another tool's shape.
pub trait IntoStructured<T> {
    /// The reply as the JSON of `structuredContent`.
    ///
    /// # Errors
    /// Serialization failed, which is a fault in paneward.
    fn into_structured(self) -> Result<Value, ToolError>;
}

impl<T: Serialize> IntoStructured<T> for T {
    fn into_structured(self) -> Result<Value, ToolError> {
        encode_output(&self)
    }
}

/// A reply already encoded as `T` encodes, built by a handler that moves its parts in
/// rather than have serde copy them (a batch's rows' results, which are JSON already).
pub struct Encoded<T> {
    value: Value,
    shape: std::marker::PhantomData<fn() -> T>,
}

impl<T: Serialize> Encoded<T> {
    /// `output` encoded with `parts` put back where `take` found them: `take` takes
    /// each part out of `output` (leaving what serde encodes cheaply), and `put` puts
    /// each back into the encoded value at the same place.
    ///
    /// # Errors
    /// Serialization failed, which is a fault in paneward.
    pub fn moving<P>(
        mut output: T,
        take: impl FnOnce(&mut T) -> P,
        put: impl FnOnce(&mut Value, P) -> Result<(), ToolError>,
    ) -> Result<Self, ToolError> {
        let parts = take(&mut output);
        let mut value = encode_output(&output)?;
        put(&mut value, parts)?;
        Ok(Self {
            value,
            shape: std::marker::PhantomData,
        })
    }
}

impl<T> IntoStructured<T> for Encoded<T> {
    fn into_structured(self) -> Result<Value, ToolError> {
        Ok(self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn a_cancellation_reaches_the_call_and_its_batch_rows() {
        let call = CallContext::for_request(RequestId::Number(1)).with_cancellation(CancellationToken::new());
        let row = call.row_of();
        assert!(!row.is_cancelled());
        call.cancel();
        assert!(row.is_cancelled());
        tokio::time::timeout(std::time::Duration::from_secs(5), row.cancelled())
            .await
            .expect("the row hears its batch's cancellation");
    }

    #[test]
    fn changes_done_gives_back_the_turn_and_rows_hold_none() {
        let released = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = released.clone();
        let call = CallContext::for_request(RequestId::Number(1)).with_turn_release(Arc::new(move || {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }));
        call.row_of().changes_done();
        assert_eq!(
            released.load(std::sync::atomic::Ordering::SeqCst),
            0,
            "a row never releases its batch's turn"
        );
        call.changes_done();
        assert_eq!(released.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert!(!call.wants_progress(), "no progress token was given");
    }

    #[test]
    fn a_reply_is_measured_with_the_id_the_client_will_see() {
        let structured = json!({"text": "x".repeat(100)});
        for client_id in [
            json!("a-long-client-id"),
            json!(18_446_744_073_709_551_615_u64),
            json!(7),
        ] {
            let context = CallContext::for_request(RequestId::Number(123_456)).with_reply_id(client_id.to_string());
            let line = json!({"jsonrpc": "2.0", "id": client_id,
                "result": serde_json::to_value(reply_text::tool_result(structured.clone())).unwrap()});
            let expected = serde_json::to_vec(&line).unwrap().len() + 1;
            assert_eq!(
                context.reply_line_len(structured.clone()).unwrap(),
                expected,
                "{client_id}"
            );
        }
    }
}
