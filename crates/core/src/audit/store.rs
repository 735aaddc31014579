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
//!
//! One writer at a time: a call's record joins a queue, and the writer (on a blocking
//! thread, started when the queue was idle) commits every record waiting, with the outcomes
//! waiting, in one commit and one sync, hands each call the id of its own record, and goes
//! on while records keep coming. One call at a time, each group is that call's record
//! alone; with many calls at once (many agents), a sync covers many records, and the calls
//! wait as tasks, not as threads queued on the file.

use parking_lot::Mutex;
use std::borrow::Cow;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;
use tokio::sync::oneshot;

use super::bounds::{self, Size};
use super::columns::{self, Stored};
use super::{AuditError, CHECK_EVERY, Kind, Record, Retention, Row, retention};
use crate::clock::now_ms;
use crate::decisions::{Given, Outcome};
use crate::sqlite_file::{self, Db, FileFault};

pub(super) struct Store {
    db: Db<AuditError>,
    retention: Retention,
    /// Records added since the retention was last checked.
    added: AtomicU32,
    /// Outcomes of calls, in the order they ended, not yet in the file.
    outcomes: Mutex<Vec<Finished>>,
    /// What the records of the last hour take: beyond their room, records are kept short.
    recent: Mutex<retention::Recent>,
    /// Records waiting for the writer, and whether it runs.
    queue: Mutex<Queue>,
}

/// What waits for the writer.
#[derive(Default)]
struct Queue {
    records: Vec<(Waiting, Reply)>,
    /// Whether a writer is at work: it takes what is queued before it stops.
    writing: bool,
}

impl Queue {
    /// Whether the caller must start the writer ([`Store::write`]): none is at work.
    fn start_writing(&mut self) -> bool {
        !std::mem::replace(&mut self.writing, true)
    }
}

/// Where a record's id (or why it was not written) goes.
pub(super) type Reply = oneshot::Sender<Result<i64, AuditError>>;

/// A record as it is stored, waiting in the group of the next commit.
struct Waiting {
    at_ms: i64,
    kind: Kind,
    server: String,
    subject: String,
    detail: String,
    decision: String,
    decided_by: Stored,
    outcome: Stored,
    duration_ms: Option<u64>,
    asked_by: String,
    given: Option<Given>,
    bytes: u64,
}

/// A call's outcome, waiting to complete its record.
struct Finished {
    id: i64,
    outcome: Stored,
    duration_ms: u64,
}

/// The log's table. Who decided and how it ended are stored typed, as a kind and its fields
/// (see `columns`); `decided_by` and `outcome` hold the text of the records written before
/// (under the kind `text`), empty in the others.
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
    given TEXT NOT NULL DEFAULT '',
    decided_by_kind TEXT NOT NULL DEFAULT 'text',
    decided_by_detail TEXT NOT NULL DEFAULT '',
    outcome_kind TEXT NOT NULL DEFAULT 'text',
    outcome_detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS audit_server ON audit (server, id);
CREATE INDEX IF NOT EXISTS audit_at ON audit (at_ms);
";

