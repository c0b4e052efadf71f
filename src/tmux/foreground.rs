//! Whether the program in a pane is waiting for input: its terminal's foreground
//! process blocked reading that terminal, as Linux's `/proc` shows it.
//!
//! The pane's first process (`#{pane_pid}`) names the terminal's foreground process
//! group (field 8 of `/proc/<pid>/stat`, `tpgid`); the group's leader is looked at.
//! It waits for input when it sleeps in `read(2)` on a descriptor that is the pane's
//! terminal (`/proc/<pid>/syscall`, whose first field is the system call's number and
//! second its descriptor; `/proc/<pid>/fd/<n>` names the file), or, where that file is
//! closed to us, when the kernel names the terminal's line discipline as what it
//! sleeps in (`/proc/<pid>/wchan` is `n_tty_read`). Every process read must sit on the
//! pane's terminal (field 7, `tty_nr`, is its device), so a pid from another pid
//! namespace is never taken for the pane's program. Anything else is not evidence
//! either way: [`TerminalRead::Unknown`], which a caller treats as "do not act".
//! Pure reading of files: which tmux runs on this machine is the caller's to know.

use std::path::{Path, PathBuf};

/// What the pane's foreground program is doing with its terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TerminalRead {
    /// Blocked in `read(2)` on the pane's terminal: waiting for input.
    Reading { pid: u32, command: String },
    /// Not reading the terminal: running, or blocked in something else (`doing`).
    Elsewhere { pid: u32, command: String, doing: String },
    /// Cannot be told; why.
    Unknown(String),
}

impl TerminalRead {
    /// One clause for a reply: what the program was seen doing.
    pub fn describe(&self) -> String {
        match self {
            Self::Reading { pid, command } => {
                format!("its program ({command}, pid {pid}) is blocked reading the terminal")
            }
            Self::Elsewhere { pid, command, doing } => {
                format!("its program ({command}, pid {pid}) is not reading the terminal ({doing})")
            }
            Self::Unknown(why) => format!("whether its program is reading the terminal is unknown ({why})"),
        }
    }
}

/// The number of `read(2)` on this architecture, as `/proc/<pid>/syscall` shows it.
const READ_SYSCALL: Option<u64> = if cfg!(target_arch = "x86_64") {
    Some(0)
} else if cfg!(any(
    target_arch = "aarch64",
    target_arch = "riscv64",
    target_arch = "loongarch64"
)) {
    Some(63)
} else {
    None
};

/// The fields of `/proc/<pid>/stat` this module and `input_wait` read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Stat {
    pub(super) pid: u32,
    pub(super) command: String,
    /// `R` running, `S` sleeping, …
    pub(super) state: char,
    /// The process group.
    pub(super) pgrp: i64,
    /// The controlling terminal's device, in the kernel's encoding.
    pub(super) tty_nr: u64,
    /// The terminal's foreground process group (-1 without a terminal).
    pub(super) tpgid: i64,
}

/// Parses `/proc/<pid>/stat`: `pid (comm) state ppid pgrp session tty_nr tpgid …`; the
/// command may hold spaces and parentheses, so the fields start after the last `)`.
pub(super) fn parse_stat(text: &str) -> Option<Stat> {
    let pid = text.split_whitespace().next()?.parse().ok()?;
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let command = text.get(open + 1..close)?.to_string();
    let mut fields = text.get(close + 1..)?.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let _ppid = fields.next()?;
    let pgrp = fields.next()?.parse().ok()?;
    let _session = fields.next()?;
    let tty_nr = fields.next()?.parse().ok()?;
    let tpgid = fields.next()?.parse().ok()?;
    Some(Stat {
        pid,
        command,
        state,
        pgrp,
        tty_nr,
        tpgid,
    })
}

/// A device number's (major, minor), from the kernel's 32-bit encoding (`tty_nr`) or
/// glibc's 64-bit one (`st_rdev`): the two agree on the low 32 bits.
pub(super) fn major_minor(device: u64) -> (u64, u64) {
    let major = ((device >> 8) & 0xfff) | ((device >> 32) & !0xfff);
    let minor = (device & 0xff) | ((device >> 12) & !0xff);
    (major, minor)
}

/// The system call `/proc/<pid>/syscall` shows: `running`, or its number and first
/// argument (a descriptor, for `read`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Syscall {
    Running,
    Blocked { number: u64, first: u64 },
}

pub(super) fn parse_syscall(text: &str) -> Option<Syscall> {
    let mut fields = text.split_whitespace();
    let number = fields.next()?;
    if number == "running" {
        return Some(Syscall::Running);
    }
    let first = fields.next()?.trim_start_matches("0x");
    Some(Syscall::Blocked {
        number: number.parse().ok()?,
        first: u64::from_str_radix(first, 16).ok()?,
    })
}

pub(super) fn proc_file(pid: u32, name: &str) -> PathBuf {
    Path::new("/proc").join(pid.to_string()).join(name)
}

