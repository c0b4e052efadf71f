//! `create_session`, `create_window`, `split_window`: making what an agent works in.
//!
//! - **Data, not formats.** tmux expands formats in session and window names and in
//!   start directories, where `#(…)` runs a shell command; they travel through
//!   [`literal`]. A start directory must exist (tmux silently starts elsewhere).
//! - **No shell unless asked.** tmux runs a command of one word through `sh -c` and one
//!   of two or more words with `execvp`, so a one-word `command` is started through
//!   `env`, which executes it directly. `shell` is the one way to ask for a shell.
//! - **Nobody's view changes.** Sessions are created detached, windows and panes with
//!   `-d` unless the caller asks to select them.
//! - **Marked in the same step.** Everything created carries its ownership mark
//!   (`guard::owner`), set in the command list that creates it. tmux gives a new object
//!   no id before it exists and updates the list's current target only for an object
//!   that takes focus, so the list names it by a place paneward chose: a session by a
//!   random name (renamed to the caller's, if any, at the end of the list), a window by
//!   a free index, a new pane by its position beside the pane split, checked inside
//!   tmux to be unchanged since paneward read it.

mod split;
mod window;

use std::collections::HashMap;

use crate::generated::types::{CreateSessionInput, CreateSessionOutput};
use crate::guard::owner::OwnedMark;
use crate::guard::GuardState;
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb};
use crate::limits::SPAWN_TEXT_MAX_BYTES;
use crate::runtime::error::echo;
use crate::runtime::error::ToolError;
use crate::tmux::command::argv_without_shell;
use crate::tmux::format::{literal, parse_one, parse_records, record_format};
use crate::tmux::script::random_hex128;
use crate::tmux::{ErrorKind, ReadCommand, ReadVerb, TmuxError};
use crate::tools::args::{self, is_variable_name, start_directory_of};
use crate::tools::run::ready;
use crate::tools::workspace::rename::{check_name, stored_as_written, stored_session_name};
use crate::tools::workspace::scrollback;

pub use split::split_window;
pub use window::{create_window, create_window_placed, Placement};

/// What `create_session` reads of the new session (its window and pane are the first).
const NEW_SESSION: [&str; 7] = [
    "session_id",
    "window_id",
    "pane_id",
    "window_width",
    "window_height",
    "window_name",
    "history_limit",
];
/// What `create_window` reads of the new window.
const NEW_WINDOW: [&str; 7] = [
    "window_id",
    "window_index",
    "window_name",
    "pane_id",
    "window_width",
    "window_height",
    "history_limit",
];
/// What `split_window` reads of the new pane.
const NEW_PANE: [&str; 5] = ["pane_id", "window_id", "pane_width", "pane_height", "history_limit"];
/// Where the pane to split sits, and the session tmux splits it in (whose
/// `history-limit` the new pane takes).
const PLACE: [&str; 5] = ["pane_id", "window_id", "pane_index", "window_zoomed_flag", "session_id"];
/// What a session sized with `history_limit` holds until its real window replaces it:
/// a program that waits on its terminal and does nothing (never the person's shell).
const PLACEHOLDER: &str = "cat";
const SESSION_NAMES: [&str; 2] = ["session_id", "session_name"];

/// What a new pane starts with: its directory, environment and command words.
struct Spawn {
    directory: Option<String>,
    environment: Vec<(String, String)>,
    words: Vec<String>,
    /// The words are one shell line, which tmux runs with `sh -c`.
    shell: bool,
}

impl Spawn {
    /// Whether a create tool waits for the new pane's prompt: as asked, or by default
    /// when the pane runs the default command (a login shell), the pane an agent types
    /// into next; a caller's command or shell line draws no prompt to wait for.
    fn waits_ready(&self, asked: Option<bool>) -> bool {
        asked.unwrap_or(self.words.is_empty())
    }
}

