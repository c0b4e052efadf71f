//! Which tools are served within the tier: the toolsets, the tools added by name and
//! the tools excluded by name (`--toolsets`, `--tools`, `--exclude-tools`, as
//! libtmux-mcp's `LIBTMUX_TOOLSETS`, `LIBTMUX_TOOLS`, `LIBTMUX_EXCLUDE_TOOLS`): a tool
//! is served when its tier is allowed, it is not excluded, and its toolset is chosen or
//! it is named. Exclusions win. A tool not served is neither listed nor callable, alone
//! or in a batch.

use std::collections::BTreeSet;

use paneward_contract::surface::did_you_mean;
use paneward_contract::Toolset;

use crate::generated::TOOLS;

/// What the operator chose (before the tier applies).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SurfaceChoice {
    /// `None`: the profile's default toolsets ([`crate::catalog::profile::Profile::default_toolsets`]).
    pub toolsets: Option<BTreeSet<Toolset>>,
    /// Tools served whatever their toolset.
    pub tools: BTreeSet<String>,
    /// Tools never served.
    pub exclude: BTreeSet<String>,
}

impl SurfaceChoice {
    /// Whether a tool of `toolset` named `name` is served, `defaults` standing in for
    /// toolsets not chosen.
    pub fn serves(&self, name: &str, toolset: Toolset, defaults: &[Toolset]) -> bool {
        if self.exclude.contains(name) {
            return false;
        }
        let chosen = match &self.toolsets {
            Some(toolsets) => toolsets.contains(&toolset),
            None => defaults.contains(&toolset),
        };
        chosen || self.tools.contains(name)
    }
}

/// The comma-separated names of `text`, trimmed; an empty text is none, an empty name
/// between commas is a mistake (`inspect,,manage`), named by `origin`.
fn names(text: &str, origin: &str) -> Result<Vec<String>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|part| {
            let name = part.trim();
            if name.is_empty() {
                Err(format!("{origin}: an empty name between commas in {text:?}"))
            } else {
                Ok(name.to_string())
            }
        })
        .collect()
}

/// Parses a toolset list; the empty list chooses none (add tools with `--tools`).
///
/// # Errors
/// An unknown toolset (with a suggestion when one is near), or an empty name.
pub fn parse_toolsets(text: &str, origin: &str) -> Result<BTreeSet<Toolset>, String> {
    names(text, origin)?
        .iter()
        .map(|name| name.parse::<Toolset>().map_err(|e| format!("{origin}: {e}")))
        .collect()
}

/// Parses a list of tool names, each one of the contract's.
///
/// # Errors
/// A name no tool has (with a suggestion when one is near), or an empty name.
pub fn parse_tools(text: &str, origin: &str) -> Result<BTreeSet<String>, String> {
    let known = || TOOLS.iter().map(|spec| spec.name);
    names(text, origin)?
        .into_iter()
        .map(|name| {
            if known().any(|tool| tool == name) {
                return Ok(name);
            }
            let quoted: String = name.chars().take(QUOTED_CHARS).collect();
            let hint = did_you_mean(&name, known())
                .map(|near| format!(" (did you mean {near}?)"))
                .unwrap_or_default();
            Err(format!(
                "{origin}: unknown tool {quoted:?}{hint}; `paneward tools --safety destructive` lists them"
            ))
        })
        .collect()
}

/// How much of an unknown name a message repeats (it may come from anywhere).
const QUOTED_CHARS: usize = 40;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_and_bad_names_are_named() {
        assert_eq!(
            parse_toolsets(" inspect , teardown", "--toolsets").unwrap(),
            BTreeSet::from([Toolset::Inspect, Toolset::Teardown])
        );
        assert!(parse_toolsets("", "--toolsets").unwrap().is_empty());
        let error = parse_toolsets("inspect,,manage", "--toolsets").unwrap_err();
        assert!(error.contains("empty name"), "{error}");
        let error = parse_tools("capture_pain", "LIBTMUX_TOOLS").unwrap_err();
        assert_eq!(
            error,
            "LIBTMUX_TOOLS: unknown tool \"capture_pain\" (did you mean capture_pane?); `paneward tools --safety destructive` lists them"
        );
    }

    #[test]
    fn exclusions_win_and_named_tools_join_the_toolsets() {
        let choice = SurfaceChoice {
            toolsets: Some(BTreeSet::from([Toolset::Inspect])),
            tools: BTreeSet::from(["send_keys".to_string(), "list_panes".to_string()]),
            exclude: BTreeSet::from(["list_panes".to_string()]),
        };
        assert!(choice.serves("capture_pane", Toolset::Inspect, &[]));
        assert!(choice.serves("send_keys", Toolset::Execute, &[]));
        assert!(!choice.serves("list_panes", Toolset::Inspect, &[]));
        assert!(!choice.serves("kill_pane", Toolset::Teardown, &Toolset::ALL));
        let default = SurfaceChoice::default();
        assert!(default.serves("kill_pane", Toolset::Teardown, &Toolset::ALL));
        assert!(!default.serves("kill_pane", Toolset::Teardown, &[Toolset::Inspect]));
    }
}
