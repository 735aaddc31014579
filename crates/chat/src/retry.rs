//! How often, and after how long, a provider's passing failure is tried again: a rate
//! limit (429) or an overloaded or failing provider (5xx), or a broken connection.

use std::time::Duration;

use switchboard_providers::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retry {
    /// Tries after the first, at most.
    pub attempts: u32,
    /// The wait before the first retry, doubled for each next one, when the provider did
    /// not say how long to wait.
    pub first_wait: Duration,
    /// The longest wait: a provider asking for longer ends the run with its message.
    pub longest_wait: Duration,
}

impl Default for Retry {
    /// Three more tries, after 1, 2 and 4 seconds (or what the provider asks, up to a
    /// minute).
    fn default() -> Self {
        Self {
            attempts: 3,
            first_wait: Duration::from_secs(1),
            longest_wait: Duration::from_secs(60),
        }
    }
}

impl Retry {
    /// How long to wait before try number `attempt` (1 for the first retry), or `None`
    /// to give up: the error does not pass, the tries are spent, or the provider asks
    /// for a longer wait than allowed.
    pub fn wait(&self, error: &Error, attempt: u32) -> Option<Duration> {
        if !error.is_transient() || attempt > self.attempts {
            return None;
        }
        let wait = error.retry_after().unwrap_or_else(|| {
            let doubled = 2u32.saturating_pow(attempt.saturating_sub(1));
            self.first_wait.saturating_mul(doubled)
        });
        (wait <= self.longest_wait).then_some(wait)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limited(retry_after: Option<u64>) -> Error {
        Error::RateLimited {
            message: "slow down".into(),
            retry_after: retry_after.map(Duration::from_secs),
        }
    }

    #[test]
    fn passing_errors_are_tried_again_a_bounded_number_of_times() {
        let retry = Retry::default();
        let failing = Error::Unavailable {
            status: Some(503),
            message: "busy".into(),
            retry_after: None,
        };
        let waits: Vec<Option<Duration>> = (1..=4).map(|n| retry.wait(&failing, n)).collect();
        let secs = |s| Some(Duration::from_secs(s));
        assert_eq!(waits, [secs(1), secs(2), secs(4), None]);
    }

    #[test]
    fn the_providers_wait_is_kept_unless_too_long() {
        let retry = Retry::default();
        assert_eq!(
            retry.wait(&limited(Some(7)), 1),
            Some(Duration::from_secs(7))
        );
        assert_eq!(retry.wait(&limited(Some(3600)), 1), None);
    }

    #[test]
    fn other_errors_end_at_once() {
        let auth = Error::Auth {
            status: Some(401),
            message: "bad key".into(),
        };
        assert_eq!(Retry::default().wait(&auth, 1), None);
        let spent = Error::QuotaExceeded {
            status: Some(429),
            message: "You exceeded your current quota".into(),
        };
        assert_eq!(
            Retry::default().wait(&spent, 1),
            None,
            "a quota used up is no passing limit"
        );
    }
}
