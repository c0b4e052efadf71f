//! The cohort check: the one gate every handler that types into a pane goes through.
//!
//! tmux delivers input to more panes than the one named: with `synchronize-panes` on,
//! every pane of the window that has it on too gets the same keys. So with each input
//! paneward reads the target's whole window and checks every pane the input could
//! reach (the *cohort*): each must exist, be alive and accept input; none may be the
//! pane paneward itself runs in, or be in a mode such as copy mode, unless the caller
//! passed `force`; under `--scope owned` each must carry paneward's pane mark, `force`
//! or not. The reading, tmux's own check and the input are one round trip that
//! tmux runs without interleaving (`super::verdict`).
//!
//! A paste (`paste-buffer`) is input too, but tmux writes it to the target alone, so
//! only the target is checked and reported ([`paste`]); an Enter after it is a key
//! press again, copied like any other.

use std::fmt;

use crate::config::Scope;
use crate::guard::caller::{is_caller, CallerPane};
use crate::guard::consent::{self, Consent};
use crate::guard::key_input::KeyInput;
use crate::guard::owner::OwnedMark;
use crate::guard::screen::{Reached, ScreenAt};
use crate::guard::state::GuardState;
use crate::guard::{echo_look, input, verdict};
use crate::runtime::error::ToolError;
use crate::runtime::CallContext;
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::{Command, PaneId, TmuxError};

/// What the check reads about every pane of the target's window.
const COHORT_FIELDS: [&str; 14] = [
    "pane_id",
    "window_id",
    "window_zoomed_flag",
    "pane_active",
    "pane_dead",
    "pane_in_mode",
    "pane_input_off",
    // The pane's effective value: a pane option overrides the window's.
    "synchronize-panes",
    "pid",
    // Through tmux's inheritance, as the verdict reads it (`guard::verdict`).
    OwnedMark::Pane.option(),
    // Where the input will land: the look for its echo starts there (`echo_look`).
    "cursor_x",
    "cursor_y",
    "history_size",
    "pane_width",
];

/// One pane of the target's window, as the check sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneView {
    pub id: PaneId,
    pub dead: bool,
    pub in_mode: bool,
    /// Input disabled with `select-pane -d`: tmux drops keys sent to it.
    pub input_off: bool,
    pub active: bool,
    pub synchronized: bool,
    pub is_caller: bool,
    /// Under `--scope owned`: the pane does not carry paneward's pane mark.
    pub outside_scope: bool,
    /// Its cursor and history just before the input.
    pub at: ScreenAt,
    /// Its width in columns.
    pub width: u64,
}

/// The target's window at the moment of the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowView {
    pub window_id: String,
    /// A zoomed window shows only its active pane, and tmux synchronizes only to
    /// panes it shows.
    pub zoomed: bool,
    pub panes: Vec<PaneView>,
}

/// A rule of the check; the first three hold even with `force`, and so does the last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    Missing,
    OutsideScope,
    Dead,
    InputOff,
    Caller,
    InMode,
    /// The target's cursor or history moved since the caller read its screen
    /// ([`ScreenAt`]): someone typed, or output arrived.
    Moved,
}

impl Rule {
    /// Whether `force` lifts this rule.
    pub fn forceable(self) -> bool {
        matches!(self, Self::Caller | Self::InMode)
    }

    fn sentence(self) -> &'static str {
        match self {
            Self::Missing => "does not exist (input needs an existing pane; list panes again for current ids)",
            Self::OutsideScope => {
                "is not one paneward created, and this server runs with --scope owned (force does not change this)"
            }
            Self::Dead => "is dead (input needs a live pane; force does not change this)",
            Self::InputOff => {
                "has input disabled with select-pane -d (tmux would drop the keys; force does not change this)"
            }
            Self::Caller => "is the caller pane, the one paneward itself runs in (input there needs force: true)",
            Self::InMode => {
                "is in a mode such as copy mode, where keys run mode commands (input there needs force: true)"
            }
            Self::Moved => {
                "changed between paneward's look at its screen and the typing (someone typed there, or output \
                 arrived); try again once it is quiet"
            }
        }
    }
}

