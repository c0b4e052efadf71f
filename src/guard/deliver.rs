//! Delivering input through the cohort check: keys (with an optional record and a
//! screen they need) or a paste, each checked and run in one indivisible tmux step
//! (`super::verdict`), with the person asked where only a rule guarding them refuses
//! (the caller pane, a pane their terminal shows). What the check reads and decides is
//! `super::cohort`; which panes a terminal shows, `super::attended`.

use crate::config::Scope;
use crate::guard::attended::{self, Expected};
use crate::guard::cohort::{evaluate, parse_window, read_window, Refusal, Rule};
use crate::guard::consent::{self, Consent};
use crate::guard::key_input::KeyInput;
use crate::guard::screen::{Reached, ScreenAt};
use crate::guard::state::GuardState;
use crate::guard::{echo_look, input, verdict};
use crate::runtime::error::ToolError;
use crate::runtime::CallContext;
use crate::tmux::{Command, PaneId};

/// Which panes an input can reach besides its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// The target and the panes `synchronize-panes` copies keys to (`send-keys`).
    Cohort,
    /// The target alone (`paste-buffer`, which tmux does not copy).
    TargetOnly,
}

/// What a paste reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pasted {
    /// The panes that received the pasted text: the target.
    pub text: Vec<PaneId>,
    /// The panes that received the Enter after it (empty without one).
    pub enter: Vec<PaneId>,
}

/// Checks `target`'s cohort and types `keys` (then Enter if `enter`) in one indivisible
/// tmux step (see `super::verdict`), and returns the panes that received the input.
/// Where only the caller-pane rule refuses and the client can ask the person, the
/// person is asked, and on their yes the step runs once more with that rule lifted.
///
/// # Errors
/// A [`ToolError::blocked`] naming the pane and rule (nothing was typed), or the tmux
/// failure.
pub async fn deliver(
    state: &GuardState,
    context: &CallContext,
    target: PaneId,
    force: bool,
    keys: &KeyInput,
    enter: bool,
) -> Result<Vec<PaneId>, ToolError> {
    deliver_at(state, context, target, force, (keys, enter), None, &[]).await
}

/// [`deliver`], and only while `target`'s screen is still `at` (see [`ScreenAt`]).
/// `record` (commands that neither type nor end anything) runs in the same tmux step,
/// just before the keys and only if they are typed: a record that says they were typed
/// never stands without them, nor they without it, whenever paneward stops.
///
/// # Errors
/// As [`deliver`]; [`Rule::Moved`] when the screen moved.
pub async fn deliver_at(
    state: &GuardState,
    context: &CallContext,
    target: PaneId,
    force: bool,
    (keys, enter): (&KeyInput, bool),
    at: Option<ScreenAt>,
    record: &[Command],
) -> Result<Vec<PaneId>, ToolError> {
    let mut input = record.to_vec();
    input.extend(input::send_commands(keys, target, enter));
    let what = describe_keys(keys, enter);
    let plan = Plan {
        input: &input,
        reach: Reach::Cohort,
        at,
    };
    // Recorded before the typing, so a wait reading the pane meanwhile knows to wait
    // for the look at its echo; dropped unsettled (nothing shown) if the typing fails.
    let typing = match keys {
        KeyInput::Literal(text) => Some((state.own_input.begin(target, text), text)),
        KeyInput::Names(_) => None,
    };
    let reached = check_and_run(state, context, target, force, &plan, &what).await?;
    if let Some((typing, text)) = typing {
        echo_look::settle_all(state, typing, &reached, text).await;
    }
    Ok(reached.iter().map(|r| r.pane).collect())
}

/// What one checked input is: its commands, which panes it can reach, and the screen
/// it needs.
struct Plan<'a> {
    input: &'a [Command],
    reach: Reach,
    at: Option<ScreenAt>,
}

