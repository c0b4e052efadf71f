//! `set_option` and `set_environment`: writing settings that cannot become code.
//!
//! Hooks are options to tmux (`set-option pane-died 'run-shell …'` installs one), some
//! options hold a command tmux runs later (`default-command`, `command-alias`, …), and
//! a value that a format later shows is expanded on every redraw or timer: `#(…)` in it
//! runs a shell, and `#{E:…}`/`#{T:…}` expand a pane's title or directory a second
//! time (see `guard::expansion`). So `set_option` refuses hook names, those options
//! and such values, appended ones as joined to what is stored; paneward has no other
//! way to write a hook. `set_environment` never returns or logs the value, and
//! refuses the variables that steer every shell tmux starts later unless `force`.

use std::collections::HashMap;

use crate::generated::types::{
    SetEnvironmentInput, SetEnvironmentInputScope, SetEnvironmentOutput, SetEnvironmentOutputScope, SetOptionInput,
    SetOptionInputScope, SetOptionOutput, SetOptionOutputOptionScope, SetOptionOutputScope,
};
use crate::guard::expansion::runs_later;
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb};
use crate::limits::{LISTED_MAX_ITEMS, OPTION_NAME_MAX_CHARS};
use crate::runtime::error::ToolError;
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::args;
use crate::tools::settings::show_environment::parse_shell_form;
use crate::tools::settings::show_option::{
    is_setting_name, level, listing_command, Level, Listing, Scope, Source, Table, Value,
};

/// Options whose value is a command tmux runs later (tmux 3.3a): the shell and command
/// of new panes, command aliases, the lock command, the copy-pipe default command and
/// the editor tmux starts.
const COMMAND_OPTIONS: [&str; 6] = [
    "default-command",
    "default-shell",
    "command-alias",
    "lock-command",
    "copy-command",
    "editor",
];

/// Options that end sessions or the server when set (`destroy-unattached` kills every
/// unattached session, `exit-unattached` the server once no client is attached): ending
/// is the destructive tier's, through the caller check of `guard::end`, never an option.
const ENDING_OPTIONS: [&str; 2] = ["destroy-unattached", "exit-unattached"];

/// Variables that steer the shells and programs tmux starts later: start-up files,
/// prompts, the search path and the dynamic loader.
const STEERING_VARIABLES: [&str; 23] = [
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "PS0",
    "PS1",
    "ZDOTDIR",
    "PATH",
    "SHELL",
    "IFS",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "LD_AUDIT",
    "DYLD_INSERT_LIBRARIES",
    "PYTHONSTARTUP",
    "PERL5OPT",
    "NODE_OPTIONS",
    "PYTHONPATH",
    "PERL5LIB",
    "RUBYOPT",
    "GCONV_PATH",
    "EDITOR",
    "VISUAL",
    "PAGER",
];

impl From<SetOptionInputScope> for Scope {
    fn from(scope: SetOptionInputScope) -> Self {
        match scope {
            SetOptionInputScope::Global => Self::Global,
            SetOptionInputScope::Server => Self::Server,
            SetOptionInputScope::Session => Self::Session,
            SetOptionInputScope::Window => Self::Window,
            SetOptionInputScope::Pane => Self::Pane,
        }
    }
}

/// The listing that holds the option at the level asked, for this table.
///
/// # Errors
/// The option lives where the scope cannot set it (named as `/scope`).
fn source_for(table: Table, level: &Level, name: &str) -> Result<Source, ToolError> {
    let wrong = |scope: &str, fits: &str| {
        ToolError::invalid_argument(
            "/scope",
            format!("{name} cannot be set at scope {scope}; use scope {fits}"),
        )
    };
    Ok(match (level, table) {
        (Level::Global, Table::Server) | (Level::Server, Table::Server | Table::User) => Source::GlobalServer,
        (Level::Global, Table::Session | Table::User) => Source::GlobalSession,
        (Level::Global, Table::Window) => Source::GlobalWindow,
        (Level::Server, Table::Session) => return Err(wrong("server", "global or session")),
        (Level::Server, Table::Window) => return Err(wrong("server", "global, window or pane")),
        (Level::Session(_), Table::Session | Table::User) => Source::Session,
        (Level::Session(_), Table::Server) | (Level::Window(_) | Level::Pane(_), Table::Server) => {
            return Err(wrong("session, window or pane", "global or server"))
        }
        (Level::Session(_), Table::Window) => return Err(wrong("session", "global, window or pane")),
        (Level::Window(_), Table::Window | Table::User) => Source::Window,
        (Level::Window(_), Table::Session) | (Level::Pane(_), Table::Session) => {
            return Err(wrong("window or pane", "global or session"))
        }
        (Level::Pane(_), Table::Window | Table::User) => Source::Pane,
        (Level::Default(_), _) => return Err(ToolError::internal("set_option has no default scope")),
    })
}

