//! Every input the soak sends carries a token of its own, which the shell that runs it
//! appends to one log file. The ledger remembers what each call reported and reads the
//! log as it grows; its tally says what was lost, doubled, or ran though it failed.

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

/// What the soak knows of one token.
struct Sent {
    tool: &'static str,
    /// The call reported success.
    delivered: bool,
    /// The tmux server was killed between the call's start and the token's arrival
    /// (or the end of the wait for it): a shell killed with the server may never read
    /// keys tmux had already written to its terminal.
    cut_by_kill: bool,
    /// The call's error, when it failed.
    error: Option<String>,
}

/// A token counted against paneward (lost, doubled, or ran though its call failed), with
/// what its call reported, so a failed soak says where to look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suspect {
    pub number: usize,
    pub verdict: &'static str,
    pub tool: &'static str,
    pub reported: String,
}

/// How many suspects a tally names; the counts cover the rest.
const SUSPECTS_NAMED: usize = 20;

pub struct Ledger {
    /// `=<prefix>-`: tokens of this run only.
    prefix: String,
    log: PathBuf,
    /// Bytes of the log read so far, and an unfinished last line.
    offset: u64,
    partial: Vec<u8>,
    /// Token number → lines found.
    found: HashMap<usize, u32>,
    /// Log lines that are no token of this run.
    strangers: usize,
    sent: Vec<Sent>,
}

/// The verdict on every token sent.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    pub sent: usize,
    pub delivered: usize,
    pub failed: usize,
    /// Reported delivered, never arrived, no kill in its way.
    pub lost: usize,
    /// Arrived more than once (cut by a kill or not).
    pub doubled: usize,
    /// Reported failed, yet arrived, no kill in its way.
    pub ran_though_failed: usize,
    /// In flight (or not yet run) when the server was killed: delivered and arrived,
    /// delivered and never run (its shell died with the server), failed and arrived,
    /// failed and never arrived.
    pub cut_delivered_arrived: usize,
    pub cut_delivered_not_run: usize,
    pub cut_failed_arrived: usize,
    pub cut_failed_not_arrived: usize,
    /// Log lines that are no token sent by this run.
    pub strangers: usize,
    /// Per input tool: (delivered, failed).
    pub by_tool: Vec<(&'static str, usize, usize)>,
    /// The first tokens counted lost, doubled or ran though failed.
    pub suspects: Vec<Suspect>,
}

impl Ledger {
    pub fn new(prefix: &str, log: PathBuf) -> Self {
        Self {
            prefix: format!("={prefix}-"),
            log,
            offset: 0,
            partial: Vec::new(),
            found: HashMap::new(),
            strangers: 0,
            sent: Vec::new(),
        }
    }

    /// The number and text of the next token. The closing `=` makes a token cut short
    /// unreadable as another one.
    pub fn next_token(&self) -> (usize, String) {
        let number = self.sent.len();
        (number, format!("{}{number}=", self.prefix))
    }

    /// Records what the call that carried token `number` reported.
    pub fn record(
        &mut self,
        number: usize,
        tool: &'static str,
        delivered: bool,
        cut_by_kill: bool,
        error: Option<String>,
    ) {
        debug_assert_eq!(number, self.sent.len());
        self.sent.push(Sent {
            tool,
            delivered,
            cut_by_kill,
            error,
        });
    }

    /// Lines holding token `number` found so far.
    pub fn arrivals(&self, number: usize) -> u32 {
        self.found.get(&number).copied().unwrap_or(0)
    }

    /// Reads what the shells appended since the last read.
    ///
    /// # Errors
    /// The log cannot be read.
    pub fn read_new(&mut self) -> Result<(), String> {
        let mut file = match std::fs::File::open(&self.log) {
            Ok(file) => file,
            // No shell has written yet.
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(error) => return Err(format!("{}: {error}", self.log.display())),
        };
        file.seek(SeekFrom::Start(self.offset))
            .map_err(|e| format!("{}: {e}", self.log.display()))?;
        let mut fresh = Vec::new();
        let read = file
            .read_to_end(&mut fresh)
            .map_err(|e| format!("{}: {e}", self.log.display()))?;
        self.offset += read as u64;
        self.partial.extend_from_slice(&fresh);
        let Some(end) = self.partial.iter().rposition(|b| *b == b'\n') else {
            return Ok(());
        };
        let complete: Vec<u8> = self.partial.drain(..=end).collect();
        for line in complete.split(|b| *b == b'\n').filter(|line| !line.is_empty()) {
            match self.number_of(line) {
                Some(number) => *self.found.entry(number).or_insert(0) += 1,
                None => self.strangers += 1,
            }
        }
        Ok(())
    }

