//! What happened within a sliding span of tokio's clock (a minute, an hour): the
//! per-minute limits of the questions asked of the person, the pace of standing decisions
//! and the sampling budget each count with it.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;

pub const MINUTE: Duration = Duration::from_secs(60);
pub const HOUR: Duration = Duration::from_secs(60 * 60);

/// The times something happened within the last `span`, each with what it carries
/// (nothing, for a plain count).
#[derive(Debug)]
pub struct Recent<T = ()> {
    span: Duration,
    times: VecDeque<(Instant, T)>,
}

impl<T> Recent<T> {
    pub fn new(span: Duration) -> Self {
        Self {
            span,
            times: VecDeque::new(),
        }
    }

    /// Forgets what left the span by `now`; whether anything is left in it.
    pub fn slide(&mut self, now: Instant) -> bool {
        while self
            .times
            .front()
            .is_some_and(|(t, _)| now.duration_since(*t) >= self.span)
        {
            self.times.pop_front();
        }
        !self.times.is_empty()
    }

    pub fn len(&self) -> usize {
        self.times.len()
    }

    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// When `limit` or more are in the span at `now`: how long until the oldest leaves it.
    pub fn full(&self, limit: usize, now: Instant) -> Option<Duration> {
        (self.times.len() >= limit).then(|| {
            let oldest = self.times.front().map_or(now, |(t, _)| *t);
            self.span.saturating_sub(now.duration_since(oldest))
        })
    }

    pub fn push(&mut self, now: Instant, carried: T) {
        self.times.push_back((now, carried));
    }

    /// What the span holds, oldest first.
    pub fn carried(&self) -> impl Iterator<Item = &T> {
        self.times.iter().map(|(_, carried)| carried)
    }

    pub fn carried_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.times.iter_mut().map(|(_, carried)| carried)
    }
}

impl Recent {
    /// Counts one more at `now` (after forgetting what left the span), unless `limit` are
    /// in it: then how long until the oldest leaves it.
    pub fn admit(&mut self, limit: usize, now: Instant) -> Result<(), Duration> {
        self.slide(now);
        if let Some(wait) = self.full(limit, now) {
            return Err(wait);
        }
        self.push(now, ());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_count_slides_with_the_clock_and_says_when_room_is_made() {
        let mut recent = Recent::new(MINUTE);
        recent.admit(2, Instant::now()).unwrap();
        tokio::time::advance(Duration::from_secs(20)).await;
        recent.admit(2, Instant::now()).unwrap();
        tokio::time::advance(Duration::from_secs(10)).await;
        assert_eq!(
            recent.admit(2, Instant::now()),
            Err(Duration::from_secs(30)),
            "the first leaves the minute 30 s from now"
        );
        tokio::time::advance(Duration::from_secs(30)).await;
        recent.admit(2, Instant::now()).unwrap();
        assert_eq!(recent.len(), 2);
        tokio::time::advance(MINUTE).await;
        assert!(!recent.slide(Instant::now()), "nothing left after a minute");
    }
}
