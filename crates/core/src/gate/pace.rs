//! How often standing decisions let an agent through: a rule (or the person's trust in a
//! server) allows without asking, so nothing else paces the calls and reads it allows.
//! Each agent may have `settings.agentCallsPerMinute` of them allowed per server in any
//! minute; beyond, they are refused at once, with the reason, until the minute has passed.
//! The minute slides, on tokio's clock. Only the first refusal of a run is recorded: an
//! agent that keeps on asking cannot flood the audit trail with its refusals.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use tokio::time::Instant;

use crate::decisions::DecidedBy;
use crate::recent::{MINUTE, Recent};

/// Why a call or read a standing decision allowed was refused all the same.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "standing rules let agent {agent} through to {server} {limit} times in the last minute, \
     the most settings.agentCallsPerMinute allows; try again in {} s",
    retry_after.as_secs().max(1)
)]
pub struct TooFrequent {
    pub agent: String,
    pub server: String,
    pub limit: u32,
    /// When the oldest of the minute's calls leaves it.
    pub retry_after: Duration,
    /// The first refusal since the agent was last let through to the server: the one the
    /// audit trail records.
    pub first: bool,
}

impl TooFrequent {
    /// Who decided, as the audit trail records it.
    pub fn decided_by(&self) -> DecidedBy {
        DecidedBy::Pace { limit: self.limit }
    }
}

/// The calls and reads standing decisions allowed lately, by agent and server.
#[derive(Debug)]
pub struct Pace {
    per_minute: AtomicU32,
    allowed: Mutex<HashMap<(String, String), Lately>>,
}

/// One agent's calls and reads of one server lately.
#[derive(Debug)]
struct Lately {
    /// When each of the last minute's was let through.
    times: Recent,
    /// Whether the last one was refused.
    refusing: bool,
}

impl Default for Lately {
    fn default() -> Self {
        Self {
            times: Recent::new(MINUTE),
            refusing: false,
        }
    }
}

impl Default for Pace {
    fn default() -> Self {
        Self::new(crate::config::DEFAULT_AGENT_CALLS_PER_MINUTE)
    }
}

impl Pace {
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_minute: AtomicU32::new(per_minute),
            allowed: Mutex::default(),
        }
    }

    /// Takes up the limit of the settings as they are now.
    pub fn set_per_minute(&self, per_minute: u32) {
        self.per_minute.store(per_minute, Ordering::Relaxed);
    }

    /// Counts one more of `agent`'s calls or reads of `server` that a standing decision
    /// allowed, unless the minute's are all taken.
    pub fn admit(&self, agent: &str, server: &str) -> Result<(), TooFrequent> {
        let limit = self.per_minute.load(Ordering::Relaxed);
        let now = Instant::now();
        let mut allowed = self.allowed.lock();
        // Only the pairs still in their minute are kept.
        allowed.retain(|_, lately| lately.times.slide(now));
        let lately = allowed
            .entry((agent.to_owned(), server.to_owned()))
            .or_default();
        if let Err(retry_after) = lately.times.admit(limit as usize, now) {
            let first = !std::mem::replace(&mut lately.refusing, true);
            return Err(TooFrequent {
                agent: agent.to_owned(),
                server: server.to_owned(),
                limit,
                retry_after,
                first,
            });
        }
        lately.refusing = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn each_agent_has_its_limit_per_server_for_a_sliding_minute() {
        let pace = Pace::new(2);
        pace.admit("Cursor", "demo").unwrap();
        tokio::time::advance(Duration::from_secs(20)).await;
        pace.admit("Cursor", "demo").unwrap();
        let refused = pace.admit("Cursor", "demo").unwrap_err();
        assert_eq!(refused.retry_after, Duration::from_secs(40));
        assert!(
            refused.to_string().contains("try again in 40 s"),
            "{refused}"
        );
        // Another server, another agent: a count of their own.
        pace.admit("Cursor", "files").unwrap();
        pace.admit("Claude Code", "demo").unwrap();
        tokio::time::advance(Duration::from_secs(40)).await;
        pace.admit("Cursor", "demo").unwrap();
        assert!(pace.admit("Cursor", "demo").unwrap_err().first, "a new run");
        pace.set_per_minute(3);
        pace.admit("Cursor", "demo").unwrap();
    }
}
