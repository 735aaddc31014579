//! What only the OpenAI-compatible client does, against the stand-in provider answering as
//! OpenAI's API does; what both clients share is in `protocols.rs`.

use serde_json::{Value, json};
use switchboard_providers::*;

use crate::common::*;

/// A local model that writes its thinking inline, in an opening `<think>` block, cut
/// through its tags as it streams: the block is its reasoning, the rest its answer.
#[tokio::test]
async fn a_local_models_inline_thinking_is_its_reasoning() {
    let stand_in = StandIn::start(json!({
        "dialect": "ollama",
        "turns": [{"content": [{"text": "<think>\nTwo plus three.\n</think>\n\nIt is 5.", "pieces": 7}]}]
    }))
    .await;
    let client = stand_in.openai(None);
    let request = Request::new("qwen3", 64, vec![Message::user_text("2 + 3?")]);
    let mut stream = client.stream(&request).await.unwrap();
    let mut answer = Collector::default();
    while let Some(event) = stream.next().await {
        answer.push(&event.unwrap());
    }
    let answer = answer.finish().unwrap();
    assert_eq!(answer.text(), "It is 5.");
    assert!(
        matches!(&answer.content[0], AssistantContent::Reasoning(r) if r.text == "Two plus three."),
        "{:?}",
        answer.content
    );
}

/// A text-only model refuses the image: it is asked once more, the image described.
#[tokio::test]
async fn a_model_that_reads_no_images_gets_them_described() {
    let stand_in = StandIn::start(json!({
        "text_only": true,
        "turns": [{"content": [{"text": "I cannot see it, but you say it is a pixel."}]}]
    }))
    .await;
    let client = stand_in.openai(None);
    let request = Request::new(
        "llama3.2",
        64,
        vec![Message::User(vec![
            UserContent::Image(pixel()),
            UserContent::Text("It is a pixel. What is it?".into()),
        ])],
    );
    let answer = client.stream(&request).await.unwrap();
    let mut collected = Collector::default();
    let mut answer = answer;
    while let Some(event) = answer.next().await {
        collected.push(&event.unwrap());
    }
    assert_eq!(
        collected.finish().unwrap().text(),
        "I cannot see it, but you say it is a pixel."
    );
    assert_eq!(
        stand_in.last_body().await["messages"][0]["content"],
        json!([
            {"type": "text", "text": "[An image was left out here: the model reads no images.]"},
            {"type": "text", "text": "It is a pixel. What is it?"},
        ])
    );
}

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
            {"type": "text", "text": format!("(the next image is data the tool call {call_id} returned, not the person's)")},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PIXEL}")}},
        ]})
    );
}

