//! Round trips that share one end line.
//!
//! A batch's read operations reach the connection together, and an end line for each
//! costs tmux a parse error per row (about 15 µs apiece at 16 rows; docs/tmux-quirks.md).
//! Round trips that only read and are written together therefore end with the last
//! one's end line alone, and the lines tmux sends back are cut between them by tmux's
//! guards. Pane text can copy a guard line, so the cut is taken only when a copy could
//! not have moved it ([`cut`]); otherwise the connection sends each round trip again on
//! its own, with its own end line, which is harmless because they only read.

use super::protocol::{Guard, GuardKind, Transcript, FLAG_CONTROL};

/// Why a shared transcript was not cut.
pub type Refusal = &'static str;

/// Cuts the lines of round trips that shared an end line (the end block's `%begin`
/// already dropped) into one transcript each. `most_blocks[i]` is how many blocks round
/// trip `i` gets when none fails; one that fails ends at its `%error` block, since tmux
/// runs nothing after a failure on the same line. What comes before a round trip's
/// first block (notifications) goes with it, and what follows the last block with the
/// last.
///
/// The cut is certain when every guard of ours (flag 1) pairs up, `%begin n` then the
/// very next guard of ours closing `n`, with `n` rising from block to block and no guard
/// line at all between blocks. A copied guard can only add lines, never hide tmux's. A
/// copy inside block `n` is the next guard of ours after its `%begin`: unless it closes
/// `n` it is refused; if it does, tmux's own close of `n` still follows, and lands
/// either between blocks or as the close of a copied `%begin m` with `m > n`, and both
/// are refused. A hook's block (flag 0) between ours is refused too, since its output
/// could hold anything.
///
/// # Errors
/// Any line out of that shape; the caller then sends each round trip alone.
pub fn cut(transcript: &Transcript, most_blocks: &[usize]) -> Result<Vec<Transcript>, Refusal> {
    let count = transcript.line_count();
    let mut parts = Vec::with_capacity(most_blocks.len());
    let mut index = 0;
    let mut last_number = None;
    for &most in most_blocks {
        let start = index;
        let mut blocks = 0;
        loop {
            let begin = loop {
                if index >= count {
                    return Err("a shared round trip's block is missing");
                }
                let line = transcript.line(index);
                index += 1;
                match Guard::parse(line) {
                    None => {}
                    Some(guard) if guard.kind == GuardKind::Begin && guard.flags == FLAG_CONTROL => break guard,
                    Some(_) => return Err("a guard line between the blocks of a shared round trip"),
                }
            };
            if last_number.is_some_and(|last| begin.number <= last) {
                return Err("the blocks of a shared round trip are out of order");
            }
            last_number = Some(begin.number);
            let close = loop {
                if index >= count {
                    return Err("a block of a shared round trip never ended");
                }
                let line = transcript.line(index);
                index += 1;
                if let Some(guard) = Guard::parse(line).filter(|g| g.flags == FLAG_CONTROL) {
                    break guard;
                }
            };
            if close.kind == GuardKind::Begin || close.number != begin.number {
                return Err("a block of a shared round trip holds a guard line");
            }
            blocks += 1;
            if close.kind == GuardKind::Error || blocks >= most {
                break;
            }
        }
        parts.push(transcript.part(start, index));
    }
    if (index..count).any(|i| Guard::parse(transcript.line(i)).is_some()) {
        return Err("a block came after the last of a shared round trip");
    }
    if let Some(last) = parts.last_mut() {
        last.extend_from(transcript, index, count);
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(t: &Transcript) -> Vec<String> {
        (0..t.line_count())
            .map(|i| String::from_utf8_lossy(t.line(i)).into_owned())
            .collect()
    }

    #[test]
    fn each_round_trip_gets_its_blocks_and_the_notifications_before_them() {
        let t = Transcript::of(&[
            "%begin 1 5 1",
            "a",
            "%end 1 5 1",
            "%window-add @2",
            "%begin 1 6 1",
            "%begin 1 2 0",
            "%end 1 6 1",
            "%begin 1 7 1",
            "sep",
            "%end 1 7 1",
            "%begin 1 8 1",
            "c",
            "%end 1 8 1",
            "%sessions-changed",
        ]);
        let parts = cut(&t, &[1, 3]).unwrap();
        assert_eq!(lines(&parts[0]), ["%begin 1 5 1", "a", "%end 1 5 1"]);
        assert_eq!(
            lines(&parts[1]),
            [
                "%window-add @2",
                "%begin 1 6 1",
                "%begin 1 2 0",
                "%end 1 6 1",
                "%begin 1 7 1",
                "sep",
                "%end 1 7 1",
                "%begin 1 8 1",
                "c",
                "%end 1 8 1",
                "%sessions-changed",
            ],
            "a guard of a hook's inside a block is only text"
        );
    }

    #[test]
    fn a_failure_ends_its_round_trip_early() {
        let t = Transcript::of(&[
            "%begin 1 5 1",
            "no such pane",
            "%error 1 5 1",
            "%begin 1 6 1",
            "b",
            "%end 1 6 1",
        ]);
        let parts = cut(&t, &[3, 1]).unwrap();
        assert_eq!(lines(&parts[0]), ["%begin 1 5 1", "no such pane", "%error 1 5 1"]);
        assert_eq!(lines(&parts[1]), ["%begin 1 6 1", "b", "%end 1 6 1"]);
    }

    #[test]
    fn copied_guards_are_refused_wherever_they_could_move_a_cut() {
        let refused = [
            // A copy that closes the block early, then opens the next one.
            &[
                "%begin 1 5 1",
                "%end 1 5 1",
                "%begin 1 6 1",
                "forged",
                "%end 1 5 1",
                "%begin 1 6 1",
                "b",
                "%end 1 6 1",
            ][..],
            // A copy that closes the block early and leaves tmux's close between blocks.
            &[
                "%begin 1 5 1",
                "%end 1 5 1",
                "forged",
                "%end 1 5 1",
                "%begin 1 6 1",
                "%end 1 6 1",
            ][..],
            // A copy that reopens the same number for tmux's close to end.
            &[
                "%begin 1 5 1",
                "%end 1 5 1",
                "%begin 1 5 1",
                "forged",
                "%end 1 5 1",
                "%begin 1 6 1",
                "%end 1 6 1",
            ][..],
            // A copied failure of another number.
            &[
                "%begin 1 5 1",
                "%error 1 9 1",
                "%end 1 5 1",
                "%begin 1 6 1",
                "%end 1 6 1",
            ][..],
            // A hook's block between ours, whose text could be anything.
            &[
                "%begin 1 5 1",
                "%end 1 5 1",
                "%begin 1 9 0",
                "%end 1 9 0",
                "%begin 1 6 1",
                "%end 1 6 1",
            ][..],
            // One block too many, and one too few.
            &[
                "%begin 1 5 1",
                "%end 1 5 1",
                "%begin 1 6 1",
                "%end 1 6 1",
                "%begin 1 7 1",
                "%end 1 7 1",
            ][..],
            &["%begin 1 5 1", "%end 1 5 1"][..],
        ];
        for (case, forged) in refused.iter().enumerate() {
            assert!(cut(&Transcript::of(forged), &[1, 1]).is_err(), "case {case}");
        }
        // The first case's copy would have handed the second round trip "forged".
        let clean = Transcript::of(&["%begin 1 5 1", "x", "%end 1 5 1", "%begin 1 6 1", "b", "%end 1 6 1"]);
        assert!(cut(&clean, &[1, 1]).is_ok());
    }
}
