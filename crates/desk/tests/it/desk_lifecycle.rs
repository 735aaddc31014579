//! The desk's changes to a running server, each against the real demo server, each seen
//! where the person would see it: removed, disabled, enabled and restarted in the list and
//! in the server's process (and no other server's); the log level in which log lines
//! arrive; a subscription in the updates that arrive; resources read, prompts got and
//! arguments completed in what comes back.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Map, Value, json};
use switchboard_core::server_events::{LogSource, ServerState};
use switchboard_desk::{DeskError, LogEntry, ServersError, Update};
use switchboard_mcp::types::LoggingLevel;

use crate::common;
use crate::common::{DemoDesk, alive, call_allowed, demo_desk, demo_server, eventually, tagged};

/// The tag of `server`'s process in `test`.
fn tag(test: &str, server: &str) -> String {
    format!("{}-{test}-{server}", std::process::id())
}

/// A desk running the demo server twice, as "demo" and "bystander", each process tagged.
async fn two_demos(test: &str) -> DemoDesk {
    let server = |name: &str| {
        json!({
            "command": demo_server().display().to_string(),
            "env": {common::TAG: tag(test, name)},
        })
    };
    let servers = json!({"demo": server("demo"), "bystander": server("bystander")});
    common::desk_on(servers, json!({}), common::keyring("lifecycle")).await
}

/// The one process running with `tag`.
fn process(tag: &str) -> i32 {
    match tagged(tag).as_slice() {
        [pid] => *pid,
        pids => panic!("{tag}: processes {pids:?}"),
    }
}

#[derive(Debug, Clone, Copy)]
enum Change {
    Restart,
    Disable,
    Enable,
    Remove,
}

#[tokio::test]
async fn each_change_to_a_server_shows_in_the_list_and_in_its_process_alone() {
    let test = "changes";
    let mut world = two_demos(test).await;
    let (demo, bystander) = (tag(test, "demo"), tag(test, "bystander"));
    let bystanders_process = process(&bystander);
    let mut before = process(&demo);
    // The change, then whether the list shows the server (and as enabled), and whether it runs.
    let changes = [
        (Change::Restart, Some(true), true),
        (Change::Disable, Some(false), false),
        (Change::Enable, Some(true), true),
        (Change::Remove, None, false),
    ];
    for (change, listed, runs) in changes {
        match change {
            Change::Restart => world.desk.servers().restart("demo").await.unwrap(),
            Change::Disable => world
                .desk
                .servers()
                .set_enabled("demo", false)
                .await
                .unwrap(),
            Change::Enable => world
                .desk
                .servers()
                .set_enabled("demo", true)
                .await
                .unwrap(),
            Change::Remove => world.desk.servers().remove_server("demo").await.unwrap(),
        }
        if runs {
            world.running(&["demo"]).await;
        }
        assert!(
            eventually(|| !alive(before)).await,
            "{change:?}: the process it had still runs"
        );
        if runs {
            let now = process(&demo);
            assert_ne!(now, before, "{change:?}: the same process");
            before = now;
            // And the new process answers.
            let said = format!("{change:?}");
            let result = call_allowed(&world.desk, "demo", "echo", json!({"text": said})).await;
            assert_eq!(common::text_of(&result), said);
        } else {
            assert!(
                eventually(|| tagged(&demo).is_empty()).await,
                "{change:?}: a process runs"
            );
            let refused = world.desk.servers().restart("demo").await;
            assert!(
                matches!(refused, Err(ServersError::NotRunning(_))),
                "{change:?}: {refused:?}"
            );
        }
        let shown = |world: &DemoDesk| {
            world
                .desk
                .servers()
                .list()
                .into_iter()
                .find(|s| s.name == "demo")
                .map(|s| (s.enabled, s.state))
        };
        match listed {
            None => assert_eq!(shown(&world), None, "{change:?}"),
            Some(enabled) => {
                let state_fits = |state: &Option<ServerState>| match state {
                    Some(ServerState::Running { .. }) => runs,
                    None => !runs,
                    _ => false,
                };
                assert!(
                    eventually(|| shown(&world)
                        .is_some_and(|(e, state)| e == enabled && state_fits(&state)))
                    .await,
                    "{change:?}: shown as {:?}",
                    shown(&world)
                );
            }
        }
        assert_eq!(
            tagged(&bystander),
            [bystanders_process],
            "{change:?} touched another server"
        );
    }
    // The other server still answers; a removed one is gone from the file, and its log
    // with it: even the lines it wrote as it stopped.
    let result = call_allowed(&world.desk, "bystander", "echo", json!({"text": "here"})).await;
    assert_eq!(common::text_of(&result), "here");
    assert!(world.file()["mcpServers"].get("demo").is_none());
    assert!(
        world.desk.servers().log_of("demo").is_empty(),
        "{:?}",
        world.desk.servers().log_of("demo")
    );
    let refused = world.desk.servers().set_enabled("demo", true).await;
    assert!(
        matches!(refused, Err(ServersError::NoServer(_))),
        "{refused:?}"
    );
    world.desk.shutdown().await;
    assert!(eventually(|| tagged(&bystander).is_empty()).await);
}

