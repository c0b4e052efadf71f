//! What `run_command` stages and types: the wrapper script, kept in a tmux buffer, and
//! the one fixed line typed into the shell that fetches and runs it.
//!
//! The caller's command never travels as a process argument: paneward writes it into a
//! buffer through its own connection to tmux, and the shell reads it back from tmux's
//! standard output (`show-buffer`). The typed line holds only the buffer's name, so the
//! shell's echo of it, its history and any process listing show no command text. The
//! shell's own `tmux` calls carry only names and the exit status.
//!
//! The wrapper prints a start and an end marker around the command's output. Each is
//! written by `printf` from two pieces, so neither the echo of the typed line nor a
//! trace (`set -x`) of the wrapper holds a marker; both are printed concealed (SGR 8),
//! so a terminal shows a blank row. The start marker holds the job's id; the end
//! marker and the status report hold the job's seal (see `record`), which the command
//! cannot know, so it can print neither an end marker nor a status that counts.
//!
//! The command runs as `( trap : INT; ( eval '<command>' ) )`: the inner subshell keeps
//! `exit`, `cd` and `export` away from the pane's shell, `eval` turns a syntax error
//! into an exit status instead of a wrapper that never finishes, and the outer subshell
//! catches Ctrl-C, because bash and dash abandon the rest of a command list (the status
//! report) when its foreground job dies of SIGINT.

use crate::tmux::PaneId;

/// The two fixed letters every marker starts with.
const MARKER_LEAD: &str = "PW";

/// The start marker of job `id`, as it appears in the pane.
pub fn start_marker(id: &str) -> String {
    format!("{MARKER_LEAD}{id}:")
}

/// The end marker of the job sealed by `seal`, as it appears in the pane.
pub fn end_marker(seal: &str) -> String {
    format!("{MARKER_LEAD}{seal}.")
}

/// `text` as one single-quoted POSIX shell word.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The `printf` that prints a marker from its two pieces, concealed, on a row of its own
/// end.
fn print_marker(id: &str, last: char) -> String {
    format!("printf '\\033[8m%s%s\\033[0m\\n' {MARKER_LEAD} {id}{last}")
}

/// `command` as a person reads it in the pane: each line after `# `, control
/// characters (which a terminal would act on) shown as `^X` or `<U+XXXX>`.
fn shown_lines(command: &str) -> String {
    command
        .lines()
        .map(|line| {
            let mut shown = String::from("# ");
            for c in line.chars() {
                match c {
                    '\t' => shown.push(' '),
                    c if (c as u32) < 0x20 => {
                        shown.push('^');
                        shown.push(char::from(b'@' + c as u8));
                    }
                    c if c.is_control() => shown.push_str(&format!("<U+{:04X}>", c as u32)),
                    c => shown.push(c),
                }
            }
            shown
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The here-document that shows `command` before it runs (`show_command`): its text
/// reaches `cat` on standard input, never as an argument, and the shell keeps a
/// wrapper's lines out of its history as it keeps the typed line's. Every shown line
/// starts with `# `, so none can end the document early.
fn show(id: &str, command: &str) -> String {
    format!(
        "cat <<'PANEWARD_SHOWN_{id}'\n{}\nPANEWARD_SHOWN_{id}\n",
        shown_lines(command)
    )
}

/// The wrapper for job `id` sealed by `seal` in `pane`, whose status goes to pane
/// option `status_option` as `<status> <Unix second> <seal>` (the second from `date +%s`
/// on the tmux host: tmux 3.3a has no format for the current time). It leaves the shell
/// as it found it (the one variable it sets is unset again). The seal is written only
/// after the command: the command's subshell is forked before, and the wrapper's text
/// is in no variable it could read. With `shown`, the command is first printed for a
/// person watching ([`show`]), above the start marker, so it is not in the output.
pub fn wrapper(id: &str, seal: &str, pane: PaneId, status_option: &str, command: &str, shown: bool) -> String {
    format!(
        "{show}{start}; ( trap : INT; ( eval {command} ) ); paneward_status=$?; {end}; \
         tmux set-option -p -t {pane} {status_option} \"$paneward_status $(date +%s) {seal}\"; unset paneward_status",
        show = if shown { show(id, command) } else { String::new() },
        start = print_marker(id, ':'),
        command = shell_quoted(command),
        end = print_marker(seal, '.'),
    )
}

/// The line typed into the shell: a leading space keeps it out of the history of
/// shells that honour one (bash's `ignorespace`, zsh's `HIST_IGNORE_SPACE`); it fetches
/// the wrapper from `buffer`, deletes the buffer, marks the job fetched (pane option
/// `fetched_option` of `pane`, in the same tmux step) and runs the wrapper.
pub fn typed_line(buffer: &str, pane: PaneId, fetched_option: &str) -> String {
    format!(
        " eval \"$(tmux show-buffer -b {buffer} \\; delete-buffer -b {buffer} \\; set-option -p -t {pane} {fetched_option} 1)\""
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_survive_as_one_word() {
        assert_eq!(shell_quoted("it's"), "'it'\\''s'");
    }

    #[test]
    fn neither_the_wrapper_nor_the_typed_line_holds_a_marker() {
        let id = "0123456789abcdef0123456789abcdef";
        let seal = "fedcba9876543210fedcba9876543210";
        let script = wrapper(id, seal, PaneId(3), "@paneward_exit_x", "echo hi", false);
        let line = typed_line("paneward_x_job", PaneId(3), "@paneward_run_x");
        for text in [&script, &line] {
            assert!(!text.contains(&start_marker(id)), "{text}");
            assert!(!text.contains(&end_marker(seal)), "{text}");
        }
        assert!(!line.contains(seal));
        let command_at = script.find("echo hi").unwrap();
        assert!(!script[..command_at].contains(seal), "the seal comes after the command");
        assert!(!line.contains("echo hi"));
        assert!(line.starts_with(' '));
        assert!(script.contains("-t %3 @paneward_exit_x"));
    }

    #[test]
    fn a_shown_command_is_commented_made_harmless_and_before_the_start_marker() {
        assert_eq!(
            shown_lines("a\tb\necho \u{1b}[31m\u{9b}x"),
            "# a b\n# echo ^[[31m<U+009B>x"
        );
        let id = "0123456789abcdef0123456789abcdef";
        let seal = "fedcba9876543210fedcba9876543210";
        let script = wrapper(id, seal, PaneId(3), "@x", "ls\nPANEWARD_SHOWN_x", true);
        let document = format!("cat <<'PANEWARD_SHOWN_{id}'\n# ls\n# PANEWARD_SHOWN_x\nPANEWARD_SHOWN_{id}\n");
        assert!(script.starts_with(&document), "{script}");
        assert!(!script[..document.len()].contains(seal));
    }

    #[test]
    fn captures_blank_the_typed_line_and_the_markers_this_module_writes() {
        use crate::tools::observe::own::hide_own_rows;
        let id = "0123456789abcdef0123456789abcdef";
        let seal = "fedcba9876543210fedcba9876543210";
        let line = typed_line(
            &format!("paneward_{id}_job"),
            PaneId(31),
            &format!("@paneward_run_{id}"),
        );
        let mut rows = vec![
            format!("$ {line}"),
            start_marker(id),
            "out".into(),
            end_marker(seal),
            "$".into(),
        ];
        hide_own_rows(&mut rows);
        assert_eq!(rows, ["$", "", "out", "", "$"]);
    }
}
