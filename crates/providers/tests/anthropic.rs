//! The Anthropic client against the stand-in provider, which answers as Anthropic's API
//! does and records what it was sent.

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;
use switchboard_providers::*;

fn ask(text: &str) -> Request {
    Request::new("claude-test", 512, vec![Message::user_text(text)])
}

fn get_sum() -> Tool {
    Tool {
        name: "get-sum".into(),
        description: Some("Adds two numbers".into()),
        parameters: json!({
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        }),
    }
}

#[tokio::test]
async fn streamed_text_arrives_piece_by_piece_with_usage_and_stop_reason() {
    let stand_in = StandIn::start(json!({
        "api_key": KEY,
        "turns": [
            {"content": [{"text": "Hello from the stand-in", "pieces": 4}], "usage": {"input": 25, "output": 11}},
            {"content": [{"text": "Hello from the stand-in", "pieces": 4}], "chunk_bytes": 7},
        ]
    }))
    .await;
    let client = stand_in.anthropic(Some(KEY));
    let (events, error) = common::events(&client, &ask("hi")).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        events.first(),
        Some(&Event::Start {
            id: Some("msg_standin_1".into()),
            model: Some("claude-test".into())
        })
    );
    assert_eq!(
        text_deltas(&events),
        ["Hello ", "from t", "he sta", "nd-in"]
    );
    assert_eq!(
        events.last(),
        Some(&Event::Finish {
            stop_reason: StopReason::EndTurn,
            usage: Some(Usage {
                input_tokens: 25,
                output_tokens: 11,
                cache_read_tokens: Some(0),
                cache_write_tokens: Some(0),
            }),
        })
    );

    let (split, error) = common::events(&client, &ask("hi")).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(text_deltas(&split), text_deltas(&events));

    let request = &stand_in.requests().await[0];
    assert_eq!(request["path"], "/v1/messages");
    assert_eq!(request["headers"]["x-api-key"], KEY);
    assert_eq!(request["headers"]["anthropic-version"], "2023-06-01");
    assert_eq!(request["headers"].get("authorization"), None);
    assert_eq!(
        request["body"],
        json!({
            "model": "claude-test",
            "max_tokens": 512,
            "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
            "stream": true,
        })
    );
}

#[tokio::test]
async fn streamed_tool_call_arguments_are_assembled_and_the_result_goes_back() {
    let stand_in = StandIn::start(json!({
        "turns": [
            {"content": [
                {"text": "I'll add them."},
                {"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}, "pieces": 3},
            ]},
            {"content": [{"text": "The sum is {tool_result}.", "pieces": 2}]},
        ]
    }))
    .await;
    let client = stand_in.anthropic(None);
    let mut request = ask("What is 2 + 3?");
    request.tools = vec![get_sum()];
    let (events, error) = common::events(&client, &request).await;
    assert!(error.is_none(), "{error:?}");
    assert!(events.contains(&Event::ToolCallStart {
        index: 0,
        id: "toolu_standin_1_0".into(),
        name: "get-sum".into()
    }));
    // The empty first `partial_json` the API sends gives no delta.
    assert_eq!(argument_deltas(&events, 0), [r#"{"a":"#, r#"2,"b""#, ":3}"]);
    let call = ToolCall {
        id: "toolu_standin_1_0".into(),
        name: "get-sum".into(),
        arguments: json!({"a": 2, "b": 3}),
    };
    assert!(events.contains(&Event::ToolCallEnd {
        index: 0,
        call: call.clone()
    }));
    let mut answer = Collector::default();
    events.iter().for_each(|e| answer.push(e));
    let answer = answer.finish().expect("finished");
    assert_eq!(answer.stop_reason, StopReason::ToolUse);
    assert_eq!(answer.text(), "I'll add them.");

    request.messages.push(answer.into_message());
    request
        .messages
        .push(Message::User(vec![UserContent::ToolResult(ToolResult {
            call_id: call.id.clone(),
            content: vec![ToolResultContent::Text("5".into())],
            is_error: false,
        })]));
    let reply = streamed(&client, &request).await;
    assert_eq!(reply.text(), "The sum is 5.");
    assert_eq!(reply.stop_reason, StopReason::EndTurn);

    let sent = stand_in.last_body().await;
    assert_eq!(
        sent["messages"],
        json!([
            {"role": "user", "content": [{"type": "text", "text": "What is 2 + 3?"}]},
            {"role": "assistant", "content": [
                {"type": "text", "text": "I'll add them."},
                {"type": "tool_use", "id": "toolu_standin_1_0", "name": "get-sum", "input": {"a": 2, "b": 3}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_standin_1_0", "content": [{"type": "text", "text": "5"}]},
            ]},
        ])
    );
    assert_eq!(
        sent["tools"],
        json!([{"name": "get-sum", "description": "Adds two numbers", "input_schema": get_sum().parameters}])
    );
}

#[tokio::test]
async fn several_tool_calls_split_anywhere_are_assembled() {
    let stand_in = StandIn::start(json!({
        "turns": [{"content": [
            {"tool_call": {"name": "get-sum", "arguments": {"a": 1, "b": 1}}, "pieces": 2},
            {"tool_call": {"name": "get-sum", "arguments": {"a": 4, "b": 4}, "id": "toolu_own"}, "pieces": 5},
        ], "chunk_bytes": 3}]
    }))
    .await;
    let answer = streamed(&stand_in.anthropic(None), &ask("add")).await;
    let calls: Vec<_> = answer
        .tool_calls()
        .map(|c| (c.id.as_str(), c.arguments.clone()))
        .collect();
    assert_eq!(
        calls,
        [
            ("toolu_standin_1_0", json!({"a": 1, "b": 1})),
            ("toolu_own", json!({"a": 4, "b": 4}))
        ]
    );
}

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
    let pixel = Image::Base64 {
        media_type: "image/png".into(),
        data: PIXEL.into(),
    };
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
            png,
        ])
    );
}

