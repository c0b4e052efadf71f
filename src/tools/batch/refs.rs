//! References between the rows of a write batch: a row's `references` name, for some of
//! its id arguments, a field of an earlier row's reply (`{"pane_id": {"row": 2, "field":
//! "splitPaneId"}}`). The form sits beside `arguments`, not inside it, so `arguments`
//! stays valid under the tool's own schema once the ids are set, and a reference can
//! never be mistaken for an id a caller typed.
//!
//! Checked before any row runs ([`check`]): the argument is an id argument of the row's
//! tool that `arguments` leaves out, the row is an earlier one, and the field is an id
//! field its tool's reply declares, of the argument's kind. Set at the row's turn
//! ([`resolve`]), from the replies so far, only when the value read is an id of that
//! kind. Only id fields take part: a free-text field (a pane's `title`, which the
//! program in the pane sets) must never become the pane a later row types into.

use std::collections::BTreeMap;

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::generated::TOOLS;
use crate::runtime::error::ToolError;
use crate::tmux::{PaneId, SessionId, WindowId};

/// One reference: the field `field` of the reply of row `row`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub row: usize,
    pub field: String,
}

/// A row's references, by the argument each sets (ordered, so errors name the same one
/// first every time).
pub type References = BTreeMap<String, Reference>;

/// What became of an earlier row, as a later row's reference sees it.
pub enum Outcome<'a> {
    /// It ran and replied this.
    Replied(&'a Value),
    /// It ran and failed.
    Failed,
}

/// The kind of id an argument takes, or a reply field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IdKind {
    Pane,
    Window,
    Session,
    /// An argument that takes any of the three.
    Any,
}

impl IdKind {
    /// The kind an argument's schema pattern names (the patterns of `guard::scope`'s id
    /// table; a mixed one takes any id).
    fn of_pattern(pattern: &str) -> Option<Self> {
        match pattern {
            "^%[0-9]+$" | "^%\\d+$" => Some(Self::Pane),
            "^[%@$][0-9]+$" => Some(Self::Any),
            "^@[0-9]+$" => Some(Self::Window),
            "^\\$[0-9]+$" | "^\\$\\d+$" => Some(Self::Session),
            _ => None,
        }
    }

    /// The kind of id a reply field holds, by the name every reply gives its id fields:
    /// `paneId`, `windowId`, `sessionId`, or one ending so (`splitPaneId`,
    /// `previousWindowId`). Any other field is not an id field.
    fn of_field(field: &str) -> Option<Self> {
        [
            ("paneId", "PaneId", Self::Pane),
            ("windowId", "WindowId", Self::Window),
            ("sessionId", "SessionId", Self::Session),
        ]
        .into_iter()
        .find(|(name, suffix, _)| field == *name || field.ends_with(suffix))
        .map(|(_, _, kind)| kind)
    }

    /// A stand-in id of this kind, to check the rest of the row's arguments before the
    /// real id exists.
    fn stand_in(self) -> &'static str {
        match self {
            Self::Pane | Self::Any => "%0",
            Self::Window => "@0",
            Self::Session => "$0",
        }
    }

    /// Whether a field of kind `field` can fill an argument of this kind.
    fn takes(self, field: Self) -> bool {
        self == Self::Any || self == field
    }

    /// Whether `text` is an id this argument takes.
    fn accepts(self, text: &str) -> bool {
        let pane = text.parse::<PaneId>().is_ok();
        let window = text.parse::<WindowId>().is_ok();
        let session = text.parse::<SessionId>().is_ok();
        match self {
            Self::Pane => pane,
            Self::Window => window,
            Self::Session => session,
            Self::Any => pane || window || session,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Pane => "pane id",
            Self::Window => "window id",
            Self::Session => "session id",
            Self::Any => "pane, window or session id",
        }
    }
}

fn schema_of(tool: &str, output: bool) -> Option<Value> {
    let spec = TOOLS.iter().find(|spec| spec.name == tool)?;
    let text = if output { spec.output_schema? } else { spec.input_schema };
    serde_json::from_str(text).ok()
}

