//! The opaque cursor of `capture_since`: where a caller stopped reading a pane, sealed
//! with a MAC so that paneward can trust it when it comes back.
//!
//! tmux numbers a pane's rows from the oldest line of history and renumbers them when
//! it trims or clears history, so a row number alone cannot say where a caller stopped.
//! A cursor therefore carries the pane, the pid of its program, the history size, the
//! row it stops after (the anchor) and a fingerprint of the rows ending there, to find
//! them again. The key is random per process: cursors do not outlive paneward.

use std::fmt;
use std::sync::OnceLock;

use hmac::{KeyInit, Mac};
use sha2::{Digest, Sha256};

use crate::runtime::error::ToolError;
use crate::tmux::PaneId;

type HmacSha256 = hmac::Hmac<Sha256>;

/// What every cursor text starts with; the digit is the payload version.
const PREFIX: &str = "pwc1.";
const VERSION: u8 = 1;
/// Bytes of the MAC kept: 128 bits make a forgery a matter of luck, not effort.
const TAG_LEN: usize = 16;
/// Bytes of the row fingerprint: enough that distinct rows never collide in practice.
pub const FINGERPRINT_LEN: usize = 16;
/// version, issuer, pane, pid, history size, anchor, fingerprint rows, fingerprint.
const PAYLOAD_LEN: usize = 1 + 8 + 4 + 4 + 8 + 8 + 1 + FINGERPRINT_LEN;
/// The anchor value that means "no row above the terminal cursor yet".
const NO_ANCHOR: u64 = u64::MAX;

/// Where a caller stopped reading a pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    pub pane: PaneId,
    /// The pid of the pane's program when the cursor was issued; a respawn changes it.
    pub pane_pid: u32,
    /// The pane's history size when the cursor was issued.
    pub history_size: u64,
    /// The absolute row (0 = oldest history row) the caller has read up to and
    /// including; `None` when nothing sat above the terminal cursor.
    pub anchor: Option<u64>,
    /// How many rows, ending at the anchor, the fingerprint covers.
    pub fingerprint_rows: u8,
    pub fingerprint: [u8; FINGERPRINT_LEN],
}

/// Why a cursor text was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorError {
    /// Not something paneward issues (wrong shape, length or version).
    Malformed,
    /// Issued by another paneward process (an earlier run, before a restart).
    OtherProcess,
    /// The right shape and issuer, but the MAC does not match: it was altered.
    Tampered,
}

impl fmt::Display for CursorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Malformed => "is not a cursor paneward issued; call capture_since without a cursor to start over",
            Self::OtherProcess => {
                "was issued by another paneward process (cursors are valid only for the process that issued them, \
                 and paneward was restarted); call capture_since without a cursor to start over"
            }
            Self::Tampered => {
                "was altered (its signature does not match); pass cursors back unchanged, or call capture_since \
                 without a cursor to start over"
            }
        })
    }
}

impl std::error::Error for CursorError {}

/// The secret that seals cursors, and the public id of the process that holds it.
pub struct CursorKey {
    /// Tells "issued by another process" apart from "altered" in error messages.
    issuer: [u8; 8],
    /// One SHA-256 block, HMAC's own key size.
    secret: [u8; 64],
}

impl CursorKey {
    /// A fresh random key.
    ///
    /// # Errors
    /// The operating system's random source failed.
    pub fn generate() -> Result<Self, String> {
        let mut issuer = [0u8; 8];
        let mut secret = [0u8; 64];
        getrandom::fill(&mut issuer).map_err(|e| e.to_string())?;
        getrandom::fill(&mut secret).map_err(|e| e.to_string())?;
        Ok(Self { issuer, secret })
    }

