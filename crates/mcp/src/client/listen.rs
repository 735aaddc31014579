//! `subscriptions/listen` (2026-07-28): one long-lived request whose answer stream carries
//! the change notifications the client opted in to (list changes, updates of subscribed
//! resources). They reach the handler's `notification` as in the stateful era. The
//! stream is opened again when it ends (after a pause that grows while it keeps ending
//! quickly), and when the filter changes (a resource subscribed or unsubscribed).

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Map, Value};
use tokio::sync::watch;
use tokio_util::sync::{CancellationToken, DropGuard};

use super::stamp::Stamp;
use crate::connection::{RequestError, RequestOptions, WeakConnection};
use crate::jsonrpc::{RequestId, code};
use crate::types::{ServerCapabilities, SubscriptionFilter, meta_key, method};

/// A stream that lived this long was not failing: the pause before the next starts over.
const HEALTHY: Duration = Duration::from_secs(30);
const FIRST_PAUSE: Duration = Duration::from_millis(500);
const LONGEST_PAUSE: Duration = Duration::from_secs(60);
/// A listen request stays open as long as the server keeps it; this only bounds the wait.
const FOREVER: Duration = Duration::from_secs(365 * 24 * 3600);

/// Where the stream stands: which opening is current, and what the server acknowledged
/// on it. The acknowledgement arrives as a notification, through the dispatcher.
#[derive(Debug, Clone, Default)]
pub(crate) struct Status {
    opening: u64,
    /// The id of the current opening's request, which its acknowledgement names.
    request: Option<i64>,
    acknowledged: Option<(u64, SubscriptionFilter)>,
    /// The server has no `subscriptions/listen`: nothing will be acknowledged.
    refused: bool,
}

impl Status {
    /// Notes the acknowledgement of the current opening: one that names another request
    /// (a stream closed since, whose acknowledgement crossed its cancellation) says nothing
    /// of what the current stream carries. One that names none is the current one's; a
    /// server that leaves the name out leaves nothing to tell them apart by.
    pub(crate) fn acknowledge(&mut self, filter: SubscriptionFilter, names: Option<RequestId>) {
        if let Some(names) = names
            && Some(&names) != self.request.map(RequestId::Number).as_ref()
        {
            tracing::debug!(%names, "an acknowledgement of a listen stream no longer open");
            return;
        }
        self.acknowledged = Some((self.opening, filter));
    }
}

/// Why a stream was not acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unacknowledged {
    /// The server has no `subscriptions/listen`.
    Refused,
    /// Not within the patience given.
    NotInTime,
}

/// What the client holds of its listener; the listener stops when the last clone of the
/// client goes.
pub(super) struct Listener {
    /// The filter wanted, and how many times it changed.
    wanted: watch::Sender<(u64, SubscriptionFilter)>,
    status: watch::Receiver<Status>,
    _stop: DropGuard,
}

/// The filter a client opts in to at first: every list change the server says it sends.
pub(super) fn initial_filter(capabilities: &ServerCapabilities) -> SubscriptionFilter {
    let flag = |on: bool| on.then_some(true);
    SubscriptionFilter {
        tools_list_changed: flag(capabilities.notifies_tools_changed()),
        prompts_list_changed: flag(capabilities.notifies_prompts_changed()),
        resources_list_changed: flag(capabilities.notifies_resources_changed()),
        resource_subscriptions: None,
    }
}

impl Listener {
    pub(super) fn start(
        connection: WeakConnection,
        stamp: Arc<Stamp>,
        filter: SubscriptionFilter,
        status: watch::Sender<Status>,
    ) -> Self {
        let (wanted, wanted_rx) = watch::channel((0, filter));
        let stop = CancellationToken::new();
        let receiver = status.subscribe();
        tokio::spawn(run(connection, stamp, wanted_rx, status, stop.clone()));
        Self {
            wanted,
            status: receiver,
            _stop: stop.drop_guard(),
        }
    }

    /// Adds or removes a resource whose updates the stream carries, and waits (up to
    /// `patience`) until the server acknowledged the stream opened for it. Whether the
    /// server honours the URI is its choice: the acknowledged filter says.
    pub(super) async fn resource(
        &self,
        uri: &str,
        subscribed: bool,
        patience: Duration,
    ) -> Result<SubscriptionFilter, Unacknowledged> {
        self.wanted.send_if_modified(|(generation, filter)| {
            let uris = filter.resource_subscriptions.get_or_insert_with(Vec::new);
            let present = uris.iter().any(|u| u == uri);
            match (subscribed, present) {
                (true, false) => uris.push(uri.to_owned()),
                (false, true) => uris.retain(|u| u != uri),
                _ => return false,
            }
            *generation += 1;
            true
        });
        let (generation, wanted) = self.wanted.borrow().clone();
        if wanted.is_empty() {
            return Ok(wanted);
        }
        let mut status = self.status.clone();
        let settled = status.wait_for(|s| {
            s.refused
                || s.acknowledged
                    .as_ref()
                    .is_some_and(|(g, _)| *g >= generation)
        });
        match tokio::time::timeout(patience, settled).await {
            Ok(Ok(status)) if status.refused => Err(Unacknowledged::Refused),
            Ok(Ok(status)) => status
                .acknowledged
                .as_ref()
                .map(|(_, filter)| filter.clone())
                .ok_or(Unacknowledged::NotInTime),
            _ => Err(Unacknowledged::NotInTime),
        }
    }

