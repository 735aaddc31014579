//! How long the audit trail keeps its records and how much room they may take: the oldest
//! go first. Enforced when the log opens (a long pause between runs ages records most)
//! and after every [`CHECK_EVERY`] records added (a busy day fills it most); the checks
//! are a few indexed statements, cheap beside the synchronous commit of each record.
//!
//! The records of the last hour ([`RECENT`]) never go to make room: a flood of records
//! must not erase the evidence of what came just before it. What a flood can add is
//! bounded instead: the records of the last hour may take a quarter of the room whole;
//! beyond it, each is kept short (who asked what of which server, how it was decided and
//! how it ended, without its arguments: `bounds::Size::Short`), and the gate's and the
//! broker's per-minute limits bound how many there can be. Once an hour old, they are
//! counted against the room as any other.

use std::collections::VecDeque;
use std::time::Duration;

use rusqlite::Connection;
use serde_json::{Map, Value};

use crate::config::HostSettings;

/// Records added between two checks of the retention.
pub const CHECK_EVERY: u32 = 100;

/// Records younger than this are never deleted to make room.
pub const RECENT: Duration = Duration::from_secs(60 * 60);

/// The part of the room the records of the last hour may take whole: one in this many.
const RECENT_SHARE: u64 = 4;

const DAY: Duration = Duration::from_secs(24 * 60 * 60);
const MEGABYTE: u64 = 1_000_000;

/// The settings' keys, beside the host's other settings in the configuration file.
const DAYS_KEY: &str = "auditRetentionDays";
const MEGABYTES_KEY: &str = "auditMaxMegabytes";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Records older than this go; `None` keeps them whatever their age.
    pub max_age: Option<Duration>,
    /// The most room the records may take in the file; `None` for no bound.
    pub max_bytes: Option<u64>,
}

