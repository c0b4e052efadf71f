//! A tmux command as a value: a name and its arguments, sent as an argument vector.
//!
//! Nothing here ever goes through a shell. Arguments that may carry secrets (text
//! typed into a pane) are marked sensitive so logs and error messages show a
//! placeholder instead.

use std::fmt;

/// One argument, with whether it may be shown in diagnostics.
#[derive(Clone, PartialEq, Eq)]
struct Arg {
    text: String,
    sensitive: bool,
}

/// One tmux command, such as `capture-pane -p -t %3`.
#[derive(Clone, PartialEq, Eq)]
pub struct Command {
    name: &'static str,
    args: Vec<Arg>,
}

/// tmux commands that change nothing (`display-message` only with `-p` or `-a`).
const READ_ONLY_COMMANDS: [&str; 12] = [
    "capture-pane",
    "display-message",
    "has-session",
    "list-buffers",
    "list-clients",
    "list-panes",
    "list-sessions",
    "list-windows",
    "show-buffer",
    "show-environment",
    "show-hooks",
    "show-options",
];

/// The longest diagnostic summary of a command, so an error never echoes a huge input.
const SUMMARY_LIMIT: usize = 160;

impl Command {
    /// Starts a command; `name` is always one of ours, never caller text.
    pub fn new(name: &'static str) -> Self {
        Self { name, args: Vec::new() }
    }

    /// Adds an argument that may appear in logs and error messages.
    #[must_use]
    pub fn arg(mut self, text: impl Into<String>) -> Self {
        self.args.push(Arg {
            text: text.into(),
            sensitive: false,
        });
        self
    }

    /// Adds an argument that must never appear in logs or error messages.
    #[must_use]
    pub fn sensitive_arg(mut self, text: impl Into<String>) -> Self {
        self.args.push(Arg {
            text: text.into(),
            sensitive: true,
        });
        self
    }

    /// Whether the command only reads, so running it twice is harmless (a lost
    /// connection may then retry it).
    pub fn is_read_only(&self) -> bool {
        if self.name == "display-message" {
            // Without -p (print) or -a (list variables) it shows a message on a client.
            return self.args.iter().any(|a| a.text == "-p" || a.text == "-a");
        }
        READ_ONLY_COMMANDS.contains(&self.name)
    }

    /// The command name followed by its arguments, as tmux receives them.
    pub fn argv(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.name).chain(self.args.iter().map(|a| a.text.as_str()))
    }

    /// A short, escaped, redacted rendering for logs and errors.
    pub fn summary(&self) -> String {
        let mut out = String::from(self.name);
        for arg in &self.args {
            out.push(' ');
            if arg.sensitive {
                out.push_str("<redacted>");
            } else {
                out.extend(arg.text.escape_debug());
            }
            if out.len() > SUMMARY_LIMIT {
                let mut end = SUMMARY_LIMIT;
                while !out.is_char_boundary(end) {
                    end -= 1;
                }
                out.truncate(end);
                out.push('…');
                break;
            }
        }
        out
    }
}

impl fmt::Debug for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())
    }
}

/// The summaries of `commands` joined as tmux would chain them, for errors and logs.
pub fn summarize(commands: &[Command]) -> String {
    commands.iter().map(Command::summary).collect::<Vec<_>>().join(" ; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_arguments_never_show_in_the_summary() {
        let command = Command::new("send-keys").arg("-t").arg("%1").sensitive_arg("hunter2");
        assert_eq!(command.summary(), "send-keys -t %1 <redacted>");
        assert_eq!(command.argv().collect::<Vec<_>>(), ["send-keys", "-t", "%1", "hunter2"]);
    }

    #[test]
    fn only_commands_that_change_nothing_are_read_only() {
        assert!(Command::new("capture-pane").arg("-p").is_read_only());
        assert!(Command::new("display-message").arg("-p").arg("x").is_read_only());
        assert!(Command::new("display-message").arg("-a").is_read_only());
        assert!(!Command::new("display-message").arg("x").is_read_only());
        assert!(!Command::new("send-keys").arg("x").is_read_only());
    }

    #[test]
    fn a_long_summary_is_cut() {
        let command = Command::new("display-message").arg("x".repeat(10_000));
        assert!(command.summary().chars().count() <= SUMMARY_LIMIT + 1);
    }
}
