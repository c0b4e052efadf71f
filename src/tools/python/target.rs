//! Python's targeting, made safe. libtmux-mcp's tools take `session_name`, `session_id`,
//! `window_id`, `window_index` and `pane_id` and fall back the way libtmux does: no
//! session named means the server's first session, no window its first window, no pane
//! its first pane. paneward resolves all of it to ids itself, by exact comparison, from
//! the narrowest listing that holds the answer ([`Server::read_for`]; the whole server,
//! `list-panes -a`, only to refuse what matches nothing): tmux's own target matching (which takes a prefix, so
//! `kill-session -t alp` ends `alpha`) is never used. A name that matches nothing is
//! refused by name with libtmux-mcp's error text and `_meta`.
//!
//! `socket_name` is accepted when it names the server paneward serves (by its real
//! name, [`super::served`]) and refused otherwise, saying how to serve that one: one
//! paneward drives one tmux server.

use crate::generated::types::Pane;
use crate::guard::ReadGate;
use crate::runtime::error::{short_echo, ToolErrorKind, UpstreamError};
use crate::runtime::ToolError;
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::observe::objects::{pane_from, PANE_FIELDS};
use crate::tools::observe::tree::panes_listed;

use super::served::Served;

/// The targeting arguments of one call, as libtmux-mcp's tools name them; every
/// profile input that has any implements [`Targeted`] (generated from its schema).
pub use crate::runtime::targeting::{Targeted, Targeting};

/// The targeting of `input`, its `socket_name` checked first: how every adapter begins.
///
/// # Errors
/// `socket_name` names another tmux server (`check_socket`).
pub fn checked<'a>(gate: &ReadGate<'_>, input: &'a impl Targeted) -> Result<Targeting<'a>, ToolError> {
    let targeting = input.targeting();
    check_socket(gate, targeting.socket_name)?;
    Ok(targeting)
}

/// The id of the session `targeting` names, read from the server now.
///
/// # Errors
/// As [`Server::session`], or tmux failed.
pub async fn session_id(gate: &ReadGate<'_>, targeting: &Targeting<'_>) -> Result<String, ToolError> {
    Ok(Server::read_for(gate, targeting, Level::Session)
        .await?
        .session(targeting)?
        .session_id
        .to_string())
}

/// The id of the window `targeting` names, read from the server now.
///
/// # Errors
/// As [`Server::window`], or tmux failed.
pub async fn window_id(gate: &ReadGate<'_>, targeting: &Targeting<'_>) -> Result<String, ToolError> {
    Ok(Server::read_for(gate, targeting, Level::Window)
        .await?
        .window(targeting)?
        .window_id
        .to_string())
}

/// The id of the pane `targeting` names, read from the server now.
///
/// # Errors
/// As [`Server::pane`], or tmux failed.
pub async fn pane_id(gate: &ReadGate<'_>, targeting: &Targeting<'_>) -> Result<String, ToolError> {
    Ok(Server::read_for(gate, targeting, Level::Pane)
        .await?
        .pane(targeting)?
        .id
        .to_string())
}

/// The pane a call names by `pane_id`, taken as it is: tmux finds a pane by its id
/// exactly, so a read can go to tmux at once, sparing the resolution's round trip
/// (a batch's rows would wait for it one stage after another). `None` when the call
/// names no pane id, or one that is not an id: those are resolved.
pub fn named_pane(targeting: &Targeting<'_>) -> Option<crate::tmux::PaneId> {
    targeting.pane_id?.parse().ok()
}

/// `error`, from a read sent straight to the pane [`named_pane`] gave, as the
/// resolution would have answered the call: its refusal when the pane does not
/// resolve (libtmux-mcp's `PaneNotFound`), else `error` itself.
pub async fn explained(gate: &ReadGate<'_>, targeting: &Targeting<'_>, error: ToolError) -> ToolError {
    match pane_id(gate, targeting).await {
        Err(refusal) => refusal,
        Ok(_) => error,
    }
}

/// Every pane of the server in tmux's order (sessions, then windows by index, then
/// panes by index): what every resolution reads.
pub struct Server {
    pub panes: Vec<Pane>,
}

impl Server {
    /// Lists the server's panes once; resolve as many targets against it as needed.
    ///
    /// # Errors
    /// tmux failed or cannot be reached.
    pub async fn read(gate: &ReadGate<'_>) -> Result<Self, ToolError> {
        Ok(Self {
            panes: panes_listed(gate, &["-a"]).await?,
        })
    }