    /// This process's key, made on first use.
    ///
    /// # Errors
    /// The random source failed when the key was made.
    pub fn process() -> Result<&'static Self, ToolError> {
        static KEY: OnceLock<Result<CursorKey, String>> = OnceLock::new();
        KEY.get_or_init(Self::generate)
            .as_ref()
            .map_err(|e| ToolError::internal(format!("cannot make the cursor key: {e}")))
    }

    fn mac(&self) -> HmacSha256 {
        // A key of exactly one SHA-256 block is HMAC's native key size: no fallible path.
        HmacSha256::new(&self.secret.into())
    }

    /// The cursor as the opaque text handed to callers.
    pub fn seal(&self, cursor: &Cursor) -> String {
        let mut bytes = Vec::with_capacity(PAYLOAD_LEN + TAG_LEN);
        bytes.push(VERSION);
        bytes.extend_from_slice(&self.issuer);
        bytes.extend_from_slice(&cursor.pane.0.to_be_bytes());
        bytes.extend_from_slice(&cursor.pane_pid.to_be_bytes());
        bytes.extend_from_slice(&cursor.history_size.to_be_bytes());
        bytes.extend_from_slice(&cursor.anchor.unwrap_or(NO_ANCHOR).to_be_bytes());
        bytes.push(cursor.fingerprint_rows);
        bytes.extend_from_slice(&cursor.fingerprint);
        let mut mac = self.mac();
        mac.update(&bytes);
        let tag = mac.finalize().into_bytes();
        bytes.extend_from_slice(&tag[..TAG_LEN]);
        format!("{PREFIX}{}", crate::runtime::hex::encode(&bytes))
    }

    /// Reads a cursor text back, checking its issuer and MAC.
    ///
    /// # Errors
    /// See [`CursorError`].
    pub fn open(&self, text: &str) -> Result<Cursor, CursorError> {
        let hex = text.strip_prefix(PREFIX).ok_or(CursorError::Malformed)?;
        let bytes = crate::runtime::hex::decode(hex).ok_or(CursorError::Malformed)?;
        if bytes.len() != PAYLOAD_LEN + TAG_LEN || bytes[0] != VERSION {
            return Err(CursorError::Malformed);
        }
        let (payload, tag) = bytes.split_at(PAYLOAD_LEN);
        let mut reader = Reader(&payload[1..]);
        if reader.take::<8>() != self.issuer {
            return Err(CursorError::OtherProcess);
        }
        let mut mac = self.mac();
        mac.update(payload);
        mac.verify_truncated_left(tag).map_err(|_| CursorError::Tampered)?;
        let pane = PaneId(u32::from_be_bytes(reader.take()));
        let pane_pid = u32::from_be_bytes(reader.take());
        let history_size = u64::from_be_bytes(reader.take());
        let anchor = match u64::from_be_bytes(reader.take()) {
            NO_ANCHOR => None,
            row => Some(row),
        };
        let [fingerprint_rows] = reader.take::<1>();
        let fingerprint = reader.take();
        Ok(Cursor {
            pane,
            pane_pid,
            history_size,
            anchor,
            fingerprint_rows,
            fingerprint,
        })
    }
}

/// Reads fixed-size fields off the front of a payload whose length was checked.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let n = N.min(self.0.len());
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        out
    }
}

/// A fingerprint of `rows` (text after trailing spaces are removed), each length-prefixed
/// so that row boundaries count.
pub fn fingerprint<'a>(rows: impl IntoIterator<Item = &'a str>) -> [u8; FINGERPRINT_LEN] {
    let mut hasher = Sha256::new();
    for row in rows {
        hasher.update((row.len() as u64).to_be_bytes());
        hasher.update(row.as_bytes());
    }
    let digest = hasher.finalize();
    let mut out = [0u8; FINGERPRINT_LEN];
    out.copy_from_slice(&digest[..FINGERPRINT_LEN]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Cursor {
        Cursor {
            pane: PaneId(7),
            pane_pid: 4242,
            history_size: 120,
            anchor: Some(130),
            fingerprint_rows: 8,
            fingerprint: fingerprint(["a", "b"]),
        }
    }

    #[test]
    fn a_sealed_cursor_opens_to_the_same_values() {
        let key = CursorKey::generate().unwrap();
        let text = key.seal(&sample());
        assert!(text.starts_with(PREFIX) && text.len() < 256, "{text}");
        assert_eq!(key.open(&text).unwrap(), sample());
        let empty = Cursor {
            anchor: None,
            fingerprint_rows: 0,
            ..sample()
        };
        assert_eq!(key.open(&key.seal(&empty)).unwrap(), empty);
    }

    #[test]
    fn any_changed_character_is_refused() {
        let key = CursorKey::generate().unwrap();
        let text = key.seal(&sample());
        for at in PREFIX.len() + 2 * 9..text.len() {
            let mut bytes = text.clone().into_bytes();
            bytes[at] = if bytes[at] == b'0' { b'1' } else { b'0' };
            let altered = String::from_utf8(bytes).unwrap();
            assert_eq!(key.open(&altered), Err(CursorError::Tampered), "position {at}");
        }
    }

    #[test]
    fn a_cursor_of_another_process_or_shape_is_told_apart() {
        let key = CursorKey::generate().unwrap();
        let other = CursorKey::generate().unwrap();
        assert_eq!(key.open(&other.seal(&sample())), Err(CursorError::OtherProcess));
        for text in ["", "pwc1.", "pwc1.zz", "pwc2.00", &key.seal(&sample())[..40], "%1"] {
            assert_eq!(key.open(text), Err(CursorError::Malformed), "{text:?}");
        }
    }

    #[test]
    fn fingerprints_see_row_boundaries() {
        assert_ne!(fingerprint(["ab", "c"]), fingerprint(["a", "bc"]));
        assert_eq!(fingerprint(["x"]), fingerprint(["x"]));
    }
}
