//! Writing commands in tmux's own command language, as both transports send them: a
//! control-mode line, or a script read by `tmux source-file -` on standard input.
//!
//! Every argument is quoted so tmux's parser gives it back unchanged: `;`, `$`, `~`, `#`
//! and `\` lose their meaning, and a control character (a newline would end the line) is
//! written as an escape. Commands never travel as process arguments, where any local
//! user could read text typed into a pane from `/proc/<pid>/cmdline`.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use super::command::Command;

/// A per-call secret that tmux echoes as separator and end lines. Pane text cannot
/// print it because it never sees it: it travels only on our own pipe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nonce {
    separator: String,
    end: String,
}

/// Mixed into every nonce so two nonces made in the same nanosecond still differ.
static NONCE_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Nonce {
    /// A fresh nonce: see [`random_hex128`].
    pub fn new() -> Self {
        let secret = format!("pw{}", random_hex128());
        Self {
            separator: format!("{secret}s"),
            end: format!("{secret}e"),
        }
    }

    /// The line tmux prints between two commands' outputs.
    pub fn separator(&self) -> &str {
        &self.separator
    }

    /// The line that ends a whole control-mode round trip.
    pub fn end(&self) -> &str {
        &self.end
    }

    /// [`Nonce::end`] as bytes, as lines are read.
    pub fn end_line(&self) -> &[u8] {
        self.end.as_bytes()
    }
}

/// 128 bits as 32 hex digits, from two SipHash runs keyed by the process's random
/// `RandomState` keys (fresh per call) over a counter and the time, so two calls in the
/// same nanosecond still differ. Used wherever a name must be unguessable to pane text
/// and other clients: framing nonces, staged buffer names.
pub fn random_hex128() -> String {
    let count = NONCE_COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut words = [0u64; 2];
    for (index, word) in words.iter_mut().enumerate() {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(count);
        hasher.write_u128(nanos);
        hasher.write_usize(index);
        *word = hasher.finish();
    }
    format!("{:016x}{:016x}", words[0], words[1])
}

impl Default for Nonce {
    fn default() -> Self {
        Self::new()
    }
}

/// Appends `text` as one tmux command-parser token that means exactly `text`.
///
/// Single quotes turn off `$`, `~`, `#`, `;` and `\`; a quote or a control character
/// (a newline would end the command line) is written outside them as an escape.
fn push_quoted(out: &mut String, text: &str) {
    out.push('\'');
    // Runs of ordinary text are copied whole: a format holds a field separator
    // (`\x1f`) between every two fields, and nothing else that needs writing out.
    let mut rest = text;
    while let Some(at) = rest.bytes().position(|b| b == b'\'' || b < 0x20 || b == 0x7f) {
        out.push_str(&rest[..at]);
        let byte = rest.as_bytes()[at];
        if byte == b'\'' {
            out.push_str("'\\''");
        } else {
            // Octal escapes are the one form tmux's parser takes for every byte.
            out.push_str("'\\");
            for digit in [byte >> 6, (byte >> 3) & 7, byte & 7] {
                out.push(char::from(b'0' + digit));
            }
            out.push('\'');
        }
        // The byte found is ASCII, so what follows starts a character.
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    out.push('\'');
}

fn push_command(out: &mut String, command: &Command) {
    for (index, arg) in command.argv().enumerate() {
        if index == 0 {
            // The name is one of our constants, never caller text.
            out.push_str(arg);
        } else {
            out.push(' ');
            push_quoted(out, arg);
        }
    }
}

/// The commands as one line, chained with `;`, with no framing of ours (the
/// benchmark's floor).
pub fn command_line(commands: &[Command]) -> String {
    chain(commands, " ; ")
}

/// The commands as one line chained with `;` (tmux stops at the first failure), with a
/// `display-message -p <separator>` between each two so their outputs can be told apart.
/// No trailing newline.
pub fn separated_chain(commands: &[Command], separator: &str) -> String {
    chain(commands, &format!(" ; display-message -p {separator} ; "))
}

/// The commands as one line, `between` each two.
fn chain(commands: &[Command], between: &str) -> String {
    let mut out = String::with_capacity(128 * commands.len() + 96);
    for (index, command) in commands.iter().enumerate() {
        if index > 0 {
            out.push_str(between);
        }
        push_command(&mut out, command);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_quoted_so_the_parser_gives_them_back_unchanged() {
        let command = Command::new("display-message")
            .arg("-p")
            .arg("it's $HOME ~ #{x} ; \\ end")
            .arg("")
            .arg("a\nb\u{1f}")
            .arg("'\u{7f}\u{0}é'");
        let line = command_line(std::slice::from_ref(&command));
        assert_eq!(
            line,
            "display-message '-p' 'it'\\''s $HOME ~ #{x} ; \\ end' '' 'a'\\012'b'\\037'' \
             ''\\'''\\177''\\000'é'\\'''"
        );
        assert!(!line.contains('\n'), "one command is one line");
    }

    #[test]
    fn a_chain_puts_the_separator_between_commands_only() {
        let a = Command::new("list-panes");
        let b = Command::new("list-windows");
        let chain = separated_chain(&[a.clone(), b], "SEP");
        assert_eq!(chain, "list-panes ; display-message -p SEP ; list-windows");
        assert_eq!(separated_chain(&[a], "SEP"), "list-panes");
    }

    #[test]
    fn nonces_differ_and_hold_no_format_characters() {
        let (a, b) = (Nonce::new(), Nonce::new());
        assert_ne!(a, b);
        assert!(a.end.bytes().all(|c| c.is_ascii_alphanumeric()));
        assert!(a.separator.bytes().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(a.end, a.separator);
    }
}
