//! A tool's toolset (the four groups libtmux-mcp and tmux-mcp select with
//! `LIBTMUX_TOOLSETS`) and its access class (the seven of upstream Go's
//! `LIBTMUX_MCP_CAPABILITIES`), as a tool file names them beside `tier`. A leaf: the
//! tool-file model ([`crate::load`]) holds them and [`crate::surface`] rules by them.

use std::fmt;
use std::str::FromStr;

use crate::names::{unknown, UnknownName};

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
