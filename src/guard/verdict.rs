//! The cohort check and the input as one indivisible step inside tmux.
//!
//! tmux runs one client's `;`-chained command list to its end before it runs another
//! client's commands: a client's queue is run until it is empty unless a command waits
//! (cmd-queue.c `cmdq_next`), and none of these wait (`if-shell -F` decides at once
//! and inserts its commands right after itself). So one round trip reads the target's
//! window, prints tmux's own verdict on the rules, and types only if that verdict
//! holds; nothing another client does can fall between the check and the input.
//!
//! The verdict is a tmux format built from pane ids, the server pid and constants
//! only; caller text never enters it, and typed text stays inside the `send-keys`
//! arguments. It mirrors [`super::cohort::evaluate`], which explains a refusal or names
//! the receivers from the same reading; the two must agree.

use crate::guard::attended::Expected;
use crate::guard::caller::CallerPane;
use crate::guard::owner::OwnedMark;
use crate::tmux::script::command_line;
use crate::tmux::{Command, PaneId};

/// Expands to `x` for a pane that breaks a rule `force` does not lift, else to nothing.
/// The caller pane is recognised by [`CallerPane::is_caller_format`], the test
/// [`super::caller::is_caller`] makes on a record.
/// With `owned_only` (`--scope owned`), a pane without paneward's pane mark breaks one
/// too. The format reads the mark through tmux's inheritance: the scope check
/// (`guard::scope`) has already read every member's own mark; this catches a pane
/// that joined the cohort since, in the same step as the input.
/// With `attended` (the attended-pane rule on, with the clients read just before), a
/// pane a terminal shows breaks one too unless it carries the pane mark
/// (`super::attended`), `force` or not.
fn breaks_a_rule(force: bool, caller: Option<&CallerPane>, owned_only: bool, attended: Option<&Expected>) -> String {
    let mut rules = String::from("#{?#{pane_dead},x,}#{?#{pane_input_off},x,}");
    if owned_only {
        rules.push_str(&format!("#{{?#{{{}}},,x}}", OwnedMark::Pane.option()));
    }
    if let Some(expected) = attended {
        rules.push_str(&expected.breaks_format(OwnedMark::Pane.option()));
    }
    if !force {
        rules.push_str("#{?#{pane_in_mode},x,}");
        if let Some(caller) = caller {
            rules.push_str(&format!("#{{?{},x,}}", caller.is_caller_format()));
        }
    }
    rules
}

/// A format that, expanded for `target`, is `1` when input to `target` may go in and
/// `0` when a member of its cohort breaks a rule: the target itself, and with
/// `synchronize-panes` on in the target, every pane of its window that has it on too.
pub(super) fn verdict_format(
    target: PaneId,
    force: bool,
    caller: Option<&CallerPane>,
    owned_only: bool,
    attended: Option<&Expected>,
) -> String {
    let rules = breaks_a_rule(force, caller, owned_only, attended);
    // `#{P:…}` expands once per pane of the window, each with its own options.
    let member = format!("#{{?#{{||:#{{==:#{{pane_id}},{target}}},#{{synchronize-panes}}}},{rules},}}");
    format!("#{{?#{{?#{{synchronize-panes}},#{{P:{member}}},{rules}}},0,1}}")
}

/// A format that, expanded for `target`, is `1` when `target` alone may take input
/// (a paste, which tmux does not copy to synchronized panes) and `0` when it breaks a
/// rule.
pub(super) fn target_verdict_format(
    force: bool,
    caller: Option<&CallerPane>,
    owned_only: bool,
    attended: Option<&Expected>,
) -> String {
    format!("#{{?{},0,1}}", breaks_a_rule(force, caller, owned_only, attended))
}

/// `verdict`, and `0` as well unless `target`'s cursor and history are still `at`. Only
/// numbers enter the format.
pub(super) fn unless_moved(at: &super::screen::ScreenAt, verdict: &str) -> String {
    format!(
        "#{{?#{{&&:#{{==:#{{cursor_x}},{}}},#{{&&:#{{==:#{{cursor_y}},{}}},#{{==:#{{history_size}},{}}}}}}},{verdict},0}}",
        at.cursor_x, at.cursor_y, at.history_size
    )
}

