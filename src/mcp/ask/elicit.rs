//! Asking the person through the MCP client: `elicitation/create` with a one-field
//! yes/no form, for clients that declared the elicitation capability (form mode) on a
//! revision up to 2025-11-25. 2026-07-28 forbids server-to-client requests (rmcp
//! refuses to send them); a request of that revision gets no asker here.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::model::ProtocolVersion;
use rmcp::model::{ClientResult, ElicitRequest, ElicitRequestParams, ElicitationAction, ServerRequest};
use rmcp::service::{Peer, PeerRequestOptions, RequestContext};
use rmcp::RoleServer;
use serde_json::json;

use crate::limits::ELICITATION_TIMEOUT;
use crate::runtime::ask::{Answer, AskPerson, Asker};

/// The form field that carries the person's answer.
const ALLOW: &str = "allow";

/// Asks through the client behind `peer`.
struct ClientAsker {
    peer: Peer<RoleServer>,
}

/// An [`Asker`] for the client that sent the request of `context`, if it can show a
/// form to its person and the request's revision lets the server ask it.
pub fn asker_for(context: &RequestContext<RoleServer>) -> Option<Asker> {
    if context
        .protocol_version()
        .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28)
    {
        return None;
    }
    let peer = &context.peer;
    let info = peer.peer_info()?;
    let elicitation = info.capabilities.elicitation.as_ref()?;
    // A client that names modes must name form; one that names none means form.
    let form = elicitation.form.is_some() || elicitation.url.is_none();
    form.then(|| Asker::new(Arc::new(ClientAsker { peer: peer.clone() })))
}

impl AskPerson for ClientAsker {
    fn ask(&self, question: String) -> Pin<Box<dyn Future<Output = Answer> + Send + '_>> {
        Box::pin(async move {
            let params = json!({
                "mode": "form",
                "message": question,
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        ALLOW: {
                            "type": "boolean",
                            "title": "Allow this once",
                            "description": "Yes lets paneward do this one thing; no refuses it.",
                            "default": false
                        }
                    },
                    "required": [ALLOW]
                }
            });
            let params: ElicitRequestParams = match serde_json::from_value(params) {
                Ok(params) => params,
                Err(error) => return Answer::None(format!("paneward could not build the question: {error}")),
            };
            let mut options = PeerRequestOptions::no_options();
            options.timeout = Some(ELICITATION_TIMEOUT);
            let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
            let sent = match self.peer.send_request_with_option(request, options).await {
                Ok(handle) => handle.await_response().await,
                Err(error) => Err(error),
            };
            match sent {
                Ok(ClientResult::ElicitResult(result)) => match result.action {
                    ElicitationAction::Accept => {
                        let allowed = result
                            .content
                            .as_ref()
                            .and_then(|content| content.get(ALLOW))
                            .and_then(serde_json::Value::as_bool);
                        if allowed == Some(true) {
                            Answer::Yes
                        } else {
                            Answer::No
                        }
                    }
                    // Decline, cancel, and any action a later revision adds.
                    _ => Answer::No,
                },
                Ok(_) => Answer::None("the client answered something other than the form".into()),
                Err(error) => Answer::None(format!("the client did not answer: {error}")),
            }
        })
    }
}
