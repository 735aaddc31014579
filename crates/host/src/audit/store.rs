//! The audit log's SQLite file, called synchronously: only ever from a blocking thread
//! (see [`super::AuditLog`]), so that a slow disk or a lock held by another process never
//! holds up the async runtime.
//!
//! What it costs a call: the record of a decision is committed with `synchronous=FULL`
//! (the write-ahead log synced to the disk) before the call is made: a call is never sent
//! unless its record would survive a power cut. A call's outcome is not waited for: it is
//! queued in memory ([`Store::finish_later`]) and goes to the file with whatever touches
//! the file next, every read included, so nothing reads the log without it. Written on its
//! own it is committed with `synchronous=NORMAL` (in the log's file at once, so it survives
//! a crash of the app; synced with the next record's commit); written with the next record
//! it shares that record's sync.

use parking_lot::Mutex;
use std::borrow::Cow;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use super::bounds::{self, Size};
use super::{AuditError, CHECK_EVERY, Kind, Record, Retention, Row, retention};
use crate::clock::now_ms;
use crate::decisions::Given;
use crate::sqlite_file::{self, Db};

pub(super) struct Store {
    db: Db<AuditError>,
    retention: Retention,
    /// Records added since the retention was last checked.
    added: AtomicU32,
    /// Outcomes of calls, in the order they ended, not yet in the file.
    outcomes: Mutex<Vec<Outcome>>,
    /// What the records of the last hour take: beyond their room, records are kept short.
    recent: Mutex<retention::Recent>,
}

/// A call's outcome, waiting to complete its record.
struct Outcome {
    id: i64,
    outcome: String,
    duration_ms: u64,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms INTEGER NOT NULL,
    kind TEXT NOT NULL,
    server TEXT NOT NULL,
    subject TEXT NOT NULL,
    detail TEXT NOT NULL,
    decision TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    outcome TEXT NOT NULL,
    duration_ms INTEGER,
    asked_by TEXT NOT NULL DEFAULT '',
    given TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS audit_server ON audit (server, id);
CREATE INDEX IF NOT EXISTS audit_at ON audit (at_ms);
";

impl Store {
    pub(super) fn open(path: &Path, retention: Retention) -> Result<Self, AuditError> {
        let fail = |source| AuditError::Database {
            path: path.display().to_string(),
            source,
        };
        let pragmas = [
            // Only a new file takes this: its pages freed by the retention go back to the disk.
            ("auto_vacuum", "INCREMENTAL"),
            // WAL lets the UI read while calls are recorded; FULL makes each commit durable.
            ("journal_mode", "WAL"),
            ("synchronous", "FULL"),
        ];
        let db = sqlite_file::connect(path, &pragmas, SCHEMA).map_err(fail)?;
        add_asked_by(&db).map_err(fail)?;
        add_given(&db).map_err(fail)?;
        let now = now_ms();
        retention::enforce(&db, &retention, now).map_err(fail)?;
        let recent = retention::Recent::read(&db, now).map_err(fail)?;
        Ok(Self {
            db: Db::new(path, db),
            retention,
            added: AtomicU32::new(0),
            outcomes: Mutex::default(),
            recent: Mutex::new(recent),
        })
    }

    /// How much of a record written now is kept: short once the last hour's records fill
    /// their room, or would with this one kept whole (`bytes`).
    fn size_now(&self, now_ms: i64, bytes: u64) -> Size {
        let Some(room) = self.retention.recent_room() else {
            return Size::Whole;
        };
        if self.taken_recently(now_ms) + bytes > room {
            Size::Short
        } else {
            Size::Whole
        }
    }

    fn taken_recently(&self, now_ms: i64) -> u64 {
        self.recent.lock().taken(now_ms)
    }