    /// The panes `target` can resolve to at `level`, listed as narrowly as its arguments
    /// allow (`narrowed`): resolving it at that level against them gives what
    /// resolving it against [`Server::read`] gives, in a time that does not grow with the server's panes.
    /// Where the narrow reading finds nothing (an id or name that matches nothing),
    /// the whole server is read, so every refusal is the one [`Server::read`] gives.
    ///
    /// # Errors
    /// tmux failed or cannot be reached.
    pub async fn read_for(gate: &ReadGate<'_>, target: &Targeting<'_>, level: Level) -> Result<Self, ToolError> {
        match narrowed(gate, target, level).await {
            Some(panes) if !panes.is_empty() => Ok(Self { panes }),
            _ => Self::read(gate).await,
        }
    }

    /// The session the targeting names (`session_id` before `session_name`), or the
    /// server's first; its id.
    ///
    /// # Errors
    /// No session has that id or exactly that name, or the server has none.
    pub fn session(&self, target: &Targeting<'_>) -> Result<&Pane, ToolError> {
        if let Some(id) = target.session_id {
            return self
                .panes
                .iter()
                .find(|pane| pane.session_id.as_str() == id)
                .ok_or_else(|| not_found("session_id", id, "list-sessions"));
        }
        if let Some(name) = target.session_name {
            return self
                .panes
                .iter()
                .find(|pane| pane.session == name)
                .ok_or_else(|| not_found("session_name", name, "list-sessions"));
        }
        self.panes
            .first()
            .ok_or_else(|| not_found("session", "(any)", "list-sessions"))
    }

    /// The window the targeting names (`window_id`, or `window_index` in the session
    /// named, or that session's first window): the first pane listed in it, which
    /// carries its id, index and session.
    ///
    /// # Errors
    /// As [`Server::session`], or no window of that id or index.
    pub fn window(&self, target: &Targeting<'_>) -> Result<&Pane, ToolError> {
        if let Some(id) = target.window_id {
            return self
                .panes
                .iter()
                .find(|pane| pane.window_id.as_str() == id)
                .ok_or_else(|| not_found("window_id", id, "list-windows"));
        }
        let session = self.session(target)?;
        let mut in_session = self.panes.iter().filter(|pane| pane.session_id == session.session_id);
        match target.window_index {
            Some(index) => in_session
                .find(|pane| pane.window_index.to_string() == index)
                .ok_or_else(|| not_found("window_index", index, "list-windows")),
            None => in_session
                .min_by_key(|pane| pane.window_index)
                .ok_or_else(|| upstream_error("NoWindowsExist", "tmux error: No windows exist for object", None)),
        }
    }

    /// The pane the targeting names (`pane_id`, or the first pane of the window named).
    ///
    /// # Errors
    /// As [`Server::window`], or no pane of that id.
    pub fn pane(&self, target: &Targeting<'_>) -> Result<&Pane, ToolError> {
        if let Some(id) = target.pane_id {
            return self
                .panes
                .iter()
                .find(|pane| pane.id.as_str() == id)
                .ok_or_else(|| pane_not_found(id));
        }
        let window = self.window(target)?;
        self.panes
            .iter()
            .filter(|pane| pane.window_id == window.window_id && pane.session_id == window.session_id)
            .min_by_key(|pane| pane.index)
            .ok_or_else(|| pane_not_found(""))
    }
}

/// What a resolution resolves: [`Server::session`], [`Server::window`] or [`Server::pane`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Session,
    Window,
    Pane,
}

/// The panes that hold `target`'s answer, read by id so that tmux's prefix matching
/// never applies: the pane `pane_id` names (one `display-message`); the panes of the
/// window `window_id` names; else the panes of one window of one session (the session
/// by id, or by exact name from `list-sessions`, or the first; the window by exact
/// index from `list-windows`, or the first). `None` where a step found nothing or tmux
/// refused an id: the caller then reads the whole server.
async fn narrowed(gate: &ReadGate<'_>, target: &Targeting<'_>, level: Level) -> Option<Vec<Pane>> {
    // A level reads only the arguments its resolution reads: a session's ignores
    // `window_id` and `pane_id` (no session named means the server's first session).
    let pane_id = target.pane_id.filter(|_| level == Level::Pane);
    let window_id = target.window_id.filter(|_| level != Level::Session);
    if let Some(id) = pane_id {
        let id = id.parse::<crate::tmux::PaneId>().ok()?.to_string();
        let describe = ReadCommand::new(ReadVerb::DisplayMessage)
            .arg("-t")
            .arg(id.as_str())
            .arg(record_format(&PANE_FIELDS));
        return panes_of(gate, describe).await;
    }
    let window = match window_id {
        Some(id) => id.parse::<crate::tmux::WindowId>().ok()?.to_string(),
        None => {
            let session = match target.session_id {
                Some(id) => id.parse::<crate::tmux::SessionId>().ok()?.to_string(),
                None => {
                    first_named(
                        gate,
                        ReadCommand::new(ReadVerb::ListSessions),
                        "session_name",
                        target.session_name,
                    )
                    .await?
                }
            };
            let windows = ReadCommand::new(ReadVerb::ListWindows).arg("-t").arg(session.as_str());
            first_named(gate, windows, "window_index", target.window_index).await?
        }
    };
    let list = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-t")
        .arg(window.as_str())
        .arg("-F")
        .arg(record_format(&PANE_FIELDS));
    panes_of(gate, list).await
}

