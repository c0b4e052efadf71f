//! The cohort check: the one gate every handler that types into a pane goes through.
//!
//! tmux delivers input to more panes than the one named: with `synchronize-panes` on,
//! every pane of the window that has it on too gets the same keys. So with each input
//! paneward reads the target's whole window and checks every pane the input could
//! reach (the *cohort*): each must exist, be alive and accept input; none may be the
//! pane paneward itself runs in, or be in a mode such as copy mode, unless the caller
//! passed `force`; under `--scope owned` each must carry paneward's pane mark, `force`
//! or not; none may be in sight of a person's terminal unless it is paneward's
//! (`super::attended`), `force` or not. The reading, tmux's own check and the input are one round trip that
//! tmux runs without interleaving (`super::verdict`).
//!
//! A paste (`paste-buffer`) is input too, but tmux writes it to the target alone, so
//! only the target is checked and reported ([`super::deliver::paste`]); an Enter after
//! it is a key press again, copied like any other. Delivering input through the check
//! is `super::deliver`.

use std::fmt;

use crate::guard::attended::{pane_in_sight, window_watched, Client};
use crate::guard::caller::{is_caller, CallerPane};
use crate::guard::owner::OwnedMark;
use crate::guard::screen::ScreenAt;
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
    /// It carries paneward's pane mark (read through tmux's inheritance, as the verdict
    /// reads it): paneward created it, or the person handed it over.
    pub marked: bool,
    /// A terminal attached to tmux shows it and it is not paneward's
    /// (`super::attended`); set once the clients are read, never while the rule is off.
    pub attended: bool,
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

/// A rule of the check; only [`Rule::forceable`] ones yield to `force`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    Missing,
    OutsideScope,
    Dead,
    InputOff,
    /// A person's terminal shows the pane (`super::attended`).
    Attended,
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
            Self::Attended => {
                "is shown on a terminal attached to tmux, where a person may be watching or typing (input \
                 there needs the person's yes: `paneward grant`, or request_pane; force does not change this)"
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
pub(super) fn read_window(target: PaneId) -> Command {
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
pub(super) fn parse_window(
    output: &[u8],
    caller: Option<&CallerPane>,
    owned_only: bool,
) -> Result<WindowView, TmuxError> {
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
        let marked = record.flag(OwnedMark::Pane.option())?;
        view.panes.push(PaneView {
            id,
            dead: record.flag("pane_dead")?,
            in_mode: record.flag("pane_in_mode")?,
            input_off: record.flag("pane_input_off")?,
            active: record.flag("pane_active")?,
            synchronized: record.flag("synchronize-panes")?,
            is_caller,
            outside_scope: owned_only && !marked,
            marked,
            attended: false,
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

impl WindowView {
    /// Marks the panes a terminal shows, by `clients` read in the same step, unless they
    /// are paneward's.
    pub(super) fn mark_attended(&mut self, clients: &[Client]) {
        let watched = window_watched(clients, &self.window_id);
        for pane in &mut self.panes {
            pane.attended = !pane.marked && pane_in_sight(watched, self.zoomed, pane.active);
        }
    }
}

/// The first rule `pane` breaks, if any: the ones `force` cannot lift come first.
fn broken_rule(pane: &PaneView, force: bool) -> Option<Rule> {
    let rules = [
        (pane.outside_scope, Rule::OutsideScope),
        (pane.dead, Rule::Dead),
        (pane.input_off, Rule::InputOff),
        (pane.attended, Rule::Attended),
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
            marked: false,
            attended: false,
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
                    attended: true,
                    ..pane(1)
                },
                Rule::Attended,
            ),
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
    fn a_pane_a_terminal_shows_is_attended_unless_it_is_paneward_s_or_hidden_by_zoom() {
        let terminal = |window: &str| Client {
            name: "/dev/pts/1".into(),
            control: false,
            window_id: window.into(),
        };
        let mut view = window(vec![
            PaneView {
                active: true,
                ..pane(1)
            },
            pane(2),
            PaneView {
                marked: true,
                ..pane(3)
            },
        ]);
        view.mark_attended(&[terminal("@1")]);
        let attended: Vec<bool> = view.panes.iter().map(|p| p.attended).collect();
        assert_eq!(attended, [true, true, false], "paneward's own pane is not guarded");
        view.zoomed = true;
        view.mark_attended(&[terminal("@1")]);
        let attended: Vec<bool> = view.panes.iter().map(|p| p.attended).collect();
        assert_eq!(attended, [true, false, false], "zoomed, only the active pane shows");
        view.zoomed = false;
        view.mark_attended(&[terminal("@9")]);
        assert!(view.panes.iter().all(|p| !p.attended), "another window is shown");
        let control = Client {
            control: true,
            name: "client-5".into(),
            ..terminal("@1")
        };
        view.mark_attended(&[control]);
        assert!(view.panes.iter().all(|p| !p.attended), "a control client draws nothing");
        let refusal = evaluate(PaneId(2), &view, true);
        assert!(refusal.is_ok());
        view.mark_attended(&[terminal("@1")]);
        let refusal = evaluate(PaneId(2), &view, true).unwrap_err();
        assert_eq!(refusal.rule, Rule::Attended, "force does not lift it");
        assert!(refusal.to_string().contains("terminal attached to tmux"), "{refusal}");
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
