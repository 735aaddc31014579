//! The audit log in a real SQLite file: records read back in pages, and what was committed
//! before the process died is still there.

use std::process::Command;

use serde_json::json;
use switchboard_core::audit::{
    AuditLog, DETAIL_BYTES, Kind, OUTCOME_BYTES, Record, Retention, SUBJECT_BYTES,
};
use switchboard_core::decisions::{DecidedBy, Given, Outcome};

fn call(n: u32) -> Record {
    Record {
        kind: Kind::ToolCall,
        server: "demo".into(),
        subject: "echo".into(),
        detail: json!({"text": format!("call {n}")}),
        decision: "allowed".into(),
        decided_by: DecidedBy::Person,
        outcome: Outcome::Unknown,
        duration_ms: None,
    }
}

#[tokio::test]
async fn records_read_back_newest_first_in_pages() {
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::open(&dir.path().join("audit.sqlite"), Retention::default()).unwrap();
    let mut ids = Vec::new();
    for n in 1..=5 {
        ids.push(log.record(call(n)).await.unwrap());
    }
    log.finish(ids[4], Outcome::Succeeded, 12);
    let first = log.page(None, 2).await.unwrap();
    assert_eq!(
        first.iter().map(|r| r.id).collect::<Vec<_>>(),
        [ids[4], ids[3]]
    );
    assert_eq!(first[0].record.outcome, Outcome::Succeeded);
    assert_eq!(first[0].record.duration_ms, Some(12));
    assert_eq!(first[0].record.detail, json!({"text": "call 5"}));
    let second = log.page(Some(first[1].id), 2).await.unwrap();
    assert_eq!(
        second.iter().map(|r| r.id).collect::<Vec<_>>(),
        [ids[2], ids[1]]
    );
    let last = log.page(Some(second[1].id), 2).await.unwrap();
    assert_eq!(last.len(), 1);
    assert_eq!(log.count().await.unwrap(), 5);
}

#[tokio::test]
async fn every_kind_of_decision_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::open(&dir.path().join("audit.sqlite"), Retention::default()).unwrap();
    for (kind, decision) in [
        (Kind::Sampling, "declined"),
        (Kind::Elicitation, "accepted"),
        (Kind::Roots, "allowed"),
    ] {
        log.record(Record {
            kind,
            decision: decision.into(),
            ..call(0)
        })
        .await
        .unwrap();
    }
    let kinds: Vec<(Kind, String)> = log
        .page(None, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.record.kind, r.record.decision))
        .collect();
    assert_eq!(
        kinds,
        [
            (Kind::Roots, "allowed".into()),
            (Kind::Elicitation, "accepted".into()),
            (Kind::Sampling, "declined".into())
        ]
    );
}

