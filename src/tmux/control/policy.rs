//! Which session the control client may attach to without the user noticing.
//!
//! A control client is an attached client to tmux: attaching bumps the session's
//! activity time (so it becomes the session that targetless commands pick), and while we
//! sit there the session counts as attached (so a bare `tmux attach`, which prefers the
//! most recent *unattached* session, and `detach-on-destroy no-detached` skip it, and
//! `destroy-unattached` never fires for it). The rules below attach only where none of
//! that changes what the user's own clients do; everywhere else paneward uses a one-shot
//! client per command instead ([`crate::tmux::oneshot`]), which never attaches.

use crate::tmux::command::{Command, ReadCommand, ReadVerb};
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::TmuxError;

/// The session variables a decision needs: the fields of [`SessionFacts`].
const FACT_FIELDS: [&str; 4] = [
    "session_id",
    "session_attached",
    "destroy-unattached",
    "detach-on-destroy",
];

/// What tmux says about one session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionFacts {
    pub id: String,
    /// Attached clients, as tmux counts them (control clients included).
    pub attached: u64,
    pub destroy_unattached: bool,
    /// `detach-on-destroy no-detached`: clients move to the next unattached session.
    pub no_detached: bool,
}

/// The server as a decision sees it: the current session and all sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// Asked by a process with no client, this is the session tmux picks for a command
    /// with no target (the most recently active); asked over our own connection, it is
    /// the session we are attached to.
    pub current: String,
    pub sessions: Vec<SessionFacts>,
}

/// Why the control client should not sit on a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttachRefusal {
    NoSession,
    /// A detached session has `destroy-unattached` on: any attach or detach collects it.
    PendingDestroy,
    /// Our session has `destroy-unattached` on and no other client.
    DestroyUnattached,
    /// Our session would hide from `tmux attach`, which picks the newest unattached one.
    HidesDetachedSession,
    /// Some session moves its clients to an unattached session when it ends.
    NoDetachedTarget,
}

impl std::fmt::Display for AttachRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::NoSession => "the server has no session to attach to",
            Self::PendingDestroy => "a detached session has destroy-unattached on",
            Self::DestroyUnattached => "the session has destroy-unattached on",
            Self::HidesDetachedSession => "attaching would change which session `tmux attach` picks",
            Self::NoDetachedTarget => "a session uses detach-on-destroy no-detached",
        })
    }
}

/// The commands that read [`Facts`], in one round trip; they only read, so they may go
/// in front of a round trip's own reads ([`crate::tmux::transport`]).
pub fn facts_query() -> Vec<Command> {
    vec![
        ReadCommand::new(ReadVerb::DisplayMessage).arg("#{session_id}").into(),
        ReadCommand::new(ReadVerb::ListSessions)
            .arg("-F")
            .arg(record_format(&FACT_FIELDS))
            .into(),
    ]
}

/// Parses the outputs of [`facts_query`].
///
/// # Errors
/// The outputs do not have the shape asked for.
pub fn parse_facts(outputs: &[Vec<u8>]) -> Result<Facts, TmuxError> {
    let [current, sessions] = outputs else {
        return Err(TmuxError::Protocol {
            command: "list-sessions".into(),
            detail: "expected two outputs".into(),
        });
    };
    let current = String::from_utf8_lossy(current).trim().to_string();
    let text = String::from_utf8_lossy(sessions);
    let records = parse_records("list-sessions", &FACT_FIELDS, &text)?;
    let sessions = records
        .iter()
        .map(|record| {
            Ok(SessionFacts {
                id: record.text("session_id")?.to_string(),
                attached: u64::try_from(record.int("session_attached")?).unwrap_or(0),
                // A flag (0/1) in tmux 3.3; off/on/keep-last/keep-group from 3.4.
                destroy_unattached: !matches!(record.text("destroy-unattached")?, "" | "0" | "off"),
                no_detached: record.text("detach-on-destroy")? == "no-detached",
            })
        })
        .collect::<Result<Vec<_>, TmuxError>>()?;
    Ok(Facts { current, sessions })
}

/// Picks the session to attach to, from facts read by a process with no client.
///
/// Only the session tmux already treats as the most recent may be chosen: attaching
/// bumps its activity time, which then changes nothing.
///
/// # Errors
/// Why no session is suitable.
pub fn choose(facts: &Facts) -> Result<String, AttachRefusal> {
    let Some(best) = facts.sessions.iter().find(|s| s.id == facts.current) else {
        return Err(AttachRefusal::NoSession);
    };
    if facts.sessions.iter().any(|s| s.destroy_unattached && s.attached == 0) {
        return Err(AttachRefusal::PendingDestroy);
    }
    if best.destroy_unattached {
        return Err(AttachRefusal::DestroyUnattached);
    }
    acceptable(&best.id, facts.sessions.iter().map(|s| (s, s.attached)))?;
    Ok(best.id.clone())
}

/// Whether to stay on the session we are attached to, from facts read over our own
/// connection (so `current` is our session and its count includes us).
///
/// # Errors
/// Why we should leave (and let the next call choose again).
pub fn stay(facts: &Facts) -> Result<(), AttachRefusal> {
    let Some(ours) = facts.sessions.iter().find(|s| s.id == facts.current) else {
        return Err(AttachRefusal::NoSession);
    };
    let others = |s: &SessionFacts| {
        if s.id == ours.id {
            s.attached.saturating_sub(1)
        } else {
            s.attached
        }
    };
    if ours.destroy_unattached && others(ours) == 0 {
        // Without us it would already be gone; leaving lets tmux collect it.
        return Err(AttachRefusal::DestroyUnattached);
    }
    acceptable(&ours.id, facts.sessions.iter().map(|s| (s, others(s))))
}