/// Why a row was not typed: which pane broke which rule, and how the target reaches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub target: PaneId,
    pub pane: PaneId,
    pub rule: Rule,
    /// The window whose `synchronize-panes` brought `pane` into the cohort, if `pane`
    /// is not the target itself.
    pub synchronized_window: Option<String>,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(window) = &self.synchronized_window {
            write!(
                f,
                "synchronize-panes is on in window {window}, so input to pane {} also reaches pane {}; ",
                self.target, self.pane
            )?;
        }
        write!(f, "pane {} {}; nothing was typed", self.pane, self.rule.sentence())
    }
}

/// The panes tmux will actually deliver to, once every member passed the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cohort {
    /// The panes that receive the input, target first.
    pub receivers: Vec<PaneId>,
}

/// The command that reads the target's window; it fails for a missing pane.
fn read_window(target: PaneId) -> Command {
    Command::new("list-panes")
        .arg("-t")
        .arg(target.to_string())
        .arg("-F")
        .arg(record_format(&COHORT_FIELDS))
}

/// Parses the output of [`read_window`], marking the caller pane.
///
/// # Errors
/// A malformed record.
fn parse_window(output: &[u8], caller: Option<&CallerPane>, owned_only: bool) -> Result<WindowView, TmuxError> {
    let text = String::from_utf8_lossy(output);
    let records = parse_records("list-panes", &COHORT_FIELDS, &text)?;
    let mut view = WindowView {
        window_id: String::new(),
        zoomed: false,
        panes: Vec::with_capacity(records.len()),
    };
    for record in &records {
        let id: PaneId = record.text("pane_id")?.parse().map_err(|_| TmuxError::Protocol {
            command: "list-panes".into(),
            detail: "a pane id did not parse".into(),
        })?;
        view.window_id = record.text("window_id")?.to_string();
        view.zoomed = record.flag("window_zoomed_flag")?;
        let is_caller = is_caller(caller, id, record)?;
        view.panes.push(PaneView {
            id,
            dead: record.flag("pane_dead")?,
            in_mode: record.flag("pane_in_mode")?,
            input_off: record.flag("pane_input_off")?,
            active: record.flag("pane_active")?,
            synchronized: record.flag("synchronize-panes")?,
            is_caller,
            outside_scope: owned_only && !record.flag(OwnedMark::Pane.option())?,
            at: ScreenAt {
                cursor_x: record.count("cursor_x")?,
                cursor_y: record.count("cursor_y")?,
                history_size: record.count("history_size")?,
            },
            width: record.count("pane_width")?,
        });
    }
    Ok(view)
}

/// The first rule `pane` breaks, if any: the ones `force` cannot lift come first.
fn broken_rule(pane: &PaneView, force: bool) -> Option<Rule> {
    let rules = [
        (pane.outside_scope, Rule::OutsideScope),
        (pane.dead, Rule::Dead),
        (pane.input_off, Rule::InputOff),
        (pane.is_caller, Rule::Caller),
        (pane.in_mode, Rule::InMode),
    ];
    rules
        .into_iter()
        .find(|(broken, rule)| *broken && !(force && rule.forceable()))
        .map(|(_, rule)| rule)
}

/// Decides a row from the window it targets: the cohort to type into, or why not.
///
/// The members are the target plus, when the target has `synchronize-panes` on, every
/// other pane of the window that has it on too. The receivers are what tmux 3.3a
/// delivers to: keys for a pane in a mode go to that mode and are not synchronized;
/// otherwise siblings in a mode, dead, input-disabled or hidden by zoom are skipped.
///
/// # Errors
/// The first member, target first, that breaks a rule.
pub fn evaluate(target: PaneId, window: &WindowView, force: bool) -> Result<Cohort, Refusal> {
    let refuse = |pane: PaneId, rule: Rule| Refusal {
        target,
        pane,
        rule,
        synchronized_window: (pane != target).then(|| window.window_id.clone()),
    };
    let Some(aimed) = window.panes.iter().find(|p| p.id == target) else {
        return Err(refuse(target, Rule::Missing));
    };
    let siblings: Vec<&PaneView> = if aimed.synchronized {
        window
            .panes
            .iter()
            .filter(|p| p.id != target && p.synchronized)
            .collect()
    } else {
        Vec::new()
    };
    for pane in std::iter::once(aimed).chain(siblings.iter().copied()) {
        if let Some(rule) = broken_rule(pane, force) {
            return Err(refuse(pane.id, rule));
        }
    }
    let mut receivers = vec![target];
    if !aimed.in_mode {
        receivers.extend(
            siblings
                .iter()
                .filter(|p| !p.in_mode && !p.dead && !p.input_off && (!window.zoomed || p.active))
                .map(|p| p.id),
        );
    }
    Ok(Cohort { receivers })
}

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

