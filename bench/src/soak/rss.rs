//! paneward's resident memory over the soak, read from /proc once a second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Between two readings.
const EVERY: Duration = Duration::from_secs(1);

/// A `/proc/<pid>/status` figure in KiB (`VmRSS`, `VmHWM`).
pub fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub struct RssSampler {
    samples: Arc<Mutex<Vec<u64>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl RssSampler {
    pub fn start(pid: u32) -> Self {
        let samples = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (samples, stop) = (Arc::clone(&samples), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    if let Some(kib) = status_kib(pid, "VmRSS:") {
                        samples.lock().unwrap_or_else(PoisonError::into_inner).push(kib);
                    }
                    std::thread::sleep(EVERY);
                }
            })
        };
        Self {
            samples,
            stop,
            thread: Some(thread),
        }
    }

    /// The samples so far, in KiB, sorted.
    pub fn sorted(&self) -> Vec<u64> {
        let mut samples = self.samples.lock().unwrap_or_else(PoisonError::into_inner).clone();
        samples.sort_unstable();
        samples
    }

    /// The newest sample, in KiB.
    pub fn latest(&self) -> Option<u64> {
        self.samples
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .last()
            .copied()
    }

    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for RssSampler {
    fn drop(&mut self) {
        self.stop();
    }
}
