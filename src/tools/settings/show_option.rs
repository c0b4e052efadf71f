//! `show_option`: one tmux option at one level, read from tmux's own listings.
//!
//! tmux expands an option name given to `show-options` as a format (and `#(...)` in a
//! format runs a shell), matches it as a prefix, and for a known option ignores `-s`
//! and `-w`, reading the level the option belongs to whatever was asked. So the
//! caller's name never goes to tmux: each level is listed whole (`show-options`,
//! `-s`, `-g`, `-gw`, `-w -t`, `-p -t`, all in one round trip) and the name is matched
//! exactly here, with inheritance followed the way tmux follows it.

use crate::limits::{LISTED_MAX_ITEMS, OPTION_NAME_MAX_CHARS};
use std::collections::HashMap;

use crate::generated::types::{
    ShowOptionInput, ShowOptionInputScope, ShowOptionOutput, ShowOptionOutputOptionScope, ShowOptionOutputScope,
    ShowOptionOutputValuesVariant1Item,
};
use crate::guard::ReadGate;
use crate::runtime::error::ToolError;
use crate::tmux::escape::{unescape, Octal};
use crate::tmux::{PaneId, ReadCommand, ReadVerb, SessionId, WindowId};
use crate::tools::args;

/// A level of tmux settings, as a caller chose it with `scope` and `target`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Level {
    /// `""`: tmux's own choice, for the target (any id) or tmux's current session.
    Default(Option<String>),
    Global,
    Server,
    Session(SessionId),
    Window(WindowId),
    Pane(PaneId),
}

/// A `scope` value, independent of which tool's generated enum carried it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Default,
    Global,
    Server,
    Session,
    Window,
    Pane,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Default => "",
            Self::Global => "global",
            Self::Server => "server",
            Self::Session => "session",
            Self::Window => "window",
            Self::Pane => "pane",
        }
    }
}

impl From<Scope> for ShowOptionOutputScope {
    fn from(scope: Scope) -> Self {
        match scope {
            Scope::Default => Self::X,
            Scope::Global => Self::Global,
            Scope::Server => Self::Server,
            Scope::Session => Self::Session,
            Scope::Window => Self::Window,
            Scope::Pane => Self::Pane,
        }
    }
}

impl From<ShowOptionInputScope> for Scope {
    fn from(scope: ShowOptionInputScope) -> Self {
        match scope {
            ShowOptionInputScope::X => Self::Default,
            ShowOptionInputScope::Global => Self::Global,
            ShowOptionInputScope::Server => Self::Server,
            ShowOptionInputScope::Session => Self::Session,
            ShowOptionInputScope::Window => Self::Window,
            ShowOptionInputScope::Pane => Self::Pane,
        }
    }
}

/// Checks `target` against `scope`: required (and of the matching kind) for session,
/// window and pane; refused for global and server; any id for the default scope.
///
/// # Errors
/// A missing, superfluous or malformed target, named as `/target`.
pub fn level(scope: Scope, target: Option<&str>) -> Result<Level, ToolError> {
    let needs = |kind: &str, example: &str| {
        ToolError::invalid_argument(
            "/target",
            format!("scope {} needs a {kind} id such as {example}", scope.as_str()),
        )
    };
    match (scope, target) {
        (Scope::Default, None) => Ok(Level::Default(None)),
        (Scope::Default, Some(target)) => Ok(Level::Default(Some(any_id(target)?))),
        (Scope::Global | Scope::Server, Some(_)) => Err(ToolError::invalid_argument(
            "/target",
            format!("scope {} takes no target; omit it", scope.as_str()),
        )),
        (Scope::Global, None) => Ok(Level::Global),
        (Scope::Server, None) => Ok(Level::Server),
        (Scope::Session, None) => Err(needs("session", "$1")),
        (Scope::Window, None) => Err(needs("window", "@2")),
        (Scope::Pane, None) => Err(needs("pane", "%3")),
        (Scope::Session, Some(target)) => Ok(Level::Session(args::session_id("/target", target)?)),
        (Scope::Window, Some(target)) => Ok(Level::Window(args::window_id("/target", target)?)),
        (Scope::Pane, Some(target)) => Ok(Level::Pane(args::pane_id("/target", target)?)),
    }
}

fn any_id(target: &str) -> Result<String, ToolError> {
    let parsed = match target.chars().next() {
        Some('%') => target.parse::<PaneId>().map(|id| id.to_string()).ok(),
        Some('@') => target.parse::<WindowId>().map(|id| id.to_string()).ok(),
        Some('$') => target.parse::<SessionId>().map(|id| id.to_string()).ok(),
        _ => None,
    };
    parsed.ok_or_else(|| {
        ToolError::invalid_argument("/target", "must be a pane, window or session id, such as %3, @2 or $1")
    })
}

