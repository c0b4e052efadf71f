//! Whether a pane waits for someone to type, and what the typing is for: a shell's
//! prompt, a password (the terminal does not echo), or a program's own input. Read from
//! Linux's `/proc` and the terminal's own settings, never from the screen.
//!
//! What is read, per pane, and why it is sound:
//! - `/proc/<pane_pid>/stat`: the terminal's foreground process group (`tpgid`), and
//!   that the process sits on the pane's terminal (`tty_nr`), so a pid seen in another
//!   pid namespace is never taken for the pane's program.
//! - The group leader's `stat`, `syscall` (the system call it sleeps in and its first
//!   argument) and, for a `read(2)`, `fd/<n>`: a process sleeping in `read` on the pane's
//!   terminal (or on `/dev/tty`, which is its controlling terminal, the pane's) is blocked
//!   until a line or a key arrives. That is the kernel's own state, not a guess.
//! - Where `syscall` is closed to us, `wchan` `n_tty_read` (the terminal's line
//!   discipline reading) says the same.
//! - The terminal's modes (`tcgetattr` on the pane's tty, opened without becoming our
//!   controlling terminal): `ECHO` cleared with `ICANON` set is a line read that shows
//!   nothing (`read -s`, sudo, ssh, getpass): a password. `ICANON` cleared is a program
//!   that draws its own input (an editor, a line editor, an agent's input box).
//! - An interactive shell at its prompt does not sleep in `read`: bash's readline, fish
//!   and zsh's line editor wait in `pselect6`/`ppoll`/`poll`/`select` first. A shell
//!   (named by its `comm`) that is itself the terminal's foreground and sleeps there is
//!   at its prompt: nothing else runs in the foreground, and an interactive shell waits
//!   there only for its terminal (and its own timers, still at the prompt).
//! - A leader waiting for a child (`wait4`, `waitid`: `git` running an editor, `make`
//!   running a compiler) hands the question to the rest of its group: one scan of
//!   `/proc` (each process's `stat`), made only then and at most once per listing. A
//!   member that has ended since (gone, or a zombie not yet reaped) reads nothing and
//!   counts for nothing: the group is still not waiting.
//! - Any other program waiting on several descriptors at once (`epoll_wait`, `poll`,
//!   `select`: an event loop, such as a Node agent's) may or may not be waiting for the
//!   terminal: [`InputWait::Unknown`], never a guess.

use std::collections::HashMap;
use std::path::Path;

use rustix::fs::{Mode, OFlags};
use rustix::termios::LocalModes;

use super::foreground::{major_minor, parse_stat, parse_syscall, proc_file, Stat, Syscall};

/// How the typing a pane waits for would be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReadsAs {
    /// A shell at its prompt.
    ShellPrompt,
    /// A line read with echo off (`ECHO` cleared, `ICANON` set).
    Password,
    /// A program's own input: a line with echo, or a program drawing its own.
    ProgramInput,
}

/// Whether a pane's foreground program waits for input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputWait {
    /// Blocked waiting for the terminal.
    Waiting {
        reads_as: ReadsAs,
        pid: u32,
        command: String,
    },
    /// Running, or blocked in something else (`doing`).
    NotWaiting { pid: u32, command: String, doing: String },
    /// Cannot be told; why.
    Unknown(String),
}

impl InputWait {
    /// One clause for a reply.
    pub fn describe(&self) -> String {
        match self {
            Self::Waiting { reads_as, pid, command } => {
                let how = match reads_as {
                    ReadsAs::ShellPrompt => "at its prompt",
                    ReadsAs::Password => "reading with echo off",
                    ReadsAs::ProgramInput => "reading its own input",
                };
                format!("{command} (pid {pid}) waits for input, {how}")
            }
            Self::NotWaiting { pid, command, doing } => {
                format!("{command} (pid {pid}) is not waiting for input ({doing})")
            }
            Self::Unknown(why) => format!("whether it waits for input is unknown ({why})"),
        }
    }
}

/// The system calls this module tells apart, by their number on this architecture.
struct Calls {
    read: u64,
    /// `select`, `poll` and their signal-safe forms: a line editor's wait.
    multiplex: &'static [u64],
    /// `epoll_wait` and its forms: an event loop's wait.
    event_loop: &'static [u64],
    /// `wait4`, `waitid`: waiting for a child.
    child: &'static [u64],
}

