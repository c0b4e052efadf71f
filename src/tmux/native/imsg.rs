//! The framing tmux uses on its socket (OpenBSD's imsg) and the message numbers of
//! tmux's client protocol, version 8 (tmux 3.2 to 3.5).
//!
//! A frame is a 16-byte header in the host's byte order (type u32, total length u16,
//! flags u16, peer id u32, pid u32) and then the payload. tmux puts its protocol
//! version in the low byte of the peer id of every frame; a server that speaks another
//! version answers with `MSG_VERSION` and nothing else.

/// The protocol version paneward speaks.
pub const PROTOCOL_VERSION: u32 = 8;
/// The header length; the length field counts it.
pub const HEADER_LEN: usize = 16;
/// The largest frame tmux sends or accepts (`MAX_IMSGSIZE`).
pub const MAX_FRAME: usize = 16384;
/// The most payload one frame carries.
pub const MAX_PAYLOAD: usize = MAX_FRAME - HEADER_LEN;

/// Message types (tmux-protocol.h); only the ones paneward sends or expects.
pub mod kind {
    pub const VERSION: u32 = 12;
    pub const IDENTIFY_FLAGS: u32 = 100;
    pub const IDENTIFY_TERM: u32 = 101;
    pub const IDENTIFY_TTYNAME: u32 = 102;
    pub const IDENTIFY_STDIN: u32 = 104;
    pub const IDENTIFY_ENVIRON: u32 = 105;
    pub const IDENTIFY_DONE: u32 = 106;
    pub const IDENTIFY_CLIENTPID: u32 = 107;
    pub const IDENTIFY_CWD: u32 = 108;
    pub const IDENTIFY_FEATURES: u32 = 109;
    pub const IDENTIFY_STDOUT: u32 = 110;
    pub const IDENTIFY_LONGFLAGS: u32 = 111;
    pub const COMMAND: u32 = 200;
    pub const DETACH: u32 = 201;
    pub const DETACHKILL: u32 = 202;
    pub const EXIT: u32 = 203;
    pub const EXITED: u32 = 204;
    pub const READY: u32 = 207;
    pub const SHUTDOWN: u32 = 210;
    pub const OLDSTDERR: u32 = 211;
    pub const OLDSTDOUT: u32 = 213;
    pub const FLAGS: u32 = 218;
    pub const READ_OPEN: u32 = 300;
    pub const READ: u32 = 301;
    pub const READ_DONE: u32 = 302;
    pub const WRITE_OPEN: u32 = 303;
    pub const WRITE: u32 = 304;
    pub const WRITE_READY: u32 = 305;
    pub const WRITE_CLOSE: u32 = 306;
}

/// One frame read from tmux.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub kind: u32,
    /// The protocol version the sender put in the peer id.
    pub version: u32,
    pub payload: Vec<u8>,
}

/// Appends one frame to `out`. The caller keeps payloads within [`MAX_PAYLOAD`].
pub fn push_frame(out: &mut Vec<u8>, kind: u32, payload: &[u8]) {
    push_versioned_frame(out, kind, PROTOCOL_VERSION, payload);
}

/// imsg's `IMSGF_HASFD`: a descriptor sent with the frame's bytes belongs to it.
const HAS_FD: u16 = 1;

/// [`push_frame`] announcing protocol `version`.
pub fn push_versioned_frame(out: &mut Vec<u8>, kind: u32, version: u32, payload: &[u8]) {
    push_header(out, kind, version, payload, 0);
}

/// [`push_versioned_frame`] of a frame that carries a file descriptor: the caller sends
/// the descriptors (in frame order) with the bytes that hold these frames.
pub fn push_frame_with_fd(out: &mut Vec<u8>, kind: u32, version: u32, payload: &[u8]) {
    push_header(out, kind, version, payload, HAS_FD);
}

fn push_header(out: &mut Vec<u8>, kind: u32, version: u32, payload: &[u8], flags: u16) {
    let len = u16::try_from(HEADER_LEN + payload.len()).unwrap_or(u16::MAX);
    out.extend_from_slice(&kind.to_ne_bytes());
    out.extend_from_slice(&len.to_ne_bytes());
    out.extend_from_slice(&flags.to_ne_bytes());
    out.extend_from_slice(&version.to_ne_bytes());
    out.extend_from_slice(&u32::MAX.to_ne_bytes()); // pid: tmux's own client sends -1
    out.extend_from_slice(payload);
}

/// Takes the first whole frame off `buffer`, if one is there.
///
/// # Errors
/// A header whose length cannot be a frame.
pub fn take_frame(buffer: &mut Vec<u8>) -> Result<Option<Frame>, String> {
    if buffer.len() < HEADER_LEN {
        return Ok(None);
    }
    let word = |at: usize| u32::from_ne_bytes([buffer[at], buffer[at + 1], buffer[at + 2], buffer[at + 3]]);
    let kind = word(0);
    let len = usize::from(u16::from_ne_bytes([buffer[4], buffer[5]]));
    let version = word(8) & 0xff;
    if !(HEADER_LEN..=MAX_FRAME).contains(&len) {
        return Err(format!("a frame of type {kind} claims {len} bytes"));
    }
    if buffer.len() < len {
        return Ok(None);
    }
    let payload = buffer[HEADER_LEN..len].to_vec();
    buffer.drain(..len);
    Ok(Some(Frame { kind, version, payload }))
}

/// A C `int` in the host's byte order, as tmux's structures hold them.
pub fn int(value: i32) -> [u8; 4] {
    value.to_ne_bytes()
}

/// Reads the C `int` at `at` in `payload`.
pub fn int_at(payload: &[u8], at: usize) -> Option<i32> {
    let bytes = payload.get(at..at + 4)?;
    Some(i32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_round_trips_and_carries_the_protocol_version() {
        let mut wire = Vec::new();
        push_frame(&mut wire, kind::COMMAND, b"abc");
        push_frame(&mut wire, kind::IDENTIFY_DONE, b"");
        assert_eq!(wire.len(), 2 * HEADER_LEN + 3);
        let first = take_frame(&mut wire).unwrap().unwrap();
        assert_eq!(
            (first.kind, first.version, first.payload.as_slice()),
            (200, 8, &b"abc"[..])
        );
        let second = take_frame(&mut wire).unwrap().unwrap();
        assert_eq!((second.kind, second.payload.len()), (106, 0));
        assert!(wire.is_empty());
    }

    #[test]
    fn a_partial_frame_waits_and_an_impossible_length_is_an_error() {
        let mut wire = Vec::new();
        push_frame(&mut wire, kind::WRITE, b"0123456789");
        let mut partial = wire[..20].to_vec();
        assert_eq!(take_frame(&mut partial).unwrap(), None);
        let mut short = wire.clone();
        short[4..6].copy_from_slice(&3u16.to_ne_bytes());
        assert!(take_frame(&mut short).is_err());
    }
}
