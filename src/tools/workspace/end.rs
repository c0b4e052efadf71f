//! Ending and restarting: `respawn_pane`, `clear_pane`, `clear_pane_scrollback`,
//! `kill_pane`, `kill_window`, `kill_session`, `kill_server`.
//!
//! `respawn_pane` and `clear_pane` are mutating tools whose tool files escalate one
//! argument to `destructive` (`kill: true`, `history: true`), so their handlers get the
//! `EndGate`; the request path has already refused those arguments on a server below
//! `destructive`, and without them these handlers send only what a mutating tool may
//! (a respawn without `-k`, which tmux refuses for a live pane; a screen reset).
//!
//! Every kill reads the server's panes before and after, so the reply says what went
//! with the object: panes, windows, sessions, and whether the server exited.

use crate::guard::GuardState;
use crate::tools::args::{is_variable_name, start_directory_of};
use std::collections::{BTreeSet, HashMap};

use crate::generated::types::{
    ClearPaneInput, ClearPaneOutput, ClearPaneScrollbackInput, ClearPaneScrollbackOutput, KillPaneInput,
    KillPaneOutput, KillServerInput, KillServerOutput, KillSessionInput, KillSessionOutput, KillWindowInput,
    KillWindowOutput, RespawnPaneInput, RespawnPaneInputCommandItem, RespawnPaneInputEnvironmentValue,
    RespawnPaneInputShell, RespawnPaneInputStartDirectory, RespawnPaneOutput, RespawnPaneOutputPrevious,
};
use crate::guard::end::Ending;
use crate::guard::respawn::Respawn;
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb, EndGate, ReadGate};
use crate::limits::LISTED_MAX_ITEMS;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::{parse_one, parse_records, record_format};
use crate::tmux::{PaneId, ReadCommand, ReadVerb};
use crate::tools::args;

/// What a kill took with it.
struct Closed {
    panes: Vec<String>,
    windows: Vec<String>,
    sessions: Vec<String>,
    server_exited: bool,
}

/// How tmux 3.3a's `list-panes -a` fails on a server without sessions.
const NO_SESSION: &str = "no current target";

/// Every pane of the server with its window and session.
const TREE_FIELDS: [&str; 3] = ["pane_id", "window_id", "session_id"];

#[derive(Default)]
struct Tree {
    panes: BTreeSet<String>,
    windows: BTreeSet<String>,
    sessions: BTreeSet<String>,
}

impl Tree {
    fn holds(&self, id: &str) -> bool {
        self.panes.contains(id) || self.windows.contains(id) || self.sessions.contains(id)
    }
}

/// Reads the tree, or `None` when no server answers (it exited).
async fn read_tree(gate: &ReadGate<'_>) -> Result<Option<Tree>, ToolError> {
    let command = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-a")
        .arg("-F")
        .arg(record_format(&TREE_FIELDS));
    let output = match gate.run(command).await {
        Ok(output) => output,
        // `list-panes -a` on a server with no session left (one that is about to exit)
        // fails this way, through a one-shot client that reaches it in time.
        Err(error) if error.to_string().ends_with(NO_SESSION) => return Ok(Some(Tree::default())),
        Err(error) => {
            let error = ToolError::from(error);
            if error.kind() == ToolErrorKind::TmuxUnavailable {
                return Ok(None);
            }
            return Err(error);
        }
    };
    let text = String::from_utf8_lossy(&output);
    let mut tree = Tree::default();
    for record in parse_records("list-panes", &TREE_FIELDS, &text)? {
        tree.panes.insert(record.text("pane_id")?.to_string());
        tree.windows.insert(record.text("window_id")?.to_string());
        tree.sessions.insert(record.text("session_id")?.to_string());
    }
    Ok(Some(tree))
}

