//! The `requestState` of a 2026-07-28 round trip: what paneward needs to trust the
//! answer that comes back with the repeated call, sealed so that the client can only
//! echo it.
//!
//! A state names the tool, a digest of the call's arguments and of the question asked,
//! when it expires and a random nonce; a MAC under a key random per process seals it.
//! Opening checks all of them against the repeated call, and spends the nonce: a state
//! opens once, so an answer replayed (or a repeat sent twice) cannot type the same
//! text again. The spent nonces are the only thing kept, process-wide (never per
//! connection: a 2026-07-28 client may send the repeat on another), each until its
//! state would have expired anyway.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hmac::{KeyInit, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::limits::{REQUEST_STATE_SPENT_MAX, REQUEST_STATE_TTL};
use crate::runtime::hex;

type HmacSha256 = hmac::Hmac<Sha256>;

/// What every state text starts with; the digit is the format's version.
const PREFIX: &str = "pwr1.";
/// Mixed into the MAC so a tag made for anything else of paneward's never fits here.
const DOMAIN: &[u8] = b"paneward requestState v1\0";
/// Bytes of the MAC kept: 128 bits make a forgery a matter of luck, not effort.
const TAG_LEN: usize = 16;

/// What a state binds, as sealed (the digests in hex).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Sealed {
    tool: String,
    arguments: String,
    question: String,
    expires_ms: u64,
    nonce: String,
}

/// An opened state: which question the answer in `inputResponses` is to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    /// SHA-256 of the question asked, hex.
    pub question: String,
}

/// Why a state was refused; the text follows `/params/requestState: `.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateError {
    Malformed,
    Tampered,
    OtherCall,
    Expired,
    Spent,
    Full,
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Malformed => {
                "is not a state paneward issued; send the call again without requestState and inputResponses"
            }
            Self::Tampered => {
                "was altered, or issued by another paneward process (its signature does not match); \
                 send the call again without requestState and inputResponses"
            }
            Self::OtherCall => {
                "was issued for another call (the tool or its arguments differ); send the same call it was \
                 issued for, or this one without requestState and inputResponses"
            }
            Self::Expired => "has expired; send the call again without requestState and inputResponses",
            Self::Spent => {
                "was used already (a state opens once, so an answer cannot run a call twice); send the call \
                 again without requestState and inputResponses"
            }
            Self::Full => "cannot be checked now: too many answers are being checked; try again shortly",
        })
    }
}

/// The process's sealing key and the nonces spent, with when each may be forgotten.
struct Keeper {
    secret: [u8; 64],
    spent: Mutex<HashMap<String, u64>>,
}

/// This process's keeper, made on first use.
fn keeper() -> Result<&'static Keeper, String> {
    static KEEPER: OnceLock<Result<Keeper, String>> = OnceLock::new();
    KEEPER
        .get_or_init(|| {
            let mut secret = [0u8; 64];
            getrandom::fill(&mut secret).map_err(|e| format!("no randomness for the request-state key: {e}"))?;
            Ok(Keeper {
                secret,
                spent: Mutex::default(),
            })
        })
        .as_ref()
        .map_err(Clone::clone)
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX))
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes))
}

/// The digest of a call's arguments: the same arguments give the same digest whatever
/// order their keys came in.
pub fn arguments_digest(arguments: Option<&serde_json::Map<String, Value>>) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(object) => {
                let mut keys: Vec<&String> = object.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|key| (key.clone(), sorted(&object[key])))
                        .collect(),
                )
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    let canonical = arguments.map_or(Value::Null, |arguments| sorted(&Value::Object(arguments.clone())));
    // serde_json keeps insertion order only with its preserve_order feature; the keys
    // were inserted sorted, so the text is canonical either way.
    sha256_hex(canonical.to_string().as_bytes())
}

/// The digest of a question, as an opened state names it.
pub fn question_digest(question: &str) -> String {
    sha256_hex(question.as_bytes())
}

/// The MAC of `payload` under the process's key, domain-separated.
fn mac(keeper: &Keeper, payload: &[u8]) -> HmacSha256 {
    // A key of exactly one SHA-256 block is HMAC's native key size: no fallible path.
    let mut mac = HmacSha256::new(&keeper.secret.into());
    mac.update(DOMAIN);
    mac.update(payload);
    mac
}

/// A state for asking `question` in the call of `tool` with arguments digest `arguments`.
///
/// # Errors
/// No randomness for the key or the nonce.
pub fn seal(tool: &str, arguments: &str, question: &str) -> Result<String, String> {
    seal_at(tool, arguments, question, now_ms(), REQUEST_STATE_TTL)
}

fn seal_at(tool: &str, arguments: &str, question: &str, now: u64, ttl: Duration) -> Result<String, String> {
    let keeper = keeper()?;
    let mut nonce = [0u8; 16];
    getrandom::fill(&mut nonce).map_err(|e| format!("no randomness for a request state: {e}"))?;
    let sealed = Sealed {
        tool: tool.to_string(),
        arguments: arguments.to_string(),
        question: question_digest(question),
        expires_ms: now.saturating_add(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX)),
        nonce: hex::encode(&nonce),
    };
    let payload = serde_json::to_vec(&sealed).map_err(|e| e.to_string())?;
    Ok(format!(
        "{PREFIX}{}.{}",
        hex::encode(&payload),
        hex::encode(&mac(keeper, &payload).finalize().into_bytes()[..TAG_LEN])
    ))
}

