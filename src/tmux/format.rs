//! Reading tmux's answers to `-F`/`display-message -p` formats.
//!
//! Formats are built only from our own constants: caller text never enters one,
//! because `#(...)` in a format runs a shell command. Fields are joined by the ASCII
//! unit separator and a record ends with the record separator, so a value holding a
//! newline cannot shift the fields that follow it.
//!
//! Free text (directories, commands, titles, some names: see `FREE_TEXT`) can hold
//! those separators too, printed raw. Rather than have tmux rewrite every such field
//! with a substitution (a regex compiled per field per object: about a fifth of the
//! server's time on a pane listing), each free-text field is followed by a
//! [`terminator`]: the unit separator and 11 letters and digits (65 bits) drawn once
//! per process. The
//! record is read in order, by the names asked for: a free-text field runs to the
//! terminator, any other to the next separator. A value keeps its bytes exactly.
//!
//! Why one secret per process is enough: the text that could forge a terminator is a
//! name chosen before paneward ran (a directory in a cloned repository, a program's
//! `argv[0]`, a window name), which cannot know it; it travels only in the commands on
//! our own connection to tmux (never in process arguments). A process that could read
//! it (the same user, reading our memory or the tmux socket's traffic) can already
//! drive tmux itself. The terminator starts with the only unit separator it holds, so
//! a value ending in part of it cannot make it match early.

use std::sync::OnceLock;

use super::error::TmuxError;

/// Between two fields of a record.
pub const FIELD_SEP: char = '\u{1f}';
/// After the last field of a record.
pub const RECORD_END: char = '\u{1e}';

/// Variables whose text comes from programs or users rather than from tmux itself,
/// printed raw by tmux: a program that names a directory (or sets a title) with a
/// separator in it could otherwise end a record early and spoil every reply listing it.
/// tmux escapes control characters in the session names it stores, but `new-window -n`
/// and session groups keep them raw, and automatic renaming copies a program's name.
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

/// What ends every free-text field in this process's formats: [`FIELD_SEP`] and 11
/// random letters and digits, 65 bits (see the module note). Short, because tmux's
/// command parser grows an argument one byte at a time, and a pane description holds
/// six of these: 16 hex digits cost tmux about 30 µs more per read batch (BENCHMARKS.md).
pub fn terminator() -> &'static str {
    const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    static TERMINATOR: OnceLock<String> = OnceLock::new();
    TERMINATOR.get_or_init(|| {
        // 32 hex digits always parse; 128 random bits, of which 11 base-62 digits keep 65.
        let mut bits = u128::from_str_radix(&super::script::random_hex128(), 16).unwrap_or_default();
        let mut terminator = String::from(FIELD_SEP);
        for _ in 0..11 {
            terminator.push(char::from(DIGITS[(bits % 62) as usize]));
            bits /= 62;
        }
        terminator
    })
}

/// tmux's one-letter names for variables a record asks for often (`#D` expands exactly
/// as `#{pane_id}` does): fewer bytes for tmux's command parser on every command that
/// describes panes.
fn short_name(name: &str) -> Option<&'static str> {
    match name {
        "pane_id" => Some("#D"),
        "pane_index" => Some("#P"),
        "window_index" => Some("#I"),
        "session_name" => Some("#S"),
        "window_name" => Some("#W"),
        "pane_title" => Some("#T"),
        _ => None,
    }
}

fn is_free_text(name: &str) -> bool {
    FREE_TEXT.contains(&name)
}

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

/// Builds a format that prints the tmux variables `names` as one record; each
/// free-text variable is followed by the [`terminator`].
pub fn record_format(names: &[&str]) -> String {
    let mut format = String::new();
    for (index, name) in names.iter().enumerate() {
        if index > 0 {
            format.push(FIELD_SEP);
        }
        if let Some(short) = short_name(name) {
            format.push_str(short);
        } else {
            format.push_str("#{");
            format.push_str(name);
            format.push('}');
        }
        if is_free_text(name) {
            format.push_str(terminator());
        }
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

/// Splits `output` into records of `names`, read in order: a free-text field runs to
/// the [`terminator`], any other to the next separator. Anything after the last
/// complete record is ignored.
///
/// # Errors
/// A record with the wrong number of fields.
pub fn parse_records<'a>(
    command: &'a str,
    names: &'a [&'a str],
    output: &'a str,
) -> Result<Vec<Record<'a>>, TmuxError> {
    let mut records = Vec::new();
    // tmux prints each record on a line of its own.
    let mut rest = output.trim_start_matches('\n');
    while rest.contains(RECORD_END) {
        let (values, after) = parse_record(command, names, rest)?;
        records.push(Record { names, values, command });
        rest = after.strip_prefix('\n').unwrap_or(after);
    }
    Ok(records)
}

