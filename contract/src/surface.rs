//! Where a tool sits on the surface an operator chooses: its toolset (the four groups
//! libtmux-mcp and tmux-mcp select with `LIBTMUX_TOOLSETS`) and its access class (the
//! seven of upstream Go's `LIBTMUX_MCP_CAPABILITIES`), both declared in the tool file
//! beside `tier` and never advertised; and the one rule that derives a paneward tool's
//! annotations from its tier and class ([`expected_hints`], checked by [`check_declared`]).

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::error::ContractError;
use crate::load::ToolFile;
use crate::tier::Tier;

/// The `source` of a tool file whose contract is paneward's own; any other source is an
/// upstream page the file was seeded from, whose annotations are kept as published.
pub const OWN_SOURCE: &str = "paneward";

/// A group of tools an operator turns on or off as a whole. Unordered, unlike tiers:
/// `inspect,teardown` is a legal surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Toolset {
    /// Reads tmux state or pane output.
    Inspect,
    /// Changes tmux structure, presentation, staging or coordination.
    Manage,
    /// Starts processes, delivers input to panes, or stores state that later runs.
    Execute,
    /// Deletes tmux objects or retained scrollback.
    Teardown,
}

impl Toolset {
    pub const ALL: [Toolset; 4] = [Toolset::Inspect, Toolset::Manage, Toolset::Execute, Toolset::Teardown];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Inspect => "inspect",
            Self::Manage => "manage",
            Self::Execute => "execute",
            Self::Teardown => "teardown",
        }
    }
}

/// What a tool gives access to, in upstream Go's seven classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AccessClass {
    /// Identities, topology, process state and geometry, no pane contents or values.
    MetadataRead,
    /// Pane output, buffers, option, hook and environment values, jobs.
    ContentRead,
    /// Input to panes and what may run shell commands or reach programs in panes.
    PaneControl,
    /// Creating sessions, windows and panes, and the programs they start.
    WorkspaceCreate,
    /// Selecting, moving, resizing, arranging and naming existing objects.
    TmuxLayout,
    /// Buffers, environment variables and options.
    TmuxSettings,
    /// Ending panes, windows, sessions or the server, or discarding what they held.
    TmuxDestroy,
}

impl AccessClass {
    pub const ALL: [AccessClass; 7] = [
        AccessClass::MetadataRead,
        AccessClass::ContentRead,
        AccessClass::PaneControl,
        AccessClass::WorkspaceCreate,
        AccessClass::TmuxLayout,
        AccessClass::TmuxSettings,
        AccessClass::TmuxDestroy,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::MetadataRead => "metadata-read",
            Self::ContentRead => "content-read",
            Self::PaneControl => "pane-control",
            Self::WorkspaceCreate => "workspace-create",
            Self::TmuxLayout => "tmux-layout",
            Self::TmuxSettings => "tmux-settings",
            Self::TmuxDestroy => "tmux-destroy",
        }
    }
}

impl fmt::Display for Toolset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for AccessClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no toolset or class: the message lists the known ones and, when one
/// is a small typo away, suggests it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    pub what: &'static str,
    pub name: String,
    pub known: Vec<&'static str>,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} {:?}", self.what, self.name)?;
        if let Some(near) = did_you_mean(&self.name, self.known.iter().copied()) {
            write!(f, " (did you mean {near}?)")?;
        }
        write!(f, "; use {}", self.known.join(", "))
    }
}

impl std::error::Error for UnknownName {}

/// How much of an unknown name a message repeats (it may come from anywhere).
const QUOTED_CHARS: usize = 40;

fn unknown(what: &'static str, text: &str, known: Vec<&'static str>) -> UnknownName {
    UnknownName {
        what,
        name: text.chars().take(QUOTED_CHARS).collect(),
        known,
    }
}

impl FromStr for Toolset {
    type Err = UnknownName;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|t| t.as_str() == text)
            .ok_or_else(|| unknown("toolset", text, Self::ALL.iter().map(|t| t.as_str()).collect()))
    }
}

impl FromStr for AccessClass {
    type Err = UnknownName;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|c| c.as_str() == text)
            .ok_or_else(|| unknown("access class", text, Self::ALL.iter().map(|c| c.as_str()).collect()))
    }
}