/// What the program in the pane whose first process is `pane_pid` and whose terminal
/// is `pane_tty` does with that terminal (see the module documentation).
pub fn terminal_read(pane_pid: u32, pane_tty: &Path) -> TerminalRead {
    if !cfg!(target_os = "linux") {
        return TerminalRead::Unknown("only Linux's /proc shows it".into());
    }
    let Some(read_syscall) = READ_SYSCALL else {
        return TerminalRead::Unknown("the read system call's number on this architecture is not known".into());
    };
    let device = match std::fs::metadata(pane_tty) {
        Ok(meta) => std::os::unix::fs::MetadataExt::rdev(&meta),
        Err(error) => return TerminalRead::Unknown(format!("the pane's terminal cannot be read here: {error}")),
    };
    let on_terminal = |pid: u32| -> Result<Stat, String> {
        let text = std::fs::read_to_string(proc_file(pid, "stat")).map_err(|e| format!("process {pid}: {e}"))?;
        let stat = parse_stat(&text).ok_or_else(|| format!("process {pid}: its stat did not parse"))?;
        if major_minor(stat.tty_nr) == major_minor(device) {
            Ok(stat)
        } else {
            Err(format!("process {pid} is not on the pane's terminal here"))
        }
    };
    let first = match on_terminal(pane_pid) {
        Ok(stat) => stat,
        Err(why) => return TerminalRead::Unknown(why),
    };
    let Ok(leader) = u32::try_from(first.tpgid) else {
        return TerminalRead::Unknown("the terminal has no foreground process group".into());
    };
    let stat = match on_terminal(leader) {
        Ok(stat) => stat,
        Err(why) => return TerminalRead::Unknown(why),
    };
    let command = stat.command.clone();
    let elsewhere = |doing: String| TerminalRead::Elsewhere {
        pid: leader,
        command: command.clone(),
        doing,
    };
    let wchan = std::fs::read_to_string(proc_file(leader, "wchan")).unwrap_or_default();
    let wchan = wchan.trim();
    match std::fs::read_to_string(proc_file(leader, "syscall")).map(|t| parse_syscall(&t)) {
        Ok(Some(Syscall::Running)) => elsewhere("running".into()),
        Ok(Some(Syscall::Blocked { number, first: fd })) if number == read_syscall => {
            let file = std::fs::read_link(proc_file(leader, &format!("fd/{fd}")));
            match file {
                Ok(file) if file == pane_tty && stat.state == 'S' => TerminalRead::Reading { pid: leader, command },
                Ok(file) => elsewhere(format!("reading {}", file.display())),
                Err(error) => TerminalRead::Unknown(format!("descriptor {fd} of process {leader}: {error}")),
            }
        }
        Ok(Some(Syscall::Blocked { number, .. })) => elsewhere(format!("in system call {number}, {wchan}")),
        // The system call is closed to us (it needs ptrace rights): the kernel's name
        // for where it sleeps is evidence only when it is the terminal's own reader.
        _ if wchan == "n_tty_read" && stat.state == 'S' => TerminalRead::Reading { pid: leader, command },
        _ => TerminalRead::Unknown(format!(
            "process {leader}'s system call cannot be read; it sleeps in {}",
            if wchan.is_empty() { "?" } else { wchan }
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_read_after_the_last_parenthesis() {
        let stat = parse_stat("4242 (my (odd) prog) S 10 4240 4240 34816 4242 4194304 1 2").unwrap();
        assert_eq!(
            stat,
            Stat {
                pid: 4242,
                command: "my (odd) prog".into(),
                state: 'S',
                pgrp: 4240,
                tty_nr: 34816,
                tpgid: 4242
            }
        );
        assert_eq!(parse_stat("1 (x) S 0 1 1 0 -1 0").unwrap().tpgid, -1);
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn a_kernel_tty_number_and_a_glibc_device_number_agree() {
        // /dev/pts/0: major 136, minor 0; /dev/pts/300: minor 300 spills into bits 20+.
        assert_eq!(major_minor(34816), (136, 0));
        let kernel = (300 & 0xff) | (136 << 8) | ((300 & !0xff) << 12);
        let glibc: u64 = ((136 & 0xfff) << 8) | ((300 & 0xffff_ff00) << 12) | (300 & 0xff);
        assert_eq!(major_minor(kernel), (136, 300));
        assert_eq!(major_minor(glibc), (136, 300));
    }

    #[test]
    fn the_syscall_file_names_the_call_and_its_descriptor() {
        assert_eq!(parse_syscall("running\n"), Some(Syscall::Running));
        assert_eq!(
            parse_syscall("0 0x0 0x7ffd 0x1 0x8 0x2 0x1 0x7ffd 0x7f03\n"),
            Some(Syscall::Blocked { number: 0, first: 0 })
        );
        assert_eq!(
            parse_syscall("270 0x1 0x7ffd 0x0 0x0 0x0 0x7ffd 0x7ffd 0x7f41"),
            Some(Syscall::Blocked { number: 270, first: 1 })
        );
        assert_eq!(parse_syscall(""), None);
    }
}
