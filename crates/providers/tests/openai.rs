//! The OpenAI-compatible client against the stand-in provider, which answers as OpenAI's
//! API does and records what it was sent.

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;
use switchboard_providers::*;

fn ask(text: &str) -> Request {
    Request::new("gpt-test", 256, vec![Message::user_text(text)])
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
            {"content": [{"text": "Hello from the stand-in", "pieces": 4}], "usage": {"input": 12, "output": 7}},
            // The same answer cut into 5-byte pieces, through events and lines.
            {"content": [{"text": "Hello from the stand-in", "pieces": 4}], "chunk_bytes": 5},
        ]
    }))
    .await;
    let client = stand_in.openai(Some(KEY));
    let (events, error) = common::events(&client, &ask("hi")).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        events.first(),
        Some(&Event::Start {
            id: Some("chatcmpl-standin-1".into()),
            model: Some("gpt-test".into())
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
                input_tokens: 12,
                output_tokens: 7,
                cache_read_tokens: Some(0),
                cache_write_tokens: None,
            }),
        })
    );

    let (split, error) = common::events(&client, &ask("hi")).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(text_deltas(&split), text_deltas(&events));

    let request = &stand_in.requests().await[0];
    assert_eq!(request["path"], "/v1/chat/completions");
    assert_eq!(request["headers"]["authorization"], format!("Bearer {KEY}"));
    assert_eq!(request["headers"]["content-type"], "application/json");
    assert_eq!(
        request["body"],
        json!({
            "model": "gpt-test",
            "messages": [{"role": "user", "content": "hi"}],
            "max_tokens": 256,
            "stream": true,
            "stream_options": {"include_usage": true},
        })
    );
}