/// The known name closest to `name`, if it is at most two edits away (a typo, not a
/// different word).
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    const MOST_EDITS: usize = 2;
    known
        .into_iter()
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= MOST_EDITS)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance over chars: insertions, deletions and substitutions (also the
/// CLI's "did you mean", `cli::suggest`).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The hints of a paneward tool, by the one rule: a read is read-only and not
/// destructive; a change is destructive when its reach is the destructive tier, it ends
/// things, or it controls panes in a way a repeat would repeat (typed text reaches
/// whatever the pane runs; entering a mode twice does nothing more); a change says
/// whether it is idempotent (`idempotent`, the one hint that is a fact of the tool, not
/// of its tier or class; MCP gives it no meaning for reads, so reads leave it out); and a
/// tool is open-world when what it returns or reaches is written by programs in panes
/// (content reads and pane control), so its text is untrusted.
pub fn expected_hints(tier: Tier, reach: Tier, class: AccessClass, idempotent: Option<bool>) -> Map<String, Value> {
    let open_world = matches!(class, AccessClass::ContentRead | AccessClass::PaneControl);
    let mut hints = Map::new();
    if tier == Tier::Readonly {
        hints.insert("readOnlyHint".into(), Value::Bool(true));
        hints.insert("destructiveHint".into(), Value::Bool(false));
    } else {
        let destructive = reach == Tier::Destructive
            || class == AccessClass::TmuxDestroy
            || (class == AccessClass::PaneControl && idempotent != Some(true));
        hints.insert("readOnlyHint".into(), Value::Bool(false));
        hints.insert("destructiveHint".into(), Value::Bool(destructive));
        if let Some(idempotent) = idempotent {
            hints.insert("idempotentHint".into(), Value::Bool(idempotent));
        }
    }
    hints.insert("openWorldHint".into(), Value::Bool(open_world));
    hints
}

/// The `_meta` key by which Claude Code keeps a tool loaded on every turn.
pub const ALWAYS_LOAD: &str = "anthropic/alwaysLoad";

/// How many tools of one folder may ask to be loaded on every turn: the two or three
/// an agent calls first to find its way. More would undo what deferral saves.
pub const ALWAYS_LOAD_MAX: usize = 3;

/// Whether `tool` asks clients to keep it loaded on every turn.
pub fn always_loaded(tool: &ToolFile) -> bool {
    tool.meta
        .as_ref()
        .and_then(|meta| meta.get(ALWAYS_LOAD))
        .and_then(Value::as_bool)
        == Some(true)
}

/// Checks one folder of served tool files: each as [`check_declared`] does, and at
/// most [`ALWAYS_LOAD_MAX`] of them loaded on every turn, each a read (a tool always in
/// the model's sight is one it reaches for first, so it must change nothing).
///
/// # Errors
/// The first file that breaks a rule, naming it and the pointer.
pub fn check_served(tools: &[ToolFile]) -> Result<(), ContractError> {
    for tool in tools {
        check_declared(tool)?;
        if always_loaded(tool) && tool.tier != Tier::Readonly {
            return Err(ContractError::new(
                &tool.path,
                format!("/_meta/{}", crate::pointer::pointer_token(ALWAYS_LOAD)),
                format!(
                    "only a readonly tool is loaded on every turn; `{}` is {}",
                    tool.name, tool.tier
                ),
            ));
        }
    }
    let always: Vec<&ToolFile> = tools.iter().filter(|tool| always_loaded(tool)).collect();
    if always.len() > ALWAYS_LOAD_MAX {
        let names: Vec<&str> = always.iter().map(|tool| tool.name.as_str()).collect();
        return Err(ContractError::new(
            &always[ALWAYS_LOAD_MAX].path,
            format!("/_meta/{}", crate::pointer::pointer_token(ALWAYS_LOAD)),
            format!(
                "at most {ALWAYS_LOAD_MAX} tools of a folder are loaded on every turn; these {} are: {}",
                names.len(),
                names.join(", ")
            ),
        ));
    }
    Ok(())
}

/// Checks what [`crate::load`] leaves optional so that imports and diffs can read any
/// tool file: a file served by paneward declares its toolset and class (and, above
/// readonly, what it reaches), and a file of
/// paneward's own carries exactly the hints of [`expected_hints`] (a seeded file keeps
/// the hints its upstream page published).
///
/// # Errors
/// A missing toolset or class, a tool above readonly that does not say what it
/// reaches, a change without `idempotentHint`, or a hint that differs from the rule's,
/// naming the file and the pointer.
pub fn check_declared(tool: &ToolFile) -> Result<(), ContractError> {
    let Some(_) = tool.toolset else {
        return Err(ContractError::new(
            &tool.path,
            "/toolset",
            format!(
                "missing field `toolset`: every served tool file declares one of {}",
                Toolset::ALL.map(Toolset::as_str).join(", ")
            ),
        ));
    };
    let Some(class) = tool.class else {
        return Err(ContractError::new(
            &tool.path,
            "/class",
            format!(
                "missing field `class`: every served tool file declares one of {}",
                AccessClass::ALL.map(AccessClass::as_str).join(", ")
            ),
        ));
    };
    let reach = crate::escalation::reach(tool.tier, &tool.escalations);
    if reach > Tier::Readonly && tool.facts.reaches.is_none() {
        return Err(ContractError::new(
            &tool.path,
            "/reaches",
            format!(
                "missing field `reaches`: a {reach} tool says what a call touches beyond the objects it names, so that --scope owned checks it ([] for nothing more; {})",
                crate::facts::Reach::ALL.map(crate::facts::Reach::as_str).join(", ")
            ),
        ));
    }
    if tool.source != OWN_SOURCE {
        return Ok(());
    }
    let written = tool.annotations.as_object().cloned().unwrap_or_default();
    let idempotent = written.get("idempotentHint").and_then(Value::as_bool);
    if tool.tier > Tier::Readonly && idempotent.is_none() {
        return Err(ContractError::new(
            &tool.path,
            "/annotations/idempotentHint",
            "a tool above readonly states idempotentHint (whether a repeat of the same call changes nothing more)",
        ));
    }
    let expected = expected_hints(tool.tier, reach, class, idempotent);
    for key in ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] {
        if written.get(key) != expected.get(key) {
            let want = expected.get(key).map_or_else(|| "absent".to_string(), Value::to_string);
            return Err(ContractError::new(
                &tool.path,
                format!("/annotations/{key}"),
                format!(
                    "must be {want}: the rule for a {} tool of class {class} (reach {reach}) gives {}",
                    tool.tier,
                    Value::Object(expected.clone())
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_typos_get_a_suggestion() {
        for toolset in Toolset::ALL {
            assert_eq!(toolset.as_str().parse::<Toolset>(), Ok(toolset));
        }
        for class in AccessClass::ALL {
            assert_eq!(class.as_str().parse::<AccessClass>(), Ok(class));
        }
        let error = "inspcet".parse::<Toolset>().unwrap_err().to_string();
        assert_eq!(
            error,
            "unknown toolset \"inspcet\" (did you mean inspect?); use inspect, manage, execute, teardown"
        );
        let error = "everything".parse::<Toolset>().unwrap_err().to_string();
        assert!(!error.contains("did you mean"), "{error}");
    }

    #[test]
    fn the_rule_marks_reads_safe_and_typing_and_ending_destructive() {
        let read = expected_hints(Tier::Readonly, Tier::Readonly, AccessClass::ContentRead, None);
        assert_eq!(
            Value::Object(read),
            serde_json::json!({"readOnlyHint": true, "destructiveHint": false, "openWorldHint": true})
        );
        let typing = expected_hints(Tier::Mutating, Tier::Mutating, AccessClass::PaneControl, Some(false));
        assert_eq!(typing["destructiveHint"], true);
        let layout = expected_hints(Tier::Mutating, Tier::Mutating, AccessClass::TmuxLayout, Some(true));
        assert_eq!(
            Value::Object(layout),
            serde_json::json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
        );
        let escalating = expected_hints(
            Tier::Mutating,
            Tier::Destructive,
            AccessClass::WorkspaceCreate,
            Some(false),
        );
        assert_eq!(escalating["destructiveHint"], true);
    }
}