#[tokio::test]
async fn a_huge_detail_subject_or_outcome_is_kept_cut_saying_how_long_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    let log = AuditLog::open(&path, Retention::default()).unwrap();
    let huge = "é".repeat(2 << 20);
    let detail = json!({"text": huge});
    let id = log
        .record(Record {
            subject: huge.clone(),
            detail: detail.clone(),
            ..call(0)
        })
        .await
        .unwrap();
    log.finish(id, Outcome::Failed(huge.clone()), 5);

    let row = log.page(None, 1).await.unwrap().remove(0).record;
    let kept = row.detail.to_string();
    assert!(kept.len() <= DETAIL_BYTES, "{} bytes of detail", kept.len());
    assert_eq!(row.detail["cut"], true);
    assert_eq!(row.detail["bytes"], detail.to_string().len());
    let start = row.detail["start"].as_str().unwrap();
    assert!(start.starts_with(r#"{"text":"ééé"#), "{start:.40}");
    // The outcome as a person reads it.
    let outcome = row.outcome.to_string();
    for (field, text, bound) in [
        ("subject", &row.subject, SUBJECT_BYTES),
        ("outcome", &outcome, OUTCOME_BYTES),
    ] {
        assert!(text.len() <= bound, "{} bytes of {field}", text.len());
        assert!(text.ends_with(" bytes in all]"), "{field}: {text:.40}…");
    }
    assert!(outcome.starts_with("error: ééé"));
    assert_eq!(row.duration_ms, Some(5));
    let on_disk: u64 = ["", "-wal"]
        .iter()
        .filter_map(|end| std::fs::metadata(format!("{}{end}", path.display())).ok())
        .map(|m| m.len())
        .sum();
    println!(
        "a record of {} bytes took {on_disk} bytes on disk",
        3 * huge.len()
    );
    assert!(on_disk < 1 << 20, "{on_disk} bytes on disk");
}

#[tokio::test]
async fn a_file_that_is_not_a_database_is_moved_aside_and_a_new_log_begun() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    let garbage = b"this is not a database\n".repeat(100);
    std::fs::write(&path, &garbage).unwrap();

    let log = AuditLog::open(&path, Retention::default()).expect("a new log begins");
    let aside = log.moved_aside().expect("the log says what it did").clone();
    let name = aside.to.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("audit.sqlite.corrupt-"), "{name}");
    assert_eq!(aside.to.parent(), Some(dir.path()));
    assert_eq!(std::fs::read(&aside.to).unwrap(), garbage, "kept as it was");
    let notice = aside.to_string();
    assert!(
        notice.contains(&path.display().to_string()) && notice.contains(&name),
        "{notice}"
    );
    log.record(call(1)).await.unwrap();
    assert_eq!(log.count().await.unwrap(), 1);
    drop(log);

    let log = AuditLog::open(&path, Retention::default()).unwrap();
    assert!(log.moved_aside().is_none(), "the new log reads");
    assert_eq!(log.count().await.unwrap(), 1);
}

/// The child half of the crash test: writes records, then dies without any cleanup.
/// [`records_survive_a_crash_of_the_writer`] runs it in a process of its own.
#[tokio::test]
#[ignore = "the writer that crashes, in a process of its own, started by the crash test"]
async fn crash_writer() {
    let Some(path) = std::env::var_os("SWITCHBOARD_AUDIT_CRASH_FILE") else {
        return;
    };
    let log = AuditLog::open(std::path::Path::new(&path), Retention::default()).unwrap();
    for n in 1..=3 {
        let id = log.record(call(n)).await.unwrap();
        if n == 1 {
            // Not waited for: it goes to the file with the next record at the latest.
            log.finish(id, Outcome::Succeeded, 7);
        }
    }
    std::process::abort();
}

#[tokio::test]
async fn records_survive_a_crash_of_the_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    let status = Command::new(std::env::current_exe().unwrap())
        .args(["audit::crash_writer", "--exact", "--ignored", "--nocapture"])
        .env("SWITCHBOARD_AUDIT_CRASH_FILE", &path)
        .status()
        .unwrap();
    assert!(!status.success(), "the writer was meant to crash");
    let log = AuditLog::open(&path, Retention::default()).unwrap();
    let texts: Vec<String> = log
        .page(None, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.record.detail["text"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(texts, ["call 3", "call 2", "call 1"]);
    let first = &log.page(None, 10).await.unwrap()[2];
    assert_eq!(
        (&first.record.outcome, first.record.duration_ms),
        (&Outcome::Succeeded, Some(7)),
        "the outcome of the call finished before the crash"
    );
}

/// An outcome is not waited for, yet whatever reads the log next finds it, in the file.
#[tokio::test]
async fn an_outcome_not_waited_for_is_read_at_once_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    let log = AuditLog::open(&path, Retention::default()).unwrap();
    let ids = [
        log.record(call(1)).await.unwrap(),
        log.record(call(2)).await.unwrap(),
    ];
    log.finish(ids[0], Outcome::Succeeded, 3);
    log.finish(ids[1], Outcome::ToolError, 4);
    let outcomes = |rows: Vec<switchboard_core::audit::Row>| {
        rows.into_iter()
            .map(|r| (r.record.outcome, r.record.duration_ms))
            .collect::<Vec<_>>()
    };
    let expected = [(Outcome::ToolError, Some(4)), (Outcome::Succeeded, Some(3))];
    assert_eq!(outcomes(log.page(None, 10).await.unwrap()), expected);
    let reopened = AuditLog::open(&path, Retention::default()).unwrap();
    assert_eq!(outcomes(reopened.page(None, 10).await.unwrap()), expected);
}

