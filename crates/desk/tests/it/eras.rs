//! Which era of the protocol each server is spoken to in, as its details show it: found out
//! by default, forced by the server's setting; an era the server does not speak fails at
//! once, saying why. Real servers: the TypeScript SDK v2 peer (2026-07-28 and the earlier
//! era, or 2026-07-28 only) and the bundled demo server (2025-11-25).

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_core::approvals::{Question, Remember};
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::ServerState;
use switchboard_desk::Update;

use crate::common;
use crate::common::{DemoDesk, demo_server, desk_in, modern_peer};

/// What a server settles into: running (revision, stateless, words the reason holds), or
/// failed with words its reason holds.
enum Settles {
    Running(&'static str, bool, &'static [&'static str]),
    Fails(&'static [&'static str]),
}

fn with_era(mut server: Value, era: &str) -> Value {
    if era != "auto" {
        server["protocolEra"] = json!(era);
    }
    server
}

/// The first state other than starting each of `names` reaches.
async fn settled(world: &mut DemoDesk, names: &[&str]) -> Vec<(String, ServerState)> {
    let mut found = Vec::new();
    while found.len() < names.len() {
        let (server, state) = world
            .next(|u| match u {
                Update::Status { server, state, .. }
                    if !matches!(state, ServerState::Starting) && !found_in(&found, &server) =>
                {
                    Some((server, state))
                }
                _ => None,
            })
            .await;
        found.push((server, state));
    }
    found
}

fn found_in(found: &[(String, ServerState)], server: &str) -> bool {
    found.iter().any(|(name, _)| name == server)
}

#[tokio::test]
async fn each_server_is_spoken_to_in_the_era_it_speaks_or_the_one_forced_and_says_why() {
    let demo = json!({"command": demo_server().display().to_string()});
    let cases: [(&str, Value, &str, Settles); 6] = [
        (
            "modern-only",
            modern_peer(&["--modern-only"]),
            "auto",
            Settles::Running("2026-07-28", true, &["server/discover", "2026-07-28"]),
        ),
        (
            "both-eras",
            modern_peer(&[]),
            "auto",
            Settles::Running("2026-07-28", true, &["server/discover"]),
        ),
        (
            "both-forced-session",
            modern_peer(&[]),
            "session",
            Settles::Running("2025-11-25", false, &["initialize"]),
        ),
        (
            "demo",
            demo.clone(),
            "auto",
            Settles::Running("2025-11-25", false, &["server/discover", "initialize"]),
        ),
        (
            "demo-forced-stateless",
            demo,
            "stateless",
            Settles::Fails(&["does not speak the 2026-07-28 revision"]),
        ),
        (
            "stateless-forced-session",
            modern_peer(&["--modern-only"]),
            // The spelling of earlier versions' files, still read.
            "legacy",
            Settles::Fails(&["2026-07-28"]),
        ),
    ];
    let servers: serde_json::Map<String, Value> = cases
        .iter()
        .map(|(name, server, era, _)| ((*name).to_owned(), with_era(server.clone(), era)))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = json!({"mcpServers": servers});
    std::fs::write(dir.path().join("config.json"), file.to_string()).unwrap();
    let mut world = desk_in(dir, Secrets::new("switchboard-test-eras"));
    world.desk.start().await;
    let names: Vec<&str> = cases.iter().map(|(name, ..)| *name).collect();
    let states = settled(&mut world, &names).await;

    for (name, _, era, expected) in &cases {
        let (_, state) = states.iter().find(|(n, _)| n == name).unwrap();
        match (expected, state) {
            (
                Settles::Running(revision, stateless, why),
                ServerState::Running {
                    protocol_version,
                    stateless: was_stateless,
                    why_revision,
                    ..
                },
            ) => {
                assert_eq!(
                    (protocol_version.as_str(), was_stateless),
                    (*revision, stateless),
                    "{name} ({era}): {why_revision}"
                );
                let why_revision = why_revision.to_string();
                for word in *why {
                    assert!(
                        why_revision.contains(word),
                        "{name} ({era}): {why_revision}"
                    );
                }
                let info = world.desk.servers().server_info(name).unwrap();
                assert_eq!(info["protocolVersion"], *revision, "{name}: {info}");
            }
            (Settles::Fails(why), ServerState::Failed { reason, .. }) => {
                let reason = reason.to_string();
                for word in *why {
                    assert!(reason.contains(word), "{name} ({era}): {reason}");
                }
            }
            (_, other) => panic!("{name} ({era}) settled as {other:?}"),
        }
    }
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_stateless_servers_question_reaches_the_person_and_the_call_goes_on_with_the_answer() {
    let servers = json!({"modern": modern_peer(&["--modern-only"])});
    let mut world =
        common::desk_on(servers, json!({}), Secrets::new("switchboard-test-eras")).await;
    let call = world.call("ask_name", json!({}), "ask-1");
    // The tool does not say it changes nothing: the person confirms their own call first.
    let confirm = world.asked().await;
    let Question::ToolCall { arguments, .. } = confirm.question else {
        panic!("asked {:?}", confirm.question)
    };
    world
        .desk
        .trust()
        .answer_tool_call(confirm.id, "modern", true, arguments, Remember::Once)
        .unwrap();
    let asked = world.asked().await;
    let Question::Elicitation { params } = &asked.question else {
        panic!("asked {:?}", asked.question)
    };
    assert!(
        serde_json::to_string(params)
            .unwrap()
            .contains("What is your name?"),
        "{params:?}"
    );
    world
        .desk
        .trust()
        .answer_elicitation(
            asked.id,
            "modern",
            json!({"action": "accept", "content": {"name": "Ada"}}),
        )
        .unwrap();
    let result = call.await.unwrap().unwrap();
    assert_eq!(common::text_of(&result), "Hello, Ada!");
    world.desk.shutdown().await;
}