impl Spawn {
    /// Checks the caller's start options, the fields all three create tools' inputs
    /// share (each input types its directory and shell text as its own string type);
    /// nothing reaches tmux before they pass.
    ///
    /// # Errors
    /// A start directory `start_directory_of` refuses, `command` with `shell`, an
    /// empty program, a NUL, a malformed variable name, or too much text in all.
    fn new(
        state: &GuardState,
        start_directory: Option<impl Into<String>>,
        command: Vec<String>,
        shell: Option<impl Into<String>>,
        environment: HashMap<String, String>,
    ) -> Result<Self, ToolError> {
        let directory = start_directory
            .map(|d| start_directory_of(state, &d.into()))
            .transpose()?;
        let asked_shell = shell.is_some();
        let words = match (command.is_empty(), shell.map(Into::into)) {
            (false, Some(_)) => {
                return Err(ToolError::invalid_argument(
                    "/shell",
                    "give command (run without a shell) or shell, not both",
                ))
            }
            (true, Some(line)) => {
                if line.contains('\0') {
                    return Err(ToolError::invalid_argument("/shell", "must not contain NUL"));
                }
                vec![line]
            }
            (_, None) => command,
        };
        for (index, word) in words.iter().enumerate() {
            if word.contains('\0') {
                return Err(ToolError::invalid_argument(
                    &format!("/command/{index}"),
                    "must not contain NUL",
                ));
            }
        }
        if words.first().is_some_and(String::is_empty) {
            return Err(ToolError::invalid_argument(
                "/command/0",
                "the program must not be empty",
            ));
        }
        let mut environment: Vec<(String, String)> = environment.into_iter().collect();
        environment.sort();
        for (name, value) in &environment {
            if !is_variable_name(name) {
                return Err(ToolError::invalid_argument(
                    "/environment",
                    format!("{} is not a variable name ([A-Za-z_][A-Za-z0-9_]*)", echo(name)),
                ));
            }
            if value.contains('\0') {
                // The value is never repeated, not even here.
                return Err(ToolError::invalid_argument(
                    &format!("/environment/{name}"),
                    "must not contain NUL",
                ));
            }
        }
        let total: usize = words.iter().map(String::len).sum::<usize>()
            + environment.iter().map(|(n, v)| n.len() + v.len() + 1).sum::<usize>();
        if total > SPAWN_TEXT_MAX_BYTES {
            return Err(ToolError::invalid_argument(
                "",
                format!("command, shell and environment together must stay within {SPAWN_TEXT_MAX_BYTES} bytes"),
            ));
        }
        Ok(Self {
            directory,
            environment,
            words,
            shell: asked_shell,
        })
    }

    /// Appends `-c`, `-e` and the command words (after `--`) to a creating command.
    fn apply(&self, command: ChangeCommand) -> ChangeCommand {
        self.apply_words(self.apply_environment(self.apply_directory(command)))
    }

    /// Appends `-c DIRECTORY`, if any.
    fn apply_directory(&self, command: ChangeCommand) -> ChangeCommand {
        match &self.directory {
            Some(directory) => command.arg("-c").arg(literal(directory)),
            None => command,
        }
    }

    /// Appends `-e NAME=VALUE` for each variable.
    fn apply_environment(&self, mut command: ChangeCommand) -> ChangeCommand {
        for (name, value) in &self.environment {
            command = command.arg("-e").sensitive_arg(format!("{name}={value}"));
        }
        command
    }

    /// Appends the command words, after `--`.
    fn apply_words(&self, mut command: ChangeCommand) -> ChangeCommand {
        if self.words.is_empty() {
            return command;
        }
        command = command.arg("--");
        let words = if self.shell {
            self.words.clone()
        } else {
            argv_without_shell(self.words.clone())
        };
        for word in &words {
            // A command line may hold a secret as well as a variable may.
            command = command.sensitive_arg(word.as_str());
        }
        command
    }
}

/// Waits, when asked or by default ([`Spawn::waits_ready`]), until the new pane
/// `pane_id` is ready for input; returns the reply's `ready` and `notReadyReason`.
/// Everything is created by then, so later calls may start meanwhile.
///
/// # Errors
/// The new pane gone already, or tmux failing.
async fn waited_ready(
    gate: &ChangeGate<'_>,
    spawn: &Spawn,
    asked: Option<bool>,
    pane_id: &str,
) -> Result<(Option<bool>, Option<String>), ToolError> {
    if !spawn.waits_ready(asked) {
        return Ok((None, None));
    }
    gate.context().changes_done();
    let pane = args::pane_id("/paneId", pane_id)?;
    let bound = ready::ready_bound(gate);
    let readiness = ready::wait_until_ready(gate, pane, bound).await?;
    let (ready, reason) = ready::reported(&readiness, pane, bound);
    Ok((Some(ready), reason))
}

