//! Tests of `--profile libtmux` (`src/tools/libtmux`): the libtmux family's 45 tools,
//! as `tmux-mcp` 0.1.2 advertises them, answered by paneward, against a real tmux on a
//! private socket. The differential suite beside them drives the real `tmux-mcp` too.

mod batch;
mod config;
mod differential;
mod listing;
mod observe;
mod run;

use std::path::PathBuf;

use crate::support::root;

/// The real `tmux-mcp` 0.1.2 (`PANEWARD_TMUX_MCP_DIR`, or where the test set-up installs it).
#[track_caller]
pub fn tmux_mcp() -> PathBuf {
    let dir = std::env::var_os("PANEWARD_TMUX_MCP_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/tmux-mcp"));
    let program = dir.join("bin/tmux-mcp");
    assert!(
        program.is_file(),
        "tmux-mcp is not installed at {}: run tests/libtmux-profile/install (or set PANEWARD_TMUX_MCP_DIR)",
        program.display()
    );
    program
}

/// Every toolset at the destructive tier: each tool of the profile can be called.
pub const PROFILE: [&str; 6] = [
    "--profile",
    "libtmux",
    "--toolsets",
    "inspect,manage,execute,teardown",
    "--safety",
    "destructive",
];