impl Default for Retention {
    /// 90 days, 100 MB.
    fn default() -> Self {
        Self {
            max_age: Some(DAY * 90),
            max_bytes: Some(100 * MEGABYTE),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the setting {key} must be a whole number (0 for no limit), not {value}")]
pub struct RetentionError {
    pub key: &'static str,
    pub value: String,
}

impl Retention {
    /// The room the records of the last hour may take whole; none without a bound.
    pub fn recent_room(&self) -> Option<u64> {
        self.max_bytes.map(|max| max / RECENT_SHARE)
    }

    /// From the host settings: `auditRetentionDays` (90 unless set) and
    /// `auditMaxMegabytes` (100 unless set); 0 sets no limit.
    pub fn from_settings(settings: &HostSettings) -> Result<Self, RetentionError> {
        let default = Self::default();
        let days = setting(&settings.extra, DAYS_KEY)?;
        let megabytes = setting(&settings.extra, MEGABYTES_KEY)?;
        Ok(Self {
            max_age: days.map_or(default.max_age, |d| {
                u32::try_from(d).ok().filter(|&d| d > 0).map(|d| DAY * d)
            }),
            max_bytes: megabytes.map_or(default.max_bytes, |m| {
                (m > 0).then(|| m.saturating_mul(MEGABYTE))
            }),
        })
    }
}

fn setting(extra: &Map<String, Value>, key: &'static str) -> Result<Option<u64>, RetentionError> {
    match extra.get(key) {
        None => Ok(None),
        Some(value) => value.as_u64().map(Some).ok_or_else(|| RetentionError {
            key,
            value: value.to_string(),
        }),
    }
}

/// How many rounds of deletion may bring the records within their room: each is sized on
/// what is still over, and deletion frees whole pages only.
const ROUNDS: usize = 8;

/// The stored size of a record as the last hour's room counts it: its texts, in bytes.
pub(super) const STORED_BYTES: &str = "length(CAST(server AS BLOB)) + length(CAST(subject AS BLOB)) \
     + length(CAST(detail AS BLOB)) + length(CAST(decision AS BLOB)) \
     + length(CAST(decided_by_kind AS BLOB)) + length(CAST(decided_by_detail AS BLOB)) \
     + length(CAST(decided_by AS BLOB)) + length(CAST(outcome_kind AS BLOB)) \
     + length(CAST(outcome_detail AS BLOB)) + length(CAST(outcome AS BLOB)) \
     + length(CAST(asked_by AS BLOB))";

const MINUTE_MS: i64 = 60 * 1000;

fn recent_ms() -> i64 {
    RECENT.as_millis() as i64
}

/// What the records of the last hour take, by the minute they were written or completed in.
#[derive(Debug, Default)]
pub(super) struct Recent {
    minutes: VecDeque<(i64, u64)>,
    total: u64,
}

impl Recent {
    /// What the file's records of the last hour take.
    pub(super) fn read(db: &Connection, now_ms: i64) -> rusqlite::Result<Self> {
        let mut statement = db.prepare(&format!(
            "SELECT at_ms / {MINUTE_MS}, SUM({STORED_BYTES}) FROM audit WHERE at_ms >= ?1
             GROUP BY 1 ORDER BY 1"
        ))?;
        let mut recent = Self::default();
        let rows = statement.query_map([now_ms - recent_ms()], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
        })?;
        for row in rows {
            let (minute, bytes) = row?;
            recent
                .minutes
                .push_back((minute, u64::try_from(bytes).unwrap_or(0)));
        }
        recent.total = recent.minutes.iter().map(|(_, b)| b).sum();
        Ok(recent)
    }

    /// What the records of the hour before `now_ms` take.
    pub(super) fn taken(&mut self, now_ms: i64) -> u64 {
        let first = (now_ms - recent_ms()) / MINUTE_MS;
        while let Some(&(minute, bytes)) = self.minutes.front() {
            if minute >= first {
                break;
            }
            self.total -= bytes;
            self.minutes.pop_front();
        }
        self.total
    }

    /// Counts `bytes` written at `now_ms`.
    pub(super) fn add(&mut self, now_ms: i64, bytes: u64) {
        let minute = now_ms / MINUTE_MS;
        match self.minutes.back_mut() {
            Some((last, taken)) if *last >= minute => *taken += bytes,
            _ => self.minutes.push_back((minute, bytes)),
        }
        self.total += bytes;
    }
}

/// Deletes the records the retention does not keep, oldest first; returns how many went.
/// A record of the last hour goes for none of it.
pub(super) fn enforce(
    db: &Connection,
    retention: &Retention,
    now_ms: i64,
) -> rusqlite::Result<usize> {
    let mut dropped = 0;
    if let Some(age) = retention.max_age {
        let cutoff = now_ms.saturating_sub(i64::try_from(age.as_millis()).unwrap_or(i64::MAX));
        dropped += db.execute("DELETE FROM audit WHERE at_ms < ?1", [cutoff])?;
    }
    if let Some(max) = retention.max_bytes {
        // Down to nine tenths, so that the next check does not delete again at once.
        let target = max - max / 10;
        let recent = now_ms.saturating_sub(recent_ms());
        for _ in 0..ROUNDS {
            let used = used_bytes(db)?;
            let rows: i64 = db.query_row("SELECT COUNT(*) FROM audit", [], |r| r.get(0))?;
            if used <= max || rows == 0 {
                break;
            }
            let share = (used - target) as f64 / used as f64;
            let over = ((rows as f64 * share).ceil() as i64).max(1);
            let gone = db.execute(
                "DELETE FROM audit WHERE id IN
                 (SELECT id FROM audit WHERE at_ms < ?2 ORDER BY id LIMIT ?1)",
                [over, recent],
            )?;
            if gone == 0 {
                // What is left is the last hour's.
                break;
            }
            dropped += gone;
        }
    }
    if dropped > 0 {
        // Gives the freed pages back to the file system (a file made before this kept
        // them to reuse).
        // Each step of the pragma frees a page: stepped to its end.
        let mut statement = db.prepare("PRAGMA incremental_vacuum")?;
        let mut steps = statement.query([])?;
        while steps.next()?.is_some() {}
    }
    Ok(dropped)
}

/// The room the records take: the file's pages less the free ones.
pub(super) fn used_bytes(db: &Connection) -> rusqlite::Result<u64> {
    let pragma = |name| {
        db.pragma_query_value(None, name, |r| r.get::<_, i64>(0))
            .map(|n| u64::try_from(n).unwrap_or(0))
    };
    let pages = pragma("page_count")?.saturating_sub(pragma("freelist_count")?);
    Ok(pages * pragma("page_size")?)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn settings(extra: Value) -> HostSettings {
        HostSettings {
            extra: extra.as_object().cloned().unwrap_or_default(),
            ..HostSettings::default()
        }
    }

    #[test]
    fn the_last_hours_room_counts_what_was_written_within_the_hour() {
        let mut recent = Recent::default();
        let hour = recent_ms();
        recent.add(0, 100);
        recent.add(30 * MINUTE_MS, 20);
        recent.add(30 * MINUTE_MS + 1, 3);
        assert_eq!(recent.taken(hour - 1), 123);
        assert_eq!(
            recent.taken(hour + MINUTE_MS),
            23,
            "the first minute is past"
        );
        assert_eq!(recent.taken(2 * hour), 0);
        assert_eq!(Retention::default().recent_room(), Some(25 * MEGABYTE));
    }

    #[test]
    fn the_settings_give_days_and_megabytes_zero_for_no_limit() {
        assert_eq!(
            Retention::from_settings(&settings(json!({}))),
            Ok(Retention::default())
        );
        assert_eq!(
            Retention::from_settings(&settings(json!({"auditRetentionDays": 7}))),
            Ok(Retention {
                max_age: Some(DAY * 7),
                ..Retention::default()
            })
        );
        assert_eq!(
            Retention::from_settings(&settings(
                json!({"auditRetentionDays": 0, "auditMaxMegabytes": 0})
            )),
            Ok(Retention {
                max_age: None,
                max_bytes: None
            })
        );
        assert_eq!(
            Retention::from_settings(&settings(json!({"auditMaxMegabytes": "lots"}))),
            Err(RetentionError {
                key: "auditMaxMegabytes",
                value: "\"lots\"".into()
            })
        );
    }
}
