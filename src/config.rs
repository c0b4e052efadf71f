//! What the server runs with: which tmux server, which binary, which safety tier.
//!
//! The server is fixed at start-up so that no tool call can point paneward at another
//! one. A bad setting stops start-up with a message; it never silently widens what a
//! model may do.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use crate::catalog::profile::Profile;
use crate::tmux::ssh::SshTarget;
use crate::tmux::ServerAddress;
use paneward_contract::Tier;

/// Everything the server needs to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// tmux on another host, reached through ssh (`--ssh`); `None`: this machine.
    pub ssh: Option<SshTarget>,
    /// The tmux binary; with `ssh`, a name or path on the far host.
    pub tmux_binary: PathBuf,
    pub address: ServerAddress,
    pub safety: Tier,
    /// Which objects tools above readonly may touch (`--scope`).
    pub scope: Scope,
    /// Whether `show_environment` returns values; they may be secrets, so off unless asked.
    pub reveal_environment: bool,
    /// Whether `run_command` prints each command in its pane for a person watching,
    /// unless a call says otherwise (`--show-commands`).
    pub show_commands: bool,
    /// Whether input may reach a pane a terminal attached to tmux shows, which is
    /// otherwise refused unless paneward's (`--allow-attended-input`; `guard::attended`).
    pub allow_attended_input: bool,
    /// Under `--profile python`: whether `run_command` keeps a command out of the shell's
    /// history when the call does not say (`LIBTMUX_SUPPRESS_HISTORY`, on unless `0`).
    pub suppress_history: bool,
    /// Whether tmux may be driven over a persistent control-mode client (where it goes
    /// unnoticed); off, every round trip is a tmux process of its own.
    pub control_mode: bool,
    /// Whether tmux may be driven as tmux's own command client does, over its socket
    /// with no process spawned; off, a round trip outside control mode is a tmux process.
    pub native_client: bool,
    /// A control-mode client in no session (`--no-hidden-client` turns it off).
    pub hidden_client: bool,
    /// The most tmux connections or processes paneward has open at once, besides the
    /// control connection.
    pub max_tmux_clients: usize,
    /// The longest a call may wait for a command or a job (`--max-wait`); longer
    /// timeouts asked for are clamped to it, and the reply says so.
    pub max_wait: std::time::Duration,
    /// Which contract is advertised (`--profile`).
    pub profile: Profile,
    /// Which tools are served within the tier (`--toolsets`, `--tools`, `--exclude-tools`).
    pub surface: crate::catalog::surface::SurfaceChoice,
    /// Where the audit log goes, if anywhere (`--audit-log`).
    pub audit_log: Option<AuditTarget>,
    /// Which flag or variable chose `address`, for `paneward doctor`.
    pub address_origin: &'static str,
    /// The NAME of `--private NAME`: paneward's own server, `tmux -L paneward-NAME`.
    pub private: Option<String>,
    /// Whether `create_session` may start the server when none runs, and how.
    pub server_start: ServerStart,
    /// The tmux servers of a fleet (`--target`, `--targets-file`), in the order given;
    /// empty unless there are several (one target is `address` and `ssh` above).
    pub targets: Vec<TargetSpec>,
    /// The most targets connected at once (`--max-connected-targets`).
    pub max_connected_targets: usize,
    /// The name `serverInfo` gives (`--deployment`); `None`: `paneward`.
    pub deployment: Option<String>,
}

/// One target of a fleet: a name an agent writes in ids (`NAME/%3`) and the tmux
/// server it stands for, both fixed at start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetSpec {
    pub name: String,
    /// The socket, on this machine or on the far host.
    pub address: ServerAddress,
    /// The far host, when the server is reached through ssh.
    pub ssh: Option<SshTarget>,
    /// The SPEC as written, for `paneward doctor`.
    pub spec: String,
}

impl Config {
    /// This configuration narrowed to one target's server: its socket and host.
    pub fn for_target(&self, target: &TargetSpec) -> Config {
        Config {
            address: target.address.clone(),
            ssh: target.ssh.clone(),
            targets: Vec::new(),
            ..self.clone()
        }
    }
}

/// What a private server's socket name starts with, so a person can tell paneward's
/// servers from their own (`tmux -L paneward-NAME attach`).
pub const PRIVATE_SOCKET_PREFIX: &str = "paneward-";

/// Whether paneward may start the tmux server it is pointed at, when none runs there.
/// Always on a private server (`--private`); on any other socket only when the
/// person asked (`--start-server`), since a server started there is theirs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ServerStart {
    /// Never: `create_session` says no server runs.
    #[default]
    Refused,
    /// As `tmux new-session` would, reading tmux's own configuration files.
    TmuxConfig,
    /// With this file as the only configuration (`tmux -f FILE`; `/dev/null` for none).
    ConfigFile(PathBuf),
}

impl ServerStart {
    /// The global flags that choose the configuration a started server reads; `None`
    /// when starting is refused.
    pub fn config_flags(&self) -> Option<Vec<String>> {
        match self {
            Self::Refused => None,
            Self::TmuxConfig => Some(Vec::new()),
            Self::ConfigFile(path) => Some(vec!["-f".into(), path.to_string_lossy().into_owned()]),
        }
    }
}

/// Where `--audit-log` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditTarget {
    /// `-`: standard error.
    Stderr,
    File(PathBuf),
}

/// Which objects tools above readonly may touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// Every pane, window and session of the server (the default).
    #[default]
    All,
    /// Only what paneward created.
    Owned,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Owned => "owned",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scope {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "all" => Ok(Self::All),
            "owned" => Ok(Self::Owned),
            _ => Err(format!(
                "unknown scope {:?}; use owned or all",
                text.chars().take(40).collect::<String>()
            )),
        }
    }
}
