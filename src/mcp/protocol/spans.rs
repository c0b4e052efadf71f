//! Where a member stands in a JSON message, found without decoding the message: the
//! protocol layer echoes a client's id exactly as written, and the stdio layer swaps
//! it, byte for byte.

use std::ops::Range;

/// The byte range of the value of the top-level member `id` of `text`, a JSON object
/// already known to be valid. Of repeated members the last counts, as in serde_json.
pub fn id_span(text: &[u8]) -> Option<Range<usize>> {
    member_span(text, "id")
}

/// The byte range of the value of the top-level member `key` of `text`, a JSON object
/// already known to be valid (the last of repeated members, as in serde_json).
pub fn member_span(text: &[u8], key: &str) -> Option<Range<usize>> {
    let quoted = format!("\"{key}\"");
    let mut at = skip_space(text, 0);
    if text.get(at) != Some(&b'{') {
        return None;
    }
    at += 1;
    let mut found = None;
    loop {
        at = skip_space(text, at);
        match text.get(at)? {
            b'}' => return found,
            b',' => {
                at += 1;
                continue;
            }
            b'"' => {}
            _ => return None,
        }
        let key_end = string_end(text, at)?;
        let raw_key = &text[at..key_end];
        // Only a key with an escape needs decoding to tell whether it is `key`.
        let is_key = raw_key == quoted.as_bytes()
            || (raw_key.contains(&b'\\') && serde_json::from_slice::<String>(raw_key).ok()? == key);
        at = skip_space(text, key_end);
        if text.get(at) != Some(&b':') {
            return None;
        }
        at = skip_space(text, at + 1);
        let value_end = value_end(text, at)?;
        if is_key {
            found = Some(at..value_end);
        }
        at = value_end;
    }
}

fn skip_space(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) {
        at += 1;
    }
    at
}

/// The index after the string that opens at `start`.
fn string_end(text: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        match text.get(at)? {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
}

/// The index after the JSON value that starts at `start`.
fn value_end(text: &[u8], start: usize) -> Option<usize> {
    match text.get(start)? {
        b'"' => string_end(text, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut at = start;
            loop {
                match text.get(at)? {
                    b'"' => {
                        at = string_end(text, at)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        _ => {
            let mut at = start;
            while text
                .get(at)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n'))
            {
                at += 1;
            }
            Some(at)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_of(text: &str) -> Option<&str> {
        id_span(text.as_bytes()).map(|span| &text[span])
    }

    #[test]
    fn the_top_level_id_is_found_whatever_surrounds_it() {
        assert_eq!(id_of(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#), Some("7"));
        assert_eq!(
            id_of(r#" { "params" : {"id": 1, "x": ["}", "\"id\""]}, "id" : "a\"b" } "#),
            Some(r#""a\"b""#)
        );
        assert_eq!(id_of(r#"{"id":18446744073709551615}"#), Some("18446744073709551615"));
        assert_eq!(id_of(r#"{"id":1.5e3,"method":"x"}"#), Some("1.5e3"));
        assert_eq!(id_of(r#"{"\u0069d":1}"#), Some("1"), "escaped key");
        assert_eq!(id_of(r#"{"id":1,"id":2}"#), Some("2"), "the last one, as serde_json");
        assert_eq!(id_of(r#"{"method":"x","params":{"id":3}}"#), None);
        assert_eq!(id_of("[1]"), None);
    }
}
