//! The audit log: every tool call and every decision on a server's request, in a SQLite
//! file (write-ahead log, synchronous commits), so that the record survives a crash. Async
//! code calls it; its one writer and each read run on a blocking thread, so that a slow
//! disk, or the file locked by another process, holds up only the calls that wait for it.
//! A decision is synced to the disk before the call it allows is made; the call's outcome
//! is written after its result is handed back, and read with the log all the same (see
//! `store`).

mod bounds;
mod columns;
mod retention;
mod store;

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::decisions::{DecidedBy, Given, Outcome};
pub use crate::sqlite_file::MovedAside;
use crate::sqlite_file::{Book, FileError, FileFault, Kept};
pub use bounds::{DETAIL_BYTES, OUTCOME_BYTES, SHORT_BYTES, SUBJECT_BYTES};
pub use retention::{CHECK_EVERY, RECENT, Retention, RetentionError};

#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("the audit log {0}")]
    File(#[from] FileFault),
}

impl FileError for AuditError {
    fn fault(&self) -> Option<&FileFault> {
        let Self::File(fault) = self;
        Some(fault)
    }
}

/// What was decided, or done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    ToolCall,
    Sampling,
    Elicitation,
    Roots,
    /// A sign-in to a server, or a sign-out (no token is ever recorded).
    SignIn,
    /// An agent's read of a resource, a prompt or completions.
    Read,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ToolCall => "tool_call",
            Self::Sampling => "sampling",
            Self::Elicitation => "elicitation",
            Self::Roots => "roots",
            Self::SignIn => "sign_in",
            Self::Read => "read",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        [
            Self::ToolCall,
            Self::Sampling,
            Self::Elicitation,
            Self::Roots,
            Self::SignIn,
            Self::Read,
        ]
        .into_iter()
        .find(|k| k.as_str() == text)
    }
}

/// One record, as written.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub kind: Kind,
    pub server: String,
    /// The tool's name, or what was asked ("createMessage", a form's message, ...).
    pub subject: String,
    /// The arguments or request, as JSON.
    pub detail: Value,
    /// "allowed", "denied", "accepted", "declined", "cancelled", ...; for a request no one
    /// answered, "timed out" or "unanswered".
    pub decision: String,
    /// Who or what decided: the person, a rule, and for a request no one answered the
    /// deadline or no one.
    pub decided_by: DecidedBy,
    /// How it ended, if that is known.
    pub outcome: Outcome,
    pub duration_ms: Option<u64>,
}

/// A record as read back, with its id and time.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub id: i64,
    /// Milliseconds since the Unix epoch.
    pub at_ms: i64,
    #[serde(flatten)]
    pub record: Record,
    /// Who asked for a tool call: the person (from the explorer), or a model in a
    /// conversation (see [`crate::decisions::Origin`]); empty for what a server asked.
    pub asked_by: String,
    /// How a tool call's decision was given; `None` for other records, a call no one
    /// decided, and calls recorded before this was kept that say nothing of it.
    pub given: Option<Given>,
}

pub struct AuditLog {
    file: Kept<store::Store>,
}

impl AuditLog {
    /// Opens (or makes) the log, dropping at once the records the retention does not keep.
    /// A file SQLite cannot read is moved aside and a new log begun ([`Self::moved_aside`]).
    pub fn open(path: &Path, retention: Retention) -> Result<Self, AuditError> {
        let file = Kept::open(path, Book::AuditLog, |path| {
            store::Store::open(path, retention)
        })?;
        Ok(Self { file })
    }

    /// The damaged file this log replaced when it opened, if it did: the person should know.
    pub fn moved_aside(&self) -> Option<&MovedAside> {
        self.file.moved_aside()
    }

    /// Writes a record and returns its id, once it is synced to the disk; every
    /// [`CHECK_EVERY`] records, drops those the retention no longer keeps.
    pub async fn record(&self, record: Record) -> Result<i64, AuditError> {
        self.record_call(record, String::new(), None).await
    }

    /// Writes the record of a tool call `asked_by` asked for (its origin), and how its
    /// decision was given; its id, once it is synced to the disk (with the records of other
    /// calls waiting for the file meanwhile: see `store`).
    pub async fn record_call(
        &self,
        record: Record,
        asked_by: String,
        given: Option<Given>,
    ) -> Result<i64, AuditError> {
        let (reply, id) = tokio::sync::oneshot::channel();
        if self.file.now().queue(&record, &asked_by, given, reply) {
            self.file.spawn(store::Store::write);
        }
        id.await
            .map_err(|_| FileFault::Interrupted("its writer stopped".to_owned()))?
    }

    /// Completes a record written before its outcome was known (a call that was allowed).
    /// Nothing waits for the file: the outcome is kept at once, written in the background,
    /// and every read or write of the log from now on finds it there.
    pub fn finish(&self, id: i64, outcome: Outcome, duration_ms: u64) {
        if self.file.now().finish_later(id, outcome, duration_ms) {
            self.file.spawn(store::Store::write);
        }
    }

    /// A page of records, newest first: those older than `before` (an id), at most `limit`.
    pub async fn page(&self, before: Option<i64>, limit: u32) -> Result<Vec<Row>, AuditError> {
        self.search(String::new(), before, limit).await
    }

    /// A page of the records that hold `text` (ASCII letters of either case) in their
    /// tool or subject, server, arguments, outcome, decision, who decided or who asked (each
    /// as a person reads it);
    /// newest first, older than `before`, at most `limit`. An empty `text` holds them all.
    pub async fn search(
        &self,
        text: String,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Vec<Row>, AuditError> {
        self.file
            .call(move |store| store.page(&text, before, limit))
            .await
    }

    /// The room the records take in the file, as the retention counts it.
    pub async fn bytes_used(&self) -> Result<u64, AuditError> {
        self.file.call(store::Store::bytes_used).await
    }

    /// How many records there are.
    pub async fn count(&self) -> Result<u64, AuditError> {
        self.file.call(store::Store::count).await
    }

    /// How many calls were decided as `by` says since then.
    pub async fn count_decided(&self, by: ByRule) -> Result<u64, AuditError> {
        self.file.call(move |store| store.count_decided(&by)).await
    }
}

/// The records a standing rule decided: of `server` (and `subject`, a tool, if given),
/// decided by `decided_by`, since `since_ms`.
#[derive(Debug, Clone)]
pub struct ByRule {
    pub server: String,
    pub subject: Option<String>,
    pub decided_by: DecidedBy,
    pub since_ms: i64,
}
