//! The calls under way, the person's and the models', as the activity view lists them.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio_util::sync::CancellationToken;

use super::explore::ProgressItem;
use super::{Desk, Update, lock};

/// The calls under way, each with its cancel switch.
#[derive(Default)]
pub(super) struct Calls {
    running: Mutex<HashMap<String, Call>>,
}

struct Call {
    cancel: CancellationToken,
    item: ProgressItem,
}

impl Calls {
    /// Whether a call to `server` is under way: a request that server makes now is
    /// likely part of it, and the person waits on it.
    pub(super) fn any_to(&self, server: &str) -> bool {
        lock(&self.running)
            .values()
            .any(|call| call.item.server == server)
    }

    /// The tokens of the calls to `server` under way.
    pub(super) fn tokens_to(&self, server: &str) -> Vec<String> {
        lock(&self.running)
            .iter()
            .filter(|(_, call)| call.item.server == server)
            .map(|(token, _)| token.clone())
            .collect()
    }

    pub(super) fn cancel_of(&self, token: &str) -> Option<CancellationToken> {
        lock(&self.running)
            .get(token)
            .map(|call| call.cancel.clone())
    }
}

impl Desk {
    /// The calls under way, oldest first, whether or not their servers tell how far along
    /// they are, and those still waiting for a decision.
    pub fn calls_in_flight(&self) -> Vec<ProgressItem> {
        let mut items: Vec<ProgressItem> = lock(&self.inner.calls.running)
            .values()
            .map(|call| call.item.clone())
            .collect();
        items.sort_by(|a, b| a.started_ms.total_cmp(&b.started_ms));
        items
    }

    /// Lists a call as under way, cancelled by `cancel`.
    pub(super) fn call_began(&self, item: ProgressItem, cancel: CancellationToken) {
        let call = Call {
            cancel,
            item: item.clone(),
        };
        lock(&self.inner.calls.running).insert(item.token.clone(), call);
        self.announce(Update::Progress { item });
    }

    pub(super) fn call_progressed(
        &self,
        token: &str,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) {
        let item = lock(&self.inner.calls.running).get_mut(token).map(|call| {
            call.item.progress = progress;
            call.item.total = total;
            call.item.message = message;
            call.item.clone()
        });
        if let Some(item) = item {
            self.announce(Update::Progress { item });
        }
    }

    pub(super) fn call_ended(&self, token: &str) {
        if lock(&self.inner.calls.running).remove(token).is_some() {
            self.announce(Update::ProgressEnded {
                token: token.to_owned(),
            });
        }
    }
}
