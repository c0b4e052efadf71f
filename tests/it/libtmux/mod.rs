//! Tests of `--profile libtmux` (`src/tools/libtmux`): the libtmux family's 45 tools,
//! as `tmux-mcp` 0.1.2 advertises them, answered by paneward, against a real tmux on a
//! private socket. The differential suite beside them drives the real `tmux-mcp` too.

mod batch;
mod config;
mod differential;
mod listing;
mod observe;
mod run;

/// Every toolset at the destructive tier: each tool of the profile can be called.
pub const PROFILE: [&str; 6] = [
    "--profile",
    "libtmux",
    "--toolsets",
    "inspect,manage,execute,teardown",
    "--safety",
    "destructive",
];
