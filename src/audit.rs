//! The audit log (`--audit-log PATH|-`): one JSON line per call of a mutating or
//! destructive tool and per batch row, saying what was asked and how it ended, without
//! what was typed.
//!
//! Arguments pass an allowlist: numbers, booleans and null as they are; a string only
//! where it is a tmux id under an id key (`%3`, `@2`, `$1`) or a short lowercase word
//! under an enum key. Every other string (keys to type, pasted text, commands, option
//! values, patterns) becomes its length and a short keyed hash, so two calls with the
//! same text can be matched within one run but the text cannot be recovered or guessed
//! offline (the key is random per process). Object keys the contract does not name are
//! hashed the same way.

use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use hmac::{KeyInit, Mac};
use rmcp::model::{NumberOrString, RequestId};
use serde_json::{json, Map, Value};
use sha2::Sha256;

use crate::config::AuditTarget;
use crate::runtime::error::{ToolError, ToolErrorKind};

type HmacSha256 = hmac::Hmac<Sha256>;

/// Keys whose string values are tmux ids.
const ID_KEYS: &[&str] = &["paneId", "pane_id", "window_id", "session_id", "target"];
/// Keys whose string values are enum members or tool names.
const ENUM_KEYS: &[&str] = &["onError", "on_error", "scope", "position", "tool"];

/// How a call ended, as the log says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// Refused before tmux was asked: above the tier, or blocked by a safety check.
    Refused,
    Error,
}

impl Outcome {
    pub fn of(result: &Result<Value, ToolError>) -> Self {
        match result {
            Ok(_) => Self::Ok,
            Err(error) if matches!(error.kind(), ToolErrorKind::NotAllowed | ToolErrorKind::Blocked) => Self::Refused,
            Err(_) => Self::Error,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Refused => "refused",
            Self::Error => "error",
        }
    }
}

/// One call, as the request path saw it.
pub struct CallRecord<'a> {
    pub request_id: Option<RequestId>,
    pub tool: &'a str,
    /// Whether the call was a row of a batch (then `request_id` is the batch's).
    pub batch_row: bool,
    pub outcome: Outcome,
    pub duration: Duration,
    pub arguments: &'a Value,
    /// The target the call ran on, with several (`--target`); `None`: the one server.
    pub target: Option<&'a str>,
}

/// An open audit log.
pub struct AuditLog {
    sink: Mutex<Box<dyn Write + Send>>,
    key: [u8; 64],
    /// Every property name of the served input schemas: the keys logged as they are.
    known_keys: BTreeSet<String>,
}

impl AuditLog {
    /// Opens `target`; a file is created with mode 0600, or appended to if it exists
    /// and only its owner can read it.
    ///
    /// # Errors
    /// The file cannot be opened, others may read it, or the random source failed.
    pub fn open<'a>(target: &AuditTarget, schemas: impl Iterator<Item = &'a Value>) -> Result<Self, String> {
        let sink: Box<dyn Write + Send> = match target {
            AuditTarget::Stderr => Box::new(std::io::stderr()),
            AuditTarget::File(path) => Box::new(open_file(path)?),
        };
        let mut key = [0u8; 64];
        getrandom::fill(&mut key).map_err(|e| format!("--audit-log: no random key: {e}"))?;
        let mut known_keys = BTreeSet::new();
        for schema in schemas {
            collect_property_names(schema, &mut known_keys);
        }
        Ok(Self {
            sink: Mutex::new(sink),
            key,
            known_keys,
        })
    }

    /// Writes one line for `record`; a failed write is logged and the call goes on.
    pub fn write(&self, record: &CallRecord<'_>) {
        let line = self.line(record);
        let Ok(mut sink) = self.sink.lock() else {
            return;
        };
        // One write per line: with O_APPEND, lines of concurrent writers do not interleave.
        if let Err(error) = sink
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| sink.flush())
        {
            tracing::warn!(%error, "cannot write the audit log");
        }
    }

    fn line(&self, record: &CallRecord<'_>) -> Value {
        let request_id = match &record.request_id {
            Some(NumberOrString::Number(n)) => json!(*n),
            Some(NumberOrString::String(s)) => self.scrub_string("", s),
            None => Value::Null,
        };
        let mut line = json!({
            "time": now_rfc3339(),
            "request_id": request_id,
            "tool": self.scrub_string("tool", record.tool),
            "batch_row": record.batch_row,
            "outcome": record.outcome.as_str(),
            "duration_ms": u64::try_from(record.duration.as_millis()).unwrap_or(u64::MAX),
            "arguments": self.scrub(None, record.arguments),
        });
        // Only with several targets, so the one server's lines stay as they were. A
        // target's name was checked at start-up; it is the operator's word, not a call's.
        if let (Some(target), Value::Object(fields)) = (record.target, &mut line) {
            fields.insert("target".into(), Value::String(target.to_string()));
        }
        line
    }

    fn scrub(&self, key: Option<&str>, value: &Value) -> Value {
        match value {
            Value::String(text) => self.scrub_string(key.unwrap_or(""), text),
            Value::Array(items) => Value::Array(items.iter().map(|item| self.scrub(key, item)).collect()),
            Value::Object(object) => {
                let mut out = Map::new();
                for (name, item) in object {
                    let shown = if self.known_keys.contains(name) {
                        name.clone()
                    } else {
                        format!("#{}", self.hash(name))
                    };
                    out.insert(shown, self.scrub(Some(name), item));
                }
                Value::Object(out)
            }
            other => other.clone(),
        }
    }

    fn scrub_string(&self, key: &str, text: &str) -> Value {
        let shown = (ID_KEYS.contains(&key) && is_tmux_id(text)) || (ENUM_KEYS.contains(&key) && is_word(text));
        if shown {
            Value::String(text.to_string())
        } else {
            json!({"len": text.len(), "hash": self.hash(text)})
        }
    }

    /// The first 8 bytes of HMAC-SHA256 under the process key, as hex.
    fn hash(&self, text: &str) -> String {
        // A 64-byte key is one SHA-256 block: HMAC's native size, no fallible path.
        let mut mac = HmacSha256::new(&self.key.into());
        mac.update(text.as_bytes());
        crate::runtime::hex::encode(&mac.finalize().into_bytes()[..8])
    }
}