#[tokio::test]
async fn streamed_tool_call_arguments_are_assembled_and_the_result_goes_back() {
    let stand_in = StandIn::start(json!({
        "turns": [
            {"content": [{"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}, "pieces": 3}]},
            {"content": [{"text": "The sum is {tool_result}.", "pieces": 2}]},
        ]
    }))
    .await;
    let client = stand_in.openai(None);
    let mut request = ask("What is 2 + 3?");
    request.tools = vec![get_sum()];
    let (events, error) = common::events(&client, &request).await;
    assert!(error.is_none(), "{error:?}");
    assert!(events.contains(&Event::ToolCallStart {
        index: 0,
        id: "call_standin_1_0".into(),
        name: "get-sum".into()
    }));
    assert_eq!(argument_deltas(&events, 0), [r#"{"a":"#, r#"2,"b""#, ":3}"]);
    let call = ToolCall {
        id: "call_standin_1_0".into(),
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
    assert_eq!(answer.tool_calls().collect::<Vec<_>>(), [&call]);

    // The host runs the tool and sends its result back.
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
            {"role": "user", "content": "What is 2 + 3?"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_standin_1_0", "type": "function", "function": {"name": "get-sum", "arguments": "{\"a\":2,\"b\":3}"}},
            ]},
            {"role": "tool", "tool_call_id": "call_standin_1_0", "content": "5"},
        ])
    );
    assert_eq!(
        sent["tools"],
        json!([{"type": "function", "function": {
            "name": "get-sum",
            "description": "Adds two numbers",
            "parameters": get_sum().parameters,
        }}])
    );
}

#[tokio::test]
async fn several_tool_calls_in_one_answer_each_get_their_own_index() {
    let stand_in = StandIn::start(json!({
        "turns": [{"content": [
            {"text": "Let me add both.", "pieces": 2},
            {"tool_call": {"name": "get-sum", "arguments": {"a": 1, "b": 1}}, "pieces": 2},
            {"tool_call": {"name": "get-sum", "arguments": {"a": 4, "b": 4}, "id": "call_own_id"}, "pieces": 4},
        ], "chunk_bytes": 3}]
    }))
    .await;
    let answer = streamed(&stand_in.openai(None), &ask("add")).await;
    assert_eq!(answer.text(), "Let me add both.");
    let calls: Vec<_> = answer
        .tool_calls()
        .map(|c| (c.id.as_str(), c.arguments.clone()))
        .collect();
    assert_eq!(
        calls,
        [
            ("call_standin_1_0", json!({"a": 1, "b": 1})),
            ("call_own_id", json!({"a": 4, "b": 4}))
        ]
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
    let pixel = Image::Base64 {
        media_type: "image/png".into(),
        data: PIXEL.into(),
    };
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

#[tokio::test]
async fn stop_reasons_and_sampling_settings() {
    let stand_in = StandIn::start(json!({
        "turns": [
            {"content": [{"text": "cut"}], "stop": "max_tokens"},
            {"content": [{"text": "until"}], "stop": "stop_sequence"},
            {"content": [{"text": ""}], "stop": "refusal"},
            {"content": [{"text": "odd"}], "stop": "something_new"},
        ]
    }))
    .await;
    let client = stand_in.openai(None);
    let mut request = ask("go");
    request.system = Some("You are terse.".into());
    request.temperature = Some(0.25);
    request.stop_sequences = vec!["STOP".into(), "END".into()];
    let mut reasons = Vec::new();
    for _ in 0..4 {
        reasons.push(streamed(&client, &request).await.stop_reason);
    }
    assert_eq!(
        reasons,
        [
            StopReason::MaxTokens,
            // OpenAI says `stop` for a stop sequence too.
            StopReason::EndTurn,
            StopReason::Refused,
            StopReason::Other("something_new".into()),
        ]
    );
    let sent = stand_in.last_body().await;
    assert_eq!(
        sent["messages"][0],
        json!({"role": "system", "content": "You are terse."})
    );
    assert_eq!(sent["temperature"], json!(0.25));
    assert_eq!(sent["stop"], json!(["STOP", "END"]));
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
    let client = stand_in.openai(None);
    let mut request = ask("add");
    request.tools = vec![get_sum()];
    request.tool_choice = ToolChoice::Required;
    let answer = client.complete(&request).await.unwrap();
    assert_eq!(
        answer,
        Response {
            id: Some("chatcmpl-standin-1".into()),
            model: Some("gpt-test".into()),
            content: vec![
                AssistantContent::Text("Calling.".into()),
                AssistantContent::ToolCall(ToolCall {
                    id: "call_standin_1_0".into(),
                    name: "get-sum".into(),
                    arguments: json!({"a": 2, "b": 3}),
                }),
            ],
            stop_reason: StopReason::ToolUse,
            usage: Some(Usage {
                input_tokens: 40,
                output_tokens: 9,
                cache_read_tokens: Some(0),
                cache_write_tokens: None,
            }),
        }
    );
    let sent = stand_in.last_body().await;
    assert_eq!(sent.get("stream"), None);
    assert_eq!(sent["tool_choice"], "required");
}

#[tokio::test]
async fn each_error_carries_the_providers_message() {
    let stand_in = StandIn::start(json!({
        "api_key": KEY,
        "turns": [
            {"error": {"kind": "rate_limited", "retry_after": "7"}},
            {"error": {"kind": "server_error"}},
            {"error": {"kind": "overloaded", "retry_after": "2"}},
            {"error": {"kind": "context_too_long"}},
            {"error": {"kind": "not_found"}},
            {"error": {"kind": "rate_limited"}},
        ]
    }))
    .await;
    let wrong = stand_in.openai(Some("sk-wrong-key-0000"));
    let error = wrong.stream(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::Auth { status: Some(401), message } if message.starts_with("Incorrect API key provided: sk-**********0000.")),
        "{error:?}"
    );
    assert!(!error.to_string().contains("sk-wrong-key-0000"));
    let error = stand_in
        .openai(None)
        .complete(&ask("hi"))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Auth { message, .. } if message.starts_with("You didn't provide an API key")),
        "{error:?}"
    );

    let client = stand_in.openai(Some(KEY));
    let error = client.stream(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::RateLimited { message, retry_after: Some(wait) }
            if message.starts_with("Rate limit reached for gpt-test") && *wait == Duration::from_secs(7)),
        "{error:?}"
    );
    assert!(error.is_transient());
    let error = client.complete(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::Unavailable { status: Some(500), message, retry_after: None }
            if message == "The server had an error while processing your request. Sorry about that!"),
        "{error:?}"
    );
    let error = client.stream(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::Unavailable { status: Some(503), message, .. } if message.contains("overloaded")),
        "{error:?}"
    );
    assert_eq!(error.retry_after(), Some(Duration::from_secs(2)));
    let error = client.stream(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::ContextTooLong { status: Some(400), message }
            if message.starts_with("This model's maximum context length is 128000 tokens")),
        "{error:?}"
    );
    let error = client.complete(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::Refused { status: Some(404), message, .. } if message.contains("does not exist")),
        "{error:?}"
    );
    let error = client.stream(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::RateLimited {
                retry_after: None,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_stream_that_breaks_is_an_error_after_what_came() {
    let stand_in = StandIn::start(json!({
        "turns": [
            {"content": [{"text": "Half an ans", "pieces": 2}], "fail_mid_stream": {"kind": "server_error", "message": "boom"}},
            {"content": [{"text": "Half"}], "garbage_mid_stream": true},
            {"content": [{"text": "Half"}], "cut_short": true},
        ]
    }))
    .await;
    let client = stand_in.openai(None);
    let (events, error) = common::events(&client, &ask("hi")).await;
    assert_eq!(text_deltas(&events), ["Half a", "n ans"]);
    assert!(
        matches!(&error, Some(Error::Unavailable { status: None, message, .. }) if message == "boom"),
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
        matches!(&error, Some(Error::MalformedStream(m)) if m.contains("ended before")),
        "{error:?}"
    );
}

#[tokio::test]
async fn models_are_listed() {
    let stand_in = StandIn::start(json!({
        "api_key": KEY,
        "models": [{"id": "gpt-test"}, {"id": "gpt-test-mini"}, {"id": "llama-3"}],
    }))
    .await;
    let models = stand_in.openai(Some(KEY)).list_models().await.unwrap();
    let ids: Vec<_> = models.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["gpt-test", "gpt-test-mini", "llama-3"]);
    let request = &stand_in.requests().await[0];
    assert_eq!(request["method"], "GET");
    assert_eq!(request["path"], "/v1/models");
    assert!(matches!(
        stand_in.openai(Some("sk-bad")).list_models().await,
        Err(Error::Auth { .. })
    ));
}

#[tokio::test]
async fn no_key_means_no_authorization_header_and_the_key_never_prints() {
    let echo = format!("The key {KEY} was revoked");
    let stand_in = StandIn::start(json!({"turns": [
        {"content": [{"text": "ok"}]},
        {"error": {"kind": "unauthorized", "message": echo}},
        {"content": [{"text": "Hal"}], "fail_mid_stream": {"kind": "server_error", "message": echo}},
    ]}))
    .await;
    streamed(&stand_in.openai(None), &ask("hi")).await;
    let request = &stand_in.requests().await[0];
    assert_eq!(request["headers"].get("authorization"), None);

    // A provider that echoes the key in an error: the key is taken out.
    let client = stand_in.openai(Some(KEY));
    let error = client.complete(&ask("hi")).await.unwrap_err();
    assert!(
        matches!(&error, Error::Auth { message, .. } if message == "The key <redacted> was revoked"),
        "{error:?}"
    );
    let (_, error) = common::events(&client, &ask("hi")).await;
    assert!(
        matches!(&error, Some(Error::Unavailable { message, .. }) if message == "The key <redacted> was revoked"),
        "{error:?}"
    );

    let mut config =
        ProviderConfig::openai_compatible("http://127.0.0.1:1/v1", Some(ApiKey::new(KEY)));
    config
        .extra_headers
        .push(("x-proxy-token".into(), "proxy-secret".into()));
    let client = Client::new(config.clone()).unwrap();
    let shown = format!("{config:?} {client:?}");
    assert!(
        !shown.contains(KEY) && !shown.contains("proxy-secret"),
        "{shown}"
    );
    assert!(shown.contains("x-proxy-token"), "{shown}");
}

#[tokio::test]
async fn an_unreachable_provider_or_a_bad_base_url() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let client = Client::new(ProviderConfig::openai_compatible(
        format!("http://127.0.0.1:{port}/v1"),
        None,
    ))
    .unwrap();
    let error = client.complete(&ask("hi")).await.unwrap_err();
    assert!(matches!(error, Error::Connection(_)), "{error:?}");
    assert!(error.is_transient());
    let error =
        Client::new(ProviderConfig::openai_compatible("ftp://example.com", None)).unwrap_err();
    assert!(matches!(error, Error::Config(_)), "{error:?}");
}