/// Runs the checked input; on a refusal for the caller-pane rule alone, asks the
/// person (where the client can) and, on their yes, runs it once more without that rule.
async fn check_and_run(
    state: &GuardState,
    context: &CallContext,
    target: PaneId,
    force: bool,
    plan: &Plan<'_>,
    what: &str,
) -> Result<Vec<Reached>, ToolError> {
    let refusal = match attempt(state, target, force, plan, None).await? {
        Ok(receivers) => return Ok(receivers),
        Err(refusal) if refusal.rule == Rule::Caller => refusal,
        Err(refusal) => return Err(ToolError::blocked(refusal.to_string())),
    };
    let question = consent::input_question(refusal.pane, refusal.synchronized_window.as_deref(), what);
    match consent::ask(context, question).await {
        Ok(consent) => match attempt(state, target, force, plan, Some(&consent)).await? {
            Ok(receivers) => {
                tracing::info!(target: crate::CLIENT_LOG_TARGET, pane = %target, "typed into the caller pane with the person's consent");
                Ok(receivers)
            }
            // Something else changed in between (a mode, a dead pane): that rule stands.
            Err(refusal) => Err(ToolError::blocked(refusal.to_string())),
        },
        Err(no) => Err(ToolError::blocked(format!("{refusal}{}", no.note()))),
    }
}