fn refused(index: usize, argument: &str, rule: impl std::fmt::Display) -> ToolError {
    ToolError::invalid_argument(
        &format!("/operations/{index}/references/{argument}"),
        format!("{rule}; so this batch ran nothing"),
    )
}

/// Checks the references of row `index` (tool `tool`, arguments `arguments`) against the
/// `tools` of every row, and returns the row's arguments with a stand-in for each
/// referenced id, for the row's own checks.
///
/// # Errors
/// The first reference that breaks a rule, naming its row and argument.
pub fn check(
    index: usize,
    tool: &str,
    arguments: &JsonObject,
    references: &References,
    tools: &[&str],
) -> Result<JsonObject, ToolError> {
    let mut standing = arguments.clone();
    if references.is_empty() {
        return Ok(standing);
    }
    // An unknown tool is refused by the row's own checks, which name it.
    let Some(input) = schema_of(tool, false) else {
        return Ok(standing);
    };
    for (argument, reference) in references {
        let Some(property) = input.pointer(&format!("/properties/{argument}")) else {
            return Err(refused(
                index,
                argument,
                format!("`{tool}` takes no argument `{argument}`"),
            ));
        };
        let Some(kind) = property
            .get("pattern")
            .and_then(Value::as_str)
            .and_then(IdKind::of_pattern)
        else {
            return Err(refused(
                index,
                argument,
                format!("`{argument}` of `{tool}` is not a pane, window or session id; only ids take a reference"),
            ));
        };
        if arguments.contains_key(argument) {
            return Err(refused(
                index,
                argument,
                format!("`{argument}` is given both in arguments and as a reference; give it once"),
            ));
        }
        let Reference { row, field } = reference;
        if *row >= tools.len() {
            return Err(refused(
                index,
                argument,
                format!("there is no row {row} (this batch has {} rows, from 0)", tools.len()),
            ));
        }
        if *row >= index {
            return Err(refused(
                index,
                argument,
                format!("row {row} is not an earlier row; a row can use only the replies of the rows before it"),
            ));
        }
        let producer = tools[*row];
        let declared = schema_of(producer, true)
            .and_then(|schema| schema.pointer(&format!("/properties/{field}")).cloned())
            .is_some();
        if !declared {
            return Err(refused(
                index,
                argument,
                format!("the reply of row {row} (`{producer}`) has no field `{field}`"),
            ));
        }
        let Some(holds) = IdKind::of_field(field) else {
            return Err(refused(
                index,
                argument,
                format!(
                    "`{field}` of the reply of row {row} (`{producer}`) is not an id field; only id fields (paneId, windowId, sessionId and those ending so) can be referenced, since other text can be set by programs in panes"
                ),
            ));
        };
        if !kind.takes(holds) {
            return Err(refused(
                index,
                argument,
                format!(
                    "`{field}` holds a {}, but `{argument}` of `{tool}` takes a {}",
                    holds.name(),
                    kind.name()
                ),
            ));
        }
        standing.insert(argument.clone(), Value::String(kind.stand_in().to_string()));
    }
    Ok(standing)
}

