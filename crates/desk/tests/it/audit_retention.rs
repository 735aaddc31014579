//! The audit trail's retention in a real SQLite file: records older than the limit go when
//! the log opens and as records are added; the records stay within their room, the newest
//! kept, and a flood of records erases nothing of the last hour; the host settings set both
//! limits. `-- --nocapture` prints the room measured.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, params};
use serde_json::json;
use switchboard_core::audit::{
    AuditLog, CHECK_EVERY, Kind, RECENT, Record, Retention, SHORT_BYTES,
};
use switchboard_core::config::{self, Config};
use switchboard_core::decisions::{DecidedBy, Outcome};
use switchboard_core::secrets::Secrets;
use switchboard_desk::{Desk, FileNotice};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// Older than the last hour, whose records never go to make room.
const EARLIER_MS: i64 = 2 * RECENT.as_millis() as i64;

fn call(text: String) -> Record {
    Record {
        kind: Kind::ToolCall,
        server: "demo".into(),
        subject: "echo".into(),
        detail: json!({ "text": text }),
        decision: "allowed".into(),
        decided_by: DecidedBy::Person,
        outcome: Outcome::Succeeded,
        duration_ms: Some(1),
    }
}

/// Makes the records `ids` look `ms` older, through a connection of its own (as another
/// process would see the file).
fn age(path: &Path, ids: std::ops::RangeInclusive<i64>, ms: i64) {
    let db = Connection::open(path).unwrap();
    db.execute(
        "UPDATE audit SET at_ms = at_ms - ?1 WHERE id BETWEEN ?2 AND ?3",
        params![ms, ids.start(), ids.end()],
    )
    .unwrap();
}

async fn ids(log: &AuditLog) -> Vec<i64> {
    log.page(None, 10_000)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect()
}

#[tokio::test]
async fn records_older_than_the_retention_go_when_the_log_opens_and_as_records_are_added() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    let log = AuditLog::open(&path, Retention::default()).unwrap();
    for n in 1..=10 {
        log.record(call(format!("call {n}"))).await.unwrap();
    }
    drop(log);
    age(&path, 1..=4, 91 * DAY_MS);
    age(&path, 5..=6, 89 * DAY_MS);
    let log = AuditLog::open(&path, Retention::default()).unwrap();
    assert_eq!(ids(&log).await, (5..=10).rev().collect::<Vec<_>>());

    // While it is open, checked as records are added.
    age(&path, 7..=7, 2 * DAY_MS);
    let week = Retention {
        max_age: Some(Duration::from_secs(7 * 24 * 60 * 60)),
        ..Retention::default()
    };
    drop(log);
    let log = AuditLog::open(&path, week).unwrap();
    assert_eq!(ids(&log).await, [10, 9, 8, 7]);
    age(&path, 8..=8, 30 * DAY_MS);
    for n in 0..CHECK_EVERY {
        log.record(call(format!("later {n}"))).await.unwrap();
    }
    let kept = ids(&log).await;
    assert!(!kept.contains(&8) && kept.contains(&7), "{kept:?}");
    assert_eq!(kept.len() as u32, CHECK_EVERY + 3);
}

/// Over the hours, the records stay within their room, the newest kept: 1,000 records of
/// 1 KiB, written 25 at a time (each time the app is started again) two hours apart.
#[tokio::test]
async fn the_records_stay_within_their_room_the_newest_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    let room = 128 * 1024;
    let retention = Retention {
        max_age: None,
        max_bytes: Some(room),
    };
    let filler = "x".repeat(1000);
    let (written, at_once) = (1000, 25);
    for run in 0..written / at_once {
        let log = AuditLog::open(&path, retention).unwrap();
        for n in run * at_once..(run + 1) * at_once {
            log.record(call(format!("{n} {filler}"))).await.unwrap();
        }
        drop(log);
        age(&path, 1..=i64::MAX, EARLIER_MS);
    }
    let log = AuditLog::open(&path, retention).unwrap();
    let used = log.bytes_used().await.unwrap();
    let kept = log.count().await.unwrap();
    let newest = log.page(None, 1).await.unwrap().remove(0).record.detail;
    drop(log);
    let file = std::fs::metadata(&path).unwrap().len();
    println!(
        "{written} records of 1 KiB in a room of {} KiB: {kept} kept in {} KiB; the file {} KiB once closed",
        room / 1024,
        used / 1024,
        file / 1024
    );
    assert!(used <= room, "{used} bytes used");
    assert!(kept > 40 && kept < written, "{kept} kept");
    assert!(newest["text"].as_str().unwrap().starts_with("999 "));
    // Up to one check's worth of records over the room, and the pages freed given back.
    assert!(
        file <= room + (CHECK_EVERY as u64 + 10) * 2048,
        "{file} bytes"
    );
}

