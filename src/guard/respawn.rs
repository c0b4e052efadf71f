//! What a respawned pane runs next, as one `respawn-pane` command: shared by the
//! mutating respawn of a dead pane (`ChangeGate::respawn_dead`) and the ending of a
//! live one (`Ending::RespawnLivePane`), so that the gate does not name the endings.

use crate::tmux::command::argv_without_shell;
use crate::tmux::{Command, PaneId};

/// A `respawn-pane`: what the pane runs next. Built here only, so that `-k` (which ends
/// a live program) is added by [`Ending::RespawnLivePane`](super::end::Ending::RespawnLivePane) alone; a mutating tool
/// respawns a dead pane with [`ChangeGate::respawn_dead`](super::ChangeGate::respawn_dead), which never adds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Respawn {
    pub pane: PaneId,
    /// The program and its arguments, run without a shell; empty replays the pane's
    /// original command. A single word would be run by tmux through `sh -c`, so
    /// [`Respawn::program`] runs it through `env` (`tmux::command::argv_without_shell`).
    argv: Vec<String>,
    /// A start directory, as data: `#` is doubled so tmux's format expansion gives it
    /// back unchanged.
    start_directory: Option<String>,
    /// `NAME=value` pairs; the values are secrets and never reach a log or an error.
    environment: Vec<(String, String)>,
}

impl Respawn {
    /// Respawns `pane` with its original command, in its current directory.
    pub fn new(pane: PaneId) -> Self {
        Self {
            pane,
            argv: Vec::new(),
            start_directory: None,
            environment: Vec::new(),
        }
    }

    /// Runs `argv` (program and arguments) without a shell.
    #[must_use]
    pub fn program(mut self, argv: Vec<String>) -> Self {
        self.argv = argv_without_shell(argv);
        self
    }

    /// Runs `line` with `sh -c` (the caller asked for a shell).
    #[must_use]
    pub fn shell(mut self, line: String) -> Self {
        self.argv = vec![line];
        self
    }

    /// Starts in `directory` (taken as data).
    #[must_use]
    pub fn start_directory(mut self, directory: &str) -> Self {
        self.start_directory = Some(directory.replace('#', "##"));
        self
    }

    /// Sets `name` (already checked) to `value` in the new program's environment.
    #[must_use]
    pub fn variable(mut self, name: String, value: String) -> Self {
        self.environment.push((name, value));
        self
    }

    /// Whether the new program gets variables (secrets: never logged).
    pub(super) fn sets_variables(&self) -> bool {
        !self.environment.is_empty()
    }

    /// The `respawn-pane` command, with `-k` only when `kill`.
    pub(super) fn command(&self, kill: bool) -> Command {
        let mut command = Command::new("respawn-pane");
        if kill {
            command = command.arg("-k");
        }
        command = command.arg("-t").arg(self.pane.to_string());
        if let Some(directory) = &self.start_directory {
            command = command.arg("-c").arg(directory.clone());
        }
        for (name, value) in &self.environment {
            command = command.arg("-e").sensitive_arg(format!("{name}={value}"));
        }
        if !self.argv.is_empty() {
            command = command.arg("--");
            for word in &self.argv {
                command = command.arg(word.clone());
            }
        }
        command
    }
}