/// Row `index`'s arguments with every reference set from the earlier rows' `outcomes`.
///
/// # Errors
/// A reference to a row that failed or did not run, or whose reply holds no id in the
/// field: the message says which, and that this row did not run.
pub fn resolve(
    index: usize,
    tool: &str,
    arguments: &JsonObject,
    references: &References,
    outcomes: &[Outcome<'_>],
) -> Result<JsonObject, ToolError> {
    let mut resolved = arguments.clone();
    let input = schema_of(tool, false);
    for (argument, Reference { row, field }) in references {
        // Checked before any row ran; a kind missing here takes no value at all.
        let kind = input
            .as_ref()
            .and_then(|schema| schema.pointer(&format!("/properties/{argument}/pattern")))
            .and_then(Value::as_str)
            .and_then(IdKind::of_pattern);
        let not_run = |why: String| {
            ToolError::invalid_argument(
                &format!("/operations/{index}/references/{argument}"),
                format!("{why}, so this row did not run"),
            )
        };
        let id = match outcomes.get(*row) {
            None => return Err(not_run(format!("row {row} did not run"))),
            Some(Outcome::Failed) => return Err(not_run(format!("row {row} failed"))),
            Some(Outcome::Replied(reply)) => reply.get(field).and_then(Value::as_str),
        };
        let Some(id) = id.filter(|id| kind.is_some_and(|kind| kind.accepts(id))) else {
            let wanted = kind.map_or("id", IdKind::name);
            return Err(not_run(format!("the reply of row {row} has no {wanted} in `{field}`")));
        };
        resolved.insert(argument.clone(), Value::String(id.to_string()));
    }
    Ok(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(argument: &str, row: usize, field: &str) -> References {
        BTreeMap::from([(
            argument.to_string(),
            Reference {
                row,
                field: field.to_string(),
            },
        )])
    }

    fn message(error: ToolError) -> String {
        error.message().to_string()
    }

    const TOOLS_OF_ROWS: [&str; 3] = ["create_session", "create_window", "split_window"];

    #[test]
    fn a_good_reference_gets_a_stand_in_of_its_kind() {
        let standing = check(
            1,
            "create_window",
            &JsonObject::new(),
            &one("session_id", 0, "sessionId"),
            &TOOLS_OF_ROWS,
        )
        .map_err(message);
        assert_eq!(standing.map(Value::Object), Ok(json!({"session_id": "$0"})));
    }

    #[test]
    fn each_broken_rule_is_named_with_row_and_argument() {
        let cases = [
            (one("session_id", 2, "sessionId"), "row 2 is not an earlier row"),
            (one("session_id", 1, "sessionId"), "row 1 is not an earlier row"),
            (one("session_id", 7, "sessionId"), "there is no row 7"),
            (one("session_id", 0, "sessionUuid"), "has no field `sessionUuid`"),
            (one("name", 0, "name"), "only ids take a reference"),
            (
                one("session_id", 0, "name"),
                "`name` of the reply of row 0 (`create_session`) is not an id field",
            ),
            (one("session_id", 0, "windowId"), "holds a window id, but `session_id`"),
            (one("target", 0, "sessionId"), "takes no argument `target`"),
        ];
        for (references, expected) in cases {
            let error =
                message(check(1, "create_window", &JsonObject::new(), &references, &TOOLS_OF_ROWS).unwrap_err());
            assert!(error.contains(expected), "{error}");
            let argument = references.keys().next().unwrap();
            assert!(
                error.contains(&format!("/operations/1/references/{argument}")),
                "{error}"
            );
        }
    }

    #[test]
    fn a_value_that_is_no_id_of_the_arguments_kind_is_not_set() {
        let references = one("session_id", 0, "sessionId");
        for value in ["%1", "main", "$1 ", ""] {
            let reply = json!({ "sessionId": value });
            let error = message(
                resolve(
                    1,
                    "create_window",
                    &JsonObject::new(),
                    &references,
                    &[Outcome::Replied(&reply)],
                )
                .unwrap_err(),
            );
            assert!(error.contains("has no session id in `sessionId`"), "{value}: {error}");
        }
    }

    #[test]
    fn an_argument_given_twice_is_refused() {
        let arguments = json!({"session_id": "$3"}).as_object().unwrap().clone();
        let error = message(
            check(
                1,
                "create_window",
                &arguments,
                &one("session_id", 0, "sessionId"),
                &TOOLS_OF_ROWS,
            )
            .unwrap_err(),
        );
        assert!(error.contains("given both"), "{error}");
    }

    #[test]
    fn resolving_says_when_the_row_failed_or_did_not_run() {
        let reply = json!({"sessionId": "$4"});
        let references = one("session_id", 0, "sessionId");
        let resolved = resolve(
            1,
            "create_window",
            &JsonObject::new(),
            &references,
            &[Outcome::Replied(&reply)],
        )
        .map_err(message);
        assert_eq!(resolved.map(Value::Object), Ok(json!({"session_id": "$4"})));
        let failed =
            message(resolve(1, "create_window", &JsonObject::new(), &references, &[Outcome::Failed]).unwrap_err());
        assert!(failed.contains("row 0 failed, so this row did not run"), "{failed}");
        let absent = message(resolve(1, "create_window", &JsonObject::new(), &references, &[]).unwrap_err());
        assert!(absent.contains("row 0 did not run"), "{absent}");
    }
}
