//! The chat through the desk, as the window drives it: the stand-in provider configured
//! with its key in the real OS keyring (run under `dbus-run-session --
//! scripts/with-keyring`), the demo server running, a message sent, the model's tool call
//! asked of the person (who is told it is a model in that conversation), allowed with an
//! edited argument, its result back to the model, the answer streamed as updates, and the
//! conversation kept when the desk is opened again.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_chat::{ChatEvent, ConversationSummary, Ended};
use switchboard_core::approvals::{Question, Remember};
use switchboard_core::config::ProviderProtocol;
use switchboard_core::decisions::Origin;
use switchboard_desk::{
    ChatError, ExportFormat, ExportWords, KeyChange, NEW_TITLE, ProviderForm, Role, ShownPart,
    Update,
};

use crate::common::{DemoDesk, demo_server, desk_on, keyring, next_on};
use switchboard_test_support::stand_in::StandInProvider;

pub(crate) const KEY: &str = "sk-standin-chat-key-0123456789";

pub(crate) async fn desk() -> DemoDesk {
    let servers = json!({"demo": {"command": demo_server().display().to_string()}});
    desk_on(servers, json!({}), keyring("desk-chat")).await
}

async fn configure(world: &mut DemoDesk, provider: &StandInProvider) {
    configure_models(world, provider, &["model-test"]).await;
}

/// The stand-in as the provider `standin`, offering `models`, the first its default.
pub(crate) async fn configure_models(
    world: &mut DemoDesk,
    provider: &StandInProvider,
    models: &[&str],
) {
    let form = ProviderForm {
        name: "standin".into(),
        protocol: ProviderProtocol::OpenAi,
        base_url: format!("{}/v1", provider.url),
        models: models.iter().map(|m| (*m).to_owned()).collect(),
        default_model: models.first().map(|m| (*m).to_owned()),
        api_key: KeyChange::Set { value: KEY.into() },
    };
    world.desk.models().save_provider(None, form).await.unwrap();
    world
        .next(|u| matches!(u, Update::ProvidersChanged).then_some(()))
        .await;
}

/// The chat updates of `conversation` on `updates` until the run ends.
pub(crate) async fn chat_until_end(
    updates: &mut tokio::sync::broadcast::Receiver<Update>,
    conversation: i64,
) -> Vec<Update> {
    let mut seen = Vec::new();
    next_on(updates, |u| {
        let ours = match &u {
            Update::Chat {
                conversation: c, ..
            }
            | Update::ChatMessage {
                conversation: c, ..
            } => *c == conversation,
            _ => false,
        };
        if !ours {
            return None;
        }
        let end = matches!(
            &u,
            Update::Chat {
                event: ChatEvent::Finished { .. } | ChatEvent::Error { .. },
                ..
            }
        );
        seen.push(u);
        end.then_some(())
    })
    .await;
    seen
}

