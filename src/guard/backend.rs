//! The tmux server paneward drives. It is held in the guard state and reachable for
//! commands only by the gates and the checks beside them (`tmux` is the guard's own).

use crate::tmux::{Tmux, Transport};

/// The tmux server paneward drives, reachable for commands only through a gate.
#[derive(Debug, Clone)]
pub struct Backend {
    tmux: Tmux,
}

impl Backend {
    pub fn new(tmux: Tmux) -> Self {
        Self { tmux }
    }

    /// Whether round trips sent together reach tmux in the order they were sent.
    pub async fn keeps_order(&self) -> bool {
        self.tmux.keeps_order().await
    }

    /// Runs `work` with its one-shot reads gathered into one round trip wherever it
    /// waits; see [`Tmux::gathered`].
    pub async fn gathered<F: std::future::Future>(&self, work: F) -> F::Output {
        self.tmux.gathered(work).await
    }

    /// How the last round trip was sent, if one ran.
    pub async fn last_transport(&self) -> Option<Transport> {
        self.tmux.last_transport().await
    }

    /// Whether a control connection to the server is open (a fleet counts them).
    pub async fn is_connected(&self) -> bool {
        self.tmux.is_connected().await
    }

    /// Closes the control connection; the next call connects again (a fleet closes its
    /// least recently used idle target beyond `--max-connected-targets`).
    pub async fn disconnect(&self) -> bool {
        self.tmux.disconnect().await
    }

    /// The handle, for the gates' own checks in this module's siblings.
    pub(super) fn tmux(&self) -> &Tmux {
        &self.tmux
    }
}