const CALLS: Option<Calls> = if cfg!(target_arch = "x86_64") {
    Some(Calls {
        read: 0,
        multiplex: &[7, 23, 270, 271],
        event_loop: &[232, 281, 441],
        child: &[61, 247],
    })
} else if cfg!(any(
    target_arch = "aarch64",
    target_arch = "riscv64",
    target_arch = "loongarch64"
)) {
    Some(Calls {
        read: 63,
        multiplex: &[72, 73],
        event_loop: &[22, 441],
        child: &[260, 95],
    })
} else {
    None
};

/// Shells by the kernel's command name (`comm`). The tmux layer cannot name
/// `tools::shells`; fish is here too: at its prompt it waits as the others do.
const SHELLS: [&str; 11] = [
    "sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "ash", "busybox", "yash", "fish",
];

/// Shells without a line editor: at their prompt they read a line with echo, as a
/// program asking a question does; only the pane's own shell is taken for a prompt.
const PLAIN_SHELLS: [&str; 4] = ["sh", "dash", "ash", "busybox"];

fn is_shell(command: &str) -> bool {
    SHELLS.contains(&command.strip_prefix('-').unwrap_or(command))
}

fn read_stat(pid: u32) -> Option<Stat> {
    parse_stat(&std::fs::read_to_string(proc_file(pid, "stat")).ok()?)
}

/// The processes of each process group, from one scan of `/proc`; made on first need.
#[derive(Default)]
pub struct Groups {
    scanned: Option<HashMap<i64, Vec<Stat>>>,
}

impl Groups {
    fn members(&mut self, pgrp: i64) -> &[Stat] {
        let groups = self.scanned.get_or_insert_with(|| {
            let mut groups: HashMap<i64, Vec<Stat>> = HashMap::new();
            for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
                let Some(pid) = entry.file_name().to_str().and_then(|name| name.parse::<u32>().ok()) else {
                    continue;
                };
                if let Some(stat) = read_stat(pid) {
                    groups.entry(stat.pgrp).or_default().push(stat);
                }
            }
            groups
        });
        groups.get(&pgrp).map_or(&[], Vec::as_slice)
    }
}

/// The pane's terminal: its path and device, and its modes when they could be read.
struct Terminal<'a> {
    path: &'a Path,
    device: (u64, u64),
    modes: Option<LocalModes>,
}

impl Terminal<'_> {
    fn holds(&self, stat: &Stat) -> bool {
        major_minor(stat.tty_nr) == self.device
    }
}

/// Opens the terminal only to read its modes: no controlling terminal is taken, and
/// nothing is read or written.
fn terminal_modes(path: &Path) -> Option<LocalModes> {
    let flags = OFlags::RDONLY | OFlags::NOCTTY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = rustix::fs::open(path, flags, Mode::empty()).ok()?;
    rustix::termios::tcgetattr(&fd).ok().map(|termios| termios.local_modes)
}

