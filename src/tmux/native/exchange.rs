//! One conversation with the tmux server, as the `tmux` binary has it for
//! `tmux -u source-file -` (or for a command given as arguments): identify, send the
//! command, feed the script when tmux asks for standard input, collect what tmux writes
//! to standard output and error, and stop at the exit message. The client never
//! attaches, so nothing a person sees changes.

use std::collections::HashMap;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::UnixStream;

use super::imsg::{
    int, int_at, kind, push_frame_with_fd, push_versioned_frame, take_frame, Frame, MAX_PAYLOAD, PROTOCOL_VERSION,
};

/// tmux's `CLIENT_UTF8` (`tmux -u`): output in UTF-8 whatever the locale.
const CLIENT_UTF8: u64 = 0x10000;
/// tmux's `CLIENT_DEFAULTSOCKET`: the socket path was built from a name.
const CLIENT_DEFAULTSOCKET: u64 = 0x0800_0000;
/// tmux's `CLIENT_CONTROL` (`tmux -C`): commands come as lines on standard input.
const CLIENT_CONTROL: u64 = 0x2000;
/// `EBADF`, the error tmux's own client answers for a file it will not open.
const EBADF: i32 = 9;

/// What the client tells the server about itself.
pub struct Identity<'a> {
    /// The protocol version announced: [`PROTOCOL_VERSION`] but to test the fallback.
    pub protocol: u32,
    pub default_socket: bool,
    /// `NAME=value` entries, as the `tmux` binary passes its environment.
    pub environment: Vec<Vec<u8>>,
    pub term: &'a [u8],
    pub cwd: &'a [u8],
}

impl Identity<'_> {
    /// The process's environment as the server needs it, without `TMUX_PANE` when
    /// `clientless`.
    ///
    /// tmux 3.3a's server reads a command client's environment in few places: `TMUX_PANE`
    /// (the current pane of a command with no target), `TMUX` (whether the client is
    /// nested), `PATH` (the path of a pane the client spawns), and the variables named in
    /// `update-environment`, copied into a session only by `new-session` (and by attaching
    /// commands, which a client with no terminal cannot run). So the whole environment
    /// goes only with a `new-session` (`whole`); every other round trip sends those three,
    /// and saves the server one message per variable (about a third of a round trip's
    /// cost with a usual environment).
    pub fn environment(clientless: bool, whole: bool) -> Vec<Vec<u8>> {
        std::env::vars_os()
            .filter(|(key, _)| !(clientless && key == "TMUX_PANE"))
            .filter(|(key, _)| whole || key == "TMUX_PANE" || key == "TMUX" || key == "PATH")
            .map(|(key, value)| {
                let mut entry = key.as_bytes().to_vec();
                entry.push(b'=');
                entry.extend_from_slice(value.as_bytes());
                entry
            })
            .collect()
    }
}