/// Checks `target` and pastes tmux buffer `buffer` into it (then Enter if `enter`) in
/// one indivisible tmux step. Only the target is checked for the paste itself; with
/// `enter`, the Enter reaches the whole cohort, so the whole cohort is checked.
///
/// # Errors
/// As [`deliver`].
pub async fn paste(
    state: &GuardState,
    context: &CallContext,
    target: PaneId,
    force: bool,
    (buffer, text): (&str, &str),
    (bracket, delete): (bool, bool),
    enter: bool,
) -> Result<Pasted, ToolError> {
    let input = input::paste_commands(buffer, target, bracket, delete, enter);
    let reach = if enter { Reach::Cohort } else { Reach::TargetOnly };
    let what = format!(
        "a paste of text staged in a paneward buffer{}",
        if enter { ", then Enter" } else { "" }
    );
    let plan = Plan {
        input: &input,
        reach,
        at: None,
    };
    let typing = state.own_input.begin(target, text);
    let reached = check_and_run(state, context, target, force, &plan, &what).await?;
    // The text went to the target alone (tmux copies no paste).
    let target_reached: Vec<Reached> = reached.iter().filter(|r| r.pane == target).copied().collect();
    echo_look::settle_all(state, typing, &target_reached, text).await;
    Ok(Pasted {
        text: vec![target],
        enter: if enter {
            reached.iter().map(|r| r.pane).collect()
        } else {
            Vec::new()
        },
    })
}

/// What `keys` would type, for a question to the person: its kind and length only.
fn describe_keys(keys: &KeyInput, enter: bool) -> String {
    let then = if enter { ", then Enter" } else { "" };
    match keys {
        KeyInput::Literal(text) => format!("literal text of {} characters{then}", text.chars().count()),
        KeyInput::Names(names) => format!("{} key presses{then}", names.len()),
    }
}

/// The rules the person may lift for one action, each by its own yes.
#[derive(Default)]
struct Lifted {
    caller: Option<Consent>,
    attended: Option<Consent>,
}

impl Lifted {
    /// Whether the person may be asked about a refusal for `rule`, not yet lifted.
    fn may_ask(&self, rule: Rule) -> bool {
        match rule {
            Rule::Caller => self.caller.is_none(),
            Rule::Attended => self.attended.is_none(),
            _ => false,
        }
    }

    fn lift(&mut self, rule: Rule, consent: Consent) {
        match rule {
            Rule::Caller => self.caller = Some(consent),
            _ => self.attended = Some(consent),
        }
    }
}

/// How often the clients may change between their reading and the step before the
/// input is given up (each time, tmux typed nothing).
const CLIENT_CHANGES_MAX: usize = 3;

/// Runs the checked input; on a refusal for a rule guarding the person (the caller
/// pane, a pane their terminal shows), asks the person (where the client can) and, on
/// their yes, runs it once more without that rule.
async fn check_and_run(
    state: &GuardState,
    context: &CallContext,
    target: PaneId,
    force: bool,
    plan: &Plan<'_>,
    what: &str,
) -> Result<Vec<Reached>, ToolError> {
    let mut lifted = Lifted::default();
    loop {
        let refusal = match attempt_watched(state, target, force, plan, &lifted).await? {
            Ok(receivers) => {
                if lifted.caller.is_some() || lifted.attended.is_some() {
                    tracing::info!(target: crate::CLIENT_LOG_TARGET, pane = %target, "typed into a pane the person guards with their consent");
                }
                return Ok(receivers);
            }
            Err(refusal) if lifted.may_ask(refusal.rule) => refusal,
            // Something else changed in between (a mode, a dead pane): that rule stands.
            Err(refusal) => return Err(ToolError::blocked(refusal.to_string())),
        };
        let through = refusal.synchronized_window.as_deref();
        let question = if refusal.rule == Rule::Caller {
            consent::input_question(refusal.pane, through, what)
        } else {
            consent::attended_question(refusal.pane, through, what)
        };
        match consent::ask(context, question).await {
            Ok(consent) => lifted.lift(refusal.rule, consent),
            Err(no) => return Err(ToolError::blocked(format!("{refusal}{}", no.note()))),
        }
    }
}

/// [`attempt`], with the attended-pane rule's reading of the clients just before it
/// while that rule holds; tried again while the clients change in between.
async fn attempt_watched(
    state: &GuardState,
    target: PaneId,
    force: bool,
    plan: &Plan<'_>,
    lifted: &Lifted,
) -> Result<Result<Vec<Reached>, Refusal>, ToolError> {
    if !state.settings.attended_guard || lifted.attended.is_some() {
        return match attempt(state, target, force, plan, lifted, None).await? {
            Tried::Done(result) => Ok(result),
            Tried::ClientsChanged => Err(ToolError::internal("clients changed with the attended rule off")),
        };
    }
    for _ in 0..CLIENT_CHANGES_MAX {
        let clients = attended::parse_clients(&state.backend.tmux().run(attended::read_clients()).await?)?;
        let expected = Expected::of(&clients);
        match attempt(state, target, force, plan, lifted, Some(&expected)).await? {
            Tried::Done(result) => return Ok(result),
            Tried::ClientsChanged => tracing::debug!(pane = %target, "the attached clients changed; checking again"),
        }
    }
    Err(ToolError::blocked(format!(
        "the clients attached to tmux kept changing while paneward checked whether a terminal shows pane {target}; nothing was typed; try again"
    )))
}