/// The demo server's own log lines that arrive before `marker`, logged last at the level
/// nothing filters out.
async fn lines_before(world: &mut DemoDesk, marker: &str) -> Vec<LogEntry> {
    let asked = json!({"level": "emergency", "message": marker});
    call_allowed(&world.desk, "demo", "write_log", asked).await;
    let mut lines = Vec::new();
    loop {
        let entry = world
            .next(|u| match u {
                Update::Log { entry } if entry.server == "demo" => Some(entry),
                _ => None,
            })
            .await;
        if entry.text.contains(marker) {
            return lines;
        }
        if entry.source == LogSource::Server {
            lines.push(entry);
        }
    }
}

#[tokio::test]
async fn the_log_level_chosen_decides_which_log_lines_arrive() {
    let mut world = demo_desk(json!({})).await;
    // The level chosen, the level of a line the server is asked to write, whether it arrives.
    let rows = [
        (LoggingLevel::Error, "warning", false),
        (LoggingLevel::Error, "error", true),
        (LoggingLevel::Debug, "debug", true),
        (LoggingLevel::Info, "debug", false),
        (LoggingLevel::Info, "info", true),
    ];
    for (n, (chosen, written, arrives)) in rows.into_iter().enumerate() {
        world
            .desk
            .servers()
            .set_log_level("demo", chosen)
            .await
            .unwrap();
        let message = format!("line {n} at {written}");
        let asked = json!({"level": written, "message": message});
        let result = call_allowed(&world.desk, "demo", "write_log", asked).await;
        let said = common::text_of(&result);
        assert_eq!(
            said == "logged",
            arrives,
            "row {n}: the server said {said:?}"
        );
        let lines = lines_before(&mut world, &format!("after line {n}")).await;
        let arrived: Vec<&LogEntry> = lines.iter().filter(|l| l.text.contains(&message)).collect();
        match arrived.as_slice() {
            [] => assert!(!arrives, "row {n}: nothing arrived: {lines:?}"),
            [line] => {
                assert!(arrives, "row {n}: {line:?} arrived");
                assert_eq!(line.level.as_deref(), Some(written), "row {n}");
            }
            more => panic!("row {n}: {more:?}"),
        }
        assert_eq!(
            world
                .desk
                .servers()
                .log_of("demo")
                .iter()
                .any(|l| l.text.contains(&message)),
            arrives,
            "row {n}: the log kept"
        );
    }
    world.desk.shutdown().await;
}

