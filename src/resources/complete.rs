//! `completion/complete` for the resource templates' variables (`session`, `window`,
//! `pane`): the ids tmux has now, sigil-less as the URIs write them, narrowed to the
//! session (and window) already chosen in `context.arguments`; `job` completes to
//! nothing.
//!
//! [`candidates`] is the shared part: the ids of one kind, narrowed, read in one round
//! trip; prompt-argument completion can use it and add the sigils.

use crate::limits::COMPLETION_MAX_VALUES;
use std::collections::{BTreeSet, HashMap};

use rmcp::model::{ArgumentInfo, CompletionContext, CompletionInfo, ErrorData};

use crate::guard::{GuardState, ReadGate};
use crate::resources::uri::id_digits;
use crate::runtime::error::echo;
use crate::runtime::error::ToolError;
use crate::runtime::CallContext;
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::ids::IdKind;
use crate::tmux::{ReadCommand, ReadVerb};

/// What the ids are narrowed to: the numbers of a chosen session and window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Narrowing {
    pub session: Option<u32>,
    pub window: Option<u32>,
}

impl Narrowing {
    /// From the values already chosen (`context.arguments`), sigil-less or not; a
    /// value that is no id narrows nothing.
    pub fn from_arguments(arguments: Option<&HashMap<String, String>>) -> Self {
        let get = |name: &str, kind: IdKind| arguments.and_then(|a| a.get(name)).and_then(|v| id_digits(kind, v));
        Self {
            session: get("session", IdKind::Session),
            window: get("window", IdKind::Window),
        }
    }
}

const FIELDS: [&str; 3] = ["session_id", "window_id", "pane_id"];

/// The numbers of every `kind` id tmux has now, within `narrowing`, ascending.
///
/// # Errors
/// tmux cannot answer.
pub async fn candidates(gate: &ReadGate<'_>, kind: IdKind, narrowing: Narrowing) -> Result<Vec<u32>, ToolError> {
    let command = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-a")
        .arg("-F")
        .arg(record_format(&FIELDS));
    let output = gate.run(command).await?;
    let text = String::from_utf8_lossy(&output);
    let mut found = BTreeSet::new();
    for record in parse_records("list-panes", &FIELDS, &text)? {
        let number = |name: &str, kind: IdKind| record.text(name).ok().and_then(|t| id_digits(kind, t));
        let session = number("session_id", IdKind::Session);
        let window = number("window_id", IdKind::Window);
        if narrowing.session.is_some_and(|s| session != Some(s)) || narrowing.window.is_some_and(|w| window != Some(w))
        {
            continue;
        }
        let id = match kind {
            IdKind::Session => session,
            IdKind::Window => window,
            IdKind::Pane => number("pane_id", IdKind::Pane),
        };
        found.extend(id);
    }
    Ok(found.into_iter().collect())
}

/// The variables of a declared template, in order.
fn variables(template: &str) -> Vec<&str> {
    template
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .collect()
}

/// The kind of id a template variable holds.
fn kind_of(variable: &str) -> Option<IdKind> {
    match variable {
        "session" => Some(IdKind::Session),
        "window" => Some(IdKind::Window),
        "pane" => Some(IdKind::Pane),
        _ => None,
    }
}

