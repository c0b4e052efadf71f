//! The one way to end something in tmux: kill a pane, window, session or the server, or
//! respawn a live pane. Whatever holds the pane paneward runs in (the caller pane: that
//! pane, its window, its session, its server) is refused, with no override: ending it
//! would end paneward, or the person's shell it runs beside.
//!
//! The check and the ending are one tmux command list, so nothing can move the caller
//! pane in between: tmux runs one client's list without interleaving another client's
//! commands, and `if-shell -F` decides inside tmux from a condition built only from ids.
//!
//! The one exception is the person's own yes: where the client can ask the person
//! (`guard::consent`), a refused ending is put to them, and on their yes it runs once,
//! as one tmux command. An agent's `force` is not a yes and lifts nothing here.

use std::fmt;

use crate::call::error::ToolError;
use crate::guard::consent;
use crate::guard::gate::EndGate;
use crate::tmux::script::command_line;
use crate::tmux::{Command, PaneId, SessionId, WindowId};

/// What to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    KillPane(PaneId),
    KillWindow(WindowId),
    KillSession(SessionId),
    KillServer,
    /// `respawn-pane -k`: the pane's program is killed and started again.
    RespawnLivePane(PaneId),
}

impl Ending {
    /// The tmux format, evaluated with the caller pane as target, that is `1` when this
    /// ending would reach the caller pane. Only ids we parsed go into it.
    fn reaches_caller(self) -> String {
        match self {
            Self::KillPane(pane) | Self::RespawnLivePane(pane) => format!("#{{==:#{{pane_id}},{pane}}}"),
            Self::KillWindow(window) => format!("#{{==:#{{window_id}},{window}}}"),
            Self::KillSession(session) => format!("#{{==:#{{session_id}},{session}}}"),
            Self::KillServer => "1".into(),
        }
    }

    fn command(self) -> Command {
        match self {
            Self::KillPane(pane) => Command::new("kill-pane").arg("-t").arg(pane.to_string()),
            Self::KillWindow(window) => Command::new("kill-window").arg("-t").arg(window.to_string()),
            Self::KillSession(session) => Command::new("kill-session").arg("-t").arg(session.to_string()),
            Self::KillServer => Command::new("kill-server"),
            Self::RespawnLivePane(pane) => Command::new("respawn-pane").arg("-k").arg("-t").arg(pane.to_string()),
        }
    }

    fn what(self) -> String {
        match self {
            Self::KillPane(pane) => format!("pane {pane}"),
            Self::RespawnLivePane(pane) => format!("respawning live pane {pane}"),
            Self::KillWindow(window) => format!("window {window}"),
            Self::KillSession(session) => format!("session {session}"),
            Self::KillServer => "the tmux server".into(),
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what())
    }
}

/// The refusal for an ending that reaches the caller pane; `note` says whether the
/// person was asked.
fn refusal(ending: Ending, caller: PaneId, note: &str) -> ToolError {
    ToolError::blocked(format!(
        "refused: {} holds pane {caller}, the pane paneward itself runs in; paneward ends its own pane, window, session or server only with the person's yes, asked through an MCP client that supports elicitation (no option or force overrides this){note}; nothing was ended",
        ending.what()
    ))
}

/// The marker printed by the refusing branch; paneward's own constant, never caller text.
const REFUSED: &str = "paneward-end-refused";

impl EndGate<'_> {
    /// Ends `ending` unless it reaches the caller pane; if it does, and the client can
    /// ask the person, asks them, and ends it on their yes.
    ///
    /// # Errors
    /// A refusal naming what holds the caller pane (and whether the person was asked),
    /// or tmux's failure (a missing target is `NotFound`).
    pub async fn end(&self, ending: Ending) -> Result<(), ToolError> {
        let app = self.app();
        let tmux = app.backend.tmux();
        let Some(caller) = app.caller.as_ref() else {
            // paneward does not run inside tmux: nothing of it can be ended.
            tmux.run(ending.command()).await?;
            return Ok(());
        };
        // One list: tmux decides with the state the ending itself sees. The condition
        // is evaluated with the caller pane as target; if that pane is not on this
        // server (another server's pid, or no such pane: `-t` then falls back to another
        // pane, whose id differs) nothing of paneward's can be reached.
        let condition = format!(
            "#{{&&:#{{==:#{{pid}},{pid}}},#{{&&:#{{==:#{{pane_id}},{pane}}},{reaches}}}}}",
            pid = caller.server_pid,
            pane = caller.pane,
            reaches = ending.reaches_caller(),
        );
        let guard = Command::new("if-shell")
            .arg("-F")
            .arg("-t")
            .arg(caller.pane.to_string())
            .arg(condition)
            .arg(format!("display-message -p {REFUSED}"))
            .arg(command_line(&[ending.command()]));
        let decided = tmux.run(guard).await?;
        if String::from_utf8_lossy(&decided).trim() != REFUSED {
            return Ok(());
        }
        let question = consent::end_question(ending, caller.pane);
        match consent::ask(self.context(), question).await {
            Ok(_consent) => {
                tracing::info!(target: crate::CLIENT_LOG_TARGET, %ending, "ending what holds the caller pane with the person's consent");
                tmux.run(ending.command()).await?;
                Ok(())
            }
            Err(no) => Err(refusal(ending, caller.pane, &no.note())),
        }
    }
}
