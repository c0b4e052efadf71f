//! Which programs are POSIX shells: `run_command` types only into them, and the
//! activity listing calls a pane running one a shell. A leaf beside the groups, since
//! both `run` and `observe` ask it.

/// The foreground programs `run_command` types into: shells whose grammar the wrapper
/// uses (`( … )`, `$?`, `eval`, `trap`, `printf`, `;`). Others (fish, nu, pwsh, csh, a
/// REPL, an editor) would misread it.
pub const POSIX_SHELLS: [&str; 10] = [
    "sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "ash", "busybox", "yash",
];

/// Whether `program` (tmux's `pane_current_command`) is one of [`POSIX_SHELLS`]; a login
/// shell's leading `-` is ignored.
pub fn is_posix_shell(program: &str) -> bool {
    let name = program.strip_prefix('-').unwrap_or(program);
    POSIX_SHELLS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shells_are_told_from_other_programs() {
        for shell in ["bash", "-bash", "dash", "zsh", "sh", "busybox"] {
            assert!(is_posix_shell(shell), "{shell}");
        }
        for other in ["fish", "nu", "pwsh", "python3", "vim", "csh", "tcsh", ""] {
            assert!(!is_posix_shell(other), "{other}");
        }
    }
}
