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
