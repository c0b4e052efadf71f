//! Reading tmux's answers to `-F`/`display-message -p` formats.
//!
//! Formats are built only from our own constants: caller text never enters one,
//! because `#(...)` in a format runs a shell command. Fields are joined by the ASCII
//! unit separator, which tmux escapes (as `\037`) inside names it stores, and a
//! record ends with the record separator so a value holding a newline cannot shift
//! the fields that follow it.

use super::error::TmuxError;

/// Between two fields of a record.
pub const FIELD_SEP: char = '\u{1f}';
/// After the last field of a record.
pub const RECORD_END: char = '\u{1e}';

/// Variables whose text comes from programs or users rather than from tmux itself,
/// printed raw by tmux: a program that names a directory (or sets a title) with a
/// separator in it could otherwise end a record early and spoil every reply listing it.
/// tmux escapes control characters in the session and window names it stores, but
/// `rename-window` and automatic renaming reach them too, so they are listed as well.
const FREE_TEXT: [&str; 10] = [
    "session_name",
    "window_name",
    "pane_current_command",
    "pane_current_path",
    "pane_title",
    "session_path",
    "session_group",
    "client_termname",
    "client_name",
    "socket_path",
];

/// `text` written so that tmux's format expansion gives it back unchanged. tmux expands
/// the names, titles and directories that `new-session -s`, `new-window -n`,
/// `rename-*`, `select-pane -T` and `-c` receive, where `#(…)` would run a shell
/// command and `#{…}`, `#S` and the like would expand; `##` is one `#`. But a run of
/// `#` followed by `[` is a style that expansion copies as it is (`##[` stays `##[`),
/// so such a run is left alone and every other `#` is doubled.
pub fn literal(text: &str) -> String {
    let mut written = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(start) = rest.find('#') {
        written.push_str(&rest[..start]);
        let run = rest[start..].bytes().take_while(|&b| b == b'#').count();
        let hashes = &rest[start..start + run];
        rest = &rest[start + run..];
        if rest.starts_with('[') {
            written.push_str(hashes);
        } else {
            written.push_str(&hashes.replace('#', "##"));
        }
    }
    written.push_str(rest);
    written
}

/// Builds a format that prints the tmux variables `names` as one record; free-text
/// variables are printed with the two separators replaced by `?`.
pub fn record_format(names: &[&str]) -> String {
    let mut format = String::new();
    for (index, name) in names.iter().enumerate() {
        if index > 0 {
            format.push(FIELD_SEP);
        }
        if FREE_TEXT.contains(name) {
            format.push_str("#{s/[");
            format.push(FIELD_SEP);
            format.push(RECORD_END);
            format.push_str("]/?/:");
        } else {
            format.push_str("#{");
        }
        format.push_str(name);
        format.push('}');
    }
    format.push(RECORD_END);
    format
}

/// One parsed record: the values of the variables, in the order they were asked for.
pub struct Record<'a> {
    names: &'a [&'a str],
    values: Vec<&'a str>,
    command: &'a str,
}

impl<'a> Record<'a> {
    fn error(&self, detail: String) -> TmuxError {
        TmuxError::Protocol {
            command: self.command.to_string(),
            detail,
        }
    }

    fn index_of(&self, name: &str) -> Result<usize, TmuxError> {
        self.names
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| self.error(format!("the format does not ask for {name}")))
    }

    /// The raw text of a variable.
    ///
    /// # Errors
    /// The variable was not part of the format.
    pub fn text(&self, name: &str) -> Result<&'a str, TmuxError> {
        Ok(self.values[self.index_of(name)?])
    }

    /// A variable that tmux prints as a decimal number.
    ///
    /// # Errors
    /// The value is not a number.
    pub fn int(&self, name: &str) -> Result<i64, TmuxError> {
        let text = self.text(name)?;
        text.parse().map_err(|_| self.error(format!("{name} is not a number")))
    }

    /// A variable that tmux prints as a count or position (never negative).
    ///
    /// # Errors
    /// The value is not a non-negative number.
    pub fn count(&self, name: &str) -> Result<u64, TmuxError> {
        let text = self.text(name)?;
        text.parse()
            .map_err(|_| self.error(format!("{name} is not a non-negative number")))
    }

    /// A number that tmux prints as empty when it does not apply.
    ///
    /// # Errors
    /// The value is neither empty nor a number.
    pub fn optional_int(&self, name: &str) -> Result<Option<i64>, TmuxError> {
        match self.text(name)? {
            "" => Ok(None),
            _ => self.int(name).map(Some),
        }
    }

    /// A flag that tmux prints as `1` or `0` (or empty for unset).
    ///
    /// # Errors
    /// The variable was not part of the format.
    pub fn flag(&self, name: &str) -> Result<bool, TmuxError> {
        Ok(self.text(name)? == "1")
    }
}

