//! Conversations kept in a real SQLite file: made, listed, renamed, searched, deleted and
//! taken back, turns removed, and still there, messages, tool toggles and settings, when
//! the file is opened again.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use switchboard_chat::{ConversationError, ConversationSettings, Conversations, Enablement};
use switchboard_providers::{
    AssistantContent, Message, ToolCall, ToolResult, ToolResultContent, UserContent,
};

fn tool_round(id: &str, result: &str) -> [Message; 2] {
    [
        Message::Assistant(vec![AssistantContent::ToolCall(ToolCall {
            id: id.into(),
            name: "demo__echo".into(),
            arguments: serde_json::json!({"text": result}),
        })]),
        Message::User(vec![UserContent::ToolResult(ToolResult {
            call_id: id.into(),
            content: vec![ToolResultContent::Text(result.into())],
            is_error: false,
            not_made: false,
        })]),
    ]
}

#[tokio::test]
async fn conversations_are_made_listed_searched_renamed_deleted_and_survive_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("conversations.sqlite");
    let kept = Conversations::open(&path).unwrap();
    let trip = kept.create("Trip to Lisbon").await.unwrap();
    let sums = kept.create("Sums").await.unwrap();
    kept.append(trip.id, &Message::user_text("Where to eat pastéis?"))
        .await
        .unwrap();
    kept.append(sums.id, &Message::user_text("Add 2 and 3"))
        .await
        .unwrap();
    for message in tool_round("c1", "the sum is FIVE") {
        kept.append(sums.id, &message).await.unwrap();
    }
    kept.append(sums.id, &Message::assistant_text("It is 5."))
        .await
        .unwrap();
    let mut toggles = Enablement::default();
    toggles.set_tool("demo", "count_to", false);
    kept.set_enablement(sums.id, toggles.clone()).await.unwrap();

    let titles = |list: Vec<switchboard_chat::ConversationSummary>| -> Vec<String> {
        list.into_iter().map(|c| c.title).collect()
    };
    assert_eq!(
        titles(kept.list().await.unwrap()),
        ["Sums", "Trip to Lisbon"]
    );
    assert_eq!(
        titles(kept.search("five").await.unwrap()),
        ["Sums"],
        "tool results are searched"
    );
    assert_eq!(
        titles(kept.search("lisbon").await.unwrap()),
        ["Trip to Lisbon"],
        "titles too"
    );
    assert_eq!(
        titles(kept.search("add five").await.unwrap()),
        ["Sums"],
        "every word, anywhere"
    );
    assert!(kept.search("add lisbon").await.unwrap().is_empty());
    assert!(
        kept.search("100%").await.unwrap().is_empty(),
        "wildcards are literal"
    );

    kept.rename(trip.id, "Lisbon, May").await.unwrap();
    assert_eq!(
        titles(kept.list().await.unwrap()),
        ["Lisbon, May", "Sums"],
        "renamed is changed last"
    );
    drop(kept);

    let reopened = Conversations::open(&path).unwrap();
    assert!(reopened.moved_aside().is_none());
    let sums_again = reopened.get(sums.id).await.unwrap();
    assert_eq!(sums_again.messages.len(), 4);
    assert_eq!(sums_again.messages[3], Message::assistant_text("It is 5."));
    assert_eq!(sums_again.enablement, toggles);
    assert_eq!(sums_again.summary.messages, 4);

    reopened.delete(trip.id).await.unwrap();
    assert_eq!(titles(reopened.list().await.unwrap()), ["Sums"]);
    assert!(matches!(
        reopened.get(trip.id).await,
        Err(ConversationError::NotFound(_))
    ));
    assert!(matches!(
        reopened
            .append(trip.id, &Message::user_text("hello?"))
            .await,
        Err(ConversationError::NotFound(_))
    ));

    // Taken back whole, until the file is opened again.
    reopened.restore(trip.id).await.unwrap();
    let back = reopened.get(trip.id).await.unwrap();
    assert_eq!(back.summary.title, "Lisbon, May");
    assert_eq!(back.messages, [Message::user_text("Where to eat pastéis?")]);
    reopened.delete(trip.id).await.unwrap();
    drop(reopened);
    let later = Conversations::open(&path).unwrap();
    assert!(matches!(
        later.restore(trip.id).await,
        Err(ConversationError::NotFound(_))
    ));
    assert_eq!(titles(later.list().await.unwrap()), ["Sums"]);
}

#[tokio::test]
async fn a_turn_taken_back_leaves_the_rest_and_the_settings_stay_with_the_conversation() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("conversations.sqlite");
    let kept = Conversations::open(&path).unwrap();
    let sums = kept.create("Sums").await.unwrap();
    let mut all = vec![Message::user_text("Add 2 and 3")];
    all.extend(tool_round("c1", "5"));
    all.push(Message::assistant_text("It is 5."));
    all.push(Message::user_text("And 4 and 4?"));
    all.push(Message::assistant_text("It is 8."));
    for message in &all {
        kept.append(sums.id, message).await.unwrap();
    }
    // The first turn, its tool round with it.
    kept.remove(sums.id, 0..4).await.unwrap();
    assert_eq!(kept.get(sums.id).await.unwrap().messages, all[4..]);
    assert!(matches!(
        kept.remove(sums.id, 1..5).await,
        Err(ConversationError::NoSuchMessages(_))
    ));
    assert_eq!(
        kept.get(sums.id).await.unwrap().messages.len(),
        2,
        "a range past the end removes nothing"
    );

    let settings = ConversationSettings {
        provider: Some("anthropic".into()),
        model: Some("claude-sonnet-4-6".into()),
        system: Some("Answer in French.".into()),
        max_tokens: Some(2000),
        max_rounds: Some(4),
        effort: Some(switchboard_providers::Effort::High),
    };
    kept.set_settings(sums.id, settings.clone()).await.unwrap();
    drop(kept);
    let reopened = Conversations::open(&path).unwrap();
    assert_eq!(reopened.get(sums.id).await.unwrap().settings, settings);
}

#[tokio::test]
async fn a_damaged_file_is_moved_aside_and_a_new_one_begun() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("conversations.sqlite");
    std::fs::write(
        &path,
        "not a database, not at all; long enough to be read as a header",
    )
    .unwrap();
    let kept = Conversations::open(&path).unwrap();
    let moved = kept.moved_aside().expect("moved aside").clone();
    assert!(moved.to.exists());
    assert!(moved.to_string().contains("moved to"), "{moved}");
    assert!(kept.list().await.unwrap().is_empty());
    kept.create("fresh").await.unwrap();
}