#[tokio::test]
async fn stop_reasons_and_sampling_settings() {
    let stand_in = StandIn::start(json!({
        "turns": [
            {"content": [{"text": "cut"}], "stop": "max_tokens"},
            {"content": [{"text": "until"}], "stop": "stop_sequence", "stop_sequence": "END"},
            {"content": [], "stop": "refusal"},
            {"content": [{"text": "full"}], "stop": "model_context_window_exceeded"},
            {"content": [{"text": "later"}], "stop": "pause_turn"},
        ]
    }))
    .await;
    let client = stand_in.anthropic(None);
    let mut request = ask("go");
    request.system = Some("You are terse.".into());
    request.temperature = Some(0.25);
    request.stop_sequences = vec!["STOP".into(), "END".into()];
    let mut reasons = Vec::new();
    for _ in 0..5 {
        reasons.push(streamed(&client, &request).await.stop_reason);
    }
    assert_eq!(
        reasons,
        [
            StopReason::MaxTokens,
            StopReason::StopSequence(Some("END".into())),
            StopReason::Refused,
            StopReason::ContextWindowExceeded,
            StopReason::Other("pause_turn".into()),
        ]
    );
    let sent = stand_in.last_body().await;
    assert_eq!(sent["system"], "You are terse.");
    assert_eq!(sent["temperature"], json!(0.25));
    assert_eq!(sent["stop_sequences"], json!(["STOP", "END"]));
}

