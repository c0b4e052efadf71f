//! Asking the person through a legacy MCP client: `elicitation/create` with the consent
//! form, for clients that declared the elicitation capability (form mode) on a revision
//! up to 2025-11-25. The call waits for the answer.

use std::future::Future;
use std::pin::Pin;

use rmcp::model::{ClientResult, ElicitRequest, ServerRequest};
use rmcp::service::{Peer, PeerRequestOptions};
use rmcp::RoleServer;

use crate::limits::ELICITATION_TIMEOUT;
use crate::mcp::ask::form;
use crate::runtime::ask::{Answer, AskPerson};

/// Asks through the client behind `peer`.
pub struct ClientAsker {
    pub peer: Peer<RoleServer>,
}

impl AskPerson for ClientAsker {
    fn ask(&self, question: String) -> Pin<Box<dyn Future<Output = Answer> + Send + '_>> {
        Box::pin(async move {
            let params = match form::consent_form(question) {
                Ok(params) => params,
                Err(error) => return Answer::None(error),
            };
            let mut options = PeerRequestOptions::no_options();
            options.timeout = Some(ELICITATION_TIMEOUT);
            let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
            let sent = match self.peer.send_request_with_option(request, options).await {
                Ok(handle) => handle.await_response().await,
                Err(error) => Err(error),
            };
            match sent {
                Ok(ClientResult::ElicitResult(result)) => form::answer_of(&result),
                Ok(_) => Answer::None("the client answered something other than the form".into()),
                Err(error) => Answer::None(format!("the client did not answer: {error}")),
            }
        })
    }
}
