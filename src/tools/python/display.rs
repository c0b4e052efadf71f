//! libtmux-mcp's `display_message` under `--profile python`, without handing caller text
//! to tmux's format expander: the `format_string` is split here into literal text and
//! plain `#{name}` references, each name is read through paneward's own
//! `get_tmux_variables` (which only reads names tmux itself lists, one
//! `display-message` per name), and the text is put together by paneward. Anything else
//! with a `#` (modifiers, conditionals, `#(jobs)`, `##`) is refused, as libtmux-mcp
//! refuses it; a name tmux does not know reads as empty, as tmux prints it.
//!
//! Stricter than libtmux-mcp: a name must be `[A-Za-z][A-Za-z0-9_]*` (so no `#{@user_option}`
//! and no `-`), which is what paneward's variable reader takes.

use crate::generated::python::types::{DisplayMessageInput, DisplayMessageOutput};
use crate::generated::types::GetTmuxVariablesInput;
use crate::guard::ReadGate;
use crate::limits::VARIABLE_NAMES_MAX;
use crate::runtime::error::short_echo;
use crate::runtime::ToolError;
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::observe::server::get_tmux_variables;

use super::capture::resolved_pane;
use super::target::{checked, upstream_error};

/// A piece of a format string: text kept as it is, or a variable to read.
#[derive(Debug, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Variable(&'a str),
}

pub async fn display_message(
    gate: &ReadGate<'_>,
    input: DisplayMessageInput,
) -> Result<DisplayMessageOutput, ToolError> {
    let pieces = pieces(&input.format_string)?;
    let pane = resolved_pane(gate, &checked(gate, &input)?).await?;
    if input.format_string.is_empty() {
        // No format: tmux's own message template (a constant of tmux's, no caller
        // text), as libtmux-mcp's call without one prints it.
        let shown = gate
            .run(
                ReadCommand::new(ReadVerb::DisplayMessage)
                    .arg("-t")
                    .arg(pane.to_string()),
            )
            .await?;
        return Ok(DisplayMessageOutput {
            result: String::from_utf8_lossy(&shown).trim_end_matches('\n').to_string(),
        });
    }
    let mut names: Vec<String> = Vec::new();
    for piece in &pieces {
        if let Piece::Variable(name) = piece {
            if !names.iter().any(|known| known == name) {
                names.push((*name).to_string());
            }
        }
    }
    let mut values: Vec<(String, String)> = Vec::new();
    for chunk in names.chunks(VARIABLE_NAMES_MAX) {
        let read = GetTmuxVariablesInput {
            names: chunk.to_vec(),
            pane_id: Some(crate::tools::observe::objects::checked(&pane.to_string())?),
        };
        let read = get_tmux_variables(gate, read).await?;
        values.extend(read.variables.into_iter().map(|item| (item.name, item.value)));
    }
    let mut text = String::new();
    for piece in pieces {
        match piece {
            Piece::Text(literal) => text.push_str(literal),
            Piece::Variable(name) => {
                if let Some((_, value)) = values.iter().find(|(known, _)| known == name) {
                    text.push_str(value);
                }
            }
        }
    }
    // libtmux returns tmux's output lines joined again, so a trailing newline goes.
    let result = text.trim_end_matches('\n').to_string();
    Ok(DisplayMessageOutput { result })
}

/// Splits `format` into literal text and `#{name}` references.
///
/// # Errors
/// Any other `#`, with libtmux-mcp's message; or a name paneward does not read.
fn pieces(format: &str) -> Result<Vec<Piece<'_>>, ToolError> {
    let mut pieces = Vec::new();
    let mut rest = format;
    while let Some(at) = rest.find('#') {
        if at > 0 {
            pieces.push(Piece::Text(&rest[..at]));
        }
        let after = &rest[at + 1..];
        let name = after
            .strip_prefix('{')
            .and_then(|inner| inner.find('}').map(|end| &inner[..end]))
            .filter(|name| upstream_name(name))
            .ok_or_else(|| refused(format))?;
        if !paneward_name(name) {
            return Err(upstream_error(
                "ExpectedToolError",
                &format!(
                    "format_string reads variables named [A-Za-z][A-Za-z0-9_]* only under paneward; '#{{{}}}' is not one (user options and '-' are not read)",
                    short_echo(name)
                ),
                None,
            ));
        }
        pieces.push(Piece::Variable(name));
        rest = &after[name.len() + 2..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest));
    }
    Ok(pieces)
}

/// libtmux-mcp's pattern for a reference's name: `[A-Za-z_@][A-Za-z0-9_-]*`.
fn upstream_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_' || first == '@')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn paneward_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|first| first.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn refused(format: &str) -> ToolError {
    upstream_error(
        "ExpectedToolError",
        &format!(
            "format_string accepts literal text and '#{{variable}}' references only; {} carries other tmux format syntax. Modifiers such as '#{{E:...}}' expand a variable's value a second time, and a job '#(...)' runs a shell command.",
            python_repr(&short_echo(format))
        ),
        None,
    )
}

/// Text quoted as Python's `repr` quotes it (enough for the error's echo).
fn python_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_references_are_read() {
        assert_eq!(
            pieces("x=#{cursor_x}, y=#{cursor_y}").unwrap(),
            [
                Piece::Text("x="),
                Piece::Variable("cursor_x"),
                Piece::Text(", y="),
                Piece::Variable("cursor_y")
            ]
        );
        assert_eq!(pieces("plain").unwrap(), [Piece::Text("plain")]);
        for bad in [
            "#{E:pane_id}",
            "#(reboot)",
            "##",
            "#{?pane_dead,a,b}",
            "#{pane_id",
            "#[fg=red]",
            "#D",
        ] {
            let error = pieces(bad).unwrap_err();
            assert!(
                error.message().contains("carries other tmux format syntax"),
                "{bad}: {}",
                error.message()
            );
        }
        assert!(pieces("#{@mine}")
            .unwrap_err()
            .message()
            .contains("[A-Za-z][A-Za-z0-9_]*"));
    }
}
