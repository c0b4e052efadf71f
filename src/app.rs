//! The state every tool call shares: configuration, the tool catalogue, the tmux
//! handle and the caller pane.

use crate::audit::AuditLog;
use crate::catalog::fleet::FleetRules;
use crate::catalog::Catalog;
use crate::config::{Config, TargetSpec};
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
    /// With several targets (`--target`): each one's state; `guard` is then the first
    /// target's (the resources read it).
    pub fleet: Option<Fleet>,
}

/// Several tmux servers behind one paneward, fixed at start-up.
pub struct Fleet {
    /// In the order the operator gave them: fan-out reads merge rows in this order.
    pub targets: Vec<Target>,
    /// paneward's own contract, which each target's share of a call is checked and run
    /// against (`App::catalog` is then the multi-target surface, advertised).
    pub inner: Catalog,
    pub rules: FleetRules,
    /// The most targets connected at once (`--max-connected-targets`).
    pub max_connected: usize,
    /// Target indices, least recently used first.
    used: std::sync::Mutex<Vec<usize>>,
}

/// One target: its name, what it stands for, and a state of its own, so that its
/// connection, caller pane, owned marks, grants and staged buffers stay its own.
pub struct Target {
    pub spec: TargetSpec,
    pub guard: Arc<GuardState>,
    pub ssh: Option<Arc<Link>>,
    /// Calls running on it now: a busy target is never disconnected.
    busy: std::sync::atomic::AtomicUsize,
}

impl Target {
    /// Marks a call running on this target until the mark is dropped.
    pub fn busy(&self) -> BusyMark<'_> {
        self.busy.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        BusyMark(&self.busy)
    }

    pub fn is_busy(&self) -> bool {
        self.busy.load(std::sync::atomic::Ordering::Acquire) > 0
    }
}

/// A call running on a target; see [`Target::busy`].
pub struct BusyMark<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for BusyMark<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

impl Fleet {
    pub fn target(&self, name: &str) -> Option<&Target> {
        self.targets.iter().find(|target| target.spec.name == name)
    }

    /// Records a use of target `index`; returns every index, least recently used first.
    pub fn touch(&self, index: usize) -> Vec<usize> {
        let Ok(mut used) = self.used.lock() else {
            return Vec::new();
        };
        used.retain(|&i| i != index);
        used.push(index);
        used.clone()
    }

    /// The targets' names, for messages: `a, b, c`.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.targets.iter().map(|t| t.spec.name.as_str()).collect();
        names.join(", ")
    }
}

impl App {
    /// Builds the state for `config`; `caller` comes from `TMUX`/`TMUX_PANE`.
    ///
    /// # Errors
    /// The generated tool table does not load (a build fault), the audit log cannot
    /// be opened, or (with `--ssh`) the private folder for the ssh connection cannot
    /// be made.
    pub fn new(config: Config, caller: Option<CallerPane>) -> Result<Self, String> {
        let catalog = served_catalog(&config)?;
        let prompts = Prompts::load()?;
        let audit = match &config.audit_log {
            Some(target) => Some(AuditLog::open(target, catalog.input_schemas())?),
            None => None,
        };
        if config.targets.len() > 1 {
            return Self::with_fleet(config, caller, catalog, prompts, audit);
        }
        let (guard, ssh) = target_state(&config, caller)?;
        Ok(Self {
            config,
            catalog,
            prompts,
            guard,
            audit,
            ssh,
            fleet: None,
        })
    }

    /// The state for several targets: each its own, built lazily connected.
    fn with_fleet(
        config: Config,
        caller: Option<CallerPane>,
        inner: Catalog,
        prompts: Prompts,
        audit: Option<AuditLog>,
    ) -> Result<Self, String> {
        let rules = FleetRules::load()?;
        let catalog = served_catalog(&config)?.into_fleet(&rules)?;
        let mut targets = Vec::with_capacity(config.targets.len());
        for spec in &config.targets {
            let narrowed = config.for_target(spec);
            // The caller pane is checked per call against the server's socket and pid,
            // so handing it to every local target marks it on its own server only.
            let caller = caller.clone().filter(|_| spec.ssh.is_none());
            let (guard, ssh) = target_state(&narrowed, caller)?;
            targets.push(Target {
                spec: spec.clone(),
                guard,
                ssh,
                busy: std::sync::atomic::AtomicUsize::new(0),
            });
        }
        let max_connected = config.max_connected_targets;
        let guard = targets
            .first()
            .map(|target| Arc::clone(&target.guard))
            .ok_or("a fleet needs at least one target")?;
        Ok(Self {
            config,
            catalog,
            prompts,
            guard,
            audit,
            ssh: None,
            fleet: Some(Fleet {
                targets,
                inner,
                rules,
                max_connected,
                used: std::sync::Mutex::new(Vec::new()),
            }),
        })
    }

    /// Every target's state: the one server's, or each target's of a fleet.
    pub fn guards(&self) -> Vec<&Arc<GuardState>> {
        match &self.fleet {
            None => vec![&self.guard],
            Some(fleet) => fleet.targets.iter().map(|target| &target.guard).collect(),
        }
    }

    /// Every shared ssh connection this process holds.
    pub fn ssh_links(&self) -> Vec<&Arc<Link>> {
        match &self.fleet {
            None => self.ssh.iter().collect(),
            Some(fleet) => fleet.targets.iter().filter_map(|target| target.ssh.as_ref()).collect(),
        }
    }
}

/// paneward's (or the profile's) catalogue, narrowed to what the operator serves.
fn served_catalog(config: &Config) -> Result<Catalog, String> {
    let mut catalog = Catalog::load(config.profile)?;
    // libtmux-mcp advertises its LIBTMUX_SUPPRESS_HISTORY as run_command's default.
    if config.profile == crate::catalog::profile::Profile::Python && !config.suppress_history {
        catalog.set_argument_default("run_command", "suppress_history", serde_json::Value::Bool(false))?;
    }
    catalog.narrow(&config.surface, config.profile.default_toolsets(), config.safety)?;
    Ok(catalog)
}

/// One tmux server's state (and its ssh connection) for `config`.
fn target_state(config: &Config, caller: Option<CallerPane>) -> Result<(Arc<GuardState>, Option<Arc<Link>>), String> {
    let options = crate::tmux::Options {
        control: config.control_mode,
        native: config.native_client,
        hidden: config.hidden_client,
        max_clients: match config.ssh {
            None => config.max_tmux_clients,
            Some(_) => config.max_tmux_clients.min(SSH_ONE_SHOTS_MAX),
        },
    };
    let launcher = launcher_for(config)?;
    let ssh = launcher.ssh_link();
    let backend = Backend::new(Tmux::launched(launcher, config.address.clone(), options));
    Ok((Arc::new(GuardState::new(backend, caller, config)), ssh))
}

impl App {
    /// Builds the state from the process environment. paneward cannot run inside a
    /// tmux on another host, so with `--ssh` there is no caller pane.
    ///
    /// # Errors
    /// As [`App::new`].
    pub fn from_env(config: Config) -> Result<Self, String> {
        if config.ssh.is_some() && config.targets.is_empty() {
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
