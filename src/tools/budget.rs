//! What every wait shares (the waits, `run_command`, `get_job`): its timeout (a default,
//! clamped to a ceiling, reported), its refusal inside a batch, and throttled progress
//! notifications. It sits beside the groups, not in `wait`, because `run` waits too.

use std::time::{Duration, Instant};

use crate::limits::WAIT_PROGRESS_INTERVAL;
use crate::runtime::error::ToolError;
use crate::runtime::CallContext;

/// A wait's time budget, from the moment it started: the one kind every waiting tool
/// (`wait_for_text`, `wait_for_channel`, `run_command`, `get_job`) reads its
/// `timeout_seconds` into and reports back from.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub start: Instant,
    pub timeout: Duration,
    /// The caller asked for more than the ceiling (a default is shortened silently).
    pub clamped: bool,
}

impl Budget {
    /// `requested` seconds (`field`), or `default`; clamped to `ceiling` (`--max-wait`).
    /// It starts now (see [`Budget::restart`]).
    ///
    /// # Errors
    /// A negative or non-finite number, named as `field`.
    pub fn new(field: &str, requested: Option<f64>, default: Duration, ceiling: Duration) -> Result<Self, ToolError> {
        let asked = match requested {
            None => default,
            Some(seconds) if seconds.is_finite() && seconds >= 0.0 => {
                Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
            }
            Some(_) => {
                return Err(ToolError::invalid_argument(
                    field,
                    "must be a number of seconds, 0 or more",
                ))
            }
        };
        Ok(Self {
            start: Instant::now(),
            timeout: asked.min(ceiling),
            clamped: requested.is_some() && asked > ceiling,
        })
    }

    /// The budget counted from now (a wait that starts after some preparation).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn left(&self) -> Duration {
        self.timeout.saturating_sub(self.elapsed())
    }

    pub fn is_over(&self) -> bool {
        self.left().is_zero()
    }

    /// Seconds, rounded to milliseconds, as replies give them.
    pub fn seconds(duration: Duration) -> f64 {
        (duration.as_secs_f64() * 1000.0).round() / 1000.0
    }
}

/// Refuses a wait inside a batch: a batch row that blocks for seconds holds every row
/// after it, and a batch has no progress of its own to show for it.
///
/// # Errors
/// Always, for a batch row.
pub fn refuse_in_batch(context: &CallContext, tool: &str) -> Result<(), ToolError> {
    if context.is_batch_row() {
        return Err(ToolError::invalid_argument(
            "",
            format!("{tool} waits, so it cannot run inside a batch; call it on its own"),
        ));
    }
    Ok(())
}

/// Progress notifications for one wait, at most one per [`WAIT_PROGRESS_INTERVAL`].
pub struct Progress<'a> {
    context: &'a CallContext,
    last: Instant,
}

impl<'a> Progress<'a> {
    pub fn new(context: &'a CallContext) -> Self {
        Self {
            context,
            last: Instant::now(),
        }
    }

    /// Sends "12.0 s of 30.0 s, `what`" if the last one is old enough (a no-op when the
    /// client gave no progress token).
    pub async fn tick(&mut self, budget: &Budget, what: &str) {
        if !self.context.wants_progress() || self.last.elapsed() < WAIT_PROGRESS_INTERVAL {
            return;
        }
        self.last = Instant::now();
        let elapsed = budget.elapsed().as_secs_f64();
        let total = budget.timeout.as_secs_f64();
        let message = format!("{elapsed:.1} s of {total:.1} s, {what}");
        send_progress(self.context, elapsed, total, message).await;
    }
}

/// The one place a wait's progress reaches the client.
async fn send_progress(context: &CallContext, elapsed: f64, total: f64, message: String) {
    context.progress(elapsed, Some(total), Some(message)).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::WAIT_DEFAULT_TIMEOUT;

    #[test]
    fn a_timeout_defaults_and_is_clamped_to_the_ceiling() {
        let ceiling = crate::limits::MAX_WAIT_DEFAULT;
        let budget = |asked, ceiling| Budget::new("/timeout_seconds", asked, WAIT_DEFAULT_TIMEOUT, ceiling).unwrap();
        let default = budget(None, ceiling);
        assert_eq!((default.timeout, default.clamped), (WAIT_DEFAULT_TIMEOUT, false));
        let short = budget(Some(0.25), ceiling);
        assert_eq!((short.timeout, short.clamped), (Duration::from_millis(250), false));
        let long = budget(Some(1e12), ceiling);
        assert_eq!((long.timeout, long.clamped), (ceiling, true));
        let configured = budget(Some(60.0), Duration::from_secs(20));
        assert_eq!(
            (configured.timeout, configured.clamped),
            (Duration::from_secs(20), true)
        );
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            let error = Budget::new("/timeout_seconds", Some(bad), WAIT_DEFAULT_TIMEOUT, ceiling).unwrap_err();
            assert!(error.to_string().contains("/timeout_seconds"), "{error}");
        }
    }

    #[test]
    fn a_wait_is_refused_as_a_batch_row_only() {
        let error = refuse_in_batch(&CallContext::nested(), "wait_for_text").unwrap_err();
        assert!(error.to_string().contains("cannot run inside a batch"), "{error}");
        assert!(refuse_in_batch(&CallContext::default(), "wait_for_text").is_ok());
    }
}
