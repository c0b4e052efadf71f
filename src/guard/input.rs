//! The only place that builds the tmux commands which type into a pane.
//!
//! They are visible to `guard` alone, so no handler can type around the cohort check:
//! every input goes through [`super::deliver::deliver`].

use crate::guard::key_input::KeyInput;
use crate::tmux::{Command, PaneId};

/// The `send-keys` commands that type `keys` into `pane`, then Enter if asked. The
/// caller's text travels as sensitive arguments, after `--` so that a leading `-` is
/// never read as a flag.
pub(super) fn send_commands(keys: &KeyInput, pane: PaneId, enter: bool) -> Vec<Command> {
    let send = || Command::new("send-keys").arg("-t").arg(pane.to_string());
    let mut commands = Vec::new();
    match keys {
        KeyInput::Literal(text) if !text.is_empty() => {
            commands.push(send().arg("-l").arg("--").sensitive_arg(text.as_str()));
        }
        KeyInput::Names(names) if !names.is_empty() => {
            let command = names
                .iter()
                .fold(send().arg("--"), |c, name| c.sensitive_arg(name.as_str()));
            commands.push(command);
        }
        _ => {}
    }
    if enter {
        commands.push(send().arg("Enter"));
    }
    commands
}

/// The commands that paste tmux buffer `buffer` into `pane`, then Enter if asked.
/// `paste-buffer` writes to `pane` alone (tmux does not copy a paste to synchronized
/// panes); the Enter is a `send-keys`, which it does copy.
pub(super) fn paste_commands(buffer: &str, pane: PaneId, bracket: bool, delete: bool, enter: bool) -> Vec<Command> {
    let mut paste = Command::new("paste-buffer")
        .arg("-b")
        .arg(buffer)
        .arg("-t")
        .arg(pane.to_string());
    if bracket {
        paste = paste.arg("-p");
    }
    if delete {
        paste = paste.arg("-d");
    }
    let mut commands = vec![paste];
    if enter {
        commands.push(Command::new("send-keys").arg("-t").arg(pane.to_string()).arg("Enter"));
    }
    commands
}

/// Scrolls `pane`'s copy mode up `lines` lines. `send-keys -X` runs a copy-mode
/// command and fails for a pane in no mode, so it never reaches the pane's program.
pub(super) fn scroll_up_command(pane: PaneId, lines: u32) -> Command {
    Command::new("send-keys")
        .arg("-X")
        .arg("-N")
        .arg(lines.to_string())
        .arg("-t")
        .arg(pane.to_string())
        .arg("scroll-up")
}

/// Resets `pane`'s terminal state and screen inside tmux. `send-keys -R` with no keys
/// sends nothing to the program.
pub(super) fn reset_screen_command(pane: PaneId) -> Command {
    Command::new("send-keys").arg("-R").arg("-t").arg(pane.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(commands: &[Command]) -> Vec<Vec<String>> {
        commands
            .iter()
            .map(|c| c.argv().map(str::to_string).collect())
            .collect()
    }

    #[test]
    fn enter_alone_is_one_key_press() {
        let commands = send_commands(&KeyInput::Names(Vec::new()), PaneId(3), true);
        assert_eq!(argv(&commands), [["send-keys", "-t", "%3", "Enter"]]);
    }

    #[test]
    fn typed_text_is_passed_after_a_double_dash_and_redacted() {
        let literal = send_commands(&KeyInput::Literal("-secret".into()), PaneId(1), true);
        assert_eq!(literal.len(), 2);
        assert_eq!(
            literal[0].argv().collect::<Vec<_>>(),
            ["send-keys", "-t", "%1", "-l", "--", "-secret"]
        );
        assert_eq!(literal[0].summary(), "send-keys -t %1 -l -- <redacted>");
        let names = send_commands(&KeyInput::Names(vec!["C-c".into(), "-".into()]), PaneId(1), false);
        assert_eq!(argv(&names), [["send-keys", "-t", "%1", "--", "C-c", "-"]]);
    }

    #[test]
    fn a_paste_names_its_buffer_and_brackets_and_deletes_only_when_asked() {
        let commands = paste_commands("paneward_x", PaneId(4), true, false, true);
        assert_eq!(
            argv(&commands),
            [
                vec!["paste-buffer", "-b", "paneward_x", "-t", "%4", "-p"],
                vec!["send-keys", "-t", "%4", "Enter"]
            ]
        );
        let commands = paste_commands("paneward_x", PaneId(4), false, true, false);
        assert_eq!(
            argv(&commands),
            [["paste-buffer", "-b", "paneward_x", "-t", "%4", "-d"]]
        );
    }

    /// Only `guard` may build a command that types into a pane; a handler that did
    /// would type without the cohort check.
    #[test]
    fn no_module_outside_guard_builds_an_input_command() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut offenders = Vec::new();
        let mut folders = vec![root.clone()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    if path != root.join("guard") {
                        folders.push(path);
                    }
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                // A module's own tests may name the command to check how it is shown.
                let code = text.split("#[cfg(test)]").next().unwrap_or_default();
                for command in ["\"send-keys\"", "\"paste-buffer\"", "\"send-prefix\""] {
                    if code.contains(command) {
                        offenders.push(format!("{} builds {command}", path.display()));
                    }
                }
            }
        }
        assert!(offenders.is_empty(), "{offenders:?}");
    }
}
