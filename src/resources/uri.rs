//! Reading a `tmux://` resource URI into what it names.
//!
//! Ids are written without their sigil (`tmux://panes/3`), because `%` starts a URI
//! escape; the sigil percent-encoded (`%253`, `%241`, `%402`) or written raw (`$1`,
//! `@2`, `%3`) is accepted too. A job `%3:<32 hex digits>` is `tmux://jobs/3:<hex>`:
//! its pane as `tmux://panes/…` writes it, then `:` (or `%3A`, as a URI template
//! expands it), then the hex digits as `run_command` returned them. Nothing of the URI
//! reaches tmux but the parsed id.

use std::fmt;

use crate::runtime::error::echo;
use crate::tmux::ids::IdKind;
use crate::tmux::{PaneId, SessionId, WindowId};
use crate::tools::run::JobId;

/// What a resource URI names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    Sessions,
    Session(SessionId),
    SessionWindows(SessionId),
    Window(WindowId),
    WindowPanes(WindowId),
    Pane(PaneId),
    PaneContent(PaneId),
    Job(JobRef),
    /// The panes that need someone (`resources::attention`).
    Attention,
}

/// A job id (`%3:<32 hex digits>`) in a form that is `Copy`, as targets are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JobRef {
    pub pane: PaneId,
    pub random: u128,
}

impl JobRef {
    /// The job id as `run_command` returns it.
    pub fn job_id(self) -> String {
        format!("{}:{:032x}", self.pane, self.random)
    }

    /// The hex part, as the pane's options name the job.
    pub fn random_hex(self) -> String {
        format!("{:032x}", self.random)
    }
}

impl Target {
    /// The URI in its canonical spelling (sigil-less ids).
    pub fn uri(self) -> String {
        match self {
            Self::Sessions => "tmux://sessions".into(),
            Self::Session(id) => format!("tmux://sessions/{}", id.0),
            Self::SessionWindows(id) => format!("tmux://sessions/{}/windows", id.0),
            Self::Window(id) => format!("tmux://windows/{}", id.0),
            Self::WindowPanes(id) => format!("tmux://windows/{}/panes", id.0),
            Self::Pane(id) => format!("tmux://panes/{}", id.0),
            Self::PaneContent(id) => format!("tmux://panes/{}/content", id.0),
            Self::Job(job) => format!("tmux://jobs/{}:{:032x}", job.pane.0, job.random),
            Self::Attention => "tmux://attention".into(),
        }
    }

    /// Where a client finds what exists, for a URI that names nothing.
    pub fn where_to_look(self) -> &'static str {
        match self {
            Self::Job(_) => "job ids come from run_command, and a job stays until the next run_command in its pane",
            _ => "tmux://sessions lists what exists",
        }
    }
}

/// A URI that is not one of paneward's; the message says which forms are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriError(String);

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

const FORMS: &str = "tmux://sessions, tmux://sessions/{session}, tmux://sessions/{session}/windows, \
                     tmux://windows/{window}, tmux://windows/{window}/panes, tmux://panes/{pane}, \
                     tmux://panes/{pane}/content, tmux://jobs/{job}, tmux://attention, each id without its sigil (tmux://panes/3, \
                     tmux://jobs/3:<32 hex digits>)";

fn not_ours(uri: &str, why: &str) -> UriError {
    UriError(format!("/params/uri: {} {why}; the resources are {FORMS}", echo(uri)))
}

/// Parses `uri`.
///
/// # Errors
/// Not a `tmux://` URI of one of the declared forms, or an id that is not one.
pub fn parse(uri: &str) -> Result<Target, UriError> {
    let Some(path) = uri.strip_prefix("tmux://") else {
        return Err(not_ours(uri, "is not a tmux:// URI"));
    };
    let segments: Vec<&str> = path.split('/').collect();
    let id = |kind: IdKind, text: &str| {
        id_digits(kind, text).ok_or_else(|| {
            let sigil = kind.sigil();
            not_ours(
                uri,
                &format!(
                    "does not name a {} by id (digits, such as 3, or {sigil}3 percent-encoded)",
                    kind.noun()
                ),
            )
        })
    };
    let target = match segments.as_slice() {
        ["sessions"] => Target::Sessions,
        ["attention"] => Target::Attention,
        ["sessions", s] => Target::Session(SessionId(id(IdKind::Session, s)?)),
        ["sessions", s, "windows"] => Target::SessionWindows(SessionId(id(IdKind::Session, s)?)),
        ["windows", w] => Target::Window(WindowId(id(IdKind::Window, w)?)),
        ["windows", w, "panes"] => Target::WindowPanes(WindowId(id(IdKind::Window, w)?)),
        ["panes", p] => Target::Pane(PaneId(id(IdKind::Pane, p)?)),
        ["panes", p, "content"] => Target::PaneContent(PaneId(id(IdKind::Pane, p)?)),
        ["jobs", j] => Target::Job(job(j).ok_or_else(|| {
            not_ours(
                uri,
                "does not name a job (its pane's number, a colon, and the 32 lowercase hex digits of the id \
                 run_command returned, such as tmux://jobs/3:0123456789abcdef0123456789abcdef; the % of the pane \
                 may be written %25, the colon %3A)",
            )
        })?),
        _ => return Err(not_ours(uri, "is not one of paneward's resources")),
    };
    Ok(target)
}

