//! What the face is shown of the host's state: the same, with the secrets that travel in
//! web addresses masked (see `switchboard_core::masking`).

use switchboard_mcp::types::ElicitRequestParams;

use switchboard_core::approvals::{Pending, Question};
use switchboard_core::masking::urls_in;
use switchboard_core::server_events::ServerState;

/// A server's state with the addresses in its reasons masked (a failed connection names
/// the URL it tried).
pub(super) fn state(state: ServerState) -> ServerState {
    match state {
        ServerState::Restarting {
            attempt,
            backoff_ms,
            reason,
        } => ServerState::Restarting {
            attempt,
            backoff_ms,
            reason: reason.map_texts(urls_in),
        },
        ServerState::Failed {
            reason,
            gave_up_after,
            stderr_tail,
        } => ServerState::Failed {
            reason: reason.map_texts(urls_in),
            gave_up_after,
            stderr_tail: stderr_tail.iter().map(|line| urls_in(line)).collect(),
        },
        ServerState::AuthRequired {
            detail,
            token_instead,
        } => ServerState::AuthRequired {
            detail: detail.map_texts(urls_in),
            token_instead,
        },
        other => other,
    }
}

/// A request for the person with the link it would open, and the addresses in its
/// message, masked. The link opened is the broker's own, whole. A tool call's arguments
/// are left as they are: the person may edit them, and what they allow is what is sent.
pub(super) fn pending(mut pending: Pending) -> Pending {
    if let Question::Elicitation { params } = &mut pending.question {
        match params.as_mut() {
            ElicitRequestParams::Url(link) => {
                link.url = switchboard_core::masking::url(&link.url);
                link.message = urls_in(&link.message);
            }
            ElicitRequestParams::Form(form) => form.message = urls_in(&form.message),
        }
    }
    pending
}
