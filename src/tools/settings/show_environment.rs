//! `show_environment`: a session's environment, names always, values only on opt-in.
//!
//! The session is named by its name, which as a tmux target would be matched as a
//! prefix or pattern, so sessions are listed and the name matched here. The listing
//! is read in tmux's shell form (`show-environment -s`), whose quoting keeps a value
//! holding newlines in one piece.

use crate::generated::types::{
    ShowEnvironmentInput, ShowEnvironmentOutput, ShowEnvironmentOutputSession, ShowEnvironmentOutputVariablesItem,
};
use crate::guard::ReadGate;
use crate::limits::NAMES_IN_ERRORS_MAX;
use crate::runtime::error::echo;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::{ReadCommand, ReadVerb, SessionId};
use crate::tools::observe::objects::{capped, reply_id};

/// Each session's id and name.
const SESSION_NAMES: [&str; 2] = ["session_id", "session_name"];

/// One variable of `show-environment -s`: set with a value, or marked removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    pub value: Option<String>,
}

/// Parses `show-environment -s` output: `NAME="value"; export NAME;` with `$`, `` ` ``,
/// `"` and `\` escaped by a backslash, or `unset NAME;`. Values may span lines.
pub fn parse_shell_form(output: &str) -> Vec<Variable> {
    let mut variables = Vec::new();
    let mut rest = output;
    loop {
        rest = rest.trim_start_matches('\n');
        if rest.is_empty() {
            break;
        }
        if let Some(unset) = rest.strip_prefix("unset ") {
            let end = unset.find(";\n").unwrap_or(unset.len());
            variables.push(Variable {
                name: unset[..end].trim_end_matches(';').to_string(),
                value: None,
            });
            rest = unset.get(end + 2..).unwrap_or("");
            continue;
        }
        let Some(equals) = rest.find("=\"") else { break };
        let name = rest[..equals].to_string();
        let mut value = String::new();
        let mut chars = rest[equals + 2..].char_indices();
        let mut after = None;
        while let Some((at, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        value.push(escaped);
                    }
                }
                '"' => {
                    after = Some(equals + 2 + at + 1);
                    break;
                }
                other => value.push(other),
            }
        }
        variables.push(Variable {
            name,
            value: Some(value),
        });
        let Some(after) = after else { break };
        // Skip `; export NAME;` to the end of the line.
        rest = match rest[after..].find('\n') {
            Some(newline) => &rest[after + newline + 1..],
            None => "",
        };
    }
    variables
}

fn list_sessions() -> ReadCommand {
    ReadCommand::new(ReadVerb::ListSessions)
        .arg("-F")
        .arg(record_format(&SESSION_NAMES))
}

fn names_of(sessions: &[(String, String)]) -> String {
    let mut names: Vec<String> = sessions
        .iter()
        .take(NAMES_IN_ERRORS_MAX)
        .map(|(_, name)| echo(name))
        .collect();
    if sessions.len() > NAMES_IN_ERRORS_MAX {
        names.push("…".into());
    }
    names.join(", ")
}