/// The tree after a kill, `None` when the server exited or is exiting. A connection
/// open while the server exits can fail with a reset rather than "no server"; one more
/// read tells the two apart. A server left with no session exits unless `exit-empty`
/// is off, so an empty tree counts as an exit unless the server says it stays.
async fn read_after(gate: &ReadGate<'_>) -> Result<Option<Tree>, ToolError> {
    let tree = match read_tree(gate).await {
        Ok(tree) => tree,
        Err(first) => match read_tree(gate).await {
            Ok(tree) => tree,
            Err(_) => return Err(first),
        },
    };
    match tree {
        Some(tree) if tree.sessions.is_empty() && !stays_empty(gate).await => Ok(None),
        tree => Ok(tree),
    }
}

/// Whether a server with no session stays (`exit-empty` off); a server that no longer
/// answers does not.
async fn stays_empty(gate: &ReadGate<'_>) -> bool {
    let command = ReadCommand::new(ReadVerb::ShowOptions).arg("-sv").arg("exit-empty");
    gate.run(command)
        .await
        .is_ok_and(|output| String::from_utf8_lossy(&output).trim() == "off")
}

/// The ids of `before` missing from `after`, at most [`LISTED_MAX_ITEMS`].
fn gone(before: &BTreeSet<String>, after: Option<&BTreeSet<String>>) -> Vec<String> {
    before
        .iter()
        .filter(|id| after.is_none_or(|after| !after.contains(*id)))
        .take(LISTED_MAX_ITEMS)
        .cloned()
        .collect()
}

/// Ends `ending` (named `target`, an id) and says what went with it.
async fn kill(gate: &EndGate<'_>, ending: Ending, target: Option<&str>) -> Result<Closed, ToolError> {
    let before = read_tree(gate).await?.ok_or_else(|| {
        ToolError::new(
            ToolErrorKind::TmuxUnavailable,
            "no tmux server runs on this socket; nothing was killed",
        )
    })?;
    if let Some(target) = target.filter(|target| !before.holds(target)) {
        return Err(ToolError::new(
            ToolErrorKind::NotFound,
            format!(
                "{target} does not exist; list panes (or windows, sessions) again for current ids; nothing was killed"
            ),
        ));
    }
    let killing_server = ending == Ending::KillServer;
    let ended = gate.end(&ending).await;
    let after = match (&ended, killing_server) {
        // kill-server ends the server by definition.
        (Ok(()), true) => None,
        // The server may exit before it answers: unreadable afterwards means gone.
        (Err(_), true) => read_after(gate).await.unwrap_or(None),
        _ => read_after(gate).await?,
    };
    match ended {
        Ok(()) => {}
        // The server may exit before it answers the kill that ends it.
        Err(_) if after.is_none() => {}
        Err(error) => return Err(error),
    }
    Ok(Closed {
        panes: gone(&before.panes, after.as_ref().map(|t| &t.panes)),
        windows: gone(&before.windows, after.as_ref().map(|t| &t.windows)),
        sessions: gone(&before.sessions, after.as_ref().map(|t| &t.sessions)),
        server_exited: after.is_none(),
    })
}

/// Kills a pane; the caller's is refused.
///
/// # Errors
/// A missing pane, the caller pane, or tmux failing.
pub async fn kill_pane(gate: &EndGate<'_>, input: KillPaneInput) -> Result<KillPaneOutput, ToolError> {
    let KillPaneInput { pane_id } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let closed = kill(gate, Ending::KillPane(pane), Some(&pane.to_string())).await?;
    Ok(KillPaneOutput {
        killed: pane.to_string(),
        panes_closed: closed.panes,
        windows_closed: closed.windows,
        sessions_closed: closed.sessions,
        server_exited: closed.server_exited,
    })
}

/// Kills a window; the caller's is refused.
///
/// # Errors
/// A missing window, the caller's window, or tmux failing.
pub async fn kill_window(gate: &EndGate<'_>, input: KillWindowInput) -> Result<KillWindowOutput, ToolError> {
    let KillWindowInput { window_id } = input;
    let window = args::window_id("/window_id", &window_id)?;
    let closed = kill(gate, Ending::KillWindow(window), Some(&window.to_string())).await?;
    Ok(KillWindowOutput {
        killed: window.to_string(),
        panes_closed: closed.panes,
        windows_closed: closed.windows,
        sessions_closed: closed.sessions,
        server_exited: closed.server_exited,
    })
}

