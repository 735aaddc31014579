//! An optional witness of every JSON-RPC message a connection sends and receives, for a
//! traffic view. It is a bounded channel rather than a callback so that whatever the
//! observer does (encode, parse, store, mask) runs on its own task: the connection only
//! tries to queue a copy, and when the observer is behind the copy is dropped and counted.
//! With no observer, nothing is copied at all. A received message is handed over as read
//! and encoded by the observer: encoding on the connection's task would slow every server
//! that sends large messages fast, with nobody looking.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use tokio::sync::mpsc;

use crate::jsonrpc::Message;

/// Which way a message went, seen from this side of the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Sent,
    Received,
}

/// One message as it crossed the connection.
#[derive(Debug, Clone, PartialEq)]
pub struct Observed {
    pub direction: Direction,
    pub at: SystemTime,
    pub message: Seen,
}

/// A message as the observer gets it: the text sent, or the message read.
#[derive(Debug, Clone, PartialEq)]
pub enum Seen {
    Text(String),
    Read(Box<Message>),
}

impl Observed {
    /// The message's JSON text (a received one as the connection read it, re-encoded).
    pub fn json(self) -> String {
        match self.message {
            Seen::Text(text) => text,
            Seen::Read(message) => message.to_json(),
        }
    }
}

/// The connection's end of an observer: cheap to clone, never waits.
#[derive(Debug, Clone)]
pub struct TrafficObserver {
    sink: mpsc::Sender<Observed>,
    dropped: Arc<AtomicU64>,
}

/// The observer's end: the messages, and how many were dropped because it fell behind.
#[derive(Debug)]
pub struct TrafficReceiver {
    source: mpsc::Receiver<Observed>,
    dropped: Arc<AtomicU64>,
}

/// A new observer whose receiver holds at most `capacity` messages not yet taken.
pub fn observer(capacity: usize) -> (TrafficObserver, TrafficReceiver) {
    let (sink, source) = mpsc::channel(capacity.max(1));
    let dropped = Arc::new(AtomicU64::new(0));
    (
        TrafficObserver {
            sink,
            dropped: dropped.clone(),
        },
        TrafficReceiver { source, dropped },
    )
}

impl TrafficObserver {
    /// Offers a copy of a message; `json` is only called when someone still listens.
    pub(crate) fn see(&self, direction: Direction, message: impl FnOnce() -> Seen) {
        if self.sink.is_closed() {
            return;
        }
        // A recorder that is behind gets no copy, and costs the connection no encoding.
        if self.sink.capacity() == 0 {
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let observed = Observed {
            direction,
            at: SystemTime::now(),
            message: message(),
        };
        if let Err(mpsc::error::TrySendError::Full(_)) = self.sink.try_send(observed) {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl TrafficReceiver {
    /// The next message; `None` once the connection is gone and every message was taken.
    pub async fn recv(&mut self) -> Option<Observed> {
        self.source.recv().await
    }

    /// How many messages were dropped so far because the receiver was full.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

/// Offers a message to an observer, if there is one.
pub(crate) fn see(
    observer: Option<&TrafficObserver>,
    direction: Direction,
    message: impl FnOnce() -> Seen,
) {
    if let Some(observer) = observer {
        observer.see(direction, message);
    }
}
