//! The state every tool call shares: configuration, the tool catalogue, the tmux
//! handle and the caller pane.

use crate::audit::AuditLog;
use crate::catalog::Catalog;
use crate::config::Config;
use crate::guard::caller::CallerPane;
use crate::guard::Backend;
use crate::limits::SSH_ONE_SHOTS_MAX;
use crate::prompts::Prompts;
use crate::tmux::ssh::Link;
use crate::tmux::{Launcher, Tmux};
use crate::tools::input::buffers::StagedBuffers;
use std::sync::Arc;

pub struct App {
    pub config: Config,
    pub catalog: Catalog,
    /// The prompts of `schemas/prompts`.
    pub prompts: Prompts,
    /// The tmux server; commands reach it only through the gates of `crate::guard`.
    pub backend: Backend,
    /// The pane paneward runs in, if it runs inside tmux (checked per call against the
    /// server's own socket and pid).
    pub caller: Option<CallerPane>,
    /// Where calls that change tmux, and batch rows, are recorded (`--audit-log`).
    pub audit: Option<AuditLog>,
    /// The tmux buffers this process staged, deleted on a clean exit.
    pub staged_buffers: StagedBuffers,
    /// The shared ssh connection to tmux's host (`--ssh`), closed on a clean exit.
    pub ssh: Option<Arc<Link>>,
}

impl App {
    /// Builds the state for `config`; `caller` comes from `TMUX`/`TMUX_PANE`.
    ///
    /// # Errors
    /// The generated tool table does not load (a build fault), the audit log cannot
    /// be opened, or (with `--ssh`) the private folder for the ssh connection cannot
    /// be made.
    pub fn new(config: Config, caller: Option<CallerPane>) -> Result<Self, String> {
        let catalog = Catalog::load(config.profile)?;
        let prompts = Prompts::load()?;
        let audit = match &config.audit_log {
            Some(target) => Some(AuditLog::open(target, catalog.input_schemas())?),
            None => None,
        };
        let options = crate::tmux::Options {
            control: config.control_mode,
            native: config.native_client,
            max_clients: match config.ssh {
                None => config.max_tmux_clients,
                Some(_) => config.max_tmux_clients.min(SSH_ONE_SHOTS_MAX),
            },
        };
        let launcher = launcher_for(&config)?;
        let ssh = launcher.ssh_link();
        let backend = Backend::new(Tmux::launched(launcher, config.address.clone(), options));
        Ok(Self {
            config,
            catalog,
            prompts,
            backend,
            caller,
            audit,
            staged_buffers: StagedBuffers::default(),
            ssh,
        })
    }

    /// Builds the state from the process environment. paneward cannot run inside a
    /// tmux on another host, so with `--ssh` there is no caller pane.
    ///
    /// # Errors
    /// As [`App::new`].
    pub fn from_env(config: Config) -> Result<Self, String> {
        if config.ssh.is_some() {
            return Self::new(config, None);
        }
        let tmux = std::env::var("TMUX").ok();
        let pane = std::env::var("TMUX_PANE").ok();
        Self::new(config, CallerPane::from_env(tmux.as_deref(), pane.as_deref()))
    }
}

/// What starts tmux for `config`: here, or through ssh on the host `--ssh` names.
///
/// # Errors
/// With `--ssh`, the private folder for the ssh connection cannot be made.
pub fn launcher_for(config: &Config) -> Result<Launcher, String> {
    Ok(match &config.ssh {
        None => Launcher::local(config.tmux_binary.clone()),
        Some(target) => Launcher::remote(config.tmux_binary.clone(), Arc::new(Link::new(target.clone())?)),
    })
}
