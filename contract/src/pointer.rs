//! JSON pointers (RFC 6901), as every error and difference in paneward names a place.

/// Escapes one token of a JSON pointer: `~` becomes `~0`, `/` becomes `~1`.
pub fn pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The first `limit` characters of `text`, with `…` when more were cut: how every
/// message quotes text of unknown length.
pub fn excerpt(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_cuts_at_a_character_and_says_so() {
        assert_eq!(excerpt("short", 10), "short");
        assert_eq!(excerpt("éééé", 2), "éé…");
        assert_eq!(excerpt("abc", 3), "abc");
    }

    #[test]
    fn tilde_and_slash_are_escaped_in_that_order() {
        assert_eq!(pointer_token("a/b"), "a~1b");
        assert_eq!(pointer_token("~c"), "~0c");
        // `~1` in a name is a tilde followed by a one, not an escaped slash.
        assert_eq!(pointer_token("~1"), "~01");
        assert_eq!(pointer_token("plain"), "plain");
    }
}
