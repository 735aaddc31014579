//! The last lines each server logged, kept so a log pane opened late still has them.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use serde::Serialize;

use crate::supervisor::LogSource;

/// Lines kept per server; older ones are dropped first.
const KEEP: usize = 2000;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LogEntry {
    pub server: String,
    /// Milliseconds since the Unix epoch.
    pub at_ms: f64,
    pub source: LogSource,
    /// The MCP logging level of a server's own message ("info", "error", ...).
    pub level: Option<String>,
    pub text: String,
}

#[derive(Default)]
pub struct LogBook {
    lines: Mutex<HashMap<String, VecDeque<LogEntry>>>,
}

impl LogBook {
    fn lines(&self) -> std::sync::MutexGuard<'_, HashMap<String, VecDeque<LogEntry>>> {
        self.lines.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn push(&self, entry: LogEntry) {
        let mut lines = self.lines();
        let kept = lines.entry(entry.server.clone()).or_default();
        if kept.len() == KEEP {
            kept.pop_front();
        }
        kept.push_back(entry);
    }

    pub fn of(&self, server: &str) -> Vec<LogEntry> {
        self.lines()
            .get(server)
            .map(|kept| kept.iter().cloned().collect())
            .unwrap_or_default()
    }

    pub fn clear(&self, server: &str) {
        self.lines().remove(server);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: usize) -> LogEntry {
        LogEntry {
            server: "s".into(),
            at_ms: 0.0,
            source: LogSource::Stderr,
            level: None,
            text: n.to_string(),
        }
    }

    #[test]
    fn a_flooding_server_keeps_only_its_latest_lines() {
        let book = LogBook::default();
        for n in 0..KEEP + 5 {
            book.push(line(n));
        }
        let kept = book.of("s");
        assert_eq!(kept.len(), KEEP);
        assert_eq!(kept[0].text, "5");
        assert!(book.of("other").is_empty());
    }
}
