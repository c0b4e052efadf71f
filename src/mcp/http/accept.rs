//! Accepting connections when the descriptor table may be full.
//!
//! `accept` fails at once, again and again, while the process has no descriptor left:
//! retried at once it spins a core and logs a line each time (448 MB in 20 s, measured).
//! So a failure for want of descriptors pauses the loop, the pause doubling up to a
//! bound, and failures are logged at most once an interval, with their count.

use std::io;
use std::time::{Duration, Instant};

use crate::limits::{HTTP_ACCEPT_BACKOFF_MAX, HTTP_ACCEPT_BACKOFF_MIN, HTTP_ACCEPT_LOG_INTERVAL};

/// Whether `error` says the process or the system is out of descriptors or buffers:
/// retrying at once cannot succeed.
pub fn out_of_resources(error: &io::Error) -> bool {
    use rustix::io::Errno;
    let resource_errors = [Errno::MFILE, Errno::NFILE, Errno::NOBUFS, Errno::NOMEM];
    error
        .raw_os_error()
        .is_some_and(|code| resource_errors.iter().any(|errno| errno.raw_os_error() == code))
}

/// The state of failed accepts: the next pause and what is still to be logged.
#[derive(Debug)]
pub struct AcceptFailures {
    pause: Duration,
    last_logged: Option<Instant>,
    unlogged: u64,
}

impl Default for AcceptFailures {
    fn default() -> Self {
        Self {
            pause: HTTP_ACCEPT_BACKOFF_MIN,
            last_logged: None,
            unlogged: 0,
        }
    }
}

impl AcceptFailures {
    /// An accept succeeded: the next failure pauses briefly again.
    pub fn succeeded(&mut self) {
        self.pause = HTTP_ACCEPT_BACKOFF_MIN;
    }

    /// Records `error`, logs it if the interval has passed, and returns how long to
    /// pause before the next accept (zero for a failure of that connection alone).
    pub fn failed(&mut self, error: &io::Error, now: Instant) -> Duration {
        self.unlogged += 1;
        if self
            .last_logged
            .is_none_or(|at| now.duration_since(at) >= HTTP_ACCEPT_LOG_INTERVAL)
        {
            tracing::warn!(%error, failures = self.unlogged, "cannot accept a connection (at most one line every {}s)", HTTP_ACCEPT_LOG_INTERVAL.as_secs());
            self.last_logged = Some(now);
            self.unlogged = 0;
        }
        if !out_of_resources(error) {
            return Duration::ZERO;
        }
        let pause = self.pause;
        self.pause = (self.pause * 2).min(HTTP_ACCEPT_BACKOFF_MAX);
        pause
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_descriptor_table_pauses_longer_each_time_up_to_the_bound() {
        let mut failures = AcceptFailures::default();
        let full = io::Error::from_raw_os_error(rustix::io::Errno::MFILE.raw_os_error());
        let now = Instant::now();
        let pauses: Vec<Duration> = (0..10).map(|_| failures.failed(&full, now)).collect();
        assert_eq!(pauses[0], HTTP_ACCEPT_BACKOFF_MIN);
        assert!(pauses.windows(2).all(|pair| pair[0] <= pair[1]));
        assert_eq!(*pauses.last().unwrap_or(&Duration::ZERO), HTTP_ACCEPT_BACKOFF_MAX);
        assert_eq!(failures.unlogged, 9, "one line logged, nine counted for the next");
        let aborted = io::Error::from(io::ErrorKind::ConnectionAborted);
        assert_eq!(failures.failed(&aborted, now), Duration::ZERO);
        failures.succeeded();
        assert_eq!(failures.failed(&full, now), HTTP_ACCEPT_BACKOFF_MIN);
    }
}
