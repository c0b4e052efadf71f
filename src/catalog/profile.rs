//! Profiles: another server's contract served whole in place of paneward's own, for
//! clients written for that server. A profile is imported from what its upstream serves
//! (`schemas/profiles/<name>/`); the build generates its types, table and dispatch in a
//! module of its name (`crate::generated::python`), and its handlers
//! (`crate::tools::python`) adapt each call onto paneward's own handlers and gates, so
//! safety and speed are shared.

use std::fmt;
use std::str::FromStr;

/// Which contract the server advertises.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Profile {
    /// The tool files of `schemas/tools`.
    #[default]
    Default,
    /// libtmux-mcp's Python server: `schemas/profiles/python`.
    Python,
    /// The libtmux MCP family's shared 45-tool surface, as its Rust port `tmux-mcp`
    /// 0.1.2 serves it: `schemas/profiles/libtmux`.
    Libtmux,
}

/// Which generated contract a tool is dispatched by, and so how its reply is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Envelope {
    /// paneward's own (`schemas/tools`).
    Native,
    /// libtmux-mcp's (`schemas/profiles/python`): its field names, its errors.
    Python,
    /// The libtmux family's (`schemas/profiles/libtmux`): `tmux-mcp`'s JSON text and its
    /// `{message, data: {kind, retryable, stale}}` errors.
    Libtmux,
}

impl Profile {
    pub const NAMES: &'static str = "default, python, libtmux";

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::Python => "python",
            Self::Libtmux => "libtmux",
        }
    }

    /// The toolsets served when the operator names none (`--toolsets` unset): the one
    /// place a profile sets its own default surface.
    pub fn default_toolsets(self) -> &'static [paneward_contract::Toolset] {
        use paneward_contract::Toolset;
        match self {
            Self::Default => &Toolset::ALL,
            // As libtmux-mcp 0.1.0a22: everything but teardown unless LIBTMUX_TOOLSETS says.
            // As libtmux-mcp 0.1.0a22 and tmux-mcp 0.1.2 (on a socket the operator
            // chose): everything but teardown unless LIBTMUX_TOOLSETS says.
            Self::Python | Self::Libtmux => &[Toolset::Inspect, Toolset::Manage, Toolset::Execute],
        }
    }

    /// The generated table of the contract served: paneward's own, or the profile's.
    pub fn table(self) -> &'static [crate::runtime::ToolSpec] {
        match self {
            Self::Default => &crate::generated::TOOLS,
            Self::Python => &crate::generated::python::TOOLS,
            Self::Libtmux => &crate::generated::libtmux::TOOLS,
        }
    }

    /// How replies of the contract served are encoded.
    pub fn envelope(self) -> Envelope {
        match self {
            Self::Default => Envelope::Native,
            Self::Python => Envelope::Python,
            Self::Libtmux => Envelope::Libtmux,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Profile {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "default" => Ok(Self::Default),
            "python" => Ok(Self::Python),
            "libtmux" => Ok(Self::Libtmux),
            other => Err(format!("unknown profile {other:?}; profiles are {}", Self::NAMES)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn every_profile_folder_is_compiled_in_whole() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(root.join("schemas/profiles")).unwrap() {
            let folder = entry.unwrap().path();
            let name = folder.file_name().unwrap().to_string_lossy().into_owned();
            let profile: Profile = name.parse().unwrap();
            let mut files: Vec<String> = paneward_contract::load::load_dir(&folder)
                .unwrap()
                .into_iter()
                .map(|tool| tool.name)
                .collect();
            files.sort();
            let compiled: Vec<String> = profile.table().iter().map(|spec| spec.name.to_string()).collect();
            assert_eq!(compiled, files, "profile {name}: its table is every file of its folder");
        }
    }

    #[test]
    fn profile_names_parse_and_unknown_ones_are_named() {
        assert_eq!("python".parse::<Profile>(), Ok(Profile::Python));
        assert_eq!("libtmux".parse::<Profile>(), Ok(Profile::Libtmux));
        assert!("ruby"
            .parse::<Profile>()
            .unwrap_err()
            .contains("unknown profile \"ruby\""));
    }
}
