//! Bounding pane text: keep the newest lines, and say exactly what was dropped.

use std::borrow::Cow;

use crate::limits::TEXT_MAX_BYTES;
use crate::tools::observe::own::{hide_own_rows, may_hold_own_rows};

/// Text lines after bounding, with what was cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundedLines {
    pub lines: Vec<String>,
    pub truncated_lines: i64,
    /// UTF-8 bytes of the dropped lines, counting one newline after each.
    pub truncated_bytes: i64,
}

impl BoundedLines {
    pub fn truncated(&self) -> bool {
        self.truncated_lines > 0
    }
}

/// Splits captured output into lines, converting invalid UTF-8 lossily (pane output is
/// bytes; JSON needs text), and drops the blank rows below the last written line.
///
/// paneward's own rows (`run_command`'s markers and typed line) come back blank
/// ([`hide_own_rows`]).
pub fn split_capture(output: &[u8]) -> Vec<String> {
    capture_rows(&lossy(output)).into_iter().map(Cow::into_owned).collect()
}

/// The rows of [`split_capture`] for the capture `text` (its output as UTF-8), borrowed
/// from `text` when none of them can be paneward's own: most captures hold none, and a
/// search looks at every row of every screen to keep the few that match.
pub fn capture_rows(text: &str) -> Vec<Cow<'_, str>> {
    if may_hold_own_rows(text.as_bytes()) {
        return hidden_rows(text).into_iter().map(Cow::Owned).collect();
    }
    let Some(body) = (!text.is_empty()).then(|| text.strip_suffix('\n').unwrap_or(text)) else {
        return Vec::new();
    };
    // What hiding leaves of a row that holds nothing of paneward's: the row, its end
    // trimmed.
    let mut rows: Vec<Cow<'_, str>> = rows_of(body).map(|row| Cow::Borrowed(row.trim_end())).collect();
    while rows.last().is_some_and(|row| row.is_empty()) {
        rows.pop();
    }
    rows
}

/// `bytes` as text, invalid UTF-8 replaced: `str::from_utf8` first, as nearly every
/// capture is valid and its check (a word at a time over ASCII) is several times
/// quicker than `from_utf8_lossy`'s, which was a twelfth of a long capture's time.
pub fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// The lines of `body`, split at each `\n` as `str::split` would, found with memchr.
fn rows_of(body: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', body.as_bytes())
        .chain(std::iter::once(body.len()))
        .map(move |end| {
            // `\n` is ASCII, so both ends are character boundaries.
            let row = &body[start..end];
            start = end + 1;
            row
        })
}

/// The rows of `text` with paneward's own ones blanked and the blank tail dropped.
fn hidden_rows(text: &str) -> Vec<String> {
    let mut lines = split_rows(text.as_bytes());
    hide_own_rows(&mut lines);
    trim_blank_tail(&mut lines);
    lines
}

/// `fields` of `pane` as one `display-message` record, and its visible rows, in one
/// round trip: what the readiness and submit watches look at.
///
/// # Errors
/// A missing pane (the capture fails for one), or tmux failing.
pub async fn facts_and_rows(
    gate: &crate::guard::ReadGate<'_>,
    pane: crate::tmux::PaneId,
    fields: &[&str],
) -> Result<(String, Vec<String>), crate::tmux::TmuxError> {
    use crate::tmux::{ReadCommand, ReadVerb};
    let describe = ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
        .arg(crate::tmux::format::record_format(fields));
    let capture = ReadCommand::new(ReadVerb::CapturePane)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string());
    let [described, screen] = gate.run_each([describe, capture]).await?;
    Ok((String::from_utf8_lossy(&described).into_owned(), split_rows(&screen)))
}

/// One row per line of a capture, blank rows kept, trailing spaces removed.
pub fn split_rows(output: &[u8]) -> Vec<String> {
    let text = lossy(output);
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix('\n').unwrap_or(&text);
    // Sized once: a search splits every row of every screen.
    let mut rows = Vec::with_capacity(memchr::memchr_iter(b'\n', body.as_bytes()).count() + 1);
    rows.extend(rows_of(body).map(|row| row.trim_end_matches([' ', '\r']).to_string()));
    rows
}

/// One row per line of a `capture-pane -J` capture, as tmux gave it: `-J` keeps the
/// spaces a program wrote at a row's end (cells it never wrote are not printed), and
/// so does this; only the capture's final newline goes.
pub fn split_rows_as_written(output: &[u8]) -> Vec<String> {
    let text = lossy(output);
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix('\n').unwrap_or(&text);
    rows_of(body).map(str::to_string).collect()
}

/// Drops the blank rows below the last written one.
pub fn trim_blank_tail(rows: &mut Vec<String>) {
    while rows.last().is_some_and(String::is_empty) {
        rows.pop();
    }
}

