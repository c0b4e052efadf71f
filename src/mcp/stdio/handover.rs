//! rmcp's side of the stdio layer: messages handed over in memory.
//!
//! The stdio layer reads each client line once; what it forwards reaches rmcp as the
//! message it already parsed, and rmcp's messages come back typed, to be written once
//! with the client's id. Before this, both directions went through an in-process pipe
//! as text: a second parse of every request, and each reply encoded, copied through
//! the pipe and read back as a line before it reached the client (BENCHMARKS.md, "The
//! stdio layer hands rmcp messages, not lines").

use std::future::Future;
use std::io;

use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use tokio::sync::mpsc;

/// The transport rmcp serves on: client messages in, server messages out, each through
/// a bounded queue, so a slow client holds rmcp back as a full pipe did.
pub struct Handover {
    from_client: mpsc::Receiver<ClientJsonRpcMessage>,
    /// `None` once rmcp has closed the transport: the writer then ends when the last
    /// send in progress has been taken.
    to_client: Option<mpsc::Sender<ServerJsonRpcMessage>>,
}

impl Handover {
    pub fn new(
        from_client: mpsc::Receiver<ClientJsonRpcMessage>,
        to_client: mpsc::Sender<ServerJsonRpcMessage>,
    ) -> Self {
        Self {
            from_client,
            to_client: Some(to_client),
        }
    }
}

impl Transport<RoleServer> for Handover {
    type Error = io::Error;

    fn send(&mut self, item: ServerJsonRpcMessage) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let to_client = self.to_client.clone();
        async move {
            let Some(to_client) = to_client else {
                return Err(io::Error::new(io::ErrorKind::NotConnected, "the transport is closed"));
            };
            to_client
                .send(item)
                .await
                .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the client is gone"))
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        self.from_client.recv().await
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.to_client = None;
        Ok(())
    }
}
