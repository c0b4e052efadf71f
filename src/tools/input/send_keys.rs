//! `send_keys` and `send_keys_batch`: typing into panes through the cohort check.
//!
//! Every row's arguments are checked before anything is typed, so a malformed batch
//! changes nothing; each row's cohort is then checked in the same indivisible tmux
//! step as its own input (never all up front), because earlier rows can change what
//! later rows reach.

use crate::generated::types::{
    SendKeysBatchInput, SendKeysBatchInputOnError, SendKeysBatchOutput, SendKeysBatchOutputFailuresItem,
    SendKeysBatchOutputTargetsItem, SendKeysInput, SendKeysOutput,
};
use crate::guard::key_input::KeyInput;
use crate::guard::ChangeGate;
use crate::runtime::error::ToolError;
use crate::tmux::PaneId;
use crate::tools::args;

use super::confirm::{self, Confirm, Outcome};

/// One input to one pane, its arguments already checked.
struct InputRow {
    pane: PaneId,
    keys: KeyInput,
    enter: bool,
    force: bool,
}

impl InputRow {
    /// Checks one row's arguments; `at` is the row's JSON pointer (empty for `send_keys`)
    /// and `pane_field` the name its pane id has there (`pane_id` in `send_keys`, the
    /// seeded `paneId` in `send_keys_batch`).
    ///
    /// # Errors
    /// A pane id that is not `%N`, or `keys` that [`KeyInput::parse`] refuses.
    fn parse(
        at: &str,
        pane_field: &str,
        pane_id: &str,
        keys: &str,
        enter: Option<bool>,
        literal: Option<bool>,
        force: Option<bool>,
    ) -> Result<Self, ToolError> {
        let enter = enter.unwrap_or(true);
        Ok(Self {
            pane: args::pane_id(&format!("{at}/{pane_field}"), pane_id)?,
            keys: KeyInput::parse(&format!("{at}/keys"), keys, literal.unwrap_or(false), enter)?,
            enter,
            force: force.unwrap_or(false),
        })
    }

    /// Checks the row's cohort, then types; returns the panes that received it.
    ///
    /// # Errors
    /// The cohort check's refusal, or tmux failing.
    async fn deliver(&self, gate: &ChangeGate<'_>) -> Result<Vec<PaneId>, ToolError> {
        gate.deliver(self.pane, self.force, &self.keys, self.enter).await
    }
}

/// Pane ids as a generated pattern-checked string type.
fn ids<T: TryFrom<String>>(panes: &[PaneId]) -> Result<Vec<T>, ToolError> {
    panes
        .iter()
        .map(|pane| T::try_from(pane.to_string()).map_err(|_| ToolError::internal("a pane id broke its pattern")))
        .collect()
}

/// A row number as the contract's integer.
fn index(row: usize) -> Result<i64, ToolError> {
    i64::try_from(row).map_err(|_| ToolError::internal("row index out of range"))
}

/// Types one row: the cohort is checked, then the keys go in.
///
/// # Errors
/// Bad arguments, a refusal naming the pane and rule, or a tmux failure.
pub async fn send_keys(gate: &ChangeGate<'_>, input: SendKeysInput) -> Result<SendKeysOutput, ToolError> {
    let SendKeysInput {
        confirm_submit,
        confirm_timeout_ms,
        enter,
        force,
        keys,
        literal,
        pane_id,
    } = input;
    let row = InputRow::parse("", "pane_id", &pane_id, &keys, enter, literal, force)?;
    let confirm = Confirm::parse(
        confirm_submit,
        confirm_timeout_ms.map(u64::from),
        row.enter,
        gate.context().is_batch_row(),
    )?;
    let Some(confirm) = confirm else {
        let received = row.deliver(gate).await?;
        return reply(&row, &received, None);
    };
    let before = confirm::look(gate, row.pane).await?;
    let received = row.deliver(gate).await?;
    let tail = confirm::tail(&row.keys);
    let outcome = confirm::confirm(gate, row.pane, row.force, &before, tail.as_deref(), confirm).await;
    reply(&row, &received, Some(outcome))
}

/// `send_keys`'s reply, with the confirmation's findings when one was asked for.
fn reply(row: &InputRow, received: &[PaneId], outcome: Option<Outcome>) -> Result<SendKeysOutput, ToolError> {
    let (submitted, evidence, retried) = match outcome {
        Some(Outcome {
            submitted,
            evidence,
            retried,
        }) => (Some(confirm::word(submitted)?), Some(evidence), Some(retried)),
        None => (None, None, None),
    };
    Ok(SendKeysOutput {
        evidence,
        retried,
        submitted,
        pane_id: row.pane.to_string(),
        resolved_pane_ids: ids(received)?,
    })
}

/// Types the rows in order, each checked just before its own input; a refused row is
/// reported in `failures` and, unless `onError` is `continue`, ends the batch.
///
/// # Errors
/// Bad arguments in any row (before anything is typed).
pub async fn send_keys_batch(
    gate: &ChangeGate<'_>,
    input: SendKeysBatchInput,
) -> Result<SendKeysBatchOutput, ToolError> {
    let SendKeysBatchInput { on_error, operations } = input;
    let rows = operations
        .iter()
        .enumerate()
        .map(|(i, op)| {
            InputRow::parse(
                &format!("/operations/{i}"),
                "paneId",
                &op.pane_id,
                &op.keys,
                op.enter,
                op.literal,
                op.force,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let stop_on_error = !matches!(on_error, Some(SendKeysBatchInputOnError::Continue));
    let mut output = SendKeysBatchOutput {
        completed: 0,
        failures: Vec::new(),
        targets: Vec::new(),
    };
    for (row_index, row) in rows.iter().enumerate() {
        let delivered = row.deliver(gate).await;
        // Typed or not, a row may have changed a pane: a later question cannot be put
        // off to a repeat of the call, and one put off by this row stops the batch (the
        // repeat would type every row again).
        gate.context().note_change();
        if gate.context().awaits_answer() {
            break;
        }
        match delivered {
            Ok(received) => {
                output.completed += 1;
                output.targets.push(SendKeysBatchOutputTargetsItem {
                    index: index(row_index)?,
                    resolved_pane_ids: ids(&received)?,
                });
            }
            Err(error) => {
                output.failures.push(SendKeysBatchOutputFailuresItem {
                    index: index(row_index)?,
                    reason: error.message().to_string(),
                });
                if stop_on_error {
                    break;
                }
            }
        }
    }
    Ok(output)
}
