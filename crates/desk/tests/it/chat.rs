//! A conversation with a model, end to end with real parts: the stand-in provider (a
//! child process on 127.0.0.1, speaking OpenAI's and Anthropic's protocols) scripted to
//! call the demo server's tools, the demo server itself, the gate with its approval
//! broker and audit log, and conversations kept in SQLite.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use switchboard_chat::{
    CallFailure, CatalogServers, Chat, ChatEvent, ChatSettings, Conversations, Ended, Outcome,
    Reach,
};
use switchboard_core::approvals::{Answer, Pending, Question, Remember};
use switchboard_core::config::ServerConfig;
use switchboard_core::decisions::{self, DecidedBy};
use switchboard_core::server_events::ServerEvent;
use switchboard_providers::{
    ApiKey, AssistantContent, Client, Message, Protocol, ProviderConfig, StopReason, UserContent,
};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::common;
use crate::common::{GatedHost, WAIT, demo_server};
use switchboard_test_support::stand_in::StandInProvider;

/// The stand-in provider, answering these turns to a client with its key.
async fn stand_in(turns: Value) -> StandInProvider {
    StandInProvider::start(json!({"api_key": KEY, "turns": turns})).await
}

pub(crate) const KEY: &str = "sk-chat-test";

pub(crate) fn openai(stand_in: &StandInProvider) -> Client {
    let key = Some(ApiKey::new(KEY));
    Client::new(ProviderConfig::openai_compatible(
        format!("{}/v1", stand_in.url),
        key,
    ))
    .unwrap()
}

pub(crate) fn responses(stand_in: &StandInProvider) -> Client {
    let key = Some(ApiKey::new(KEY));
    let config = ProviderConfig::new(Protocol::Responses, format!("{}/v1", stand_in.url), key);
    Client::new(config).unwrap()
}

pub(crate) fn anthropic(stand_in: &StandInProvider) -> Client {
    let key = Some(ApiKey::new(KEY));
    Client::new(ProviderConfig::anthropic(&stand_in.url, key)).unwrap()
}

/// The bodies of the model requests the stand-in received, in order.
pub(crate) async fn bodies(stand_in: &StandInProvider) -> Vec<Value> {
    stand_in
        .requests()
        .await
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .map(|mut r| r["body"].take())
        .collect()
}

pub(crate) struct World {
    pub(crate) gated: GatedHost,
    agent: Chat,
    pub(crate) conversations: Conversations,
}

/// The demo server running (as "demo") under a host whose tool calls pass a gate.
pub(crate) async fn world() -> World {
    let demo = ServerConfig {
        command: Some(demo_server().display().to_string()),
        ..ServerConfig::default()
    };
    let gated = common::gated_host("chat", Duration::from_secs(60), "demo", demo.clone()).await;
    let shared = gated.host.shared().clone();
    let servers = CatalogServers {
        catalog: gated.host.catalog().clone(),
        reach: move |server: &str| Some(Reach::of(shared.client(server)?, &demo)),
    };
    let conversations =
        Conversations::open(&gated.dir.path().join("conversations.sqlite")).unwrap();
    let agent =
        Chat::new(gated.gate.clone(), Arc::new(servers)).with_conversations(conversations.clone());
    World {
        gated,
        agent,
        conversations,
    }
}

/// A run in the background, and its events.
pub(crate) struct Running {
    events: mpsc::Receiver<ChatEvent>,
    seen: Vec<ChatEvent>,
    stop: CancellationToken,
    done: tokio::task::JoinHandle<Outcome>,
}

impl World {
    pub(crate) fn send(
        &self,
        conversation: i64,
        text: &str,
        provider: Client,
        settings: ChatSettings,
    ) -> Running {
        let (events, receiver) = mpsc::channel(256);
        let stop = CancellationToken::new();
        let agent = self.agent.clone();
        let (text, halt) = (text.to_owned(), stop.clone());
        let done = tokio::spawn(async move {
            agent
                .send(conversation, text, &provider, &settings, &events, &halt)
                .await
                .unwrap()
        });
        Running {
            events: receiver,
            seen: Vec::new(),
            stop,
            done,
        }
    }

