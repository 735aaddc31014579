//! The configuration file when several hands write it at once: servers saved by several
//! tasks, "always" answers given together while servers are edited, and a rule the person
//! wrote by hand while the app ran. Every change reaches the file; none undoes another.
//! A file the person keeps elsewhere behind a link stays linked, and keeps its mode.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::os::unix::fs::PermissionsExt;

use serde_json::{Value, json};
use switchboard_core::approvals::{Question, Remember};
use switchboard_core::secrets::Secrets;
use switchboard_desk::{Desk, DeskError, ServerForm};
use tokio::task::JoinSet;

use crate::common::{demo_desk, desk_in};

/// A server that is configured but not started.
fn idle_form(name: &str) -> ServerForm {
    ServerForm {
        name: name.into(),
        enabled: false,
        command: "true".into(),
        ..ServerForm::default()
    }
}

fn save_idle(work: &mut JoinSet<Result<(), DeskError>>, desk: &Desk, name: String) {
    let desk = desk.clone();
    work.spawn(async move {
        let saved = desk.servers().save_server(None, idle_form(&name)).await;
        saved.map_err(DeskError::from)
    });
}

fn names(file: &Value, key: &str) -> Vec<String> {
    file[key].as_object().unwrap().keys().cloned().collect()
}

fn rules(file: &Value) -> Vec<(String, bool)> {
    let mut rules: Vec<(String, bool)> = file["settings"]["toolRules"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|r| (r["tool"].as_str().unwrap().to_owned(), r["allow"] == true))
        .collect();
    rules.sort();
    rules
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn servers_saved_at_once_by_several_tasks_are_all_kept() {
    let world = demo_desk(json!({})).await;
    let mut work = JoinSet::new();
    for n in 0..8 {
        save_idle(&mut work, &world.desk, format!("idle-{n}"));
    }
    while let Some(saved) = work.join_next().await {
        saved.unwrap().unwrap();
    }
    let mut expected: Vec<String> = (0..8).map(|n| format!("idle-{n}")).collect();
    expected.insert(0, "demo".into());
    assert_eq!(names(&world.file(), "mcpServers"), expected);
    assert_eq!(world.desk.servers().list().len(), 9);
    world.desk.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn always_answers_given_together_and_server_edits_all_reach_the_file() {
    let mut world = demo_desk(json!({})).await;
    let tools = [
        ("echo", json!({"text": "hi"})),
        ("add", json!({"a": 1, "b": 2})),
        ("show_content_types", json!({})),
        ("count_to", json!({"n": 1, "delay_ms": 0})),
        ("write_log", json!({"level": "info", "message": "hi"})),
        ("add_note", json!({"title": "t", "text": "x"})),
    ];
    let calls: Vec<_> = tools
        .iter()
        .map(|(tool, arguments)| world.call_by_model(tool, arguments.clone(), tool))
        .collect();
    let mut asked = Vec::new();
    for _ in &tools {
        asked.push(world.asked().await);
    }
    // Every answer at once, while the person adds servers.
    let mut work = JoinSet::new();
    for pending in asked {
        let desk = world.desk.clone();
        work.spawn(async move {
            let Question::ToolCall { arguments, .. } = pending.question else {
                panic!("asked {:?}", pending.question)
            };
            desk.trust()
                .answer_tool_call(pending.id, "demo", true, arguments, Remember::ToolAlways)
                .map_err(DeskError::from)
        });
    }
    for n in 0..4 {
        save_idle(&mut work, &world.desk, format!("idle-{n}"));
    }
    while let Some(done) = work.join_next().await {
        done.unwrap().unwrap();
    }
    // Each rule is written before its call is made.
    for call in calls {
        call.await.unwrap().unwrap();
    }
    let file = world.file();
    let mut expected: Vec<(String, bool)> = tools
        .iter()
        .map(|(tool, _)| (tool.to_string(), true))
        .collect();
    expected.sort();
    assert_eq!(rules(&file), expected);
    assert_eq!(
        names(&file, "mcpServers"),
        ["demo", "idle-0", "idle-1", "idle-2", "idle-3"]
    );
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_rule_written_by_hand_while_the_app_runs_is_kept() {
    let mut world = demo_desk(json!({})).await;
    // The person adds a rule and a setting of their own after the app read the file.
    let mut file = world.file();
    file["settings"]["toolRules"] =
        json!([{"server": "demo", "tool": "delete_note", "allow": false}]);
    file["settings"]["fontSize"] = json!(14);
    std::fs::write(&world.config, file.to_string()).unwrap();

    let call = world.call_by_model("echo", json!({"text": "hi"}), "echo");
    let asked = world.asked().await;
    let Question::ToolCall { arguments, .. } = asked.question else {
        panic!("asked {:?}", asked.question)
    };
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, "demo", true, arguments, Remember::ToolAlways)
        .unwrap();
    call.await.unwrap().unwrap();
    let file = world.file();
    assert_eq!(
        rules(&file),
        [("delete_note".to_owned(), false), ("echo".to_owned(), true)]
    );
    assert_eq!(file["settings"]["fontSize"], 14);

    // Editing a server keeps both too.
    world
        .desk
        .servers()
        .save_server(None, idle_form("idle"))
        .await
        .unwrap();
    assert_eq!(rules(&world.file()).len(), 2);
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_file_behind_a_link_stays_linked_and_any_file_keeps_its_mode() {
    for linked in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.json");
        // Where the person keeps the file: a dotfiles repository, or the usual place.
        let kept = if linked {
            dir.path().join("dotfiles/switchboard.json")
        } else {
            config.clone()
        };
        std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
        std::fs::write(&kept, json!({"mcpServers": {}}).to_string()).unwrap();
        std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
        if linked {
            std::os::unix::fs::symlink(&kept, &config).unwrap();
        }
        let world = desk_in(dir, Secrets::new("switchboard-test-config-writes"));
        world.desk.start().await;
        world
            .desk
            .servers()
            .save_server(None, idle_form("idle"))
            .await
            .unwrap();

        let link = std::fs::symlink_metadata(&config).unwrap();
        assert_eq!(link.is_symlink(), linked, "linked: {linked}");
        let file: Value = serde_json::from_slice(&std::fs::read(&kept).unwrap()).unwrap();
        assert_eq!(names(&file, "mcpServers"), ["idle"], "linked: {linked}");
        let mode = std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "linked: {linked}");
        world.desk.shutdown().await;
    }
}

/// A change waiting for the configuration file, locked by another writer (another instance
/// of the app, the command line), holds up no other work of the desk's runtime: on a
/// runtime of one thread, another task keeps running until the file is free.
#[test]
fn a_change_waiting_for_the_locked_file_lets_other_tasks_run() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::mpsc;
    use std::time::Duration;

    /// How long the lock may be held if the test never releases it: a hang check.
    const HANG: Duration = Duration::from_secs(20);
    /// How far the other task must get while the change waits.
    const TICKS: u64 = 1000;

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (waiting, written, world) = runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.json"), "{\"mcpServers\": {}}").unwrap();
        let world = desk_in(dir, Secrets::new("switchboard-test-config-lock"));
        let folder = world.dir.path().to_owned();
        let (locked, is_locked) = mpsc::channel();
        let (release, released) = mpsc::channel::<()>();
        let holder = std::thread::spawn(move || {
            // The lock every writer of the file takes: its folder's.
            let folder = std::fs::File::open(folder).unwrap();
            folder.lock().unwrap();
            locked.send(()).unwrap();
            let _ = released.recv_timeout(HANG);
        });
        is_locked.recv().unwrap();
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
        let writing = tokio::spawn({
            let desk = world.desk.clone();
            async move { desk.servers().set_quit_on_close(true).await }
        });
        while ticks.load(Ordering::Relaxed) < TICKS {
            tokio::task::yield_now().await;
        }
        let waiting = !writing.is_finished();
        release.send(()).unwrap();
        let written = writing.await.unwrap();
        ticker.abort();
        holder.join().unwrap();
        (waiting, written, world)
    });
    assert!(
        waiting,
        "the change held the runtime's only thread until the file was free ({written:?})"
    );
    assert!(written.is_ok(), "{written:?}");
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(&world.config).unwrap()).unwrap();
    assert_eq!(file["settings"]["quitOnClose"], true, "{file}");
    drop(world);
}