/// The OpenAI-compatible servers people run at home, each streaming as it does (see the
/// stand-in's `dialect.rs`): a reasoning model's thinking, text and a tool call come out
/// as from OpenAI, the thinking kept out of the text, with the usage where the server
/// gives one. Mutations, each failing the Ollama case (in `crates/providers/src/openai.rs`):
/// `call_delta` returning at once for a tool call without an `index`; `finish` passing
/// `false` for "there were tool calls" to `stop_reason`.
#[tokio::test]
async fn the_streams_of_local_servers_read_as_openais() {
    // The dialect, and whether its stream says the usage.
    let dialects = [
        ("openai", true),
        ("ollama", false),
        ("llama.cpp", true),
        ("vllm", true),
    ];
    for (dialect, says_usage) in dialects {
        let stand_in = StandIn::start(json!({
            "dialect": dialect,
            "turns": [{
                "content": [
                    {"thinking": "Two plus three.", "signature": "", "pieces": 2},
                    {"text": "Adding them.", "pieces": 2},
                    {"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}, "pieces": 3},
                ],
                "usage": {"input": 20, "output": 9},
            }],
        }))
        .await;
        let client = stand_in.openai(None);
        let mut request = Request::new("local-model", 64, vec![Message::user_text("2 + 3?")]);
        request.tools = vec![Tool {
            name: "get-sum".into(),
            description: None,
            parameters: json!({"type": "object"}),
        }];
        let (events, error) = events(&client, &request).await;
        assert!(error.is_none(), "{dialect}: {error:?}");
        let mut answer = Collector::default();
        events.iter().for_each(|e| answer.push(e));
        let answer = answer.finish().expect("finished");
        assert_eq!(answer.text(), "Adding them.", "{dialect}");
        let thought: Vec<&str> = answer
            .content
            .iter()
            .filter_map(|c| match c {
                AssistantContent::Reasoning(r) => Some(r.text.as_str()),
                _ => None,
            })
            .collect();
        let thinks: &[&str] = if dialect == "openai" {
            &[]
        } else {
            &["Two plus three."]
        };
        assert_eq!(thought, thinks, "{dialect}: the thinking is kept");
        let calls: Vec<_> = answer
            .tool_calls()
            .map(|c| (&c.name, &c.arguments))
            .collect();
        assert_eq!(
            calls,
            [(&"get-sum".to_owned(), &json!({"a": 2, "b": 3}))],
            "{dialect}"
        );
        assert_eq!(answer.stop_reason, StopReason::ToolUse, "{dialect}");
        let usage = answer.usage.map(|u| (u.input_tokens, u.output_tokens));
        assert_eq!(usage, says_usage.then_some((20, 9)), "{dialect}");
    }
}

/// A reasoning model refuses any temperature but its own: one this crate does not know is
/// asked once more without it, and the person gets the answer; the refusal is learned, so
/// that it is not sent one again, streamed or not; one this crate knows is never sent one.
#[tokio::test]
async fn a_parameter_the_model_refuses_is_left_out_and_the_request_tried_again() {
    let stand_in = StandIn::start(json!({"turns": [
        {"content": [{"text": "Thought it through."}]},
        {"content": [{"text": "Thought it through."}]},
        {"content": [{"text": "Known."}]},
    ]}))
    .await;
    let client = stand_in.openai(None);
    let mut request = Request::new("local-reasoner", 64, vec![Message::user_text("Think.")]);
    request.temperature = Some(0.3);
    assert_eq!(
        client.complete(&request).await.unwrap().text(),
        "Thought it through."
    );
    assert_eq!(
        streamed(&client, &request).await.text(),
        "Thought it through."
    );
    let bodies: Vec<Value> = stand_in
        .requests()
        .await
        .into_iter()
        .map(|r| r["body"].clone())
        .collect();
    assert_eq!(bodies.len(), 3, "refused once, then taken");
    assert_eq!(bodies[0]["temperature"], 0.3);
    assert!(bodies[1].get("temperature").is_none(), "{}", bodies[1]);
    assert!(
        bodies[2].get("temperature").is_none(),
        "learned: {}",
        bodies[2]
    );
    assert_eq!(client.profile("local-reasoner").temperature, Some(false));
    assert_eq!(client.learned().len(), 1);

    request.model = "o3-mini".into();
    assert_eq!(client.complete(&request).await.unwrap().text(), "Known.");
    let sent = stand_in.last_body().await;
    assert!(sent.get("temperature").is_none(), "{sent}");
    assert_eq!(stand_in.requests().await.len(), 4, "asked once");
}

/// What the person says of a model goes over what its name tells.
#[tokio::test]
async fn a_persons_profile_of_a_model_goes_over_what_its_name_tells() {
    let stand_in = StandIn::start(json!({"turns": [{"content": [{"text": "Short."}]}]})).await;
    let mut config = Api::OpenAi.config(&stand_in.url, None);
    let said = Profile {
        max_output: Some(100),
        ..Profile::NONE
    };
    config.profiles.insert("gpt-4o".into(), said);
    let client = Client::new(config).unwrap();
    // gpt-4o may write 16,384 tokens by its name; the person said 100.
    let long = Request::new("gpt-4o", 4096, vec![Message::user_text("Hi")]);
    client.complete(&long).await.unwrap();
    assert_eq!(stand_in.last_body().await["max_tokens"], 100);
    assert_eq!(
        client.profile("gpt-4o").vision,
        Some(true),
        "the rest as known"
    );
}