/// Waits for the next resource update of the demo server; its URI.
async fn updated(world: &mut DemoDesk) -> String {
    world
        .next(|u| match u {
            Update::ResourceUpdated { server, uri } if server == "demo" => Some(uri),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn a_subscribed_resource_sends_updates_until_unsubscribed() {
    let mut world = demo_desk(json!({})).await;
    world
        .desk
        .explorer()
        .subscribe("demo", "demo://notes", true)
        .await
        .unwrap();
    let note = json!({"title": "first", "text": "remember the milk"});
    call_allowed(&world.desk, "demo", "add_note", note).await;
    assert_eq!(updated(&mut world).await, "demo://notes");
    let read = world
        .desk
        .explorer()
        .read_resource("demo", "demo://notes")
        .await
        .unwrap();
    let notes: Value = serde_json::from_str(read["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        notes,
        json!([{"title": "first", "text": "remember the milk"}])
    );

    // Subscribed to the note alone, its deletion is the only update.
    world
        .desk
        .explorer()
        .subscribe("demo", "demo://notes/first", true)
        .await
        .unwrap();
    world
        .desk
        .explorer()
        .subscribe("demo", "demo://notes", false)
        .await
        .unwrap();
    call_allowed(
        &world.desk,
        "demo",
        "delete_note",
        json!({"title": "first"}),
    )
    .await;
    assert_eq!(updated(&mut world).await, "demo://notes/first");

    // A resource that does not exist cannot be subscribed to.
    let refused = world
        .desk
        .explorer()
        .subscribe("demo", "demo://notes/first", true)
        .await;
    assert!(refused.is_err(), "{refused:?}");
    world.desk.shutdown().await;
}

/// What the explorer asks of a server.
#[derive(Debug)]
enum Ask {
    Read(&'static str),
    Prompt(&'static str, Value),
    Complete(Value),
}

/// What came back, as the person reads it: the texts of the contents or messages (after the
/// prompt's description), or the suggestions.
async fn answer(world: &DemoDesk, ask: &Ask) -> Result<String, DeskError> {
    let texts = |items: &Value, text: &dyn Fn(&Value) -> String| {
        items
            .as_array()
            .unwrap()
            .iter()
            .map(text)
            .collect::<Vec<_>>()
            .join(" | ")
    };
    Ok(match ask {
        Ask::Read(uri) => {
            let read = world.desk.explorer().read_resource("demo", uri).await?;
            texts(&read["contents"], &|c| {
                c["text"].as_str().unwrap().to_owned()
            })
        }
        Ask::Prompt(name, arguments) => {
            let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap();
            let prompt = world
                .desk
                .explorer()
                .get_prompt("demo", name, arguments)
                .await?;
            let messages = texts(&prompt["messages"], &|m| {
                let content = &m["content"];
                let text = content["text"].as_str();
                text.or(content["resource"]["text"].as_str())
                    .unwrap()
                    .to_owned()
            });
            format!("{}: {messages}", prompt["description"].as_str().unwrap())
        }
        Ask::Complete(params) => world
            .desk
            .explorer()
            .complete("demo", params.clone())
            .await?
            .join(", "),
    })
}

#[tokio::test]
async fn resources_prompts_and_completions_come_back_as_the_server_gave_them() {
    let world = demo_desk(json!({})).await;
    let greet = json!({"type": "ref/prompt", "name": "greet"});
    let greeting = json!({"type": "ref/resource", "uri": "demo://greeting/{name}"});
    // What is asked, then what comes back or (Err) a part of the error shown.
    let table: [(Ask, Result<&str, &str>); 9] = [
        (Ask::Read("demo://greeting/Ada"), Ok("Hello, Ada!")),
        (Ask::Read("demo://nothing"), Err("demo://nothing")),
        (
            Ask::Prompt("greet", json!({"name": "Ada"})),
            Ok(
                "A greeting for Ada: Please greet Ada warmly, in one sentence, \
                starting from this greeting: | Hello, Ada!",
            ),
        ),
        (
            Ask::Prompt(
                "summarize",
                json!({"text": "MCP", "style": "bullet points"}),
            ),
            Ok(
                "A bullet points summary: Please summarize the following text \
                as a short list of bullet points.\n\nMCP",
            ),
        ),
        (
            Ask::Prompt("summarize", json!({})),
            Err("missing the argument `text`"),
        ),
        (
            Ask::Complete(json!({"ref": greet, "argument": {"name": "name", "value": "a"}})),
            Ok("Ada, Alan"),
        ),
        (
            Ask::Complete(json!({"ref": greeting, "argument": {"name": "name", "value": "GR"}})),
            Ok("Grace"),
        ),
        (
            Ask::Complete(json!({"ref": greet, "argument": {"name": "name", "value": "z"}})),
            Ok(""),
        ),
        (
            Ask::Complete(json!({"argument": {"name": "name"}})),
            Err("not a completion request"),
        ),
    ];
    for (ask, expected) in table {
        match (answer(&world, &ask).await, expected) {
            (Ok(got), Ok(wanted)) => assert_eq!(got, wanted, "{ask:?}"),
            (Err(got), Err(part)) => assert!(got.to_string().contains(part), "{ask:?}: {got}"),
            (got, wanted) => panic!("{ask:?}: got {got:?}, wanted {wanted:?}"),
        }
    }
    let readme = answer(&world, &Ask::Read("demo://readme")).await.unwrap();
    assert!(
        readme.starts_with("# The Switchboard demo server"),
        "{readme}"
    );
    world.desk.shutdown().await;
}
