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
//! as one tmux command. An agent's `force` is not a yes and lifts nothing here. The kill
//! tools ask only when the call says it means to end paneward's own place
//! (`confirm_self: true`, the libtmux family's argument); without it a kill of what holds
//! the caller pane is taken for a mistake and refused without bothering the person.

use std::fmt;

use crate::guard::consent;
use crate::guard::gate::EndGate;
use crate::guard::respawn::Respawn;
use crate::runtime::error::ToolError;
use crate::tmux::{Command, PaneId, ReadCommand, ReadVerb, SessionId, WindowId};

/// What to end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    KillPane(PaneId),
    KillWindow(WindowId),
    KillSession(SessionId),
    KillServer,
    /// `respawn-pane -k`: the pane's program is killed and started again.
    RespawnLivePane(Respawn),
}

impl Ending {
    /// The tmux format, evaluated with the caller pane as target, that is `1` when this
    /// ending would reach the caller pane. Only ids we parsed go into it.
    fn reaches_caller(&self) -> String {
        match self {
            Self::KillPane(pane) => format!("#{{==:#{{pane_id}},{pane}}}"),
            Self::RespawnLivePane(respawn) => format!("#{{==:#{{pane_id}},{}}}", respawn.pane),
            Self::KillWindow(window) => format!("#{{==:#{{window_id}},{window}}}"),
            Self::KillSession(session) => format!("#{{==:#{{session_id}},{session}}}"),
            Self::KillServer => "1".into(),
        }
    }

    fn command(&self) -> Command {
        match self {
            Self::KillPane(pane) => Command::new("kill-pane").arg("-t").arg(pane.to_string()),
            Self::KillWindow(window) => Command::new("kill-window").arg("-t").arg(window.to_string()),
            Self::KillSession(session) => Command::new("kill-session").arg("-t").arg(session.to_string()),
            Self::KillServer => Command::new("kill-server"),
            Self::RespawnLivePane(respawn) => respawn.command(true),
        }
    }

    /// Whether the command carries a secret (an environment value).
    fn is_sensitive(&self) -> bool {
        matches!(self, Self::RespawnLivePane(respawn) if respawn.sets_variables())
    }

    fn what(&self) -> String {
        match self {
            Self::KillPane(pane) => format!("pane {pane}"),
            Self::RespawnLivePane(respawn) => format!("respawning live pane {}", respawn.pane),
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

/// The refusal for a kill that reaches the caller pane without `confirm_self`.
fn unconfirmed(ending: &Ending, caller: PaneId) -> ToolError {
    ToolError::blocked(format!(
        "refused: {} holds pane {caller}, the pane paneward itself runs in; pass confirm_self: true if you mean it, and the person is asked through an MCP client that supports elicitation (their yes is the only override); nothing was ended",
        ending.what()
    ))
}

/// The refusal for an ending that reaches the caller pane; `note` says whether the
/// person was asked.
fn refusal(ending: &Ending, caller: PaneId, note: &str) -> ToolError {
    ToolError::blocked(format!(
        "refused: {} holds pane {caller}, the pane paneward itself runs in; paneward ends its own pane, window, session or server only with the person's yes, asked through an MCP client that supports elicitation (no option or force overrides this){note}; nothing was ended",
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
    pub async fn first_reaching_caller<'e, T: Copy>(
        &self,
        endings: &'e [(T, Ending)],
    ) -> Result<Option<(T, &'e Ending)>, ToolError> {
        let Some(caller) = self.state().caller.as_ref() else {
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
        let here = match (pane.parse::<PaneId>(), pid.parse::<i64>()) {
            (Ok(pane), Ok(pid)) => caller.is(pane, pid),
            _ => false,
        };
        if !here {
            return Ok(None);
        }
        Ok(endings
            .iter()
            .map(|(label, ending)| (*label, ending))
            .find(|(_, ending)| match ending {
                Ending::KillPane(target) => target.to_string() == pane,
                Ending::RespawnLivePane(respawn) => respawn.pane.to_string() == pane,
                Ending::KillWindow(target) => target.to_string() == window,
                Ending::KillSession(target) => target.to_string() == session,
                Ending::KillServer => true,
            }))
    }

    /// Ends `ending` unless it reaches the caller pane; if it does, and the client can
    /// ask the person, asks them, and ends it on their yes.
    ///
    /// # Errors
    /// A refusal naming what holds the caller pane (and whether the person was asked),
    /// or tmux's failure (a missing target is `NotFound`).
    pub async fn end(&self, ending: &Ending) -> Result<(), ToolError> {
        self.end_unless_unconfirmed(ending, true).await
    }

    /// [`EndGate::end`] for a kill tool: what holds the caller pane is put to the person
    /// only with `confirm_self` (the call says it means it), and refused outright without.
    ///
    /// # Errors
    /// As [`EndGate::end`].
    pub async fn end_confirmed(&self, ending: &Ending, confirm_self: bool) -> Result<(), ToolError> {
        self.end_unless_unconfirmed(ending, confirm_self).await
    }

    async fn end_unless_unconfirmed(&self, ending: &Ending, may_ask: bool) -> Result<(), ToolError> {
        let state = self.state();
        let tmux = state.backend.tmux();
        let Some(caller) = state.caller.as_ref() else {
            // paneward does not run inside tmux: nothing of it can be ended.
            tmux.run(ending.command()).await?;
            return Ok(());
        };
        // One list: tmux decides with the state the ending itself sees.
        let guard = caller.guard(
            &ending.reaches_caller(),
            REFUSED,
            &[ending.command()],
            ending.is_sensitive(),
        );
        let decided = tmux.run(guard).await?;
        if String::from_utf8_lossy(&decided).trim() != REFUSED {
            return Ok(());
        }
        if !may_ask {
            return Err(unconfirmed(ending, caller.pane));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(command: &Command) -> Vec<String> {
        command.argv().map(str::to_string).collect()
    }

    #[test]
    fn only_a_live_respawn_kills_and_the_words_follow_a_double_dash() {
        let pane: PaneId = "%4".parse().unwrap();
        let respawn = Respawn::new(pane)
            .program(vec!["-x".into(), "a b".into()])
            .start_directory("/tmp/#{pane_id}")
            .variable("K".into(), "secret".into());
        assert_eq!(
            argv(&respawn.command(false)),
            [
                "respawn-pane",
                "-t",
                "%4",
                "-c",
                "/tmp/##{pane_id}",
                "-e",
                "K=secret",
                "--",
                "-x",
                "a b"
            ]
        );
        assert_eq!(argv(&respawn.command(true))[1], "-k");
        assert!(
            !respawn.command(true).summary().contains("secret"),
            "values are redacted"
        );
        assert!(Ending::RespawnLivePane(respawn).is_sensitive());
    }

    #[test]
    fn a_one_word_program_runs_without_a_shell() {
        let pane: PaneId = "%4".parse().unwrap();
        let respawn = Respawn::new(pane).program(vec!["it's; rm -rf ~".into()]);
        let words = argv(&respawn.command(false));
        assert_eq!(words[words.len() - 4..], ["--", "/usr/bin/env", "--", "it's; rm -rf ~"]);
        assert_eq!(argv(&Respawn::new(pane).command(false)), ["respawn-pane", "-t", "%4"]);
    }
}
