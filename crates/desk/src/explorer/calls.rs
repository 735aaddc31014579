//! The calls under way, the person's, the models' and the agents', as the activity view
//! lists them.

use parking_lot::Mutex;
use std::collections::HashMap;

use tokio_util::sync::CancellationToken;

use super::{Explorer, ProgressItem};
use crate::Update;
use switchboard_core::approvals::Serving;

/// The calls under way, each with its cancel switch.
#[derive(Default)]
pub struct Calls {
    running: Mutex<HashMap<String, Call>>,
}

struct Call {
    cancel: CancellationToken,
    item: ProgressItem,
    /// Who makes it, and the tool it calls.
    by: Serving,
    /// Whether it was allowed and went to its server. Until then the server knows nothing
    /// of it: what the server asks meanwhile is not part of it.
    served: bool,
}

impl Calls {
    /// The calls `server` is serving now, oldest first: a request that server makes now
    /// is likely part of one of them, and whoever made it waits on it. A call still
    /// waiting for a decision does not count, or a server could bring its questions
    /// forward by having a call put to the person.
    pub(crate) fn served_by(&self, server: &str) -> Vec<Serving> {
        let running = self.running.lock();
        let mut served: Vec<&Call> = running
            .values()
            .filter(|call| call.served && call.item.server == server)
            .collect();
        served.sort_by_key(|served| served.item.started_ms);
        served.into_iter().map(|call| call.by.clone()).collect()
    }

    /// The tokens of the calls `server` is serving now.
    fn tokens_to(&self, server: &str) -> Vec<String> {
        self.running
            .lock()
            .iter()
            .filter(|(_, call)| call.served && call.item.server == server)
            .map(|(token, _)| token.clone())
            .collect()
    }

    pub(super) fn cancel_of(&self, token: &str) -> Option<CancellationToken> {
        self.running
            .lock()
            .get(token)
            .map(|call| call.cancel.clone())
    }
}

impl Explorer {
    /// The tokens of the calls `server` is serving now.
    pub(crate) fn calls_served_by(&self, server: &str) -> Vec<String> {
        self.calls.tokens_to(server)
    }

    /// The calls under way, oldest first, whether or not their servers tell how far along
    /// they are, and those still waiting for a decision.
    pub fn calls_in_flight(&self) -> Vec<ProgressItem> {
        let mut items: Vec<ProgressItem> = self
            .calls
            .running
            .lock()
            .values()
            .map(|call| call.item.clone())
            .collect();
        items.sort_by_key(|item| item.started_ms);
        items
    }

    /// Lists a call as under way, cancelled by `cancel`; it waits for a decision until
    /// [`Self::call_served`].
    pub(crate) fn call_began(&self, item: ProgressItem, by: Serving, cancel: CancellationToken) {
        let call = Call {
            cancel,
            item: item.clone(),
            by,
            served: false,
        };
        self.calls.running.lock().insert(item.token.clone(), call);
        self.host.announce(Update::Progress { item });
    }

    /// The call was allowed and goes to its server.
    pub(crate) fn call_served(&self, token: &str) {
        if let Some(call) = self.calls.running.lock().get_mut(token) {
            call.served = true;
        }
    }

    pub(crate) fn call_progressed(
        &self,
        token: &str,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) {
        let item = self.calls.running.lock().get_mut(token).map(|call| {
            call.item.progress = progress;
            call.item.total = total;
            call.item.message = message;
            call.item.clone()
        });
        if let Some(item) = item {
            self.host.announce(Update::Progress { item });
        }
    }

    pub(crate) fn call_ended(&self, token: &str) {
        if self.calls.running.lock().remove(token).is_some() {
            self.host.announce(Update::ProgressEnded {
                token: token.to_owned(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use switchboard_core::decisions::Origin;

    fn call(server: &str, origin: Origin) -> Call {
        Call {
            cancel: CancellationToken::new(),
            item: ProgressItem {
                token: "t".into(),
                server: server.into(),
                label: "Delete a note".into(),
                read: None,
                progress: 0.0,
                total: None,
                message: None,
                started_ms: 0,
            },
            by: Serving {
                origin,
                call: "delete_note".into(),
                read: None,
            },
            served: false,
        }
    }

    #[test]
    fn a_call_counts_as_served_only_once_allowed() {
        let calls = Calls::default();
        let agent = Origin::Agent {
            name: "Cursor".into(),
        };
        calls
            .running
            .lock()
            .insert("t".into(), call("notes", agent.clone()));
        // Waiting for the person: what the server asks now is none of its business, and
        // comes forward for no one.
        assert!(calls.served_by("notes").is_empty());
        assert!(calls.tokens_to("notes").is_empty());
        calls.running.lock().get_mut("t").unwrap().served = true;
        assert_eq!(
            calls.served_by("notes"),
            [Serving {
                origin: agent,
                call: "delete_note".into(),
                read: None,
            }]
        );
        assert!(calls.served_by("other").is_empty());
    }
}
