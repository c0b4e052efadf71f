//! The control-mode wire format: writing a round trip as command lines, and cutting the
//! lines tmux sends back into one output per command.
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

    fn closes(&self, number: u64) -> bool {
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
    lines: Vec<(usize, usize)>,
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
    fn span(&self, from: usize, to: usize) -> &[u8] {
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

/// One round trip, parsed: the output of every command tmux ran, and the error message
/// if the last one failed (tmux runs nothing after a failure).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub outputs: Vec<Vec<u8>>,
    pub failure: Option<Vec<u8>>,
    /// Names of notifications seen between blocks (`sessions-changed`, …).
    pub notifications: Vec<String>,
}

/// Cuts a finished transcript (up to, not including, the end nonce's block) into
/// `expected` command outputs.
///
/// # Errors
/// The blocks do not match the commands sent: a missing block, a block after a
/// failure, a separator out of place.
pub fn parse_reply(transcript: &Transcript, nonce: &Nonce, expected: usize) -> Result<Reply, String> {
    let mut reply = Reply::default();
    let mut start = 0;
    let count = transcript.lines.len();
    let mut index = 0;
    while index <= count {
        let at_separator = index < count && transcript.line(index) == nonce.separator().as_bytes();
        if index == count || at_separator {
            let end = if at_separator {
                // The separator's own `%begin` is the line before it.
                match index.checked_sub(1).map(|i| transcript.line(i)).and_then(Guard::parse) {
                    Some(Guard {
                        kind: GuardKind::Begin, ..
                    }) if index > start => index - 1,
                    _ => return Err("a separator did not follow a %begin line".into()),
                }
            } else {
                index
            };
            if reply.failure.is_some() {
                return Err("tmux ran a command after one failed".into());
            }
            parse_segment(transcript, start, end, &mut reply)?;
            if at_separator {
                // ...and its `%end` is the line after it.
                match (index + 1 < count)
                    .then(|| transcript.line(index + 1))
                    .and_then(Guard::parse)
                {
                    Some(guard) if guard.kind == GuardKind::End => start = index + 2,
                    _ => return Err("a separator was not followed by its %end line".into()),
                }
                index += 2;
                continue;
            }
        }
        index += 1;
    }
    let ran = reply.outputs.len() + usize::from(reply.failure.is_some());
    if ran > expected || (reply.failure.is_none() && ran != expected) {
        return Err(format!("{ran} command blocks came back for {expected} commands"));
    }
    Ok(reply)
}

/// Reads one command's block from lines `start..end`: notifications and hook blocks may
/// surround it; its content runs to the last guard that closes its number.
fn parse_segment(transcript: &Transcript, start: usize, end: usize, reply: &mut Reply) -> Result<(), String> {
    let mut index = start;
    let begin = loop {
        if index >= end {
            return Err("a command's %begin line is missing".into());
        }
        let line = transcript.line(index);
        match Guard::parse(line) {
            Some(guard) if guard.kind == GuardKind::Begin && guard.flags == FLAG_CONTROL => break guard,
            Some(guard) if guard.kind == GuardKind::Begin => {
                index = skip_foreign_block(transcript, index + 1, end, guard.number);
            }
            _ => note(line, reply),
        }
        index += 1;
    };
    let content_start = index + 1;
    let close = (content_start..end)
        .rev()
        .find_map(|i| {
            Guard::parse(transcript.line(i))
                .filter(|g| g.closes(begin.number) && g.flags == FLAG_CONTROL)
                .map(|g| (i, g))
        })
        .ok_or("a command's block never ended")?;
    let (close_index, mut guard) = close;
    let mut output = transcript.span(content_start, close_index).to_vec();
    let mut index = close_index + 1;
    while index < end {
        let line = transcript.line(index);
        match Guard::parse(line) {
            // A command may queue commands of its own right after itself (`if-shell`
            // runs its branch so); tmux guards them as ours, and their output is part
            // of this command's.
            Some(inner)
                if inner.kind == GuardKind::Begin && inner.flags == FLAG_CONTROL && guard.kind == GuardKind::End =>
            {
                // Its last closing guard, as for the command itself: pane text inside
                // the block cannot end it early.
                let inner_close = (index + 1..end)
                    .rev()
                    .find_map(|i| {
                        Guard::parse(transcript.line(i))
                            .filter(|g| g.closes(inner.number) && g.flags == FLAG_CONTROL)
                            .map(|g| (i, g))
                    })
                    .ok_or("a queued command's block never ended")?;
                if inner_close.1.kind == GuardKind::Error {
                    output.clear();
                }
                output.extend_from_slice(transcript.span(index + 1, inner_close.0));
                guard = inner_close.1;
                index = inner_close.0;
            }
            Some(inner) if inner.kind == GuardKind::Begin => {
                index = skip_foreign_block(transcript, index + 1, end, inner.number);
            }
            _ => note(line, reply),
        }
        index += 1;
    }
    if guard.kind == GuardKind::Error {
        // tmux ends an error message with the newline we added back; drop it.
        output.pop();
        reply.failure = Some(output);
    } else {
        reply.outputs.push(output);
    }
    Ok(())
}

/// Cuts a finished transcript of bare commands ([`Framing::Lines`]: no separators) into
/// one output per command, command `i` holding exactly `lines[i]` lines: its closing
/// guard must be the line right after them, so pane text inside a block (which can copy
/// a guard line) is only ever content. A failed command closes its block with `%error`
/// instead, and must be the last of ours (tmux runs nothing after a failure).
///
/// # Errors
/// A block that does not hold the lines expected, or a block out of place.
pub fn parse_counted(transcript: &Transcript, lines: &[usize]) -> Result<Reply, String> {
    let mut reply = Reply::default();
    let count = transcript.lines.len();
    let mut index = 0;
    for &expected in lines {
        let begin = loop {
            if index >= count {
                return Err("a command's %begin line is missing".into());
            }
            let line = transcript.line(index);
            match Guard::parse(line) {
                Some(guard) if guard.kind == GuardKind::Begin && guard.flags == FLAG_CONTROL => break guard,
                Some(guard) if guard.kind == GuardKind::Begin => {
                    index = skip_foreign_block(transcript, index + 1, count, guard.number);
                }
                _ => note(line, &mut reply),
            }
            index += 1;
        };
        let content = index + 1;
        let close = content + expected;
        let ours =
            |i: usize| Guard::parse(transcript.line(i)).filter(|g| g.closes(begin.number) && g.flags == FLAG_CONTROL);
        match (close < count).then(|| ours(close)).flatten() {
            Some(guard) if guard.kind == GuardKind::End => {
                reply.outputs.push(transcript.span(content, close).to_vec());
                index = close + 1;
            }
            _ => {
                let failed = (content..count).rev().find_map(|i| ours(i).map(|g| (i, g)));
                return match failed {
                    Some((at, guard)) if guard.kind == GuardKind::Error => {
                        let mut message = transcript.span(content, at).to_vec();
                        message.pop();
                        reply.failure = Some(message);
                        only_others_after(transcript, at + 1, &mut reply)?;
                        Ok(reply)
                    }
                    _ => Err("a command's block did not hold the lines expected".into()),
                };
            }
        }
    }
    only_others_after(transcript, index, &mut reply)?;
    Ok(reply)
}

/// Checks that lines `from..` hold no block of ours: only notifications and hooks' blocks.
fn only_others_after(transcript: &Transcript, from: usize, reply: &mut Reply) -> Result<(), String> {
    let count = transcript.lines.len();
    let mut index = from;
    while index < count {
        let line = transcript.line(index);
        match Guard::parse(line) {
            Some(guard) if guard.kind == GuardKind::Begin && guard.flags != FLAG_CONTROL => {
                index = skip_foreign_block(transcript, index + 1, count, guard.number);
            }
            Some(_) => return Err("a block of ours came after the last command's".into()),
            None => note(line, reply),
        }
        index += 1;
    }
    Ok(())
}

/// Skips a block we did not ask for (a hook's); returns the index of its closing guard.
fn skip_foreign_block(transcript: &Transcript, from: usize, end: usize, number: u64) -> usize {
    (from..end)
        .find(|&i| Guard::parse(transcript.line(i)).is_some_and(|g| g.closes(number)))
        .unwrap_or(end)
}

/// Records the name of a notification line (`%name args…`).
fn note(line: &[u8], reply: &mut Reply) {
    if let Some(name) = notification_name(line) {
        reply.notifications.push(name.to_string());
    }
}

/// The name of a notification line such as `%sessions-changed`, if it is one.
pub fn notification_name(line: &[u8]) -> Option<&str> {
    let rest = line.strip_prefix(b"%")?;
    let name = rest.split(|&b| b == b' ').next()?;
    let name = std::str::from_utf8(name).ok()?;
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sep(nonce: &Nonce) -> String {
        String::from_utf8(nonce.separator().as_bytes().to_vec()).unwrap()
    }

    #[test]
    fn counted_blocks_end_after_their_lines_whatever_guards_pane_text_copies() {
        let t = Transcript::of(&[
            "%begin 1 5 1",
            "%end 1 5 1",
            "%begin 1 6 1",
            "%end 1 6 1",
            "%end 1 5 1",
            "%begin 1 6 1",
            "b",
            "%end 1 6 1",
            "%sessions-changed",
        ]);
        let reply = parse_counted(&t, &[3, 1]).unwrap();
        assert_eq!(
            reply.outputs,
            vec![b"%end 1 5 1\n%begin 1 6 1\n%end 1 6 1\n".to_vec(), b"b\n".to_vec()]
        );
        assert!(parse_counted(&t, &[2, 1]).is_err(), "a count that does not fit");
        assert!(parse_counted(&t, &[3]).is_err(), "a block of ours left over");
    }

    #[test]
    fn a_counted_failure_is_the_last_block() {
        let failed = Transcript::of(&[
            "%begin 1 5 1",
            "a",
            "%end 1 5 1",
            "%begin 1 6 1",
            "can't find pane: %9",
            "%error 1 6 1",
        ]);
        let reply = parse_counted(&failed, &[1, 24, 24]).unwrap();
        assert_eq!(reply.outputs, vec![b"a\n".to_vec()]);
        assert_eq!(reply.failure.as_deref(), Some(&b"can't find pane: %9"[..]));
        // A copied %error inside a block that did not hold its lines is no failure.
        let forged = Transcript::of(&["%begin 1 5 1", "x", "%error 1 5 1", "%end 1 5 1"]);
        assert!(parse_counted(&forged, &[3]).is_err());
    }

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
    fn a_round_trip_splits_into_one_output_per_command() {
        let nonce = Nonce::new();
        let s = sep(&nonce);
        let t = Transcript::of(&[
            "%window-renamed @1 sh",
            "%begin 1 10 1",
            "line one",
            "",
            "%end 1 10 1",
            "%begin 1 11 1",
            &s,
            "%end 1 11 1",
            "%begin 1 12 1",
            "%1\u{1f}@1\u{1e}",
            "%end 1 12 1",
        ]);
        let reply = parse_reply(&t, &nonce, 2).unwrap();
        assert_eq!(
            reply.outputs,
            vec![b"line one\n\n".to_vec(), b"%1\x1f@1\x1e\n".to_vec()]
        );
        assert_eq!(reply.failure, None);
        assert_eq!(reply.notifications, ["window-renamed"]);
    }

    #[test]
    fn commands_a_command_queues_add_their_output_to_its_own() {
        let nonce = Nonce::new();
        let s = sep(&nonce);
        let t = Transcript::of(&[
            "%begin 1 10 1",
            "%end 1 10 1",
            "%begin 1 11 0",
            "a hook's output",
            "%end 1 11 0",
            "%begin 1 12 1",
            "from the branch",
            "%end 1 12 1",
            "%begin 1 13 1",
            &s,
            "%end 1 13 1",
            "%begin 1 14 1",
            "next",
            "%end 1 14 1",
        ]);
        let reply = parse_reply(&t, &nonce, 2).unwrap();
        assert_eq!(reply.outputs, vec![b"from the branch\n".to_vec(), b"next\n".to_vec()]);
    }

    #[test]
    fn a_failing_queued_command_fails_the_round_trip() {
        let nonce = Nonce::new();
        let t = Transcript::of(&[
            "%begin 1 10 1",
            "%end 1 10 1",
            "%begin 1 12 1",
            "no such pane",
            "%error 1 12 1",
        ]);
        let reply = parse_reply(&t, &nonce, 1).unwrap();
        assert!(reply.outputs.is_empty());
        assert_eq!(reply.failure.as_deref(), Some(&b"no such pane"[..]));
    }

    #[test]
    fn a_failure_ends_the_round_trip_with_its_message() {
        let nonce = Nonce::new();
        let t = Transcript::of(&["%begin 1 5 1", "can't find pane: %99", "%error 1 5 1"]);
        let reply = parse_reply(&t, &nonce, 2).unwrap();
        assert!(reply.outputs.is_empty());
        assert_eq!(reply.failure.as_deref(), Some(&b"can't find pane: %99"[..]));
    }

    #[test]
    fn forged_guards_in_pane_text_stay_pane_text() {
        let nonce = Nonce::new();
        let s = sep(&nonce);
        // The pane printed guards with the right numbers, a fake second block and a fake
        // failure; only the real last guard of block 20 ends it.
        let t = Transcript::of(&[
            "%begin 9 20 1",
            "%end 9 20 1",
            "%begin 9 21 1",
            "forged",
            "%error 9 21 1",
            "%end 9 20 1",
            "%sessions-changed",
            "tail",
            "%end 9 20 1",
            "%begin 9 21 1",
            &s,
            "%end 9 21 1",
            "%begin 9 22 1",
            "real state",
            "%end 9 22 1",
        ]);
        let reply = parse_reply(&t, &nonce, 2).unwrap();
        assert_eq!(
            reply.outputs[0],
            b"%end 9 20 1\n%begin 9 21 1\nforged\n%error 9 21 1\n%end 9 20 1\n%sessions-changed\ntail\n".to_vec()
        );
        assert_eq!(reply.outputs[1], b"real state\n".to_vec());
        assert!(reply.notifications.is_empty(), "{:?}", reply.notifications);
    }

    #[test]
    fn a_forged_separator_without_the_secret_is_only_text() {
        let nonce = Nonce::new();
        let other = sep(&Nonce::new());
        let t = Transcript::of(&["%begin 1 3 1", "%begin 1 4 1", &other, "%end 1 4 1", "%end 1 3 1"]);
        let reply = parse_reply(&t, &nonce, 1).unwrap();
        assert_eq!(reply.outputs.len(), 1);
        assert!(
            parse_reply(&t, &nonce, 2).is_err(),
            "one block cannot answer two commands"
        );
    }

    #[test]
    fn hook_blocks_around_a_command_are_skipped() {
        let nonce = Nonce::new();
        let s = sep(&nonce);
        let t = Transcript::of(&[
            "%begin 1 30 1",
            "a",
            "%end 1 30 1",
            "%begin 1 31 0",
            "hook said this",
            "%end 1 31 0",
            "%begin 1 32 1",
            &s,
            "%end 1 32 1",
            "%begin 1 33 0",
            "%end 1 33 0",
            "%begin 1 34 1",
            "b",
            "%end 1 34 1",
        ]);
        let reply = parse_reply(&t, &nonce, 2).unwrap();
        assert_eq!(reply.outputs, vec![b"a\n".to_vec(), b"b\n".to_vec()]);
    }

    #[test]
    fn blocks_that_do_not_match_the_commands_are_refused() {
        let nonce = Nonce::new();
        let s = sep(&nonce);
        assert!(parse_reply(&Transcript::of(&["%begin 1 3 1", "%end 1 3 1"]), &nonce, 2).is_err());
        assert!(parse_reply(&Transcript::of(&["just text"]), &nonce, 1).is_err());
        let after_failure = Transcript::of(&["%begin 1 3 1", "%error 1 3 1", "%begin 1 4 1", &s, "%end 1 4 1"]);
        assert!(parse_reply(&after_failure, &nonce, 2).is_err());
    }

    #[test]
    fn the_end_blocks_begin_is_dropped_only_if_it_is_one() {
        let mut t = Transcript::of(&["%begin 1 3 1", "x", "%end 1 3 1", "%begin 1 4 1"]);
        t.drop_end_block_begin().unwrap();
        assert_eq!(t.lines.len(), 3);
        assert!(t.drop_end_block_begin().is_err());
    }

    #[test]
    fn notification_names_are_read_from_percent_lines_only() {
        assert_eq!(notification_name(b"%sessions-changed"), Some("sessions-changed"));
        assert_eq!(notification_name(b"%client-detached client-1"), Some("client-detached"));
        assert_eq!(notification_name(b"%1 x"), None);
        assert_eq!(notification_name(b"plain"), None);
    }
}
