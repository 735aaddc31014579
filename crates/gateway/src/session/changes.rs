//! What an agent hears of changes of what it sees: a fingerprint of each of its lists
//! (tools, resources with their templates, prompts), taken again at each update that may
//! change them, so that a session's agent is told `list_changed` only of a list that did
//! change (and a listening stateless agent, of those it asked for).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use serde_json::{Value, json};
use switchboard_mcp::types::method;
use tokio::sync::broadcast;

use super::Session;
use switchboard_core::catalog::Offer;
use switchboard_desk::Update;

/// Fingerprints of the lists an agent sees.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Seen {
    pub(super) tools: u64,
    pub(super) resources: u64,
    pub(super) prompts: u64,
}

impl Session {
    pub(super) fn seen_now(&self) -> Seen {
        let offers = self.offers().unwrap_or_default();
        let digest = |pick: &dyn Fn(&Offer) -> Value| {
            let mut hasher = DefaultHasher::new();
            for (server, offer) in &offers {
                server.hash(&mut hasher);
                pick(offer).to_string().hash(&mut hasher);
            }
            hasher.finish()
        };
        Seen {
            tools: digest(&|o| json!(o.tools)),
            resources: digest(&|o| json!([o.resources, o.templates])),
            prompts: digest(&|o| json!(o.prompts)),
        }
    }

    /// Tells the agent which of its lists changed, if any did.
    pub(super) async fn offers_changed(&self) {
        let now = self.seen_now();
        let (before, ready) = {
            let mut state = self.state();
            (std::mem::replace(&mut state.seen, now), state.ready)
        };
        if !ready {
            return;
        }
        let changed = [
            (before.tools != now.tools, method::TOOLS_LIST_CHANGED),
            (
                before.resources != now.resources,
                method::RESOURCES_LIST_CHANGED,
            ),
            (before.prompts != now.prompts, method::PROMPTS_LIST_CHANGED),
        ];
        for (_, method) in changed.into_iter().filter(|(changed, _)| *changed) {
            self.notify(method, None).await;
        }
    }
}

/// Whether `update` may change what an agent is offered (one missed may have).
pub(super) fn may_change_offers(update: &Result<Update, broadcast::error::RecvError>) -> bool {
    matches!(
        update,
        Ok(Update::Status { .. }
            | Update::CatalogChanged { .. }
            | Update::ServersChanged
            | Update::ConfigChanged { .. }
            | Update::AgentsChanged)
            | Err(broadcast::error::RecvError::Lagged(_))
    )
}