/// The rules shared by [`choose`] and [`stay`]; `counts` are attached clients other
/// than us.
fn acceptable<'a>(
    ours: &str,
    counts: impl Iterator<Item = (&'a SessionFacts, u64)> + Clone,
) -> Result<(), AttachRefusal> {
    let ours_attached = counts.clone().any(|(s, n)| s.id == ours && n > 0);
    if ours_attached {
        // Someone else keeps it attached already: our presence changes no count.
        return Ok(());
    }
    if counts.clone().any(|(s, n)| s.id != ours && n == 0) {
        return Err(AttachRefusal::HidesDetachedSession);
    }
    if counts.clone().any(|(s, _)| s.no_detached) {
        return Err(AttachRefusal::NoDetachedTarget);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(id: &str, attached: u64) -> SessionFacts {
        SessionFacts {
            id: id.into(),
            attached,
            destroy_unattached: false,
            no_detached: false,
        }
    }

    fn facts(current: &str, sessions: Vec<SessionFacts>) -> Facts {
        Facts {
            current: current.into(),
            sessions,
        }
    }

    #[test]
    fn the_only_session_is_chosen_even_when_detached() {
        assert_eq!(choose(&facts("$0", vec![session("$0", 0)])), Ok("$0".into()));
    }

    #[test]
    fn a_session_the_user_is_attached_to_is_chosen_whatever_else_exists() {
        let f = facts("$1", vec![session("$0", 0), session("$1", 1), session("$2", 0)]);
        assert_eq!(choose(&f), Ok("$1".into()));
    }

    #[test]
    fn the_newest_detached_session_is_refused_when_another_is_detached() {
        // `tmux attach` would land in $1 without us and in $0 with us.
        let f = facts("$1", vec![session("$0", 0), session("$1", 0)]);
        assert_eq!(choose(&f), Err(AttachRefusal::HidesDetachedSession));
        // With the other one attached by a user, nothing changes for `tmux attach`.
        let f = facts("$1", vec![session("$0", 1), session("$1", 0)]);
        assert_eq!(choose(&f), Ok("$1".into()));
    }

    #[test]
    fn destroy_unattached_keeps_the_control_client_away() {
        let mut doomed = session("$0", 0);
        doomed.destroy_unattached = true;
        assert_eq!(
            choose(&facts("$1", vec![doomed.clone(), session("$1", 1)])),
            Err(AttachRefusal::PendingDestroy)
        );
        let mut ours = session("$0", 1);
        ours.destroy_unattached = true;
        assert_eq!(choose(&facts("$0", vec![ours])), Err(AttachRefusal::DestroyUnattached));
    }

    #[test]
    fn no_detached_elsewhere_refuses_a_detached_session_only() {
        let mut other = session("$1", 1);
        other.no_detached = true;
        assert_eq!(
            choose(&facts("$0", vec![session("$0", 0), other.clone()])),
            Err(AttachRefusal::NoDetachedTarget)
        );
        assert_eq!(choose(&facts("$1", vec![session("$0", 2), other])), Ok("$1".into()));
    }

    #[test]
    fn a_missing_current_session_means_no_session() {
        assert_eq!(choose(&facts("", vec![])), Err(AttachRefusal::NoSession));
    }

    #[test]
    fn staying_counts_every_client_but_us() {
        // We are the one client of $0, and $1 is detached: `tmux attach` is hindered.
        let f = facts("$0", vec![session("$0", 1), session("$1", 0)]);
        assert_eq!(stay(&f), Err(AttachRefusal::HidesDetachedSession));
        // A user is there with us.
        let f = facts("$0", vec![session("$0", 2), session("$1", 0)]);
        assert_eq!(stay(&f), Ok(()));
        // Alone on the only session.
        assert_eq!(stay(&facts("$0", vec![session("$0", 1)])), Ok(()));
    }

    #[test]
    fn a_destroy_unattached_session_is_left_when_its_last_user_leaves() {
        let mut ours = session("$0", 1);
        ours.destroy_unattached = true;
        assert_eq!(
            stay(&facts("$0", vec![ours.clone()])),
            Err(AttachRefusal::DestroyUnattached)
        );
        ours.attached = 2;
        assert_eq!(stay(&facts("$0", vec![ours])), Ok(()));
    }

    #[test]
    fn facts_parse_from_tmux_output() {
        let outputs = vec![
            b"$1\n".to_vec(),
            b"$0\x1f0\x1f0\x1fon\x1e\n$1\x1f2\x1f1\x1fno-detached\x1e\n".to_vec(),
        ];
        let f = parse_facts(&outputs).unwrap();
        assert_eq!(f.current, "$1");
        assert_eq!(f.sessions[1].attached, 2);
        assert!(f.sessions[1].destroy_unattached);
        assert!(f.sessions[1].no_detached);
        assert!(!f.sessions[0].no_detached);
    }

    #[test]
    fn destroy_unattached_is_on_for_every_value_but_off() {
        // tmux 3.3 prints a flag; 3.4 made the option a choice with two more "on"s.
        for (value, on) in [
            ("0", false),
            ("off", false),
            ("1", true),
            ("on", true),
            ("keep-last", true),
            ("keep-group", true),
        ] {
            let sessions = format!("$0\x1f0\x1f{value}\x1foff\x1e\n");
            let f = parse_facts(&[b"$0\n".to_vec(), sessions.into_bytes()]).unwrap();
            assert_eq!(f.sessions[0].destroy_unattached, on, "{value}");
        }
    }
}
