//! Text that tmux expands as a format later is data too. An option value is expanded
//! when the status line is drawn, when `automatic-rename-format` names a window on a
//! timer (no client needed), and so on; what it may not hold is anything that would
//! make that expansion run a command:
//!
//! - a job, `#(…)`, or `}(`, with which `#{l:#}(…)` rebuilds one;
//! - a modifier that expands a value a second time: `E` (`#{E:pane_title}`) and `T`
//!   (the same after `strftime`). The value they expand is often one a program in a pane
//!   controls (its title, its directory), so its `#(…)` would run. These are the only
//!   two in tmux 3.2 to 3.5a (`format_replace` expands the found value again for these
//!   flags only); the loops `S`, `W`, `P` and `L` expand their own argument, which is
//!   this same text, once per item.
//!
//! tmux reads a modifier list right after `#{`, each modifier starting there or after a
//! `;` and a one-letter modifier ending at `;` or `:`. So `E` or `T` between one of
//! `{ ;` and one of `; :` is refused wherever it stands, whatever surrounds it (nested,
//! combined with other modifiers, or rebuilt after `#{l:#}`); a few harmless texts
//! (`a;E:b`) are refused with them. tmux may also pass the text through `strftime`
//! first (`status-left` is expanded with `T` by the default `status-format`), and a
//! conversion such as `%p` prints nothing in some locales: so the text is checked
//! again with every conversion taken out.

/// What a format would do with a text, when it would run something.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runs {
    /// It holds a job mark (`#(` or `}(`).
    Job(&'static str),
    /// It holds the re-expanding modifier (`E` or `T`), in the spelling shown.
    SecondExpansion { modifier: char, spelled: String },
}

impl Runs {
    /// The rule broken, as an error message's rule (after the field name).
    pub fn rule(&self, after_time_conversions: bool) -> String {
        let when = if after_time_conversions {
            " once tmux's time conversions (%…, which can print nothing) are applied"
        } else {
            ""
        };
        match self {
            Self::Job(mark) => format!(
                "must not contain {mark:?}{when}: a format showing the text would run it as a shell command"
            ),
            Self::SecondExpansion { modifier, spelled } => format!(
                "must not use the format modifier {modifier} ({spelled:?}{when}): it expands a value a second time, and the values it reaches (a pane's title or directory) are set by programs in panes, so their #(…) would run; name the variable without it, as #{{pane_title}}"
            ),
        }
    }
}

/// Job marks: `#(…)` runs a shell; `}(` follows a format that can end in `#`
/// (`#{l:#}`), which joins it into one.
const JOB_MARKS: [&str; 2] = ["#(", "}("];

/// The one-letter modifiers that expand their result again.
const REEXPANDING: [char; 2] = ['E', 'T'];

/// The first thing in `text` a later format expansion would run, and whether it
/// appears only once time conversions are taken out.
pub fn runs_later(text: &str) -> Option<(Runs, bool)> {
    if let Some(found) = runs_in(text) {
        return Some((found, false));
    }
    runs_in(&without_time_conversions(text)).map(|found| (found, true))
}

fn runs_in(text: &str) -> Option<Runs> {
    if let Some(mark) = JOB_MARKS.iter().find(|mark| text.contains(**mark)) {
        return Some(Runs::Job(mark));
    }
    let chars: Vec<char> = text.chars().collect();
    chars.windows(3).find_map(|three| match three {
        [before @ ('{' | ';'), modifier, after @ (';' | ':')] if REEXPANDING.contains(modifier) => {
            Some(Runs::SecondExpansion {
                modifier: *modifier,
                spelled: [*before, *modifier, *after].iter().collect(),
            })
        }
        _ => None,
    })
}

/// `text` with every `strftime` conversion (`%`, flags, width, an `E` or `O`, one
/// letter) removed, as if each printed nothing.
fn without_time_conversions(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            kept.push(c);
            continue;
        }
        while chars.next_if(|c| "_-0^#+".contains(*c) || c.is_ascii_digit()).is_some() {}
        chars.next_if(|c| *c == 'E' || *c == 'O');
        chars.next();
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> bool {
        runs_later(text).is_some()
    }

    #[test]
    fn jobs_and_rebuilt_jobs_are_found() {
        for text in ["#(id)", "a #{l:#}(id)", "##(id)", "#%p(id)", "#%-Ey(id)"] {
            assert!(refused(text), "{text}");
        }
    }

    #[test]
    fn every_spelling_of_a_reexpanding_modifier_is_found() {
        for text in [
            "#{E:pane_title}",
            "#{T:pane_title}",
            "#{b;E:pane_current_path}",
            "#{E;b:pane_title}",
            "#{s/a/b/;T:pane_title}",
            "#{=/5/…/;E:pane_title}",
            "x #{?1,#{E:pane_title},} y",
            "#{W:#{E:@fmt}}",
            "#{l:#}{E:pane_title}",
            "#{%pE:pane_title}",
            "#{T;=/20:status-left}",
        ] {
            let found = runs_later(text);
            assert!(
                matches!(found, Some((Runs::SecondExpansion { .. }, _))),
                "{text}: {found:?}"
            );
        }
    }

    #[test]
    fn formats_that_expand_once_pass() {
        for text in [
            "#{pane_title}",
            "#{b:pane_current_path}",
            "#{=/20/…:pane_title}",
            "#{W:#I:#W }",
            "#{?#{==:#{pane_mode},},x,y} (x)",
            "%H:%M #S",
            "Tue: E; T",
            "#[fg=red]#{session_name}",
            "#{e|+|:1,2}",
        ] {
            assert_eq!(runs_later(text), None, "{text}");
        }
    }

    #[test]
    fn the_rule_names_the_modifier_and_the_time_conversions() {
        let (found, after) = runs_later("#{%pT:x}").unwrap_or((Runs::Job("none"), false));
        assert!(after);
        let rule = found.rule(after);
        assert!(
            rule.contains("modifier T") && rule.contains("time conversions"),
            "{rule}"
        );
    }
}
