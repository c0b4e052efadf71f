//! CPU time of a process to the nanosecond, from the scheduler's own account
//! (`/proc/<pid>/task/<tid>/schedstat`, summed over threads): `/proc/<pid>/stat` counts
//! in 10 ms ticks, far coarser than one call. The reaped children's time (a server that
//! runs a `tmux` process per command) is only in those ticks, and is added from there.

use std::time::Duration;

/// CPU time `pid`'s live threads and its reaped children have run so far; zero if it
/// cannot be read.
pub fn cpu_time(pid: u32) -> Duration {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Duration::ZERO;
    };
    let nanos: u64 = tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("schedstat")).ok())
        .filter_map(|line| line.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    Duration::from_nanos(nanos) + children_time(pid)
}

/// `cutime + cstime` of `/proc/<pid>/stat`, in the kernel's 100 Hz ticks.
fn children_time(pid: u32) -> Duration {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    // The command name is in parentheses and may hold spaces: count fields after it.
    let Some((_, after)) = stat.rsplit_once(')') else {
        return Duration::ZERO;
    };
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Fields 16 and 17 of stat(5); `after` starts at field 3.
    let ticks: u64 = [13, 14]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

/// CPU time spent by the processes watched, between [`Meter::start`] and now.
pub struct Meter {
    pids: Vec<u32>,
    before: Vec<Duration>,
}

impl Meter {
    pub fn start(pids: &[u32]) -> Self {
        Self {
            pids: pids.to_vec(),
            before: pids.iter().map(|&pid| cpu_time(pid)).collect(),
        }
    }

    /// Per process, in the order given.
    pub fn spent(&self) -> Vec<Duration> {
        self.pids
            .iter()
            .zip(&self.before)
            .map(|(&pid, &before)| cpu_time(pid).saturating_sub(before))
            .collect()
    }
}

/// CPU per call, summed over the calls measured.
#[derive(Debug, Default, Clone, Copy)]
pub struct CallCpu {
    pub calls: u32,
    /// The server's own (for the raw floor: none).
    pub server: Duration,
    /// The tmux server's.
    pub tmux: Duration,
}

impl CallCpu {
    pub fn add(&mut self, spent: &[Duration]) {
        self.calls += 1;
        self.server += spent.first().copied().unwrap_or_default();
        self.tmux += spent.get(1).copied().unwrap_or_default();
    }

    pub fn per_call(&self) -> Option<(Duration, Duration)> {
        (self.calls > 0).then(|| (self.server / self.calls, self.tmux / self.calls))
    }
}
