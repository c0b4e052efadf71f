//! The fleet's layer of the request path: with several targets, every call goes through
//! here once and comes back to the one-server path (`super::run_on`) for each target
//! it runs on. Handlers never see a target: they get the ids without it and the state
//! of that target alone, and the ids of their replies are written with it.
//!
//! - one-target: the target is the one its ids name (`NAME/%3`), or its `target`
//!   argument; every id of a call must name the same one.
//! - fan-out: a read with no id runs on every target at once, each bounded by
//!   [`FLEET_TARGET_ANSWER_MAX`]; rows merge in target order ([`merge`]) and a target
//!   that failed is listed in `unreachable` with the reason while the others answer.
//! - rows: a batch runs once, on the multi-target surface, and each row comes back
//!   through [`run`] as a call of its own.

mod cap;
mod merge;
mod route;

use serde_json::Value;

use super::{admit_on, run_on, On};
use crate::app::{App, Fleet, Target};
use crate::catalog::fleet::ids::{visit_ids, IdRule};
use crate::limits::FLEET_TARGET_ANSWER_MAX;
use crate::runtime::error::ToolErrorKind;
use crate::runtime::facts::FleetRoute;
use crate::runtime::join;
use crate::runtime::reentry::{Ids, Refusal};
use crate::runtime::{CallContext, Tier, ToolError};

/// Calls tool `name` on the target (or targets) its arguments name.
///
/// # Errors
/// As `super::run`, and an id or `target` that names no target, or two.
pub(super) async fn run(
    app: &App,
    fleet: &Fleet,
    tier: Tier,
    name: &str,
    arguments: Value,
    context: &CallContext,
) -> Result<Value, ToolError> {
    // As on one server: a tool above the tier is refused before its arguments are read.
    let entry = app.catalog.callable(name, tier)?;
    if entry.spec.fleet == FleetRoute::Rows {
        // The rows route themselves when they run; an id without its target is told
        // here, in the same words, before the batch's own schema check.
        route::strip_targets(fleet, entry.input.schema(), &mut arguments.clone())?;
        return run_on(app, rows_on(app, fleet)?, tier, name, arguments, context).await;
    }
    let routed = route::route(fleet, entry, name, arguments)?;
    match (entry.spec.fleet, routed.target) {
        (_, Some(target)) => one_target(app, fleet, target, tier, name, routed.arguments, context).await,
        (FleetRoute::FanOut, None) => fan_out(app, fleet, tier, name, routed.arguments, context).await,
        (_, None) => Err(route::no_target(fleet, name)),
    }
}

/// [`crate::runtime::reentry::RequestPath::admit`] for a batch row of a fleet: the row is
/// routed as its call would be, then admitted on its target.
pub(super) async fn admit(
    app: &App,
    fleet: &Fleet,
    tier: Tier,
    name: &str,
    arguments: &Value,
    ids: Ids,
) -> Result<(), Refusal> {
    let entry = app.catalog.get(name).ok_or(Refusal::UnknownTool)?;
    if !entry.served {
        return Err(Refusal::NotServed);
    }
    if entry.spec.fleet == FleetRoute::Rows {
        let on = rows_on(app, fleet).map_err(Refusal::Input)?;
        return admit_on(app, on, tier, name, arguments, ids).await;
    }
    let routed = route::route(fleet, entry, name, arguments.clone()).map_err(Refusal::Input)?;
    match routed.target {
        Some(target) => admit_on(app, pinned(fleet, target), tier, name, &routed.arguments, ids).await,
        // A fan-out row is admitted on every target it will run on.
        None if entry.spec.fleet == FleetRoute::FanOut => {
            for target in &fleet.targets {
                admit_on(app, pinned(fleet, target), tier, name, &routed.arguments, ids).await?;
            }
            Ok(())
        }
        None => Err(Refusal::Input(route::no_target(fleet, name))),
    }
}

/// Where a batch of the fleet's rows runs: checked against the multi-target surface,
/// its rows finding their own targets; its own reads (none today) on the first target.
fn rows_on<'a>(app: &'a App, fleet: &'a Fleet) -> Result<On<'a>, ToolError> {
    let first = fleet
        .targets
        .first()
        .ok_or_else(|| ToolError::internal("a fleet with no target"))?;
    Ok(On {
        catalog: &app.catalog,
        guard: &first.guard,
        target: None,
        pinned: false,
    })
}

/// A call on `target` alone, with paneward's own contract and the target's own state.
fn pinned<'a>(fleet: &'a Fleet, target: &'a Target) -> On<'a> {
    On {
        catalog: &fleet.inner,
        guard: &target.guard,
        target: Some(&target.spec.name),
        pinned: true,
    }
}