/// Whether `name` is a plausible tmux option or hook name: lowercase words joined by
/// `-`, or (for options) `@` and letters, digits, `-` and `_`. Nothing else can name
/// one, and nothing here can be read as a format.
pub fn is_setting_name(name: &str, user_allowed: bool) -> bool {
    if name.is_empty() || name.len() > OPTION_NAME_MAX_CHARS {
        return false;
    }
    match name.strip_prefix('@') {
        Some(rest) => {
            user_allowed && !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        }
        None => {
            name.starts_with(|c: char| c.is_ascii_lowercase())
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        }
    }
}

/// An option's value in one listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Scalar(String),
    /// An array option's items, by index (an empty array has none).
    Array(Vec<(i64, String)>),
}

/// One `show-options` or `show-hooks` listing: each line is `name value`,
/// `name[index] value`, or a bare `name` (an empty array, or an unset hook).
#[derive(Debug, Default)]
pub struct Listing {
    entries: HashMap<String, Value>,
    /// Names in the order tmux printed them.
    order: Vec<String>,
}

impl Listing {
    /// Parses a listing; `raw_values` keeps values as printed (hook commands) instead
    /// of undoing tmux's quoting (option values).
    pub fn parse(output: &str, raw_values: bool) -> Self {
        let mut listing = Self::default();
        for line in output.lines().filter(|line| !line.is_empty()) {
            let (head, value) = match line.split_once(' ') {
                Some((head, value)) => (head, Some(value)),
                None => (line, None),
            };
            let decode = |value: &str| {
                if raw_values {
                    value.to_string()
                } else {
                    unquote(value)
                }
            };
            let (name, index) = match head.strip_suffix(']').and_then(|h| h.split_once('[')) {
                Some((name, index)) => (name, index.parse::<i64>().ok()),
                None => (head, None),
            };
            if !listing.entries.contains_key(name) {
                listing.order.push(name.to_string());
            }
            let entry = listing.entries.entry(name.to_string());
            match (index, value) {
                (Some(index), Some(value)) => {
                    let slot = entry.or_insert_with(|| Value::Array(Vec::new()));
                    if let Value::Array(items) = slot {
                        items.push((index, decode(value)));
                    }
                }
                (_, Some(value)) => {
                    entry.or_insert_with(|| Value::Scalar(decode(value)));
                }
                (_, None) => {
                    entry.or_insert_with(|| Value::Array(Vec::new()));
                }
            }
        }
        listing
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        self.entries.get(name)
    }

    /// Entries in tmux's order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.order
            .iter()
            .filter_map(|name| self.entries.get(name).map(|value| (name.as_str(), value)))
    }
}

/// Undoes the quoting `show-options` applies to a value: `"…"` or `'…'` around it,
/// and backslash escapes inside (C-style letters, octal bytes, or a plain escaped
/// character such as `\"`, `\$`, `\~` or `\#`).
pub fn unquote(printed: &str) -> String {
    let inner = if printed.len() >= 2
        && ((printed.starts_with('"') && printed.ends_with('"'))
            || (printed.starts_with('\'') && printed.ends_with('\'')))
    {
        &printed[1..printed.len() - 1]
    } else {
        printed
    };
    let out = unescape(inner.as_bytes(), Octal::UpToThreeDigits);
    String::from_utf8_lossy(&out).into_owned()
}

/// Where tmux keeps an option (`show_option` and `set_option` both report it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Server,
    Session,
    Window,
    /// `@name`: the caller's own, settable at any level.
    User,
}

impl Table {
    /// The table of option `name`, from whether tmux's global listing `source` holds it.
    ///
    /// # Errors
    /// No global listing holds it: every tmux option has a global value, so it is unknown.
    pub fn of(name: &str, in_global: impl Fn(Source) -> bool) -> Result<Self, ToolError> {
        if name.starts_with('@') {
            Ok(Self::User)
        } else if in_global(Source::GlobalServer) {
            Ok(Self::Server)
        } else if in_global(Source::GlobalWindow) {
            Ok(Self::Window)
        } else if in_global(Source::GlobalSession) {
            Ok(Self::Session)
        } else {
            Err(ToolError::invalid_argument(
                "/name",
                format!("tmux has no option named {name:?}; names are exact (no prefixes)"),
            ))
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Server => "server",
            Self::Session => "session",
            Self::Window => "window",
            Self::User => "user",
        }
    }

    fn option_scope(self) -> ShowOptionOutputOptionScope {
        match self {
            Self::Server => ShowOptionOutputOptionScope::Server,
            Self::Session => ShowOptionOutputOptionScope::Session,
            Self::Window => ShowOptionOutputOptionScope::Window,
            Self::User => ShowOptionOutputOptionScope::User,
        }
    }