/// How a conversation ended.
#[derive(Debug)]
pub struct Exit {
    pub status: i32,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Why a conversation gave no exit status.
#[derive(Debug)]
pub enum Failure {
    /// The socket could not be reached; a `tmux` process says why in tmux's words.
    NotReached(std::io::Error),
    /// This server cannot be spoken to this way (another protocol version, or a reply
    /// this client does not understand). `sent` says whether the command had gone out.
    Unspoken { reason: String, sent: bool },
    /// Standard output passed `cap` bytes.
    TooLarge,
    /// Reading or writing the socket failed after the command went out.
    Io(std::io::Error),
}

/// What the client asks tmux to run.
pub enum Request<'a> {
    /// `source-file -`, with this script given when tmux asks for standard input.
    Script(&'a [u8]),
    /// A `MSG_COMMAND` payload (see [`command_payload`]): no standard input to ask for.
    Arguments(&'a [u8]),
}

/// The payload of `MSG_COMMAND` for `argv`: argc, then the arguments packed with their
/// terminating NULs; `None` when it does not fit one message or an argument holds a NUL.
pub fn command_payload<'a>(argv: impl IntoIterator<Item = &'a str>) -> Option<Vec<u8>> {
    let mut argc: i32 = 0;
    let mut packed = Vec::with_capacity(1024);
    for arg in argv {
        if arg.as_bytes().contains(&0) {
            return None;
        }
        packed.extend_from_slice(arg.as_bytes());
        packed.push(0);
        argc = argc.checked_add(1)?;
    }
    let mut payload = int(argc).to_vec();
    payload.append(&mut packed);
    (payload.len() <= MAX_PAYLOAD).then_some(payload)
}

/// Runs `request` on the server at `socket`.
///
/// # Errors
/// See [`Failure`].
pub async fn converse(
    socket: &Path,
    identity: &Identity<'_>,
    request: Request<'_>,
    cap: usize,
) -> Result<Exit, Failure> {
    let stream = UnixStream::connect(socket).await.map_err(Failure::NotReached)?;
    let (mut reader, mut writer) = stream.into_split();
    let source_file;
    let (command, script): (&[u8], &[u8]) = match request {
        Request::Script(script) => {
            source_file = command_payload(["source-file", "-"]).unwrap_or_default();
            (&source_file, script)
        }
        Request::Arguments(payload) => (payload, b""),
    };
    let mut outbox = opening(identity, Standard::Unset);
    push_versioned_frame(&mut outbox, kind::COMMAND, identity.protocol, command);
    let mut inbox = Vec::with_capacity(64 * 1024);
    let mut conversation = Conversation {
        script,
        protocol: identity.protocol,
        script_sent: false,
        sinks: HashMap::new(),
        stdout: Vec::new(),
        stderr: Vec::new(),
        cap,
    };
    loop {
        tokio::select! {
            read = reader.read_buf(&mut inbox) => {
                match read {
                    Ok(0) => {
                        // The server went away without an exit message: what tmux's own
                        // client reports then.
                        let mut stderr = conversation.stderr;
                        stderr.extend_from_slice(b"server exited unexpectedly\n");
                        return Ok(Exit { status: 1, stdout: conversation.stdout, stderr });
                    }
                    Ok(_) => {}
                    Err(error) => return Err(Failure::Io(error)),
                }
                while let Some(frame) = take_frame(&mut inbox).map_err(|reason| Failure::Unspoken { reason, sent: true })? {
                    if let Some(status) = conversation.on_frame(&frame, &mut outbox)? {
                        return Ok(Exit { status, stdout: conversation.stdout, stderr: conversation.stderr });
                    }
                }
            }
            written = writer.write(&outbox), if !outbox.is_empty() => {
                let written = written.map_err(Failure::Io)?;
                outbox.drain(..written);
            }
        }
    }
}

/// What the client says of its standard input and output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standard {
    /// No descriptors: the server treats us as the `tmux` of a script, never as a
    /// terminal, and asks for input and output by message.
    Unset,
    /// A control client's: descriptors sent with the frames, in the order standard
    /// input, standard output ([`push_frame_with_fd`]).
    Control,
}

/// The identify messages, up to `MSG_IDENTIFY_DONE`, as one piece.
pub fn opening(identity: &Identity<'_>, standard: Standard) -> Vec<u8> {
    opening_parts(identity, standard).concat()
}

/// The identify messages in four parts: up to the standard input's frame, the standard
/// output's frame, the client's pid and environment, and last the flags with
/// `MSG_IDENTIFY_DONE`.
///
/// tmux takes at most one descriptor per read of its socket (imsg's rule), so each
/// descriptor goes in a write of its own, with the part that ends in its frame.
///
/// The flags go last, beside the end, unlike `tmux`'s own client, which sends them
/// first. tmux 3.3a sets `CLIENT_CONTROL` as soon as it reads the flags but makes the
/// control client's state only at `MSG_IDENTIFY_DONE`; a client that goes in between
/// (a paneward killed during its first call) crashes the server, which stops a
/// control client it never started (docs/tmux-quirks.md). tmux takes the identify
/// messages in any order. The last part is a few dozen bytes, which the kernel queues
/// whole in one write, so tmux reads the flags only where the end follows them.
pub fn opening_parts(identity: &Identity<'_>, standard: Standard) -> [Vec<u8>; 4] {
    let mut parts: [Vec<u8>; 4] = Default::default();
    let mut out = Vec::with_capacity(8 * 1024);
    let push_frame =
        |out: &mut Vec<u8>, kind, payload: &[u8]| push_versioned_frame(out, kind, identity.protocol, payload);
    push_frame(&mut out, kind::IDENTIFY_TERM, &c_string(identity.term));
    push_frame(&mut out, kind::IDENTIFY_FEATURES, &int(0));
    // No terminal: an empty name.
    push_frame(&mut out, kind::IDENTIFY_TTYNAME, b"\0");
    let cwd = if identity.cwd.len() < MAX_PAYLOAD {
        identity.cwd
    } else {
        b"/"
    };
    push_frame(&mut out, kind::IDENTIFY_CWD, &c_string(cwd));
    for (part, stream) in [kind::IDENTIFY_STDIN, kind::IDENTIFY_STDOUT].into_iter().enumerate() {
        match standard {
            Standard::Unset => push_frame(&mut out, stream, &[]),
            Standard::Control => push_frame_with_fd(&mut out, stream, identity.protocol, &[]),
        }
        parts[part] = std::mem::take(&mut out);
    }
    let pid = i32::try_from(std::process::id()).unwrap_or(0);
    push_frame(&mut out, kind::IDENTIFY_CLIENTPID, &int(pid));
    for entry in &identity.environment {
        // tmux's client skips what does not fit in one message; so do we.
        if entry.len() < MAX_PAYLOAD && !entry.contains(&0) {
            push_frame(&mut out, kind::IDENTIFY_ENVIRON, &c_string(entry));
        }
    }
    parts[2] = std::mem::take(&mut out);
    let mut flags = CLIENT_UTF8;
    if identity.default_socket {
        flags |= CLIENT_DEFAULTSOCKET;
    }
    if standard == Standard::Control {
        flags |= CLIENT_CONTROL;
    }
    // The short form is a C int; these flags fit in it.
    push_frame(&mut out, kind::IDENTIFY_FLAGS, &int(i32::try_from(flags).unwrap_or(0)));
    push_frame(&mut out, kind::IDENTIFY_LONGFLAGS, &flags.to_ne_bytes());
    push_frame(&mut out, kind::IDENTIFY_DONE, &[]);
    parts[3] = out;
    parts
}