/// Splits `output` into records of `names`; anything after the last record is ignored.
///
/// # Errors
/// A record with the wrong number of fields.
pub fn parse_records<'a>(
    command: &'a str,
    names: &'a [&'a str],
    output: &'a str,
) -> Result<Vec<Record<'a>>, TmuxError> {
    let mut records = Vec::new();
    let mut rest = output;
    while let Some(end) = rest.find(RECORD_END) {
        let body = rest[..end].trim_start_matches('\n');
        let values: Vec<&str> = body.split(FIELD_SEP).collect();
        if values.len() != names.len() {
            return Err(TmuxError::Protocol {
                command: command.to_string(),
                detail: format!(
                    "a record has {} fields where {} were asked for",
                    values.len(),
                    names.len()
                ),
            });
        }
        records.push(Record { names, values, command });
        rest = &rest[end + RECORD_END.len_utf8()..];
    }
    Ok(records)
}

/// Parses output that must hold exactly one record.
///
/// # Errors
/// No record, more than one, or a malformed one.
pub fn parse_one<'a>(command: &'a str, names: &'a [&'a str], output: &'a str) -> Result<Record<'a>, TmuxError> {
    let mut records = parse_records(command, names, output)?;
    if records.len() != 1 {
        return Err(TmuxError::Protocol {
            command: command.to_string(),
            detail: format!("expected one record, got {}", records.len()),
        });
    }
    records.pop().ok_or_else(|| TmuxError::Protocol {
        command: command.to_string(),
        detail: "no record".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_doubles_every_hash_but_a_style_run() {
        assert_eq!(literal("#(id) #{pane_id} #S ##"), "##(id) ##{pane_id} ##S ####");
        assert_eq!(literal("plain"), "plain");
        assert_eq!(literal("h#[x ##[y #"), "h#[x ##[y ##");
        assert_eq!(literal("#a###[b#"), "##a###[b##");
    }

    #[test]
    fn a_value_holding_a_newline_does_not_shift_the_fields() {
        let names = ["pane_id", "pane_current_path", "pane_pid"];
        let output = "%1\u{1f}/tmp/a\nb\u{1f}42\u{1e}\n%2\u{1f}/\u{1f}43\u{1e}\n";
        let records = parse_records("list-panes", &names, output).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].text("pane_current_path").unwrap(), "/tmp/a\nb");
        assert_eq!(records[0].int("pane_pid").unwrap(), 42);
        assert_eq!(records[1].text("pane_id").unwrap(), "%2");
    }

    #[test]
    fn the_format_uses_only_the_names_given() {
        assert_eq!(record_format(&["a", "b_c"]), "#{a}\u{1f}#{b_c}\u{1e}");
    }

    #[test]
    fn free_text_fields_are_printed_without_separators() {
        assert_eq!(
            record_format(&["pane_id", "pane_current_path"]),
            "#{pane_id}\u{1f}#{s/[\u{1f}\u{1e}]/?/:pane_current_path}\u{1e}"
        );
    }

    #[test]
    fn a_record_with_missing_fields_is_a_protocol_error() {
        let names = ["a", "b"];
        let error = parse_records("x", &names, "1\u{1e}").err().unwrap();
        assert!(error.to_string().contains("1 fields where 2"));
    }
}
