//! An agent's subscriptions to resources through the gateway (`resources/subscribe`,
//! `resources/unsubscribe`): each is taken at the server that offers the resource, shared
//! with the window and other agents following it (the desk asks the server once and tells
//! it to stop when the last lets go), and its `notifications/resources/updated` reach only
//! the sessions that subscribed. A session that ends lets go of all of its own.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};
use switchboard_mcp::jsonrpc::{ErrorObject, code};

use crate::{names, refusal};
use switchboard_core::catalog::Offer;
use switchboard_core::reads::Read;
use switchboard_desk::{Agents, Follower};

/// Numbers the sessions, each a follower of its own.
static SESSIONS: AtomicU64 = AtomicU64::new(0);

/// What one session follows.
pub(super) struct Subscriptions {
    agents: Agents,
    who: Follower,
}

impl Subscriptions {
    pub(super) fn new(agents: Agents) -> Self {
        Self {
            agents,
            who: Follower::Session(SESSIONS.fetch_add(1, Ordering::Relaxed)),
        }
    }

    /// Follows `uri` at the first server the agent may use that offers it and takes
    /// subscriptions, once the agent may read it there (meanwhile a read under way named
    /// `token`).
    pub(super) async fn subscribe(
        &self,
        agent: &str,
        offers: &[(String, Offer)],
        uri: &str,
        token: String,
    ) -> Result<(), ErrorObject> {
        let mut refused = None;
        for server in names::owners_of_uri(offers, uri) {
            let takes = self.agents.running_client(&server).is_ok_and(|client| {
                client
                    .capabilities()
                    .resources
                    .as_ref()
                    .and_then(|r| r.subscribe)
                    == Some(true)
            });
            if !takes {
                continue;
            }
            let read = Read::Subscription {
                uri: uri.to_owned(),
            };
            // Following a resource reads it at each change: asked about as a read is.
            let allowed = self
                .agents
                .read(agent, &server, read, token.clone(), |_| async { Ok(()) })
                .await;
            if let Err(e) = allowed {
                return Err(refusal(e));
            }
            match self.agents.follow(self.who, &server, uri).await {
                Ok(()) => return Ok(()),
                Err(e) => refused = Some(refusal(e)),
            }
        }
        Err(refused.unwrap_or_else(|| {
            ErrorObject::new(
                code::RESOURCE_NOT_FOUND,
                format!("no server {agent} may use offers updates of {uri}"),
            )
        }))
    }

    /// Stops following `uri`, wherever it was followed; unknown, it is no error.
    pub(super) async fn unsubscribe(&self, uri: &str) -> Result<(), ErrorObject> {
        for (server, followed) in self.agents.followed_by(self.who) {
            if followed == uri {
                self.agents
                    .unfollow(self.who, &server, uri)
                    .await
                    .map_err(refusal)?;
            }
        }
        Ok(())
    }

    /// The notice for the agent of an update of `uri` from `server`, if it subscribed to it
    /// there and may still use the server.
    pub(super) fn notice(&self, agent: &str, server: &str, uri: &str) -> Option<Value> {
        let reaches = self
            .agents
            .config(agent)
            .is_some_and(|config| config.reaches(server));
        (reaches && self.agents.follows(self.who, server, uri)).then(|| json!({"uri": uri}))
    }
}

impl Drop for Subscriptions {
    fn drop(&mut self) {
        if self.agents.followed_by(self.who).is_empty() {
            return;
        }
        let (agents, who) = (self.agents.clone(), self.who);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { agents.unfollow_all(who).await });
        }
    }
}
