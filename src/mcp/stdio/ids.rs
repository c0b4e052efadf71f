//! Swapping request ids in message lines without re-encoding the rest of the line.
//!
//! rmcp can carry only string and 64-bit signed integer ids and answers any other
//! (a float, 18446744073709551615) without one. So each request reaches rmcp with
//! its arrival number as id, and the response goes back with the client's id exactly
//! as it was written. Only the id's bytes change; the rest of the line is untouched.

use std::ops::Range;

/// `text` with the bytes in `span` replaced by `id`.
pub fn replace(text: &[u8], span: Range<usize>, id: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + id.len() + 1);
    out.extend_from_slice(&text[..span.start]);
    out.extend_from_slice(id);
    out.extend_from_slice(&text[span.end..]);
    out
}

/// Replaces the bytes in `span` of `line` by `id`, in place: a reply is not copied to
/// change its id.
pub fn replace_in_place(line: &mut Vec<u8>, span: Range<usize>, id: &[u8]) {
    line.splice(span, id.iter().copied());
}

/// rmcp writes notifications as `{"jsonrpc":"2.0","method":…`.
const NOTIFICATION_HEAD: &[u8] = br#"{"jsonrpc":"2.0","method":"#;

/// The `_meta` key rmcp tags each notification of a `subscriptions/listen` stream with
/// (2026-07-28): the listen request's id, which here is its arrival number. Inside a
/// JSON string its quotes would be escaped, so these bytes are only ever the key.
const SUBSCRIPTION_ID_KEY: &[u8] = br#""io.modelcontextprotocol/subscriptionId":"#;

/// The arrival number a notification line of rmcp's names as its subscription, and
/// where it stands, so the client sees the id it gave its `subscriptions/listen`.
pub fn subscription_arrival(line: &[u8]) -> Option<(i64, Range<usize>)> {
    if !line.starts_with(NOTIFICATION_HEAD) {
        return None;
    }
    let start = line
        .windows(SUBSCRIPTION_ID_KEY.len())
        .position(|window| window == SUBSCRIPTION_ID_KEY)?
        + SUBSCRIPTION_ID_KEY.len();
    let digits = line[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit() || **b == b'-')
        .count();
    let number = std::str::from_utf8(&line[start..start + digits]).ok()?.parse().ok()?;
    Some((number, start..start + digits))
}

/// rmcp writes responses as `{"jsonrpc":"2.0","id":<id>,…`.
const RESPONSE_HEAD: &[u8] = br#"{"jsonrpc":"2.0","id":"#;

/// The arrival number a response line of rmcp's answers, and where it stands. A
/// request of rmcp's own (`elicitation/create`) starts the same way, with rmcp's id,
/// and is told apart by what follows the id.
pub fn response_arrival(line: &[u8]) -> Option<(i64, Range<usize>)> {
    let rest = line.strip_prefix(RESPONSE_HEAD)?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit() || **b == b'-').count();
    if rest.get(digits) != Some(&b',') {
        return None;
    }
    let after = &rest[digits + 1..];
    if !(after.starts_with(br#""result""#) || after.starts_with(br#""error""#)) {
        return None;
    }
    let number = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
    Some((number, RESPONSE_HEAD.len()..RESPONSE_HEAD.len() + digits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::protocol::spans::id_span;

    #[test]
    fn a_swap_changes_only_the_id() {
        let text = br#"{"id": "k" , "method":"ping"}"#;
        let span = id_span(text).unwrap();
        assert_eq!(replace(text, span, b"42"), br#"{"id": 42 , "method":"ping"}"#);
        for id in [&b"7"[..], b"123", b"\"a longer id\""] {
            let mut line = text.to_vec();
            replace_in_place(&mut line, id_span(text).unwrap(), id);
            assert_eq!(line, replace(text, id_span(text).unwrap(), id));
        }
    }

    #[test]
    fn responses_name_their_arrival_number() {
        let line = br#"{"jsonrpc":"2.0","id":12,"result":{}}"#;
        let (arrival, span) = response_arrival(line).unwrap();
        assert_eq!(arrival, 12);
        assert_eq!(
            replace(line, span, br#""k""#),
            br#"{"jsonrpc":"2.0","id":"k","result":{}}"#
        );
        assert_eq!(response_arrival(br#"{"jsonrpc":"2.0","error":{}}"#), None);
        let ours = br#"{"jsonrpc":"2.0","id":12,"method":"elicitation/create","params":{}}"#;
        assert_eq!(response_arrival(ours), None, "rmcp's own request keeps its id");
        let error = br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"x"}}"#;
        assert_eq!(response_arrival(error).map(|(arrival, _)| arrival), Some(3));
    }

    #[test]
    fn a_listen_notification_names_its_subscription_by_arrival_number() {
        let line = br#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"tmux://panes/3","_meta":{"io.modelcontextprotocol/subscriptionId":42}}}"#;
        let (arrival, span) = subscription_arrival(line).unwrap();
        assert_eq!(arrival, 42);
        let swapped = replace(line, span, br#""listen-1""#);
        assert!(String::from_utf8(swapped)
            .unwrap()
            .contains(r#"subscriptionId":"listen-1"}"#));
        let plain = br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1}}"#;
        assert_eq!(subscription_arrival(plain), None);
        assert_eq!(subscription_arrival(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#), None);
    }
}
