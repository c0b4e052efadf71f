//! The commands a shell marked with OSC 133 (`ESC ] 133 ; A|B|C|D[;status] BEL|ST`),
//! read from what a pane printed (a `pipe_pane` recording, escape sequences included).
//! `A` starts the prompt, `B` ends it (the typed command follows), `C` starts the
//! command's output, `D` ends it with the exit status. Other escape sequences are left
//! out; a carriage return starts its line again and a backspace takes back a character,
//! as the screen would show them. Nothing is guessed from a prompt's look: text without
//! marks gives no command.

/// The pane option that names the file paneward's `pipe_pane` writes (`command_history`
/// reads the marks from it: tmux 3.3a keeps none itself); unset when the pipe stops.
pub const RECORDING_OPTION: &str = "@paneward_pipe";

/// One command the marks delimit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marked {
    pub command: String,
    pub output: Vec<String>,
    /// `None` while it runs, or when the shell's `D` carried no status.
    pub exit_status: Option<i64>,
    pub finished: bool,
}

/// Which part of a command the text belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Outside,
    Prompt,
    Command,
    Output,
}

/// Text as a screen shows it, line by line.
#[derive(Debug, Default)]
struct Lines {
    done: Vec<String>,
    line: Vec<char>,
    column: usize,
}

impl Lines {
    fn push(&mut self, c: char) {
        match c {
            '\n' => {
                self.done
                    .push(self.line.iter().collect::<String>().trim_end().to_string());
                self.line.clear();
                self.column = 0;
            }
            '\r' => self.column = 0,
            '\u{8}' => self.column = self.column.saturating_sub(1),
            c if c.is_control() => {}
            c => {
                if self.column < self.line.len() {
                    self.line[self.column] = c;
                } else {
                    self.line.push(c);
                }
                self.column += 1;
            }
        }
    }

    fn finish(mut self) -> Vec<String> {
        if !self.line.is_empty() {
            self.push('\n');
        }
        while self.done.last().is_some_and(String::is_empty) {
            self.done.pop();
        }
        self.done
    }
}

fn close(command: Lines, output: Lines, exit_status: Option<i64>, finished: bool, into: &mut Vec<Marked>) {
    into.push(Marked {
        command: command.finish().join(" ").trim().to_string(),
        output: output.finish(),
        exit_status,
        finished,
    });
}

/// The commands `bytes` marks, oldest first; whether any OSC 133 mark was seen.
pub fn commands(bytes: &[u8]) -> (Vec<Marked>, bool) {
    let text = String::from_utf8_lossy(bytes);
    let mut chars = text.chars().peekable();
    let mut part = Part::Outside;
    let mut marked = Vec::new();
    let mut any_mark = false;
    let mut command = Lines::default();
    let mut output = Lines::default();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            match part {
                Part::Command => command.push(c),
                Part::Output => output.push(c),
                Part::Outside | Part::Prompt => {}
            }
            continue;
        }
        match chars.next() {
            // CSI: parameters, then one final byte.
            Some('[') => {
                for c in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        break;
                    }
                }
            }
            // OSC: up to BEL or ESC \.
            Some(']') => {
                let mut body = String::new();
                while let Some(c) = chars.next() {
                    if c == '\u{7}' {
                        break;
                    }
                    if c == '\u{1b}' {
                        chars.next_if_eq(&'\\');
                        break;
                    }
                    body.push(c);
                }
                let Some(mark) = body.strip_prefix("133;") else {
                    continue;
                };
                any_mark = true;
                let mut fields = mark.split(';');
                match fields.next() {
                    Some("A") => {
                        if part == Part::Output {
                            // A new prompt without `D`: the command's end was not marked.
                            close(
                                std::mem::take(&mut command),
                                std::mem::take(&mut output),
                                None,
                                true,
                                &mut marked,
                            );
                        }
                        part = Part::Prompt;
                    }
                    Some("B") => {
                        command = Lines::default();
                        part = Part::Command;
                    }
                    Some("C") => {
                        output = Lines::default();
                        part = Part::Output;
                    }
                    Some("D") => {
                        if matches!(part, Part::Output | Part::Command) {
                            let status = fields.next().and_then(|s| s.trim().parse().ok());
                            close(
                                std::mem::take(&mut command),
                                std::mem::take(&mut output),
                                status,
                                true,
                                &mut marked,
                            );
                        }
                        part = Part::Outside;
                    }
                    _ => {}
                }
            }
            // Any other escape: one more character.
            _ => {}
        }
    }
    if part == Part::Output {
        close(command, output, None, false, &mut marked);
    }
    (marked, any_mark)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "\u{1b}]133;A\u{7}";
    const B: &str = "\u{1b}]133;B\u{7}";
    const C: &str = "\u{1b}]133;C\u{1b}\\";

    fn d(status: i32) -> String {
        format!("\u{1b}]133;D;{status}\u{7}")
    }

    #[test]
    fn marks_delimit_each_command_its_output_and_its_status() {
        let stream = format!(
            "{A}\u{1b}[32m$ \u{1b}[0m{B}ls\r\n{C}a  b\r\nc\r\n{}{A}$ {B}false\r\n{C}{}{A}$ {B}echo x\u{8}y\r\n{C}y\r\n",
            d(0),
            d(1)
        );
        let (found, marked) = commands(stream.as_bytes());
        assert!(marked);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].command, "ls");
        assert_eq!(found[0].output, ["a  b", "c"]);
        assert_eq!((found[0].exit_status, found[0].finished), (Some(0), true));
        assert_eq!((found[1].command.as_str(), found[1].exit_status), ("false", Some(1)));
        assert!(found[1].output.is_empty());
        assert_eq!(found[2].command, "echo y", "a backspace takes the x back");
        assert!(!found[2].finished, "still running: no D yet");
    }

    #[test]
    fn text_without_marks_gives_nothing() {
        let (found, marked) = commands(b"$ ls\r\na b\r\n$ ");
        assert!(found.is_empty() && !marked);
    }
}
