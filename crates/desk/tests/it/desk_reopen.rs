//! What a desk opened again on the same files keeps, as when the app is started again: a
//! tool (or a whole server) the person allowed "always" runs without a question when a
//! model calls it, and nothing more than what was allowed does.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Map, Value, json};
use switchboard_core::approvals::{Question, Remember};
use switchboard_desk::Update;

use crate::common::{DemoDesk, demo_desk, next_on, text_of};

/// A desk whose person answered a model's call of `echo` with `remember`, opened again.
async fn allowed_then_reopened(remember: Remember) -> DemoDesk {
    let mut world = demo_desk(json!({})).await;
    let call = world.call_by_model("echo", json!({"text": "first"}), "first");
    let asked = world.asked().await;
    let Question::ToolCall { arguments, .. } = asked.question else {
        panic!("asked {:?}", asked.question)
    };
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, "demo", true, arguments, remember)
        .unwrap();
    assert_eq!(text_of(&call.await.unwrap().unwrap()), "first");
    world.reopen(&["demo"]).await
}

/// Calls a tool of the demo server as a model would, failing if the person is asked; its
/// result, and what the audit trail says decided it.
async fn unasked(world: &DemoDesk, tool: &str, arguments: Value) -> (Value, String) {
    let mut asks = world.desk.updates();
    let question = next_on(&mut asks, |u| match u {
        Update::ApprovalAdded { pending } => Some(pending),
        _ => None,
    });
    let call = world.call_by_model(tool, arguments, tool);
    let result = tokio::select! {
        result = call => result.unwrap().unwrap(),
        pending = question => panic!("asked again after the app started again: {pending:?}"),
    };
    assert!(world.desk.trust().pending().is_empty());
    let audit = world.desk.activity().page(None, 1).await.unwrap();
    assert_eq!(
        (audit[0].subject.as_str(), audit[0].decision.as_str()),
        (tool, "allowed")
    );
    (result, audit[0].decided_by.to_string())
}

#[tokio::test]
async fn a_tool_allowed_always_is_not_asked_about_after_the_app_starts_again() {
    let mut world = allowed_then_reopened(Remember::ToolAlways).await;
    let (result, decided_by) = unasked(&world, "echo", json!({"text": "again"})).await;
    assert_eq!(text_of(&result), "again");
    assert_ne!(decided_by, "user");

    // The rule is the one tool's: another tool of the server is still asked about.
    let call = world.call_by_model("add", json!({"a": 1, "b": 2}), "add");
    let asked = world.asked().await;
    let Question::ToolCall { tool, .. } = &asked.question else {
        panic!("asked {:?}", asked.question)
    };
    assert_eq!(tool, "add");
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, "demo", false, Map::new(), Remember::Once)
        .unwrap();
    let denied = call.await.unwrap().unwrap_err();
    assert!(denied.to_string().contains("denied"), "{denied}");
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_server_allowed_always_is_not_asked_about_after_the_app_starts_again() {
    let world = allowed_then_reopened(Remember::ServerAlways).await;
    for (tool, arguments, shown) in [
        ("echo", json!({"text": "again"}), "again"),
        ("add", json!({"a": 20, "b": 22}), r#"{"sum":42}"#),
    ] {
        let (result, decided_by) = unasked(&world, tool, arguments).await;
        assert_eq!(text_of(&result), shown);
        assert_ne!(decided_by, "user");
    }
    world.desk.shutdown().await;
}