/// The `set-option` flags for the level.
fn level_flags(level: &Level) -> Vec<String> {
    match level {
        Level::Global => vec!["-g".into()],
        Level::Server => vec!["-s".into()],
        Level::Session(id) => vec!["-t".into(), id.to_string()],
        Level::Window(id) => vec!["-w".into(), "-t".into(), id.to_string()],
        Level::Pane(id) => vec!["-p".into(), "-t".into(), id.to_string()],
        Level::Default(_) => Vec::new(),
    }
}

/// A value as the reply carries it: a scalar, or an array's items.
fn split_value(value: Option<&Value>) -> (Option<String>, Option<Vec<String>>) {
    match value {
        Some(Value::Scalar(text)) => (Some(text.clone()), None),
        Some(Value::Array(items)) => (
            None,
            Some(
                items
                    .iter()
                    .take(LISTED_MAX_ITEMS)
                    .map(|(_, text)| text.clone())
                    .collect(),
            ),
        ),
        None => (None, None),
    }
}

/// Checks what `set_option` refuses before anything reaches tmux.
///
/// # Errors
/// A malformed or command-valued name, a value a format could run, or a value missing
/// or superfluous for `unset`/`append`.
fn check_option_request(name: &str, value: Option<&str>, unset: bool, append: bool) -> Result<(), ToolError> {
    if !is_setting_name(name, true) {
        return Err(ToolError::invalid_argument(
            "/name",
            format!(
                "must be an exact option name such as status-style or @my-option (at most {OPTION_NAME_MAX_CHARS} characters)"
            ),
        ));
    }
    if name.starts_with("after-") {
        return Err(hook_refusal(name));
    }
    if crate::guard::owner::is_paneward_option(name) {
        // The ownership marks: one set by a call would make the person's objects
        // read as paneward's under --scope owned.
        return Err(ToolError::invalid_argument(
            "/name",
            format!(
                "{name} is paneward's own option (names starting {} mark what paneward created); paneward sets these only when it creates an object, at any level, so nothing changed",
                crate::guard::owner::MARK_PREFIX
            ),
        ));
    }
    if COMMAND_OPTIONS.contains(&name) {
        return Err(ToolError::invalid_argument(
            "/name",
            format!(
                "{name} holds a command tmux runs later; paneward does not set it (set it in the tmux configuration)"
            ),
        ));
    }
    if ENDING_OPTIONS.contains(&name) {
        return Err(ToolError::invalid_argument(
            "/name",
            format!("{name} ends sessions or the server when set; paneward does not set it (ending anything is kill_session's and kill_server's)"),
        ));
    }
    match (value, unset, append) {
        (Some(_), true, _) => return Err(ToolError::invalid_argument("/value", "must be omitted with unset")),
        (None, false, _) => {
            return Err(ToolError::invalid_argument(
                "/value",
                "is required unless unset is true",
            ))
        }
        (_, true, true) => return Err(ToolError::invalid_argument("/append", "cannot be combined with unset")),
        _ => {}
    }
    if let Some((runs, after_time)) = value.and_then(runs_later) {
        return Err(ToolError::invalid_argument("/value", runs.rule(after_time)));
    }
    Ok(())
}

/// Appended text joins the value stored at the level (tmux keeps no separator that
/// could part them): checks each stored text with `value` after it, so a `(` after a
/// stored `#`, or `E:` after a stored `#{`, is refused like the whole would be.
///
/// # Errors
/// A joined text a format would run.
fn check_appended(stored: Option<&Value>, value: &str) -> Result<(), ToolError> {
    let stored: Vec<&str> = match stored {
        Some(Value::Scalar(text)) => vec![text.as_str()],
        Some(Value::Array(items)) => items.iter().map(|(_, text)| text.as_str()).collect(),
        None => Vec::new(),
    };
    for text in stored {
        if let Some((runs, after_time)) = runs_later(&format!("{text}{value}")) {
            return Err(ToolError::invalid_argument(
                "/value",
                format!(
                    "appending to the stored value {text:?} is refused, since the joined text {}",
                    runs.rule(after_time)
                ),
            ));
        }
    }
    Ok(())
}

fn hook_refusal(name: &str) -> ToolError {
    ToolError::invalid_argument(
        "/name",
        format!("{name} is a hook: its value is a command tmux runs on an event, which outlives paneward; paneward writes no hooks (set them in the tmux configuration)"),
    )
}