/// Kills a session; the caller's is refused.
///
/// # Errors
/// A missing session, the caller's session, or tmux failing.
pub async fn kill_session(gate: &EndGate<'_>, input: KillSessionInput) -> Result<KillSessionOutput, ToolError> {
    let KillSessionInput { session_id } = input;
    let session = args::session_id("/session_id", &session_id)?;
    let closed = kill(gate, Ending::KillSession(session), Some(&session.to_string())).await?;
    Ok(KillSessionOutput {
        killed: session.to_string(),
        panes_closed: closed.panes,
        windows_closed: closed.windows,
        sessions_closed: closed.sessions,
        server_exited: closed.server_exited,
    })
}

/// Kills the server; refused when paneward runs inside it.
///
/// # Errors
/// `confirm` not true, the caller's server, or tmux failing.
pub async fn kill_server(gate: &EndGate<'_>, input: KillServerInput) -> Result<KillServerOutput, ToolError> {
    let KillServerInput { confirm } = input;
    if !confirm {
        return Err(ToolError::invalid_argument(
            "/confirm",
            "must be true to kill the server",
        ));
    }
    let closed = kill(gate, Ending::KillServer, None).await?;
    Ok(KillServerOutput {
        panes_closed: closed.panes,
        windows_closed: closed.windows,
        sessions_closed: closed.sessions,
        server_exited: closed.server_exited,
    })
}

/// What `respawn_pane` and `clear_pane` read about a pane.
const PANE_STATE: [&str; 6] = [
    "pane_id",
    "pane_dead",
    "pane_pid",
    "pane_current_command",
    "pane_height",
    "history_size",
];

struct PaneState {
    dead: bool,
    pid: i64,
    command: String,
    height: i64,
    history: i64,
}

fn read_state(pane: PaneId) -> ReadCommand {
    ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
        .arg(record_format(&PANE_STATE))
}

async fn pane_state(gate: &ReadGate<'_>, pane: PaneId) -> Result<PaneState, ToolError> {
    let output = gate.run(read_state(pane)).await?;
    let text = String::from_utf8_lossy(&output);
    let record = parse_one("display-message", &PANE_STATE, &text)?;
    // display-message prints with no pane at all when the target is missing.
    if record.text("pane_id")? != pane.to_string() {
        return Err(ToolError::new(
            ToolErrorKind::NotFound,
            format!("pane {pane} does not exist; list panes again for current ids; nothing changed"),
        ));
    }
    Ok(PaneState {
        dead: record.flag("pane_dead")?,
        pid: record.int("pane_pid")?,
        command: record.text("pane_current_command")?.to_string(),
        height: record.int("pane_height")?,
        history: record.int("history_size")?,
    })
}

/// The respawn the arguments ask for.
fn respawn_of(
    state: &GuardState,
    pane: PaneId,
    command: Vec<RespawnPaneInputCommandItem>,
    shell: Option<RespawnPaneInputShell>,
    start_directory: Option<RespawnPaneInputStartDirectory>,
    environment: HashMap<String, RespawnPaneInputEnvironmentValue>,
) -> Result<Respawn, ToolError> {
    let mut respawn = Respawn::new(pane);
    match (command.is_empty(), shell) {
        (false, Some(_)) => {
            return Err(ToolError::invalid_argument(
                "/shell",
                "give either command (run without a shell) or shell, not both",
            ))
        }
        (false, None) => {
            respawn = respawn.program(command.into_iter().map(|word| word.to_string()).collect());
        }
        (true, Some(line)) => respawn = respawn.shell(line.to_string()),
        (true, None) => {}
    }
    if let Some(directory) = start_directory {
        let directory = start_directory_of(state, directory.as_str())?;
        respawn = respawn.start_directory(&directory);
    }
    let mut variables: Vec<_> = environment.into_iter().collect();
    variables.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, value) in variables {
        if !is_variable_name(&name) {
            let shown: String = name.chars().take(crate::limits::VARIABLE_NAME_MAX_CHARS).collect();
            return Err(ToolError::invalid_argument(
                &format!("/environment/{}", paneward_contract::pointer_token(&shown)),
                "a variable name must match ^[A-Za-z_][A-Za-z0-9_]*$",
            ));
        }
        respawn = respawn.variable(name, value.to_string());
    }
    Ok(respawn)
}