    /// The scopes that read an option of this table, for error messages.
    fn scopes(self) -> &'static str {
        match self {
            Self::Server => "server, global or \"\"",
            Self::Session => "session, global or \"\"",
            Self::Window | Self::User => "window, pane, global or \"\"",
        }
    }
}

/// The listings one call reads, in the order they are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    GlobalServer,
    GlobalSession,
    GlobalWindow,
    /// Session level, of the target's session or tmux's current one.
    Session,
    /// Window level, of the target's window (a pane's window for a pane target).
    Window,
    Pane,
}

/// The listing of `source` for `level` by `command` (`show-options` or `show-hooks`,
/// which take the same flags).
pub fn listing_command(command: ReadVerb, source: Source, level: &Level) -> ReadCommand {
    let command = ReadCommand::new(command);
    let target = match level {
        Level::Default(target) => target.clone(),
        Level::Session(id) => Some(id.to_string()),
        Level::Window(id) => Some(id.to_string()),
        Level::Pane(id) => Some(id.to_string()),
        Level::Global | Level::Server => None,
    };
    let command = match source {
        Source::GlobalServer => return command.arg("-s"),
        Source::GlobalSession => return command.arg("-g"),
        Source::GlobalWindow => return command.arg("-gw"),
        Source::Session => command,
        Source::Window => command.arg("-w"),
        Source::Pane => command.arg("-p"),
    };
    match target {
        Some(target) => command.arg("-t").arg(target),
        None => command,
    }
}

/// The level listings `level` needs besides the global ones.
pub fn level_sources(level: &Level) -> &'static [Source] {
    match level {
        Level::Global | Level::Server => &[],
        Level::Session(_) => &[Source::Session],
        Level::Window(_) => &[Source::Window],
        Level::Pane(_) => &[Source::Pane, Source::Window],
        Level::Default(_) => &[Source::Session, Source::Window],
    }
}

/// The listings to look in, most specific first, as tmux's inheritance runs; the first
/// is the level asked for.
///
/// # Errors
/// The option lives at a level the scope cannot read (named as `/scope`).
fn chain(table: Table, level: &Level, name: &str) -> Result<Vec<Source>, ToolError> {
    use Source::*;
    let wrong = |scope: &str| {
        ToolError::invalid_argument(
            "/scope",
            format!(
                "{name} is a {} option, which scope {scope} cannot read; use scope {}",
                table.as_str(),
                table.scopes()
            ),
        )
    };
    Ok(match (level, table) {
        (Level::Global, Table::Server) | (Level::Server, Table::Server | Table::User) => vec![GlobalServer],
        (Level::Global, Table::Session | Table::User) => vec![GlobalSession],
        (Level::Global, Table::Window) => vec![GlobalWindow],
        (Level::Server, _) => return Err(wrong("server")),
        (Level::Session(_), Table::Session | Table::User) => vec![Session, GlobalSession],
        (Level::Session(_), _) => return Err(wrong("session")),
        (Level::Window(_), Table::Window | Table::User) => vec![Window, GlobalWindow],
        (Level::Window(_), _) => return Err(wrong("window")),
        (Level::Pane(_), Table::Window | Table::User) => vec![Pane, Window, GlobalWindow],
        (Level::Pane(_), _) => return Err(wrong("pane")),
        (Level::Default(_), Table::Server) => vec![GlobalServer],
        (Level::Default(_), Table::Session | Table::User) => vec![Session, GlobalSession],
        (Level::Default(_), Table::Window) => vec![Window, GlobalWindow],
    })
}