    /// What the server agreed to send on the open stream; `None` while none is open.
    pub(super) fn acknowledged(&self) -> Option<SubscriptionFilter> {
        self.status
            .borrow()
            .acknowledged
            .as_ref()
            .map(|(_, f)| f.clone())
    }

    /// Waits until a stream is open and acknowledged, up to `patience`.
    pub(super) async fn wait_acknowledged(&self, patience: Duration) -> Option<SubscriptionFilter> {
        let mut status = self.status.clone();
        let settled = status.wait_for(|s| s.refused || s.acknowledged.is_some());
        match tokio::time::timeout(patience, settled).await {
            Ok(Ok(status)) => status.acknowledged.as_ref().map(|(_, f)| f.clone()),
            _ => None,
        }
    }
}

async fn run(
    connection: WeakConnection,
    stamp: Arc<Stamp>,
    mut wanted: watch::Receiver<(u64, SubscriptionFilter)>,
    status: watch::Sender<Status>,
    stop: CancellationToken,
) {
    let mut pause = FIRST_PAUSE;
    loop {
        let (generation, filter) = wanted.borrow_and_update().clone();
        status.send_modify(|s| {
            s.opening = generation;
            s.request = None;
            s.acknowledged = None;
        });
        if filter.is_empty() {
            tokio::select! {
                changed = wanted.changed() => if changed.is_err() { return },
                () = stop.cancelled() => return,
            }
            continue;
        }
        let Some(live) = connection.upgrade() else {
            return;
        };
        let mut params = Map::new();
        params.insert(
            "notifications".into(),
            serde_json::to_value(&filter).unwrap_or_default(),
        );
        let Ok(params) = stamp.stamp(&params) else {
            return;
        };
        let cancel = CancellationToken::new();
        let options = RequestOptions {
            timeout: FOREVER,
            max_total: None,
            cancel: Some(cancel.clone()),
            ..RequestOptions::default()
        };
        let opened = tokio::time::Instant::now();
        let id = live.reserve_id();
        status.send_modify(|s| s.request = Some(id));
        // The stream holds the connection only while the client lives (`stop`).
        let request = async move {
            live.request_as(id, method::SUBSCRIPTIONS_LISTEN, Some(params), options)
                .await
        };
        tokio::pin!(request);
        let outcome = tokio::select! {
            outcome = &mut request => Some(outcome),
            changed = wanted.changed() => {
                cancel.cancel();
                let _ = request.await;
                if changed.is_err() { return }
                pause = FIRST_PAUSE;
                None
            }
            () = stop.cancelled() => {
                cancel.cancel();
                let _ = request.await;
                return;
            }
        };
        let Some(outcome) = outcome else { continue };
        match outcome {
            Err(RequestError::Closed(_)) => return,
            Err(RequestError::Server { error, .. }) if error.code == code::METHOD_NOT_FOUND => {
                tracing::info!("the server has no subscriptions/listen: {}", error.message);
                status.send_modify(|s| s.refused = true);
                return;
            }
            Ok(_) => tracing::debug!("the server ended the subscription"),
            Err(error) => tracing::info!("the subscription stream ended: {error}"),
        }
        status.send_modify(|s| s.acknowledged = None);
        if opened.elapsed() >= HEALTHY {
            pause = FIRST_PAUSE;
        }
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = stop.cancelled() => return,
        }
        pause = (pause * 2).min(LONGEST_PAUSE);
    }
}

/// The filter a `notifications/subscriptions/acknowledged` carries, and the listen
/// request it names (`_meta` `subscriptionId`).
pub(super) fn acknowledged(params: Option<&Value>) -> (SubscriptionFilter, Option<RequestId>) {
    let filter = params
        .and_then(|p| p.get("notifications"))
        .and_then(|n| serde_json::from_value(n.clone()).ok())
        .unwrap_or_default();
    let names = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(meta_key::SUBSCRIPTION_ID))
        .and_then(|id| RequestId::deserialize(id).ok());
    (filter, names)
}
