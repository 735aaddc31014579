//! A conversation with a model, end to end with real parts: the stand-in provider (a
//! child process on 127.0.0.1, speaking OpenAI's and Anthropic's protocols) scripted to
//! call the demo server's tools, the demo server itself, the gate with its approval
//! broker and audit log, and conversations kept in SQLite.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

mod common;

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Map, Value, json};
use switchboard_host::agent::{
    Agent, CatalogServers, ChatEvent, ChatSettings, Conversations, Ended, Outcome, Reach,
};
use switchboard_host::approvals::{Answer, Broker, BrokerEvent, Pending, Question, Remember};
use switchboard_host::audit::{AuditLog, Retention};
use switchboard_host::config::{Config, ServerConfig};
use switchboard_host::gate::Gate;
use switchboard_host::host::Host;
use switchboard_host::person::PersonHandler;
use switchboard_host::policy::Policies;
use switchboard_host::roots::Roots;
use switchboard_host::secrets::Secrets;
use switchboard_host::supervisor::{HostEvent, ServerState};
use switchboard_providers::{
    ApiKey, AssistantContent, Client, Message, ProviderConfig, StopReason, UserContent,
};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;

use common::{WAIT, demo_server, workspace_binary};

/// The stand-in provider; killed when dropped.
struct StandIn {
    url: String,
    _child: tokio::process::Child,
}

impl StandIn {
    async fn start(turns: Value) -> Self {
        let script = json!({"api_key": "sk-chat-test", "turns": turns});
        let mut child = tokio::process::Command::new(workspace_binary("provider-peer"))
            .arg("--script-json")
            .arg(script.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let line = tokio::time::timeout(WAIT, lines.next_line())
            .await
            .expect("the stand-in listens")
            .unwrap()
            .unwrap();
        let url = line.strip_prefix("listening on ").unwrap().to_owned();
        Self { url, _child: child }
    }

    fn openai(&self) -> Client {
        let key = Some(ApiKey::new("sk-chat-test"));
        Client::new(ProviderConfig::openai_compatible(
            format!("{}/v1", self.url),
            key,
        ))
        .unwrap()
    }

    fn anthropic(&self) -> Client {
        let key = Some(ApiKey::new("sk-chat-test"));
        Client::new(ProviderConfig::anthropic(&self.url, key)).unwrap()
    }

    /// The bodies of the model requests it received, in order.
    async fn bodies(&self) -> Vec<Value> {
        let answer = reqwest::get(format!("{}/_stand-in/requests", self.url))
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let requests: Vec<Value> = serde_json::from_slice(&answer).unwrap();
        requests
            .into_iter()
            .filter(|r| r["method"] == "POST")
            .map(|mut r| r["body"].take())
            .collect()
    }
}

struct World {
    host: Host<PersonHandler>,
    agent: Agent,
    gate: Gate,
    conversations: Conversations,
    questions: broadcast::Receiver<BrokerEvent>,
    host_events: broadcast::Receiver<HostEvent>,
    dir: tempfile::TempDir,
}

/// The demo server running (as "demo") under a host whose tool calls pass a gate.
async fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::new(Duration::from_secs(60), 8);
    let roots = Roots::default();
    let audit =
        Arc::new(AuditLog::open(&dir.path().join("audit.sqlite"), Retention::default()).unwrap());
    let gate = Gate {
        broker: broker.clone(),
        policies: Arc::new(Mutex::new(Policies::default())),
        audit: audit.clone(),
        config_path: None,
    };
    let mut host = Host::new(Secrets::new("switchboard-test-chat"), {
        let (broker, roots, audit) = (broker.clone(), roots.clone(), audit.clone());
        move |server: &str| {
            Arc::new(PersonHandler::new(
                server,
                broker.clone(),
                roots.clone(),
                audit.clone(),
            ))
        }
    });
    let demo = ServerConfig {
        command: Some(demo_server().display().to_string()),
        ..ServerConfig::default()
    };
    let mut events = host.events();
    host.reconcile(&Config {
        servers: [("demo".to_owned(), demo.clone())].into(),
        ..Config::default()
    });
    tokio::time::timeout(WAIT, async {
        while !matches!(
            events.recv().await,
            Ok(HostEvent::Status {
                state: ServerState::Running { .. },
                ..
            })
        ) {}
    })
    .await
    .expect("the demo server runs");
    let clients = host.shared().clients.clone();
    let servers = CatalogServers {
        catalog: host.catalog().clone(),
        reach: move |server: &str| {
            let client = clients.lock().unwrap().get(server).cloned()?;
            Some(Reach::of(client, &demo))
        },
    };
    let conversations = Conversations::open(&dir.path().join("conversations.sqlite")).unwrap();
    let agent =
        Agent::new(gate.clone(), Arc::new(servers)).with_conversations(conversations.clone());
    World {
        host,
        agent,
        gate,
        conversations,
        questions: broker.subscribe(),
        host_events: events,
        dir,
    }
}

/// A run in the background, and its events.
struct Running {
    events: mpsc::Receiver<ChatEvent>,
    seen: Vec<ChatEvent>,
    stop: CancellationToken,
    done: tokio::task::JoinHandle<Outcome>,
}

