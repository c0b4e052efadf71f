//! A bare `tmux -C` client: the physical floor of each tool, with no MCP, JSON or
//! framing safeguards on top. Only for the benchmark's own benign panes: it trusts
//! guard lines, which pane text could forge.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

pub struct RawControl {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
}

/// Whether `line` is a guard with control flag 1 closing (`%end`/`%error`) or opening.
fn guard(line: &[u8]) -> Option<(bool, &[u8])> {
    let text = line.strip_suffix(b"\n").unwrap_or(line);
    let (opens, rest) = if let Some(rest) = text.strip_prefix(b"%begin ") {
        (true, rest)
    } else if let Some(rest) = text.strip_prefix(b"%end ").or_else(|| text.strip_prefix(b"%error ")) {
        (false, rest)
    } else {
        return None;
    };
    let fields: Vec<&[u8]> = rest.split(|&b| b == b' ').collect();
    (fields.len() == 3 && fields[2] == b"1").then(|| (opens, fields[1]))
}

impl RawControl {
    /// Attaches to `session` on socket `socket`, like paneward does.
    ///
    /// # Errors
    /// tmux could not be started or did not attach.
    pub fn attach(socket: &str, session: &str) -> Result<Self, String> {
        let mut child = Command::new("tmux")
            .args([
                "-L",
                socket,
                "-C",
                "attach-session",
                "-E",
                "-t",
                session,
                "-f",
                "ignore-size,no-output",
            ])
            .env_remove("TMUX")
            .env_remove("TMUX_PANE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start tmux -C: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("no pipes".into());
        };
        let mut raw = Self {
            child,
            stdin,
            stdout: BufReader::with_capacity(1 << 20, stdout),
            line: Vec::new(),
        };
        // The attach's own block carries flag 0; a first command of ours ends the wait.
        raw.round_trip("display-message -p ready", 1)?;
        Ok(raw)
    }

    /// Sends one command line and waits for `blocks` blocks; returns the latency.
    ///
    /// # Errors
    /// tmux closed the connection.
    pub fn round_trip(&mut self, line: &str, blocks: usize) -> Result<Duration, String> {
        let started = Instant::now();
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("writing to tmux: {e}"))?;
        let mut done = 0;
        let mut open: Option<Vec<u8>> = None;
        while done < blocks {
            self.line.clear();
            let read = self
                .stdout
                .read_until(b'\n', &mut self.line)
                .map_err(|e| format!("reading from tmux: {e}"))?;
            if read == 0 {
                return Err("tmux closed the control connection".into());
            }
            match (guard(&self.line), &open) {
                (Some((true, number)), None) => open = Some(number.to_vec()),
                (Some((false, number)), Some(opened)) if number == opened.as_slice() => {
                    open = None;
                    done += 1;
                }
                _ => {}
            }
        }
        Ok(started.elapsed())
    }
}

impl Drop for RawControl {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
