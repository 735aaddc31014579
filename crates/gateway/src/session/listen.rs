//! `subscriptions/listen` (2026-07-28): an agent of the stateless revision hears of changes
//! on one long request of its own instead of a session. The gateway acknowledges the kinds
//! it honours (the three list changes, and updates of the resources its servers let it
//! follow), then tells of each change of what this agent sees (a server started, stopped,
//! or changed its offer; the person changed what the agent may use) and of each update of
//! a resource it asked for, every notice tagged with the request's id. The request lasts
//! until the agent cancels it (or closes its stream), or the agent is removed: then it ends
//! with a result, as the revision's graceful closure.

use serde_json::{Value, json};
use switchboard_mcp::jsonrpc::{ErrorObject, RequestId, code};
use switchboard_mcp::types::{SubscriptionFilter, SubscriptionsListenResult, meta_key, method};

use super::changes::{Seen, may_change_offers};
use super::{Session, Via};
use crate::subscriptions::Subscriptions;
use switchboard_desk::Update;

impl Session {
    pub(super) async fn listen_for(
        &self,
        id: RequestId,
        wanted: SubscriptionFilter,
    ) -> Result<SubscriptionsListenResult, ErrorObject> {
        let agents = &self.inner.agents;
        let connection = self.connection().ok_or_else(|| {
            ErrorObject::new(code::INTERNAL_ERROR, "the agent's connection is gone")
        })?;
        // A stateless agent over HTTP has no session: it is listed among the connected
        // agents while it listens, and a disconnect ends this. (Over the bridge the
        // connection is listed already.)
        let attached = self.inner.connection.get().is_some();
        let by_token = self.inner.caller.via == Via::Http;
        let _held = (!attached).then(|| agents.session_opened(self.agent(), &connection, by_token));
        drop(connection);
        // Taken before the acknowledgement, so that no change after it is missed.
        let mut updates = agents.updates();
        let follows = Subscriptions::new(agents.clone());
        let offers = self.offers()?;
        let mut followed = Vec::new();
        for uri in wanted.resource_subscriptions.iter().flatten() {
            if follows
                .subscribe(self.agent(), &offers, uri, self.token())
                .await
                .is_ok()
            {
                followed.push(uri.clone());
            }
        }
        let on = |asked: Option<bool>| (asked == Some(true)).then_some(true);
        let honoured = SubscriptionFilter {
            tools_list_changed: on(wanted.tools_list_changed),
            prompts_list_changed: on(wanted.prompts_list_changed),
            resources_list_changed: on(wanted.resources_list_changed),
            resource_subscriptions: wanted.resource_subscriptions.as_ref().map(|_| followed),
        };
        let tag = json!({ meta_key::SUBSCRIPTION_ID: id });
        let notice = |mut params: Value| {
            params["_meta"] = tag.clone();
            Some(params)
        };
        let acknowledged = json!({"notifications": honoured});
        if !self
            .tell(method::SUBSCRIPTIONS_ACKNOWLEDGED, notice(acknowledged))
            .await
        {
            return Ok(SubscriptionsListenResult::default());
        }
        let mut seen = self.seen_now();
        loop {
            let update = updates.recv().await;
            if agents.config(self.agent()).is_none() {
                break;
            }
            let told = match update {
                Ok(Update::ResourceUpdated { server, uri }) => {
                    match follows.notice(self.agent(), &server, &uri) {
                        Some(updated) => {
                            self.tell(method::RESOURCES_UPDATED, notice(updated)).await
                        }
                        None => true,
                    }
                }
                _ if may_change_offers(&update) => {
                    let now = self.seen_now();
                    let before = std::mem::replace(&mut seen, now);
                    let mut told = true;
                    for method in changed(&honoured, before, now) {
                        told &= self.tell(method, notice(json!({}))).await;
                    }
                    told
                }
                Ok(_) => true,
                // Closed (a lag is taken as a change, above).
                Err(_) => break,
            };
            if !told {
                break;
            }
        }
        Ok(SubscriptionsListenResult {
            meta: tag.as_object().cloned(),
            ..SubscriptionsListenResult::default()
        })
    }

    /// Sends a notice on the agent's connection; false once it is gone.
    async fn tell(&self, method: &str, params: Option<Value>) -> bool {
        match self.connection() {
            Some(connection) => connection.notify(method, params).await.is_ok(),
            None => false,
        }
    }
}

/// The list changes the filter asked for between two fingerprints.
fn changed(filter: &SubscriptionFilter, before: Seen, now: Seen) -> Vec<&'static str> {
    [
        (
            filter.tools_list_changed,
            before.tools != now.tools,
            method::TOOLS_LIST_CHANGED,
        ),
        (
            filter.prompts_list_changed,
            before.prompts != now.prompts,
            method::PROMPTS_LIST_CHANGED,
        ),
        (
            filter.resources_list_changed,
            before.resources != now.resources,
            method::RESOURCES_LIST_CHANGED,
        ),
    ]
    .into_iter()
    .filter(|(asked, changed, _)| *asked == Some(true) && *changed)
    .map(|(_, _, method)| method)
    .collect()
}