/// A job segment: a pane id as in `tmux://panes/…`, `:` or `%3A`, and the random part
/// as `JobId::parse` takes it.
fn job(text: &str) -> Option<JobRef> {
    let (pane, random) = match text.split_once(':') {
        Some(parts) => parts,
        None => {
            let at = text.to_ascii_lowercase().find("%3a")?;
            (&text[..at], &text[at + 3..])
        }
    };
    let pane = id_digits(IdKind::Pane, pane)?;
    let job = JobId::parse("/params/uri", &format!("%{pane}:{random}")).ok()?;
    Some(JobRef {
        pane: job.pane,
        random: u128::from_str_radix(&job.random, 16).ok()?,
    })
}

/// The percent-encoding of each sigil.
fn escaped_sigil(kind: IdKind) -> &'static str {
    match kind {
        IdKind::Pane => "%25",
        IdKind::Window => "%40",
        IdKind::Session => "%24",
    }
}

/// The number of an id segment: digits, or the sigil (escaped or raw) and digits. Raw
/// `%` and digits could also be another kind's escaped sigil (`%403` is `@3`): that
/// reading wins, and names no pane.
pub fn id_digits(kind: IdKind, text: &str) -> Option<u32> {
    let other_kind = [IdKind::Pane, IdKind::Window, IdKind::Session]
        .into_iter()
        .filter(|other| *other != kind)
        .any(|other| {
            text.strip_prefix(escaped_sigil(other))
                .is_some_and(|rest| !rest.is_empty())
        });
    if other_kind {
        return None;
    }
    let candidates = [
        text.strip_prefix(escaped_sigil(kind)),
        text.strip_prefix(kind.sigil()),
        Some(text),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|digits| digits.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_parses_and_prints_back() {
        for target in [
            Target::Sessions,
            Target::Session(SessionId(1)),
            Target::SessionWindows(SessionId(0)),
            Target::Window(WindowId(2)),
            Target::WindowPanes(WindowId(12)),
            Target::Pane(PaneId(3)),
            Target::PaneContent(PaneId(40)),
            Target::Job(JobRef {
                pane: PaneId(3),
                random: 0x0123_4567_89ab_cdef_0123_4567_89ab_cdef,
            }),
            Target::Job(JobRef {
                pane: PaneId(0),
                random: 1,
            }),
        ] {
            assert_eq!(parse(&target.uri()), Ok(target));
        }
    }

    #[test]
    fn sigils_may_be_percent_encoded_or_raw() {
        assert_eq!(parse("tmux://panes/%253"), Ok(Target::Pane(PaneId(3))));
        assert_eq!(parse("tmux://panes/%3/content"), Ok(Target::PaneContent(PaneId(3))));
        assert_eq!(
            parse("tmux://sessions/%241/windows"),
            Ok(Target::SessionWindows(SessionId(1)))
        );
        assert_eq!(parse("tmux://windows/%402"), Ok(Target::Window(WindowId(2))));
        assert_eq!(parse("tmux://windows/@2/panes"), Ok(Target::WindowPanes(WindowId(2))));
        // `%25` alone is no escaped sigil with digits: it is pane 25, sigil raw.
        assert_eq!(parse("tmux://panes/%25"), Ok(Target::Pane(PaneId(25))));
    }

    #[test]
    fn a_job_is_its_pane_as_a_pane_uri_writes_it_a_colon_and_its_hex() {
        let hex = "0123456789abcdef0123456789abcdef";
        let expected = Target::Job(JobRef {
            pane: PaneId(3),
            random: u128::from_str_radix(hex, 16).unwrap(),
        });
        for spelled in [
            format!("tmux://jobs/3:{hex}"),
            format!("tmux://jobs/%253:{hex}"),
            format!("tmux://jobs/%3:{hex}"),
            // A URI template's expansion of the id as run_command returns it.
            format!("tmux://jobs/%253%3A{hex}"),
            format!("tmux://jobs/3%3a{hex}"),
        ] {
            assert_eq!(parse(&spelled), Ok(expected), "{spelled}");
        }
        if let Target::Job(job) = expected {
            assert_eq!(job.job_id(), format!("%3:{hex}"));
        }
        for bad in [
            "tmux://jobs/3".to_string(),
            "tmux://jobs/".to_string(),
            format!("tmux://jobs/3:{}", hex.to_uppercase()),
            format!("tmux://jobs/3:{hex}0"),
            format!("tmux://jobs/3:{}", &hex[1..]),
            format!("tmux://jobs/%403:{hex}"),
            format!("tmux://jobs/x:{hex}"),
            format!("tmux://jobs/:{hex}"),
            format!("tmux://jobs/3:{hex}/output"),
            format!("tmux://jobs/3::{hex}"),
        ] {
            let error = parse(&bad).unwrap_err().to_string();
            assert!(
                error.contains("does not name a job") || error.contains("is not one of"),
                "{bad}: {error}"
            );
            assert!(error.contains("tmux://jobs/{job}"), "{error}");
        }
    }

    #[test]
    fn other_uris_are_refused_with_the_forms() {
        for uri in [
            "file:///etc/passwd",
            "tmux://sessions/",
            "tmux://sessions/main",
            "tmux://panes/%403",
            "tmux://panes/3/contents",
            "tmux://panes/3?x=1",
            "tmux://panes/99999999999",
            "tmux://windows/-1",
            "",
        ] {
            let error = parse(uri).unwrap_err().to_string();
            assert!(error.starts_with("/params/uri: "), "{error}");
            assert!(error.contains("tmux://panes/{pane}/content"), "{error}");
        }
    }
}
