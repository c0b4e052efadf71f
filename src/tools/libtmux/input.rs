//! The family's pane input under `--profile libtmux`: `send_keys` (literal text, then
//! named keys, then Enter), `send_keys_batch` and `paste_text`, each typed through
//! paneward's own `send_keys` and `paste_text`, so the caller-pane, cohort, mode and
//! attended-pane checks run before every piece of input, and a key name is only ever
//! pressed as a key, never typed as text.

use serde_json::{json, Value};

use crate::generated::libtmux::types::*;
use crate::guard::ChangeGate;
use crate::runtime::{Encoded, ToolError};
use crate::tmux::PaneId;
use crate::tools::input::{buffers, keys::is_key_name, send_keys as own_send};

use super::batch::BatchReply;
use super::target::{self, bad_input};
use super::views::typed;
use super::workspace::own_input;

/// The most rows one `send_keys_batch` takes, as the family's.
const MAX_OPERATIONS: usize = 64;

/// One row of family input, checked before anything is typed.
struct Row {
    pane: PaneId,
    text: Option<String>,
    keys: Vec<String>,
    enter: bool,
}

impl Row {
    /// The row's pane id and key names checked: a row that cannot be typed whole is
    /// refused before any of it is.
    fn checked(pane: &str, text: Option<String>, keys: Option<Vec<String>>, enter: bool) -> Result<Self, ToolError> {
        let pane = target::pane_id(pane)?;
        let keys = keys.unwrap_or_default();
        if let Some(key) = keys.iter().find(|key| !is_key_name(key)) {
            return Err(bad_input(format!(
                "{key:?} is not a tmux key name; type text with `text`, press keys such as C-c, Enter or Up with `keys`"
            )));
        }
        Ok(Self {
            pane,
            text: text.filter(|text| !text.is_empty()),
            keys,
            enter,
        })
    }

    /// Types the row: its text literally, then its keys as key presses, then Enter (at
    /// most two of paneward's own `send_keys`, each passing paneward's checks of the pane
    /// and its cohort just before it). Returns the panes that received it.
    async fn deliver(&self, gate: &ChangeGate<'_>) -> Result<Vec<String>, ToolError> {
        let mut pieces: Vec<Value> = Vec::new();
        if let Some(text) = &self.text {
            let enter = self.enter && self.keys.is_empty();
            pieces.push(json!({ "keys": text, "literal": true, "enter": enter }));
        }
        if !self.keys.is_empty() {
            pieces.push(json!({ "keys": self.keys.join(" "), "literal": false, "enter": self.enter }));
        }
        if pieces.is_empty() && self.enter {
            pieces.push(json!({ "keys": "Enter", "literal": false, "enter": false }));
        }
        let mut received = vec![self.pane.to_string()];
        for mut piece in pieces {
            piece["pane_id"] = json!(self.pane.to_string());
            let sent = own_send::send_keys(gate, own_input(piece)?).await?;
            received = sent.resolved_pane_ids.iter().map(|id| id.to_string()).collect();
        }
        Ok(received)
    }
}

pub async fn send_keys(gate: &ChangeGate<'_>, input: SendKeysInput) -> Result<Encoded<SendKeysOutput>, ToolError> {
    let row = Row::checked(&input.pane, input.text, input.keys, input.enter)?;
    // The pane is looked up first, so a pane that is not there is gone, not refused.
    target::pane(gate, &input.pane).await?;
    let panes = row.deliver(gate).await?;
    typed(json!({ "pane": row.pane.to_string(), "panes": panes }))
}

pub async fn send_keys_batch(
    gate: &ChangeGate<'_>,
    input: SendKeysBatchInput,
) -> Result<Encoded<SendKeysBatchOutput>, ToolError> {
    let stop = matches!(input.on_error, SendKeysBatchInputOnError::Stop);
    if !(1..=MAX_OPERATIONS).contains(&input.operations.len()) {
        return Err(bad_input(format!(
            "operations must contain 1 through {MAX_OPERATIONS} items"
        )));
    }
    let rows = input
        .operations
        .into_iter()
        .enumerate()
        .map(|(index, operation)| {
            Row::checked(&operation.pane, operation.text, operation.keys, operation.enter)
                .map_err(|error| ToolError::new(error.kind(), format!("operations[{index}]: {}", error.message())))
        })
        .collect::<Result<Vec<Row>, ToolError>>()?;
    let mut reply = BatchReply::new(stop);
    for (index, row) in rows.iter().enumerate() {
        let outcome = match target::pane(gate, &row.pane.to_string()).await {
            Ok(_) => row.deliver(gate).await,
            Err(error) => Err(error),
        };
        match outcome {
            Ok(panes) => reply.succeeded(
                index,
                "send_keys",
                json!({"pane": row.pane.to_string(), "panes": panes}),
            ),
            Err(error) => {
                if reply.failed(index, "send_keys", &error) {
                    break;
                }
            }
        }
    }
    reply.typed()
}

pub async fn paste_text(gate: &ChangeGate<'_>, input: PasteTextInput) -> Result<Encoded<PasteTextOutput>, ToolError> {
    let (pane, _) = target::pane(gate, &input.pane).await?;
    // An empty paste stages no buffer: it is Enter alone, or nothing.
    if input.text.is_empty() {
        if input.enter {
            Row::checked(&pane.to_string(), None, None, true)?.deliver(gate).await?;
        }
        return typed(json!({ "pane": pane.to_string(), "bytes": 0 }));
    }
    let pasted = buffers::paste_text(
        gate,
        own_input(json!({ "pane_id": pane.to_string(), "text": input.text, "enter": input.enter }))?,
    )
    .await?;
    typed(json!({ "pane": pane.to_string(), "bytes": pasted.bytes }))
}