/// A flood of records erases nothing of the last hour, the record of what came just
/// before it included: the room is made from older records. What the flood adds beyond a
/// quarter of the room is kept short (who asked what, decided how, without the arguments),
/// so that it adds little.
#[tokio::test]
async fn a_flood_of_records_erases_nothing_of_the_last_hour() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    let room = 128 * 1024;
    let retention = Retention {
        max_age: None,
        max_bytes: Some(room),
    };
    let filler = "x".repeat(1000);
    let log = AuditLog::open(&path, retention).unwrap();
    let earlier = 100;
    for n in 0..earlier {
        let record = Record {
            subject: "earlier".into(),
            ..call(format!("{n} {filler}"))
        };
        log.record(record).await.unwrap();
    }
    drop(log);
    age(&path, 1..=i64::MAX, EARLIER_MS);
    let log = AuditLog::open(&path, retention).unwrap();
    let what_happened = Record {
        subject: "delete_note".into(),
        detail: json!({"id": "the note that mattered"}),
        ..call(String::new())
    };
    let evidence = log.record(what_happened.clone()).await.unwrap();
    let flood = 1000;
    for n in 0..flood {
        log.record(call(format!("flood {n} {filler}")))
            .await
            .unwrap();
    }
    let rows = log.page(None, 10_000).await.unwrap();
    let used = log.bytes_used().await.unwrap();
    let kept = |subject: &str| rows.iter().filter(|r| r.record.subject == subject).count();
    let whole = rows
        .iter()
        .filter(|r| r.record.detail.to_string().contains("flood "))
        .count();
    let earlier_kept = kept("earlier");
    println!(
        "{flood} records of 1 KiB in the last hour, in a room of {} KiB: {} KiB used; \
         {whole} kept whole; {earlier_kept} of {earlier} earlier records kept",
        room / 1024,
        used / 1024
    );
    let found = rows.iter().find(|r| r.id == evidence);
    assert_eq!(
        found.map(|r| &r.record),
        Some(&what_happened),
        "the record of what came before the flood is kept whole"
    );
    assert_eq!(kept("echo"), flood, "every record of the flood is kept");
    assert!(
        earlier_kept < earlier,
        "the room is made from older records"
    );
    // A quarter of the room whole, then short records: who asked what, decided how.
    assert!(
        whole > 0 && whole as u64 * 1024 <= room / 4,
        "{whole} kept whole"
    );
    let newest = &rows[0].record;
    let last = call(format!("flood {} {filler}", flood - 1)).detail;
    assert_eq!(
        newest.detail,
        json!({"cut": true, "bytes": last.to_string().len()})
    );
    assert_eq!(
        (
            newest.subject.as_str(),
            newest.decision.as_str(),
            &newest.outcome
        ),
        ("echo", "allowed", &Outcome::Succeeded)
    );
    assert!(
        used <= room / 4 + flood as u64 * SHORT_BYTES as u64,
        "{used} bytes used"
    );
}

#[tokio::test]
async fn the_host_settings_set_the_retention() {
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("config.json");
    let audit_path = dir.path().join("audit.sqlite");
    let log = AuditLog::open(&audit_path, Retention::default()).unwrap();
    for n in 1..=3 {
        log.record(call(format!("call {n}"))).await.unwrap();
    }
    drop(log);
    age(&audit_path, 1..=1, 40 * DAY_MS);
    age(&audit_path, 2..=2, 20 * DAY_MS);
    let mut config = Config::default();
    config
        .settings
        .extra
        .insert("auditRetentionDays".into(), json!(30));
    config::save(&config_path, &config).unwrap();
    let desk = Desk::open(&config_path, &audit_path, Secrets::new("unused")).unwrap();
    let kept: Vec<i64> = desk
        .activity()
        .page(None, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(kept, [3, 2]);
    assert!(desk.activity().notices().is_empty());

    config
        .settings
        .extra
        .insert("auditRetentionDays".into(), json!("a month"));
    config::save(&config_path, &config).unwrap();
    let desk = Desk::open(&config_path, &audit_path, Secrets::new("unused")).unwrap();
    assert_eq!(
        desk.activity().page(None, 10).await.unwrap().len(),
        2,
        "the default applies"
    );
    let notices = desk.activity().notices();
    assert!(
        matches!(notices, [FileNotice::RetentionUnread { key, value }] if key == "auditRetentionDays" && value == "\"a month\""),
        "{notices:?}"
    );
}
