//! What only the Anthropic client does, against the stand-in provider answering as
//! Anthropic's API does; what both clients share is in `protocols.rs`.

use serde_json::json;
use switchboard_providers::*;

use crate::common::*;

#[tokio::test]
async fn images_go_as_base64_or_url_sources_also_inside_tool_results() {
    let stand_in = StandIn::start(json!({
        "turns": [
            {"content": [{"tool_call": {"name": "snap", "arguments": {}}}]},
            {"content": [{"text": "Seen."}]},
        ]
    }))
    .await;
    let client = stand_in.anthropic(None);
    let pixel = pixel();
    let mut request = Request::new(
        "claude-test",
        64,
        vec![Message::User(vec![
            UserContent::Text("Look".into()),
            UserContent::Image(Image::Url {
                url: "https://example.com/cat.png".into(),
            }),
        ])],
    );
    let answer = client.complete(&request).await.unwrap();
    let call_id = answer.tool_calls().next().unwrap().id.clone();
    request.messages.push(answer.into_message());
    request.messages.push(Message::User(vec![
        UserContent::Text("and this".into()),
        UserContent::ToolResult(ToolResult {
            call_id: call_id.clone(),
            content: vec![
                ToolResultContent::Text("failed to focus".into()),
                ToolResultContent::Image(pixel.clone()),
            ],
            is_error: true,
            not_made: false,
        }),
        UserContent::Image(pixel),
    ]));
    assert_eq!(client.complete(&request).await.unwrap().text(), "Seen.");
    let messages = stand_in.last_body().await["messages"].clone();
    let png = json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PIXEL}});
    assert_eq!(
        messages[0]["content"][1],
        json!({"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}})
    );
    assert_eq!(
        messages[2]["content"],
        json!([
            {"type": "tool_result", "tool_use_id": call_id, "is_error": true, "content": [
                {"type": "text", "text": "failed to focus"},
                png,
            ]},
            {"type": "text", "text": "and this"},
            // The conversation so far ends a cached prefix.
            with_cache_mark(png),
        ])
    );
}

#[tokio::test]
async fn a_base_url_with_v1_is_taken_as_meant() {
    let stand_in = StandIn::start(json!({"turns": [{"content": [{"text": "ok"}]}]})).await;
    let client = Client::new(ProviderConfig::anthropic(
        format!("{}/v1/", stand_in.url),
        None,
    ))
    .unwrap();
    let hi = Request::new("claude-test", 512, vec![Message::user_text("hi")]);
    assert_eq!(streamed(&client, &hi).await.text(), "ok");
}

/// Claude may end a turn having said nothing (an empty `content`, often right after a
/// tool's result) or with an empty text block; the API refuses an empty message or text
/// block anywhere but at the end, so the conversation goes on without them.
#[tokio::test]
async fn a_turn_that_said_nothing_does_not_break_the_conversation() {
    let stand_in = StandIn::start(json!({"turns": [
        {"content": [{"text": ""}, {"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}}]},
        {"content": []},
        {"content": [{"text": "It is 5."}]},
    ]}))
    .await;
    let client = stand_in.anthropic(None);
    let mut request = Request::new("claude-test", 64, vec![Message::user_text("Add 2 and 3")]);
    let call = streamed(&client, &request)
        .await
        .tool_calls()
        .next()
        .unwrap()
        .clone();
    let call_id = call.id.clone();
    // As a conversation may keep it: the empty text with the call.
    request.messages.push(Message::Assistant(vec![
        AssistantContent::Text(String::new()),
        AssistantContent::ToolCall(call),
    ]));
    request
        .messages
        .push(Message::User(vec![UserContent::ToolResult(ToolResult {
            call_id: call_id.clone(),
            content: vec![ToolResultContent::Text("5".into())],
            is_error: false,
            not_made: false,
        })]));
    let silent = streamed(&client, &request).await;
    request.messages.push(silent.into_message());
    request.messages.push(Message::user_text("So?"));
    assert_eq!(streamed(&client, &request).await.text(), "It is 5.");
    assert_eq!(
        stand_in.last_body().await["messages"],
        json!([
            {"role": "user", "content": [{"type": "text", "text": "Add 2 and 3"}]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": call_id, "name": "get-sum", "input": {"a": 2, "b": 3}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": call_id, "content": [{"type": "text", "text": "5"}]},
            ]},
            {"role": "user", "content": [with_cache_mark(json!({"type": "text", "text": "So?"}))]},
        ])
    );
}

/// An answer that thought (signed) and cited a document, streamed and whole: its thinking
/// is kept with its signature, its text and tool call read, the citations read past.
#[tokio::test]
async fn thinking_is_kept_signed_and_citations_are_read_past() {
    let turn = json!({"content": [
        {"thinking": "Add them.", "signature": "c2lnbmVk", "pieces": 2},
        {"text": "It is 5.", "citations": [{
            "type": "char_location", "cited_text": "2 + 3 = 5", "document_index": 0,
            "document_title": "Sums", "start_char_index": 0, "end_char_index": 9,
        }]},
        {"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}, "id": "toolu_1"}},
    ]});
    let stand_in = StandIn::start(json!({"turns": [turn, turn]})).await;
    let client = stand_in.anthropic(None);
    let request = Request::new("claude-test", 64, vec![Message::user_text("Add 2 and 3")]);
    let expected = vec![
        AssistantContent::Reasoning(Reasoning {
            text: "Add them.".into(),
            signature: Some("c2lnbmVk".into()),
            ..Reasoning::default()
        }),
        AssistantContent::Text("It is 5.".into()),
        AssistantContent::ToolCall(ToolCall {
            id: "toolu_1".into(),
            name: "get-sum".into(),
            arguments: json!({"a": 2, "b": 3}),
        }),
    ];
    assert_eq!(streamed(&client, &request).await.content, expected);
    assert_eq!(client.complete(&request).await.unwrap().content, expected);
}

/// A model's answer of white space alone, kept in the conversation as it came, does not
/// make the next turn fail: the API refuses such text, and it is left out as it is sent.
#[tokio::test]
async fn an_answer_of_white_space_kept_in_the_conversation_does_not_fail_the_next_turn() {
    let stand_in = StandIn::start(json!({
        "turns": [
            {"content": [{"text": " \n"}]},
            {"content": [{"text": "Still here."}]},
            {"content": [{"text": "Still here."}]},
        ]
    }))
    .await;
    let client = stand_in.anthropic(None);
    let mut request = Request::new("claude-test", 64, vec![Message::user_text("Hi")]);
    let blank = client.complete(&request).await.unwrap();
    assert_eq!(blank.text(), " \n");
    request.messages.push(blank.into_message());
    request.messages.push(Message::user_text("Still there?"));
    assert_eq!(
        client.complete(&request).await.unwrap().text(),
        "Still here."
    );
    let streamed = streamed(&client, &request).await;
    assert_eq!(streamed.text(), "Still here.", "streamed, the same");
    // The blank answer left out: the two questions in a row, which the API takes as one.
    assert_eq!(
        stand_in.last_body().await["messages"],
        json!([
            {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
            {"role": "user", "content": [with_cache_mark(json!({"type": "text", "text": "Still there?"}))]},
        ])
    );
}

/// A conversation that ends on the model's turn (an MCP prompt may) is not refused by a
/// model that takes no prefill: the model is asked to go on in a turn of the person's.
#[tokio::test]
async fn a_conversation_ending_on_the_models_turn_is_asked_to_go_on() {
    let stand_in = StandIn::start(json!({"turns": [{"content": [{"text": "blue."}]}]})).await;
    let client = stand_in.anthropic(None);
    let request = Request::new(
        "claude-sonnet-4-6",
        64,
        vec![
            Message::user_text("Name a colour."),
            Message::assistant_text("The colour is"),
        ],
    );
    assert_eq!(client.complete(&request).await.unwrap().text(), "blue.");
    let messages = stand_in.last_body().await["messages"].clone();
    assert_eq!(messages[2]["role"], "user");
    assert_eq!(messages[2]["content"][0]["text"], "Continue.");
}

/// `block` marked as the end of the prefix the API caches.
fn with_cache_mark(mut block: serde_json::Value) -> serde_json::Value {
    block["cache_control"] = json!({"type": "ephemeral"});
    block
}