/// Keeps the newest `max_lines` lines that also fit in [`TEXT_MAX_BYTES`].
pub fn keep_newest(lines: Vec<String>, max_lines: usize) -> BoundedLines {
    keep_newest_within(lines, max_lines, TEXT_MAX_BYTES)
}

/// Keeps the newest `max_lines` lines that also fit in `max_bytes` (a newline counted
/// after each).
pub fn keep_newest_within(mut lines: Vec<String>, max_lines: usize, max_bytes: usize) -> BoundedLines {
    let mut kept_bytes = 0usize;
    let mut keep = 0usize;
    for line in lines.iter().rev() {
        let cost = line.len() + 1;
        if keep == max_lines || kept_bytes + cost > max_bytes {
            break;
        }
        kept_bytes += cost;
        keep += 1;
    }
    let cut = lines.len() - keep;
    let dropped: usize = lines[..cut].iter().map(|line| line.len() + 1).sum();
    lines.drain(..cut);
    BoundedLines {
        lines,
        truncated_lines: i64::try_from(cut).unwrap_or(i64::MAX),
        truncated_bytes: i64::try_from(dropped).unwrap_or(i64::MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_blank_ones_and_lose_trailing_spaces() {
        assert_eq!(split_rows(b"a  \n\nb\n"), ["a", "", "b"]);
        assert_eq!(split_rows(b"\n"), [""]);
        assert_eq!(split_rows(b""), Vec::<String>::new());
        assert_eq!(split_rows(b"\n\n"), ["", ""]);
    }

    #[test]
    fn borrowed_rows_are_the_rows_hiding_leaves() {
        let marker = format!("PW{}:", "0".repeat(32));
        let captures: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"\n".to_vec(),
            b"a  \n\tb\t \r\n\n\n".to_vec(),
            b"x\n\n y \n".to_vec(),
            b"no newline at the end".to_vec(),
            b"caf\xc3\xa9 \xff\xfe bytes\n".to_vec(),
            format!("$ ls\n{marker}\nout\n{marker}\n\n").into_bytes(),
            b"PWD=/tmp\n\n".to_vec(),
        ];
        for capture in captures {
            let text = String::from_utf8_lossy(&capture);
            let borrowed: Vec<String> = capture_rows(&text).into_iter().map(Cow::into_owned).collect();
            assert_eq!(borrowed, hidden_rows(&text), "{text:?}");
        }
    }

    #[test]
    fn rows_split_as_str_split_does_and_invalid_utf8_is_replaced_as_lossily() {
        for body in ["", "\n", "a", "a\n", "\n\na", "caf\u{e9}\n\u{2603} x\n\n", "no newline"] {
            assert_eq!(
                rows_of(body).collect::<Vec<_>>(),
                body.split('\n').collect::<Vec<_>>(),
                "{body:?}"
            );
        }
        for bytes in [&b"plain"[..], b"caf\xc3\xa9", b"\xff\xfe bytes", b"cut \xe2\x98"] {
            assert_eq!(lossy(bytes), String::from_utf8_lossy(bytes), "{bytes:?}");
        }
    }

    fn numbered(n: usize) -> Vec<String> {
        (1..=n).map(|i| i.to_string()).collect()
    }

    #[test]
    fn the_newest_lines_are_kept_and_the_rest_counted() {
        let bounded = keep_newest(numbered(100), 5);
        assert_eq!(bounded.lines, ["96", "97", "98", "99", "100"]);
        assert_eq!(bounded.truncated_lines, 95);
        // "1".."9" are 2 bytes with their newline, "10".."95" are 3.
        assert_eq!(bounded.truncated_bytes, 9 * 2 + 86 * 3);
        assert!(bounded.truncated());
    }

    #[test]
    fn nothing_is_cut_when_everything_fits() {
        let bounded = keep_newest(numbered(3), 500);
        assert_eq!(bounded.lines.len(), 3);
        assert!(!bounded.truncated());
        assert_eq!(bounded.truncated_bytes, 0);
    }

    #[test]
    fn the_byte_ceiling_applies_whatever_max_lines_says() {
        let wide = vec!["x".repeat(9_999); 500];
        let bounded = keep_newest(wide, 5_000);
        assert_eq!(bounded.lines.len(), TEXT_MAX_BYTES / 10_000);
        assert_eq!(bounded.truncated_lines, 500 - 100);
    }

    #[test]
    fn blank_rows_below_the_text_are_dropped_and_bad_utf8_survives() {
        let lines = split_capture(b"a  \n\xffb\n\n\n");
        assert_eq!(lines, ["a", "\u{fffd}b"]);
    }
}