/// Completes `argument` of the template `template` (its `uriTemplate`, as listed).
///
/// # Errors
/// -32602 for a template or variable paneward does not declare; -32603 when tmux
/// cannot answer.
pub async fn complete_template(
    state: &GuardState,
    serves: impl Fn(&str) -> bool,
    template: &str,
    argument: &ArgumentInfo,
    context: Option<&CompletionContext>,
) -> Result<CompletionInfo, ErrorData> {
    let declared = super::declared::all().map_err(|e| ErrorData::internal_error(e, None))?;
    // A template the surface does not serve completes as one paneward does not have.
    let Some(uri_template) = declared
        .iter()
        .filter(|d| d.served(&serves))
        .filter_map(|d| d.uri_template.as_deref())
        .find(|t| *t == template)
    else {
        return Err(ErrorData::invalid_params(
            format!(
                "/params/ref/uri: {} is not one of the resource templates served here (resources/templates/list)",
                echo(template)
            ),
            None,
        ));
    };
    let variable = variables(uri_template).into_iter().find(|v| *v == argument.name);
    // A job id is not guessed: run_command returns it. The variable completes to nothing.
    if variable == Some("job") {
        return Ok(bounded(&[], ""));
    }
    let Some(kind) = variable.and_then(kind_of) else {
        return Err(ErrorData::invalid_params(
            format!(
                "/params/argument/name: {} is not a variable of {uri_template}",
                echo(&argument.name)
            ),
            None,
        ));
    };
    let narrowing = Narrowing::from_arguments(context.and_then(|c| c.arguments.as_ref()));
    let call = CallContext::default();
    let gate = ReadGate::new(state, &call);
    let ids = candidates(&gate, kind, narrowing)
        .await
        .map_err(|e| ErrorData::internal_error(e.message().to_string(), None))?;
    Ok(bounded(&ids, prefix(kind, &argument.value)))
}

/// What the client typed, sigil (raw or escaped) left off.
fn prefix(kind: IdKind, value: &str) -> &str {
    let escaped = match kind {
        IdKind::Pane => "%25",
        IdKind::Window => "%40",
        IdKind::Session => "%24",
    };
    value
        .strip_prefix(escaped)
        .or_else(|| value.strip_prefix(kind.sigil()))
        .unwrap_or(value)
}

/// The ids starting with `prefix`, at most [`COMPLETION_MAX_VALUES`], with the total.
fn bounded(ids: &[u32], prefix: &str) -> CompletionInfo {
    let matching: Vec<String> = ids
        .iter()
        .map(u32::to_string)
        .filter(|id| id.starts_with(prefix))
        .collect();
    let total = u32::try_from(matching.len()).unwrap_or(u32::MAX);
    let has_more = matching.len() > COMPLETION_MAX_VALUES;
    let values = matching.into_iter().take(COMPLETION_MAX_VALUES).collect();
    let mut info = CompletionInfo::default();
    info.values = values;
    info.total = Some(total);
    info.has_more = Some(has_more);
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_variables_are_read_in_order() {
        assert_eq!(variables("tmux://sessions/{session}/windows"), ["session"]);
        assert_eq!(variables("tmux://panes/{pane}/content"), ["pane"]);
        assert!(variables("tmux://sessions").is_empty());
    }

    #[test]
    fn values_are_prefix_matched_capped_and_counted() {
        let ids: Vec<u32> = (0..250).collect();
        let all = bounded(&ids, "");
        assert_eq!(all.values.len(), COMPLETION_MAX_VALUES);
        assert_eq!((all.total, all.has_more), (Some(250), Some(true)));
        let ones = bounded(&ids, "1");
        assert_eq!(ones.values.first().map(String::as_str), Some("1"));
        assert_eq!((ones.total, ones.has_more), (Some(111), Some(true)));
        let few = bounded(&ids, "24");
        assert_eq!(
            few.values,
            ["24", "240", "241", "242", "243", "244", "245", "246", "247", "248", "249"]
        );
        assert_eq!(few.has_more, Some(false));
    }

    #[test]
    fn a_typed_sigil_is_left_off_and_chosen_ids_narrow() {
        assert_eq!(prefix(IdKind::Pane, "%253"), "3");
        assert_eq!(prefix(IdKind::Window, "@1"), "1");
        assert_eq!(prefix(IdKind::Session, "2"), "2");
        let chosen: HashMap<String, String> = [("session".to_string(), "$4".to_string())].into();
        assert_eq!(
            Narrowing::from_arguments(Some(&chosen)),
            Narrowing {
                session: Some(4),
                window: None
            }
        );
    }
}
