//! The person's own calls, from the explorer: their decision already, they run at once and
//! the audit trail says the person decided. A denial they made still stops them, saying
//! which rule did; a tool that may destroy something asks first while the host's
//! `confirmOwnDestructiveCalls` setting is on (it is unless set), and a rule allowing it
//! answers for them. The same call made by a model is asked about as before.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Map, json};
use switchboard_core::approvals::{Question, Remember};
use switchboard_core::decisions::{BY_YOU, DecidedBy, Reach, Scope};
use switchboard_core::gate::CallError;
use switchboard_desk::{ExplorerError, Update};

use crate::common::{DemoDesk, demo_desk, next_on, text_of};

impl DemoDesk {
    /// What the audit trail says of the last call: tool, decision, who decided, who asked.
    async fn last_call(&self) -> (String, String, String, String) {
        let last = self.desk.activity().page(None, 1).await.unwrap().remove(0);
        (
            last.subject,
            last.decision,
            last.decided_by.to_string(),
            last.asked_by,
        )
    }
}

fn strings(items: [&str; 4]) -> (String, String, String, String) {
    let [a, b, c, d] = items.map(str::to_owned);
    (a, b, c, d)
}

#[tokio::test]
async fn the_persons_own_call_runs_at_once_and_is_audited_as_theirs() {
    let mut world = demo_desk(json!({})).await;
    let mut asks = world.desk.updates();
    let question = next_on(&mut asks, |u| match u {
        Update::ApprovalAdded { pending } => Some(pending),
        _ => None,
    });
    // add_note changes something, but claims to destroy nothing: no question.
    let note = json!({"title": "mine", "text": "kept"});
    let result = tokio::select! {
        result = world.call("add_note", note, "note") => result.unwrap().unwrap(),
        pending = question => panic!("the person was asked about their own call: {pending:?}"),
    };
    assert!(text_of(&result).contains("mine"), "{result}");
    assert!(world.desk.trust().pending().is_empty());
    assert_eq!(
        world.last_call().await,
        strings(["add_note", "allowed", BY_YOU, "the person"])
    );

    // The same tool called by a model is asked about.
    let call = world.call_by_model("add_note", json!({"title": "its", "text": "x"}), "m");
    let asked = world.asked().await;
    let Question::ToolCall { tool, .. } = &asked.question else {
        panic!("asked {:?}", asked.question)
    };
    assert_eq!(tool, "add_note");
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, "demo", false, Map::new(), Remember::Once)
        .unwrap();
    call.await.unwrap().unwrap_err();
    assert_eq!(
        world.last_call().await,
        strings([
            "add_note",
            "denied",
            "user",
            "model in conversation “Tidy the notes”"
        ])
    );
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_denial_the_person_made_stops_their_own_call_and_says_which_rule() {
    let world = demo_desk(json!({
        "toolRules": [{"server": "demo", "tool": "echo", "allow": false}],
    }))
    .await;
    let denied = world
        .call("echo", json!({"text": "hi"}), "echo")
        .await
        .unwrap()
        .unwrap_err();
    let ExplorerError::Call(CallError::Denied { tool, decided_by }) = &denied else {
        panic!("{denied}")
    };
    assert_eq!(tool, "echo");
    let rule = DecidedBy::Rule {
        allow: false,
        reach: Reach::Tool,
        scope: Scope::Always,
    };
    assert_eq!(*decided_by, rule);
    assert_eq!(
        denied.to_string(),
        "the call to echo was denied (policy: denied for this tool, always)"
    );
    assert!(world.desk.trust().pending().is_empty(), "nobody was asked");
    assert_eq!(
        world.last_call().await,
        strings([
            "echo",
            "denied",
            "policy: denied for this tool, always",
            "the person"
        ])
    );
    // Another tool of the server is not held by it.
    let added = world.call("add", json!({"a": 1, "b": 2}), "add").await;
    assert_eq!(text_of(&added.unwrap().unwrap()), r#"{"sum":3}"#);
    assert!(world.desk.trust().pending().is_empty());
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_destructive_tool_asks_the_person_first_until_a_rule_answers_for_them() {
    let mut world = demo_desk(json!({})).await;
    let note = json!({"title": "doomed", "text": "x"});
    world.call("add_note", note, "add").await.unwrap().unwrap();

    // Deleting asks, with the exact arguments and who asks.
    let gone = json!({"title": "doomed"});
    let call = world.call("delete_note", gone.clone(), "delete");
    let asked = world.asked().await;
    let Question::ToolCall {
        tool,
        arguments,
        asked_by,
        ..
    } = asked.question
    else {
        panic!("asked {:?}", asked.question)
    };
    assert_eq!(tool, "delete_note");
    assert_eq!(json!(arguments), gone);
    assert_eq!(asked_by, switchboard_core::decisions::Origin::Person);
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, "demo", true, arguments, Remember::ToolAlways)
        .unwrap();
    let result = call.await.unwrap().unwrap();
    assert_ne!(result["isError"], true, "{result}");
    assert_eq!(
        world.last_call().await,
        strings(["delete_note", "allowed", "user", "the person"])
    );

    // Allowed always: the rule answers the next time.
    let result = world
        .call("delete_note", gone, "again")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(result["isError"], true, "nothing left to delete: {result}");
    assert_eq!(
        world.last_call().await,
        strings([
            "delete_note",
            "allowed",
            "policy: allowed for this tool, always",
            "the person"
        ])
    );
    world.desk.shutdown().await;
}

#[tokio::test]
async fn with_confirmation_off_a_destructive_own_call_runs_at_once() {
    // Turned off in the file, or with the window's switch (which keeps it in the file).
    for by_switch in [false, true] {
        let settings = if by_switch {
            json!({})
        } else {
            json!({"confirmOwnDestructiveCalls": false})
        };
        let world = demo_desk(settings).await;
        if by_switch {
            assert!(world.desk.servers().confirms_own_destructive_calls());
            world
                .desk
                .servers()
                .set_confirm_own_destructive_calls(false)
                .await
                .unwrap();
            assert_eq!(
                world.file()["settings"]["confirmOwnDestructiveCalls"],
                false
            );
        }
        assert!(!world.desk.servers().confirms_own_destructive_calls());
        let note = json!({"title": "doomed", "text": "x"});
        world.call("add_note", note, "add").await.unwrap().unwrap();
        let result = world
            .call("delete_note", json!({"title": "doomed"}), "delete")
            .await
            .unwrap()
            .unwrap();
        assert_ne!(result["isError"], true, "{result}");
        assert!(world.desk.trust().pending().is_empty());
        assert_eq!(
            world.last_call().await,
            strings(["delete_note", "allowed", BY_YOU, "the person"])
        );
        world.desk.shutdown().await;
    }
}