    /// Writes a record and returns its id; every [`CHECK_EVERY`] records, drops those the
    /// retention no longer keeps.
    pub(super) fn record(
        &self,
        record: &Record,
        asked_by: &str,
        given: Option<Given>,
    ) -> Result<i64, AuditError> {
        let at_ms = now_ms();
        let whole = Kept::of(record, asked_by, Size::Whole);
        let kept = match self.size_now(at_ms, whole.bytes()) {
            Size::Whole => whole,
            Size::Short => Kept::of(record, asked_by, Size::Short),
        };
        let mut db = self.db.lock();
        // The outcomes waiting go in the same commit: one sync for all of it.
        let id = self
            .with_outcomes(|outcomes| {
                let tx = db.transaction()?;
                complete(&tx, outcomes)?;
                // Compiled once per connection: a record is written for every call.
                tx.prepare_cached(
                    "INSERT INTO audit (at_ms, kind, server, subject, detail, decision, decided_by, outcome, duration_ms, asked_by, given)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                )?
                .execute(params![
                    at_ms,
                    record.kind.as_str(),
                    record.server,
                    kept.subject,
                    kept.detail,
                    record.decision,
                    record.decided_by,
                    kept.outcome,
                    record.duration_ms.map(|d| d as i64),
                    kept.asked_by,
                    given.map_or("", Given::as_str),
                ])?;
                let id = tx.last_insert_rowid();
                tx.commit()?;
                Ok(id)
            })
            .map_err(|e| self.db.fail(e))?;
        self.recent.lock().add(at_ms, kept.bytes());
        if self.added.fetch_add(1, Ordering::Relaxed) + 1 >= CHECK_EVERY {
            self.added.store(0, Ordering::Relaxed);
            // The record is kept either way; a retention that fails is tried again later.
            if let Err(e) = retention::enforce(&db, &self.retention, at_ms) {
                tracing::warn!("{}", self.db.fail(e));
            }
        }
        Ok(id)
    }

    /// Completes a record written before its outcome was known (a call that was allowed),
    /// in memory at once; the file gets it with its next write or read, or from
    /// [`Self::write_outcomes`].
    pub(super) fn finish_later(&self, id: i64, outcome: &str, duration_ms: u64) {
        let now = now_ms();
        let whole = bounds::outcome(outcome, Size::Whole);
        let outcome = match self.size_now(now, whole.len() as u64) {
            Size::Whole => whole,
            Size::Short => bounds::outcome(outcome, Size::Short),
        }
        .into_owned();
        self.recent.lock().add(now, outcome.len() as u64);
        self.queued().push(Outcome {
            id,
            outcome,
            duration_ms,
        });
    }

    /// Writes the outcomes waiting, if any, in one commit that is not synced on its own
    /// (the next record's commit syncs it).
    pub(super) fn write_outcomes(&self) -> Result<(), AuditError> {
        let mut db = self.db.lock();
        self.settle(&mut db).map_err(|e| self.db.fail(e))
    }

    /// The connection, with every outcome ended so far in the file: what reads it sees them.
    fn settled(&self) -> Result<parking_lot::MutexGuard<'_, Connection>, AuditError> {
        let mut db = self.db.lock();
        self.settle(&mut db).map_err(|e| self.db.fail(e))?;
        Ok(db)
    }

    fn settle(&self, db: &mut Connection) -> rusqlite::Result<()> {
        self.with_outcomes(|outcomes| {
            if outcomes.is_empty() {
                return Ok(());
            }
            db.pragma_update(None, "synchronous", "NORMAL")?;
            let written = db.transaction().and_then(|tx| {
                complete(&tx, outcomes)?;
                tx.commit()
            });
            db.pragma_update(None, "synchronous", "FULL")?;
            written
        })
    }

    /// Runs `write` with the outcomes waiting; if it fails, they wait again (before any
    /// queued meanwhile), so that a locked file loses none of them.
    fn with_outcomes<T>(
        &self,
        write: impl FnOnce(&[Outcome]) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        let outcomes = std::mem::take(&mut *self.queued());
        let written = write(&outcomes);
        if written.is_err() && !outcomes.is_empty() {
            let mut queued = self.queued();
            let later = std::mem::replace(&mut *queued, outcomes);
            queued.extend(later);
        }
        written
    }

    fn queued(&self) -> parking_lot::MutexGuard<'_, Vec<Outcome>> {
        self.outcomes.lock()
    }

