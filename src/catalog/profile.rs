//! Profiles: a flavour of the contract served in place of the default tool files of
//! the same name (`schemas/profiles/<name>/`), for clients that know another server's
//! envelope. A profile replaces what is advertised and how a reply is encoded; the
//! handlers and the request path stay the same.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use paneward_contract::ToolFile;

/// Which contract the server advertises.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Profile {
    /// The tool files of `schemas/tools`.
    #[default]
    Default,
    /// libtmux-mcp's Python server: `schemas/profiles/python`.
    Python,
}

/// How a tool's reply is encoded from what its handler returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Envelope {
    /// The generated output type of the default tool file.
    Native,
    /// `call_read_tools_batch` as the Python server answers it.
    PythonBatch,
}

/// One tool file of a profile, compiled in: its path under the repository, its text,
/// and the envelope its replies need.
struct ProfileFile {
    path: &'static str,
    text: &'static str,
    envelope: Envelope,
}

const PYTHON: &[ProfileFile] = &[ProfileFile {
    path: "schemas/profiles/python/call_read_tools_batch.json",
    text: include_str!("../../schemas/profiles/python/call_read_tools_batch.json"),
    envelope: Envelope::PythonBatch,
}];

impl Profile {
    pub const NAMES: &'static str = "default, python";

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::Python => "python",
        }
    }

    /// The text beside a structured result: a profile that mirrors another server
    /// writes what that server writes (libtmux-mcp's FastMCP: the JSON).
    pub fn reply_text(self) -> crate::runtime::reply_text::ReplyText {
        match self {
            Self::Default => crate::runtime::reply_text::ReplyText::Compact,
            Self::Python => crate::runtime::reply_text::ReplyText::Json,
        }
    }

    /// The toolsets served when the operator names none (`--toolsets` unset): the one
    /// place a profile sets its own default surface.
    pub fn default_toolsets(self) -> &'static [paneward_contract::Toolset] {
        match self {
            Self::Default | Self::Python => &paneward_contract::Toolset::ALL,
        }
    }

    fn files(self) -> &'static [ProfileFile] {
        match self {
            Self::Default => &[],
            Self::Python => PYTHON,
        }
    }

    /// The profile's tool files, checked as the build checks `schemas/tools`, each with
    /// the envelope of its replies.
    ///
    /// # Errors
    /// A compiled-in file that is not a valid tool file (a build fault).
    pub fn tools(self) -> Result<Vec<(ToolFile, Envelope)>, String> {
        self.files()
            .iter()
            .map(|file| {
                let value = serde_json::from_str(file.text).map_err(|e| format!("{}: not JSON: {e}", file.path))?;
                let tool = paneward_contract::load::check_tool_value(Path::new(file.path), value)
                    .map_err(|e| e.to_string())?;
                Ok((tool, file.envelope))
            })
            .collect()
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
            other => Err(format!("unknown profile {other:?}; profiles are {}", Self::NAMES)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_folder_is_compiled_in_whole() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(root.join("schemas/profiles")).unwrap() {
            let folder = entry.unwrap().path();
            let name = folder.file_name().unwrap().to_string_lossy().into_owned();
            let profile: Profile = name.parse().unwrap();
            let on_disk = paneward_contract::load::load_dir(&folder).unwrap();
            let compiled: Vec<ToolFile> = profile.tools().unwrap().into_iter().map(|(tool, _)| tool).collect();
            let strip = |tools: Vec<ToolFile>| -> Vec<_> {
                tools
                    .into_iter()
                    .map(|t| {
                        (
                            t.name,
                            t.title,
                            t.description,
                            t.tier,
                            t.input_schema,
                            t.output_schema,
                            t.annotations,
                        )
                    })
                    .collect()
            };
            assert_eq!(strip(on_disk), strip(compiled), "{name}");
        }
    }

    #[test]
    fn profile_names_parse_and_unknown_ones_are_named() {
        assert_eq!("python".parse::<Profile>(), Ok(Profile::Python));
        assert!("ruby"
            .parse::<Profile>()
            .unwrap_err()
            .contains("unknown profile \"ruby\""));
    }
}
