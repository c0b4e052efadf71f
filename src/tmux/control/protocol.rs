//! The control-mode wire format: writing a round trip as command lines, and cutting the
//! lines tmux sends back into one output per command (the cutting is `super::reply`).
//!
//! tmux does not escape command output inside a `%begin`/`%end` block, and the guard
//! numbers are sequential, so pane text can print a perfect copy of a guard line. Guards
//! are therefore never trusted on their own: every round trip carries a per-call random
//! [`Nonce`] that tmux prints between the commands (as a separator) and after them (on a
//! line of its own, so it runs even when a command fails). A round trip ends only at the
//! end nonce, and each command's block is cut from between two separators, ending at the
//! *last* guard that carries its number; forged guards inside the block come before it.
//!
//! The end line is the nonce alone, a word tmux knows no command by: tmux answers it
//! with a block of its own, `parse error: unknown command: <nonce>`, closed by `%error`.
//! That costs tmux a lookup where a `display-message` would cost a command (a batch of
//! 16 reads spends about a third of tmux's time on its end lines otherwise;
//! docs/tmux-quirks.md), and it still runs after a failed command, as a line of its own.
//! Round trips that only read and are written together share the last one's end line;
//! `super::shared` says when the lines between them can be cut without it.

use crate::limits::CONTROL_RETAINED_BYTES;
use crate::tmux::command::Command;
use crate::tmux::framing::Framing;
pub use crate::tmux::script::Nonce;

/// The flag tmux puts on the guards of commands a control client sent itself; blocks of
/// hooks that run after them (`after-*`, `command-error`) carry 0.
pub(super) const FLAG_CONTROL: u32 = 1;

/// What kind of guard line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardKind {
    Begin,
    End,
    Error,
}

/// A `%begin`/`%end`/`%error` line: `%<kind> <time> <number> <flags>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guard {
    pub kind: GuardKind,
    pub number: u64,
    pub flags: u32,
}

impl Guard {
    /// Reads a guard line; anything else (output, notifications) is `None`.
    pub fn parse(line: &[u8]) -> Option<Self> {
        let rest = line.strip_prefix(b"%")?;
        let text = std::str::from_utf8(rest).ok()?;
        let mut fields = text.split(' ');
        let kind = match fields.next()? {
            "begin" => GuardKind::Begin,
            "end" => GuardKind::End,
            "error" => GuardKind::Error,
            _ => return None,
        };
        let _time: u64 = fields.next()?.parse().ok()?;
        let number = fields.next()?.parse().ok()?;
        let flags = fields.next()?.parse().ok()?;
        if fields.next().is_some() {
            return None;
        }
        Some(Self { kind, number, flags })
    }

    pub(super) fn closes(&self, number: u64) -> bool {
        self.kind != GuardKind::Begin && self.number == number
    }
}

/// One round trip as the connection writes it: the commands chained with `;` on one line
/// (so tmux stops at the first failure, as in a subprocess), with separators between them
/// unless `framing` counts lines instead. The connection follows it with the end nonce on
/// a line of its own, as a command name tmux reports unknown, once for the round trips it
/// ends together (see `super::shared`). Never an empty line: tmux detaches a control
/// client that sends one.
#[derive(Debug, Clone)]
pub struct RoundTrip {
    pub line: String,
    pub nonce: Nonce,
    /// How many commands the line holds.
    pub expected: usize,
    pub framing: Framing,
    /// Every command only reads, so the round trip may be sent again.
    pub reads_only: bool,
}

impl RoundTrip {
    pub fn new(commands: &[Command], framing: &Framing) -> Self {
        let nonce = Nonce::new();
        Self {
            line: framing.chain(commands, nonce.separator()),
            nonce,
            expected: commands.len(),
            framing: framing.clone(),
            reads_only: commands.iter().all(Command::is_read_only),
        }
    }

    /// How many blocks tmux answers with when no command fails.
    pub fn most_blocks(&self) -> usize {
        match &self.framing {
            Framing::Separated => (2 * self.expected).saturating_sub(1),
            Framing::Lines(lines) => lines.len(),
        }
    }

