//! What only the OpenAI-compatible client does, against the stand-in provider answering as
//! OpenAI's API does; what both clients share is in `protocols.rs`.

mod common;

use common::*;
use serde_json::json;
use switchboard_providers::*;

#[tokio::test]
async fn images_go_as_image_url_parts_and_tool_images_follow_the_tool_message() {
    let stand_in = StandIn::start(json!({
        "turns": [
            {"content": [{"text": "A pixel."}]},
            {"content": [{"tool_call": {"name": "snap", "arguments": {}}}]},
            {"content": [{"text": "Seen."}]},
        ]
    }))
    .await;
    let client = stand_in.openai(None);
    let pixel = pixel();
    let mut request = Request::new(
        "gpt-test",
        64,
        vec![Message::User(vec![
            UserContent::Text("What is this?".into()),
            UserContent::Image(pixel.clone()),
            UserContent::Image(Image::Url {
                url: "https://example.com/cat.png".into(),
            }),
        ])],
    );
    assert_eq!(client.complete(&request).await.unwrap().text(), "A pixel.");
    assert_eq!(
        stand_in.last_body().await["messages"][0]["content"],
        json!([
            {"type": "text", "text": "What is this?"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PIXEL}")}},
            {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}},
        ])
    );

    let answer = client.complete(&request).await.unwrap();
    let call_id = answer.tool_calls().next().unwrap().id.clone();
    assert_eq!(answer.tool_calls().next().unwrap().arguments, json!({}));
    request.messages.push(answer.into_message());
    request
        .messages
        .push(Message::User(vec![UserContent::ToolResult(ToolResult {
            call_id: call_id.clone(),
            content: vec![
                ToolResultContent::Text("a snapshot".into()),
                ToolResultContent::Image(pixel),
            ],
            is_error: false,
            not_made: false,
        })]));
    assert_eq!(client.complete(&request).await.unwrap().text(), "Seen.");
    let messages = stand_in.last_body().await["messages"].clone();
    assert_eq!(
        messages[2],
        json!({"role": "tool", "tool_call_id": call_id, "content": "a snapshot"})
    );
    assert_eq!(
        messages[3],
        json!({"role": "user", "content": [
            {"type": "text", "text": format!("(an image from the result of tool call {call_id})")},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PIXEL}")}},
        ]})
    );
}
