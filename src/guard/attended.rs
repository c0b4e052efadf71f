//! The attended-pane rule: no input to a pane a person's terminal is showing.
//!
//! A terminal client attached to tmux shows its session's current window: every pane of
//! it, or only the active pane while the window is zoomed. Keys typed into a pane shown
//! there land under the eyes, and perhaps the fingers, of whoever sits at that terminal,
//! mixing with what they type. So input to such a pane is refused unless the pane is
//! paneward's (it carries the pane mark: paneward created it, or the person handed it
//! over with `paneward grant` or `request_pane`), the person says yes when asked
//! (`guard::consent`), or the operator turned the rule off (`--allow-attended-input`).
//! Control-mode clients (paneward's own among them) draw nothing, so they attend nothing.
//!
//! Decided inside tmux, in the same step as the typing (`super::verdict`): tmux 3.3a has
//! no format loop over clients, but `window_active_clients_list` names every client
//! showing a pane's window. paneward reads the clients just before the step and expects
//! that list to hold exactly the control clients it saw there; any other name (a terminal
//! that attached, or switched to the window, meanwhile) makes tmux refuse. Client names
//! are tmux's own (a tty path, or `client-PID`), and only names made of plain characters
//! enter the format; a control client with any other name counts as a terminal.

use std::collections::BTreeMap;

use crate::guard::state::GuardState;
use crate::tmux::format::{parse_one, parse_records, record_format};
use crate::tmux::{Command, PaneId, TmuxError};

/// What the check reads about every client.
const CLIENT_FIELDS: [&str; 3] = ["client_name", "client_control_mode", "window_id"];

/// One client attached to a session, and the window it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    pub name: String,
    pub control: bool,
    pub window_id: String,
}

impl Client {
    /// Whether this client draws no pane for a person: a control client whose name can
    /// stand in a format as plain text.
    fn draws_nothing(&self) -> bool {
        self.control && is_plain(&self.name)
    }
}

/// Whether `name` holds only characters that are plain text in a tmux format and in a
/// comma-separated list (no `#`, `{`, `}`, `,`, no space or control character).
fn is_plain(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'))
}

/// The command that lists every client attached to a session.
pub(super) fn read_clients() -> Command {
    Command::new("list-clients")
        .arg("-F")
        .arg(record_format(&CLIENT_FIELDS))
}

/// Parses the output of [`read_clients`].
///
/// # Errors
/// A malformed record.
pub(super) fn parse_clients(output: &[u8]) -> Result<Vec<Client>, TmuxError> {
    let text = String::from_utf8_lossy(output);
    parse_records("list-clients", &CLIENT_FIELDS, &text)?
        .iter()
        .map(|record| {
            Ok(Client {
                name: record.text("client_name")?.to_string(),
                control: record.flag("client_control_mode")?,
                window_id: record.text("window_id")?.to_string(),
            })
        })
        .collect()
}

/// Whether a terminal shows window `window_id`, by the clients read in the step.
pub(super) fn window_watched(clients: &[Client], window_id: &str) -> bool {
    clients
        .iter()
        .any(|client| client.window_id == window_id && !client.draws_nothing())
}

/// Whether a pane of a window that a terminal shows is itself in sight: every pane is,
/// but in a zoomed window only the active one.
pub(super) fn pane_in_sight(window_watched: bool, zoomed: bool, active: bool) -> bool {
    window_watched && (!zoomed || active)
}

/// What the one-off look at a pane reads ([`shown_now`]).
const PANE_FIELDS: [&str; 3] = ["window_id", "window_zoomed_flag", "pane_active"];

/// Whether a terminal shows `pane` at this moment, and the rule is on: a look for
/// `request_pane`, whose grant matters under `--scope all` only for such a pane. Not
/// a check before input (the verdict makes that one, in the typing's own step).
///
/// # Errors
/// tmux failed (a missing pane among them).
pub async fn shown_now(state: &GuardState, pane: PaneId) -> Result<bool, TmuxError> {
    if !state.settings.attended_guard {
        return Ok(false);
    }
    let look = Command::new("display-message")
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
        .arg(record_format(&PANE_FIELDS));
    let [clients, place] = state.backend.tmux().run_each([read_clients(), look]).await?;
    let clients = parse_clients(&clients)?;
    let place = String::from_utf8_lossy(&place);
    let record = parse_one("display-message", &PANE_FIELDS, &place)?;
    Ok(pane_in_sight(
        window_watched(&clients, record.text("window_id")?),
        record.flag("window_zoomed_flag")?,
        record.flag("pane_active")?,
    ))
}

