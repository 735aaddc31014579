//! What a tool's view (MCP Apps) says into the conversation it lives in, as the window
//! passes it on: what it tells the model of its state goes with the person's next message,
//! once; its own message is a turn the model answers, sent as the app's and never as the
//! person's words; both are shown as the app's.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_desk::{ChatError, ShownPart};

use crate::chat_turns::{Talk, answering, talk};
use crate::desk_chat::chat_until_end;

fn blocks(value: Value) -> Vec<switchboard_mcp::types::ContentBlock> {
    serde_json::from_value(value).unwrap()
}

/// The text of the last message of each request the model was sent, its parts joined.
async fn last_said(provider: &switchboard_test_support::stand_in::StandInProvider) -> Vec<String> {
    provider
        .requests()
        .await
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .map(|r| {
            let last = r["body"]["messages"]
                .as_array()
                .unwrap()
                .last()
                .unwrap()
                .clone();
            match &last["content"] {
                Value::String(text) => text.clone(),
                parts => parts
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|p| p["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("|"),
            }
        })
        .collect()
}

#[tokio::test]
async fn a_views_context_goes_with_the_next_message_and_its_message_is_answered_as_the_apps() {
    let provider = answering(&["It shows March.", "March was warm."]).await;
    let Talk {
        world: _world,
        chats,
        id,
        mut updates,
    } = talk(&provider, &["model-test"]).await;

    // Told twice: only the latest goes.
    chats.app_context(
        id,
        "demo",
        blocks(json!([{"type": "text", "text": "The chart shows February"}])),
        None,
    );
    let state = json!({"month": 3}).as_object().cloned();
    chats.app_context(
        id,
        "demo",
        blocks(json!([{"type": "text", "text": "The chart shows March"}])),
        state,
    );
    chats
        .send_message(id, "What does it show?".into(), None, None)
        .await
        .unwrap();
    chat_until_end(&mut updates, id).await;

    // An empty message is refused, and nothing is added.
    let before = chats.conversation(id).await.unwrap().messages.len();
    let empty = chats
        .app_message(id, "demo", blocks(json!([{"type": "text", "text": " "}])))
        .await;
    assert!(matches!(empty, Err(ChatError::BadRequest(_))), "{empty:?}");
    assert_eq!(chats.conversation(id).await.unwrap().messages.len(), before);

    chats
        .app_message(
            id,
            "demo",
            blocks(json!([{"type": "text", "text": "Explain the warm days"}])),
        )
        .await
        .unwrap();
    chat_until_end(&mut updates, id).await;

    let said = last_said(&provider).await;
    assert_eq!(
        said,
        vec![
            "<app server=\"demo\" says=\"context\">\nThe chart shows March\n\n{\"month\":3}\n</app>|What does it show?".to_owned(),
            "<app server=\"demo\" says=\"message\">\nExplain the warm days\n</app>".to_owned(),
        ],
        "the context once, before the person's words; the app's message as the app's"
    );

    // The window shows both as the app's.
    let shown: Vec<ShownPart> = chats
        .conversation(id)
        .await
        .unwrap()
        .messages
        .into_iter()
        .flat_map(|m| m.parts)
        .filter(|p| matches!(p, ShownPart::App { .. }))
        .collect();
    assert_eq!(
        shown,
        vec![
            ShownPart::App {
                server: "demo".into(),
                says: "context".into(),
                text: "The chart shows March\n\n{\"month\":3}".into(),
            },
            ShownPart::App {
                server: "demo".into(),
                says: "message".into(),
                text: "Explain the warm days".into(),
            },
        ]
    );
}
