//! The byte streams MCP runs on: standard input and output, polled by the runtime's
//! event loop wherever they can be.
//!
//! rmcp's `stdio_pipes` polls pipes and leaves anything else to tokio's blocking
//! stdio, which hands every read and write to another thread (two wake-ups per call;
//! measured, a fifth of a small call's latency on two busy cores). Clients built on
//! Node.js (libuv) give their servers Unix sockets, not pipes, so sockets are polled
//! here too: a duplicate of each descriptor, switched to non-blocking mode. That mode
//! belongs to the socket's open file description, which only this process holds (the
//! client has the other end), so nothing else sees the change.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::FileTypeExt;

use tokio::io::{AsyncRead, AsyncWrite};

type Reader = Box<dyn AsyncRead + Send + Unpin>;
type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// A duplicate of `fd` if it is a Unix socket.
fn socket(fd: impl AsFd) -> Option<OwnedFd> {
    let owned = fd.as_fd().try_clone_to_owned().ok()?;
    let file_type = std::fs::File::from(owned.try_clone().ok()?)
        .metadata()
        .ok()?
        .file_type();
    file_type.is_socket().then_some(owned)
}

fn polled(fd: OwnedFd) -> io::Result<tokio::net::UnixStream> {
    let stream = std::os::unix::net::UnixStream::from(fd);
    stream.set_nonblocking(true)?;
    tokio::net::UnixStream::from_std(stream)
}

/// Standard input and output for `serve`: polled sockets when both are sockets, else
/// rmcp's `stdio_pipes` (polled pipes, or blocking handles for anything else). Call it
/// inside the runtime.
pub fn standard_streams() -> (Reader, Writer) {
    if let (Some(input), Some(output)) = (socket(io::stdin()), socket(io::stdout())) {
        match (polled(input), polled(output)) {
            (Ok(input), Ok(output)) => {
                tracing::debug!("standard input and output are sockets, polled");
                return (Box::new(input), Box::new(output));
            }
            (Err(error), _) | (_, Err(error)) => {
                tracing::debug!(%error, "cannot poll the standard sockets; using blocking handles");
            }
        }
    }
    // A long reply goes to the client in one write where the pipe can hold it.
    crate::runtime::pipe::widen(io::stdout(), "standard output");
    let (input, output) = rmcp::transport::stdio_pipes();
    (Box::new(input), Box::new(output))
}
