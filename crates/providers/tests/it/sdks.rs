//! The stand-in provider speaks the real protocols: the official `openai` and `anthropic`
//! Python SDKs (`tests/peers/python/provider_sdks.py`, installed by `scripts/setup`) call
//! it, streamed and whole, with tools and tool results, and meet its errors, in OpenAI's
//! Chat Completions and Responses and Anthropic's Messages; what they parse is checked
//! here, and every answer they read was also validated against their own types.

use std::time::Duration;

use serde_json::{Value, json};
use switchboard_test_support::provider_requests::rejections;

use crate::common::*;

/// The turns the scenarios of `provider_sdks.py` take, in its order.
fn script() -> Value {
    let sum = json!({"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}, "pieces": 3});
    json!({
        "api_key": KEY,
        "models": [
            {"id": "claude-opus-test", "display_name": "Claude Opus Test"},
            {"id": "claude-sonnet-test"},
            {"id": "gpt-test"},
        ],
        "models_page_size": 2,
        "turns": [
            {"content": [{"text": "Hello from the stand-in"}], "usage": {"input": 12, "output": 7}},
            {"content": [{"text": "Hello from the stand-in", "pieces": 4}], "usage": {"input": 12, "output": 7}},
            {"content": [sum]},
            {"content": [{"text": "The sum is {tool_result}."}]},
            {"error": {"kind": "rate_limited", "retry_after": "7"}},
            {"error": {"kind": "context_too_long"}},
            {"content": [{"text": "Half an ans", "pieces": 2}], "fail_mid_stream": {"kind": "server_error", "message": "boom"}},
            {"content": [{"text": "Hello from the stand-in"}], "usage": {"input": 25, "output": 11}},
            {"content": [{"text": "Hello from the stand-in", "pieces": 4}], "usage": {"input": 25, "output": 11}},
            {"content": [{"text": "Let me add."}, {"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}, "pieces": 2}]},
            {"content": [sum]},
            {"content": [{"text": "The sum is {tool_result}."}]},
            {"error": {"kind": "overloaded"}},
            {"error": {"kind": "rate_limited", "retry_after": "13"}},
            {"error": {"kind": "context_too_long"}},
            {"content": [{"text": "Half an ans", "pieces": 2}], "fail_mid_stream": {"kind": "overloaded"}},
            thought_and_cited(),
            thought_and_cited(),
        ]
    })
}

/// A turn that thinks (signed) and answers citing a document.
fn thought_and_cited() -> Value {
    json!({"content": [
        {"thinking": "The sum of 2 and 3 is 5.", "signature": "c2lnbmVk", "pieces": 2},
        {"text": "It is 5.", "citations": [{
            "type": "char_location", "cited_text": "2 + 3 = 5", "document_index": 0,
            "document_title": "Sums", "start_char_index": 0, "end_char_index": 9,
        }]},
    ]})
}

/// The report of `provider_sdks.py` run against the stand-in, in `mode` (none: the
/// default scenarios).
async fn run_sdks(stand_in: &StandIn, mode: &[&str]) -> Value {
    let python = workspace_root().join(".tools/venv/bin/python");
    assert!(
        python.exists(),
        "the Python test virtualenv is missing at {}: run scripts/setup",
        python.display()
    );
    let run = tokio::process::Command::new(python)
        .arg(workspace_root().join("tests/peers/python/provider_sdks.py"))
        .args([stand_in.url.as_str(), KEY])
        .args(mode)
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(Duration::from_secs(300), run)
        .await
        .expect("the SDK scenarios finish")
        .expect("run python");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "provider_sdks.py failed: {stderr}");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "no report ({e}): {}\n{stderr}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

/// What a scenario parsed; fails with the SDK's own words if it raised or the answer did
/// not fit its types.
fn ok<'a>(report: &'a Value, scenario: &str) -> &'a Value {
    report[scenario]
        .get("ok")
        .unwrap_or_else(|| panic!("{scenario}: {:#}", report[scenario]))
}

/// The exception a scenario raised.
fn raised<'a>(report: &'a Value, scenario: &str) -> &'a Value {
    report[scenario]
        .get("raised")
        .unwrap_or_else(|| panic!("{scenario} should have raised: {:#}", report[scenario]))
}

#[tokio::test]
async fn the_official_sdks_parse_everything_the_stand_in_says() {
    let stand_in = StandIn::start(script()).await;
    let report = run_sdks(&stand_in, &[]).await;
    let pieces = json!(["Hello ", "from t", "he sta", "nd-in"]);

    // OpenAI: a whole answer, a stream with usage, a streamed tool call whose arguments
    // the SDK assembles and parses itself, a tool result, errors, models.
    assert_eq!(
        ok(&report, "openai_whole_text"),
        &json!({"id": "chatcmpl-standin-1", "text": "Hello from the stand-in", "finish_reason": "stop", "usage": [12, 7]})
    );
    assert_eq!(
        ok(&report, "openai_streamed_text"),
        &json!({"pieces": pieces, "finish_reason": "stop", "usage": [12, 7], "chunks": 7})
    );
    let call = ok(&report, "openai_streamed_tool_call");
    assert_eq!(call["deltas"], json!(["", r#"{"a":"#, r#"2,"b""#, ":3}"]));
    assert_eq!(
        call["done"],
        json!({"name": "get-sum", "arguments": r#"{"a":2,"b":3}"#, "parsed": {"a": 2, "b": 3}})
    );
    assert_eq!(
        call["final"],
        json!({"id": "call_standin_3_0", "name": "get-sum", "arguments": {"a": 2, "b": 3}})
    );
    assert_eq!(call["finish_reason"], "tool_calls");
    assert_eq!(
        ok(&report, "openai_tool_result"),
        &json!({"text": "The sum is 5."})
    );
    let limited = raised(&report, "openai_rate_limited");
    assert_eq!(limited["class"], "RateLimitError");
    assert_eq!(limited["status"], 429);
    assert_eq!(limited["retry_after"], "7");
    assert_eq!(limited["code"], "rate_limit_exceeded");
    let bad_key = raised(&report, "openai_bad_key");
    assert_eq!(bad_key["class"], "AuthenticationError");
    assert_eq!(bad_key["code"], "invalid_api_key");
    let too_long = raised(&report, "openai_context_too_long");
    assert_eq!(too_long["class"], "BadRequestError");
    assert_eq!(too_long["code"], "context_length_exceeded");
    let broken = raised(&report, "openai_mid_stream_error");
    assert_eq!(broken["class"], "APIError");
    assert_eq!(broken["message"], "boom");
    assert_eq!(
        ok(&report, "openai_models")["ids"],
        json!(["claude-opus-test", "claude-sonnet-test", "gpt-test"])
    );

    // Anthropic: the same, plus every raw event validated as the SDK's event union.
    assert_eq!(
        ok(&report, "anthropic_whole_text"),
        &json!({"id": "msg_standin_8", "text": "Hello from the stand-in", "stop_reason": "end_turn", "usage": [25, 11]})
    );
    assert_eq!(
        ok(&report, "anthropic_streamed_text"),
        &json!({"pieces": pieces, "text": "Hello from the stand-in", "stop_reason": "end_turn", "usage": [25, 11]})
    );
    assert_eq!(
        ok(&report, "anthropic_raw_events")["events"],
        json!([
            "RawMessageStartEvent",
            "RawContentBlockStartEvent",
            "RawContentBlockDeltaEvent",
            "RawContentBlockStopEvent",
            "RawContentBlockStartEvent",
            "RawContentBlockDeltaEvent",
            "RawContentBlockDeltaEvent",
            "RawContentBlockDeltaEvent",
            "RawContentBlockStopEvent",
            "RawMessageDeltaEvent",
            "RawMessageStopEvent",
        ])
    );
    assert_eq!(
        ok(&report, "anthropic_streamed_tool_call"),
        &json!({
            "partials": ["", r#"{"a":"#, r#"2,"b""#, ":3}"],
            "snapshots": [{}, {}, {"a": 2}, {"a": 2, "b": 3}],
            "final": {"id": "toolu_standin_11_0", "name": "get-sum", "input": {"a": 2, "b": 3}},
            "stop_reason": "tool_use",
        })
    );
    assert_eq!(
        ok(&report, "anthropic_tool_result"),
        &json!({"text": "The sum is 5."})
    );
    let overloaded = raised(&report, "anthropic_overloaded");
    assert_eq!(overloaded["class"], "OverloadedError");
    assert_eq!(overloaded["status"], 529);
    assert_eq!(overloaded["body"]["error"]["message"], "Overloaded");
    let limited = raised(&report, "anthropic_rate_limited");
    assert_eq!(limited["class"], "RateLimitError");
    assert_eq!(limited["retry_after"], "13");
    let too_long = raised(&report, "anthropic_context_too_long");
    assert_eq!(too_long["class"], "BadRequestError");
    assert_eq!(
        too_long["body"]["error"]["message"],
        "prompt is too long: 208310 tokens > 200000 maximum"
    );
    // An `error` event mid-stream: the SDK raises it with the event's body.
    let broken = raised(&report, "anthropic_mid_stream_error");
    assert_eq!(broken["body"]["error"]["type"], "overloaded_error");
    let bad_key = raised(&report, "anthropic_bad_key");
    assert_eq!(bad_key["class"], "AuthenticationError");
    assert_eq!(bad_key["status"], 401);
    assert_eq!(
        ok(&report, "anthropic_models")["ids"],
        json!(["claude-opus-test", "claude-sonnet-test", "gpt-test"])
    );

    // Thinking with its signature, and a text's citations, read as written, streamed
    // (each delta of the SDK's own types) and whole.
    let blocks = json!([
        {"thinking": "The sum of 2 and 3 is 5.", "signature": "c2lnbmVk"},
        {"text": "It is 5.", "cited": ["2 + 3 = 5"]},
    ]);
    assert_eq!(
        ok(&report, "anthropic_thinking_and_citations_streamed"),
        &json!({
            "deltas": ["thinking_delta", "thinking_delta", "signature_delta", "text_delta", "citations_delta"],
            "blocks": blocks,
        })
    );
    assert_eq!(
        ok(&report, "anthropic_thinking_and_citations_whole"),
        &json!({"blocks": blocks})
    );

    // The SDKs' own requests passed the stand-in's checks: the model list was read in two
    // pages, and the tool results came back in each protocol's form.
    let requests = stand_in.requests().await;
    let pages: Vec<_> = requests
        .iter()
        .filter(|r| r["path"] == "/v1/models" && r["headers"].get("anthropic-version").is_some())
        .map(|r| r["query"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(pages, ["limit=2", "limit=2&after_id=claude-sonnet-test"]);
    assert_eq!(report.as_object().map(|r| r.len()), Some(22));

    // The check our client's requests meet takes the SDKs' own.
    let posted: Vec<Value> = requests
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .collect();
    // The 18 scripted turns and the two asked with a wrong key.
    assert_eq!(posted.len(), 20);
    let refused = rejections(&posted);
    assert!(refused.iter().all(Option::is_none), "{refused:#?}");
}

/// The turns the scenarios of `provider_sdks.py responses` take, in its order.
fn responses_script() -> Value {
    let sum = json!({"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}});
    let answer = json!({"content": [{"text": "The sum is {tool_result}."}]});
    json!({
        "api_key": KEY,
        "reasoning_back": true,
        "turns": [
            {"content": [{"text": "Hello from the stand-in"}], "usage": {"input": 12, "output": 7, "cached": 4}},
            {"content": [{"text": "Hello from the stand-in", "pieces": 4}], "usage": {"input": 12, "output": 7}},
            {"content": [{"tool_call": {"name": "get-sum", "arguments": {"a": 2, "b": 3}}, "pieces": 3}]},
            answer,
            {"content": [{"thinking": "Add 2 and 3.", "pieces": 2}, sum], "usage": {"input": 20, "output": 9, "reasoning": 6}},
            answer,
            {"content": [{"thinking": "The sum of 2 and 3 is 5.", "signature": "c2lnbmVk"}, {"text": "It is 5."}]},
            {"content": [{"text": "It is fi", "pieces": 2}], "stop": "max_tokens"},
            {"content": [{"text": "I can't help with that.", "pieces": 2}], "stop": "refusal"},
            {"error": {"kind": "rate_limited", "retry_after": "7"}},
            {"content": [{"text": "Half an ans", "pieces": 2}], "fail_mid_stream": {"kind": "server_error", "message": "boom"}},
        ]
    })
}

#[tokio::test]
async fn the_official_sdk_parses_the_stand_ins_responses_api() {
    let stand_in = StandIn::start(responses_script()).await;
    let report = run_sdks(&stand_in, &["responses"]).await;

    // A whole answer and a stream, every event numbered in order; the usage with its
    // cached and reasoning tokens.
    assert_eq!(
        ok(&report, "responses_whole_text"),
        &json!({"id": "resp_standin_1", "text": "Hello from the stand-in", "status": "completed", "usage": [12, 7, 19, 4, 0]})
    );
    let delta = "response.output_text.delta";
    assert_eq!(
        ok(&report, "responses_streamed_text"),
        &json!({
            "types": [
                "response.created", "response.in_progress", "response.output_item.added",
                "response.content_part.added", delta, delta, delta, delta,
                "response.output_text.done", "response.content_part.done",
                "response.output_item.done", "response.completed",
            ],
            "numbered": true,
            "pieces": ["Hello ", "from t", "he sta", "nd-in"],
            "text": "Hello from the stand-in",
            "instructions": "Be brief.",
            "usage": [12, 7, 19, 0, 0],
        })
    );

    // A function call streamed, assembled by the SDK's own stream helper; its output sent
    // back and read in the answer.
    assert_eq!(
        ok(&report, "responses_streamed_tool_call"),
        &json!({
            "deltas": [r#"{"a":"#, r#"2,"b""#, ":3}"],
            "call": {"id": "fc_standin_3_0", "call_id": "call_standin_3_0", "name": "get-sum", "arguments": {"a": 2, "b": 3}},
            "status": "completed",
        })
    );
    assert_eq!(
        ok(&report, "responses_tool_result"),
        &json!({"text": "The sum is 5."})
    );

    // Reasoning summarised and encrypted as asked, streamed then whole; sent back with
    // the call it preceded, as OpenAI requires without `store`, or refused without it.
    assert_eq!(
        ok(&report, "responses_reasoning_streamed"),
        &json!({
            "summary_deltas": ["Add 2 ", "and 3."],
            "reasoning": {"id": "rs_standin_5_0", "summary": ["Add 2 and 3."], "encrypted_content": "gAAAAABstandin_5_0"},
            "call": {"call_id": "call_standin_5_0", "name": "get-sum"},
            "usage": [20, 9, 29, 0, 6],
        })
    );
    let left_out = raised(&report, "responses_reasoning_left_out");
    assert_eq!(left_out["class"], "BadRequestError");
    assert_eq!(
        left_out["body"]["message"],
        "Item 'fc_standin_5_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_standin_5_0'."
    );
    assert_eq!(
        ok(&report, "responses_reasoning_sent_back"),
        &json!({"text": "The sum is 5."})
    );
    assert_eq!(
        ok(&report, "responses_reasoning_whole"),
        &json!({
            "types": ["reasoning", "message"],
            "summary": ["The sum of 2 and 3 is 5."],
            "encrypted_content": "c2lnbmVk",
            "text": "It is 5.",
        })
    );

    // Cut off at the token limit, and a refusal.
    assert_eq!(
        ok(&report, "responses_max_tokens"),
        &json!({"last": "response.incomplete", "status": "incomplete", "reason": "max_output_tokens", "text": "It is fi"})
    );
    assert_eq!(
        ok(&report, "responses_refusal"),
        &json!({
            "deltas": ["I can't help", " with that."],
            "done": ["I can't help with that."],
            "part": {"type": "refusal", "refusal": "I can't help with that."},
        })
    );

    // Errors: HTTP ones raised as the SDK's classes, one mid-stream read as its event.
    let limited = raised(&report, "responses_rate_limited");
    assert_eq!(limited["class"], "RateLimitError");
    assert_eq!(limited["status"], 429);
    assert_eq!(limited["retry_after"], "7");
    assert_eq!(limited["code"], "rate_limit_exceeded");
    let bad_key = raised(&report, "responses_bad_key");
    assert_eq!(bad_key["class"], "AuthenticationError");
    assert_eq!(bad_key["code"], "invalid_api_key");
    assert_eq!(
        ok(&report, "responses_mid_stream_error"),
        &json!({
            "pieces": ["Half a", "n ans"],
            "error": {"class": "ResponseErrorEvent", "code": "server_error", "message": "boom"},
            "numbered": true,
        })
    );
    let refused = raised(&report, "responses_refused_request");
    assert_eq!(refused["class"], "BadRequestError");
    assert_eq!(
        refused["body"]["message"],
        "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 8 instead."
    );
    assert_eq!(report.as_object().map(|r| r.len()), Some(14));

    // The SDK's own requests meet the check our client's requests meet.
    let posted: Vec<Value> = stand_in
        .requests()
        .await
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .collect();
    // The 11 scripted turns and the three refused before taking one.
    assert_eq!(posted.len(), 14);
    let refused = rejections(&posted);
    assert!(refused.iter().all(Option::is_none), "{refused:#?}");
}

/// A request as the stand-in records it: `body` is `base` with the fields of `changed`.
fn recorded(path: &str, version: &str, mut base: Value, changed: Value) -> Value {
    if let (Some(body), Value::Object(changed)) = (base.as_object_mut(), changed) {
        body.extend(changed);
    }
    json!({"path": path, "headers": {"anthropic-version": version}, "body": base})
}

/// Bodies as a client could get them wrong, each with where the SDKs' types refuse it;
/// and right ones, which they take.
#[test]
fn the_sdk_types_refuse_a_malformed_request() {
    let anthropic_at = |version: &str, changed: Value| {
        let base = json!({"model": "claude-test", "max_tokens": 64, "stream": true,
            "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]});
        recorded("/v1/messages", version, base, changed)
    };
    let anthropic = |changed: Value| anthropic_at("2023-06-01", changed);
    let openai = |changed: Value| {
        let base = json!({"model": "gpt-test", "max_tokens": 64, "stream": true,
            "stream_options": {"include_usage": true},
            "messages": [{"role": "user", "content": "Hi"}]});
        recorded("/v1/chat/completions", "", base, changed)
    };
    let responses = |changed: Value| {
        let base = json!({"model": "gpt-test", "stream": true,
            "input": [{"role": "user", "content": [{"type": "input_text", "text": "Hi"}]}]});
        recorded("/v1/responses", "", base, changed)
    };
    let function_call = |arguments: Value, output: Value| {
        json!({"input": [
            {"role": "user", "content": "Add"},
            {"type": "function_call", "call_id": "call_1", "name": "add", "arguments": arguments},
            output,
        ]})
    };
    let tool_result = |result: Value| {
        json!({"messages": [
            {"role": "user", "content": "Add"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "add", "input": {}}]},
            {"role": "user", "content": [result]},
        ]})
    };
    let cases = [
        (anthropic(json!({})), None),
        (openai(json!({})), None),
        // Version 2023-06-01 still takes a temperature; 2026-10-21, the SDKs', does not.
        (anthropic(json!({"temperature": 0.5})), None),
        (
            anthropic_at("2026-10-21", json!({"temperature": 0.5})),
            Some("temperature: Extra inputs are not permitted"),
        ),
        (
            anthropic(json!({"max_tokens": "64"})),
            Some("max_tokens: Input should be a valid integer"),
        ),
        (
            anthropic(json!({"stream_options": {"include_usage": true}})),
            Some("stream_options: Extra inputs are not permitted"),
        ),
        (
            anthropic(tool_result(
                json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": "5", "call_id": "toolu_1"}),
            )),
            Some(
                "messages.2.content.0.ToolResultBlockParam.call_id: Extra inputs are not permitted",
            ),
        ),
        (
            anthropic(json!({"tool_choice": {"type": "required"}})),
            Some("tool_choice.ToolChoiceAnyParam.type: Input should be 'any'"),
        ),
        (
            openai(json!({"messages": [{"role": "tool", "content": "5"}]})),
            Some("messages.0.ChatCompletionToolMessageParam.tool_call_id: Field required"),
        ),
        (
            openai(json!({"messages": [
                {"role": "user", "content": "Add"},
                {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
                    "function": {"name": "add", "arguments": {"a": 2}}}]},
            ]})),
            Some("function.arguments: Input should be a valid string"),
        ),
        (
            openai(json!({"stream_options": {"include_usage": "yes"}})),
            Some("stream_options.include_usage: Input should be a valid boolean"),
        ),
        (
            openai(json!({"max_completion_tokens": 64, "max_output_tokens": 64})),
            Some("max_output_tokens: Extra inputs are not permitted"),
        ),
        (
            responses(function_call(
                json!(r#"{"a":2}"#),
                json!({"type": "function_call_output", "call_id": "call_1", "output": "5"}),
            )),
            None,
        ),
        (
            responses(
                json!({"stream": false, "store": false, "include": ["reasoning.encrypted_content"],
                "reasoning": {"effort": "low", "summary": "auto"}, "max_output_tokens": 64,
                "tools": [{"type": "function", "name": "add", "parameters": {"type": "object"}, "strict": true}]}),
            ),
            None,
        ),
        (
            responses(json!({"max_tokens": 64})),
            Some("max_tokens: Extra inputs are not permitted"),
        ),
        (
            responses(function_call(
                json!({"a": 2}),
                json!({"type": "function_call_output", "call_id": "call_1", "output": "5"}),
            )),
            Some("input.1.ResponseFunctionToolCallParam.arguments: Input should be a valid string"),
        ),
        (
            responses(function_call(
                json!(r#"{"a":2}"#),
                json!({"type": "function_call_output", "tool_call_id": "call_1", "output": "5"}),
            )),
            Some("input.2.FunctionCallOutput.tool_call_id: Extra inputs are not permitted"),
        ),
        (
            responses(
                json!({"tools": [{"type": "function", "name": "add", "parameters": {"type": "object"}}]}),
            ),
            Some("tools.0.FunctionToolParam.strict: Field required"),
        ),
        (
            responses(
                json!({"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64,AAAA"}]}]}),
            ),
            Some(
                "input.0.EasyInputMessageParam.content.0.ResponseInputImageParam.detail: Field required",
            ),
        ),
        (
            responses(
                json!({"input": [{"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAA"}]}),
            ),
            Some("input.0.ResponseReasoningItemParam.summary: Field required"),
        ),
    ];
    let requests: Vec<Value> = cases.iter().map(|(request, _)| request.clone()).collect();
    for ((request, expected), refused) in cases.iter().zip(rejections(&requests)) {
        match (expected, &refused) {
            (None, None) => {}
            (Some(expected), Some(why)) if why.contains(expected) => {}
            _ => panic!("{request}\nexpected {expected:?}, the SDKs' types said {refused:?}"),
        }
    }
}
