//! The audit log's SQLite file, called synchronously: only ever from a blocking thread
//! (see [`super::AuditLog`]), so that a slow disk or a lock held by another process never
//! holds up the async runtime.

use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use super::{AuditError, CHECK_EVERY, Given, Kind, Record, Retention, Row, bounds, retention};
use crate::sqlite_file::{self, Db, now_ms};

pub(super) struct Store {
    db: Db<AuditError>,
    retention: Retention,
    /// Records added since the retention was last checked.
    added: AtomicU32,
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
        retention::enforce(&db, &retention, now_ms()).map_err(fail)?;
        Ok(Self {
            db: Db::new(path, db),
            retention,
            added: AtomicU32::new(0),
        })
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
        let db = self.db.lock();
        // Compiled once per connection: a record is written for every call.
        let mut insert = db
            .prepare_cached(
                "INSERT INTO audit (at_ms, kind, server, subject, detail, decision, decided_by, outcome, duration_ms, asked_by, given)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )
            .map_err(|e| self.db.fail(e))?;
        insert
            .execute(params![
                at_ms,
                record.kind.as_str(),
                record.server,
                bounds::subject(&record.subject),
                bounds::detail(&record.detail),
                record.decision,
                record.decided_by,
                bounds::outcome(&record.outcome),
                record.duration_ms.map(|d| d as i64),
                bounds::subject(asked_by),
                given.map_or("", Given::as_str),
            ])
            .map_err(|e| self.db.fail(e))?;
        drop(insert);
        let id = db.last_insert_rowid();
        if self.added.fetch_add(1, Ordering::Relaxed) + 1 >= CHECK_EVERY {
            self.added.store(0, Ordering::Relaxed);
            // The record is kept either way; a retention that fails is tried again later.
            if let Err(e) = retention::enforce(&db, &self.retention, at_ms) {
                tracing::warn!("{}", self.db.fail(e));
            }
        }
        Ok(id)
    }

    /// Completes a record written before its outcome was known (a call that was allowed).
    pub(super) fn finish(
        &self,
        id: i64,
        outcome: &str,
        duration_ms: u64,
    ) -> Result<(), AuditError> {
        self.db
            .lock()
            .prepare_cached("UPDATE audit SET outcome = ?2, duration_ms = ?3 WHERE id = ?1")
            .and_then(|mut update| {
                update.execute(params![id, bounds::outcome(outcome), duration_ms as i64])
            })
            .map(drop)
            .map_err(|e| self.db.fail(e))
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
        let db = self.db.lock();
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
        retention::used_bytes(&self.db.lock()).map_err(|e| self.db.fail(e))
    }

    /// How many records there are.
    pub(super) fn count(&self) -> Result<u64, AuditError> {
        self.db
            .lock()
            .query_row("SELECT COUNT(*) FROM audit", [], |r| r.get::<_, i64>(0))
            .optional()
            .map(|n| n.unwrap_or(0) as u64)
            .map_err(|e| self.db.fail(e))
    }

    /// How many records match: how often a rule decided.
    pub(super) fn count_decided(&self, by: &super::ByRule) -> Result<u64, AuditError> {
        self.db
            .lock()
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
            [crate::gate::BY_YOU],
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
