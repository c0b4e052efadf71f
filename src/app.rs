//! The state every tool call shares: configuration, the tool catalogue, the tmux
//! handle and the caller pane.

use crate::audit::AuditLog;
use crate::catalog::Catalog;
use crate::config::Config;
use crate::guard::caller::CallerPane;
use crate::guard::state::GuardState;
use crate::guard::Backend;
use crate::limits::SSH_ONE_SHOTS_MAX;
use crate::prompts::Prompts;
use crate::tmux::ssh::Link;
use crate::tmux::{Launcher, Tmux};
use std::sync::Arc;

pub struct App {
    pub config: Config,
    pub catalog: Catalog,
    /// The prompts of `schemas/prompts`.
    pub prompts: Prompts,
    /// What the gates hold: the tmux server (reached only through them), the caller
    /// pane, the settings handlers read, the buffers this process staged.
    pub guard: Arc<GuardState>,
    /// Where calls that change tmux, and batch rows, are recorded (`--audit-log`).
    pub audit: Option<AuditLog>,
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
        let mut catalog = Catalog::load(config.profile)?;
        // libtmux-mcp advertises its LIBTMUX_SUPPRESS_HISTORY as run_command's default.
        if config.profile == crate::catalog::profile::Profile::Python && !config.suppress_history {
            catalog.set_argument_default("run_command", "suppress_history", serde_json::Value::Bool(false))?;
        }
        catalog.narrow(&config.surface, config.profile.default_toolsets(), config.safety)?;
        let prompts = Prompts::load()?;
        let audit = match &config.audit_log {
            Some(target) => Some(AuditLog::open(target, catalog.input_schemas())?),
            None => None,
        };
        let options = crate::tmux::Options {
            control: config.control_mode,
            native: config.native_client,
            hidden: config.hidden_client,
            max_clients: match config.ssh {
                None => config.max_tmux_clients,
                Some(_) => config.max_tmux_clients.min(SSH_ONE_SHOTS_MAX),
            },
        };
        let launcher = launcher_for(&config)?;
        let ssh = launcher.ssh_link();
        let backend = Backend::new(Tmux::launched(launcher, config.address.clone(), options));
        let guard = Arc::new(GuardState::new(backend, caller, &config));
        Ok(Self {
            config,
            catalog,
            prompts,
            guard,
            audit,
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
