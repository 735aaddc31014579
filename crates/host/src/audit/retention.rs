//! How long the audit trail keeps its records and how much room they may take: the oldest
//! go first. Enforced when the log opens (a long pause between runs ages records most)
//! and after every [`CHECK_EVERY`] records added (a busy day fills it most); the checks
//! are two indexed statements, cheap beside the synchronous commit of each record.

use std::time::Duration;

use rusqlite::Connection;
use serde_json::{Map, Value};

use crate::config::HostSettings;

/// Records added between two checks of the retention.
pub const CHECK_EVERY: u32 = 100;

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

/// Deletes the records the retention does not keep, oldest first; returns how many went.
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
        for _ in 0..ROUNDS {
            let used = used_bytes(db)?;
            let rows: i64 = db.query_row("SELECT COUNT(*) FROM audit", [], |r| r.get(0))?;
            if used <= max || rows == 0 {
                break;
            }
            let share = (used - target) as f64 / used as f64;
            let over = ((rows as f64 * share).ceil() as i64).max(1);
            dropped += db.execute(
                "DELETE FROM audit WHERE id IN (SELECT id FROM audit ORDER BY id LIMIT ?1)",
                [over],
            )?;
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