/// Reads `target`'s window, prints tmux's verdict and runs `input` only if it holds,
/// all in one round trip; returns the panes the input reached, or the rule that
/// refused it. With the person's `consent`, the caller pane is an ordinary pane.
async fn attempt(
    state: &GuardState,
    target: PaneId,
    force: bool,
    plan: &Plan<'_>,
    consent: Option<&Consent>,
) -> Result<Result<Vec<Reached>, Refusal>, ToolError> {
    let Plan { input, reach, at } = *plan;
    let caller = state.caller.as_ref().filter(|_| consent.is_none());
    let owned_only = state.settings.scope == Scope::Owned;
    let verdict = match reach {
        Reach::Cohort => verdict::verdict_format(target, force, caller, owned_only),
        Reach::TargetOnly => verdict::target_verdict_format(force, caller, owned_only),
    };
    let verdict = match at {
        Some(at) => verdict::unless_moved(&at, &verdict),
        None => verdict,
    };
    let mut commands = vec![read_window(target), verdict::print_verdict(target, &verdict)];
    if !input.is_empty() {
        commands.push(verdict::type_if(target, &verdict, input));
    }
    let outputs = match state.backend.tmux().run_all(&commands).await {
        Ok(outputs) => outputs,
        Err(error) if error.is_object_gone() => {
            return Ok(Err(Refusal {
                target,
                pane: target,
                rule: Rule::Missing,
                synchronized_window: None,
            }));
        }
        Err(error) => return Err(error.into()),
    };
    let [window, printed, ..] = outputs.as_slice() else {
        return Err(ToolError::internal("the cohort check came back without its verdict"));
    };
    let mut window = parse_window(window, caller, owned_only)?;
    if reach == Reach::TargetOnly {
        // No pane but the target is reached, whatever synchronize-panes says.
        for pane in &mut window.panes {
            pane.synchronized = false;
        }
    }
    // tmux's verdict: whether the input went in (it did when `input` holds anything).
    let allowed = verdict::parse_verdict(printed)
        .ok_or_else(|| ToolError::internal("tmux printed no verdict for the cohort check"))?;
    match (evaluate(target, &window, force), allowed) {
        (Ok(cohort), true) => {
            tracing::debug!(pane = %target, cohort = ?cohort.receivers, "typed into a pane");
            let view = |pane: PaneId| window.panes.iter().find(|p| p.id == pane);
            Ok(Ok(cohort
                .receivers
                .iter()
                .map(|&pane| Reached {
                    pane,
                    at: view(pane).map(|p| p.at).unwrap_or_default(),
                    width: view(pane).map_or(0, |p| p.width),
                })
                .collect()))
        }
        (Err(refusal), false) => Ok(Err(refusal)),
        // Every rule held but the screen had moved: nothing went in.
        (Ok(_), false) if at.is_some() => Ok(Err(Refusal {
            target,
            pane: target,
            rule: Rule::Moved,
            synchronized_window: None,
        })),
        // The two readings of one state disagree: a paneward fault, reported as such.
        (Ok(_), false) => Err(ToolError::internal(format!(
            "tmux's check refused input to pane {target} where paneward's allowed it; nothing was typed"
        ))),
        (Err(refusal), true) => Err(ToolError::internal(format!(
            "tmux typed into pane {target} although paneward's check refused it: pane {} broke the rule {:?}",
            refusal.pane, refusal.rule
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(id: u32) -> PaneView {
        PaneView {
            id: PaneId(id),
            dead: false,
            in_mode: false,
            input_off: false,
            active: false,
            synchronized: false,
            is_caller: false,
            outside_scope: false,
            at: ScreenAt::default(),
            width: 80,
        }
    }

    fn window(panes: Vec<PaneView>) -> WindowView {
        WindowView {
            window_id: "@1".into(),
            zoomed: false,
            panes,
        }
    }

    fn synced(panes: Vec<PaneView>) -> WindowView {
        window(
            panes
                .into_iter()
                .map(|p| PaneView {
                    synchronized: true,
                    ..p
                })
                .collect(),
        )
    }

    #[test]
    fn an_unsynchronized_window_puts_only_the_target_in_the_cohort() {
        let view = window(vec![
            pane(1),
            PaneView {
                is_caller: true,
                ..pane(2)
            },
        ]);
        let cohort = evaluate(PaneId(1), &view, false).unwrap();
        assert_eq!(cohort.receivers, [PaneId(1)]);
    }

    #[test]
    fn a_synchronized_window_puts_every_synchronized_pane_in_the_cohort() {
        let mut view = synced(vec![pane(1), pane(2), pane(3)]);
        view.panes[2].synchronized = false; // a pane option can turn it off
        let cohort = evaluate(PaneId(2), &view, false).unwrap();
        assert_eq!(cohort.receivers, [PaneId(2), PaneId(1)]);
    }

    #[test]
    fn force_lifts_the_caller_and_mode_rules_only() {
        for (changed, rule) in [
            (
                PaneView {
                    is_caller: true,
                    ..pane(1)
                },
                Rule::Caller,
            ),
            (
                PaneView {
                    in_mode: true,
                    ..pane(1)
                },
                Rule::InMode,
            ),
            (PaneView { dead: true, ..pane(1) }, Rule::Dead),
            (
                PaneView {
                    input_off: true,
                    ..pane(1)
                },
                Rule::InputOff,
            ),
        ] {
            let view = window(vec![changed]);
            let refusal = evaluate(PaneId(1), &view, false).unwrap_err();
            assert_eq!(refusal.rule, rule);
            assert_eq!(evaluate(PaneId(1), &view, true).is_ok(), rule.forceable(), "{rule:?}");
        }
    }

    #[test]
    fn a_sibling_that_breaks_a_rule_refuses_the_row_and_the_reason_says_why_it_counts() {
        let view = synced(vec![
            pane(1),
            PaneView {
                is_caller: true,
                ..pane(2)
            },
        ]);
        let refusal = evaluate(PaneId(1), &view, false).unwrap_err();
        assert_eq!((refusal.pane, refusal.rule), (PaneId(2), Rule::Caller));
        let text = refusal.to_string();
        assert!(
            text.starts_with("synchronize-panes is on in window @1, so input to pane %1 also reaches pane %2; pane %2 is the caller pane"),
            "{text}"
        );
    }

    #[test]
    fn a_missing_target_is_refused_even_with_force() {
        let view = window(vec![pane(1)]);
        let refusal = evaluate(PaneId(9), &view, true).unwrap_err();
        assert_eq!(refusal.rule, Rule::Missing);
        assert!(refusal.to_string().starts_with("pane %9 does not exist"));
    }

    #[test]
    fn receivers_are_what_tmux_delivers_to() {
        // Keys for a pane in a mode go to the mode and are not synchronized.
        let view = synced(vec![
            PaneView {
                in_mode: true,
                ..pane(1)
            },
            pane(2),
        ]);
        assert_eq!(evaluate(PaneId(1), &view, true).unwrap().receivers, [PaneId(1)]);
        // Siblings in a mode (with force) and siblings hidden by zoom are skipped.
        let view = synced(vec![
            pane(1),
            PaneView {
                in_mode: true,
                ..pane(2)
            },
            pane(3),
        ]);
        assert_eq!(
            evaluate(PaneId(1), &view, true).unwrap().receivers,
            [PaneId(1), PaneId(3)]
        );
        let mut view = synced(vec![
            PaneView {
                active: true,
                ..pane(1)
            },
            pane(2),
        ]);
        view.zoomed = true;
        let cohort = evaluate(PaneId(1), &view, false).unwrap();
        assert_eq!(cohort.receivers, [PaneId(1)]);
        // Hidden by the zoom, pane 2 is still a member: it is held to the rules.
        view.panes[1].in_mode = true;
        let refusal = evaluate(PaneId(1), &view, false).unwrap_err();
        assert_eq!(refusal.pane, PaneId(2));
    }

    #[test]
    fn the_window_record_is_parsed_and_the_caller_marked() {
        let caller = CallerPane::from_env(Some("/tmp/s,42,0"), Some("%2"));
        let line = |id: &str, sync: &str, owned: &str| {
            format!(
                "{id}\u{1f}@7\u{1f}0\u{1f}1\u{1f}0\u{1f}0\u{1f}0\u{1f}{sync}\u{1f}42\u{1f}{owned}\u{1f}5\u{1f}3\u{1f}100\u{1f}80\u{1e}\n"
            )
        };
        let output = format!("{}{}", line("%1", "1", "1"), line("%2", "0", ""));
        let view = parse_window(output.as_bytes(), caller.as_ref(), false).unwrap();
        assert_eq!(view.window_id, "@7");
        assert_eq!(view.panes.len(), 2);
        assert!(view.panes[0].synchronized && !view.panes[0].is_caller);
        assert!(!view.panes[1].synchronized && view.panes[1].is_caller);
        assert!(view.panes.iter().all(|p| !p.outside_scope), "no scope, no rule");
        let at = ScreenAt {
            cursor_x: 5,
            cursor_y: 3,
            history_size: 100,
        };
        assert!(view.panes.iter().all(|p| p.at == at && p.width == 80), "{view:?}");
        let view = parse_window(output.as_bytes(), caller.as_ref(), true).unwrap();
        assert!(!view.panes[0].outside_scope && view.panes[1].outside_scope);
    }

    #[test]
    fn an_unmarked_synchronized_sibling_refuses_the_row_under_scope_owned_even_with_force() {
        let mut sibling = pane(2);
        sibling.synchronized = true;
        sibling.outside_scope = true;
        let mut target = pane(1);
        target.synchronized = true;
        let refusal = evaluate(PaneId(1), &window(vec![target, sibling]), true).unwrap_err();
        assert_eq!((refusal.pane, refusal.rule), (PaneId(2), Rule::OutsideScope));
        assert!(refusal.to_string().contains("--scope owned"), "{refusal}");
    }
}