    pub(crate) fn answer(&self, pending: &Pending, allow: bool, arguments: Value) {
        let answer = Answer::ToolCall {
            allow,
            arguments: arguments.as_object().cloned().unwrap(),
            remember: Remember::Once,
        };
        self.gated
            .gate
            .broker()
            .answer(pending.id, "demo", answer)
            .unwrap();
    }
}

impl Running {
    /// Waits for the first event `pick` accepts (all are kept in `seen`).
    async fn until<T>(&mut self, mut pick: impl FnMut(&ChatEvent) -> Option<T>) -> T {
        tokio::time::timeout(WAIT, async {
            loop {
                let event = self.events.recv().await.expect("the run goes on");
                let found = pick(&event);
                self.seen.push(event);
                if let Some(found) = found {
                    return found;
                }
            }
        })
        .await
        .expect("the event came")
    }

    /// The outcome, and every event seen.
    pub(crate) async fn finish(mut self) -> (Outcome, Vec<ChatEvent>) {
        let outcome = tokio::time::timeout(WAIT, &mut self.done)
            .await
            .expect("the run ends")
            .unwrap();
        while let Ok(event) = self.events.try_recv() {
            self.seen.push(event);
        }
        (outcome, self.seen)
    }
}

pub(crate) fn text_of(events: &[ChatEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn settings() -> ChatSettings {
    ChatSettings::new("model-test")
}

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

#[tokio::test]
async fn the_model_calls_a_tool_the_person_allows_edited_and_answers_with_its_result() {
    let mut world = world().await;
    let provider = stand_in(json!([
        {"content": [
            {"text": "Let me echo that. "},
            {"tool_call": {"name": "demo__echo", "arguments": {"text": "from the model"}}, "pieces": 3}
        ]},
        {"content": [{"text": "The tool said: {tool_result}", "pieces": 4}]}
    ]))
    .await;
    let chat = world.conversations.create("Echo").await.unwrap();
    let mut run = world.send(chat.id, "Echo something", openai(&provider), settings());

    let asked = world.gated.asked().await;
    let Question::ToolCall {
        tool, arguments, ..
    } = &asked.question
    else {
        panic!("asked {:?}", asked.question)
    };
    assert_eq!((asked.server.as_str(), tool.as_str()), ("demo", "echo"));
    assert_eq!(
        arguments,
        &args(json!({"text": "from the model"})),
        "the exact arguments"
    );
    run.until(|e| {
        matches!(e, ChatEvent::ToolCallAwaiting { tool, .. } if tool == "echo").then_some(())
    })
    .await;
    world.answer(&asked, true, json!({"text": "as the person corrected it"}));

    let (outcome, events) = run.finish().await;
    assert!(
        matches!(&outcome, Outcome::Finished { ended: Ended::Model { reason: StopReason::EndTurn, said_nothing: false }, usage } if usage.output_tokens == 10),
        "{outcome:?}"
    );
    // While the model wrote the call, its tool and its arguments so far were told (a view
    // shows them as they come), before the whole call.
    let awaiting = events
        .iter()
        .position(|e| matches!(e, ChatEvent::ToolCallAwaiting { .. }))
        .unwrap();
    let writing = events[..awaiting].iter().position(|e| {
        matches!(e, ChatEvent::ToolCallWriting { index: 0, server, tool } if server == "demo" && tool == "echo")
    });
    let written: Vec<&str> = events[..awaiting]
        .iter()
        .filter_map(|e| match e {
            ChatEvent::ToolCallWritten { index: 0, text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(writing.is_some(), "{events:?}");
    assert!(written.len() > 1, "in pieces: {written:?}");
    let whole: Value = serde_json::from_str(&written.concat()).unwrap();
    assert_eq!(whole, json!({"text": "from the model"}));
    assert!(events.iter().any(|e| matches!(e,
        ChatEvent::ToolCallRunning { arguments, decided_by, .. }
            if arguments == &args(json!({"text": "as the person corrected it"}))
                && *decided_by == DecidedBy::Person)));
    assert!(events.iter().any(|e| matches!(
        e,
        ChatEvent::ToolCallResult {
            is_error: false,
            ..
        }
    )));
    assert_eq!(
        text_of(&events),
        "Let me echo that. The tool said: as the person corrected it"
    );
    assert!(matches!(events.last(), Some(ChatEvent::Finished { .. })));

    // The provider was sent the edited call's result, answering the model's call.
    let bodies = bodies(&provider).await;
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0]["tools"][0]["function"]["name"], "demo__echo");
    let sent = bodies[1]["messages"].as_array().unwrap();
    let tool_message = sent
        .iter()
        .find(|m| m["role"] == "tool")
        .expect("a tool message");
    assert!(
        tool_message["content"]
            .to_string()
            .contains("as the person corrected it"),
        "{tool_message}"
    );
    // And the model is told, in the host's words beside the result, that its arguments were
    // changed and to what: it does not take the result for that of its own.
    let told = sent
        .iter()
        .rfind(|m| m["role"] == "user")
        .map(|m| m["content"].to_string())
        .unwrap_or_default();
    assert!(
        told.contains("The person changed the arguments of tool call")
            && told.contains("as the person corrected it"),
        "{sent:?}"
    );

    // The audit names the conversation as the asker and keeps what was really sent.
    let row = world
        .gated
        .gate
        .audit()
        .page(None, 10)
        .await
        .unwrap()
        .remove(0);
    assert_eq!(row.asked_by, "model in conversation “Echo”");
    assert_eq!(row.record.decided_by, DecidedBy::Person);
    assert_eq!(
        row.record.detail,
        json!({"text": "as the person corrected it"})
    );
    assert_eq!(row.record.outcome, decisions::Outcome::Succeeded);

    // The conversation, reopened from its file, holds every message.
    let path = world.gated.dir.path().join("conversations.sqlite");
    let reopened = Conversations::open(&path)
        .unwrap()
        .get(chat.id)
        .await
        .unwrap();
    let roles: Vec<&str> = reopened
        .messages
        .iter()
        .map(|m| match m {
            Message::User(_) => "user",
            Message::Assistant(_) => "assistant",
        })
        .collect();
    assert_eq!(roles, ["user", "assistant", "user", "assistant"]);
    assert_eq!(
        reopened.messages[3],
        Message::assistant_text("The tool said: as the person corrected it")
    );
    world.gated.host.shutdown().await;
}

#[tokio::test]
async fn a_denied_call_reaches_the_model_as_a_denial() {
    let mut world = world().await;
    let provider = stand_in(json!([
        {"content": [{"tool_call": {"name": "demo__add", "arguments": {"a": 2, "b": 3}}}]},
        {"content": [{"text": "I was told: {tool_result}"}]}
    ]))
    .await;
    let chat = world.conversations.create("Sums").await.unwrap();
    let run = world.send(chat.id, "Add 2 and 3", anthropic(&provider), settings());
    let asked = world.gated.asked().await;
    world.answer(&asked, false, json!({"a": 2, "b": 3}));
    let (outcome, events) = run.finish().await;
    assert!(
        matches!(
            outcome,
            Outcome::Finished {
                ended: Ended::Model { .. },
                ..
            }
        ),
        "{outcome:?}"
    );
    assert!(events.iter().any(
        |e| matches!(e, ChatEvent::ToolCallDenied { decided_by, .. } if *decided_by == DecidedBy::Person)
    ));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, ChatEvent::ToolCallRunning { .. }))
    );
    assert!(
        text_of(&events).contains("the user denied it"),
        "{}",
        text_of(&events)
    );
    let bodies = bodies(&provider).await;
    let result = &bodies[1]["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["is_error"], true, "{result}");
    let row = world
        .gated
        .gate
        .audit()
        .page(None, 10)
        .await
        .unwrap()
        .remove(0);
    assert_eq!(
        (row.record.decision.as_str(), &row.record.outcome),
        ("denied", &decisions::Outcome::Unknown)
    );
    world.gated.host.shutdown().await;
}

#[tokio::test]
async fn stop_in_mid_answer_ends_it_at_once_keeping_what_was_written() {
    let mut world = world().await;
    let provider = stand_in(json!([
        {"content": [{"text": "Once upon a time", "pieces": 2}], "stall": true}
    ]))
    .await;
    let chat = world.conversations.create("Story").await.unwrap();
    let mut run = world.send(chat.id, "Tell me a story", openai(&provider), settings());
    let mut written = String::new();
    run.until(|e| match e {
        ChatEvent::TextDelta { text } => {
            written.push_str(text);
            (written == "Once upon a time").then_some(())
        }
        _ => None,
    })
    .await;
    run.stop.cancel();
    let (outcome, _) = run.finish().await;
    assert!(
        matches!(
            outcome,
            Outcome::Finished {
                ended: Ended::Stopped,
                ..
            }
        ),
        "{outcome:?}"
    );
    let kept = world.conversations.get(chat.id).await.unwrap();
    assert_eq!(
        kept.messages.last(),
        Some(&Message::assistant_text("Once upon a time"))
    );
    world.gated.host.shutdown().await;
}

#[tokio::test]
async fn stop_cancels_a_running_tool_call_and_the_model_is_not_asked_again() {
    let mut world = world().await;
    let provider = stand_in(json!([
        {"content": [{"tool_call": {"name": "demo__count_to", "arguments": {"n": 100, "delay_ms": 100}}}]},
        {"content": [{"text": "never asked"}]}
    ]))
    .await;
    let chat = world.conversations.create("Count").await.unwrap();
    let mut run = world.send(chat.id, "Count to 100", anthropic(&provider), settings());
    let asked = world.gated.asked().await;
    world.answer(&asked, true, json!({"n": 100, "delay_ms": 100}));
    run.until(|e| matches!(e, ChatEvent::ToolCallProgress { .. }).then_some(()))
        .await;
    run.stop.cancel();
    let (outcome, events) = run.finish().await;
    assert!(
        matches!(
            outcome,
            Outcome::Finished {
                ended: Ended::Stopped,
                ..
            }
        ),
        "{outcome:?}"
    );
    assert!(events.iter().any(|e| matches!(
        e,
        ChatEvent::ToolCallFailed {
            error: CallFailure::Stopped,
            ..
        }
    )));

    // The server was told: the demo server says so on its stderr when its count stops.
    tokio::time::timeout(WAIT, async {
        loop {
            if let Ok(ServerEvent::Log { text, .. }) = world.gated.host_events.recv().await
                && text.contains("count_to was cancelled after")
            {
                return;
            }
        }
    })
    .await
    .expect("the server's count was cancelled");

    assert_eq!(
        bodies(&provider).await.len(),
        1,
        "the model is not asked again"
    );
    // The call is answered in the conversation, so that it can go on.
    let kept = world.conversations.get(chat.id).await.unwrap();
    let Some(Message::User(answers)) = kept.messages.last() else {
        panic!("{:?}", kept.messages.last())
    };
    assert!(matches!(&answers[0], UserContent::ToolResult(r) if r.is_error));
    assert!(
        matches!(&kept.messages[1], Message::Assistant(c) if matches!(c[0], AssistantContent::ToolCall(_)))
    );
    world.gated.host.shutdown().await;
}

#[tokio::test]
async fn passing_provider_failures_are_tried_again_and_others_end_the_run_with_its_message() {
    let mut world = world().await;
    let provider = stand_in(json!([
        {"error": {"kind": "rate_limited", "retry_after": "0"}},
        {"error": {"kind": "server_error"}},
        {"content": [{"text": "Here I am."}]},
        {"error": {"kind": "unauthorized", "message": "that key was revoked"}}
    ]))
    .await;
    let mut quick = settings();
    quick.retry.first_wait = Duration::from_millis(10);
    let chat = world.conversations.create("Flaky").await.unwrap();
    let run = world.send(chat.id, "Hello?", openai(&provider), quick.clone());
    let (outcome, events) = run.finish().await;
    assert!(
        matches!(
            outcome,
            Outcome::Finished {
                ended: Ended::Model { .. },
                ..
            }
        ),
        "{outcome:?}"
    );
    let retries: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::Retrying { attempt, .. } => Some(*attempt),
            _ => None,
        })
        .collect();
    assert_eq!(retries, [1, 2]);
    assert_eq!(text_of(&events), "Here I am.");

    let run = world.send(chat.id, "And now?", openai(&provider), quick);
    let (outcome, events) = run.finish().await;
    let Outcome::Failed { message, .. } = &outcome else {
        panic!("{outcome:?}")
    };
    assert!(message.contains("that key was revoked"), "{message}");
    assert!(matches!(events.last(), Some(ChatEvent::Error { .. })));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, ChatEvent::Retrying { .. }))
    );
    world.gated.host.shutdown().await;
}

