//! An audit trail written before who decided and how it ended were typed: the desk lists
//! and finds its records as they were recorded, writes the new ones typed beside them, and
//! a rule's uses count both.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::json;
use switchboard_core::audit::{AuditLog, ByRule, Kind, Record, Retention};
use switchboard_core::decisions::{BY_YOU, DecidedBy, Given, Outcome, Reach, Scope};
use switchboard_core::secrets::Secrets;
use switchboard_desk::AuditEntry;

use crate::common::{demo_server, desk_in};

/// The table as the trail had it before: who decided and how it ended as text.
const OLD_SCHEMA: &str = "
CREATE TABLE audit (
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
CREATE INDEX audit_server ON audit (server, id);
CREATE INDEX audit_at ON audit (at_ms);
";

const RULE: &str = "policy: allowed for this tool, always";

/// Old records: (kind, subject, decision, decided by, outcome, asked by, given), oldest first.
const OLD: [[&str; 7]; 3] = [
    [
        "tool_call",
        "echo",
        "allowed",
        RULE,
        "ok",
        "agent Cursor",
        "rule",
    ],
    [
        "sampling",
        "sampling/createMessage",
        "timed out",
        "timeout",
        "",
        "",
        "",
    ],
    [
        "tool_call",
        "add",
        "allowed",
        "user",
        "error: the server went away",
        "model in conversation 7",
        "once",
    ],
];

/// What the window is shown of an entry: subject, decision, decided by, outcome, asked by.
fn shown(entry: &AuditEntry) -> [String; 5] {
    [
        entry.subject.clone(),
        entry.decision.clone(),
        entry.decided_by.to_string(),
        entry.outcome.to_string(),
        entry.asked_by.clone(),
    ]
}

fn write_old_log(path: &std::path::Path) {
    let old = rusqlite::Connection::open(path).unwrap();
    old.execute_batch(OLD_SCHEMA).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    for [
        kind,
        subject,
        decision,
        decided_by,
        outcome,
        asked_by,
        given,
    ] in OLD
    {
        old.execute(
            "INSERT INTO audit (at_ms, kind, server, subject, detail, decision, decided_by,
                 outcome, duration_ms, asked_by, given)
             VALUES (?1, ?2, 'demo', ?3, '{}', ?4, ?5, ?6, 5, ?7, ?8)",
            rusqlite::params![
                now, kind, subject, decision, decided_by, outcome, asked_by, given
            ],
        )
        .unwrap();
    }
}

#[tokio::test]
async fn a_trail_written_before_it_was_typed_is_listed_as_it_was_and_new_records_are_typed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.sqlite");
    write_old_log(&path);
    let servers = json!({"demo": {"command": demo_server().display().to_string()}});
    let file = json!({"mcpServers": servers, "settings": {}});
    std::fs::write(dir.path().join("config.json"), file.to_string()).unwrap();
    let mut world = desk_in(dir, Secrets::new("switchboard-test-demo-desk"));
    world.desk.start().await;
    world.running(&["demo"]).await;

    let old_shown: Vec<[String; 5]> = OLD
        .iter()
        .rev()
        .map(|[_, subject, decision, by, outcome, asked, _]| {
            [subject, decision, by, outcome, asked].map(|s| (*s).to_owned())
        })
        .collect();
    let listed = world.desk.activity().page(None, 10).await.unwrap();
    let as_listed =
        |entries: &[AuditEntry]| -> Vec<[String; 5]> { entries.iter().map(shown).collect() };
    assert_eq!(as_listed(&listed), old_shown, "listed as they were");
    let given: Vec<Option<Given>> = listed.iter().map(|e| e.given).collect();
    assert_eq!(given, [Some(Given::Once), None, Some(Given::Rule)]);

    // The person's own call, recorded typed beside them.
    world
        .call("echo", json!({"text": "new"}), "new")
        .await
        .unwrap()
        .unwrap();
    let listed = world.desk.activity().page(None, 10).await.unwrap();
    assert_eq!(
        shown(&listed[0]),
        ["echo", "allowed", BY_YOU, "ok", "the person"]
    );
    assert_eq!(as_listed(&listed[1..]), old_shown, "still as they were");

    // The search finds what a person reads, old and new alike.
    let found = |text: &'static str| {
        let desk = world.desk.clone();
        async move {
            let entries = desk.activity().search(text, None, 10).await.unwrap();
            entries.into_iter().map(|e| e.subject).collect::<Vec<_>>()
        }
    };
    assert_eq!(found("YOUR OWN CALL").await, ["echo"]);
    assert_eq!(found("for this tool, always").await, ["echo"]);
    assert_eq!(found("server went away").await, ["add"]);
    assert_eq!(found("timeout").await, ["sampling/createMessage"]);
    assert_eq!(found("ok").await, ["echo", "echo"]);
    world.desk.shutdown().await;
    let dir = world.dir;
    drop(world.desk);

    // Read back typed: the old records as recorded, the new one as what it is.
    let log = AuditLog::open(&dir.path().join("audit.sqlite"), Retention::default()).unwrap();
    let typed: Vec<(DecidedBy, Outcome)> = log
        .page(None, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.record.decided_by, r.record.outcome))
        .collect();
    let recorded = |by: &str, outcome: &str| {
        (
            DecidedBy::Recorded(by.into()),
            Outcome::Recorded(outcome.into()),
        )
    };
    assert_eq!(
        typed,
        [
            (DecidedBy::OwnCall, Outcome::Succeeded),
            recorded("user", "error: the server went away"),
            recorded("timeout", ""),
            recorded(RULE, "ok"),
        ]
    );
    let stored: Vec<[String; 4]> = {
        let db = rusqlite::Connection::open(dir.path().join("audit.sqlite")).unwrap();
        let mut rows = db
            .prepare(
                "SELECT decided_by_kind, decided_by, outcome_kind, outcome FROM audit
                 ORDER BY id DESC LIMIT 2",
            )
            .unwrap();
        rows.query_map([], |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?]))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(
        stored,
        [
            ["own_call", "", "succeeded", ""],
            ["text", "user", "text", "error: the server went away"],
        ]
        .map(|row| row.map(ToOwned::to_owned)),
        "the new record holds no text of who decided or how it ended"
    );

    // A rule's uses: those recorded as its text before, and those recorded typed since.
    let rule = DecidedBy::Rule {
        allow: true,
        reach: Reach::Tool,
        scope: Scope::Always,
    };
    let uses = || ByRule {
        server: "demo".into(),
        subject: Some("echo".into()),
        decided_by: rule.clone(),
        since_ms: 0,
    };
    assert_eq!(log.count_decided(uses()).await.unwrap(), 1);
    log.record(Record {
        kind: Kind::ToolCall,
        server: "demo".into(),
        subject: "echo".into(),
        detail: json!({}),
        decision: "allowed".into(),
        decided_by: rule.clone(),
        outcome: Outcome::Unknown,
        duration_ms: None,
    })
    .await
    .unwrap();
    assert_eq!(log.count_decided(uses()).await.unwrap(), 2);
    let session = ByRule {
        decided_by: DecidedBy::Rule {
            allow: true,
            reach: Reach::Tool,
            scope: Scope::Session,
        },
        ..uses()
    };
    assert_eq!(log.count_decided(session).await.unwrap(), 0, "another rule");
}