/// Reads one record of `names` from the start of `text`; returns its values and the
/// text after its [`RECORD_END`].
fn parse_record<'a>(command: &str, names: &[&str], text: &'a str) -> Result<(Vec<&'a str>, &'a str), TmuxError> {
    let wrong_count = |found: usize| TmuxError::Protocol {
        command: command.to_string(),
        detail: format!("a record has {found} fields where {} were asked for", names.len()),
    };
    let mut values = Vec::with_capacity(names.len());
    let mut rest = text;
    for (index, name) in names.iter().enumerate() {
        let (value, after) = if is_free_text(name) {
            let end = rest.find(terminator()).ok_or_else(|| wrong_count(index))?;
            (&rest[..end], &rest[end + terminator().len()..])
        } else {
            let end = rest.find([FIELD_SEP, RECORD_END]).ok_or_else(|| wrong_count(index))?;
            (&rest[..end], &rest[end..])
        };
        values.push(value);
        let last = index + 1 == names.len();
        let expected = if last { RECORD_END } else { FIELD_SEP };
        rest = match after.strip_prefix(expected) {
            Some(next) => next,
            None if last => {
                let record = after.split(RECORD_END).next().unwrap_or("");
                return Err(wrong_count(names.len() + record.matches(FIELD_SEP).count()));
            }
            None => return Err(wrong_count(index + 1)),
        };
    }
    Ok((values, rest))
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

    /// What tmux prints for `values` of `names` under [`record_format`].
    fn printed(names: &[&str], values: &[&str]) -> String {
        let mut out = String::new();
        for (index, (name, value)) in names.iter().zip(values).enumerate() {
            if index > 0 {
                out.push(FIELD_SEP);
            }
            out.push_str(value);
            if is_free_text(name) {
                out.push_str(terminator());
            }
        }
        out.push(RECORD_END);
        out.push('\n');
        out
    }

    #[test]
    fn a_value_holding_a_newline_does_not_shift_the_fields() {
        let names = ["pane_id", "pane_current_path", "pane_pid"];
        let output = printed(&names, &["%1", "/tmp/a\nb", "42"]) + &printed(&names, &["%2", "/", "43"]);
        let records = parse_records("list-panes", &names, &output).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].text("pane_current_path").unwrap(), "/tmp/a\nb");
        assert_eq!(records[0].int("pane_pid").unwrap(), 42);
        assert_eq!(records[1].text("pane_id").unwrap(), "%2");
    }

    #[test]
    fn free_text_holding_both_separators_and_a_forged_terminator_keeps_its_bytes() {
        let names = ["pane_id", "pane_current_path", "window_name", "pane_pid"];
        let forged = format!("a{FIELD_SEP}b{RECORD_END}\nc{FIELD_SEP}0123456789abcdef{FIELD_SEP}");
        let prefix = &terminator()[..9];
        let output = printed(&names, &["%1", &forged, prefix, "42"]) + &printed(&names, &["%2", prefix, &forged, "43"]);
        let records = parse_records("list-panes", &names, &output).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].text("pane_current_path").unwrap(), forged);
        assert_eq!(records[0].text("window_name").unwrap(), prefix);
        assert_eq!(records[0].int("pane_pid").unwrap(), 42);
        assert_eq!(records[1].text("pane_current_path").unwrap(), prefix);
        assert_eq!(records[1].text("window_name").unwrap(), forged);
        assert_eq!(records[1].int("pane_pid").unwrap(), 43);
    }

    #[test]
    fn the_terminator_is_one_separator_and_eleven_letters_and_digits() {
        let terminator = terminator();
        assert!(terminator.starts_with(FIELD_SEP));
        assert_eq!(terminator.len(), 12);
        assert!(terminator[1..].bytes().all(|b| b.is_ascii_alphanumeric()));
    }

    #[test]
    fn the_format_uses_only_the_names_given() {
        assert_eq!(record_format(&["a", "b_c"]), "#{a}\u{1f}#{b_c}\u{1e}");
    }

    #[test]
    fn free_text_fields_end_at_the_terminator_and_common_names_are_short() {
        assert_eq!(
            record_format(&["pane_id", "pane_current_path", "window_name", "pane_pid"]),
            format!(
                "#D\u{1f}#{{pane_current_path}}{0}\u{1f}#W{0}\u{1f}#{{pane_pid}}\u{1e}",
                terminator()
            )
        );
    }

    #[test]
    fn a_record_with_missing_fields_is_a_protocol_error() {
        let names = ["a", "b"];
        let error = parse_records("x", &names, "1\u{1e}").err().unwrap();
        assert!(error.to_string().contains("1 fields where 2"));
        let error = parse_records("x", &names, "1\u{1f}2\u{1f}3\u{1e}").err().unwrap();
        assert!(error.to_string().contains("3 fields where 2"), "{error}");
        let free = ["window_name", "b"];
        let error = parse_records("x", &free, "w\u{1f}2\u{1e}").err().unwrap();
        assert!(error.to_string().contains("0 fields where 2"), "{error}");
    }
}