impl World {
    fn send(
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

    async fn asked(&mut self) -> Pending {
        tokio::time::timeout(WAIT, async {
            loop {
                if let Ok(BrokerEvent::Added(pending)) = self.questions.recv().await {
                    return *pending;
                }
            }
        })
        .await
        .expect("the person is asked")
    }

    fn answer(&self, pending: &Pending, allow: bool, arguments: Value) {
        let answer = Answer::ToolCall {
            allow,
            arguments: arguments.as_object().cloned().unwrap(),
            remember: Remember::Once,
        };
        self.gate.broker.answer(pending.id, "demo", answer).unwrap();
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
    async fn finish(mut self) -> (Outcome, Vec<ChatEvent>) {
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

fn text_of(events: &[ChatEvent]) -> String {
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
    let provider = StandIn::start(json!([
        {"content": [
            {"text": "Let me echo that. "},
            {"tool_call": {"name": "demo__echo", "arguments": {"text": "from the model"}}, "pieces": 3}
        ]},
        {"content": [{"text": "The tool said: {tool_result}", "pieces": 4}]}
    ]))
    .await;
    let chat = world.conversations.create("Echo").await.unwrap();
    let mut run = world.send(chat.id, "Echo something", provider.openai(), settings());

    let asked = world.asked().await;
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
        matches!(&outcome, Outcome::Finished { ended: Ended::Model { reason: StopReason::EndTurn }, usage } if usage.output_tokens == 10),
        "{outcome:?}"
    );
    assert!(events.iter().any(|e| matches!(e,
        ChatEvent::ToolCallRunning { arguments, decided_by, .. }
            if arguments == &args(json!({"text": "as the person corrected it"})) && decided_by == "user")));
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
    let bodies = provider.bodies().await;
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

    // The audit names the conversation as the asker and keeps what was really sent.
    let row = world.gate.audit.page(None, 10).await.unwrap().remove(0);
    assert_eq!(row.asked_by, format!("model in conversation {}", chat.id));
    assert_eq!(row.record.decided_by, "user");
    assert_eq!(
        row.record.detail,
        json!({"text": "as the person corrected it"})
    );
    assert_eq!(row.record.outcome, "ok");

    // The conversation, reopened from its file, holds every message.
    let path = world.dir.path().join("conversations.sqlite");
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
    world.host.shutdown().await;
}

#[tokio::test]
async fn a_denied_call_reaches_the_model_as_a_denial() {
    let mut world = world().await;
    let provider = StandIn::start(json!([
        {"content": [{"tool_call": {"name": "demo__add", "arguments": {"a": 2, "b": 3}}}]},
        {"content": [{"text": "I was told: {tool_result}"}]}
    ]))
    .await;
    let chat = world.conversations.create("Sums").await.unwrap();
    let run = world.send(chat.id, "Add 2 and 3", provider.anthropic(), settings());
    let asked = world.asked().await;
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
        |e| matches!(e, ChatEvent::ToolCallDenied { decided_by, .. } if decided_by == "user")
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
    let bodies = provider.bodies().await;
    let result = &bodies[1]["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["is_error"], true, "{result}");
    let row = world.gate.audit.page(None, 10).await.unwrap().remove(0);
    assert_eq!(
        (row.record.decision.as_str(), row.record.outcome.as_str()),
        ("denied", "")
    );
    world.host.shutdown().await;
}

#[tokio::test]
async fn stop_in_mid_answer_ends_it_at_once_keeping_what_was_written() {
    let mut world = world().await;
    let provider = StandIn::start(json!([
        {"content": [{"text": "Once upon a time", "pieces": 2}], "stall": true}
    ]))
    .await;
    let chat = world.conversations.create("Story").await.unwrap();
    let mut run = world.send(chat.id, "Tell me a story", provider.openai(), settings());
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
    world.host.shutdown().await;
}

#[tokio::test]
async fn stop_cancels_a_running_tool_call_and_the_model_is_not_asked_again() {
    let mut world = world().await;
    let provider = StandIn::start(json!([
        {"content": [{"tool_call": {"name": "demo__count_to", "arguments": {"n": 100, "delay_ms": 100}}}]},
        {"content": [{"text": "never asked"}]}
    ]))
    .await;
    let chat = world.conversations.create("Count").await.unwrap();
    let mut run = world.send(chat.id, "Count to 100", provider.anthropic(), settings());
    let asked = world.asked().await;
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
    assert!(
        events
            .iter()
            .any(|e| matches!(e, ChatEvent::ToolCallFailed { error, .. } if error == "stopped"))
    );

    // The server was told: the demo server says so on its stderr when its count stops.
    tokio::time::timeout(WAIT, async {
        loop {
            if let Ok(HostEvent::Log { text, .. }) = world.host_events.recv().await
                && text.contains("count_to was cancelled after")
            {
                return;
            }
        }
    })
    .await
    .expect("the server's count was cancelled");

    assert_eq!(
        provider.bodies().await.len(),
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
    world.host.shutdown().await;
}

#[tokio::test]
async fn passing_provider_failures_are_tried_again_and_others_end_the_run_with_its_message() {
    let mut world = world().await;
    let provider = StandIn::start(json!([
        {"error": {"kind": "rate_limited", "retry_after": "0"}},
        {"error": {"kind": "server_error"}},
        {"content": [{"text": "Here I am."}]},
        {"error": {"kind": "unauthorized", "message": "that key was revoked"}}
    ]))
    .await;
    let mut quick = settings();
    quick.retry.first_wait = Duration::from_millis(10);
    let chat = world.conversations.create("Flaky").await.unwrap();
    let run = world.send(chat.id, "Hello?", provider.openai(), quick.clone());
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

    let run = world.send(chat.id, "And now?", provider.openai(), quick);
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
    world.host.shutdown().await;
}
