//! MCP resources: the tmux hierarchy, pane text and `run_command` jobs as `tmux://`
//! URIs, declared in `schemas/resources/` ([`declared`]), read through the inspect
//! tools' handlers ([`read`]), their template variables completed ([`complete`]), and
//! watched for a connection's subscriptions ([`watch`], [`probe`]); and the served
//! surface itself ([`capabilities`]), which the other resources follow ([`served`]).

pub mod attention;
pub mod capabilities;
pub mod complete;
pub mod declared;
pub mod probe;
pub mod read;
pub mod served;
pub mod uri;
pub mod watch;

use std::sync::Arc;

use crate::guard::state::GuardState;

/// The tmux servers the resources read: every resource reads `first`; the attention
/// list, one stream for everything paneward serves, reads every target of a fleet.
#[derive(Clone)]
pub struct Servers {
    /// The server paneward serves, or a fleet's first target.
    pub first: Arc<GuardState>,
    /// With several targets (`--target`), each by name in the operator's order; empty
    /// with one server.
    pub named: Vec<(String, Arc<GuardState>)>,
}

impl Servers {
    /// One server, no fleet.
    pub fn one(first: Arc<GuardState>) -> Self {
        Self {
            first,
            named: Vec::new(),
        }
    }
}
