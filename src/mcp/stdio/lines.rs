//! Reading newline-delimited messages without letting one line take unbounded memory.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// What one read produced.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line is in the buffer, without its `\n` (or `\r\n`).
    Complete,
    /// The line was longer than the limit; it has been read past and dropped.
    TooLong,
    /// The client closed its end and nothing is left.
    End,
}

/// Reads the next line into `buf` (cleared first) if it fits in `limit` bytes with its
/// `\n`. A last line without a newline still counts as a line.
///
/// # Errors
/// Reading from `reader` failed.
pub async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Line> {
    buf.clear();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, buf.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Complete,
            });
        }
        let (chunk, used, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], at + 1, true),
            None => (available, available.len(), false),
        };
        if !too_long {
            // `>=`: the line's `\n` counts too, even when it is yet to come.
            if buf.len() + chunk.len() >= limit {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        reader.consume(used);
        if ends {
            if too_long {
                return Ok(Line::TooLong);
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Line::Complete);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all_lines(input: &[u8], limit: usize) -> Vec<(Line, Vec<u8>)> {
        // A tiny buffer makes lines arrive in several pieces.
        let mut reader = tokio::io::BufReader::with_capacity(3, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let line = read_line(&mut reader, &mut buf, limit).await.unwrap();
            if line == Line::End {
                return out;
            }
            out.push((line, buf.clone()));
        }
    }

    #[tokio::test]
    async fn lines_arrive_whole_without_their_line_ends() {
        let lines = all_lines(b"one\r\ntwo\n\nlast", 100).await;
        assert_eq!(
            lines,
            vec![
                (Line::Complete, b"one".to_vec()),
                (Line::Complete, b"two".to_vec()),
                (Line::Complete, b"".to_vec()),
                (Line::Complete, b"last".to_vec()),
            ]
        );
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_dropped_and_the_next_one_still_read() {
        let lines = all_lines(b"0123456789\nok\n1234\n12345\n0123456789", 5).await;
        assert_eq!(
            lines,
            vec![
                (Line::TooLong, Vec::new()),
                (Line::Complete, b"ok".to_vec()),
                (Line::Complete, b"1234".to_vec()),
                (Line::TooLong, Vec::new()),
                (Line::TooLong, Vec::new()),
            ]
        );
    }
}
