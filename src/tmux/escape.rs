//! Undoing tmux's backslash escapes in what it prints: `\\`, C-style letters (`\n`,
//! `\t`, `\s` for a space, ...) and octal bytes. tmux prints octal bytes by two rules,
//! so the caller names the one its text follows.

/// How many digits an octal escape in the text has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Octal {
    /// Always three (`vis`'s `\ooo`: `show-buffer` to a control client); a backslash
    /// before fewer digits is a C-style escape (`\0` is NUL).
    ThreeDigits,
    /// One to three, as many as follow (`show-options` values).
    UpToThreeDigits,
}

/// `bytes` with every backslash escape replaced by the byte it stands for; a lone
/// final backslash stays.
pub fn unescape(bytes: &[u8], octal: Octal) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'\\' || at + 1 == bytes.len() {
            out.push(bytes[at]);
            at += 1;
            continue;
        }
        let digits = bytes[at + 1..]
            .iter()
            .take(3)
            .take_while(|b| (b'0'..=b'7').contains(b))
            .count();
        let octal_digits = match octal {
            Octal::ThreeDigits if digits == 3 => 3,
            Octal::ThreeDigits => 0,
            Octal::UpToThreeDigits => digits,
        };
        if octal_digits > 0 {
            let value = bytes[at + 1..=at + octal_digits]
                .iter()
                .fold(0u32, |acc, digit| acc * 8 + u32::from(digit - b'0'));
            // Three octal digits can reach 0o777; tmux prints bytes, so more is garbage.
            out.push(u8::try_from(value).unwrap_or(b'?'));
            at += 1 + octal_digits;
            continue;
        }
        out.push(c_escape(bytes[at + 1]));
        at += 2;
    }
    out
}

/// The byte a C-style escape `\<next>` stands for in tmux's escaped output (`\n`,
/// `\t`, `\s` for a space, `\0` for NUL, ...); any other byte stands for itself (`\\`).
pub fn c_escape(next: u8) -> u8 {
    match next {
        b'n' => b'\n',
        b't' => b'\t',
        b'r' => b'\r',
        b'a' => 0x07,
        b'b' => 0x08,
        b'v' => 0x0b,
        b'f' => 0x0c,
        b'0' => 0,
        b's' => b' ',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_octal_rules_differ_only_below_three_digits() {
        assert_eq!(unescape(br"a\\b\tc\001", Octal::ThreeDigits), b"a\\b\tc\x01");
        assert_eq!(unescape(br"a\\b\tc\001", Octal::UpToThreeDigits), b"a\\b\tc\x01");
        assert_eq!(unescape(br"\07x", Octal::ThreeDigits), b"\x007x");
        assert_eq!(unescape(br"\07x", Octal::UpToThreeDigits), b"\x07x");
        assert_eq!(unescape(br"\$\~\#end\", Octal::UpToThreeDigits), b"$~#end\\");
    }
}
