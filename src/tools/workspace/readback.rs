//! Reading one object's state around a change: one `display-message` record, built from
//! tmux format expressions that are our own constants, whose first field is the object's
//! own id so a missing object is told apart from an empty value.

use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::{parse_records, Record, FIELD_SEP, RECORD_END};
use crate::tmux::{ReadCommand, ReadVerb};

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
    ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-p")
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