/// `set_option`'s checks that need no tmux, on a call's input: a write batch makes them
/// on each `set_option` row before any row runs.
///
/// # Errors
/// As `check_option_request`.
pub fn check_set_option(input: &SetOptionInput) -> Result<(), ToolError> {
    check_option_request(
        &input.name,
        input.value.as_ref().map(|v| v.as_str()),
        input.unset.unwrap_or(false),
        input.append.unwrap_or(false),
    )
}

/// Sets, appends to or unsets one option at an explicit level and reads it back.
///
/// # Errors
/// A refused name or value, a scope that does not fit the option, or tmux failing.
pub async fn set_option(gate: &ChangeGate<'_>, input: SetOptionInput) -> Result<SetOptionOutput, ToolError> {
    let SetOptionInput {
        name,
        value,
        scope,
        target,
        unset,
        append,
    } = input;
    let name = name.to_string();
    let target = target.map(|t| t.to_string());
    let (unset, append) = (unset.unwrap_or(false), append.unwrap_or(false));
    check_option_request(&name, value.as_ref().map(|v| v.as_str()), unset, append)?;
    let scope_asked = Scope::from(scope);
    let level = level(scope_asked, target.as_deref())?;

    // Which table the option is in, whether it is a hook, and its value before.
    let globals = [Source::GlobalServer, Source::GlobalSession, Source::GlobalWindow];
    let mut reads: Vec<ReadCommand> = globals
        .iter()
        .map(|s| listing_command(ReadVerb::ShowOptions, *s, &Level::Global))
        .collect();
    reads.push(ReadCommand::new(ReadVerb::ShowHooks).arg("-g"));
    reads.push(ReadCommand::new(ReadVerb::ShowHooks).arg("-gw"));
    let outputs = gate.run_all(&reads).await?;
    let listings: Vec<Listing> = outputs
        .iter()
        .map(|output| Listing::parse(&String::from_utf8_lossy(output), false))
        .collect();
    let found = |index: usize| listings.get(index).and_then(|l| l.get(&name)).is_some();
    if found(3) || found(4) {
        return Err(hook_refusal(&name));
    }
    let table = Table::of(&name, |source| {
        globals.iter().position(|g| *g == source).is_some_and(found)
    })?;
    let source = source_for(table, &level, &name)?;
    let read_level = listing_command(ReadVerb::ShowOptions, source, &level);
    if let (true, Some(value)) = (append, &value) {
        // Its own round trip: the joined text is checked before anything is sent.
        let outputs = gate.run_all(std::slice::from_ref(&read_level)).await?;
        let stored = outputs
            .first()
            .map(|output| Listing::parse(&String::from_utf8_lossy(output), false));
        check_appended(stored.as_ref().and_then(|l| l.get(&name)), value.as_str())?;
    }

    let mut set = ChangeCommand::new(ChangeVerb::SetOption);
    for flag in level_flags(&level) {
        set = set.arg(flag);
    }
    if unset {
        set = set.arg("-u");
    }
    if append {
        set = set.arg("-a");
    }
    set = set.arg("--").arg(name.as_str());
    if let Some(value) = &value {
        set = set.arg(value.as_str());
    }
    let outputs = gate
        .change_all(&[read_level.clone().into(), set, read_level.into()])
        .await?;
    let parsed: HashMap<usize, Listing> = outputs
        .iter()
        .enumerate()
        .map(|(index, output)| (index, Listing::parse(&String::from_utf8_lossy(output), false)))
        .collect();
    let value_at = |index: usize| parsed.get(&index).and_then(|l| l.get(&name));
    let (previous, previous_values) = split_value(value_at(0));
    let (value, values) = split_value(value_at(2));
    Ok(SetOptionOutput {
        name,
        scope: match scope {
            SetOptionInputScope::Global => SetOptionOutputScope::Global,
            SetOptionInputScope::Server => SetOptionOutputScope::Server,
            SetOptionInputScope::Session => SetOptionOutputScope::Session,
            SetOptionInputScope::Window => SetOptionOutputScope::Window,
            SetOptionInputScope::Pane => SetOptionOutputScope::Pane,
        },
        target,
        option_scope: match table {
            Table::Server => SetOptionOutputOptionScope::Server,
            Table::Session => SetOptionOutputOptionScope::Session,
            Table::Window => SetOptionOutputOptionScope::Window,
            Table::User => SetOptionOutputOptionScope::User,
        },
        value,
        values,
        previous,
        previous_values,
    })
}

