//! A tmux command as a value: a name and its arguments, sent as an argument vector.
//!
//! Nothing here ever goes through a shell. Arguments that may carry secrets (text
//! typed into a pane) are marked sensitive so logs and error messages show a
//! placeholder instead.

use crate::limits::COMMAND_SUMMARY_MAX_CHARS;
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
    /// Made by [`ReadCommand`]: it changes nothing, so a lost connection may send it again.
    read_only: bool,
}

/// The tmux commands that change nothing: the only ones a readonly tool can send
/// (`crate::guard::ReadGate` takes nothing else).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadVerb {
    CapturePane,
    /// Always with `-p`: without it, tmux shows the message on a client.
    DisplayMessage,
    HasSession,
    ListBuffers,
    ListClients,
    ListPanes,
    ListSessions,
    ListWindows,
    ShowBuffer,
    ShowEnvironment,
    ShowHooks,
    ShowOptions,
}

impl ReadVerb {
    pub fn name(self) -> &'static str {
        match self {
            Self::CapturePane => "capture-pane",
            Self::DisplayMessage => "display-message",
            Self::HasSession => "has-session",
            Self::ListBuffers => "list-buffers",
            Self::ListClients => "list-clients",
            Self::ListPanes => "list-panes",
            Self::ListSessions => "list-sessions",
            Self::ListWindows => "list-windows",
            Self::ShowBuffer => "show-buffer",
            Self::ShowEnvironment => "show-environment",
            Self::ShowHooks => "show-hooks",
            Self::ShowOptions => "show-options",
        }
    }
}

/// A command of the read-only allowlist; arguments are added as to any [`Command`].
#[derive(Clone, PartialEq, Eq)]
pub struct ReadCommand(Command);

impl ReadCommand {
    pub fn new(verb: ReadVerb) -> Self {
        let mut command = Command::new(verb.name());
        command.read_only = true;
        if verb == ReadVerb::DisplayMessage {
            command = command.arg("-p");
        }
        Self(command)
    }

    #[must_use]
    pub fn arg(self, text: impl Into<String>) -> Self {
        Self(self.0.arg(text))
    }

    pub fn command(&self) -> &Command {
        &self.0
    }
}

impl From<ReadCommand> for Command {
    fn from(read: ReadCommand) -> Self {
        read.0
    }
}

impl fmt::Debug for ReadCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Command {
    /// Starts a command; `name` is always one of ours, never caller text.
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            args: Vec::new(),
            read_only: false,
        }
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

    /// Whether the command only reads (it was made as a [`ReadCommand`]), so running it
    /// twice is harmless: a lost connection may send it again.
    pub fn is_read_only(&self) -> bool {
        self.read_only
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
            if out.len() > COMMAND_SUMMARY_MAX_CHARS {
                let mut end = COMMAND_SUMMARY_MAX_CHARS;
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

/// The words to give tmux for a program run without a shell. tmux hands a lone word to
/// `sh -c` and two or more words to `execvp`, so a lone word is prefixed with
/// `/usr/bin/env --`, which executes it directly (and makes the count two).
pub fn argv_without_shell(mut argv: Vec<String>) -> Vec<String> {
    if argv.len() == 1 {
        argv.splice(0..0, ["/usr/bin/env".to_string(), "--".to_string()]);
    }
    argv
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
    fn only_commands_of_the_read_allowlist_are_read_only() {
        assert!(Command::from(ReadCommand::new(ReadVerb::CapturePane).arg("-p")).is_read_only());
        assert!(!Command::new("capture-pane").is_read_only());
        assert!(!Command::new("send-keys").arg("x").is_read_only());
    }

    #[test]
    fn a_display_message_read_always_prints() {
        let read = ReadCommand::new(ReadVerb::DisplayMessage).arg("x");
        assert_eq!(
            read.command().argv().collect::<Vec<_>>(),
            ["display-message", "-p", "x"]
        );
    }

    #[test]
    fn a_long_summary_is_cut() {
        let command = Command::new("display-message").arg("x".repeat(10_000));
        assert!(command.summary().chars().count() <= COMMAND_SUMMARY_MAX_CHARS + 1);
    }
}