#[tokio::test]
async fn a_whole_answer_without_streaming() {
    let stand_in = StandIn::start(json!({
        "turns": [{"content": [
            {"text": "Calling."},
            {"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}},
        ], "usage": {"input": 40, "output": 9}}]
    }))
    .await;
    let mut request = ask("add");
    request.tools = vec![get_sum()];
    request.tool_choice = ToolChoice::Required;
    let answer = stand_in.anthropic(None).complete(&request).await.unwrap();
    assert_eq!(
        answer,
        Response {
            id: Some("msg_standin_1".into()),
            model: Some("claude-test".into()),
            content: vec![
                AssistantContent::Text("Calling.".into()),
                AssistantContent::ToolCall(ToolCall {
                    id: "toolu_standin_1_0".into(),
                    name: "get-sum".into(),
                    arguments: json!({"a": 2, "b": 3}),
                }),
            ],
            stop_reason: StopReason::ToolUse,
            usage: Some(Usage {
                input_tokens: 40,
                output_tokens: 9,
                cache_read_tokens: Some(0),
                cache_write_tokens: Some(0),
            }),
        }
    );
    let sent = stand_in.last_body().await;
    assert_eq!(sent.get("stream"), None);
    assert_eq!(sent["tool_choice"], json!({"type": "any"}));
}

#[tokio::test]
async fn each_error_carries_the_providers_message() {
    let stand_in = StandIn::start(json!({
        "api_key": KEY,
        "turns": [
            {"error": {"kind": "rate_limited", "retry_after": "13"}},
            {"error": {"kind": "server_error"}},
            {"error": {"kind": "overloaded"}},
            {"error": {"kind": "context_too_long"}},
            {"error": {"kind": "not_found"}},
        ]
    }))
    .await;
    let error = stand_in
        .anthropic(Some("sk-ant-wrong"))
        .stream(&ask("hi"))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Auth { status: Some(401), message } if message == "invalid x-api-key"),
        "{error:?}"
    );
    let error = stand_in
        .anthropic(None)
        .complete(&ask("hi"))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Auth { message, .. } if message == "x-api-key header is required"),
        "{error:?}"
    );

    let client = stand_in.anthropic(Some(KEY));
    let error = client.stream(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::RateLimited { message, retry_after: Some(wait) }
            if message.starts_with("This request would exceed the rate limit") && *wait == Duration::from_secs(13)),
        "{error:?}"
    );
    let error = client.complete(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::Unavailable { status: Some(500), message, .. } if message == "Internal server error"),
        "{error:?}"
    );
    let error = client.stream(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::Unavailable { status: Some(529), message, .. } if message == "Overloaded"),
        "{error:?}"
    );
    let error = client.stream(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::ContextTooLong { status: Some(400), message }
            if message == "prompt is too long: 208310 tokens > 200000 maximum"),
        "{error:?}"
    );
    let error = client.complete(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::Refused { status: Some(404), kind: Some(kind), message }
            if kind == "not_found_error" && message == "model: claude-missing"),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_stream_that_breaks_is_an_error_after_what_came() {
    let stand_in = StandIn::start(json!({
        "turns": [
            {"content": [{"text": "Half an ans", "pieces": 2}], "fail_mid_stream": {"kind": "overloaded"}},
            {"content": [{"text": "Half"}], "garbage_mid_stream": true},
            {"content": [{"text": "Half"}], "cut_short": true},
        ]
    }))
    .await;
    let client = stand_in.anthropic(None);
    let (events, error) = common::events(&client, &ask("hi")).await;
    assert_eq!(text_deltas(&events), ["Half a", "n ans"]);
    assert!(
        matches!(&error, Some(Error::Unavailable { status: None, message, .. }) if message == "Overloaded"),
        "{error:?}"
    );
    let (_, error) = common::events(&client, &ask("hi")).await;
    assert!(
        matches!(&error, Some(Error::MalformedStream(_))),
        "{error:?}"
    );
    let (events, error) = common::events(&client, &ask("hi")).await;
    assert_eq!(text_deltas(&events), ["Half"]);
    assert!(
        matches!(&error, Some(Error::MalformedStream(m)) if m.contains("message_stop")),
        "{error:?}"
    );
}

#[tokio::test]
async fn models_are_listed_page_after_page() {
    let stand_in = StandIn::start(json!({
        "api_key": KEY,
        "models": [
            {"id": "claude-opus-test", "display_name": "Claude Opus Test"},
            {"id": "claude-sonnet-test", "display_name": "Claude Sonnet Test"},
            {"id": "claude-haiku-test"},
        ],
        "models_page_size": 2,
    }))
    .await;
    let models = stand_in.anthropic(Some(KEY)).list_models().await.unwrap();
    assert_eq!(
        models,
        [
            ModelInfo {
                id: "claude-opus-test".into(),
                display_name: Some("Claude Opus Test".into())
            },
            ModelInfo {
                id: "claude-sonnet-test".into(),
                display_name: Some("Claude Sonnet Test".into())
            },
            ModelInfo {
                id: "claude-haiku-test".into(),
                display_name: Some("claude-haiku-test".into())
            },
        ]
    );
    let queries: Vec<_> = stand_in
        .requests()
        .await
        .iter()
        .map(|r| r["query"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        queries,
        ["limit=1000", "limit=1000&after_id=claude-sonnet-test"]
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
    assert_eq!(streamed(&client, &ask("hi")).await.text(), "ok");
}