/// The clients read just before the step, which the step's format expects to find.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expected {
    /// Per window, the control clients showing it, in tmux's order of clients.
    control_by_window: BTreeMap<String, Vec<String>>,
}

impl Expected {
    /// What `clients` (read with `read_clients`) lead the step to expect.
    pub fn of(clients: &[Client]) -> Self {
        let mut control_by_window: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for client in clients.iter().filter(|c| c.draws_nothing()) {
            control_by_window
                .entry(client.window_id.clone())
                .or_default()
                .push(client.name.clone());
        }
        Self { control_by_window }
    }

    /// A format, expanded for a pane, that is `1` when the clients showing the pane's
    /// window are exactly the control clients expected there (none drawing it) and `0`
    /// otherwise. Only window ids and plain client names enter it.
    fn unwatched_format(&self) -> String {
        let is = |names: &[String]| format!("#{{==:#{{window_active_clients_list}},{}}}", names.join(","));
        let mut format = is(&[]);
        for (window, names) in self.control_by_window.iter().rev() {
            if window.starts_with('@') && window[1..].chars().all(|c| c.is_ascii_digit()) {
                format = format!("#{{?#{{==:#{{window_id}},{window}}},{},{format}}}", is(names));
            }
        }
        format
    }

    /// The rule for the verdict (`super::verdict`): expands to `x` for a pane a terminal
    /// shows, unless the pane carries paneward's pane mark.
    pub(super) fn breaks_format(&self, mark: &str) -> String {
        format!(
            "#{{?#{{{mark}}},,#{{?{},,#{{?#{{window_zoomed_flag}},#{{?#{{pane_active}},x,}},x}}}}}}",
            self.unwatched_format()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(name: &str, control: bool, window: &str) -> Client {
        Client {
            name: name.into(),
            control,
            window_id: window.into(),
        }
    }

    #[test]
    fn only_a_terminal_client_watches_a_window() {
        let clients = [
            client("client-42", true, "@1"),
            client("/dev/pts/3", false, "@2"),
            client("odd,name", true, "@3"),
        ];
        assert!(!window_watched(&clients, "@1"), "a control client draws nothing");
        assert!(window_watched(&clients, "@2"));
        assert!(
            window_watched(&clients, "@3"),
            "a name that cannot enter the format counts"
        );
        assert!(!window_watched(&clients, "@4"));
    }

    #[test]
    fn a_zoomed_window_shows_only_its_active_pane() {
        assert!(pane_in_sight(true, false, false));
        assert!(pane_in_sight(true, true, true));
        assert!(!pane_in_sight(true, true, false));
        assert!(!pane_in_sight(false, false, true));
    }

    #[test]
    fn the_format_expects_exactly_the_control_clients_and_holds_only_ids_and_plain_names() {
        let expected = Expected::of(&[
            client("client-42", true, "@1"),
            client("client-43", true, "@1"),
            client("/dev/pts/3", false, "@1"),
            client("a}#{b", true, "@2"),
        ]);
        let format = expected.breaks_format("@paneward_owned_pane");
        assert!(
            format.contains("#{?#{==:#{window_id},@1},#{==:#{window_active_clients_list},client-42,client-43},"),
            "{format}"
        );
        assert!(format.contains("#{==:#{window_active_clients_list},}"), "{format}");
        assert!(!format.contains("pts") && !format.contains("a}#"), "{format}");
        assert_eq!(format.matches('{').count(), format.matches('}').count(), "{format}");
        let none = Expected::default().breaks_format("@m");
        assert_eq!(
            none,
            "#{?#{@m},,#{?#{==:#{window_active_clients_list},},,#{?#{window_zoomed_flag},#{?#{pane_active},x,},x}}}"
        );
    }

    #[test]
    fn clients_are_parsed_from_their_records() {
        // A client's name is free text: it ends with this process's terminator.
        let end = crate::tmux::format::terminator();
        let output = format!("client-7{end}\u{1f}1\u{1f}@2\u{1e}\n/dev/pts/1{end}\u{1f}0\u{1f}@3\u{1e}\n");
        let clients = parse_clients(output.as_bytes()).unwrap();
        assert_eq!(
            clients,
            [client("client-7", true, "@2"), client("/dev/pts/1", false, "@3")]
        );
    }
}
