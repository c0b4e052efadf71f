//! The tmux server's open descriptors, read from `/proc`: a client holds its socket
//! and, for a control client, the two pipes it handed over, so the count shows when
//! tmux has taken a client and when it has let it go.

use super::wait_for;

/// The process `pid`'s open descriptors.
pub fn descriptors(pid: &str) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).unwrap().count()
}

/// [`descriptors`], or `None` once the process is gone (a crashed tmux server is
/// reaped by init, so its `/proc` entry goes).
pub fn descriptors_while_running(pid: &str) -> Option<usize> {
    std::fs::read_dir(format!("/proc/{pid}/fd")).ok().map(Iterator::count)
}

/// Whether the process `pid` still runs.
pub fn running(pid: &str) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// [`descriptors`] once tmux has closed what clients that already ended left open
/// (it closes a client's socket on its next pass, not at once): the same count on
/// three reads in a row.
pub fn settled_descriptors(pid: &str) -> usize {
    let mut last = (descriptors(pid), 0);
    wait_for("tmux's descriptors to settle", || {
        std::thread::sleep(std::time::Duration::from_millis(20));
        let now = descriptors(pid);
        last = if now == last.0 { (now, last.1 + 1) } else { (now, 0) };
        (last.1 >= 2).then_some(now)
    })
}

/// Waits until tmux (`pid`) is back to `count` descriptors, having let go of every
/// client that ended, or has died; says whether it still runs.
pub fn back_to_or_died(pid: &str, count: usize) -> bool {
    wait_for("tmux to let the ended clients go, or to die", || {
        descriptors_while_running(pid)
            .is_none_or(|open| open == count)
            .then_some(())
    });
    running(pid)
}