    fn number_of(&self, line: &[u8]) -> Option<usize> {
        let line = std::str::from_utf8(line).ok()?;
        let number: usize = line.strip_prefix(&self.prefix)?.strip_suffix('=')?.parse().ok()?;
        // The token in flight is not recorded yet; a later one is nobody's.
        (number <= self.sent.len()).then_some(number)
    }

    /// The verdict on every token recorded, from the log as read so far.
    pub fn tally(&self) -> Tally {
        let mut tally = Tally {
            sent: self.sent.len(),
            strangers: self.strangers,
            ..Tally::default()
        };
        // A line of a token never recorded counts as a stranger.
        tally.strangers += self
            .found
            .iter()
            .filter(|(number, _)| **number >= self.sent.len())
            .map(|(_, lines)| *lines as usize)
            .sum::<usize>();
        for (number, sent) in self.sent.iter().enumerate() {
            let arrivals = self.arrivals(number);
            if sent.delivered {
                tally.delivered += 1;
            } else {
                tally.failed += 1;
            }
            match tally.by_tool.iter_mut().find(|(tool, _, _)| *tool == sent.tool) {
                Some(row) => {
                    if sent.delivered {
                        row.1 += 1;
                    } else {
                        row.2 += 1;
                    }
                }
                None => tally
                    .by_tool
                    .push((sent.tool, usize::from(sent.delivered), usize::from(!sent.delivered))),
            }
            let mut suspect = |verdict: &'static str| {
                if tally.suspects.len() < SUSPECTS_NAMED {
                    tally.suspects.push(Suspect {
                        number,
                        verdict,
                        tool: sent.tool,
                        reported: sent.error.clone().unwrap_or_else(|| "success".into()),
                    });
                }
            };
            if arrivals > 1 {
                suspect("doubled");
                tally.doubled += 1;
            }
            let arrived = arrivals > 0;
            match (sent.cut_by_kill, sent.delivered, arrived) {
                (false, true, false) => suspect("lost"),
                (false, false, true) => suspect("ran though failed"),
                _ => {}
            }
            let count = match (sent.cut_by_kill, sent.delivered, arrived) {
                (false, true, false) => &mut tally.lost,
                (false, false, true) => &mut tally.ran_though_failed,
                (false, _, _) => continue,
                (true, true, true) => &mut tally.cut_delivered_arrived,
                (true, true, false) => &mut tally.cut_delivered_not_run,
                (true, false, true) => &mut tally.cut_failed_arrived,
                (true, false, false) => &mut tally.cut_failed_not_arrived,
            };
            *count += 1;
        }
        tally
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ledger_with_log(name: &str, text: &str) -> Ledger {
        let log = std::env::temp_dir().join(format!("paneward-ledger-{}-{name}", std::process::id()));
        std::fs::write(&log, text).unwrap();
        Ledger::new("T", log)
    }

    #[test]
    fn the_tally_tells_lost_doubled_and_ran_though_failed_tokens_apart() {
        let mut ledger = ledger_with_log("tally", "=T-0=\n=T-1=\n=T-1=\n=T-3=\nnoise\n=T-5=\n=T-6");
        for (number, delivered, cut) in [
            (0, true, false),
            (1, true, false),
            (2, true, false),
            (3, false, false),
            (4, true, true),
            (5, false, true),
        ] {
            assert_eq!(ledger.next_token().0, number);
            let error = (!delivered).then(|| format!("send_keys: failure {number}"));
            ledger.record(number, "send_keys", delivered, cut, error);
        }
        ledger.read_new().unwrap();
        let tally = ledger.tally();
        std::fs::remove_file(&ledger.log).unwrap();
        assert_eq!(
            (tally.lost, tally.doubled, tally.ran_though_failed, tally.strangers),
            (1, 1, 1, 1)
        );
        assert_eq!((tally.cut_delivered_not_run, tally.cut_failed_arrived), (1, 1));
        assert_eq!(tally.by_tool, vec![("send_keys", 4, 2)]);
        let named: Vec<_> = tally
            .suspects
            .iter()
            .map(|s| (s.number, s.verdict, s.reported.as_str()))
            .collect();
        assert_eq!(
            named,
            vec![
                (1, "doubled", "success"),
                (2, "lost", "success"),
                (3, "ran though failed", "send_keys: failure 3")
            ]
        );
        // The unfinished last line is read once it ends.
        assert_eq!(ledger.partial, b"=T-6");
    }
}
