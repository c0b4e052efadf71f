//! What the gates hold: the narrow state handlers and guards may reach, never the whole
//! `App` (catalogue, prompts, audit log and transports are not theirs to touch). The
//! request path's state (`crate::app::App`) holds one and hands it to the dispatch.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

use crate::config::{Config, Scope, ServerStart};
use crate::guard::backend::Backend;
use crate::guard::caller::CallerPane;
use crate::guard::typed::OwnInput;
use crate::runtime::Tier;
use crate::tmux::ServerAddress;

/// The state every gate of a call holds.
#[derive(Debug)]
pub struct GuardState {
    /// The tmux server; commands reach it only through the gates of this module's siblings.
    pub backend: Backend,
    /// The pane paneward runs in, if it runs inside tmux (checked per call against the
    /// server's own socket and pid).
    pub caller: Option<CallerPane>,
    /// The settings handlers and guards read.
    pub settings: Settings,
    /// The tmux buffers this process staged, deleted on a clean exit.
    pub staged_buffers: StagedBuffers,
    /// What this process typed into panes lately, which waits discount.
    pub own_input: OwnInput,
    /// The listing of every pane the last `search_panes` read: the next search's guess.
    pub last_listing: LastListing,
}

impl GuardState {
    pub fn new(backend: Backend, caller: Option<CallerPane>, config: &Config) -> Self {
        Self {
            backend,
            caller,
            settings: Settings::of(config),
            staged_buffers: StagedBuffers::default(),
            own_input: OwnInput::default(),
            last_listing: LastListing::default(),
        }
    }
}

/// The few settings of [`Config`] that handlers and guards read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// This server's tier (`--safety`), which `get_server_info` reports.
    pub safety: Tier,
    /// Which objects tools above readonly may touch (`--scope`).
    pub scope: Scope,
    /// Whether `show_environment` returns values.
    pub reveal_environment: bool,
    /// The longest a call may wait (`--max-wait`).
    pub max_wait: Duration,
    /// Whether `run_command` prints each command in its pane (`--show-commands`).
    pub show_commands: bool,
    /// Whether input to a pane a terminal attached to tmux shows is refused unless the
    /// pane is paneward's (`guard::attended`; off with `--allow-attended-input`).
    pub attended_guard: bool,
    /// Under `--profile python`, whether a command is kept out of the shell's history
    /// when the call does not say (`LIBTMUX_SUPPRESS_HISTORY`).
    pub suppress_history: bool,
    /// Which tmux server paneward drives.
    pub address: ServerAddress,
    /// The host tmux runs on with `--ssh`, as given; `None`: this machine.
    pub ssh_host: Option<String>,
    /// Whether `create_session` may start the server when none runs (`--private`,
    /// `--start-server`).
    pub server_start: ServerStart,
}

impl Settings {
    pub fn of(config: &Config) -> Self {
        Self {
            safety: config.safety,
            scope: config.scope,
            reveal_environment: config.reveal_environment,
            max_wait: config.max_wait,
            show_commands: config.show_commands,
            attended_guard: !config.allow_attended_input,
            suppress_history: config.suppress_history,
            address: config.address.clone(),
            ssh_host: config.ssh.as_ref().map(|ssh| ssh.destination.clone()),
            server_start: config.server_start.clone(),
        }
    }
}

/// The buffers this process staged and has not seen deleted
/// (`tools::input::buffers::delete_staged` deletes them on exit).
#[derive(Debug, Default)]
pub struct StagedBuffers(Mutex<BTreeSet<String>>);

impl StagedBuffers {
    pub fn insert(&self, name: &str) {
        if let Ok(mut names) = self.0.lock() {
            names.insert(name.to_string());
        }
    }

    pub fn remove(&self, name: &str) {
        if let Ok(mut names) = self.0.lock() {
            names.remove(name);
        }
    }

    pub fn take(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|mut names| std::mem::take(&mut *names).into_iter().collect())
            .unwrap_or_default()
    }
}

/// A listing of every pane as tmux printed it, kept from one `search_panes` to the next.
/// It is only ever a guess: the next search sends its captures with the same listing in
/// the same command list, and keeps them only if tmux lists the panes it guessed.
#[derive(Debug, Default)]
pub struct LastListing(Mutex<Option<String>>);

impl LastListing {
    pub fn take(&self) -> Option<String> {
        self.0.lock().ok().and_then(|mut listing| listing.take())
    }

    pub fn keep(&self, listing: String) {
        if let Ok(mut kept) = self.0.lock() {
            *kept = Some(listing);
        }
    }
}
