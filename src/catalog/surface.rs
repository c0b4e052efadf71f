//! Which tools are served within the tier: the toolsets, the tools added by name and
//! the tools excluded by name (`--toolsets`, `--tools`, `--exclude-tools`, as
//! libtmux-mcp's `LIBTMUX_TOOLSETS`, `LIBTMUX_TOOLS`, `LIBTMUX_EXCLUDE_TOOLS`): a tool
//! is served when its tier is allowed, it is not excluded, and its toolset is chosen or
//! it is named. Exclusions win. A tool not served is neither listed nor callable, alone
//! or in a batch.

use std::collections::BTreeSet;

use paneward_contract::names::did_you_mean;
use paneward_contract::Toolset;

use crate::catalog::profile::Profile;

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

/// Parses a list of tool names, each one of the tools `profile` serves: a name only
/// another profile has would name nothing here, so it stops start-up like a typo.
///
/// # Errors
/// A name no tool of the profile has (with a suggestion when one is near), or an empty
/// name.
pub fn parse_tools(text: &str, origin: &str, profile: Profile) -> Result<BTreeSet<String>, String> {
    let known = || profile.table().iter().map(|spec| spec.name);
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
            let elsewhere = match profile {
                Profile::Default => String::new(),
                other => format!(" of profile {other}"),
            };
            Err(format!(
                "{origin}: unknown tool {quoted:?}{elsewhere}{hint}; `{}` lists them",
                listing_command(profile)
            ))
        })
        .collect()
}

/// The command that lists every tool `profile` has, whatever the tier and toolsets.
fn listing_command(profile: Profile) -> String {
    match profile {
        Profile::Default => "paneward tools --safety destructive".to_string(),
        other => format!(
            "paneward tools --profile {other} --toolsets {} --safety destructive",
            Toolset::ALL.map(Toolset::as_str).join(",")
        ),
    }
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
        let error = parse_tools("capture_pain", "LIBTMUX_TOOLS", Profile::Default).unwrap_err();
        assert_eq!(
            error,
            "LIBTMUX_TOOLS: unknown tool \"capture_pain\" (did you mean capture_pane?); `paneward tools --safety destructive` lists them"
        );
        // Each profile's own tools, and only those.
        assert!(parse_tools("show_hook,display_message", "--tools", Profile::Python).is_ok());
        assert!(parse_tools("get_job", "--tools", Profile::Default).is_ok());
        let error = parse_tools("show_hook", "--tools", Profile::Default).unwrap_err();
        assert!(error.starts_with("--tools: unknown tool \"show_hook\""), "{error}");
        let error = parse_tools("get_job", "--exclude-tools", Profile::Python).unwrap_err();
        assert_eq!(
            error,
            "--exclude-tools: unknown tool \"get_job\" of profile python; `paneward tools --profile python \
             --toolsets inspect,manage,execute,teardown --safety destructive` lists them"
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