/// The panes `command`, given [`PANE_FIELDS`] as its format, describes.
async fn panes_of(gate: &ReadGate<'_>, command: ReadCommand) -> Option<Vec<Pane>> {
    let output = gate.run(command).await.ok()?;
    let text = String::from_utf8_lossy(&output);
    let records = parse_records("list-panes", &PANE_FIELDS, &text).ok()?;
    records
        .iter()
        .map(|record| pane_from(record, gate.state().caller.as_ref()).ok())
        .collect()
}

/// The id (`session_id` or `window_id`) of the first session or window `list` prints
/// whose `key` is exactly `wanted`, or of the first of all when nothing is wanted.
async fn first_named(
    gate: &ReadGate<'_>,
    list: ReadCommand,
    key: &'static str,
    wanted: Option<&str>,
) -> Option<String> {
    let id_name = if key == "session_name" {
        "session_id"
    } else {
        "window_id"
    };
    let names = [id_name, key];
    let output = gate.run(list.arg("-F").arg(record_format(&names))).await.ok()?;
    let text = String::from_utf8_lossy(&output);
    let records = parse_records("list", &names, &text).ok()?;
    records
        .iter()
        .find(|record| wanted.is_none_or(|wanted| record.text(key).is_ok_and(|value| value == wanted)))
        .and_then(|record| record.text(id_name).ok())
        .map(str::to_string)
}

/// Refuses a `socket_name` that names another server than the one paneward serves
/// ([`Served`]: its real name, or a path to its socket, is accepted).
///
/// # Errors
/// `socket_name` names another tmux server.
fn check_socket(gate: &ReadGate<'_>, socket_name: Option<&str>) -> Result<(), ToolError> {
    let Some(asked) = socket_name else {
        return Ok(());
    };
    let served = Served::serving(&gate.state().settings);
    if served.is_named_by(asked) {
        return Ok(());
    }
    let asked = short_echo(asked);
    let flag = if asked.contains('/') {
        "--socket-path"
    } else {
        "--socket-name"
    };
    Err(ToolError::new(
        ToolErrorKind::InvalidArguments,
        format!(
            "socket_name {asked:?} is not the server this paneward serves ({}); nothing changed",
            served.described()
        ),
    )
    .with_upstream(UpstreamError {
        error_type: "ExpectedToolError",
        expected: true,
        suggestion: Some(format!(
            "Leave socket_name out, or start another paneward for that server (paneward --profile python {flag} {asked:?})."
        )),
    }))
}

/// libtmux's `TmuxObjectDoesNotExist`, as libtmux-mcp reports it.
pub fn not_found(key: &str, id: &str, list_command: &str) -> ToolError {
    let id = short_echo(id);
    upstream_error(
        "TmuxObjectDoesNotExist",
        &format!("Object not found: Could not find {key}={id} for {list_command} ()"),
        Some("Call list_sessions / list_windows / list_panes to discover valid ids."),
    )
    .with_kind(ToolErrorKind::NotFound)
}

/// libtmux's `PaneNotFound`, as libtmux-mcp reports it.
pub fn pane_not_found(id: &str) -> ToolError {
    let id = short_echo(id);
    let detail = if id.is_empty() {
        "Pane not found".to_string()
    } else {
        format!("Pane not found: {id}")
    };
    upstream_error(
        "PaneNotFound",
        &format!("Pane not found: {detail}"),
        Some("Call list_panes to discover valid pane ids."),
    )
    .with_kind(ToolErrorKind::NotFound)
}

/// An error the agent can correct, named as libtmux-mcp names it.
pub fn upstream_error(error_type: &'static str, message: &str, suggestion: Option<&str>) -> ToolError {
    ToolError::new(ToolErrorKind::InvalidArguments, message).with_upstream(UpstreamError {
        error_type,
        expected: true,
        suggestion: suggestion.map(str::to_string),
    })
}