    /// A page of the records that hold `text`, newest first: those older than `before` (an
    /// id), at most `limit`. The search scans the records newest first and stops at the
    /// limit; the retention bounds how many there are to scan.
    pub(super) fn page(
        &self,
        text: &str,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Vec<Row>, AuditError> {
        let db = self.settled()?;
        // SQLite's lower() folds ASCII letters only: the text is folded the same way.
        let needle = text.trim().to_ascii_lowercase();
        let mut statement = db
            .prepare_cached(
                "SELECT id, at_ms, kind, server, subject, detail, decision, decided_by, outcome, duration_ms, asked_by, given
                 FROM audit WHERE id < ?1 AND (?3 = '' OR instr(lower(
                     subject || char(10) || server || char(10) || detail || char(10) || outcome
                     || char(10) || decision || char(10) || decided_by || char(10) || asked_by), ?3) > 0)
                 ORDER BY id DESC LIMIT ?2",
            )
            .map_err(|e| self.db.fail(e))?;
        let rows = statement
            .query_map(params![before.unwrap_or(i64::MAX), limit, needle], |row| {
                let kind: String = row.get(2)?;
                let detail: String = row.get(5)?;
                Ok(Row {
                    id: row.get(0)?,
                    at_ms: row.get(1)?,
                    record: Record {
                        kind: Kind::parse(&kind).unwrap_or(Kind::ToolCall),
                        server: row.get(3)?,
                        subject: row.get(4)?,
                        detail: serde_json::from_str(&detail).unwrap_or(Value::String(detail)),
                        decision: row.get(6)?,
                        decided_by: row.get(7)?,
                        outcome: row.get(8)?,
                        duration_ms: row.get::<_, Option<i64>>(9)?.map(|d| d as u64),
                    },
                    asked_by: row.get(10)?,
                    given: Given::parse(&row.get::<_, String>(11)?),
                })
            })
            .map_err(|e| self.db.fail(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.db.fail(e))
    }

    /// The room the records take in the file, as the retention counts it.
    pub(super) fn bytes_used(&self) -> Result<u64, AuditError> {
        let db = self.settled()?;
        retention::used_bytes(&db).map_err(|e| self.db.fail(e))
    }

    /// How many records there are.
    pub(super) fn count(&self) -> Result<u64, AuditError> {
        self.settled()?
            .query_row("SELECT COUNT(*) FROM audit", [], |r| r.get::<_, i64>(0))
            .optional()
            .map(|n| n.unwrap_or(0) as u64)
            .map_err(|e| self.db.fail(e))
    }

    /// How many records match: how often a rule decided.
    pub(super) fn count_decided(&self, by: &super::ByRule) -> Result<u64, AuditError> {
        self.settled()?
            .query_row(
                "SELECT COUNT(*) FROM audit WHERE server = ?1 AND decided_by = ?2
                 AND at_ms >= ?3 AND (?4 IS NULL OR subject = ?4)",
                rusqlite::params![by.server, by.decided_by, by.since_ms, by.subject],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n as u64)
            .map_err(|e| self.db.fail(e))
    }
}

impl Drop for Store {
    /// The outcomes still waiting go to the file as the log closes.
    fn drop(&mut self) {
        if let Err(e) = self.write_outcomes() {
            tracing::warn!("{e}");
        }
    }
}

/// A record's texts as they are stored, each within its bound.
struct Kept<'a> {
    record: &'a Record,
    subject: Cow<'a, str>,
    detail: String,
    outcome: Cow<'a, str>,
    asked_by: Cow<'a, str>,
}

impl<'a> Kept<'a> {
    fn of(record: &'a Record, asked_by: &'a str, size: Size) -> Self {
        Self {
            record,
            subject: bounds::subject(&record.subject, size),
            detail: bounds::detail(&record.detail, size),
            outcome: bounds::outcome(&record.outcome, size),
            asked_by: bounds::subject(asked_by, size),
        }
    }

    /// The bytes it takes, as [`retention::STORED_BYTES`] counts them.
    fn bytes(&self) -> u64 {
        let record = self.record;
        [
            record.server.len(),
            self.subject.len(),
            self.detail.len(),
            record.decision.len(),
            record.decided_by.len(),
            self.outcome.len(),
            self.asked_by.len(),
        ]
        .iter()
        .sum::<usize>() as u64
    }
}

/// Completes the records of these outcomes.
fn complete(db: &Connection, outcomes: &[Outcome]) -> rusqlite::Result<()> {
    if outcomes.is_empty() {
        return Ok(());
    }
    let mut update =
        db.prepare_cached("UPDATE audit SET outcome = ?2, duration_ms = ?3 WHERE id = ?1")?;
    for Outcome {
        id,
        outcome,
        duration_ms,
    } in outcomes
    {
        update.execute(params![id, outcome, *duration_ms as i64])?;
    }
    Ok(())
}

/// Gives a log made before decisions said how they were given its `given` column. What its
/// records themselves tell is filled in (a rule's decision names the rule, the person's own
/// call says so); whether the person allowed once, for the session or always was not kept.
fn add_given(db: &Connection) -> rusqlite::Result<()> {
    let has: i64 = db.query_row(
        "SELECT COUNT(*) FROM pragma_table_info('audit') WHERE name = 'given'",
        [],
        |r| r.get(0),
    )?;
    if has == 0 {
        let tx = db.unchecked_transaction()?;
        tx.execute_batch("ALTER TABLE audit ADD COLUMN given TEXT NOT NULL DEFAULT ''")?;
        tx.execute(
            "UPDATE audit SET given = 'rule' WHERE kind = 'tool_call'
             AND (decided_by LIKE 'policy:%' OR decided_by LIKE 'trusted server:%')",
            [],
        )?;
        tx.execute(
            "UPDATE audit SET given = 'own' WHERE kind = 'tool_call' AND decided_by = ?1",
            [crate::decisions::BY_YOU],
        )?;
        tx.commit()?;
    }
    Ok(())
}

/// Gives a log made before calls had an origin its `asked_by` column (empty for its
/// records: they were the person's, from the explorer).
fn add_asked_by(db: &Connection) -> rusqlite::Result<()> {
    let has: i64 = db.query_row(
        "SELECT COUNT(*) FROM pragma_table_info('audit') WHERE name = 'asked_by'",
        [],
        |r| r.get(0),
    )?;
    if has == 0 {
        db.execute_batch("ALTER TABLE audit ADD COLUMN asked_by TEXT NOT NULL DEFAULT ''")?;
    }
    Ok(())
}
