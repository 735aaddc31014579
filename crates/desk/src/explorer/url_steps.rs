//! A server may refuse a call until the person has finished something in a browser (error
//! -32042, URL elicitation required: signing in somewhere, granting access). Each step it
//! names is put to the person in the URL dialog, as if the server had sent
//! `elicitation/create` (the same question, the same checks of the link, the same audit
//! record); then the call is theirs to try again, since only the person knows when the page
//! is done.

use switchboard_mcp::client::ClientHandler;
use switchboard_mcp::types::{ElicitAction, ElicitRequestParams, UrlElicitationRequiredData};

use super::{Explorer, ExplorerError};
use switchboard_core::server_requests::ServerRequestHandler;

impl Explorer {
    /// Offers every step of the refusal, one dialog after another, and says what came of them.
    pub(super) async fn offer_url_steps(
        &self,
        server: &str,
        required: UrlElicitationRequiredData,
    ) -> ExplorerError {
        let person = ServerRequestHandler::new(
            server,
            self.gate.broker().clone(),
            self.roots.clone(),
            self.gate.audit().clone(),
        );
        let steps = required.elicitations.len();
        let mut opened = 0;
        for step in required.elicitations {
            let answer = person.elicit(ElicitRequestParams::Url(step)).await;
            if answer.is_ok_and(|result| result.action == ElicitAction::Accept) {
                opened += 1;
            }
        }
        ExplorerError::StepsInBrowser {
            server: server.to_owned(),
            steps,
            opened,
        }
    }
}

/// What a person reads after a server asked them to finish pages in a browser first.
pub(super) fn browser_steps(server: &str, steps: usize, opened: usize) -> String {
    let pages = if steps == 1 { "a page" } else { "pages" };
    if opened == steps {
        format!(
            "{server} needs you to finish {pages} in your browser before this call: once \
             you have, try the call again"
        )
    } else {
        format!(
            "{server} needs you to finish {pages} in your browser before this call, which \
             you did not open; the call was not made"
        )
    }
}
