//! The last lines each server logged, kept so a log pane opened late still has them. A
//! server's lines are bound both in number and in the memory they take, so that a server
//! that floods its log with long lines holds no more of the host than a quiet one.

use parking_lot::Mutex;
use std::collections::{HashMap, VecDeque};

use serde::Serialize;

use switchboard_core::log_line;
use switchboard_core::sandbox::SandboxNote;
use switchboard_core::server_events::LogSource;

/// Lines kept per server; older ones are dropped first.
const KEEP: usize = 2000;

/// The memory one server's lines may take, their text and their slots.
pub const KEEP_BYTES: usize = 1 << 20;

/// What a slot of the book takes besides the line's text.
const SLOT_BYTES: usize = size_of::<LogEntry>();

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    pub server: String,
    /// Milliseconds since the Unix epoch.
    pub at_ms: i64,
    pub source: LogSource,
    /// The MCP logging level of a server's own message ("info", "error", ...).
    pub level: Option<String>,
    pub text: String,
    /// The host's note, by kind (`text` is its English).
    pub note: Option<SandboxNote>,
}

impl LogEntry {
    /// The memory its strings take.
    fn text_bytes(&self) -> usize {
        self.server.capacity()
            + self.text.capacity()
            + self.level.as_ref().map_or(0, String::capacity)
    }
}

/// How much of a server's log is kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LogSize {
    pub lines: usize,
    /// The memory the lines take: their text and the book's slots, spare ones included.
    pub bytes: usize,
}

/// One server's lines, and the memory their text takes.
#[derive(Default)]
struct Kept {
    lines: VecDeque<LogEntry>,
    text_bytes: usize,
}

impl Kept {
    fn bytes(&self) -> usize {
        self.text_bytes + self.lines.capacity() * SLOT_BYTES
    }

    fn push(&mut self, mut entry: LogEntry) {
        entry.text = log_line::cap(entry.text);
        if self.lines.len() == KEEP {
            self.pop();
        }
        self.text_bytes += entry.text_bytes();
        self.lines.push_back(entry);
        // The newest line always fits: it is cut to the line bound, far below the book's.
        while self.bytes() > KEEP_BYTES && self.lines.len() > 1 {
            self.pop();
        }
    }

    fn pop(&mut self) {
        if let Some(old) = self.lines.pop_front() {
            self.text_bytes -= old.text_bytes();
        }
    }
}

#[derive(Default)]
pub struct LogBook {
    servers: Mutex<HashMap<String, Kept>>,
}

impl LogBook {
    fn servers(&self) -> parking_lot::MutexGuard<'_, HashMap<String, Kept>> {
        self.servers.lock()
    }

    pub fn push(&self, entry: LogEntry) {
        self.servers()
            .entry(entry.server.clone())
            .or_default()
            .push(entry);
    }

    pub fn of(&self, server: &str) -> Vec<LogEntry> {
        self.servers()
            .get(server)
            .map(|kept| kept.lines.iter().cloned().collect())
            .unwrap_or_default()
    }

    pub fn size_of(&self, server: &str) -> LogSize {
        self.servers()
            .get(server)
            .map(|kept| LogSize {
                lines: kept.lines.len(),
                bytes: kept.bytes(),
            })
            .unwrap_or_default()
    }

    pub fn clear(&self, server: &str) {
        self.servers().remove(server);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: String) -> LogEntry {
        LogEntry {
            server: "s".into(),
            at_ms: 0,
            source: LogSource::Stderr,
            level: None,
            text,
            note: None,
        }
    }

    #[test]
    fn a_flooding_server_keeps_only_its_latest_lines() {
        let book = LogBook::default();
        for n in 0..KEEP + 5 {
            book.push(line(n.to_string()));
        }
        let kept = book.of("s");
        assert_eq!(kept.len(), KEEP);
        assert_eq!(kept[0].text, "5");
        assert!(book.of("other").is_empty());
    }

    #[test]
    fn long_lines_are_kept_within_the_bytes_bound_newest_last() {
        let book = LogBook::default();
        for n in 0..KEEP {
            book.push(line(format!("{n} {}", "x".repeat(8 * 1024))));
        }
        let size = book.size_of("s");
        assert!(size.bytes <= KEEP_BYTES, "{size:?}");
        assert!(size.lines > 64 && size.lines < KEEP, "{size:?}");
        let kept = book.of("s");
        assert!(kept.last().is_some_and(|l| l.text.starts_with("1999 ")));

        book.push(line("y".repeat(10 * KEEP_BYTES)));
        let newest = book.of("s").pop().map(|l| l.text.len());
        assert!(newest <= Some(log_line::MAX_LINE_BYTES), "{newest:?}");
        assert!(book.size_of("s").bytes <= KEEP_BYTES);

        book.clear("s");
        assert_eq!(book.size_of("s"), LogSize::default());
    }
}
