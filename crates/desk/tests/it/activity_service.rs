//! The activity's service on its own, in process, over a real audit trail in a file of the
//! test's: what the activity view reads of the trail, newest first, page by page, found by
//! what the person reads in it.

use std::sync::Arc;

use serde_json::json;
use switchboard_core::audit::{AuditLog, Kind, Record, Retention};
use switchboard_core::decisions::{DecidedBy, Outcome};
use switchboard_desk::Activity;

fn record(subject: &str, decided_by: DecidedBy, outcome: Outcome) -> Record {
    Record {
        kind: Kind::ToolCall,
        server: "notes".into(),
        subject: subject.into(),
        detail: json!({"text": subject}),
        decision: "allowed".into(),
        decided_by,
        outcome,
        duration_ms: Some(3),
    }
}

#[tokio::test]
async fn the_trail_reads_newest_first_page_by_page_in_the_persons_words() {
    let dir = tempfile::tempdir().unwrap();
    let audit =
        Arc::new(AuditLog::open(&dir.path().join("audit.sqlite"), Retention::default()).unwrap());
    let notice = switchboard_desk::FileNotice::RetentionUnread {
        key: "auditRetentionDays".into(),
        value: "\"a month\"".into(),
    };
    let activity = Activity::new(audit.clone(), vec![notice.clone()]);
    audit
        .record(record("add_note", DecidedBy::Person, Outcome::Succeeded))
        .await
        .unwrap();
    audit
        .record(record(
            "wipe",
            DecidedBy::Timeout,
            Outcome::Failed("gone".into()),
        ))
        .await
        .unwrap();
    audit
        .record(record("read_note", DecidedBy::OwnCall, Outcome::Succeeded))
        .await
        .unwrap();

    let first = activity.page(None, 2).await.unwrap();
    let subjects: Vec<&str> = first.iter().map(|e| e.subject.as_str()).collect();
    assert_eq!(
        subjects,
        ["read_note", "wipe"],
        "newest first, two to a page"
    );
    assert_eq!(first[1].decided_by, DecidedBy::Timeout);
    assert_eq!(first[1].outcome, Outcome::Failed("gone".into()));
    let rest = activity.page(Some(first[1].id), 2).await.unwrap();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].subject, "add_note");

    // Found by the words the person reads, not by how the trail stores them.
    let said = DecidedBy::Timeout.to_string();
    let found = activity.search(&said, None, 10).await.unwrap();
    assert_eq!(found.len(), 1, "{said}");
    assert_eq!(found[0].subject, "wipe");
    assert_eq!(activity.notices(), [notice]);
}
