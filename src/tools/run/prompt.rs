//! Whether a shell sits at an empty primary prompt: the one state in which typing a
//! line and pressing Enter runs that line and nothing else.
//!
//! paneward cannot ask the shell, so it reads the screen: the row the cursor is on
//! must be a prompt and nothing more, and the rows below it blank. A prompt is text
//! ending in one of [`PROMPT_ENDS`] and then a space, with the cursor right after that
//! space. This refuses, before anything is typed:
//! - a line someone is typing (`$ rm -f FILE`: the row goes on after the prompt, or
//!   the cursor is not where the prompt ends);
//! - a continuation prompt (bash's and dash's `> `, zsh's `dquote> `): `>` is not a
//!   prompt end;
//! - a program reading input (`read` in a script: no prompt, or its own, such as
//!   `Name: `);
//! - a shell that has not drawn its prompt yet ([`NotAtPrompt::NotDrawn`], which a
//!   caller may wait out).
//!
//! What it cannot tell apart: a person who typed text that itself ends in `$ ` and
//! stopped there. The cursor position and history size read here are also required,
//! by tmux, at the moment of typing (`guard::screen::ScreenAt`), so a keystroke that
//! reached the screen in between refuses the typing.

use crate::limits::ECHO_MAX_CHARS;

/// The characters a primary prompt ends with (before its final space): the defaults
/// of sh, bash, dash, ksh, mksh, ash, yash (`$ `, `# ` for root) and zsh (`% `), and
/// a few common themes'.
pub const PROMPT_ENDS: [char; 5] = ['$', '#', '%', '❯', 'λ'];

/// Why the cursor row is not an empty primary prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAtPrompt {
    /// The cursor is at the start of a blank row: no prompt drawn (yet).
    NotDrawn,
    /// The row before the cursor, as shown, is not a prompt alone.
    NotAPrompt { row: String },
    /// There is text after the cursor or below its row.
    TextAfterCursor { row: String },
}

impl NotAtPrompt {
    /// The refusal's sentence for pane `pane`.
    pub fn sentence(&self, pane: &str) -> String {
        let how = "nothing was typed; once the line is empty (the person finished it, or it is yours to discard with \
                   send_keys C-c), call run_command again";
        match self {
            Self::NotDrawn => format!(
                "pane {pane} shows no shell prompt at the cursor: its shell has not drawn one, or a program there \
                 reads input; {how}"
            ),
            Self::NotAPrompt { row } => format!(
                "pane {pane}'s cursor row reads {row} before the cursor, which is not an empty primary prompt (one \
                 ending in $, #, % or ❯ and a space): a line is being typed there, the shell waits for the rest of a \
                 command (a continuation prompt), or a program reads input; {how}"
            ),
            Self::TextAfterCursor { row } => {
                format!("pane {pane} has text after the cursor ({row}): a line is being edited there; {how}")
            }
        }
    }
}

/// Checks that `rows` (the visible screen, trailing spaces dropped, top first) show an
/// empty primary prompt at the cursor (`cursor_x` cells in, on row `cursor_y`).
///
/// # Errors
/// What is there instead.
pub fn empty_prompt(rows: &[String], cursor_x: u64, cursor_y: u64) -> Result<(), NotAtPrompt> {
    let y = usize::try_from(cursor_y).unwrap_or(usize::MAX);
    let x = usize::try_from(cursor_x).unwrap_or(usize::MAX);
    let row = rows.get(y).map_or("", String::as_str);
    let below_blank = rows.iter().skip(y.saturating_add(1)).all(|r| r.trim().is_empty());
    let mut before: String = row.chars().take(x).collect();
    let after: String = row.chars().skip(x).collect();
    if !after.trim().is_empty() || !below_blank {
        return Err(NotAtPrompt::TextAfterCursor { row: shown(row) });
    }
    if before.trim().is_empty() {
        return Err(NotAtPrompt::NotDrawn);
    }
    // The screen's rows come without trailing spaces: the cells up to the cursor are
    // the row and blanks. A wide character is two cells but one character, so then the
    // characters taken reach past the cursor; that can only refuse more (safe).
    let short = x.saturating_sub(before.chars().count());
    before.extend(std::iter::repeat_n(' ', short));
    let ends_as_prompt = before.ends_with(' ')
        && before
            .trim_end()
            .chars()
            .last()
            .is_some_and(|c| PROMPT_ENDS.contains(&c));
    if !ends_as_prompt {
        return Err(NotAtPrompt::NotAPrompt { row: shown(&before) });
    }
    Ok(())
}

/// Screen text as an error message repeats it: escaped and bounded.
fn shown(text: &str) -> String {
    let text = text.trim_end();
    let kept: String = text
        .chars()
        .rev()
        .take(ECHO_MAX_CHARS)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("{kept:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(rows: &[&str]) -> Vec<String> {
        rows.iter().map(|row| (*row).to_string()).collect()
    }

    #[test]
    fn an_empty_prompt_is_one_ending_in_a_prompt_character_and_a_space() {
        for prompt in ["$ ", "bash-5.2$ ", "host% ", "root@box:/# ", "~/src ❯ "] {
            let rows = screen(&["earlier", prompt.trim_end()]);
            let x = u64::try_from(prompt.chars().count()).unwrap();
            assert_eq!(empty_prompt(&rows, x, 1), Ok(()), "{prompt:?}");
        }
    }

    #[test]
    fn typed_text_continuations_and_reads_are_refused() {
        // A half-typed line: the cursor after it, or moved back into it.
        let typed = screen(&["$ rm -f FILE"]);
        assert!(matches!(
            empty_prompt(&typed, 12, 0),
            Err(NotAtPrompt::NotAPrompt { .. })
        ));
        assert!(matches!(
            empty_prompt(&typed, 2, 0),
            Err(NotAtPrompt::TextAfterCursor { .. })
        ));
        // Continuation prompts, a read's own prompt, and no prompt at all.
        for row in ["> ", "dquote> ", "Name: "] {
            let rows = screen(&[row.trim_end()]);
            let x = u64::try_from(row.len()).unwrap();
            assert!(
                matches!(empty_prompt(&rows, x, 0), Err(NotAtPrompt::NotAPrompt { .. })),
                "{row}"
            );
        }
        assert_eq!(empty_prompt(&screen(&["output", ""]), 0, 1), Err(NotAtPrompt::NotDrawn));
        // A prompt with text under it (a completion list, a line wrapped below).
        let below = screen(&["$", "more"]);
        assert!(matches!(
            empty_prompt(&below, 2, 0),
            Err(NotAtPrompt::TextAfterCursor { .. })
        ));
    }
}