/// A run ends saying how: an answer cut off at the most tokens says so (the window then
/// offers to go on), and an answer of nothing is told as such rather than shown as nothing.
#[tokio::test]
async fn an_answer_cut_off_or_of_nothing_ends_saying_so() {
    let world = world().await;
    let provider = stand_in(json!([
        {"content": [{"text": "Once upon a"}], "stop": "max_tokens"},
        {"content": [{"text": " "}]},
    ]))
    .await;
    let chat = world.conversations.create("Story").await.unwrap();
    let run = world.send(chat.id, "A long story", openai(&provider), settings());
    let (cut, _) = run.finish().await;
    assert!(
        matches!(
            &cut,
            Outcome::Finished {
                ended: Ended::Model {
                    reason: StopReason::MaxTokens,
                    said_nothing: false
                },
                ..
            }
        ),
        "{cut:?}"
    );
    let run = world.send(chat.id, "And?", openai(&provider), settings());
    let (nothing, _) = run.finish().await;
    assert!(
        matches!(
            &nothing,
            Outcome::Finished {
                ended: Ended::Model {
                    said_nothing: true,
                    ..
                },
                ..
            }
        ),
        "{nothing:?}"
    );
}

#[tokio::test]
async fn a_conversation_too_long_is_asked_again_with_earlier_long_results_left_out() {
    let world = world().await;
    let long = "x".repeat(5_000);
    let earlier = [
        Message::user_text("Read the file"),
        Message::Assistant(vec![AssistantContent::ToolCall(
            switchboard_providers::ToolCall {
                id: "c1".into(),
                name: "demo__echo".into(),
                arguments: json!({"text": "file"}),
            },
        )]),
        Message::User(vec![UserContent::ToolResult(
            switchboard_providers::ToolResult {
                call_id: "c1".into(),
                content: vec![switchboard_providers::ToolResultContent::Text(long.clone())],
                is_error: false,
                not_made: false,
            },
        )]),
        Message::assistant_text("It is long."),
    ];
    // The provider refuses it first; or the model's context is known to be too small for
    // it (the person said 1,500 tokens), and it is trimmed before it is sent.
    let fits = json!({"content": [{"text": "Fits now."}]});
    let refused = json!({"error": {"kind": "context_too_long"}});
    for known_context in [None, Some(1_500)] {
        let turns = match known_context {
            None => json!([refused, fits]),
            Some(_) => json!([fits]),
        };
        let provider = stand_in(turns).await;
        let mut config = ProviderConfig::openai_compatible(
            format!("{}/v1", provider.url),
            Some(ApiKey::new(KEY)),
        );
        let said = switchboard_providers::Profile {
            context_tokens: known_context,
            ..Default::default()
        };
        config.profiles.insert("model-test".into(), said);
        let chat = world.conversations.create("Long").await.unwrap();
        for message in &earlier {
            world.conversations.append(chat.id, message).await.unwrap();
        }
        let client = Client::new(config).unwrap();
        let (outcome, events) = world
            .send(chat.id, "And now?", client, settings())
            .finish()
            .await;
        assert!(matches!(outcome, Outcome::Finished { .. }), "{outcome:?}");
        assert!(events.contains(&ChatEvent::Trimmed {
            images: 0,
            results: 1
        }));
        assert_eq!(text_of(&events), "Fits now.");
        let sent = bodies(&provider).await;
        let expected = if known_context.is_some() { 1 } else { 2 };
        assert_eq!(sent.len(), expected, "{known_context:?}");
        if known_context.is_none() {
            assert!(sent[0].to_string().contains(&long), "first as it is");
        }
        let retried = sent.last().unwrap().to_string();
        assert!(!retried.contains(&long), "then without the long result");
        assert!(retried.contains("left out to fit the context"), "{retried}");
        let kept = world.conversations.get(chat.id).await.unwrap().messages;
        assert_eq!(kept[2], earlier[2], "the conversation keeps it");
    }
}
