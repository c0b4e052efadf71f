//! Which target a call names: the target in each of its ids (`NAME/%3`) and its
//! `target` argument, all the same one; the arguments are handed on without them.

use serde_json::Value;

use crate::app::{Fleet, Target};
use crate::call::former;
use crate::catalog::fleet::ids::{visit_ids, IdRule};
use crate::catalog::CatalogEntry;
use crate::runtime::ToolError;

/// A call's target (none: no id and no `target` argument) and its arguments for it.
pub struct Routed<'a> {
    pub target: Option<&'a Target>,
    pub arguments: Value,
}

/// Finds the target of a call of `entry` (the multi-target surface's) with `arguments`.
///
/// # Errors
/// An id without its target, a target that is not one of the fleet's, two targets in
/// one call, or arguments that break the multi-target input schema.
pub fn route<'a>(
    fleet: &'a Fleet,
    entry: &CatalogEntry,
    name: &str,
    arguments: Value,
) -> Result<Routed<'a>, ToolError> {
    let arguments = former::current_spelling(name, arguments)?;
    let schema = entry.input.schema().clone();
    let mut stripped = arguments.clone();
    let named = strip_targets(fleet, &schema, &mut stripped)?;
    // Everything else the multi-target schema says (the `target` argument's form too).
    entry.input.check(&arguments)?;
    let argument = target_argument(fleet, name);
    let given = match &mut stripped {
        Value::Object(fields) => fields.remove(&argument),
        _ => None,
    };
    let mut target: Option<(String, String)> = None;
    let pointer = format!("/{argument}");
    for (at, name) in given
        .as_ref()
        .and_then(Value::as_str)
        .map(|name| (pointer.clone(), name.to_string()))
        .into_iter()
        .chain(named)
    {
        match &target {
            None => target = Some((at, name)),
            Some((first_at, first)) if *first != name => {
                return Err(ToolError::invalid_argument(
                    &at,
                    format!("names target `{name}` but {first_at} names `{first}`: one call acts on one target"),
                ));
            }
            Some(_) => {}
        }
    }
    let target = match target {
        None => None,
        Some((at, name)) => Some(fleet.target(&name).ok_or_else(|| {
            ToolError::invalid_argument(&at, format!("no target `{name}`; the targets are {}", fleet.names()))
        })?),
    };
    Ok(Routed {
        target,
        arguments: stripped,
    })
}

/// Takes the target out of every id of `arguments` at the positions `schema` (the
/// multi-target surface's) declares; returns each id's pointer and target.
///
/// # Errors
/// An id without a target, or with one that is not the fleet's, named by its pointer.
pub fn strip_targets(fleet: &Fleet, schema: &Value, arguments: &mut Value) -> Result<Vec<(String, String)>, ToolError> {
    let patterns = fleet.rules.fleet_patterns();
    let rule = IdRule {
        patterns: &patterns,
        names: &[],
    };
    let mut named: Vec<(String, String)> = Vec::new();
    let mut fault: Option<ToolError> = None;
    visit_ids(schema, arguments, &rule, &mut |pointer, id| {
        if fault.is_some() {
            return;
        }
        match id.split_once('/') {
            Some((target, rest)) if fleet.target(target).is_some() => {
                named.push((pointer.to_string(), target.to_string()));
                *id = rest.to_string();
            }
            Some((target, _)) => {
                fault = Some(ToolError::invalid_argument(
                    pointer,
                    format!(
                        "no target `{}`; the targets are {}",
                        target.chars().take(40).collect::<String>(),
                        fleet.names()
                    ),
                ));
            }
            None => {
                fault = Some(ToolError::invalid_argument(
                    pointer,
                    format!(
                        "with several targets every id names its target: write NAME/{}, where NAME is one of {}",
                        id.chars().take(24).collect::<String>(),
                        fleet.names()
                    ),
                ));
            }
        }
    });
    match fault {
        Some(fault) => Err(fault),
        None => Ok(named),
    }
}

/// The name of the argument that names the target of tool `name` (its default schema
/// decides: `target`, unless the tool has a `target` of its own).
fn target_argument(fleet: &Fleet, name: &str) -> String {
    let own = fleet.inner.get(name).map(|entry| entry.input.schema());
    own.map_or(fleet.rules.argument.as_str(), |schema| fleet.rules.argument_of(schema))
        .to_string()
}

/// The refusal of a one-target call that names no target.
pub fn no_target(fleet: &Fleet, name: &str) -> ToolError {
    let argument = target_argument(fleet, name);
    ToolError::invalid_argument(
        &format!("/{argument}"),
        format!(
            "with several targets this call must name its target: give `{argument}` (one of {}) or ids written NAME/%3",
            fleet.names()
        ),
    )
}