/// What one process of the foreground group is doing with the terminal.
enum Seen {
    Reading,
    /// Waiting on several descriptors: a line editor's or an event loop's wait.
    Multiplexing(&'static str),
    WaitingForChild,
    Elsewhere(String),
    /// Ended: gone from `/proc`, or a zombie its parent has not reaped yet. It reads
    /// nothing, so it says nothing about the terminal.
    Ended,
    Unknown(String),
}

/// Whether the process `pid` has ended: its files are gone, or the kernel marks it a
/// zombie (its `syscall` file then reads `-1`, which no live call is).
fn has_ended(pid: u32, syscall: &std::io::Result<String>) -> bool {
    match syscall {
        Err(error) => error.kind() == std::io::ErrorKind::NotFound,
        Ok(text) if text.starts_with("-1 ") => read_stat(pid).is_none_or(|stat| stat.state == 'Z'),
        Ok(_) => false,
    }
}

fn look_at(calls: &Calls, stat: &Stat, terminal: &Terminal<'_>) -> Seen {
    let pid = stat.pid;
    let syscall = std::fs::read_to_string(proc_file(pid, "syscall"));
    if has_ended(pid, &syscall) {
        return Seen::Ended;
    }
    let wchan = std::fs::read_to_string(proc_file(pid, "wchan")).unwrap_or_default();
    let wchan = wchan.trim();
    match syscall.map(|t| parse_syscall(&t)) {
        Ok(Some(Syscall::Running)) => Seen::Elsewhere("running".into()),
        Ok(Some(Syscall::Blocked { number, first: fd })) if number == calls.read => {
            match std::fs::read_link(proc_file(pid, &format!("fd/{fd}"))) {
                // `/dev/tty` is the process's controlling terminal, which its stat
                // showed to be the pane's.
                Ok(file) if (file == terminal.path || file == Path::new("/dev/tty")) && stat.state == 'S' => {
                    Seen::Reading
                }
                Ok(file) => Seen::Elsewhere(format!("reading {}", file.display())),
                Err(error) => Seen::Unknown(format!("descriptor {fd} of process {pid}: {error}")),
            }
        }
        Ok(Some(Syscall::Blocked { number, .. })) if calls.multiplex.contains(&number) => {
            Seen::Multiplexing("select or poll")
        }
        Ok(Some(Syscall::Blocked { number, .. })) if calls.event_loop.contains(&number) => {
            Seen::Multiplexing("epoll_wait")
        }
        Ok(Some(Syscall::Blocked { number, .. })) if calls.child.contains(&number) => Seen::WaitingForChild,
        Ok(Some(Syscall::Blocked { number, .. })) => Seen::Elsewhere(format!("in system call {number}, {wchan}")),
        // The system call is closed to us (it needs ptrace rights): the kernel's name
        // for where it sleeps is evidence only when it is the terminal's own reader.
        _ if wchan == "n_tty_read" && stat.state == 'S' => Seen::Reading,
        _ => Seen::Unknown(format!(
            "process {pid}'s system call cannot be read; it sleeps in {}",
            if wchan.is_empty() { "?" } else { wchan }
        )),
    }
}

/// How a read by `reader` is taken, from the terminal's modes.
fn reads_as(reader: &Stat, pane_pid: u32, modes: Option<LocalModes>) -> ReadsAs {
    let own_shell = reader.pid == pane_pid && is_shell(&reader.command);
    let Some(modes) = modes else {
        return ReadsAs::ProgramInput;
    };
    let canonical = modes.contains(LocalModes::ICANON);
    let echo = modes.contains(LocalModes::ECHO);
    if canonical && !echo {
        ReadsAs::Password
    } else if own_shell && (!canonical || PLAIN_SHELLS.contains(&reader.command.as_str())) {
        ReadsAs::ShellPrompt
    } else {
        ReadsAs::ProgramInput
    }
}

/// Whether the program in the pane whose first process is `pane_pid` and whose terminal
/// is `pane_tty` waits for input (see the module documentation). `groups` is shared by
/// the panes of one listing.
pub fn input_wait(pane_pid: u32, pane_tty: &Path, groups: &mut Groups) -> InputWait {
    if !cfg!(target_os = "linux") {
        return InputWait::Unknown("only Linux's /proc shows it".into());
    }
    let Some(calls) = CALLS else {
        return InputWait::Unknown("this architecture's system call numbers are not known".into());
    };
    let device = match std::fs::metadata(pane_tty) {
        Ok(meta) => major_minor(std::os::unix::fs::MetadataExt::rdev(&meta)),
        Err(error) => return InputWait::Unknown(format!("the pane's terminal cannot be read here: {error}")),
    };
    let mut terminal = Terminal {
        path: pane_tty,
        device,
        modes: None,
    };
    let on_terminal = |pid: u32, terminal: &Terminal<'_>| match read_stat(pid) {
        Some(stat) if terminal.holds(&stat) => Ok(stat),
        Some(_) => Err(format!("process {pid} is not on the pane's terminal here")),
        None => Err(format!("process {pid} cannot be read")),
    };
    let first = match on_terminal(pane_pid, &terminal) {
        Ok(stat) => stat,
        Err(why) => return InputWait::Unknown(why),
    };
    let Ok(leader_pid) = u32::try_from(first.tpgid) else {
        return InputWait::Unknown("the terminal has no foreground process group".into());
    };
    let leader = match on_terminal(leader_pid, &terminal) {
        Ok(stat) => stat,
        Err(why) => return InputWait::Unknown(why),
    };
    let waiting = |reader: &Stat, terminal: &mut Terminal<'_>, reads: Option<ReadsAs>| {
        let reads_as = reads.unwrap_or_else(|| {
            terminal.modes = terminal_modes(terminal.path);
            reads_as(reader, pane_pid, terminal.modes)
        });
        InputWait::Waiting {
            reads_as,
            pid: reader.pid,
            command: reader.command.clone(),
        }
    };
    let not_waiting = |stat: &Stat, doing: String| InputWait::NotWaiting {
        pid: stat.pid,
        command: stat.command.clone(),
        doing,
    };
    match look_at(&calls, &leader, &terminal) {
        Seen::Reading => waiting(&leader, &mut terminal, None),
        Seen::Multiplexing(_) if leader.pid == pane_pid && is_shell(&leader.command) => {
            waiting(&leader, &mut terminal, Some(ReadsAs::ShellPrompt))
        }
        Seen::Multiplexing(how) => InputWait::Unknown(format!(
            "{} (pid {}) waits on several descriptors at once ({how}); whether the terminal is the one cannot be read",
            leader.command, leader.pid
        )),
        Seen::Elsewhere(doing) => not_waiting(&leader, doing),
        // The terminal's next reader is not there yet: no wait to report this look.
        Seen::Ended => not_waiting(&leader, "ending".into()),
        Seen::Unknown(why) => InputWait::Unknown(why),
        Seen::WaitingForChild => {
            let members: Vec<Stat> = groups
                .members(leader.pgrp)
                .iter()
                .filter(|m| m.pid != leader.pid && terminal.holds(m))
                .cloned()
                .collect();
            let mut verdict = not_waiting(&leader, "waiting for its child processes".into());
            for member in &members {
                match look_at(&calls, member, &terminal) {
                    Seen::Reading => return waiting(member, &mut terminal, None),
                    Seen::Elsewhere(doing) if doing == "running" => {
                        verdict = not_waiting(member, doing);
                    }
                    Seen::Multiplexing(_) | Seen::Unknown(_) if matches!(verdict, InputWait::NotWaiting { .. }) => {
                        verdict = InputWait::Unknown(format!(
                            "{} (pid {}) runs {} (pid {}), whose waiting cannot be told",
                            leader.command, leader.pid, member.command, member.pid
                        ));
                    }
                    // Blocked in something else, or ended: nothing about the terminal.
                    _ => {}
                }
            }
            verdict
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(pid: u32, command: &str) -> Stat {
        Stat {
            pid,
            command: command.into(),
            state: 'S',
            pgrp: i64::from(pid),
            tty_nr: 0,
            tpgid: i64::from(pid),
        }
    }

    #[test]
    fn the_terminal_s_modes_say_how_a_read_is_taken() {
        let canonical = LocalModes::ICANON | LocalModes::ECHO;
        let silent = LocalModes::ICANON;
        let raw = LocalModes::empty();
        let bash = stat(10, "bash");
        assert_eq!(reads_as(&bash, 10, Some(silent)), ReadsAs::Password, "read -s");
        assert_eq!(reads_as(&bash, 10, Some(raw)), ReadsAs::ShellPrompt, "a line editor");
        assert_eq!(
            reads_as(&bash, 10, Some(canonical)),
            ReadsAs::ProgramInput,
            "bash's read"
        );
        assert_eq!(reads_as(&stat(10, "dash"), 10, Some(canonical)), ReadsAs::ShellPrompt);
        assert_eq!(reads_as(&bash, 11, Some(raw)), ReadsAs::ProgramInput, "a script's bash");
        assert_eq!(reads_as(&stat(12, "sudo"), 10, Some(silent)), ReadsAs::Password);
        assert_eq!(reads_as(&stat(12, "vim"), 10, Some(raw)), ReadsAs::ProgramInput);
        assert_eq!(reads_as(&stat(12, "vim"), 10, None), ReadsAs::ProgramInput);
    }

    fn syscall_of(pid: u32) -> std::io::Result<String> {
        std::fs::read_to_string(proc_file(pid, "syscall"))
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_zombie_and_a_reaped_process_have_ended_and_a_sleeping_one_has_not() {
        let mut sleeper = std::process::Command::new("sleep").arg("100").spawn().unwrap();
        let mut quitter = std::process::Command::new("true").spawn().unwrap();
        let quitter_pid = quitter.id();
        // Unwaited, `true` stays a zombie once it exits; the stat says when it has.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while read_stat(quitter_pid).is_some_and(|stat| stat.state != 'Z') {
            assert!(std::time::Instant::now() < deadline, "true never exited");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(has_ended(quitter_pid, &syscall_of(quitter_pid)), "a zombie");
        quitter.wait().unwrap();
        assert!(has_ended(quitter_pid, &syscall_of(quitter_pid)), "reaped");
        let sleeping = sleeper.id();
        let ended = has_ended(sleeping, &syscall_of(sleeping));
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
        assert!(!ended, "a live process");
    }
}