/// Opens `text`, the state echoed with the repeated call of `tool` (arguments digest
/// `arguments`), and spends it.
///
/// # Errors
/// Why the state cannot be trusted; nothing is spent then.
pub fn open(text: &str, tool: &str, arguments: &str) -> Result<Opened, StateError> {
    open_at(text, tool, arguments, now_ms())
}

fn open_at(text: &str, tool: &str, arguments: &str, now: u64) -> Result<Opened, StateError> {
    let keeper = keeper().map_err(|_| StateError::Tampered)?;
    let body = text.strip_prefix(PREFIX).ok_or(StateError::Malformed)?;
    let (payload, given) = body.split_once('.').ok_or(StateError::Malformed)?;
    let payload = hex::decode(payload).ok_or(StateError::Malformed)?;
    let given = hex::decode(given).ok_or(StateError::Malformed)?;
    if given.len() != TAG_LEN {
        return Err(StateError::Tampered);
    }
    // Constant-time comparison of the tag, by the MAC library.
    mac(keeper, &payload)
        .verify_truncated_left(&given)
        .map_err(|_| StateError::Tampered)?;
    let sealed: Sealed = serde_json::from_slice(&payload).map_err(|_| StateError::Malformed)?;
    if sealed.tool != tool || sealed.arguments != arguments {
        return Err(StateError::OtherCall);
    }
    if now > sealed.expires_ms {
        return Err(StateError::Expired);
    }
    let mut spent = keeper.spent.lock().unwrap_or_else(PoisonError::into_inner);
    spent.retain(|_, expires| *expires >= now);
    if spent.contains_key(&sealed.nonce) {
        return Err(StateError::Spent);
    }
    if spent.len() >= REQUEST_STATE_SPENT_MAX {
        return Err(StateError::Full);
    }
    spent.insert(sealed.nonce, sealed.expires_ms);
    Ok(Opened {
        question: sealed.question,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARGS: &str = "digest-of-arguments";

    #[test]
    fn a_state_opens_once_for_the_call_it_was_issued_for() {
        let state = seal("send_keys", ARGS, "Allow this once?").unwrap();
        assert_eq!(open(&state, "kill_pane", ARGS), Err(StateError::OtherCall));
        assert_eq!(open(&state, "send_keys", "other"), Err(StateError::OtherCall));
        let opened = open(&state, "send_keys", ARGS).unwrap();
        assert_eq!(opened.question, question_digest("Allow this once?"));
        assert_eq!(open(&state, "send_keys", ARGS), Err(StateError::Spent));
    }

    #[test]
    fn an_altered_or_foreign_state_is_refused() {
        let state = seal("send_keys", ARGS, "q").unwrap();
        let (payload, tag) = state.strip_prefix(PREFIX).unwrap().split_once('.').unwrap();
        // The payload altered (tool renamed) under the old tag.
        let forged_payload = hex::encode(
            String::from_utf8(hex::decode(payload).unwrap())
                .unwrap()
                .replace("send_keys", "kill_pane")
                .as_bytes(),
        );
        assert_eq!(
            open(&format!("{PREFIX}{forged_payload}.{tag}"), "kill_pane", ARGS),
            Err(StateError::Tampered)
        );
        let mut flipped = hex::decode(tag).unwrap();
        flipped[0] ^= 1;
        assert_eq!(
            open(
                &format!("{PREFIX}{payload}.{}", hex::encode(&flipped)),
                "send_keys",
                ARGS
            ),
            Err(StateError::Tampered)
        );
        assert_eq!(
            open(&format!("{PREFIX}{payload}.{}", &tag[..8]), "send_keys", ARGS),
            Err(StateError::Tampered),
            "a shortened tag"
        );
        assert_eq!(open("anything", "send_keys", ARGS), Err(StateError::Malformed));
        assert_eq!(open("pwr1.zz.zz", "send_keys", ARGS), Err(StateError::Malformed));
    }

    #[test]
    fn a_state_expires() {
        let state = seal_at("send_keys", ARGS, "q", 1_000, Duration::from_secs(60)).unwrap();
        assert_eq!(open_at(&state, "send_keys", ARGS, 62_000), Err(StateError::Expired));
        assert!(open_at(&state, "send_keys", ARGS, 60_000).is_ok());
    }

    #[test]
    fn arguments_digest_ignores_key_order_only() {
        let a: serde_json::Map<String, Value> = serde_json::from_str(r#"{"b":1,"a":{"y":2,"x":3}}"#).unwrap();
        let b: serde_json::Map<String, Value> = serde_json::from_str(r#"{"a":{"x":3,"y":2},"b":1}"#).unwrap();
        let c: serde_json::Map<String, Value> = serde_json::from_str(r#"{"a":{"x":3,"y":2},"b":2}"#).unwrap();
        assert_eq!(arguments_digest(Some(&a)), arguments_digest(Some(&b)));
        assert_ne!(arguments_digest(Some(&a)), arguments_digest(Some(&c)));
        assert_ne!(arguments_digest(None), arguments_digest(Some(&a)));
    }
}