/// A call on `target`, then at most `--max-connected-targets` left connected.
async fn on_target(
    app: &App,
    fleet: &Fleet,
    target: &Target,
    tier: Tier,
    name: &str,
    arguments: Value,
    context: &CallContext,
) -> Result<Value, ToolError> {
    let busy = target.busy();
    let result = run_on(app, pinned(fleet, target), tier, name, arguments, context).await;
    drop(busy);
    cap::keep_within(fleet, target).await;
    result
}

async fn one_target(
    app: &App,
    fleet: &Fleet,
    target: &Target,
    tier: Tier,
    name: &str,
    arguments: Value,
    context: &CallContext,
) -> Result<Value, ToolError> {
    let mut reply = on_target(app, fleet, target, tier, name, arguments, context).await?;
    write_targets(fleet, name, &target.spec.name, &mut reply);
    Ok(reply)
}

/// Writes `target` into every id of `reply`, found by the tool's own output schema.
fn write_targets(fleet: &Fleet, name: &str, target: &str, reply: &mut Value) {
    let Some(schema) = fleet.inner.get(name).and_then(|entry| entry.tool.output_schema.clone()) else {
        return;
    };
    let patterns = fleet.rules.default_patterns();
    let rule = IdRule {
        patterns: &patterns,
        names: &fleet.rules.output_names,
    };
    visit_ids(&Value::Object((*schema).clone()), reply, &rule, &mut |_, id| {
        // A reply a row of a batch made is written already.
        if !id.is_empty() && !id.contains('/') {
            id.insert_str(0, &format!("{target}/"));
        }
    });
}

/// Errors that every target would give alike: the call itself is wrong, not a target.
fn is_the_calls_fault(error: &ToolError) -> bool {
    matches!(
        error.kind(),
        ToolErrorKind::InvalidArguments | ToolErrorKind::UnknownTool | ToolErrorKind::NotAllowed
    )
}

async fn fan_out(
    app: &App,
    fleet: &Fleet,
    tier: Tier,
    name: &str,
    arguments: Value,
    context: &CallContext,
) -> Result<Value, ToolError> {
    let calls = fleet.targets.iter().map(|target| {
        let arguments = arguments.clone();
        async move {
            let call = on_target(app, fleet, target, tier, name, arguments, context);
            tokio::time::timeout(FLEET_TARGET_ANSWER_MAX, call).await
        }
    });
    let answers = join::all(calls.collect()).await;
    let mut replies = Vec::with_capacity(answers.len());
    let mut unreachable = Vec::new();
    // A target without what a filter names (a session) has no rows; it answered.
    let mut not_found: Option<ToolError> = None;
    for (target, answer) in fleet.targets.iter().zip(answers) {
        let target_name = target.spec.name.as_str();
        match answer {
            Ok(Ok(mut reply)) => {
                write_targets(fleet, name, target_name, &mut reply);
                replies.push(reply);
            }
            Ok(Err(error)) if is_the_calls_fault(&error) => return Err(error),
            Ok(Err(error)) if error.kind() == ToolErrorKind::NotFound => {
                not_found.get_or_insert(error);
            }
            Ok(Err(error)) => unreachable.push((target_name, error.message().to_string())),
            Err(_) => unreachable.push((
                target_name,
                format!(
                    "no answer within {} s; the other targets answered without it",
                    FLEET_TARGET_ANSWER_MAX.as_secs()
                ),
            )),
        }
    }
    if replies.is_empty() {
        if let Some(error) = not_found.filter(|_| unreachable.is_empty()) {
            return Err(error);
        }
        let reasons: Vec<String> = unreachable.iter().map(|(t, reason)| format!("{t}: {reason}")).collect();
        return Err(ToolError::new(
            ToolErrorKind::TmuxUnavailable,
            format!("no target answered: {}", reasons.join("; ")),
        ));
    }
    let schema = app.catalog.get(name).and_then(|entry| entry.tool.output_schema.clone());
    let merged = merge::merge(replies, &unreachable, schema.as_deref());
    #[cfg(debug_assertions)]
    if let Some((pointer, rule)) = app
        .catalog
        .get(name)
        .map(|entry| entry.output.problems(&merged))
        .and_then(|problems| problems.into_iter().next())
    {
        return Err(ToolError::internal(format!(
            "the merged reply of `{name}` breaks its outputSchema at {pointer}: {rule}"
        )));
    }
    Ok(merged)
}
