//! `request_pane`: the agent asks the person for one of their panes, and with their yes
//! the pane carries paneward's ownership mark, as `paneward grant PANE` sets it from a
//! shell. The question says only what tmux knows of the pane (where it is, what runs in
//! it), so the agent cannot word it; what a yes lifts is the scope and the
//! attended-pane rule, no other safety rule (the caller pane's rules still ask for
//! each input).

use crate::config::Scope;
use crate::generated::types::{RequestPaneInput, RequestPaneOutput, RequestPaneOutputOutcome};
use crate::guard::attended;
use crate::guard::consent::{self, NoConsent};
use crate::guard::owner::{OwnedMark, OWNED_VALUE};
use crate::guard::ChangeGate;
use crate::runtime::error::echo;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::{parse_one, record_format};
use crate::tools::args;
use crate::tools::workspace::readback::display;

/// What the question and the reply say of the pane.
const PLACE: [&str; 6] = [
    "pane_id",
    "session_name",
    "window_index",
    "window_name",
    "pane_index",
    "pane_current_command",
];

/// # Errors
/// A bad or missing pane, the person's no or a client that cannot ask (a refusal that
/// names the shell command), or tmux failing.
pub async fn request_pane(gate: &ChangeGate<'_>, input: RequestPaneInput) -> Result<RequestPaneOutput, ToolError> {
    let RequestPaneInput { pane_id } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let target = pane.to_string();
    let [mark, place] = gate
        .run_each([
            OwnedMark::Pane.read_own(&target),
            display(&target, &record_format(&PLACE)),
        ])
        .await?;
    let place = String::from_utf8_lossy(&place);
    let record = parse_one("display-message", &PLACE, &place)?;
    if record.text("pane_id")? != target {
        return Err(ToolError::new(
            ToolErrorKind::NotFound,
            format!("{target} does not exist; list_panes shows the current panes"),
        ));
    }
    let at = format!(
        "{}:{}.{}",
        record.text("session_name")?,
        record.text("window_index")?,
        record.text("pane_index")?
    );
    let reply = |outcome, granted| RequestPaneOutput {
        pane_id: target.clone(),
        granted,
        outcome,
        place: at.clone(),
    };
    // Under --scope all the mark still matters where a person's terminal shows the
    // pane: it lifts the attended-pane rule (`guard::attended`).
    if gate.state().settings.scope == Scope::All && !attended::shown_now(gate.state(), pane).await? {
        return Ok(reply(RequestPaneOutputOutcome::ScopeAll, false));
    }
    if String::from_utf8_lossy(&mark).trim() == OWNED_VALUE {
        return Ok(reply(RequestPaneOutputOutcome::AlreadyOwned, false));
    }
    let described = format!(
        "session {} window {} {} pane {}",
        echo(record.text("session_name")?),
        record.text("window_index")?,
        echo(record.text("window_name")?),
        record.text("pane_index")?
    );
    let question = consent::grant_question(pane, &described, &echo(record.text("pane_current_command")?));
    match consent::ask(gate.context(), question).await {
        Ok(_consent) => {
            gate.change_all(&[OwnedMark::Pane.mark(&target)]).await?;
            tracing::info!(target: crate::CLIENT_LOG_TARGET, pane = %target, "the person handed the agent a pane");
            Ok(reply(RequestPaneOutputOutcome::Granted, true))
        }
        Err(no) => {
            let way_out = match no {
                NoConsent::CannotAsk => "this client cannot ask its person",
                NoConsent::Declined | NoConsent::Unanswered(_) => "the pane stays the person's",
            };
            Err(ToolError::blocked(format!(
                "{target} was not handed to the agent{}: {way_out}; the person can hand it over from a shell \
                 with `paneward grant {target}` (with this server's -L, -S or --private)",
                no.note()
            )))
        }
    }
}
