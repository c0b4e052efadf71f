//! The one way to end something in tmux: kill a pane, window, session or the server, or
//! respawn a live pane. Whatever holds the pane paneward runs in (the caller pane: that
//! pane, its window, its session, its server) is refused, with no override: ending it
//! would end paneward, or the person's shell it runs beside.
//!
//! The check and the ending are one tmux command list, so nothing can move the caller
//! pane in between: tmux runs one client's list without interleaving another client's
//! commands, and `if-shell -F` decides inside tmux from a condition built only from ids.

use std::fmt;

use crate::call::error::ToolError;
use crate::guard::gate::EndGate;
use crate::tmux::script::command_line;
use crate::tmux::{Command, PaneId, ReadCommand, ReadVerb, SessionId, WindowId};

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

/// The refusal for an ending that reaches the caller pane.
fn refusal(ending: Ending, caller: PaneId) -> ToolError {
    ToolError::blocked(format!(
        "refused: {} holds pane {caller}, the pane paneward itself runs in; paneward never ends its own pane, window, session or server (no option overrides this); nothing was ended",
        ending.what()
    ))
}

/// The marker printed by the refusing branch; paneward's own constant, never caller text.
const REFUSED: &str = "paneward-end-refused";

impl EndGate<'_> {
    /// The first of `endings` (each with a label of the caller's, such as a batch row)
    /// that would reach the caller pane as tmux stands now: a check made before
    /// several endings start, so that none runs when one would be refused. Each
    /// ending is still checked again, inside tmux, when [`EndGate::end`] runs it.
    ///
    /// # Errors
    /// tmux failed to answer.
    pub async fn first_reaching_caller<T: Copy>(
        &self,
        endings: &[(T, Ending)],
    ) -> Result<Option<(T, Ending)>, ToolError> {
        let Some(caller) = self.app().caller.as_ref() else {
            return Ok(None);
        };
        if endings.is_empty() {
            return Ok(None);
        }
        let read = ReadCommand::new(ReadVerb::DisplayMessage)
            .arg("-t")
            .arg(caller.pane.to_string())
            .arg("#{pid} #{pane_id} #{window_id} #{session_id}");
        // A caller pane that is gone from this server (or on another) holds nothing here.
        let Ok(answer) = self.run(read).await else {
            return Ok(None);
        };
        let answer = String::from_utf8_lossy(&answer);
        let fields: Vec<&str> = answer.split_whitespace().collect();
        let [pid, pane, window, session] = fields[..] else {
            return Ok(None);
        };
        if pid != caller.server_pid.to_string() || pane != caller.pane.to_string() {
            return Ok(None);
        }
        Ok(endings.iter().copied().find(|(_, ending)| match ending {
            Ending::KillPane(target) | Ending::RespawnLivePane(target) => target.to_string() == pane,
            Ending::KillWindow(target) => target.to_string() == window,
            Ending::KillSession(target) => target.to_string() == session,
            Ending::KillServer => true,
        }))
    }

    /// Ends `ending` unless it reaches the caller pane.
    ///
    /// # Errors
    /// A refusal naming what holds the caller pane, or tmux's failure (a missing target
    /// is `NotFound`).
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
        if String::from_utf8_lossy(&decided).trim() == REFUSED {
            return Err(refusal(ending, caller.pane));
        }
        Ok(())
    }
}
