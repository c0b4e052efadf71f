//! The arguments as given ([`RawArgs`]): what the flag table's actions write
//! ([`super::flags`]) and the walk over the arguments gathers ([`super::parse`]), before
//! any default, variable or check applies. A leaf, so the two can share it.

use std::path::PathBuf;

/// The arguments as given: each field is `None` or empty unless its flag was.
#[derive(Debug, Default)]
pub struct RawArgs {
    pub subcommand: Option<String>,
    /// `call`'s tool and JSON; `grant`'s or `revoke`'s pane.
    pub positional: Vec<String>,
    pub socket_name: Option<String>,
    pub socket_path: Option<PathBuf>,
    pub tmux_binary: Option<PathBuf>,
    pub safety: Option<String>,
    pub scope: Option<String>,
    pub profile: Option<String>,
    pub toolsets: Option<String>,
    pub tools: Option<String>,
    pub exclude_tools: Option<String>,
    pub audit_log: Option<String>,
    pub json: bool,
    pub markdown: bool,
    pub reveal_environment: bool,
    pub show_commands: bool,
    pub allow_attended_input: bool,
    pub no_control_mode: bool,
    pub no_native_client: bool,
    pub no_hidden_client: bool,
    pub max_tmux_clients: Option<String>,
    pub max_wait: Option<String>,
    pub http: Option<String>,
    pub token_file: Option<PathBuf>,
    pub extra_origins: Vec<String>,
    pub extra_hosts: Vec<String>,
    pub ssh: Option<String>,
    /// `-F FILE` and `-o OPTION` pairs, in the order given.
    pub ssh_options: Vec<String>,
    pub private: Option<String>,
    pub private_config: Option<PathBuf>,
    pub start_server: bool,
    /// `--target NAME=SPEC`, in the order given.
    pub targets: Vec<String>,
    pub targets_file: Option<PathBuf>,
    pub max_connected_targets: Option<String>,
    pub deployment: Option<String>,
}