/// What one checked step did.
enum Tried {
    /// The input went in (the panes it reached), or a rule refused it.
    Done(Result<Vec<Reached>, Refusal>),
    /// The clients changed between their reading and the step: tmux typed nothing.
    ClientsChanged,
}

/// Reads `target`'s window (and, with `attended`, the clients), prints tmux's verdict
/// and runs `input` only if it holds, all in one round trip; returns the panes the
/// input reached, or the rule that refused it. A rule the person `lifted` is not
/// checked; `attended` is what the attended-pane rule expects of the clients, `None`
/// while that rule does not hold.
async fn attempt(
    state: &GuardState,
    target: PaneId,
    force: bool,
    plan: &Plan<'_>,
    lifted: &Lifted,
    attended: Option<&Expected>,
) -> Result<Tried, ToolError> {
    let Plan { input, reach, at } = *plan;
    let caller = state.caller.as_ref().filter(|_| lifted.caller.is_none());
    let owned_only = state.settings.scope == Scope::Owned;
    let verdict = match reach {
        Reach::Cohort => verdict::verdict_format(target, force, caller, owned_only, attended),
        Reach::TargetOnly => verdict::target_verdict_format(force, caller, owned_only, attended),
    };
    let verdict = match at {
        Some(at) => verdict::unless_moved(&at, &verdict),
        None => verdict,
    };
    let mut commands = vec![
        read_window(target),
        attended::read_clients(),
        verdict::print_verdict(target, &verdict),
    ];
    if !input.is_empty() {
        commands.push(verdict::type_if(target, &verdict, input));
    }
    let outputs = match state.backend.tmux().run_all(&commands).await {
        Ok(outputs) => outputs,
        Err(error) if error.is_object_gone() => {
            return Ok(Tried::Done(Err(Refusal {
                target,
                pane: target,
                rule: Rule::Missing,
                synchronized_window: None,
            })));
        }
        Err(error) => return Err(error.into()),
    };
    let [window, clients, printed, ..] = outputs.as_slice() else {
        return Err(ToolError::internal("the cohort check came back without its verdict"));
    };
    let mut window = parse_window(window, caller, owned_only)?;
    let clients = attended::parse_clients(clients)?;
    if attended.is_some() {
        window.mark_attended(&clients);
    }
    // The clients tmux's verdict expected are not the ones there now.
    let clients_changed = attended.is_some_and(|expected| *expected != Expected::of(&clients));
    if reach == Reach::TargetOnly {
        // No pane but the target is reached, whatever synchronize-panes says.
        for pane in &mut window.panes {
            pane.synchronized = false;
        }
    }
    // tmux's verdict: whether the input went in (it did when `input` holds anything).
    let allowed = verdict::parse_verdict(printed)
        .ok_or_else(|| ToolError::internal("tmux printed no verdict for the cohort check"))?;
    Ok(Tried::Done(match (evaluate(target, &window, force), allowed) {
        (Ok(cohort), true) => {
            tracing::debug!(pane = %target, cohort = ?cohort.receivers, "typed into a pane");
            let view = |pane: PaneId| window.panes.iter().find(|p| p.id == pane);
            Ok(cohort
                .receivers
                .iter()
                .map(|&pane| Reached {
                    pane,
                    at: view(pane).map(|p| p.at).unwrap_or_default(),
                    width: view(pane).map_or(0, |p| p.width),
                })
                .collect())
        }
        (Err(refusal), false) => Err(refusal),
        // Every rule held by this reading, but tmux expected other clients: nothing went in.
        (Ok(_), false) if clients_changed => return Ok(Tried::ClientsChanged),
        // Every rule held but the screen had moved: nothing went in.
        (Ok(_), false) if at.is_some() => Err(Refusal {
            target,
            pane: target,
            rule: Rule::Moved,
            synchronized_window: None,
        }),
        // The two readings of one state disagree: a paneward fault, reported as such.
        (Ok(_), false) => {
            return Err(ToolError::internal(format!(
                "tmux's check refused input to pane {target} where paneward's allowed it; nothing was typed"
            )))
        }
        (Err(refusal), true) => {
            return Err(ToolError::internal(format!(
                "tmux typed into pane {target} although paneward's check refused it: pane {} broke the rule {:?}",
                refusal.pane, refusal.rule
            )))
        }
    }))
}
