//! Where a tool sits on the surface an operator chooses: its toolset (the four groups
//! libtmux-mcp and tmux-mcp select with `LIBTMUX_TOOLSETS`) and its access class (the
//! seven of upstream Go's `LIBTMUX_MCP_CAPABILITIES`), both declared in the tool file
//! beside `tier` and never advertised; and the one rule that derives a paneward tool's
//! annotations from its tier and class ([`expected_hints`], checked by [`check_declared`]).

use serde_json::{Map, Value};

use crate::error::ContractError;
use crate::load::ToolFile;
use crate::tier::Tier;
use crate::toolset::{AccessClass, Toolset};

use crate::load::OWN_SOURCE;

/// MCP's default of each hint: a client reads a hint that is left out as this value.
pub const HINT_DEFAULTS: [(&str, bool); 4] = [
    ("readOnlyHint", false),
    ("destructiveHint", true),
    ("idempotentHint", false),
    ("openWorldHint", true),
];

/// The hints of a paneward tool, by the one rule: a read is read-only; a change is
/// destructive when its reach is the destructive tier, it ends things, or it controls
/// panes in a way a repeat would repeat (typed text reaches whatever the pane runs;
/// entering a mode twice does nothing more); a change says whether it is idempotent
/// (`idempotent`, the one hint that is a fact of the tool, not of its tier or class);
/// and a tool is open-world when what it returns or reaches is written by programs in
/// panes (content reads and pane control), so its text is untrusted.
///
/// Only the hints that differ from [`HINT_DEFAULTS`] are given, and a read gives neither
/// `destructiveHint` nor `idempotentHint`, which MCP gives meaning only when
/// `readOnlyHint` is false: every session reads the whole tool list, so a hint that says
/// what a client assumes anyway, or nothing at all, costs bytes for nothing.
pub fn expected_hints(tier: Tier, reach: Tier, class: AccessClass, idempotent: bool) -> Map<String, Value> {
    let open_world = matches!(class, AccessClass::ContentRead | AccessClass::PaneControl);
    let mut hints = Map::new();
    if tier == Tier::Readonly {
        hints.insert("readOnlyHint".into(), Value::Bool(true));
    } else {
        let destructive = reach == Tier::Destructive
            || class == AccessClass::TmuxDestroy
            || (class == AccessClass::PaneControl && !idempotent);
        hints.insert("readOnlyHint".into(), Value::Bool(false));
        hints.insert("destructiveHint".into(), Value::Bool(destructive));
        hints.insert("idempotentHint".into(), Value::Bool(idempotent));
    }
    hints.insert("openWorldHint".into(), Value::Bool(open_world));
    hints.retain(|key, value| !HINT_DEFAULTS.contains(&(key.as_str(), value.as_bool() == Some(true))));
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

/// Checks one folder of served tool files: each as [`check_declared`] and
/// [`crate::reply::check_open`] do, and at
/// most [`ALWAYS_LOAD_MAX`] of them loaded on every turn, each a read (a tool always in
/// the model's sight is one it reaches for first, so it must change nothing).
///
/// # Errors
/// The first file that breaks a rule, naming it and the pointer.
pub fn check_served(tools: &[ToolFile]) -> Result<(), ContractError> {
    for tool in tools {
        check_declared(tool)?;
        crate::reply::check_open(tool)?;
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
/// readonly, what it reaches), and a file of paneward's own carries exactly the hints of
/// [`expected_hints`] and no annotations `title` (a seeded file keeps the annotations
/// its upstream page published).
///
/// # Errors
/// A missing toolset or class, a tool above readonly that does not say what it
/// reaches, an annotations `title` or a hint that differs from the rule's (a default
/// written out included), naming the file and the pointer.
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
    if written.contains_key("title") {
        return Err(ContractError::new(
            &tool.path,
            "/annotations/title",
            "a tool of paneward's own gives its title once, at the top of the file, not again in its annotations",
        ));
    }
    // Left out, a change is not idempotent: MCP's default, which the rule then reads.
    let idempotent = written.get("idempotentHint").and_then(Value::as_bool) == Some(true);
    let expected = expected_hints(tool.tier, reach, class, idempotent);
    for key in ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] {
        if written.get(key) != expected.get(key) {
            let want = expected
                .get(key)
                .map_or_else(|| "left out (MCP's default)".to_string(), Value::to_string);
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
        let read = expected_hints(Tier::Readonly, Tier::Readonly, AccessClass::ContentRead, false);
        assert_eq!(
            Value::Object(read),
            serde_json::json!({"readOnlyHint": true}),
            "MCP gives destructiveHint and idempotentHint no meaning for a read"
        );
        let typing = expected_hints(Tier::Mutating, Tier::Mutating, AccessClass::PaneControl, false);
        assert_eq!(
            Value::Object(typing),
            serde_json::json!({}),
            "all four are MCP's defaults"
        );
        let layout = expected_hints(Tier::Mutating, Tier::Mutating, AccessClass::TmuxLayout, true);
        assert_eq!(
            Value::Object(layout),
            serde_json::json!({"destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
        );
        let escalating = expected_hints(Tier::Mutating, Tier::Destructive, AccessClass::WorkspaceCreate, false);
        assert_eq!(
            Value::Object(escalating),
            serde_json::json!({"openWorldHint": false}),
            "destructive, as MCP assumes"
        );
    }
}