fn list_sessions() -> ReadCommand {
    ReadCommand::new(ReadVerb::ListSessions)
        .arg("-F")
        .arg(record_format(&SESSION_NAMES))
}

/// `(id, name)` of every session.
fn session_names(output: &[u8]) -> Result<Vec<(String, String)>, ToolError> {
    let text = String::from_utf8_lossy(output);
    let records = parse_records("list-sessions", &SESSION_NAMES, &text)?;
    Ok(records
        .iter()
        .map(|r| Ok((r.text("session_id")?.to_string(), r.text("session_name")?.to_string())))
        .collect::<Result<Vec<_>, TmuxError>>()?)
}

fn int(value: i64) -> Result<u32, ToolError> {
    u32::try_from(value).map_err(|_| ToolError::internal(format!("tmux printed {value} where a count belongs")))
}

/// Creates a detached session under a random name, marks it, its window and its pane,
/// and renames it to the caller's name (if any), all in one tmux step.
///
/// # Errors
/// Bad arguments, a duplicate name, or tmux failing.
pub async fn create_session(
    gate: &ChangeGate<'_>,
    input: CreateSessionInput,
) -> Result<CreateSessionOutput, ToolError> {
    let CreateSessionInput {
        name,
        window_name,
        start_directory,
        command,
        shell,
        environment,
        width,
        height,
        history_limit,
        wait_ready,
    } = input;
    let history_limit = scrollback::checked(history_limit)?;
    let name = name.map(|n| n.to_string());
    if let Some(name) = &name {
        check_name("/name", name)?;
    }
    let window_name = window_name.map(|n| n.to_string());
    if let Some(window_name) = &window_name {
        check_name("/window_name", window_name)?;
    }
    let spawn = Spawn::new(gate.state(), start_directory, command, shell, environment)?;

    if let Some(name) = &name {
        // tmux refuses a duplicate only when renaming, after the session exists under
        // its temporary name: refuse it here first, as tmux will store the name. No
        // server running means no session of that name, where paneward may start one.
        let stored = stored_session_name(name);
        let existing = match gate.run(list_sessions()).await {
            Ok(output) => session_names(&output)?,
            Err(error) if error.kind() == ErrorKind::ServerGone && gate.may_start_server() => Vec::new(),
            Err(error) => return Err(error.into()),
        };
        if existing.iter().any(|(_, n)| *n == stored) {
            return Err(duplicate(&stored));
        }
    }

    // Without a name the session keeps a short random one of paneward's (tmux refuses
    // it, before creating anything, in the unlikely case it is taken).
    let temporary = match name {
        Some(_) => format!("paneward-new-{}", random_hex128()),
        None => format!("paneward-{}", &random_hex128()[..8]),
    };
    // `=` matches the name exactly; the `:` makes it a session in a pane target.
    let handle = format!("={temporary}:");
    let (mut commands, created_at) = session_commands(
        &spawn,
        &temporary,
        window_name.as_deref(),
        (width, height),
        history_limit,
    );
    commands.extend([
        OwnedMark::Session.mark(&handle),
        OwnedMark::Window.mark(&handle),
        OwnedMark::Pane.mark(&handle),
    ]);
    if let Some(name) = &name {
        commands.push(
            ChangeCommand::new(ChangeVerb::RenameSession)
                .arg("-t")
                .arg(handle.as_str())
                .arg("--")
                .arg(literal(name)),
        );
    }
    commands.push(list_sessions().into());
    // No server running: nothing ran, so where paneward may start one, the same list
    // goes again in the process that starts it.
    let mut server_started = None;
    let outputs = match gate.change_all(&commands).await {
        Err(error) if error.kind() == ErrorKind::ServerGone && gate.may_start_server() => {
            server_started = Some(true);
            gate.change_all_starting_server(&commands).await
        }
        other => other,
    };
    let outputs = outputs.map_err(|error| {
        if error.is_duplicate_session() {
            ToolError::new(
                crate::runtime::error::ToolErrorKind::Refused,
                format!(
                    "another session took the name {} while paneward created this one; the new session is left named {temporary}, marked as paneward's: rename it with rename_session or end it with kill_session",
                    echo(&stored_session_name(name.as_deref().unwrap_or_default()))
                ),
            )
        } else {
            error.into()
        }
    })?;
    let created = String::from_utf8_lossy(outputs.get(created_at).map_or(&[][..], |o| o.as_slice())).into_owned();
    let record = parse_one("new-session", &NEW_SESSION, &created)?;
    let session_id = record.text("session_id")?.to_string();
    let sessions = session_names(outputs.last().map_or(&[][..], |o| o.as_slice()))?;
    let stored = sessions
        .into_iter()
        .find(|(id, _)| *id == session_id)
        .map(|(_, n)| n)
        .ok_or_else(|| ToolError::internal(format!("session {session_id} was created but is not listed")))?;
    if let Some(name) = &name {
        stored_as_written("session name", &stored_session_name(name), &stored)
            .map_err(|e| created_anyway(e, &session_id))?;
    }
    if let Some(window_name) = &window_name {
        stored_as_written("window name", window_name, record.text("window_name")?)
            .map_err(|e| created_anyway(e, &session_id))?;
    }
    let pane_id = record.text("pane_id")?.to_string();
    let (ready, not_ready_reason) = waited_ready(gate, &spawn, wait_ready, &pane_id).await?;
    Ok(CreateSessionOutput {
        session_id,
        name: stored,
        window_id: record.text("window_id")?.to_string(),
        pane_id,
        width: record.int("window_width")?,
        height: record.int("window_height")?,
        history_limit: record.int("history_limit")?,
        server_started,
        ready,
        not_ready_reason,
    })
}

