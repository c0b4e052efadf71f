//! Asking the person through the MCP client, in the way the request's revision allows:
//! a legacy client (up to 2025-11-25) that declared form elicitation is sent an
//! `elicitation/create` and the call waits ([`elicit`]); a 2026-07-28 client that
//! declares it in the request's `_meta` gets an `InputRequiredResult` and sends the
//! call again with the answer ([`round_trip`], sealed by [`request_state`]). The one
//! question and how its answer reads are [`form`]'s. What is asked, and what a yes
//! lifts, is `guard::consent`'s.

use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, ClientCapabilities, ProtocolVersion};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use crate::runtime::ask::Asker;

pub mod elicit;
pub mod form;
pub mod request_state;
pub mod round_trip;

use round_trip::RoundTripAsker;

/// How one call can ask its person.
pub enum Asking {
    /// It cannot: the rules that would ask refuse with their usual way out.
    Cannot,
    /// It asks and waits for the answer within the call.
    Inline(Asker),
    /// It puts the question off to the client's repeat of the call; after the call
    /// ran, [`RoundTripAsker::input_required`] says whether to answer with the question.
    RoundTrip(Arc<RoundTripAsker>),
}

impl Asking {
    /// The asker the call carries, if any.
    pub fn asker(&self) -> Option<Asker> {
        match self {
            Self::Cannot => None,
            Self::Inline(asker) => Some(asker.clone()),
            Self::RoundTrip(asker) => Some(Asker::new(asker.clone())),
        }
    }
}

/// Whether `capabilities` let the client show a form to its person: one that names
/// modes must name form; one that names none means form.
fn shows_forms(capabilities: Option<&ClientCapabilities>) -> bool {
    capabilities
        .and_then(|capabilities| capabilities.elicitation.as_ref())
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none())
}

/// How the `tools/call` `request` of `context` can ask its person.
///
/// # Errors
/// A 2026-07-28 request whose `requestState` or `inputResponses` cannot be trusted
/// (see [`RoundTripAsker::for_request`]).
pub fn asking_for(context: &RequestContext<RoleServer>, request: &CallToolRequestParams) -> Result<Asking, ErrorData> {
    let current = context
        .protocol_version()
        .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
    if current {
        // A repeat brings its answer even from a client that no longer declares forms.
        let repeat = request.request_state.is_some() || request.input_responses.is_some();
        if !repeat && !shows_forms(context.client_capabilities().as_ref()) {
            return Ok(Asking::Cannot);
        }
        return Ok(Asking::RoundTrip(Arc::new(RoundTripAsker::for_request(request)?)));
    }
    let peer = &context.peer;
    let Some(info) = peer.peer_info() else {
        return Ok(Asking::Cannot);
    };
    if !shows_forms(Some(&info.capabilities)) {
        return Ok(Asking::Cannot);
    }
    Ok(Asking::Inline(Asker::new(Arc::new(elicit::ClientAsker {
        peer: peer.clone(),
    }))))
}
