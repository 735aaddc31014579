//! What each server's replies without review may spend (see
//! [`crate::config::SamplingLimits`]): replies in the last minute, tokens in the last hour,
//! replies being written at once. A reply over any of them goes to the person instead.
//!
//! A reply counts against the minute when it begins. Against the hour it counts the tokens
//! it may take (its `maxTokens`) from when it begins, then what the provider says it took,
//! read and written, once it is done (or still its `maxTokens`, if the provider said
//! nothing). The windows slide, on tokio's clock.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;

use tokio::time::Instant;

use crate::config::SamplingLimits;
use crate::recent::{HOUR, MINUTE, Recent};

/// Why a reply cannot go without review now, as the audit trail says it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OverBudget {
    #[error(
        "{limit} replies without review are being written already, the most at once \
         (settings.samplingLimits.repliesAtOnce)"
    )]
    AtOnce { limit: u32 },
    #[error(
        "the budget of replies without review is spent: {limit} in the last minute \
         (settings.samplingLimits.requestsPerMinute)"
    )]
    PerMinute { limit: u32 },
    #[error(
        "the budget of tokens without review is spent: {spent} of its {limit} tokens in the \
         last hour, and this request may take {asked} (settings.samplingLimits.tokensPerHour)"
    )]
    PerHour { spent: u64, limit: u64, asked: u64 },
}

/// Every server's spending, shared by the handlers of all servers: a server that restarts
/// finds its spending as it left it.
#[derive(Clone, Default)]
pub struct Budgets(Arc<Mutex<HashMap<String, Spent>>>);

struct Spent {
    /// The replies of the last minute, by when each began.
    began: Recent,
    /// The tokens of each reply of the last hour, by when it began: (reply, tokens).
    tokens: Recent<(u64, u64)>,
    writing: u32,
    next: u64,
}

impl Default for Spent {
    fn default() -> Self {
        Self {
            began: Recent::new(MINUTE),
            tokens: Recent::new(HOUR),
            writing: 0,
            next: 0,
        }
    }
}

impl Spent {
    fn forget_before(&mut self, now: Instant) {
        self.began.slide(now);
        self.tokens.slide(now);
    }
}

impl Budgets {
    /// A reply to `server` that may take `max_tokens`, if its budget allows one now: the
    /// permit counts it as being written until dropped.
    pub fn admit(
        &self,
        server: &str,
        limits: &SamplingLimits,
        max_tokens: u32,
    ) -> Result<Permit, OverBudget> {
        let now = Instant::now();
        let mut all = self.0.lock();
        let spent = all.entry(server.to_owned()).or_default();
        spent.forget_before(now);
        if spent.writing >= limits.replies_at_once {
            return Err(OverBudget::AtOnce {
                limit: limits.replies_at_once,
            });
        }
        if spent
            .began
            .full(limits.requests_per_minute as usize, now)
            .is_some()
        {
            return Err(OverBudget::PerMinute {
                limit: limits.requests_per_minute,
            });
        }
        let asked = u64::from(max_tokens);
        let tokens: u64 = spent.tokens.carried().map(|(_, n)| n).sum();
        if tokens.saturating_add(asked) > limits.tokens_per_hour {
            return Err(OverBudget::PerHour {
                spent: tokens,
                limit: limits.tokens_per_hour,
                asked,
            });
        }
        spent.next += 1;
        let reply = spent.next;
        spent.began.push(now, ());
        spent.tokens.push(now, (reply, asked));
        spent.writing += 1;
        Ok(Permit {
            budgets: self.clone(),
            server: server.to_owned(),
            reply,
        })
    }
}

/// One reply being written without review, within its server's budget.
pub struct Permit {
    budgets: Budgets,
    server: String,
    reply: u64,
}

impl Permit {
    /// The reply took `tokens` (read and written), as the provider counted them.
    pub fn took(&self, tokens: u64) {
        let mut all = self.budgets.0.lock();
        let entry = all.get_mut(&self.server).and_then(|spent| {
            spent
                .tokens
                .carried_mut()
                .find(|(reply, _)| *reply == self.reply)
        });
        if let Some((_, counted)) = entry {
            *counted = tokens;
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if let Some(spent) = self.budgets.0.lock().get_mut(&self.server) {
            spent.writing = spent.writing.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn limits(per_minute: u32, per_hour: u64, at_once: u32) -> SamplingLimits {
        SamplingLimits {
            requests_per_minute: per_minute,
            tokens_per_hour: per_hour,
            replies_at_once: at_once,
            ..SamplingLimits::default()
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_minutes_replies_are_counted_for_a_minute_and_for_their_server_alone() {
        let budgets = Budgets::default();
        let limits = limits(2, 1_000_000, 5);
        for _ in 0..2 {
            drop(budgets.admit("a", &limits, 10).unwrap());
            tokio::time::advance(Duration::from_secs(20)).await;
        }
        assert_eq!(
            budgets.admit("a", &limits, 10).err(),
            Some(OverBudget::PerMinute { limit: 2 })
        );
        assert!(
            budgets.admit("b", &limits, 10).is_ok(),
            "another server's own"
        );
        // A minute after the first began, one more may go.
        tokio::time::advance(Duration::from_secs(20)).await;
        assert!(budgets.admit("a", &limits, 10).is_ok());
        assert!(budgets.admit("a", &limits, 10).is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn an_hours_tokens_count_what_each_reply_took_once_it_is_done() {
        let budgets = Budgets::default();
        let limits = limits(1_000, 1_000, 5);
        let first = budgets.admit("a", &limits, 600).unwrap();
        // While it is written, it may take all it asked for.
        assert_eq!(
            budgets.admit("a", &limits, 500).err(),
            Some(OverBudget::PerHour {
                spent: 600,
                limit: 1_000,
                asked: 500
            })
        );
        first.took(300);
        drop(first);
        tokio::time::advance(Duration::from_secs(30 * 60)).await;
        let second = budgets.admit("a", &limits, 500).unwrap();
        second.took(650);
        drop(second);
        assert!(budgets.admit("a", &limits, 100).is_err(), "950 of 1000");
        // An hour after the first began, its 300 tokens are free again.
        tokio::time::advance(Duration::from_secs(30 * 60)).await;
        assert!(budgets.admit("a", &limits, 300).is_ok());
    }

    #[tokio::test(start_paused = true)]
    async fn replies_being_written_at_once_are_bounded_until_one_is_done() {
        let budgets = Budgets::default();
        let limits = limits(1_000, 1_000_000, 2);
        let first = budgets.admit("a", &limits, 10).unwrap();
        let _second = budgets.admit("a", &limits, 10).unwrap();
        assert_eq!(
            budgets.admit("a", &limits, 10).err(),
            Some(OverBudget::AtOnce { limit: 2 })
        );
        drop(first);
        assert!(budgets.admit("a", &limits, 10).is_ok());
    }
}