/// Respawns a dead pane, or with `kill` (destructive tier) a live one.
///
/// # Errors
/// Bad arguments, a missing pane, a live pane without `kill`, the caller pane, or tmux
/// failing.
pub async fn respawn_pane(gate: &EndGate<'_>, input: RespawnPaneInput) -> Result<RespawnPaneOutput, ToolError> {
    let RespawnPaneInput {
        pane_id,
        kill,
        command,
        shell,
        start_directory,
        environment,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let respawn = respawn_of(gate.state(), pane, command, shell, start_directory, environment)?;
    let before = pane_state(gate, pane).await?;
    if kill {
        gate.end(&Ending::RespawnLivePane(respawn)).await?;
    } else {
        if !before.dead {
            return Err(ToolError::new(
                ToolErrorKind::Refused,
                format!(
                    "pane {pane} is live (running {}); respawning it would end that program: pass kill: true (destructive tier); nothing changed",
                    crate::runtime::error::echo(&before.command)
                ),
            ));
        }
        // tmux refuses a pane that came alive meanwhile ("still active").
        gate.change_all(&[ChangeGate::respawn_dead(&respawn)]).await?;
    }
    let pid = match pane_state(gate, pane).await {
        Ok(after) => Some(after.pid),
        // A command that exits at once takes a pane without remain-on-exit with it.
        Err(error) if error.kind() == ToolErrorKind::NotFound => None,
        Err(error) => return Err(error),
    };
    Ok(RespawnPaneOutput {
        pane_id: pane.to_string(),
        previous: RespawnPaneOutputPrevious {
            command: before.command,
            pid: before.pid,
            dead: before.dead,
        },
        pid,
    })
}

/// Resets a pane's screen, and with `history` (destructive tier) clears its scrollback.
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn clear_pane(gate: &EndGate<'_>, input: ClearPaneInput) -> Result<ClearPaneOutput, ToolError> {
    let ClearPaneInput { pane_id, history } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let before = pane_state(gate, pane).await?;
    let mut commands = vec![ChangeGate::reset_screen(pane)];
    if history {
        commands.push(
            ChangeCommand::new(ChangeVerb::ClearHistory)
                .arg("-t")
                .arg(pane.to_string()),
        );
    }
    gate.change_all(&commands).await?;
    Ok(ClearPaneOutput {
        pane_id: pane.to_string(),
        screen_lines_cleared: before.height,
        history_lines_cleared: if history { before.history } else { 0 },
    })
}

/// Discards a pane's scrollback and leaves its screen as it is (`clear-history` alone).
///
/// # Errors
/// A missing pane, or tmux failing.
pub async fn clear_pane_scrollback(
    gate: &EndGate<'_>,
    input: ClearPaneScrollbackInput,
) -> Result<ClearPaneScrollbackOutput, ToolError> {
    let ClearPaneScrollbackInput { pane_id } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let before = pane_state(gate, pane).await?;
    gate.change_all(&[ChangeCommand::new(ChangeVerb::ClearHistory)
        .arg("-t")
        .arg(pane.to_string())])
        .await?;
    Ok(ClearPaneScrollbackOutput {
        pane_id: pane.to_string(),
        history_lines_cleared: u64::try_from(before.history).unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variable_names_follow_the_posix_rule() {
        for good in ["A", "_x", "PATH_2"] {
            assert!(is_variable_name(good), "{good}");
        }
        for bad in ["", "2A", "A-B", "A=B", "Ä"] {
            assert!(!is_variable_name(bad), "{bad}");
        }
    }
}
