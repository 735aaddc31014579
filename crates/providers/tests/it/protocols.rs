//! What the clients do alike, each against the stand-in provider answering as its API
//! does and recording what it was sent: every test runs for OpenAI's Chat Completions,
//! Anthropic's Messages and OpenAI's Responses API, with what they write or say
//! differently in [`Expected`].

use std::time::Duration;

use serde_json::{Value, json};
use switchboard_providers::*;

use crate::common;
use crate::common::*;

fn ask(text: &str) -> Request {
    Request::new("model-test", 256, vec![Message::user_text(text)])
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

/// Where the two APIs differ, as the stand-in writes each.
struct Expected {
    /// The id of the answer to the first request, and of its first tool call.
    message_id: &'static str,
    call_id: &'static str,
    /// Tokens written to the cache, as the usage says them.
    cache_write_tokens: Option<u64>,
    /// The path of a model request.
    path: &'static str,
    /// The headers of a request with the key: `None` for one that must not be there.
    key_headers: Vec<(&'static str, Option<String>)>,
    /// The body of `ask("hi")`, streamed.
    hi_body: Value,
    /// What the model says before its tool call in the round trip (nothing for OpenAI,
    /// whose tool-call-only message then has `"content": null`).
    preface: &'static str,
    /// The field of the conversation, and its messages in the round trip as sent with the
    /// tool's result, and the tools.
    conversation: &'static str,
    round_trip: Value,
    tools: Value,
    /// Turns ending as scripted, and the stop reason each gives.
    stops: Vec<(Value, StopReason)>,
    /// Where the request carries the system prompt (a JSON pointer), and what it says.
    system: (&'static str, Value),
    /// The field of the stop sequences, if the API has them.
    stop_field: Option<&'static str>,
    /// The `tool_choice` of a tool required.
    tool_required: Value,
    errors: Errors,
    /// A failure scripted in mid-stream, and its message.
    mid_stream: (Value, &'static str),
    /// Part of the error for a stream that ends before its last event.
    cut_short: &'static str,
    /// The display names of the models listed, and the query of each page.
    display_names: [Option<&'static str>; 3],
    model_queries: Vec<&'static str>,
}

/// The messages of the errors of [`each_error_carries_the_providers_message`].
struct Errors {
    wrong_key: &'static str,
    no_key: &'static str,
    rate_limited: &'static str,
    server_error: &'static str,
    /// The status too.
    overloaded: (u16, &'static str),
    context_too_long: &'static str,
    /// The kind too.
    not_found: (&'static str, &'static str),
    /// The status too.
    quota_exceeded: (u16, &'static str),
}

fn expected(api: Api) -> Expected {
    let sampled = |stop: &str| json!({"content": [{"text": "said"}], "stop": stop});
    match api {
        Api::OpenAi => Expected {
            message_id: "chatcmpl-standin-1",
            call_id: "call_standin_1_0",
            cache_write_tokens: None,
            path: "/v1/chat/completions",
            key_headers: vec![("authorization", Some(format!("Bearer {KEY}")))],
            hi_body: json!({
                "model": "model-test",
                "messages": [{"role": "user", "content": "hi"}],
                "max_tokens": 256,
                "stream": true,
                "stream_options": {"include_usage": true},
            }),
            preface: "",
            conversation: "messages",
            round_trip: json!([
                {"role": "user", "content": "What is 2 + 3?"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_standin_1_0", "type": "function", "function": {"name": "get-sum", "arguments": "{\"a\":2,\"b\":3}"}},
                ]},
                {"role": "tool", "tool_call_id": "call_standin_1_0", "content": "5"},
            ]),
            tools: json!([{"type": "function", "function": {
                "name": "get-sum",
                "description": "Adds two numbers",
                "parameters": get_sum().parameters,
            }}]),
            stops: vec![
                (sampled("max_tokens"), StopReason::MaxTokens),
                // OpenAI says `stop` for a stop sequence too.
                (sampled("stop_sequence"), StopReason::EndTurn),
                (
                    json!({"content": [{"text": ""}], "stop": "refusal"}),
                    StopReason::Refused,
                ),
                (
                    sampled("something_new"),
                    StopReason::Other("something_new".into()),
                ),
            ],
            system: (
                "/messages/0",
                json!({"role": "system", "content": "You are terse."}),
            ),
            stop_field: Some("stop"),
            tool_required: json!("required"),
            errors: Errors {
                wrong_key: "Incorrect API key provided: sk-**********0000. You can find your API key at https://platform.openai.com/account/api-keys.",
                no_key: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
                rate_limited: "Rate limit reached for gpt-test in organization org-standin on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.",
                server_error: "The server had an error while processing your request. Sorry about that!",
                overloaded: (
                    503,
                    "The engine is currently overloaded, please try again later.",
                ),
                context_too_long: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
                not_found: (
                    "invalid_request_error",
                    "The model `gpt-missing` does not exist or you do not have access to it.",
                ),
                quota_exceeded: (
                    429,
                    "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
                ),
            },
            mid_stream: (json!({"kind": "server_error", "message": "boom"}), "boom"),
            cut_short: "ended before",
            display_names: [None, None, None],
            model_queries: vec![""],
        },
        Api::Anthropic => Expected {
            message_id: "msg_standin_1",
            call_id: "toolu_standin_1_0",
            cache_write_tokens: Some(0),
            path: "/v1/messages",
            key_headers: vec![
                ("x-api-key", Some(KEY.to_owned())),
                ("anthropic-version", Some("2023-06-01".to_owned())),
                ("authorization", None),
            ],
            hi_body: json!({
                "model": "model-test",
                "max_tokens": 256,
                "messages": [{"role": "user", "content": [
                    {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]}],
                "stream": true,
            }),
            preface: "I'll add them.",
            conversation: "messages",
            round_trip: json!([
                {"role": "user", "content": [{"type": "text", "text": "What is 2 + 3?"}]},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "I'll add them."},
                    {"type": "tool_use", "id": "toolu_standin_1_0", "name": "get-sum", "input": {"a": 2, "b": 3}},
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_standin_1_0", "content": [{"type": "text", "text": "5"}],
                        "cache_control": {"type": "ephemeral"}},
                ]},
            ]),
            tools: json!([{"name": "get-sum", "description": "Adds two numbers", "input_schema": get_sum().parameters,
                           "cache_control": {"type": "ephemeral"}}]),
            stops: vec![
                (sampled("max_tokens"), StopReason::MaxTokens),
                (
                    json!({"content": [{"text": "until"}], "stop": "stop_sequence", "stop_sequence": "END"}),
                    StopReason::StopSequence(Some("END".into())),
                ),
                (
                    json!({"content": [], "stop": "refusal"}),
                    StopReason::Refused,
                ),
                (
                    sampled("model_context_window_exceeded"),
                    StopReason::ContextWindowExceeded,
                ),
                (
                    sampled("pause_turn"),
                    StopReason::Other("pause_turn".into()),
                ),
            ],
            // The system prompt ends a prefix kept in the prompt cache, as the tools do.
            system: (
                "/system",
                json!([{"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}]),
            ),
            stop_field: Some("stop_sequences"),
            tool_required: json!({"type": "any"}),
            errors: Errors {
                wrong_key: "invalid x-api-key",
                no_key: "x-api-key header is required",
                rate_limited: "This request would exceed the rate limit for your organization of 50 requests per minute.",
                server_error: "Internal server error",
                overloaded: (529, "Overloaded"),
                context_too_long: "prompt is too long: 208310 tokens > 200000 maximum",
                not_found: ("not_found_error", "model: claude-missing"),
                quota_exceeded: (
                    400,
                    "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
                ),
            },
            mid_stream: (json!({"kind": "overloaded"}), "Overloaded"),
            cut_short: "message_stop",
            display_names: [
                Some("Model Large"),
                Some("Model Medium"),
                Some("model-small"),
            ],
            model_queries: vec!["limit=1000", "limit=1000&after_id=model-medium"],
        },
        Api::Responses => Expected {
            message_id: "resp_standin_1",
            call_id: "call_standin_1_0",
            cache_write_tokens: None,
            path: "/v1/responses",
            key_headers: vec![("authorization", Some(format!("Bearer {KEY}")))],
            hi_body: json!({
                "model": "model-test",
                "input": [{"role": "user", "content": [{"type": "input_text", "text": "hi"}]}],
                "max_output_tokens": 256,
                "store": false,
                "stream": true,
            }),
            preface: "I'll add them.",
            conversation: "input",
            round_trip: json!([
                {"role": "user", "content": [{"type": "input_text", "text": "What is 2 + 3?"}]},
                {"role": "assistant", "content": "I'll add them."},
                {"type": "function_call", "call_id": "call_standin_1_0", "name": "get-sum",
                    "arguments": "{\"a\":2,\"b\":3}"},
                {"type": "function_call_output", "call_id": "call_standin_1_0", "output": "5"},
            ]),
            tools: json!([{"type": "function", "name": "get-sum", "description": "Adds two numbers",
                "parameters": get_sum().parameters, "strict": false}]),
            stops: vec![
                (sampled("max_tokens"), StopReason::MaxTokens),
                (sampled("refusal"), StopReason::Refused),
                (sampled("end_turn"), StopReason::EndTurn),
            ],
            system: ("/instructions", json!("You are terse.")),
            // The API has no stop sequences.
            stop_field: None,
            tool_required: json!("required"),
            errors: expected(Api::OpenAi).errors,
            mid_stream: (json!({"kind": "server_error", "message": "boom"}), "boom"),
            cut_short: "ended before",
            display_names: [None, None, None],
            model_queries: vec![""],
        },
    }
}

/// Each API with what it is expected to do, held while a test checks it (see
/// [`Api::checking`]).
fn each_api() -> impl Iterator<Item = (Api, Expected, Checking)> {
    APIS.into_iter()
        .map(|api| (api, expected(api), api.checking()))
}

#[tokio::test]
async fn streamed_text_arrives_piece_by_piece_with_usage_and_stop_reason() {
    for (api, expected, _checking) in each_api() {
        let hello = json!([{"text": "Hello from the stand-in", "pieces": 4}]);
        let stand_in = StandIn::start(json!({
            "api_key": KEY,
            "turns": [
                {"content": hello, "usage": {"input": 12, "output": 7}},
                // The same answer cut into pieces of a few bytes, through events and lines.
                {"content": hello, "chunk_bytes": 5},
                {"content": hello, "chunk_bytes": 7},
            ]
        }))
        .await;
        let client = stand_in.client(api, Some(KEY));
        let (events, error) = common::events(&client, &ask("hi")).await;
        assert!(error.is_none(), "{error:?}");
        assert_eq!(
            events.first(),
            Some(&Event::Start {
                id: Some(expected.message_id.into()),
                model: Some("model-test".into())
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
                    cache_write_tokens: expected.cache_write_tokens,
                }),
            })
        );

        for _ in 0..2 {
            let (split, error) = common::events(&client, &ask("hi")).await;
            assert!(error.is_none(), "{error:?}");
            assert_eq!(text_deltas(&split), text_deltas(&events));
        }

        let request = &stand_in.requests().await[0];
        assert_eq!(request["path"], expected.path);
        assert_eq!(request["headers"]["content-type"], "application/json");
        for (name, value) in &expected.key_headers {
            assert_eq!(
                request["headers"].get(name),
                value.as_ref().map(|v| json!(v)).as_ref(),
                "{name}"
            );
        }
        assert_eq!(request["body"], expected.hi_body);
    }
}

#[tokio::test]
async fn streamed_tool_call_arguments_are_assembled_and_the_result_goes_back() {
    for (api, expected, _checking) in each_api() {
        let mut first = vec![
            json!({"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}, "pieces": 3}),
        ];
        if !expected.preface.is_empty() {
            first.insert(0, json!({"text": expected.preface}));
        }
        let stand_in = StandIn::start(json!({
            "turns": [
                {"content": first},
                {"content": [{"text": "The sum is {tool_result}.", "pieces": 2}]},
            ]
        }))
        .await;
        let client = stand_in.client(api, None);
        let mut request = ask("What is 2 + 3?");
        request.tools = vec![get_sum()];
        let (events, error) = common::events(&client, &request).await;
        assert!(error.is_none(), "{error:?}");
        assert!(events.contains(&Event::ToolCallStart {
            index: 0,
            id: expected.call_id.into(),
            name: "get-sum".into()
        }));
        // Anthropic's first `partial_json`, empty as the API sends it, gives no delta.
        assert_eq!(argument_deltas(&events, 0), [r#"{"a":"#, r#"2,"b""#, ":3}"]);
        let call = ToolCall {
            id: expected.call_id.into(),
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
        assert_eq!(answer.text(), expected.preface);
        assert_eq!(answer.tool_calls().collect::<Vec<_>>(), [&call]);

        // The host runs the tool and sends its result back.
        request.messages.push(answer.into_message());
        request
            .messages
            .push(Message::User(vec![UserContent::ToolResult(ToolResult {
                call_id: call.id.clone(),
                content: vec![ToolResultContent::Text("5".into())],
                is_error: false,
                not_made: false,
            })]));
        let reply = streamed(&client, &request).await;
        assert_eq!(reply.text(), "The sum is 5.");
        assert_eq!(reply.stop_reason, StopReason::EndTurn);

        let sent = stand_in.last_body().await;
        assert_eq!(sent[expected.conversation], expected.round_trip);
        assert_eq!(sent["tools"], expected.tools);
    }
}

#[tokio::test]
async fn several_tool_calls_split_anywhere_are_assembled() {
    for (api, expected, _checking) in each_api() {
        let stand_in = StandIn::start(json!({
            "turns": [{"content": [
                {"text": "Let me add both.", "pieces": 2},
                {"tool_call": {"name": "get-sum", "arguments": {"a": 1, "b": 1}}, "pieces": 2},
                {"tool_call": {"name": "get-sum", "arguments": {"a": 4, "b": 4}, "id": "own_id"}, "pieces": 5},
            ], "chunk_bytes": 3}]
        }))
        .await;
        let answer = streamed(&stand_in.client(api, None), &ask("add")).await;
        assert_eq!(answer.text(), "Let me add both.");
        let calls: Vec<_> = answer
            .tool_calls()
            .map(|c| (c.id.as_str(), c.arguments.clone()))
            .collect();
        assert_eq!(
            calls,
            [
                (expected.call_id, json!({"a": 1, "b": 1})),
                ("own_id", json!({"a": 4, "b": 4}))
            ]
        );
    }
}

#[tokio::test]
async fn stop_reasons_and_sampling_settings() {
    for (api, expected, _checking) in each_api() {
        let (turns, reasons): (Vec<Value>, Vec<StopReason>) = expected.stops.into_iter().unzip();
        let stand_in = StandIn::start(json!({"turns": turns})).await;
        let client = stand_in.client(api, None);
        let mut request = ask("go");
        request.system = Some("You are terse.".into());
        request.temperature = Some(0.25);
        request.stop_sequences = vec!["STOP".into(), "END".into()];
        let mut given = Vec::new();
        for _ in &turns {
            given.push(streamed(&client, &request).await.stop_reason);
        }
        assert_eq!(given, reasons);
        let sent = stand_in.last_body().await;
        let (system_at, system) = &expected.system;
        assert_eq!(sent.pointer(system_at), Some(system));
        assert_eq!(sent["temperature"], json!(0.25));
        match expected.stop_field {
            Some(field) => assert_eq!(sent[field], json!(["STOP", "END"])),
            None => assert!(!sent.to_string().contains("STOP"), "{sent}"),
        }
    }
}

#[tokio::test]
async fn a_whole_answer_without_streaming() {
    for (api, expected, _checking) in each_api() {
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
        let answer = stand_in.client(api, None).complete(&request).await.unwrap();
        assert_eq!(
            answer,
            Response {
                id: Some(expected.message_id.into()),
                model: Some("model-test".into()),
                content: vec![
                    AssistantContent::Text("Calling.".into()),
                    AssistantContent::ToolCall(ToolCall {
                        id: expected.call_id.into(),
                        name: "get-sum".into(),
                        arguments: json!({"a": 2, "b": 3}),
                    }),
                ],
                stop_reason: StopReason::ToolUse,
                usage: Some(Usage {
                    input_tokens: 40,
                    output_tokens: 9,
                    cache_read_tokens: Some(0),
                    cache_write_tokens: expected.cache_write_tokens,
                }),
            }
        );
        let sent = stand_in.last_body().await;
        assert_eq!(sent.get("stream"), None);
        assert_eq!(sent["tool_choice"], expected.tool_required);
    }
}

#[tokio::test]
async fn each_error_carries_the_providers_message() {
    for (api, expected, _checking) in each_api() {
        let said = expected.errors;
        let stand_in = StandIn::start(json!({
            "api_key": KEY,
            "turns": [
                {"error": {"kind": "rate_limited", "retry_after": "7"}},
                {"error": {"kind": "server_error"}},
                {"error": {"kind": "overloaded", "retry_after": "2"}},
                {"error": {"kind": "context_too_long"}},
                {"error": {"kind": "not_found"}},
                {"error": {"kind": "rate_limited"}},
                {"error": {"kind": "quota_exceeded"}},
            ]
        }))
        .await;
        let wrong = stand_in.client(api, Some("sk-wrong-key-0000"));
        let error = wrong.stream(&ask("hi")).await.unwrap_err();
        assert!(
            matches!(&error, Error::Auth { status: Some(401), message } if message == said.wrong_key),
            "{error:?}"
        );
        assert!(!error.to_string().contains("sk-wrong-key-0000"));
        let error = stand_in
            .client(api, None)
            .complete(&ask("hi"))
            .await
            .unwrap_err();
        assert!(
            matches!(&error, Error::Auth { status: Some(401), message } if message == said.no_key),
            "{error:?}"
        );

        let client = stand_in.client(api, Some(KEY));
        let error = client.stream(&ask("hi")).await.unwrap_err();
        assert!(
            matches!(&error, Error::RateLimited { message, retry_after: Some(wait) }
                if message == said.rate_limited && *wait == Duration::from_secs(7)),
            "{error:?}"
        );
        assert!(error.is_transient());
        let error = client.complete(&ask("hi")).await.unwrap_err();
        assert!(
            matches!(&error, Error::Unavailable { status: Some(500), message, retry_after: None }
                if message == said.server_error),
            "{error:?}"
        );
        let error = client.stream(&ask("hi")).await.unwrap_err();
        let (status, message) = said.overloaded;
        assert!(
            matches!(&error, Error::Unavailable { status: Some(s), message: m, .. } if *s == status && m == message),
            "{error:?}"
        );
        assert_eq!(error.retry_after(), Some(Duration::from_secs(2)));
        let error = client.stream(&ask("hi")).await.unwrap_err();
        assert!(
            matches!(&error, Error::ContextTooLong { status: Some(400), message }
                if message == said.context_too_long),
            "{error:?}"
        );
        let error = client.complete(&ask("hi")).await.unwrap_err();
        let (kind, message) = said.not_found;
        assert!(
            matches!(&error, Error::Refused { status: Some(404), kind: Some(k), message: m }
                if k == kind && m == message),
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
        // No quota left is no passing limit: it is not tried again.
        let error = client.stream(&ask("hi")).await.unwrap_err();
        let (status, message) = said.quota_exceeded;
        assert!(
            matches!(&error, Error::QuotaExceeded { status: Some(s), message: m }
                if *s == status && m == message),
            "{error:?}"
        );
        assert!(!error.is_transient());
    }
}

#[tokio::test]
async fn a_stream_that_breaks_is_an_error_after_what_came() {
    for (api, expected, _checking) in each_api() {
        let (failure, says) = expected.mid_stream;
        let stand_in = StandIn::start(json!({
            "turns": [
                {"content": [{"text": "Half an ans", "pieces": 2}], "fail_mid_stream": failure},
                {"content": [{"text": "Half"}], "garbage_mid_stream": true},
                {"content": [{"text": "Half"}], "cut_short": true},
            ]
        }))
        .await;
        let client = stand_in.client(api, None);
        let (events, error) = common::events(&client, &ask("hi")).await;
        assert_eq!(text_deltas(&events), ["Half a", "n ans"]);
        assert!(
            matches!(&error, Some(Error::Unavailable { status: None, message, .. }) if message == says),
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
            matches!(&error, Some(Error::MalformedStream(m)) if m.contains(expected.cut_short)),
            "{error:?}"
        );
    }
}

#[tokio::test]
async fn models_are_listed_page_after_page() {
    for (api, expected, _checking) in each_api() {
        let stand_in = StandIn::start(json!({
            "api_key": KEY,
            "models": [
                {"id": "model-large", "display_name": "Model Large"},
                {"id": "model-medium", "display_name": "Model Medium"},
                {"id": "model-small"},
            ],
            "models_page_size": 2,
        }))
        .await;
        let models = stand_in.client(api, Some(KEY)).list_models().await.unwrap();
        let listed: Vec<ModelInfo> = ["model-large", "model-medium", "model-small"]
            .into_iter()
            .zip(expected.display_names)
            .map(|(id, name)| ModelInfo {
                id: id.into(),
                display_name: name.map(Into::into),
            })
            .collect();
        assert_eq!(models, listed);
        let requests = stand_in.requests().await;
        let asked: Vec<_> = requests
            .iter()
            .map(|r| {
                (
                    r["method"].as_str(),
                    r["path"].as_str(),
                    r["query"].as_str(),
                )
            })
            .collect();
        let pages: Vec<_> = expected
            .model_queries
            .iter()
            .map(|query| (Some("GET"), Some("/v1/models"), Some(*query)))
            .collect();
        assert_eq!(asked, pages);
        assert!(matches!(
            stand_in.client(api, Some("sk-bad")).list_models().await,
            Err(Error::Auth { .. })
        ));
    }
}

#[tokio::test]
async fn no_key_means_no_key_header_and_the_key_never_prints() {
    for (api, _, _checking) in each_api() {
        let echo = format!("The key {KEY} was revoked");
        let stand_in = StandIn::start(json!({"turns": [
            {"content": [{"text": "ok"}]},
            {"error": {"kind": "unauthorized", "message": echo}},
            {"content": [{"text": "Hal"}], "fail_mid_stream": {"kind": "server_error", "message": echo}},
        ]}))
        .await;
        streamed(&stand_in.client(api, None), &ask("hi")).await;
        let request = &stand_in.requests().await[0];
        for name in ["authorization", "x-api-key"] {
            assert_eq!(request["headers"].get(name), None, "{name}");
        }

        // A provider that echoes the key in an error: the key is taken out.
        let client = stand_in.client(api, Some(KEY));
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

        let mut config = api.config("http://127.0.0.1:1", Some(KEY));
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
}

#[tokio::test]
async fn an_unreachable_provider_or_a_bad_base_url() {
    for (api, _, _checking) in each_api() {
        let (address, _bound) = switchboard_test_support::ports::refusing_address();
        let client = Client::new(api.config(&format!("http://{address}"), None)).unwrap();
        let error = client.complete(&ask("hi")).await.unwrap_err();
        assert!(matches!(error, Error::Connection(_)), "{error:?}");
        assert!(error.is_transient());
        let error = Client::new(api.config("ftp://example.com", None)).unwrap_err();
        assert!(matches!(error, Error::Config(_)), "{error:?}");
    }
}

/// A provider address that answers every request with a redirect to the same path at
/// `target`; returns the address.
async fn redirecting_to(target: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port to listen on");
    let address = format!("http://{}", listener.local_addr().expect("its address"));
    let target = target.to_owned();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let target = target.clone();
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&head).into_owned();
                let path = head.split(' ').nth(1).unwrap_or("/");
                let answer = format!(
                    "HTTP/1.1 307 Temporary Redirect\r\nlocation: {target}{path}\r\n\
                     content-length: 0\r\nconnection: close\r\n\r\n"
                );
                let _ = stream.write_all(answer.as_bytes()).await;
                // Read the rest until the client goes, so that it reads the answer whole.
                let _ = tokio::io::copy(&mut stream, &mut tokio::io::sink()).await;
            });
        }
    });
    address
}

/// A redirect would carry the key (Anthropic's `x-api-key` is not a header an HTTP client
/// drops for another host) to wherever it points: it is not followed, and the error says
/// where it pointed, for the person to correct the base URL.
#[tokio::test]
async fn a_redirect_is_not_followed_with_the_key() {
    let elsewhere = StandIn::start(json!({"turns": []})).await;
    let redirecting = redirecting_to(&elsewhere.url).await;
    for (api, _, _checking) in each_api() {
        let client = Client::new(api.config(&redirecting, Some(KEY))).unwrap();
        let error = client.complete(&ask("hi")).await.unwrap_err();
        assert!(
            error.to_string().contains(&elsewhere.url),
            "{api:?}: {error}"
        );
    }
    assert_eq!(
        elsewhere.requests().await,
        Vec::<Value>::new(),
        "a request went on to where the redirect pointed"
    );
}