/// Sets or unsets one variable of a session's or the global environment; the value is
/// never echoed.
///
/// # Errors
/// A steering variable without `force`, a missing or superfluous session or value, or
/// tmux failing.
pub async fn set_environment(
    gate: &ChangeGate<'_>,
    input: SetEnvironmentInput,
) -> Result<SetEnvironmentOutput, ToolError> {
    let SetEnvironmentInput {
        name,
        value,
        scope,
        session_id,
        unset,
        force,
    } = input;
    let name = name.to_string();
    let unset = unset.unwrap_or(false);
    let session = match (scope, session_id) {
        (SetEnvironmentInputScope::Session, Some(id)) => Some(args::session_id("/session_id", &id)?),
        (SetEnvironmentInputScope::Session, None) => {
            return Err(ToolError::invalid_argument(
                "/session_id",
                "scope session needs a session id such as $1",
            ))
        }
        (SetEnvironmentInputScope::Global, Some(_)) => {
            return Err(ToolError::invalid_argument(
                "/session_id",
                "scope global takes no session; omit it",
            ))
        }
        (SetEnvironmentInputScope::Global, None) => None,
    };
    match (&value, unset) {
        (Some(_), true) => return Err(ToolError::invalid_argument("/value", "must be omitted with unset")),
        (None, false) => {
            return Err(ToolError::invalid_argument(
                "/value",
                "is required unless unset is true",
            ))
        }
        _ => {}
    }
    let steering = STEERING_VARIABLES.contains(&name.as_str()) || name.starts_with("BASH_FUNC_");
    if steering && !unset && !force.unwrap_or(false) {
        return Err(ToolError::blocked(format!(
            "{name} steers every shell or program tmux starts later, including ones a person opens; setting it needs force: true; nothing changed"
        )));
    }
    let where_flags: Vec<String> = match session {
        Some(id) => vec!["-t".into(), id.to_string()],
        None => vec!["-g".into()],
    };
    let mut show = ReadCommand::new(ReadVerb::ShowEnvironment).arg("-s");
    let mut set = ChangeCommand::new(ChangeVerb::SetEnvironment);
    for flag in &where_flags {
        show = show.arg(flag.as_str());
        set = set.arg(flag.as_str());
    }
    if unset {
        set = set.arg("-u");
    }
    set = set.arg("--").arg(name.as_str());
    if let Some(value) = &value {
        set = set.sensitive_arg(value.as_str());
    }
    let outputs = gate.change_all(&[show.into(), set]).await?;
    let before = outputs
        .first()
        .map(|o| String::from_utf8_lossy(o).into_owned())
        .unwrap_or_default();
    let existed_before = parse_shell_form(&before)
        .iter()
        .any(|variable| variable.name == name && variable.value.is_some());
    Ok(SetEnvironmentOutput {
        name,
        scope: match scope {
            SetEnvironmentInputScope::Session => SetEnvironmentOutputScope::Session,
            SetEnvironmentInputScope::Global => SetEnvironmentOutputScope::Global,
        },
        session_id: session.map(|id| id.to_string()),
        unset,
        existed_before,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_valued_options_hooks_and_runnable_values_are_refused() {
        for name in COMMAND_OPTIONS.iter().chain(&["after-new-window"]) {
            assert!(check_option_request(name, Some("x"), false, false).is_err(), "{name}");
        }
        for value in [
            "#(id)",
            "a #{l:#}(id)",
            "##(id)",
            "#{E:pane_title}",
            "#{b;T:pane_title}",
        ] {
            assert!(
                check_option_request("status-left", Some(value), false, false).is_err(),
                "{value}"
            );
        }
        assert!(check_option_request("status-left", Some("#{pane_id} (x)"), false, false).is_ok());
        assert!(check_option_request("status-left", None, true, false).is_ok());
        let stored = |text: &str| Value::Scalar(text.to_string());
        assert!(check_appended(Some(&stored("up #")), "(id)").is_err());
        assert!(check_appended(Some(&stored("#{")), "E:pane_title}").is_err());
        assert!(check_appended(Some(&stored("#{E")), ":pane_title}").is_err());
        assert!(check_appended(Some(&Value::Array(vec![(0, "#".into())])), "(id)").is_err());
        assert!(check_appended(Some(&stored("#{pane_id}")), " (x)").is_ok());
        assert!(check_appended(None, "(x)").is_ok());
        assert!(check_option_request("status-left", Some("x"), true, false).is_err());
        assert!(check_option_request("status-left", None, false, false).is_err());
    }
}