/// The commands that make the session `temporary` with its window and pane, and the
/// position of the one that prints the new pane's record. With `history_limit`, the
/// first pane of a session takes its scrollback from the global option (the session
/// has no options of its own before it exists): the session starts with a placeholder
/// window, gets the limit, its real window replaces the placeholder at the same index
/// (`new-window -k` ends only that placeholder, made in this same list, and keeps the
/// session alive), and the limit is unset on the session again.
fn session_commands(
    spawn: &Spawn,
    temporary: &str,
    window_name: Option<&str>,
    (width, height): (Option<std::num::NonZeroU64>, Option<std::num::NonZeroU64>),
    history_limit: Option<u32>,
) -> (Vec<ChangeCommand>, usize) {
    let handle = format!("={temporary}:");
    let mut session = ChangeCommand::new(ChangeVerb::NewSession)
        .arg("-d")
        .arg("-s")
        .arg(temporary);
    if let Some(width) = width {
        session = session.arg("-x").arg(width.to_string());
    }
    if let Some(height) = height {
        session = session.arg("-y").arg(height.to_string());
    }
    // -e of new-session sets the session's environment, which its panes inherit; -c
    // its directory, which later windows start in too.
    session = spawn.apply_environment(spawn.apply_directory(session));
    let with_window = |command: ChangeCommand| {
        let command = match window_name {
            Some(name) => command.arg("-n").arg(literal(name)),
            None => command,
        };
        command.arg("-P").arg("-F").arg(record_format(&NEW_SESSION))
    };
    match history_limit {
        None => (vec![spawn.apply_words(with_window(session))], 0),
        Some(lines) => {
            let placeholder = argv_without_shell(vec![PLACEHOLDER.to_string()])
                .into_iter()
                .fold(session.arg("--"), ChangeCommand::arg);
            let window = ChangeCommand::new(ChangeVerb::NewWindow)
                .arg("-k")
                .arg("-t")
                .arg(format!("={temporary}:^"));
            let window = spawn.apply_words(with_window(spawn.apply_directory(window)));
            let commands = vec![
                placeholder,
                scrollback::set(&handle, lines),
                window,
                scrollback::restore(&handle, None),
            ];
            (commands, 2)
        }
    }
}

/// A name check that failed after the object was made: the object stays, and says so.
fn created_anyway(error: ToolError, id: &str) -> ToolError {
    ToolError::new(
        error.kind(),
        format!(
            "{}; {id} was created all the same (marked as paneward's): rename it or end it",
            error.message()
        ),
    )
}

fn duplicate(stored: &str) -> ToolError {
    ToolError::invalid_argument(
        "/name",
        format!(
            "a session named {} exists already (tmux turns . and : into _); nothing was created",
            echo(stored)
        ),
    )
}