pub async fn show_option(gate: &ReadGate<'_>, input: ShowOptionInput) -> Result<ShowOptionOutput, ToolError> {
    let ShowOptionInput {
        effective,
        name: option_name,
        scope,
        target,
    } = input;
    if !is_setting_name(&option_name, true) {
        return Err(ToolError::invalid_argument(
            "/name",
            format!("must be an exact option name such as history-limit or @my-option: lowercase letters, digits and -, or @ then letters, digits, - and _ (at most {OPTION_NAME_MAX_CHARS} characters)"),
        ));
    }
    let scope = scope.map_or(Scope::Default, Scope::from);
    let level = level(scope, target.as_deref())?;
    let mut sources = vec![Source::GlobalServer, Source::GlobalSession, Source::GlobalWindow];
    sources.extend_from_slice(level_sources(&level));
    let commands: Vec<ReadCommand> = sources
        .iter()
        .map(|s| listing_command(ReadVerb::ShowOptions, *s, &level))
        .collect();
    let outputs = gate.run_all(&commands).await?;
    let listings: HashMap<Source, Listing> = sources
        .iter()
        .zip(&outputs)
        .map(|(source, output)| (*source, Listing::parse(&String::from_utf8_lossy(output), false)))
        .collect();
    let listing = |source: Source| listings.get(&source).and_then(|l| l.get(&option_name));

    let name = option_name.as_str();
    let table = Table::of(name, |source| listing(source).is_some())?;
    let chain = chain(table, &level, name)?;
    let set_here = chain.first().and_then(|source| listing(*source));
    let inherited_from = chain[1..].iter().find_map(|source| listing(*source));
    let effective = effective.unwrap_or(false);
    let (found, inherited) = match (set_here, inherited_from) {
        (Some(value), _) => (Some(value), false),
        (None, Some(value)) if effective => (Some(value), true),
        _ => (None, false),
    };
    let (value, values) = match found {
        Some(Value::Scalar(value)) => (Some(value.clone()), None),
        Some(Value::Array(items)) => (
            None,
            Some(
                items
                    .iter()
                    .take(LISTED_MAX_ITEMS)
                    .map(|(index, value)| ShowOptionOutputValuesVariant1Item {
                        index: *index,
                        value: value.clone(),
                    })
                    .collect(),
            ),
        ),
        None => (None, None),
    };
    Ok(ShowOptionOutput {
        name: option_name.clone(),
        scope: scope.into(),
        target,
        option_scope: table.option_scope(),
        set: set_here.is_some(),
        inherited,
        value,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_from_show_options_is_undone() {
        assert_eq!(unquote("2000"), "2000");
        assert_eq!(unquote("''"), "");
        assert_eq!(unquote("\"[#{session_name}] \""), "[#{session_name}] ");
        assert_eq!(
            unquote(r#""a \"q\" \$x \\ b\tc\nd~ é \001""#),
            "a \"q\" $x \\ b\tc\nd~ é \u{1}"
        );
        assert_eq!(unquote("'it\"s'"), "it\"s");
        assert_eq!(unquote(r"\~home"), "~home");
        assert_eq!(unquote(r"\#"), "#");
        assert_eq!(unquote("\"\\303\\251\""), "é");
        assert_eq!(unquote("trailing\\"), "trailing\\");
    }

    #[test]
    fn listings_hold_scalars_arrays_and_bare_names() {
        let listing = Listing::parse(
            "history-limit 2000\nupdate-environment[0] DISPLAY\nupdate-environment[3] \"A B\"\npane-colours\n@x \"y\"\n",
            false,
        );
        assert_eq!(listing.get("history-limit"), Some(&Value::Scalar("2000".into())));
        assert_eq!(
            listing.get("update-environment"),
            Some(&Value::Array(vec![(0, "DISPLAY".into()), (3, "A B".into())]))
        );
        assert_eq!(listing.get("pane-colours"), Some(&Value::Array(vec![])));
        assert_eq!(listing.get("@x"), Some(&Value::Scalar("y".into())));
        assert_eq!(listing.get("history"), None, "no prefix matching");
        let order: Vec<&str> = listing.iter().map(|(name, _)| name).collect();
        assert_eq!(order, ["history-limit", "update-environment", "pane-colours", "@x"]);
    }

    #[test]
    fn names_that_could_be_formats_or_targets_are_refused() {
        for good in ["history-limit", "status-left", "@my_opt-2"] {
            assert!(is_setting_name(good, true), "{good}");
        }
        for bad in ["", "#{pane_id}", "#(reboot)", "History", "a b", "@", "@x;y", "-a"] {
            assert!(!is_setting_name(bad, true), "{bad:?}");
        }
        assert!(!is_setting_name("@user", false));
    }

    #[test]
    fn targets_must_fit_the_scope() {
        assert_eq!(level(Scope::Session, Some("$1")).unwrap(), Level::Session(SessionId(1)));
        assert_eq!(
            level(Scope::Default, Some("@2")).unwrap(),
            Level::Default(Some("@2".into()))
        );
        for (scope, target) in [
            (Scope::Session, None),
            (Scope::Session, Some("@1")),
            (Scope::Pane, Some("main:0.0")),
            (Scope::Global, Some("$1")),
            (Scope::Default, Some("main")),
        ] {
            let error = level(scope, target).unwrap_err().to_string();
            assert!(error.contains("/target"), "{scope:?} {target:?}: {error}");
        }
    }

    #[test]
    fn an_option_read_at_a_level_tmux_does_not_keep_it_at_is_refused() {
        let error = chain(Table::Session, &Level::Window(WindowId(1)), "history-limit")
            .unwrap_err()
            .to_string();
        assert!(error.contains("/scope") && error.contains("session option"), "{error}");
        assert_eq!(
            chain(Table::Window, &Level::Pane(PaneId(1)), "remain-on-exit").unwrap(),
            [Source::Pane, Source::Window, Source::GlobalWindow]
        );
    }
}
