//! What the server runs with: which tmux server, which binary, which safety tier.
//!
//! The server is fixed at start-up so that no tool call can point paneward at another
//! one. A bad setting stops start-up with a message; it never silently widens what a
//! model may do.

use std::path::PathBuf;

use crate::catalog::profile::Profile;
use crate::guard::scope::Scope;
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
    /// Whether tmux may be driven over a persistent control-mode client (where it goes
    /// unnoticed); off, every round trip is a tmux process of its own.
    pub control_mode: bool,
    /// Whether tmux may be driven as tmux's own command client does, over its socket
    /// with no process spawned; off, a round trip outside control mode is a tmux process.
    pub native_client: bool,
    /// The most tmux connections or processes paneward has open at once, besides the
    /// control connection.
    pub max_tmux_clients: usize,
    /// The longest a call may wait for a command or a job (`--max-wait`); longer
    /// timeouts asked for are clamped to it, and the reply says so.
    pub max_wait: std::time::Duration,
    /// Which contract is advertised (`--profile`).
    pub profile: Profile,
    /// Where the audit log goes, if anywhere (`--audit-log`).
    pub audit_log: Option<AuditTarget>,
    /// Which flag or variable chose `address`, for `paneward doctor`.
    pub address_origin: &'static str,
}

/// Where `--audit-log` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditTarget {
    /// `-`: standard error.
    Stderr,
    File(PathBuf),
}