pub async fn show_environment(
    gate: &ReadGate<'_>,
    input: ShowEnvironmentInput,
) -> Result<ShowEnvironmentOutput, ToolError> {
    let ShowEnvironmentInput { session } = input;
    let parse_sessions = |output: &[u8]| -> Result<Vec<(String, String)>, ToolError> {
        let text = String::from_utf8_lossy(output);
        Ok(parse_records("list-sessions", &SESSION_NAMES, &text)?
            .iter()
            .map(|r| Ok((r.text("session_id")?.to_string(), r.text("session_name")?.to_string())))
            .collect::<Result<Vec<_>, crate::tmux::TmuxError>>()?)
    };
    let (session, listing) = match &session {
        None => {
            // With one session, tmux's current session is that one: one round trip.
            let show = ReadCommand::new(ReadVerb::ShowEnvironment).arg("-s");
            let [sessions, listing] = gate.run_each([list_sessions(), show]).await?;
            let sessions = parse_sessions(&sessions)?;
            match <[(String, String); 1]>::try_from(sessions) {
                Ok([only]) => (only, listing),
                Err(sessions) => {
                    return Err(ToolError::invalid_argument(
                        "/session",
                        format!(
                            "this server has {} sessions ({}); name one",
                            sessions.len(),
                            names_of(&sessions)
                        ),
                    ))
                }
            }
        }
        Some(name) => {
            let sessions = parse_sessions(&gate.run(list_sessions()).await?)?;
            let Some(found) = sessions.iter().find(|(_, n)| n == name).cloned() else {
                return Err(ToolError::new(
                    ToolErrorKind::NotFound,
                    format!(
                        "no session is named {} (/session, matched exactly); sessions: {}",
                        echo(name),
                        names_of(&sessions)
                    ),
                ));
            };
            let show = ReadCommand::new(ReadVerb::ShowEnvironment)
                .arg("-s")
                .arg("-t")
                .arg(found.0.as_str());
            let listing = gate.run(show).await?;
            (found, listing)
        }
    };
    let reveal = gate.state().settings.reveal_environment;
    let variables = parse_shell_form(&String::from_utf8_lossy(&listing))
        .into_iter()
        .map(|variable| ShowEnvironmentOutputVariablesItem {
            name: variable.name,
            set: variable.value.is_some(),
            value: variable.value.filter(|_| reveal),
        })
        .collect();
    let (variables, total, truncated) = capped(variables);
    Ok(ShowEnvironmentOutput {
        session: ShowEnvironmentOutputSession {
            id: reply_id::<SessionId>(&session.0)?,
            name: session.1,
        },
        values_revealed: reveal,
        note: if reveal {
            "values revealed: paneward was started with --reveal-environment"
        } else {
            "values withheld (they may hold secrets); start paneward with --reveal-environment to include them"
        }
        .to_string(),
        variables,
        total,
        truncated,
    })
}

/// Whose environment [`revealed_environment`] reads.
#[derive(Debug, Clone, Copy)]
pub enum EnvironmentOf<'a> {
    /// tmux's global environment (`-g`), which new sessions start from.
    Global,
    /// One session's, by its id (resolved by the caller, never a name).
    Session(&'a str),
}

/// Every variable of one environment with its value, for a caller whose contract
/// returns values. Values are read only where paneward was started with
/// `--reveal-environment`; otherwise nothing is read and the call is refused.
///
/// # Errors
/// Values are withheld by this paneward, or tmux failed.
pub async fn revealed_environment(gate: &ReadGate<'_>, of: EnvironmentOf<'_>) -> Result<Vec<Variable>, ToolError> {
    if !gate.state().settings.reveal_environment {
        return Err(ToolError::new(
            ToolErrorKind::Refused,
            "environment values are withheld (they may hold secrets): start paneward with --reveal-environment to \
             read them; nothing was read",
        ));
    }
    let show = ReadCommand::new(ReadVerb::ShowEnvironment).arg("-s");
    let show = match of {
        EnvironmentOf::Global => show.arg("-g"),
        EnvironmentOf::Session(id) => show.arg("-t").arg(id),
    };
    let listing = gate.run(show).await?;
    Ok(parse_shell_form(&String::from_utf8_lossy(&listing)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shell_form_keeps_escapes_and_newlines() {
        let output = "unset DISPLAY;\nEMPTY=\"\"; export EMPTY;\nFOO=\"a \\\"b\\\" \\$c \\`d\\` \\\\e\nline2\"; export FOO;\nunset GONE;\n";
        let parsed = parse_shell_form(output);
        assert_eq!(
            parsed,
            [
                Variable {
                    name: "DISPLAY".into(),
                    value: None
                },
                Variable {
                    name: "EMPTY".into(),
                    value: Some(String::new())
                },
                Variable {
                    name: "FOO".into(),
                    value: Some("a \"b\" $c `d` \\e\nline2".into())
                },
                Variable {
                    name: "GONE".into(),
                    value: None
                },
            ]
        );
    }

    #[test]
    fn long_session_lists_are_cut_in_errors() {
        let sessions: Vec<(String, String)> = (0..20).map(|i| (format!("${i}"), format!("s{i}"))).collect();
        let text = names_of(&sessions);
        assert!(text.contains("\"s9\"") && !text.contains("\"s10\"") && text.ends_with('…'));
    }
}