fn c_string(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 1);
    out.extend_from_slice(bytes);
    out.push(0);
    out
}

/// The state of one conversation after the opening.
struct Conversation<'a> {
    script: &'a [u8],
    protocol: u32,
    script_sent: bool,
    /// Which of our streams (1 standard output, 2 standard error) each tmux stream is.
    sinks: HashMap<i32, i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    cap: usize,
}

impl Conversation<'_> {
    /// Handles one frame; `Some(status)` once tmux has said the client may exit.
    fn on_frame(&mut self, frame: &Frame, outbox: &mut Vec<u8>) -> Result<Option<i32>, Failure> {
        let unspoken = |reason: String| Failure::Unspoken { reason, sent: true };
        if frame.kind == kind::VERSION {
            return Err(Failure::Unspoken {
                reason: format!(
                    "tmux speaks client protocol version {}, paneward spoke {}",
                    frame.version, self.protocol
                ),
                sent: false,
            });
        }
        if frame.version != PROTOCOL_VERSION {
            return Err(unspoken(format!(
                "tmux sent a message of protocol version {}, paneward speaks {PROTOCOL_VERSION}",
                frame.version
            )));
        }
        let payload = frame.payload.as_slice();
        let short = || unspoken(format!("tmux sent a message of type {} that is too short", frame.kind));
        match frame.kind {
            kind::READ_OPEN => {
                let stream = int_at(payload, 0).ok_or_else(short)?;
                let fd = int_at(payload, 4).ok_or_else(short)?;
                self.open_read(stream, fd, outbox);
            }
            kind::WRITE_OPEN => {
                let stream = int_at(payload, 0).ok_or_else(short)?;
                let fd = int_at(payload, 4).ok_or_else(short)?;
                let error = if fd == 1 || fd == 2 {
                    self.sinks.insert(stream, fd);
                    0
                } else {
                    // A file tmux wants the client to write: paneward writes none.
                    EBADF
                };
                let mut reply = int(stream).to_vec();
                reply.extend_from_slice(&int(error));
                push_versioned_frame(outbox, kind::WRITE_READY, self.protocol, &reply);
            }
            kind::WRITE => {
                let stream = int_at(payload, 0).ok_or_else(short)?;
                let data = &payload[4..];
                match self.sinks.get(&stream) {
                    Some(1) => {
                        if self.stdout.len() + data.len() > self.cap {
                            return Err(Failure::TooLarge);
                        }
                        self.stdout.extend_from_slice(data);
                    }
                    // Error text is short; keep a bounded amount of it.
                    Some(_) if self.stderr.len() < 64 * 1024 => self.stderr.extend_from_slice(data),
                    _ => {}
                }
            }
            kind::EXIT => {
                let status = int_at(payload, 0).unwrap_or(0);
                if let Some(message) = payload.get(4..).filter(|m| m.first().is_some_and(|&b| b != 0)) {
                    let text = message.split(|&b| b == 0).next().unwrap_or_default();
                    self.stderr.extend_from_slice(text);
                    self.stderr.push(b'\n');
                }
                return Ok(Some(status));
            }
            kind::SHUTDOWN => {
                self.stderr.extend_from_slice(b"server exited unexpectedly\n");
                return Ok(Some(1));
            }
            kind::READY | kind::DETACH | kind::DETACHKILL => {
                return Err(unspoken(format!(
                    "tmux treated the command client as attached (message {})",
                    frame.kind
                )));
            }
            kind::OLDSTDERR..=kind::OLDSTDOUT => {
                return Err(unspoken("the tmux server is older than protocol 8".into()));
            }
            // Flag changes, the end of an exit and closes of our standard streams need
            // no answer; a later tmux may add messages a command client can ignore.
            kind::FLAGS | kind::EXITED | kind::WRITE_CLOSE => {}
            _ => {}
        }
        Ok(None)
    }

    /// tmux asks for standard input (`source-file -`): the script, once, then its end.
    fn open_read(&mut self, stream: i32, fd: i32, outbox: &mut Vec<u8>) {
        let mut error = 0;
        if fd == 0 && !self.script_sent {
            self.script_sent = true;
            for chunk in self.script.chunks(MAX_PAYLOAD - 4) {
                let mut data = Vec::with_capacity(chunk.len() + 4);
                data.extend_from_slice(&int(stream));
                data.extend_from_slice(chunk);
                push_versioned_frame(outbox, kind::READ, self.protocol, &data);
            }
        } else if fd != 0 {
            // A file tmux wants the client to read: paneward reads none.
            error = EBADF;
        }
        let mut done = int(stream).to_vec();
        done.extend_from_slice(&int(error));
        push_versioned_frame(outbox, kind::READ_DONE, self.protocol, &done);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds_and_flags(mut bytes: Vec<u8>) -> Vec<(u32, u16)> {
        let mut seen = Vec::new();
        while bytes.len() >= 16 {
            let flags = u16::from_ne_bytes([bytes[6], bytes[7]]);
            let frame = take_frame(&mut bytes).unwrap().unwrap();
            seen.push((frame.kind, flags));
        }
        seen
    }

    #[test]
    fn a_control_opening_hands_over_two_descriptors_one_part_each() {
        let identity = Identity {
            protocol: PROTOCOL_VERSION,
            default_socket: false,
            environment: vec![b"A=b".to_vec()],
            term: b"screen",
            cwd: b"/",
        };
        let [first, second, third, last] = opening_parts(&identity, Standard::Control);
        let first = kinds_and_flags(first);
        assert_eq!(first.last(), Some(&(kind::IDENTIFY_STDIN, 1)));
        assert!(first[..first.len() - 1].iter().all(|&(_, flags)| flags == 0));
        assert_eq!(kinds_and_flags(second), [(kind::IDENTIFY_STDOUT, 1)]);
        let third = kinds_and_flags(third);
        assert!(third.iter().all(|&(_, flags)| flags == 0));
        assert_eq!(
            kinds_and_flags(last),
            [
                (kind::IDENTIFY_FLAGS, 0),
                (kind::IDENTIFY_LONGFLAGS, 0),
                (kind::IDENTIFY_DONE, 0)
            ]
        );
        assert!(
            !third.iter().any(|&(kind, _)| kind == kind::COMMAND),
            "a hidden client sends no command"
        );
        // The one-shot client's opening carries no descriptor at all.
        let plain = kinds_and_flags(opening(&identity, Standard::Unset));
        assert!(plain.iter().all(|&(_, flags)| flags == 0));
    }

    #[test]
    fn the_control_flag_comes_only_in_a_small_last_part_beside_the_end() {
        let environment = (0..500).map(|i| format!("VARIABLE_{i}=value").into_bytes()).collect();
        let identity = Identity {
            protocol: PROTOCOL_VERSION,
            default_socket: true,
            environment,
            term: b"screen",
            cwd: b"/",
        };
        let parts = opening_parts(&identity, Standard::Control);
        let flag_kinds = [kind::IDENTIFY_FLAGS, kind::IDENTIFY_LONGFLAGS];
        for part in &parts[..3] {
            assert!(!kinds_and_flags(part.clone())
                .iter()
                .any(|(kind, _)| flag_kinds.contains(kind)));
        }
        let mut last = parts[3].clone();
        // Small enough that the kernel queues it in one piece, however large the
        // environment before it.
        assert!(last.len() <= 64, "{} bytes", last.len());
        let short = take_frame(&mut last).unwrap().unwrap();
        let long = take_frame(&mut last).unwrap().unwrap();
        let short = u64::try_from(i32::from_ne_bytes(short.payload[..].try_into().unwrap())).unwrap();
        let long = u64::from_ne_bytes(long.payload[..].try_into().unwrap());
        assert_eq!(short, long);
        assert_eq!(long, CLIENT_UTF8 | CLIENT_DEFAULTSOCKET | CLIENT_CONTROL);
        assert_eq!(take_frame(&mut last).unwrap().unwrap().kind, kind::IDENTIFY_DONE);
        assert!(last.is_empty());
    }
}