    /// Whether it may end with the end line of another written with it: it only reads,
    /// and its blocks can be counted.
    pub fn may_share_end(&self) -> bool {
        self.reads_only && self.most_blocks() > 0
    }
}

/// The lines tmux sent for one round trip, kept in one buffer as tmux sent them (each
/// followed by its newline), so a block's output is one slice of it.
#[derive(Debug, Default)]
pub struct Transcript {
    bytes: Vec<u8>,
    /// Where each line starts and ends, its newline not included.
    pub(super) lines: Vec<(usize, usize)>,
}

impl Transcript {
    /// A transcript of `lines` as tmux would have sent them, for tests.
    #[cfg(test)]
    pub(super) fn of(lines: &[&str]) -> Self {
        let mut transcript = Self::default();
        for line in lines {
            transcript.push(line.as_bytes());
        }
        transcript
    }

    pub fn push(&mut self, line: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(line);
        self.lines.push((start, self.bytes.len()));
        self.bytes.push(b'\n');
    }

    /// Lines `from..to`, each with its newline, as one slice.
    pub(super) fn span(&self, from: usize, to: usize) -> &[u8] {
        match (
            self.lines.get(from),
            to.checked_sub(1).and_then(|last| self.lines.get(last)),
        ) {
            (Some(&(start, _)), Some(&(_, end))) if from < to => &self.bytes[start..=end],
            _ => &[],
        }
    }

    pub fn byte_len(&self) -> usize {
        self.bytes.len()
    }

    /// Empties the transcript, giving back the memory of an unusually large reply.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.lines.clear();
        self.bytes.shrink_to(CONTROL_RETAINED_BYTES);
        self.lines.shrink_to(CONTROL_RETAINED_BYTES / 64);
    }

    pub(super) fn line(&self, index: usize) -> &[u8] {
        let (start, end) = self.lines[index];
        &self.bytes[start..end]
    }

    pub(super) fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// Lines `from..to` as a transcript of their own.
    pub(super) fn part(&self, from: usize, to: usize) -> Self {
        let mut part = Self::default();
        part.extend_from(self, from, to);
        part
    }

    /// Appends `other`'s lines `from..to`.
    pub(super) fn extend_from(&mut self, other: &Self, from: usize, to: usize) {
        for index in from..to {
            self.push(other.line(index));
        }
    }

    fn last_line(&self) -> Option<&[u8]> {
        self.lines.len().checked_sub(1).map(|last| self.line(last))
    }

    /// Drops the last line, which must be the `%begin` of the end nonce's own block.
    ///
    /// # Errors
    /// The last line is not a guard that opens a block.
    pub fn drop_end_block_begin(&mut self) -> Result<(), String> {
        match self.last_line().and_then(Guard::parse) {
            Some(Guard {
                kind: GuardKind::Begin, ..
            }) => {
                if let Some((start, _)) = self.lines.pop() {
                    self.bytes.truncate(start);
                }
                Ok(())
            }
            _ => Err("the end marker did not follow a %begin line".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_lines_need_all_four_fields() {
        assert_eq!(
            Guard::parse(b"%end 1796017955 283 1"),
            Some(Guard {
                kind: GuardKind::End,
                number: 283,
                flags: 1
            })
        );
        for line in [
            "%end",
            "%end 1 2",
            "%end 1 2 1 x",
            "%ends 1 2 1",
            "%end a 2 1",
            "end 1 2 1",
        ] {
            assert_eq!(Guard::parse(line.as_bytes()), None, "{line}");
        }
    }

    #[test]
    fn the_end_blocks_begin_is_dropped_only_if_it_is_one() {
        let mut t = Transcript::of(&["%begin 1 3 1", "x", "%end 1 3 1", "%begin 1 4 1"]);
        t.drop_end_block_begin().unwrap();
        assert_eq!(t.lines.len(), 3);
        assert!(t.drop_end_block_begin().is_err());
    }
}
