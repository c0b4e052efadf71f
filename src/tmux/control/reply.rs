//! Cutting a finished control-mode transcript into one output per command: by the
//! nonce separators ([`parse_reply`]) or by counted lines ([`parse_counted`]), guards
//! never trusted on their own (the rules are `super::protocol`'s); and the names of the
//! notifications seen between blocks.

use super::protocol::{Guard, GuardKind, Nonce, Transcript, FLAG_CONTROL};

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

/// Cuts a finished transcript of bare commands (`Framing::Lines`: no separators) into
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
    fn notification_names_are_read_from_percent_lines_only() {
        assert_eq!(notification_name(b"%sessions-changed"), Some("sessions-changed"));
        assert_eq!(notification_name(b"%client-detached client-1"), Some("client-detached"));
        assert_eq!(notification_name(b"%1 x"), None);
        assert_eq!(notification_name(b"plain"), None);
    }
}
