//! How each tool call's allow was given, recorded through the real gate against the demo
//! server: by the person once, for the session or always in the dialog; by the standing
//! rule that answered for them afterwards (named); by the person's own call. The audit's
//! search finds a call by its arguments, in the log, page by page.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::json;
use switchboard_core::approvals::{Question, Remember};
use switchboard_core::decisions::BY_YOU;
use switchboard_core::decisions::Given;
use switchboard_desk::AuditEntry;

use crate::common::{DemoDesk, demo_desk};

impl DemoDesk {
    /// A model calls `tool`, and the person answers the dialog allowing it as `remember` says.
    async fn allowed_by_person(
        &mut self,
        tool: &str,
        arguments: serde_json::Value,
        remember: Remember,
    ) {
        let call = self.call_by_model(tool, arguments, tool);
        let asked = self.asked().await;
        let Question::ToolCall { arguments, .. } = asked.question else {
            panic!("asked {:?}", asked.question)
        };
        self.desk
            .trust()
            .answer_tool_call(asked.id, "demo", true, arguments, remember)
            .unwrap();
        call.await.unwrap().unwrap();
    }

    async fn last(&self) -> AuditEntry {
        self.desk.activity().page(None, 1).await.unwrap().remove(0)
    }
}

/// The entry's subject, who decided (as the trail words it) and how it was given.
fn given(entry: &AuditEntry) -> (&str, String, Option<Given>) {
    (
        entry.subject.as_str(),
        entry.decided_by.to_string(),
        entry.given,
    )
}

#[tokio::test]
async fn each_allow_records_how_it_was_given() {
    let mut world = demo_desk(json!({})).await;

    world
        .allowed_by_person("echo", json!({"text": "once"}), Remember::Once)
        .await;
    assert_eq!(
        given(&world.last().await),
        ("echo", "user".to_owned(), Some(Given::Once))
    );

    world
        .allowed_by_person("echo", json!({"text": "session"}), Remember::ToolForSession)
        .await;
    assert_eq!(
        given(&world.last().await),
        ("echo", "user".to_owned(), Some(Given::Session))
    );
    // The session's rule answers the model's next call, and is named.
    world
        .call_by_model("echo", json!({"text": "by rule"}), "r1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        given(&world.last().await),
        (
            "echo",
            "policy: allowed for this tool, this session".to_owned(),
            Some(Given::Rule)
        )
    );

    world
        .allowed_by_person("add", json!({"a": 1, "b": 2}), Remember::ToolAlways)
        .await;
    assert_eq!(
        given(&world.last().await),
        ("add", "user".to_owned(), Some(Given::Always))
    );
    world
        .call_by_model("add", json!({"a": 2, "b": 3}), "r2")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        given(&world.last().await),
        (
            "add",
            "policy: allowed for this tool, always".to_owned(),
            Some(Given::Rule)
        )
    );

    // The person's own call is theirs.
    world
        .call("echo", json!({"text": "mine"}), "own")
        .await
        .unwrap()
        .unwrap();
    let own = world.last().await;
    assert_eq!(given(&own), ("echo", BY_YOU.to_owned(), Some(Given::Own)));
    assert_eq!(own.detail.0, json!({"text": "mine"}));
    world.desk.shutdown().await;
}

#[tokio::test]
async fn the_search_finds_calls_by_their_arguments_in_the_log() {
    let world = demo_desk(json!({})).await;
    for n in 1..=12 {
        let text = if n % 4 == 0 {
            format!("needle {n}")
        } else {
            format!("hay {n}")
        };
        world
            .call("echo", json!({"text": text}), &format!("c{n}"))
            .await
            .unwrap()
            .unwrap();
    }
    world
        .call("add", json!({"a": 40, "b": 2}), "sum")
        .await
        .unwrap()
        .unwrap();
    let texts = |rows: &[AuditEntry]| -> Vec<String> {
        rows.iter()
            .map(|r| r.detail.0["text"].as_str().unwrap_or("-").to_owned())
            .collect()
    };
    // By argument text, whatever its case, newest first.
    let found = world
        .desk
        .activity()
        .search("NEEDLE", None, 10)
        .await
        .unwrap();
    assert_eq!(texts(&found), ["needle 12", "needle 8", "needle 4"]);
    // With a limit, then the next page after the last one shown.
    let first = world
        .desk
        .activity()
        .search("needle", None, 2)
        .await
        .unwrap();
    assert_eq!(texts(&first), ["needle 12", "needle 8"]);
    let next = world
        .desk
        .activity()
        .search("needle", Some(first[1].id), 2)
        .await
        .unwrap();
    assert_eq!(texts(&next), ["needle 4"]);
    // By tool, by outcome, by an argument's name.
    let adds = world.desk.activity().search("add", None, 50).await.unwrap();
    assert_eq!(
        adds.iter().map(|r| r.subject.as_str()).collect::<Vec<_>>(),
        ["add"]
    );
    assert_eq!(
        world
            .desk
            .activity()
            .search("ok", None, 50)
            .await
            .unwrap()
            .len(),
        13
    );
    assert_eq!(
        world
            .desk
            .activity()
            .search("\"b\":2", None, 50)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(
        world
            .desk
            .activity()
            .search("nowhere", None, 50)
            .await
            .unwrap()
            .is_empty()
    );
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_web_address_secret_in_the_arguments_is_masked_in_the_audit() {
    let world = demo_desk(json!({})).await;
    world
        .call(
            "echo",
            json!({"text": "see https://h.example/x?token=s3cret&page=2"}),
            "url",
        )
        .await
        .unwrap()
        .unwrap();
    let last = world.desk.activity().page(None, 1).await.unwrap().remove(0);
    assert_eq!(
        last.detail.0,
        json!({"text": "see https://h.example/x?token=…&page=2"})
    );
    assert!(
        world
            .desk
            .activity()
            .search("s3cret", None, 5)
            .await
            .unwrap()
            .is_empty()
    );
    world.desk.shutdown().await;
}
