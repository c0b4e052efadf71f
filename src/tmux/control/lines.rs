//! Reading tmux's control-mode output line by line: each line bounded by
//! [`CONTROL_LINE_MAX_BYTES`], and a line cut by a cancelled read kept for the next.

use crate::limits::CONTROL_LINE_MAX_BYTES;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// Where tmux's control-mode output comes from.
pub(super) type Output = Box<dyn AsyncRead + Send + Unpin>;

/// Lines from tmux's standard output, bounded, kept across interrupted reads.
pub(super) struct LineReader {
    stdout: BufReader<Output>,
    /// The part of a line read so far.
    pub(super) pending: Vec<u8>,
    /// The current line went past [`CONTROL_LINE_MAX_BYTES`]; the rest of it is skipped.
    overlong: bool,
}

/// What one read produced.
pub(super) enum Read {
    /// A line ended; it is in [`LineReader::line`] until [`LineReader::done`].
    Line,
    /// A line too long to keep ended.
    Overlong,
    Eof,
}

impl LineReader {
    pub(super) fn new(stdout: Output) -> Self {
        Self {
            stdout: BufReader::with_capacity(64 * 1024, stdout),
            pending: Vec::new(),
            overlong: false,
        }
    }

    /// The next line already in the buffer, without waiting; `None` when no whole line
    /// is buffered (a partial one is kept in `pending`).
    pub(super) fn buffered(&mut self) -> Option<Read> {
        let buffer = self.stdout.buffer();
        if buffer.is_empty() {
            return None;
        }
        // memchr: a long capture is hundreds of kilobytes of lines, and a byte-by-byte
        // search for each newline was a tenth of paneward's time on one.
        let (taken, done) = match memchr::memchr(b'\n', buffer) {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        let body = &buffer[..if done { taken - 1 } else { taken }];
        if !self.overlong {
            if self.pending.len() + body.len() > CONTROL_LINE_MAX_BYTES {
                self.overlong = true;
                self.pending.clear();
            } else {
                self.pending.extend_from_slice(body);
            }
        }
        self.stdout.consume(taken);
        if !done {
            return None;
        }
        Some(if std::mem::take(&mut self.overlong) {
            Read::Overlong
        } else {
            Read::Line
        })
    }

    /// Waits until a line ends. Cancel-safe: the only wait is `fill_buf`, which
    /// consumes nothing, and bytes leave the buffer only once copied into `pending`.
    pub(super) async fn read(&mut self) -> Result<Read, String> {
        loop {
            if let Some(read) = self.buffered() {
                return Ok(read);
            }
            let filled = self
                .stdout
                .fill_buf()
                .await
                .map_err(|e| format!("reading from tmux: {e}"))?;
            if filled.is_empty() {
                return Ok(Read::Eof);
            }
        }
    }

    /// The line the last [`Read::Line`] ended.
    pub(super) fn line(&self) -> &[u8] {
        &self.pending
    }

    /// Forgets the current line, keeping its memory for the next.
    pub(super) fn done(&mut self) {
        self.pending.clear();
    }

    pub(super) async fn next_line(&mut self) -> Result<Option<Vec<u8>>, String> {
        loop {
            match self.read().await? {
                Read::Line => {
                    let line = self.line().to_vec();
                    self.done();
                    return Ok(Some(line));
                }
                Read::Overlong => continue,
                Read::Eof => return Ok(None),
            }
        }
    }
}