/// Prints the verdict, as the input that follows in the same round trip will see it.
/// `if-shell -F` evaluates it exactly as [`type_if`] does and prints a constant:
/// `display-message` would first run the format through `strftime`, which mangles the
/// `%N` of pane ids from `%3` on (docs/tmux-quirks.md), so the printed verdict and
/// tmux's own decision disagreed for such panes.
pub(super) fn print_verdict(target: PaneId, verdict: &str) -> Command {
    Command::new("if-shell")
        .arg("-F")
        .arg("-t")
        .arg(target.to_string())
        .arg(verdict)
        .arg("display-message -p 1")
        .arg("display-message -p 0")
}

/// Runs `input` (commands for `target`) only if the verdict is `1` at that moment. The
/// commands travel as one argument in tmux's command language, which tmux parses back
/// into exactly the arguments they were built with; it is sensitive, as typed text is.
pub(super) fn type_if(target: PaneId, verdict: &str, input: &[Command]) -> Command {
    Command::new("if-shell")
        .arg("-F")
        .arg("-t")
        .arg(target.to_string())
        .arg(verdict)
        .sensitive_arg(command_line(input))
}

/// Reads the printed verdict: `Some(true)` if the input went in.
pub(super) fn parse_verdict(output: &[u8]) -> Option<bool> {
    match output.strip_suffix(b"\n").unwrap_or(output) {
        b"1" => Some(true),
        b"0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_holds_only_ids_numbers_and_constants() {
        let caller = CallerPane::from_env(Some("/tmp/odd,}{#path/s,4242,0"), Some("%9"));
        let format = verdict_format(PaneId(3), false, caller.as_ref(), false, None);
        assert!(format.contains("#{==:#{pane_id},%3}") && format.contains("#{==:#{pid},4242}"));
        assert!(!format.contains("odd"), "the socket path never enters a format");
        assert!(!verdict_format(PaneId(3), true, caller.as_ref(), false, None).contains("pane_in_mode"));
        let opens = format.matches('{').count();
        assert_eq!(opens, format.matches('}').count(), "{format}");
    }

    #[test]
    fn a_paste_verdict_looks_at_the_target_alone() {
        let caller = CallerPane::from_env(Some("/tmp/s,4242,0"), Some("%9"));
        let format = target_verdict_format(false, caller.as_ref(), false, None);
        assert!(
            !format.contains("synchronize-panes") && !format.contains("#{P:"),
            "{format}"
        );
        assert!(format.contains("pane_in_mode") && format.contains("#{==:#{pane_id},%9}"));
        assert!(!target_verdict_format(true, caller.as_ref(), false, None).contains("pane_in_mode"));
    }

    #[test]
    fn under_scope_owned_an_unmarked_member_breaks_a_rule_force_or_not() {
        for force in [false, true] {
            let format = verdict_format(PaneId(3), force, None, true, None);
            assert!(format.contains("#{?#{@paneward_owned_pane},,x}"), "{format}");
        }
        assert!(!verdict_format(PaneId(3), false, None, false, None).contains("@paneward_owned_pane"));
        assert!(target_verdict_format(true, None, true, None).contains("@paneward_owned_pane"));
    }

    #[test]
    fn the_attended_rule_holds_with_force_and_only_while_it_is_on() {
        let expected = Expected::default();
        for force in [false, true] {
            let format = verdict_format(PaneId(3), force, None, false, Some(&expected));
            assert!(format.contains("window_active_clients_list"), "{format}");
            assert!(target_verdict_format(force, None, false, Some(&expected)).contains("window_active_clients_list"));
        }
        assert!(!verdict_format(PaneId(3), false, None, false, None).contains("window_active_clients_list"));
    }

    #[test]
    fn the_input_is_one_redacted_argument() {
        let send = Command::new("send-keys").arg("-t").arg("%3").sensitive_arg("a'b\n;c");
        let command = type_if(PaneId(3), "1", std::slice::from_ref(&send));
        assert_eq!(command.summary(), "if-shell -F -t %3 1 <redacted>");
        let inner = command.argv().last().unwrap_or_default().to_string();
        assert_eq!(inner, command_line(&[send]));
        assert!(!inner.contains('\n'), "a control character travels as an escape");
    }

    #[test]
    fn only_a_printed_one_or_zero_is_a_verdict() {
        assert_eq!(parse_verdict(b"1\n"), Some(true));
        assert_eq!(parse_verdict(b"0\n"), Some(false));
        assert_eq!(parse_verdict(b""), None);
        assert_eq!(parse_verdict(b"10\n"), None);
    }
}
