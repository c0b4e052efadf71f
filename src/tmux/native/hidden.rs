//! A control client that attaches to no session: tmux's control mode without the
//! attach.
//!
//! `tmux -C` sends a command (`attach-session` by default) and, once it has run, the
//! server ends any client that is not attached. A client that identifies as a control
//! client (`CLIENT_CONTROL`, with its standard input and output handed over as
//! descriptors) and sends no command is never ended: tmux reads command lines from
//! the input descriptor and writes `%begin`/`%end` blocks to the output descriptor,
//! exactly as for `tmux -C`, for as long as the input stays open. With no session it
//! is in no session's client count, `list-clients` does not show it, `tmux attach`
//! chooses as before, and no `%output` is sent to it. So it may be used on any
//! server, where an attached control client may not ([`crate::tmux::control::policy`]).
//!
//! This matters most on a server with many panes: tmux's cost per connection (an event
//! loop pass over every pane's descriptor, and a count of its open descriptors before
//! each read) is paid once here instead of once per call.

use std::collections::VecDeque;
use std::io::IoSlice;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::net::{SendAncillaryBuffer, SendAncillaryMessage, SendFlags};
use tokio::io::{AsyncWriteExt, Interest};
use tokio::net::unix::pipe;
use tokio::net::UnixStream;

use super::exchange::{opening_parts, Identity, Standard};
use super::imsg::{kind, take_frame};

/// A hidden control client's descriptors. Dropping `input` ends the client.
pub struct Hidden {
    /// The connection that identified the client; tmux drops the client when it
    /// closes, and may write to it (read and dropped, see [`drain`]).
    pub socket: UnixStream,
    /// Command lines go here.
    pub input: pipe::Sender,
    /// tmux's control-mode output comes from here.
    pub output: pipe::Receiver,
}

/// Identifies a hidden control client on the server at `socket`.
///
/// # Errors
/// The socket could not be reached or written, or a pipe could not be made.
pub async fn open(socket: &Path, identity: &Identity<'_>) -> std::io::Result<Hidden> {
    let mut client = Identifying::connect(socket, identity).await?;
    while client.writes_left() > 0 {
        client.write_next().await?;
    }
    client.identified()
}

/// A hidden control client part way through identifying itself: connected, its pipes
/// made, and the writes of its opening sent one at a time. Dropping it ends the client
/// wherever it stands (what a paneward that is killed meanwhile does).
pub struct Identifying {
    stream: UnixStream,
    /// Our ends of the pipes.
    input: OwnedFd,
    output: OwnedFd,
    /// The opening's writes still to send, in order, each with the descriptor that
    /// goes with it: tmux's end of a pipe, with the write that ends in its frame.
    writes: VecDeque<(Vec<u8>, Option<OwnedFd>)>,
}

impl Identifying {
    /// Connects to the server at `socket` and makes the pipes; nothing is written yet.
    ///
    /// # Errors
    /// The socket could not be reached, or a pipe could not be made.
    pub async fn connect(socket: &Path, identity: &Identity<'_>) -> std::io::Result<Self> {
        let stream = UnixStream::connect(socket).await?;
        // CLOEXEC: a child paneward starts must not hold the client open.
        let (server_input, input) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
        let (output, server_output) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
        let [with_input, with_output, rest, flags_and_end] = opening_parts(identity, Standard::Control);
        let writes = [
            (with_input, Some(server_input)),
            (with_output, Some(server_output)),
            (rest, None),
            (flags_and_end, None),
        ];
        Ok(Self {
            stream,
            input,
            output,
            writes: writes.into(),
        })
    }

    /// How many writes of the opening are still to send.
    pub fn writes_left(&self) -> usize {
        self.writes.len()
    }

    /// Sends the next write of the opening, with the descriptor that goes with it.
    ///
    /// # Errors
    /// The socket could not be written, or the opening was all sent already.
    pub async fn write_next(&mut self) -> std::io::Result<()> {
        let Some((bytes, descriptor)) = self.writes.pop_front() else {
            return Err(std::io::Error::other("the opening was all sent"));
        };
        match descriptor {
            Some(fd) => send_with_fd(&mut self.stream, &bytes, fd.as_fd()).await,
            None => self.stream.write_all(&bytes).await,
        }
        // tmux holds its own copy of a descriptor sent; ours closes here.
    }

    /// The identified client.
    fn identified(self) -> std::io::Result<Hidden> {
        Ok(Hidden {
            socket: self.stream,
            input: pipe::Sender::from_owned_fd(self.input)?,
            output: pipe::Receiver::from_owned_fd(self.output)?,
        })
    }
}

/// Writes `bytes` with `fd` attached to the first of them.
async fn send_with_fd(stream: &mut UnixStream, bytes: &[u8], fd: BorrowedFd<'_>) -> std::io::Result<()> {
    let descriptors = [fd];
    let sent = stream
        .async_io(Interest::WRITABLE, || {
            let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
            let mut control = SendAncillaryBuffer::new(&mut space);
            control.push(SendAncillaryMessage::ScmRights(&descriptors));
            rustix::net::sendmsg(&*stream, &[IoSlice::new(bytes)], &mut control, SendFlags::NOSIGNAL)
                .map_err(std::io::Error::from)
        })
        .await?;
    // The descriptor went with the first bytes; the rest follows plainly.
    stream.write_all(&bytes[sent..]).await
}

/// Reads what tmux writes to the client's socket until it says the client is to exit
/// (the server is shutting down, or ended the client), then closes it. A control
/// client's replies go to its output descriptor; nothing else on the socket matters,
/// but it must be read, and a server that shuts down waits for every client to close
/// its socket before it exits and closes the pipes.
pub async fn drain(mut socket: UnixStream) {
    let mut inbox = Vec::with_capacity(4096);
    loop {
        match tokio::io::AsyncReadExt::read_buf(&mut socket, &mut inbox).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        while let Ok(Some(frame)) = take_frame(&mut inbox) {
            if matches!(frame.kind, kind::EXIT | kind::SHUTDOWN | kind::EXITED | kind::VERSION) {
                return;
            }
        }
        // A frame this client cannot read: give up on the client.
        if take_frame(&mut inbox).is_err() {
            return;
        }
    }
}
