//! The facts of a tool file as the generated table holds them (`paneward_contract::facts`
//! parses and checks them): what a call reaches, whether its result is pane text,
//! whether a batch holds it, how a dry run shows it. The guards and batches read them
//! from the table and give them their meaning; no guard or batch lists tool names.

use serde_json::{Map, Value};

pub use paneward_contract::facts::{BatchRefusal, CloseBy, FleetRoute, Reach};

/// One entry of a tool file's `reaches`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReachSpec {
    pub reach: Reach,
    /// Only for calls that give (or leave out) one argument.
    pub only: Option<Presence>,
}

/// A call gives `argument` (`given`), or leaves it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Presence {
    pub argument: &'static str,
    pub given: bool,
}

/// What a call of a tool with `rules` and these `arguments` reaches, in file order.
pub fn reaches_of(rules: &[ReachSpec], arguments: &Value) -> Vec<Reach> {
    rules
        .iter()
        .filter(|rule| {
            rule.only
                .is_none_or(|only| arguments.get(only.argument).is_some() == only.given)
        })
        .map(|rule| rule.reach)
        .collect()
}

/// A tool file's `batch`: a batch refuses the tool, unless the call's argument equals a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchSpec {
    pub refused: BatchRefusal,
    pub unless: Option<Equals>,
}

/// An argument equal to a value (compact JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Equals {
    pub argument: &'static str,
    pub equals: &'static str,
}

impl Equals {
    pub fn met_by(&self, arguments: &Map<String, Value>) -> bool {
        let equals = serde_json::from_str::<Value>(self.equals);
        arguments
            .get(self.argument)
            .is_some_and(|value| equals.as_ref().is_ok_and(|equals| value == equals))
    }
}

impl BatchSpec {
    /// Whether a batch refuses a call with `arguments`.
    pub fn refuses(&self, arguments: &Map<String, Value>) -> bool {
        !self.unless.is_some_and(|unless| unless.met_by(arguments))
    }
}

/// A tool file's `dryRun`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DryRunSpec {
    pub does: &'static [Piece],
    pub tmux: Option<&'static [Piece]>,
    pub closes: Option<ClosesSpec>,
}

/// What a row closes: the object `argument` names, by ending it or moving it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClosesSpec {
    pub argument: &'static str,
    pub by: CloseBy,
}

/// A piece of a dry-run template (`paneward_contract::template` says the syntax).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    Text(&'static str),
    Value(Placeholder),
    /// Shown only when the call gives every argument of its placeholders.
    Optional(&'static [Piece]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placeholder {
    /// Tried in order; the first the call gives is shown.
    pub arguments: &'static [&'static str],
    /// Shown when none is given (else `?`).
    pub fallback: Option<&'static str>,
    pub form: Form,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Plain,
    /// In double quotes, escaped.
    Quoted,
    /// A word per value; `otherwise` for any other value, or none.
    Choice {
        cases: &'static [(&'static str, &'static str)],
        otherwise: &'static str,
    },
}