fn text_of(updates: &[Update]) -> String {
    updates
        .iter()
        .filter_map(|u| match u {
            Update::Chat {
                event: ChatEvent::TextDelta { text },
                ..
            } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn without_a_provider_a_message_says_to_add_a_model() {
    let world = desk().await;
    let chat = world.desk.chats().create_conversation(None).await.unwrap();
    assert_eq!(chat.title, "", "untitled until its first message");
    let sent = world
        .desk
        .chats()
        .send_message(chat.id, "Hello".into(), None, None)
        .await;
    assert!(matches!(sent, Err(ChatError::NoModel)), "{sent:?}");
    assert!(
        sent.unwrap_err().to_string().contains("Models page"),
        "the person is told where to add one"
    );
}

#[tokio::test]
async fn a_message_through_the_desk_calls_a_tool_the_person_allows_and_is_kept() {
    let provider = StandInProvider::start(json!({
        "api_key": KEY,
        "turns": [
            {"content": [
                {"text": "Let me echo that. "},
                {"tool_call": {"name": "demo__echo", "arguments": {"text": "from the model"}}, "pieces": 3}
            ]},
            {"content": [{"text": "The tool said: {tool_result}", "pieces": 4}]}
        ]
    }))
    .await;
    let mut world = desk().await;
    configure(&mut world, &provider).await;

    let chat = world.desk.chats().create_conversation(None).await.unwrap();
    let tools = world.desk.chats().chat_tools(chat.id).await.unwrap();
    assert!(tools.offered > 0 && tools.left_out.is_none(), "{tools:?}");
    assert_eq!(tools.servers[0].server, "demo");

    let mut chat_updates = world.desk.updates();
    world
        .desk
        .chats()
        .send_message(chat.id, "Echo something for me".into(), None, None)
        .await
        .unwrap();
    let again = world
        .desk
        .chats()
        .send_message(chat.id, "And again".into(), None, None)
        .await;
    assert!(matches!(again, Err(ChatError::ChatRunning)), "{again:?}");

    // The person is asked, and told who asks.
    let asked = world.asked().await;
    let Question::ToolCall {
        tool,
        arguments,
        asked_by,
        ..
    } = &asked.question
    else {
        panic!("asked {:?}", asked.question)
    };
    assert_eq!((asked.server.as_str(), tool.as_str()), ("demo", "echo"));
    assert_eq!(arguments["text"], "from the model");
    assert_eq!(
        asked_by,
        &Origin::Model {
            conversation: chat.id.to_string(),
            title: "Echo something for me".into()
        }
    );
    let edited = json!({"text": "as the person corrected it"});
    world
        .desk
        .trust()
        .answer_tool_call(
            asked.id,
            "demo",
            true,
            edited.as_object().cloned().unwrap(),
            Remember::Once,
        )
        .unwrap();

    let updates = chat_until_end(&mut chat_updates, chat.id).await;
    assert_eq!(
        text_of(&updates),
        "Let me echo that. The tool said: as the person corrected it"
    );
    assert!(updates.iter().any(|u| matches!(u,
        Update::Chat { event: ChatEvent::ToolCallRunning { arguments, .. }, .. }
            if Value::Object(arguments.clone()) == edited)));
    assert!(updates.iter().any(|u| matches!(
        u,
        Update::Chat {
            event: ChatEvent::ToolCallResult {
                is_error: false,
                ..
            },
            ..
        }
    )));
    assert!(matches!(
        updates.last(),
        Some(Update::Chat {
            event: ChatEvent::Finished {
                ended: Ended::Model { .. },
                ..
            },
            ..
        })
    ));
    let kept_messages = updates
        .iter()
        .filter(|u| matches!(u, Update::ChatMessage { .. }))
        .count();
    assert_eq!(kept_messages, 4, "asked, called, answered, concluded");

    // The audit trail names the model's conversation by its title, as the dialog does.
    let audit = world.desk.activity().page(None, 10).await.unwrap();
    let call = audit.iter().find(|e| e.subject == "echo").unwrap();
    assert_eq!(
        call.asked_by,
        "model in conversation “Echo something for me”"
    );

    // Kept, named after its first message, and found again after a restart.
    let id = chat.id;
    let world = world.reopen(&["demo"]).await;
    let listed = world.desk.chats().conversations(None).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].title, "Echo something for me");
    let found = world
        .desk
        .chats()
        .conversations(Some("corrected".into()))
        .await
        .unwrap();
    assert_eq!(found.len(), 1);
    let view = world.desk.chats().conversation(id).await.unwrap();
    assert!(!view.running);
    let roles: Vec<Role> = view.messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [Role::User, Role::Assistant, Role::User, Role::Assistant]
    );
    assert!(matches!(
        &view.messages[1].parts[1],
        ShownPart::ToolCall { server: Some(server), tool: Some(tool), .. }
            if server == "demo" && tool == "echo"
    ));
    let ShownPart::ToolResult {
        result, is_error, ..
    } = &view.messages[2].parts[0]
    else {
        panic!("{:?}", view.messages[2])
    };
    assert!(!is_error);
    assert_eq!(
        result.0["content"][0]["text"], "as the person corrected it",
        "{result:?}"
    );

    world
        .desk
        .chats()
        .rename_conversation(id, "Echoes")
        .await
        .unwrap();
    // Written out to keep elsewhere: Markdown to read, JSON with every part.
    let chats = world.desk.chats();
    let markdown = chats
        .export_conversation(id, ExportFormat::Markdown, &ExportWords::default())
        .await
        .unwrap();
    assert_eq!(markdown.file_name, "Echoes.md");
    for said in [
        "# Echoes",
        "## You\n\nEcho something for me",
        "## Model",
        "Tool call: **echo of demo**",
        "\"text\": \"from the model\"",
        "Tool result:\n\n```\nas the person corrected it\n```",
    ] {
        assert!(
            markdown.text.contains(said),
            "{said:?} in {}",
            markdown.text
        );
    }
    // In the words of the window's language.
    let words = ExportWords {
        you: "你".into(),
        tool_of: "{server} 的 {tool}".into(),
        ..ExportWords::default()
    };
    let chinese = chats
        .export_conversation(id, ExportFormat::Markdown, &words)
        .await
        .unwrap();
    assert!(
        chinese.text.contains("## 你\n\nEcho something for me")
            && chinese.text.contains("**demo 的 echo**"),
        "{}",
        chinese.text
    );
    let json = chats
        .export_conversation(id, ExportFormat::Json, &ExportWords::default())
        .await
        .unwrap();
    assert_eq!(json.file_name, "Echoes.json");
    let kept: Value = serde_json::from_str(&json.text).unwrap();
    assert_eq!(kept["title"], "Echoes");
    assert_eq!(kept["messages"].as_array().unwrap().len(), 4);
    world.desk.chats().delete_conversation(id).await.unwrap();
    assert!(
        world
            .desk
            .chats()
            .conversations(None)
            .await
            .unwrap()
            .is_empty()
    );
}