#[tokio::test]
async fn a_log_from_before_origins_keeps_its_records_and_names_who_asks_from_then_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    {
        let old = rusqlite::Connection::open(&path).unwrap();
        old.execute_batch(
            "CREATE TABLE audit (
                id INTEGER PRIMARY KEY AUTOINCREMENT, at_ms INTEGER NOT NULL,
                kind TEXT NOT NULL, server TEXT NOT NULL, subject TEXT NOT NULL,
                detail TEXT NOT NULL, decision TEXT NOT NULL, decided_by TEXT NOT NULL,
                outcome TEXT NOT NULL, duration_ms INTEGER);
             INSERT INTO audit (at_ms, kind, server, subject, detail, decision, decided_by, outcome)
             VALUES (CAST(strftime('%s', 'now') AS INTEGER) * 1000, 'tool_call', 'demo', 'echo', '{}', 'allowed', 'user', 'ok');",
        )
        .unwrap();
    }
    let log = AuditLog::open(&path, Retention::default()).unwrap();
    log.record_call(call(2), "model in conversation 7".into(), None)
        .await
        .unwrap();
    let rows = log.page(None, 10).await.unwrap();
    let asked: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r.record.subject.as_str(), r.asked_by.as_str()))
        .collect();
    assert_eq!(asked, [("echo", "model in conversation 7"), ("echo", "")]);
}

#[tokio::test]
async fn a_log_from_before_allows_said_how_they_were_given_keeps_every_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    {
        let old = rusqlite::Connection::open(&path).unwrap();
        old.execute_batch(
            "CREATE TABLE audit (
                id INTEGER PRIMARY KEY AUTOINCREMENT, at_ms INTEGER NOT NULL,
                kind TEXT NOT NULL, server TEXT NOT NULL, subject TEXT NOT NULL,
                detail TEXT NOT NULL, decision TEXT NOT NULL, decided_by TEXT NOT NULL,
                outcome TEXT NOT NULL, duration_ms INTEGER, asked_by TEXT NOT NULL DEFAULT '');
             CREATE INDEX audit_server ON audit (server, id);",
        )
        .unwrap();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        for (subject, decided_by) in [
            ("echo", "user"),
            ("add", "policy: allowed for this tool, always"),
            ("list", switchboard_core::decisions::BY_YOU),
            ("read", "trusted server: read-only tool"),
        ] {
            old.execute(
                "INSERT INTO audit (at_ms, kind, server, subject, detail, decision, decided_by, outcome, asked_by)
                 VALUES (?1, 'tool_call', 'demo', ?2, '{\"text\":\"old\"}', 'allowed', ?3, 'ok', 'the person')",
                rusqlite::params![now, subject, decided_by],
            )
            .unwrap();
        }
    }
    let log = AuditLog::open(&path, Retention::default()).unwrap();
    log.record_call(call(5), "the person".into(), Some(Given::Always))
        .await
        .unwrap();
    let rows = log.page(None, 10).await.unwrap();
    let given: Vec<(&str, Option<Given>)> = rows
        .iter()
        .map(|r| (r.record.subject.as_str(), r.given))
        .collect();
    assert_eq!(
        given,
        [
            ("echo", Some(Given::Always)),
            ("read", Some(Given::Rule)),
            ("list", Some(Given::Own)),
            ("add", Some(Given::Rule)),
            // The person's old answers did not say for how long.
            ("echo", None),
        ]
    );
    assert!(
        rows[1..]
            .iter()
            .all(|r| r.record.detail == json!({"text": "old"}))
    );
    drop(log);
    // Opened again, nothing changes.
    let log = AuditLog::open(&path, Retention::default()).unwrap();
    assert_eq!(log.count().await.unwrap(), 5);
    assert_eq!(log.page(None, 10).await.unwrap(), rows);
}
