//! What Switchboard keeps beside its configuration (the audit log, the conversations, the
//! tasks, and the journals SQLite writes beside each) is the person's alone, whatever the umask: the
//! folder 0700, every file in it 0600, as the configuration file is.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::Path;

use nix::sys::stat::{Mode, umask};
use serde_json::json;
use switchboard_chat::Conversations;
use switchboard_core::audit::{AuditLog, Kind, Record, Retention};
use switchboard_core::decisions::{DecidedBy, Outcome};
use switchboard_desk::tasks::{Began, TaskBook};

const FILES: [&str; 3] = ["audit.sqlite", "conversations.sqlite", "tasks.sqlite"];

/// The umask most systems give a person: files 0644 and folders 0755 unless made otherwise.
fn usual_umask() {
    umask(Mode::from_bits_truncate(0o022));
}

/// The mode of a file or folder, in octal as `ls` and `chmod` say it.
fn mode(path: &Path) -> String {
    format!(
        "{:o}",
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    )
}

/// The mode of each file in `folder`, by name.
fn modes_in(folder: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, mode(&entry.path()))
        })
        .collect()
}

/// Writes to the audit log and the conversations in `folder`, as the app does; both stay
/// open, so that their journals are there to be seen.
async fn write_all(folder: &Path) -> (AuditLog, Conversations, TaskBook) {
    let log = AuditLog::open(&folder.join(FILES[0]), Retention::default()).unwrap();
    log.record(Record {
        kind: Kind::ToolCall,
        server: "demo".into(),
        subject: "echo".into(),
        detail: json!({"text": "private"}),
        decision: "allowed".into(),
        decided_by: DecidedBy::Person,
        outcome: Outcome::Unknown,
        duration_ms: None,
    })
    .await
    .unwrap();
    let conversations = Conversations::open(&folder.join(FILES[1])).unwrap();
    conversations.create("Private").await.unwrap();
    let tasks = TaskBook::open(&folder.join(FILES[2])).unwrap();
    let task = serde_json::from_value(json!({"taskId": "t", "status": "working",
        "createdAt": "", "lastUpdatedAt": "", "ttl": null}))
    .unwrap();
    let began = Began {
        server: "demo",
        tool: "research",
        asked_by: "the person",
    };
    tasks.seen(&began, &task).await.unwrap();
    (log, conversations, tasks)
}

/// The folder is 0700 and each file in it, journals included, 0600.
fn assert_owners_alone(folder: &Path) {
    assert_eq!(mode(folder), "700", "the folder");
    let modes = modes_in(folder);
    for name in FILES {
        for file in [
            name.to_owned(),
            format!("{name}-wal"),
            format!("{name}-shm"),
        ] {
            assert!(modes.contains_key(&file), "{file} is there: {modes:?}");
        }
    }
    assert!(modes.values().all(|m| m == "600"), "{modes:?}");
}

/// Fails without `sqlite_file/private.rs` (files opened as SQLite makes them): the folder
/// is 755 and every file 644.
#[tokio::test]
async fn the_audit_log_the_conversations_and_the_tasks_are_the_owners_alone() {
    usual_umask();
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("switchboard");
    let _open = write_all(&folder).await;
    assert_owners_alone(&folder);
}

/// Mutation: without the loop over the file and its journals in `sqlite_file/private.rs`,
/// the files left 0644 stay so.
#[tokio::test]
async fn a_folder_and_files_an_older_version_left_open_to_others_are_closed() {
    usual_umask();
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("switchboard");
    std::fs::DirBuilder::new()
        .mode(0o755)
        .create(&folder)
        .unwrap();
    // An older version's files, its journals still there (it was running, or crashed).
    let older: Vec<_> = FILES
        .iter()
        .map(|name| {
            let db = rusqlite::Connection::open(folder.join(name)).unwrap();
            db.pragma_update(None, "journal_mode", "WAL").unwrap();
            db.execute_batch("CREATE TABLE older (x); INSERT INTO older VALUES (1);")
                .unwrap();
            db
        })
        .collect();
    let before = modes_in(&folder);
    assert_eq!(before.len(), 9, "{before:?}");
    assert!(before.values().all(|m| m == "644"), "{before:?}");

    let _open = write_all(&folder).await;
    assert_owners_alone(&folder);
    drop(older);
}
