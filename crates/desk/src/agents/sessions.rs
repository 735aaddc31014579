//! The agents' live sessions with the gateway: counted while each is held, listed by
//! agent, and ended when the person disconnects an agent, removes it or renews its token.

use std::sync::Weak;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;
use switchboard_mcp::connection::{Connection, WeakConnection};

use super::{Agents, AgentsHost, Own};

#[derive(Default)]
pub(super) struct Sessions {
    live: Mutex<Vec<Live>>,
    next: AtomicU64,
}

struct Live {
    id: u64,
    agent: String,
    connection: WeakConnection,
    /// Opened with the agent's token (over HTTP), not through the bridge.
    by_token: bool,
}

impl Sessions {
    /// The agent of each live session.
    pub(super) fn agents(&self) -> Vec<String> {
        self.live.lock().iter().map(|l| l.agent.clone()).collect()
    }
}

/// A session counted as live while this is held (by the session itself).
pub struct SessionHeld {
    own: Weak<Own>,
    host: Weak<dyn AgentsHost>,
    id: u64,
}

impl Drop for SessionHeld {
    fn drop(&mut self) {
        if let Some(own) = self.own.upgrade() {
            own.sessions.live.lock().retain(|live| live.id != self.id);
        }
        if let Some(host) = self.host.upgrade() {
            host.agents_changed();
        }
    }
}

impl Agents {
    /// Counts a gateway session of `agent` as live until the returned value is dropped;
    /// `by_token`: opened with its token (over HTTP), which renewing it ends.
    pub fn session_opened(
        &self,
        agent: &str,
        connection: &Connection,
        by_token: bool,
    ) -> SessionHeld {
        let sessions = &self.own.sessions;
        let id = sessions.next.fetch_add(1, Ordering::Relaxed);
        sessions.live.lock().push(Live {
            id,
            agent: agent.to_owned(),
            connection: connection.downgrade(),
            by_token,
        });
        self.host.agents_changed();
        SessionHeld {
            own: std::sync::Arc::downgrade(&self.own),
            host: std::sync::Arc::downgrade(&self.host),
            id,
        }
    }

    /// Ends every session `agent` has with the gateway now; it may connect again (unless it
    /// was removed). How many were ended.
    pub async fn disconnect(&self, agent: &str) -> usize {
        self.end_sessions(agent, false).await
    }

    /// Ends `agent`'s sessions (only those opened with its token, `by_token`); how many.
    pub(super) async fn end_sessions(&self, agent: &str, by_token: bool) -> usize {
        let ending: Vec<Connection> = self
            .own
            .sessions
            .live
            .lock()
            .iter()
            .filter(|live| live.agent == agent && (live.by_token || !by_token))
            .filter_map(|live| live.connection.upgrade())
            .collect();
        for connection in &ending {
            connection.close().await;
        }
        ending.len()
    }
}
