//! Which requests come forward as a dialog at once and which wait in the list for the
//! person to pick them: a server that asks on its own (server-everything asks which folders
//! it may see as soon as it starts) waits; a request made during the person's own call to
//! its server comes forward, and so does a model's tool call put to the person.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

mod common;

use std::path::Path;

use serde_json::json;
use switchboard_host::approvals::{Pending, Question};
use switchboard_host::desk::Update;

use common::{DemoDesk, demo_server, desk_on, eventually, keyring};

/// The next request `server` puts to the person.
async fn asked_by(world: &mut DemoDesk, server: &str) -> Pending {
    world
        .next(|u| match u {
            Update::ApprovalAdded { pending } if pending.server == server => Some(*pending),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn a_server_asking_on_its_own_waits_and_one_asking_during_a_call_comes_forward() {
    let everything = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        everything.exists(),
        "server-everything is missing: run scripts/setup"
    );
    let servers = json!({
        "demo": {"command": demo_server().display().to_string()},
        "everything": {"command": "node", "args": [everything.display().to_string(), "stdio"]},
    });
    let mut world = desk_on(servers, json!({}), keyring("forward")).await;

    // At start-up, server-everything asks for folders on its own: the request waits.
    assert!(
        eventually(|| world
            .desk
            .pending()
            .iter()
            .any(|p| p.server == "everything"))
        .await,
        "server-everything asks for roots"
    );
    let asked = world.desk.pending();
    let [roots] = asked.as_slice() else {
        panic!("one request: {asked:?}")
    };
    assert_eq!(roots.question, Question::Roots);
    assert!(
        !roots.forward,
        "a server asking on its own stacks no dialog"
    );

    // The person's own call asks them to fill in a form: it comes forward.
    let call = world.call("ask_user", json!({}), "ask");
    let form = asked_by(&mut world, "demo").await;
    assert_eq!(form.server, "demo");
    assert!(matches!(form.question, Question::Elicitation { .. }));
    assert!(form.forward, "asked during the person's call");
    world
        .desk
        .answer_elicitation(form.id, "demo", json!({"action": "decline"}))
        .unwrap();
    call.await.unwrap().unwrap();

    // A model's call of a tool that may destroy: the caller waits, it comes forward.
    let by_model = world.call_by_model("delete_note", json!({"title": "x"}), "model");
    let question = asked_by(&mut world, "demo").await;
    assert!(matches!(question.question, Question::ToolCall { .. }));
    assert!(question.forward);
    by_model.abort();
    world.desk.shutdown().await;
}
