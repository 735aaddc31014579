//! A server may refuse a call until the person has finished something in a browser (error
//! -32042, URL elicitation required: signing in somewhere, granting access). Each step it
//! names is put to the person in the URL dialog, as if the server had sent
//! `elicitation/create` (the same question, the same checks of the link, the same audit
//! record); then the call is theirs to try again, since only the person knows when the page
//! is done.

use switchboard_mcp::client::ClientHandler;
use switchboard_mcp::types::{ElicitAction, ElicitRequestParams, UrlElicitationRequiredData};

use crate::{Desk, DeskError};
use switchboard_core::server_requests::ServerRequestHandler;

impl Desk {
    /// Offers every step of the refusal, one dialog after another, and says what came of them.
    pub(super) async fn offer_url_steps(
        &self,
        server: &str,
        required: UrlElicitationRequiredData,
    ) -> DeskError {
        let person = ServerRequestHandler::new(
            server,
            self.inner.gate.broker().clone(),
            self.inner.roots.clone(),
            self.inner.gate.audit().clone(),
        );
        let steps = required.elicitations.len();
        let mut opened = 0;
        for step in required.elicitations {
            let answer = person.elicit(ElicitRequestParams::Url(step)).await;
            if answer.is_ok_and(|result| result.action == ElicitAction::Accept) {
                opened += 1;
            }
        }
        DeskError::StepsInBrowser {
            server: server.to_owned(),
            steps,
            opened,
        }
    }
}
