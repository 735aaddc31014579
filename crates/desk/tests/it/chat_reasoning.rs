//! A reasoning model's thinking, end to end with the stand-in provider in each protocol:
//! streamed to the face as it comes, kept with the conversation, and sent back in the round
//! of tool calls under way as each provider checks it (Anthropic's signed thinking block
//! first in the model's message; DeepSeek's `reasoning_content`; the Responses API's
//! reasoning item with its encrypted content), so that the round after the tool's result
//! is not refused. A conversation that lost it would fail there.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_chat::{ChatEvent, ChatSettings, Outcome};
use switchboard_providers::{AssistantContent, Client, Effort, Message};
use switchboard_test_support::stand_in::StandInProvider;

use crate::chat::{KEY, World, anthropic, bodies, openai, responses, text_of, world};

const PROTOCOLS: [&str; 3] = ["anthropic", "openai", "responses"];

/// What the stand-in is told beside the script, for `protocol`: the OpenAI protocol as
/// DeepSeek speaks it in its thinking mode; the Responses API checking its reasoning items.
fn checking_reasoning(protocol: &str) -> Value {
    match protocol {
        "anthropic" => json!({}),
        "openai" => json!({"dialect": "vllm", "reasoning_back": true}),
        _ => json!({"reasoning_back": true}),
    }
}

fn client(protocol: &str, stand_in: &StandInProvider) -> Client {
    match protocol {
        "anthropic" => anthropic(stand_in),
        "openai" => openai(stand_in),
        _ => responses(stand_in),
    }
}

const THOUGHT: &str = "The person wants an echo: call echo.";

/// The model thinks, calls the demo's echo, then says what it answered.
fn script(extra: Value) -> Value {
    let mut script = json!({
        "api_key": KEY,
        "turns": [
            {"content": [
                {"thinking": THOUGHT, "signature": "sig-echo-1", "pieces": 2},
                {"tool_call": {"name": "demo__echo", "arguments": {"text": "hello"}}}
            ]},
            {"content": [{"text": "It said: {tool_result}"}]}
        ]
    });
    for (key, value) in extra.as_object().unwrap() {
        script[key] = value.clone();
    }
    script
}

/// What each protocol's second request must carry back of the thinking, in its assistant
/// message of the tool round.
fn sent_back(protocol: &str, body: &Value) -> Option<String> {
    if protocol == "responses" {
        let item = body["input"]
            .as_array()?
            .iter()
            .find(|i| i["type"] == "reasoning" && i["encrypted_content"] == "sig-echo-1")?;
        return item["summary"][0]["text"].as_str().map(str::to_owned);
    }
    let answer = body["messages"]
        .as_array()?
        .iter()
        .find(|m| m["role"] == "assistant")?;
    match protocol {
        "anthropic" => {
            let first = &answer["content"][0];
            (first["type"] == "thinking" && first["signature"] == "sig-echo-1")
                .then(|| first["thinking"].as_str().unwrap_or("").to_owned())
        }
        _ => answer["reasoning_content"].as_str().map(str::to_owned),
    }
}

async fn round(world: &mut World, provider: Client, title: &str) -> (Outcome, Vec<ChatEvent>) {
    let chat = world.conversations.create(title).await.unwrap();
    let mut settings = ChatSettings::new("model-test");
    settings.effort = Some(Effort::Low);
    settings.max_tokens = 4096;
    let run = world.send(chat.id, "Echo hello", provider, settings);
    let asked = world.gated.asked().await;
    world.answer(&asked, true, json!({"text": "hello"}));
    let finished = run.finish().await;
    let kept = world.conversations.get(chat.id).await.unwrap().messages;
    let Message::Assistant(first) = &kept[1] else {
        panic!("{kept:?}")
    };
    assert!(
        matches!(&first[0], AssistantContent::Reasoning(r) if r.text == THOUGHT),
        "the thinking is kept with the conversation: {first:?}"
    );
    finished
}

#[tokio::test]
async fn a_reasoning_models_thinking_is_shown_kept_and_sent_back_in_its_tool_round() {
    let mut world = world().await;
    for protocol in PROTOCOLS {
        let stand_in = StandInProvider::start(script(checking_reasoning(protocol))).await;
        let (outcome, events) = round(&mut world, client(protocol, &stand_in), protocol).await;
        assert!(
            matches!(outcome, Outcome::Finished { .. }),
            "{protocol}: {outcome:?}"
        );
        assert_eq!(text_of(&events), "It said: hello", "{protocol}");
        let thought: String = events
            .iter()
            .filter_map(|e| match e {
                ChatEvent::ReasoningDelta { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(thought, THOUGHT, "{protocol}: streamed to the face");
        let asked = bodies(&stand_in).await;
        assert_eq!(asked.len(), 2, "{protocol}");
        assert_eq!(
            sent_back(protocol, &asked[1]).as_deref(),
            Some(THOUGHT),
            "{protocol}: {}",
            asked[1]
        );
        match protocol {
            "anthropic" => assert_eq!(
                asked[0]["thinking"],
                json!({"type": "enabled", "budget_tokens": 1024}),
                "the effort asked for"
            ),
            "openai" => assert_eq!(asked[0]["reasoning_effort"], "low"),
            _ => assert_eq!(
                asked[0]["reasoning"],
                json!({"effort": "low", "summary": "auto"})
            ),
        }
    }
}

/// A reasoning model that spends its whole answer thinking: the run says it stopped at the
/// token limit, its thinking is kept, and the person's next message goes through (the
/// answer of nothing but thinking is not sent again, in either protocol).
#[tokio::test]
async fn a_reasoning_model_that_thinks_past_its_limit_says_so_and_the_conversation_goes_on() {
    let world = world().await;
    for protocol in PROTOCOLS {
        let extra = checking_reasoning(protocol);
        let mut script = json!({"api_key": KEY, "turns": [
            {"content": [{"thinking": THOUGHT, "signature": "sig-echo-1"}], "stop": "max_tokens"},
            {"content": [{"text": "Briefly: hello."}]}
        ]});
        for (key, value) in extra.as_object().unwrap() {
            script[key] = value.clone();
        }
        let stand_in = StandInProvider::start(script).await;
        let chat = world.conversations.create(protocol).await.unwrap();
        let mut settings = ChatSettings::new("model-test");
        settings.effort = Some(Effort::Low);
        settings.max_tokens = 2048;
        let (outcome, _) = world
            .send(
                chat.id,
                "Echo hello",
                client(protocol, &stand_in),
                settings.clone(),
            )
            .finish()
            .await;
        assert!(
            matches!(
                &outcome,
                Outcome::Finished {
                    ended: switchboard_chat::Ended::Model {
                        reason: switchboard_providers::StopReason::MaxTokens,
                        said_nothing: true
                    },
                    ..
                }
            ),
            "{protocol}: {outcome:?}"
        );
        let (outcome, events) = world
            .send(
                chat.id,
                "Say it briefly.",
                client(protocol, &stand_in),
                settings,
            )
            .finish()
            .await;
        assert!(
            matches!(outcome, Outcome::Finished { .. }),
            "{protocol}: {outcome:?}"
        );
        assert_eq!(text_of(&events), "Briefly: hello.", "{protocol}");
        let asked = bodies(&stand_in).await;
        assert!(
            !asked[1].to_string().contains(THOUGHT),
            "{protocol}: an earlier turn's thinking stays home: {}",
            asked[1]
        );
    }
}
