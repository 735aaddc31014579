//! When a session is over without a DELETE: left idle for the server's idle time (nothing in
//! flight, no stream open), ended by its handler (its connection closed), or refused at its
//! `initialize`. Clients that go away without a DELETE (the TypeScript SDK's `close()` sends
//! none) would otherwise leave a session behind at every restart.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use crate::connection::WeakConnection;

/// What decides whether a session is idle.
#[derive(Clone, Copy, Debug)]
pub struct State {
    /// Requests in flight and streams open.
    pub busy: usize,
    /// When the session was last used.
    pub since: Instant,
    /// Its `initialize` was answered with an error.
    pub refused: bool,
}

/// A session's use, watched by [`until_over`].
pub struct Activity(watch::Sender<State>);

impl Activity {
    pub fn new() -> Arc<Self> {
        Arc::new(Self(watch::Sender::new(State {
            busy: 0,
            since: Instant::now(),
            refused: false,
        })))
    }

    /// A request named the session.
    pub fn touch(&self) {
        self.0.send_modify(|state| state.since = Instant::now());
    }

    /// Holds the session in use until dropped (a request in flight, a stream open).
    pub fn busy(self: &Arc<Self>) -> Busy {
        self.0.send_modify(|state| state.busy += 1);
        Busy(self.clone())
    }

    pub fn refuse(&self) {
        self.0.send_modify(|state| state.refused = true);
    }

    pub fn is_refused(&self) -> bool {
        self.0.borrow().refused
    }

    /// Since when the session is idle; `None` while it is in use.
    pub fn idle_since(&self) -> Option<Instant> {
        let state = *self.0.borrow();
        (state.busy == 0).then_some(state.since)
    }

    pub fn watch(&self) -> watch::Receiver<State> {
        self.0.subscribe()
    }
}

pub struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.0.send_modify(|state| {
            state.busy = state.busy.saturating_sub(1);
            state.since = Instant::now();
        });
    }
}

/// Why a session is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Idle,
    Closed,
    Refused,
}

/// Waits until the session is over; `None` if it was dropped first (the server stopped).
pub async fn until_over(
    mut state: watch::Receiver<State>,
    connection: WeakConnection,
    idle: Duration,
) -> Option<End> {
    loop {
        let now = *state.borrow_and_update();
        if now.refused {
            return Some(End::Refused);
        }
        let expiry = async {
            match now.since.checked_add(idle) {
                Some(deadline) if now.busy == 0 => tokio::time::sleep_until(deadline).await,
                _ => std::future::pending().await,
            }
        };
        tokio::select! {
            () = expiry => return Some(End::Idle),
            () = connection.wait_closed() => return Some(End::Closed),
            changed = state.changed() => if changed.is_err() {
                return None;
            },
        }
    }
}
