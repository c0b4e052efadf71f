//! Latency samples and their summaries.

use std::time::Duration;

/// Samples of one measured operation.
#[derive(Debug, Default, Clone)]
pub struct Samples(Vec<Duration>);

impl Samples {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn push(&mut self, sample: Duration) {
        self.0.push(sample);
    }

    fn sorted(&self) -> Vec<Duration> {
        let mut sorted = self.0.clone();
        sorted.sort_unstable();
        sorted
    }

    /// The value at quantile `q` (0..=1), nearest-rank; zero when empty.
    pub fn quantile(&self, q: f64) -> Duration {
        let sorted = self.sorted();
        if sorted.is_empty() {
            return Duration::ZERO;
        }
        let rank = (q * sorted.len() as f64).ceil() as usize;
        sorted[rank.clamp(1, sorted.len()) - 1]
    }

    pub fn median(&self) -> Duration {
        self.quantile(0.5)
    }

    pub fn p99(&self) -> Duration {
        self.quantile(0.99)
    }
}

/// A duration in the unit that reads best: µs below 10 ms, else ms.
pub fn show(duration: Duration) -> String {
    let micros = duration.as_secs_f64() * 1e6;
    if micros < 10_000.0 {
        format!("{micros:.0} µs")
    } else {
        format!("{:.1} ms", micros / 1000.0)
    }
}

/// `peer / ours` as a factor.
pub fn ratio(peer: Duration, ours: Duration) -> String {
    if ours.is_zero() {
        return "n/a".into();
    }
    format!("{:.1}×", peer.as_secs_f64() / ours.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_use_the_nearest_rank() {
        let mut samples = Samples::default();
        for ms in 1..=100 {
            samples.push(Duration::from_millis(ms));
        }
        assert_eq!(samples.median(), Duration::from_millis(50));
        assert_eq!(samples.p99(), Duration::from_millis(99));
        assert_eq!(Samples::default().median(), Duration::ZERO);
    }

    #[test]
    fn durations_print_in_a_readable_unit() {
        assert_eq!(show(Duration::from_micros(120)), "120 µs");
        assert_eq!(show(Duration::from_millis(25)), "25.0 ms");
        assert_eq!(ratio(Duration::from_millis(3), Duration::from_millis(1)), "3.0×");
    }
}
