//! Reading one object's state around a change: one `display-message` record, built from
//! tmux format expressions that are our own constants, whose first field is the object's
//! own id so a missing object is told apart from an empty value. [`read_change_read`]
//! sends the reads before and after the change in the change's own tmux step, so the
//! "previous" values a reply gives are what the change replaced.

use crate::guard::{ChangeCommand, ChangeGate};
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::{parse_records, Record, FIELD_SEP, RECORD_END};
use crate::tmux::{ReadCommand, ReadVerb, TmuxError};

/// What the reads of [`read_change_read`] printed, before and after the change.
pub struct Around {
    outputs: Vec<String>,
    reads: usize,
    changes: usize,
}

impl Around {
    /// What read `index` printed before the change.
    ///
    /// # Errors
    /// tmux answered fewer commands than it was sent.
    pub fn before(&self, index: usize) -> Result<&str, ToolError> {
        self.output(index)
    }

    /// What read `index` printed after the change.
    ///
    /// # Errors
    /// tmux answered fewer commands than it was sent.
    pub fn after(&self, index: usize) -> Result<&str, ToolError> {
        self.output(self.reads + self.changes + index)
    }

    fn output(&self, index: usize) -> Result<&str, ToolError> {
        self.outputs
            .get(index)
            .map(String::as_str)
            .ok_or_else(|| ToolError::internal("tmux answered with fewer outputs than commands"))
    }
}

/// Sends `reads`, then `change`, then `reads` again, as one command list: one tmux step,
/// so nothing another client does comes between the reads and the change.
///
/// # Errors
/// tmux failing, as it said (the caller may word a failure it expects).
pub async fn read_change_read(
    gate: &ChangeGate<'_>,
    reads: &[ReadCommand],
    change: impl IntoIterator<Item = ChangeCommand>,
) -> Result<Around, TmuxError> {
    let read = || reads.iter().cloned().map(ChangeCommand::from);
    let change: Vec<ChangeCommand> = change.into_iter().collect();
    let changes = change.len();
    let commands: Vec<ChangeCommand> = read().chain(change).chain(read()).collect();
    let outputs = gate.change_all(&commands).await?;
    Ok(Around {
        outputs: outputs
            .iter()
            .map(|o| String::from_utf8_lossy(o).into_owned())
            .collect(),
        reads: reads.len(),
        changes,
    })
}

/// A reply string typed by its schema pattern.
pub fn typed<T: TryFrom<String>>(text: impl ToString) -> Result<T, ToolError> {
    T::try_from(text.to_string()).map_err(|_| ToolError::internal("a value read from tmux broke its pattern"))
}

/// A format of one record from tmux format expressions (our own constants only).
pub fn record_of(parts: &[&str]) -> String {
    let mut format = parts.join(&FIELD_SEP.to_string());
    format.push(RECORD_END);
    format
}

/// `display-message -p -t target` with `format`.
pub fn display(target: impl ToString, format: &str) -> ReadCommand {
    // `ReadCommand` adds display-message's `-p` itself.
    ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-t")
        .arg(target.to_string())
        .arg(format)
}

/// Parses the record `display` printed for `target`, its fields named `names`, the first
/// being the target's own id. `display-message` names no missing target: it prints
/// empty values (or nothing), so a record without the id means the target is gone.
pub fn parse<'a>(target: impl ToString, names: &'a [&'a str], output: &'a str) -> Result<Record<'a>, ToolError> {
    let target = target.to_string();
    let mut records = parse_records("display-message", names, output)?;
    if records.len() > 1 {
        return Err(ToolError::internal("display-message printed several records"));
    }
    match records.pop() {
        Some(record) if record.text("id")? == target => Ok(record),
        _ => Err(ToolError::new(
            ToolErrorKind::NotFound,
            format!("{target} does not exist; list panes (or windows, sessions) again for current ids"),
        )),
    }
}
