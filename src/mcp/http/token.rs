//! The bearer token of `serve --http`: read once at start-up, compared in constant
//! time, never logged.

use crate::limits::{HTTP_TOKEN_MAX_BYTES, HTTP_TOKEN_MIN_BYTES};
use std::path::Path;

use hmac::{KeyInit, Mac};
use sha2::Sha256;

type HmacSha256 = hmac::Hmac<Sha256>;

/// How to make a token, said by every error about one.
pub const MAKE_ONE: &str =
    "make one with: (umask 077; openssl rand -hex 32 > ~/.config/paneward/token) and pass --token-file ~/.config/paneward/token";

/// The expected token, kept only as a keyed hash: comparing two hashes of the same
/// length with `verify_slice` takes the same time wherever they differ.
pub struct Token {
    key: [u8; 32],
    tag: Vec<u8>,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(..)")
    }
}

impl Token {
    /// A token from its text (surrounding whitespace, as a file's last newline, is not
    /// part of it).
    ///
    /// # Errors
    /// Too short, too long, or with characters a header value cannot carry.
    pub fn new(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.len() < HTTP_TOKEN_MIN_BYTES || text.len() > HTTP_TOKEN_MAX_BYTES {
            return Err(format!(
                "the bearer token must be {HTTP_TOKEN_MIN_BYTES} to {HTTP_TOKEN_MAX_BYTES} bytes; {MAKE_ONE}"
            ));
        }
        if !text.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!(
                "the bearer token must be printable ASCII without spaces; {MAKE_ONE}"
            ));
        }
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| format!("no randomness for the token check: {e}"))?;
        let tag = Self::hash(&key, text.as_bytes())?;
        Ok(Self { key, tag })
    }

    /// Reads the token from `path`.
    ///
    /// # Errors
    /// The file cannot be read, group or others may read it, or it holds no
    /// acceptable token.
    pub fn from_file(path: &Path) -> Result<Self, String> {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .map_err(|e| format!("cannot read the token file {}: {e}", path.display()))?
            .permissions()
            .mode();
        // As the audit log: a secret others on the machine can read is no secret.
        if mode & 0o077 != 0 {
            return Err(format!(
                "the token file {} may be read by group or others (mode {:o}); make it 0600 (chmod 600 {})",
                path.display(),
                mode & 0o777,
                path.display()
            ));
        }
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read the token file {}: {e}", path.display()))?;
        Self::new(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    fn hash(key: &[u8; 32], text: &[u8]) -> Result<Vec<u8>, String> {
        let mut mac = HmacSha256::new_from_slice(key).map_err(|e| e.to_string())?;
        mac.update(text);
        Ok(mac.finalize().into_bytes().to_vec())
    }

    /// Whether `presented` is the token.
    pub fn matches(&self, presented: &[u8]) -> bool {
        let Ok(mut mac) = HmacSha256::new_from_slice(&self.key) else {
            return false;
        };
        mac.update(presented);
        mac.verify_slice(&self.tag).is_ok()
    }

    /// Whether the headers carry exactly one `Authorization: Bearer <the token>`.
    pub fn admits(&self, headers: &http::HeaderMap) -> bool {
        let mut values = headers.get_all(http::header::AUTHORIZATION).iter();
        let (Some(value), None) = (values.next(), values.next()) else {
            return false;
        };
        let value = value.as_bytes();
        let scheme = b"bearer ";
        value.len() > scheme.len()
            && value[..scheme.len()].eq_ignore_ascii_case(scheme)
            && self.matches(&value[scheme.len()..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "0123456789abcdef0123456789abcdef";

    fn headers(values: &[&str]) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        for value in values {
            map.append(http::header::AUTHORIZATION, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn only_one_bearer_header_with_the_exact_token_is_admitted() {
        let token = Token::new(&format!("{GOOD}\n")).unwrap();
        assert!(token.admits(&headers(&[&format!("Bearer {GOOD}")])));
        assert!(token.admits(&headers(&[&format!("bearer {GOOD}")])));
        assert!(!token.admits(&headers(&[])));
        assert!(!token.admits(&headers(&[&format!("Basic {GOOD}")])));
        assert!(!token.admits(&headers(&[&format!("Bearer {GOOD}x")])));
        assert!(!token.admits(&headers(&[&format!("Bearer {}", &GOOD[1..])])));
        assert!(!token.admits(&headers(&["Bearer "])));
        assert!(!token.admits(&headers(&[&format!("Bearer {GOOD}"), &format!("Bearer {GOOD}")])));
    }

    #[test]
    fn short_or_unprintable_tokens_are_refused_with_how_to_make_one() {
        let short = Token::new("secret").unwrap_err();
        assert!(short.contains("openssl rand"), "{short}");
        assert!(Token::new(&format!("{GOOD} {GOOD}")).is_err());
        assert_eq!(format!("{:?}", Token::new(GOOD).unwrap()), "Token(..)");
    }
}