fn open_file(path: &Path) -> Result<std::fs::File, String> {
    let file = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| format!("--audit-log: cannot open {}: {e}", path.display()))?;
    let mode = file
        .metadata()
        .map_err(|e| format!("--audit-log: cannot stat {}: {e}", path.display()))?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        return Err(format!(
            "--audit-log: {} may be read by others (mode {:o}); make it 0600 (chmod 600) or name a new file",
            path.display(),
            mode & 0o777
        ));
    }
    Ok(file)
}

fn collect_property_names(schema: &Value, names: &mut BTreeSet<String>) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::Object(properties)) = object.get("properties") {
                names.extend(properties.keys().cloned());
            }
            object.values().for_each(|value| collect_property_names(value, names));
        }
        Value::Array(items) => items.iter().for_each(|item| collect_property_names(item, names)),
        _ => {}
    }
}

fn is_tmux_id(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some('%' | '@' | '$')) && (2..=10).contains(&text.len()) && chars.all(|c| c.is_ascii_digit())
}

fn is_word(text: &str) -> bool {
    (1..=40).contains(&text.len()) && text.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

/// UTC time as RFC 3339 with milliseconds.
fn now_rfc3339() -> String {
    crate::runtime::clock::rfc3339_from_ms(crate::runtime::clock::now_ms())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log() -> AuditLog {
        let schema = json!({"properties": {"paneId": {}, "keys": {}, "scope": {}, "operations": {"items": {"properties": {"tool": {}}}}}});
        AuditLog::open(&AuditTarget::Stderr, [schema].iter()).unwrap()
    }

    #[test]
    fn ids_enums_numbers_and_booleans_pass_and_other_text_is_hashed() {
        let log = log();
        let scrubbed = log.scrub(
            None,
            &json!({"paneId": "%3", "keys": "hunter2", "scope": "global", "enter": true, "n": 4,
                    "operations": [{"tool": "send_keys", "paneId": "not an id"}], "hunter3": 1}),
        );
        let text = scrubbed.to_string();
        assert_eq!(scrubbed["paneId"], "%3");
        assert_eq!(scrubbed["scope"], "global");
        assert_eq!(scrubbed["keys"]["len"], 7);
        assert_eq!(scrubbed["operations"][0]["tool"], "send_keys");
        assert_eq!(scrubbed["operations"][0]["paneId"]["len"], 9);
        assert!(!text.contains("hunter"), "{text}");
        assert_eq!(log.hash("same"), log.hash("same"));
        assert_ne!(log.hash("same"), log.hash("other"));
    }
}