/// A conversation titled `title` whose model has just asked to call the demo's echo (the
/// question on its way to the person), and the updates from before it was sent.
async fn echo_asked_by_a_model(
    title: &str,
) -> (
    DemoDesk,
    ConversationSummary,
    tokio::sync::broadcast::Receiver<Update>,
    StandInProvider,
) {
    let provider = StandInProvider::start(json!({
        "api_key": KEY,
        "turns": [
            {"content": [{"tool_call": {"name": "demo__echo", "arguments": {"text": "x"}}}]},
            {"content": [{"text": "never asked"}]}
        ]
    }))
    .await;
    let mut world = desk().await;
    configure(&mut world, &provider).await;
    let chat = world
        .desk
        .chats()
        .create_conversation(Some(title.into()))
        .await
        .unwrap();
    let chat_updates = world.desk.updates();
    world
        .desk
        .chats()
        .send_message(chat.id, "Echo".into(), Some("standin".into()), None)
        .await
        .unwrap();
    (world, chat, chat_updates, provider)
}

/// Its conversation is kept untitled as earlier versions kept one (`NEW_TITLE`): its
/// first message names it all the same.
#[tokio::test]
async fn stop_ends_a_run_waiting_for_the_person() {
    let (mut world, chat, mut chat_updates, _provider) = echo_asked_by_a_model(NEW_TITLE).await;
    let asked = world.asked().await;
    assert!(world.desk.chats().stop_chat(chat.id));
    world.withdrawn(asked.id).await;
    let updates = chat_until_end(&mut chat_updates, chat.id).await;
    assert!(matches!(
        updates.last(),
        Some(Update::Chat {
            event: ChatEvent::Finished {
                ended: Ended::Stopped,
                ..
            },
            ..
        })
    ));
    let view = world.desk.chats().conversation(chat.id).await.unwrap();
    assert_eq!(view.summary.title, "Echo");
}

#[tokio::test]
async fn a_models_tool_call_is_listed_among_the_calls_under_way_and_cancel_stops_the_run() {
    let (mut world, chat, mut chat_updates, _provider) = echo_asked_by_a_model("Listed").await;
    let item = world
        .next(|u| match u {
            Update::Progress { item } if item.token.starts_with("chat-") => Some(item),
            _ => None,
        })
        .await;
    assert_eq!(
        (item.server.as_str(), item.label.as_str()),
        ("demo", "echo")
    );
    let asked = world.asked().await;
    let listed = world.desk.explorer().calls_in_flight();
    assert!(
        listed.iter().any(|call| call.token == item.token),
        "the call waiting for the person is listed: {listed:?}"
    );

    assert!(world.desk.explorer().cancel(&item.token));
    world.withdrawn(asked.id).await;
    chat_until_end(&mut chat_updates, chat.id).await;
    world
        .next(|u| matches!(u, Update::ProgressEnded { token } if token == item.token).then_some(()))
        .await;
    assert!(world.desk.explorer().calls_in_flight().is_empty());
}

/// With more tools on than a model may be offered (ten demo servers, 130 tools), the first
/// 128 are offered and the provider takes the request; the person is told which tools
/// were left out.
#[tokio::test]
async fn past_the_most_tools_a_model_takes_the_rest_are_left_out_and_named() {
    let provider = StandInProvider::start(json!({
        "api_key": KEY,
        "turns": [{"content": [{"text": "So many tools."}]}]
    }))
    .await;
    let demo = demo_server().display().to_string();
    let servers: serde_json::Map<String, Value> = (0..10)
        .map(|i| (format!("demo-{i}"), json!({"command": demo})))
        .collect();
    // Without the search of tools (`toolSearchAbove` 0), every tool is sent.
    let settings = json!({"toolSearchAbove": 0});
    let mut world = desk_on(Value::Object(servers), settings, keyring("desk-chat-many")).await;
    configure(&mut world, &provider).await;
    let chat = world.desk.chats().create_conversation(None).await.unwrap();
    let tools = world.desk.chats().chat_tools(chat.id).await.unwrap();
    assert_eq!(tools.offered, 128);
    let warning = tools.left_out.expect("the person is told").to_string();
    assert!(
        warning.contains("130 tools are on") && warning.contains("left out are demo-9's"),
        "{warning}"
    );

    let mut chat_updates = world.desk.updates();
    world
        .desk
        .chats()
        .send_message(chat.id, "Hello".into(), None, None)
        .await
        .unwrap();
    let updates = chat_until_end(&mut chat_updates, chat.id).await;
    assert!(text_of(&updates).contains("So many tools."), "{updates:?}");
    let asked: Vec<Value> = provider
        .requests()
        .await
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .collect();
    assert_eq!(asked[0]["body"]["tools"].as_array().unwrap().len(), 128);
}