impl Store {
    pub(super) fn open(path: &Path, retention: Retention) -> Result<Self, AuditError> {
        let fail = |source| {
            AuditError::from(FileFault::Database {
                path: path.display().to_string(),
                source,
            })
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
        add_typed(&db).map_err(fail)?;
        columns::register(&db).map_err(fail)?;
        let now = now_ms();
        retention::enforce(&db, &retention, now).map_err(fail)?;
        let recent = retention::Recent::read(&db, now).map_err(fail)?;
        Ok(Self {
            db: Db::new(path, db),
            retention,
            added: AtomicU32::new(0),
            outcomes: Mutex::default(),
            recent: Mutex::new(recent),
            queue: Mutex::default(),
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

    /// Queues a record for the writer, which sends its id to `reply` once it is synced to
    /// the disk. Whether the caller must start the writer ([`Self::write`]): none runs.
    pub(super) fn queue(
        &self,
        record: &Record,
        asked_by: &str,
        given: Option<Given>,
        reply: Reply,
    ) -> bool {
        let at_ms = now_ms();
        let whole = Kept::of(record, asked_by, Size::Whole);
        let kept = match self.size_now(at_ms, whole.bytes()) {
            Size::Whole => whole,
            Size::Short => Kept::of(record, asked_by, Size::Short),
        };
        let mut queue = self.queue.lock();
        queue.records.push((kept.waiting(at_ms, given), reply));
        queue.start_writing()
    }

    /// The writer: commits what is queued, group by group, until nothing is.
    pub(super) fn write(&self) {
        loop {
            let records = {
                let mut queue = self.queue.lock();
                let records = std::mem::take(&mut queue.records);
                if records.is_empty() && self.queued().is_empty() {
                    queue.writing = false;
                    return;
                }
                records
            };
            if records.is_empty() {
                if let Err(e) = self.write_outcomes() {
                    // Still queued: the next write or read takes them. A record queued
                    // meanwhile was left to this writer, which stops only once none is.
                    tracing::warn!("{e}");
                    let mut queue = self.queue.lock();
                    if queue.records.is_empty() {
                        queue.writing = false;
                        return;
                    }
                }
                continue;
            }
            self.write_group(records);
        }
    }

    /// Commits `records` together, and answers each; if the commit fails, each is written
    /// alone, so that each call's error is its own.
    fn write_group(&self, records: Vec<(Waiting, Reply)>) {
        let mut db = self.db.lock();
        let (waiting, replies): (Vec<Waiting>, Vec<Reply>) = records.into_iter().unzip();
        let at_ms = waiting.last().map_or_else(now_ms, |w| w.at_ms);
        let results: Vec<Result<i64, AuditError>> = match self.commit(&mut db, &waiting) {
            Ok(ids) => ids.into_iter().map(Ok).collect(),
            Err(_) if waiting.len() > 1 => waiting
                .iter()
                .map(|alone| {
                    self.commit(&mut db, std::slice::from_ref(alone))
                        .map(|ids| ids[0])
                        .map_err(|e| self.db.fail(e))
                })
                .collect(),
            Err(e) => vec![Err(self.db.fail(e))],
        };
        let mut written = 0;
        {
            let mut recent = self.recent.lock();
            for (waiting, result) in waiting.iter().zip(&results) {
                if result.is_ok() {
                    recent.add(waiting.at_ms, waiting.bytes);
                    written += 1;
                }
            }
        }
        if written > 0 && self.added.fetch_add(written, Ordering::Relaxed) + written >= CHECK_EVERY
        {
            self.added.store(0, Ordering::Relaxed);
            // The records are kept either way; a retention that fails is tried again later.
            if let Err(e) = retention::enforce(&db, &self.retention, at_ms) {
                tracing::warn!("{}", self.db.fail(e));
            }
        }
        drop(db);
        for (reply, result) in replies.into_iter().zip(results) {
            // A caller that went away still has its record kept.
            let _ = reply.send(result);
        }
    }

    /// Writes `records` in one commit, synced, with the outcomes waiting (one sync for all of
    /// it); their ids, in order.
    fn commit(&self, db: &mut Connection, records: &[Waiting]) -> rusqlite::Result<Vec<i64>> {
        self.with_outcomes(|outcomes| {
            let tx = db.transaction()?;
            complete(&tx, outcomes)?;
            let mut ids = Vec::with_capacity(records.len());
            {
                // Compiled once per connection: a record is written for every call.
                let mut insert = tx.prepare_cached(
                    "INSERT INTO audit (at_ms, kind, server, subject, detail, decision,
                         decided_by_kind, decided_by_detail, decided_by,
                         outcome_kind, outcome_detail, outcome, duration_ms, asked_by, given)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                )?;
                for r in records {
                    insert.execute(params![
                        r.at_ms,
                        r.kind.as_str(),
                        r.server,
                        r.subject,
                        r.detail,
                        r.decision,
                        r.decided_by.kind,
                        r.decided_by.detail,
                        r.decided_by.text,
                        r.outcome.kind,
                        r.outcome.detail,
                        r.outcome.text,
                        r.duration_ms.map(|d| d as i64),
                        r.asked_by,
                        r.given.map_or("", Given::as_str),
                    ])?;
                    ids.push(tx.last_insert_rowid());
                }
            }
            tx.commit()?;
            Ok(ids)
        })
    }

    /// Completes a record written before its outcome was known (a call that was allowed),
    /// in memory at once; the file gets it with its next write or read, or from
    /// [`Self::write_outcomes`].
    /// Whether the caller must start the writer ([`Self::write`]): none runs.
    pub(super) fn finish_later(&self, id: i64, outcome: Outcome, duration_ms: u64) -> bool {
        let now = now_ms();
        let whole = columns::store(bounds::outcome(&outcome, Size::Whole).as_ref());
        let outcome = match self.size_now(now, whole.bytes() as u64) {
            Size::Whole => whole,
            Size::Short => columns::store(bounds::outcome(&outcome, Size::Short).as_ref()),
        };
        self.recent.lock().add(now, outcome.bytes() as u64);
        self.queued().push(Finished {
            id,
            outcome,
            duration_ms,
        });
        self.queue.lock().start_writing()
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
        write: impl FnOnce(&[Finished]) -> rusqlite::Result<T>,
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

    fn queued(&self) -> parking_lot::MutexGuard<'_, Vec<Finished>> {
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
                "SELECT id, at_ms, kind, server, subject, detail, decision,
                     decided_by_kind, decided_by_detail, decided_by,
                     outcome_kind, outcome_detail, outcome, duration_ms, asked_by, given
                 FROM audit WHERE id < ?1 AND (?3 = '' OR instr(lower(
                     subject || char(10) || server || char(10) || detail
                     || char(10) || outcome_text(outcome_kind, outcome_detail, outcome)
                     || char(10) || decision
                     || char(10) || decided_by_text(decided_by_kind, decided_by_detail, decided_by)
                     || char(10) || asked_by), ?3) > 0)
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
                        decided_by: columns::read(
                            &row.get::<_, String>(7)?,
                            &row.get::<_, String>(8)?,
                            row.get(9)?,
                        ),
                        outcome: columns::read(
                            &row.get::<_, String>(10)?,
                            &row.get::<_, String>(11)?,
                            row.get(12)?,
                        ),
                        duration_ms: row.get::<_, Option<i64>>(13)?.map(|d| d as u64),
                    },
                    asked_by: row.get(14)?,
                    given: Given::parse(&row.get::<_, String>(15)?),
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

    /// How many records match: how often a rule decided. Those written before deciders
    /// were typed count when their text is the one the rule's decisions were recorded as.
    pub(super) fn count_decided(&self, by: &super::ByRule) -> Result<u64, AuditError> {
        let stored = columns::store(&by.decided_by);
        let recorded_as = by.decided_by.to_string();
        self.settled()?
            .query_row(
                "SELECT COUNT(*) FROM audit WHERE server = ?1
                 AND at_ms >= ?3 AND (?4 IS NULL OR subject = ?4)
                 AND ((decided_by_kind = ?2 AND decided_by_detail = ?5)
                      OR (decided_by_kind = 'text' AND decided_by = ?6))",
                rusqlite::params![
                    by.server,
                    stored.kind,
                    by.since_ms,
                    by.subject,
                    stored.detail,
                    recorded_as
                ],
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

/// A record as it is stored, each text within its bound.
struct Kept<'a> {
    record: &'a Record,
    subject: Cow<'a, str>,
    detail: String,
    decided_by: Stored,
    outcome: Stored,
    asked_by: Cow<'a, str>,
}

impl<'a> Kept<'a> {
    fn of(record: &'a Record, asked_by: &'a str, size: Size) -> Self {
        Self {
            record,
            subject: bounds::subject(&record.subject, size),
            detail: bounds::detail(&record.detail, size),
            decided_by: columns::store(&record.decided_by),
            outcome: columns::store(bounds::outcome(&record.outcome, size).as_ref()),
            asked_by: bounds::subject(asked_by, size),
        }
    }

    /// The record as it waits for its commit.
    fn waiting(&self, at_ms: i64, given: Option<Given>) -> Waiting {
        let record = self.record;
        Waiting {
            at_ms,
            kind: record.kind,
            server: record.server.clone(),
            subject: self.subject.clone().into_owned(),
            detail: self.detail.clone(),
            decision: record.decision.clone(),
            decided_by: self.decided_by.clone(),
            outcome: self.outcome.clone(),
            duration_ms: record.duration_ms,
            asked_by: self.asked_by.clone().into_owned(),
            given,
            bytes: self.bytes(),
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
            self.decided_by.bytes(),
            self.outcome.bytes(),
            self.asked_by.len(),
        ]
        .iter()
        .sum::<usize>() as u64
    }
}

/// Completes the records of these outcomes.
fn complete(db: &Connection, outcomes: &[Finished]) -> rusqlite::Result<()> {
    if outcomes.is_empty() {
        return Ok(());
    }
    let mut update = db.prepare_cached(
        "UPDATE audit SET outcome_kind = ?2, outcome_detail = ?3, outcome = ?4, duration_ms = ?5
         WHERE id = ?1",
    )?;
    for Finished {
        id,
        outcome,
        duration_ms,
    } in outcomes
    {
        let Stored { kind, detail, text } = outcome;
        update.execute(params![id, kind, detail, text, *duration_ms as i64])?;
    }
    Ok(())
}

/// Gives a log made before decisions said how they were given its `given` column. What its
/// records themselves tell is filled in (a rule's decision names the rule, the person's own
/// call says so); whether the person allowed once, for the session or always was not kept.
/// Such a log is older than typed deciders: its every record names who decided in text.
fn add_given(db: &Connection) -> rusqlite::Result<()> {
    if !has_column(db, "given")? {
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
    if !has_column(db, "asked_by")? {
        db.execute_batch("ALTER TABLE audit ADD COLUMN asked_by TEXT NOT NULL DEFAULT ''")?;
    }
    Ok(())
}

/// Gives a log made before deciders and outcomes were typed their typed columns: its
/// records take the kind `text`, and are read as their text was recorded (nothing of it
/// is parsed).
fn add_typed(db: &Connection) -> rusqlite::Result<()> {
    if has_column(db, "decided_by_kind")? {
        return Ok(());
    }
    let tx = db.unchecked_transaction()?;
    tx.execute_batch(
        "ALTER TABLE audit ADD COLUMN decided_by_kind TEXT NOT NULL DEFAULT 'text';
         ALTER TABLE audit ADD COLUMN decided_by_detail TEXT NOT NULL DEFAULT '';
         ALTER TABLE audit ADD COLUMN outcome_kind TEXT NOT NULL DEFAULT 'text';
         ALTER TABLE audit ADD COLUMN outcome_detail TEXT NOT NULL DEFAULT '';",
    )?;
    tx.commit()
}

fn has_column(db: &Connection, name: &str) -> rusqlite::Result<bool> {
    db.query_row(
        "SELECT COUNT(*) FROM pragma_table_info('audit') WHERE name = ?1",
        [name],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(subject: &str) -> Record {
        Record {
            kind: Kind::ToolCall,
            server: "demo".into(),
            subject: subject.into(),
            detail: json!({"text": "hi"}),
            decision: "allowed".into(),
            decided_by: crate::decisions::DecidedBy::Person,
            outcome: Outcome::Unknown,
            duration_ms: None,
        }
    }

    fn subject_of(store: &Store, id: i64) -> String {
        store
            .db
            .lock()
            .query_row("SELECT subject FROM audit WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .expect("the record")
    }

    /// Frames in the write-ahead log: each commit adds at least one.
    fn frames(path: &Path) -> u64 {
        let wal = std::fs::metadata(path.with_extension("sqlite-wal")).map_or(0, |m| m.len());
        wal.saturating_sub(32) / (4096 + 24)
    }

    /// Queues a record of a call to `subject`; where its id will come.
    fn queued(store: &Store, subject: &str) -> oneshot::Receiver<Result<i64, AuditError>> {
        let (reply, id) = oneshot::channel();
        store.queue(&call(subject), "", None, reply);
        id
    }

    #[test]
    fn records_waiting_together_are_written_in_one_commit_each_under_its_own_id() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("audit.sqlite");
        let store = Store::open(&path, Retention::default()).expect("the log");
        let before = frames(&path);
        // 64 calls at once, queued while the writer was busy.
        let ids: Vec<_> = (0..64)
            .map(|n| queued(&store, &format!("call-{n}")))
            .collect();
        store.write();
        for (n, mut id) in ids.into_iter().enumerate() {
            let id = id.try_recv().expect("answered").expect("written");
            assert_eq!(subject_of(&store, id), format!("call-{n}"));
        }
        let took = frames(&path) - before;
        assert!(
            took < 16,
            "64 records took {took} frames of the log: a commit each"
        );
        assert_eq!(store.count().expect("counted"), 64);
    }

    #[test]
    fn each_record_of_a_group_that_failed_to_commit_gets_an_error_of_its_own() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("audit.sqlite");
        let store = Store::open(&path, Retention::default()).expect("the log");
        store
            .db
            .lock()
            .busy_timeout(std::time::Duration::ZERO)
            .expect("no wait for the file");
        // Another process holds the file.
        let other = Connection::open(&path).expect("another connection");
        other.execute_batch("BEGIN EXCLUSIVE").expect("locked");
        let ids = [queued(&store, "first"), queued(&store, "second")];
        store.write();
        for mut id in ids {
            let error = id
                .try_recv()
                .expect("answered")
                .expect_err("the file is locked");
            assert!(error.to_string().contains("locked"), "{error}");
        }
        other.execute_batch("COMMIT").expect("released");
        let mut id = queued(&store, "third");
        store.write();
        let id = id
            .try_recv()
            .expect("answered")
            .expect("written, the file free");
        assert_eq!(subject_of(&store, id), "third");
        assert_eq!(store.count().expect("counted"), 1);
    }
}
