//! The audit log's SQLite calls never hold up the async runtime: on a runtime of one
//! thread, another task keeps running while a record waits for the file (here, locked by
//! another connection, as another process would lock it).

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use rusqlite::Connection;
use serde_json::json;
use switchboard_core::audit::{AuditLog, Kind, Record, Retention};
use switchboard_core::decisions::{DecidedBy, Outcome};

/// How long the lock may be held if the test never releases it: a hang check.
const HANG: Duration = Duration::from_secs(20);
/// How far the other task must get while the record waits.
const TICKS: u64 = 1000;

fn call() -> Record {
    Record {
        kind: Kind::ToolCall,
        server: "demo".into(),
        subject: "echo".into(),
        detail: json!({"text": "hi"}),
        decision: "allowed".into(),
        decided_by: DecidedBy::Person,
        outcome: Outcome::Unknown,
        duration_ms: None,
    }
}

#[test]
fn a_record_waiting_for_a_locked_file_lets_other_tasks_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    let log = Arc::new(AuditLog::open(&path, Retention::default()).unwrap());

    let (locked, is_locked) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let db = Connection::open(&path).unwrap();
        db.execute_batch("BEGIN EXCLUSIVE").unwrap();
        locked.send(()).unwrap();
        let _ = released.recv_timeout(HANG);
        db.execute_batch("COMMIT").unwrap();
    });
    is_locked.recv().unwrap();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (waiting, recorded) = runtime.block_on(async {
        let ticks = Arc::new(AtomicU64::new(0));
        let ticker = tokio::spawn({
            let ticks = ticks.clone();
            async move {
                loop {
                    ticks.fetch_add(1, Ordering::Relaxed);
                    tokio::task::yield_now().await;
                }
            }
        });
        let recording = tokio::spawn(async move { log.record(call()).await });
        while ticks.load(Ordering::Relaxed) < TICKS {
            tokio::task::yield_now().await;
        }
        let waiting = !recording.is_finished();
        release.send(()).unwrap();
        let recorded = recording.await.unwrap();
        ticker.abort();
        (waiting, recorded)
    });
    holder.join().unwrap();
    assert!(
        waiting,
        "the record held the runtime's only thread until it was done ({recorded:?})"
    );
    assert!(recorded.is_ok(), "{recorded:?}");
}
