//! A conversation the person reshapes through the desk, as the window does: an answer asked
//! for again, a turn edited and sent again, a turn taken back, a conversation deleted and
//! taken back; and what the conversation keeps of how it asks (its model, its system
//! prompt, its longest answer), each time checked in what the stand-in provider was sent;
//! and what each answer took, priced as the person priced its model.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_chat::{ChatEvent, ConversationSettings};
use switchboard_core::config::ModelPrice;
use switchboard_desk::{
    Asking, ChatError, Composed, ModelsError, Role, ShownPart, ShownSpent, Update,
};

use crate::common::DemoDesk;
use crate::desk_chat::{KEY, chat_until_end, configure_models, desk};
use switchboard_test_support::stand_in::StandInProvider;

/// The model reads a resource and gets a prompt itself: the first read asks the person,
/// who allows the model's reads of that server until Switchboard quits, which then decides
/// the second; both are in the audit trail, named by the conversation.
#[tokio::test]
async fn the_model_reads_a_resource_and_gets_a_prompt_once_the_person_lets_it() {
    let provider = StandInProvider::start(json!({"api_key": KEY, "turns": [
        {"content": [{"tool_call": {"name": "switchboard_read_resource",
            "arguments": {"server": "demo", "uri": "demo://readme"}}}]},
        {"content": [{"tool_call": {"name": "switchboard_get_prompt",
            "arguments": {"server": "demo", "name": "summarize",
                "arguments": {"text": "Tools, resources and prompts.", "style": "brief"}}}}]},
        {"content": [{"text": "The prompt says: {tool_result}"}]}
    ]}))
    .await;
    let Talk {
        mut world,
        chats,
        id,
        mut updates,
    } = talk(&provider, &["model-test"]).await;
    chats
        .send_message(id, "What does the readme say?".into(), None, None)
        .await
        .unwrap();
    let asked = world.asked().await;
    assert!(
        matches!(&asked.question, switchboard_core::approvals::Question::Read {
            read: switchboard_core::reads::Read::Resource { uri },
            asked_by: switchboard_core::decisions::Origin::Model { .. },
            ..
        } if uri == "demo://readme"),
        "{:?}",
        asked.question
    );
    world
        .desk
        .trust()
        .answer_read(
            asked.id,
            "demo",
            true,
            switchboard_core::approvals::Remember::ServerForSession,
        )
        .unwrap();
    chat_until_end(&mut updates, id).await;

    // The tools named what there is to read; the model was sent what it read, then the
    // prompt's messages.
    let requests = provider.requests().await;
    let described = |name: &str| {
        requests[0]["body"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["function"]["name"] == name)
            .map(|t| t["function"]["description"].as_str().unwrap().to_owned())
            .unwrap_or_default()
    };
    let reader = described("switchboard_read_resource");
    assert!(reader.contains("demo: demo://readme"), "{reader}");
    let prompter = described("switchboard_get_prompt");
    assert!(
        prompter.contains("demo: summarize(text, style?)"),
        "{prompter}"
    );
    assert!(
        requests[1]["body"]
            .to_string()
            .contains("[resource demo://readme]"),
        "the readme went to the model"
    );
    let view = chats.conversation(id).await.unwrap();
    let answer = view.messages.last().unwrap();
    assert!(
        matches!(&answer.parts[0], ShownPart::Text { text }
            if text.starts_with("The prompt says: A brief summary\n[user]\n") && text.contains("Tools, resources and prompts.")),
        "{answer:?}"
    );
    let audit = world.desk.activity().page(None, 10).await.unwrap();
    for subject in ["demo://readme", "summarize"] {
        let read = audit.iter().find(|e| e.subject == subject).unwrap();
        assert_eq!(
            read.asked_by,
            "model in conversation “What does the readme say?”"
        );
    }
}

/// A desk whose provider `standin` is `provider`, offering `models`, and a new
/// conversation, followed from its start.
pub(crate) struct Talk {
    pub world: DemoDesk,
    pub chats: switchboard_desk::Chats,
    pub id: i64,
    pub updates: tokio::sync::broadcast::Receiver<Update>,
}

pub(crate) async fn talk(provider: &StandInProvider, models: &[&str]) -> Talk {
    talk_in(desk().await, provider, models).await
}

/// [`talk`] in `world`, a desk already started.
pub(crate) async fn talk_in(
    mut world: DemoDesk,
    provider: &StandInProvider,
    models: &[&str],
) -> Talk {
    configure_models(&mut world, provider, models).await;
    let chats = world.desk.chats();
    let id = chats.create_conversation(None).await.unwrap().id;
    let updates = world.desk.updates();
    Talk {
        world,
        chats,
        id,
        updates,
    }
}

/// Sends `text` (to `model`, else the conversation's) and waits until the run ends: its
/// updates.
async fn send_and_wait(
    chats: &switchboard_desk::Chats,
    updates: &mut tokio::sync::broadcast::Receiver<Update>,
    id: i64,
    text: &str,
    model: Option<&str>,
) -> Vec<Update> {
    chats
        .send_message(id, text.into(), None, model.map(str::to_owned))
        .await
        .unwrap();
    chat_until_end(updates, id).await
}

/// Allows, once and as the model wrote it, the tool call of `server` the person is asked
/// about next.
pub(crate) async fn allow_asked_call(world: &mut DemoDesk, server: &str, arguments: Value) {
    let asked = world.asked().await;
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    world
        .desk
        .trust()
        .answer_tool_call(
            asked.id,
            server,
            true,
            arguments,
            switchboard_core::approvals::Remember::Once,
        )
        .unwrap();
}

/// A stand-in that answers each request with the next of `answers`.
pub(crate) async fn answering(answers: &[&str]) -> StandInProvider {
    let turns: Vec<Value> = answers
        .iter()
        .map(|a| json!({"content": [{"text": a}]}))
        .collect();
    StandInProvider::start(json!({"api_key": KEY, "turns": turns})).await
}

/// The messages of each request the model was sent: role and text.
async fn asked(provider: &StandInProvider) -> Vec<Vec<(String, String)>> {
    provider
        .requests()
        .await
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .map(|r| {
            r["body"]["messages"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["role"] != "system")
                .map(|m| {
                    let text = m["content"].as_str().map_or_else(
                        || m["content"][0]["text"].as_str().unwrap_or("").to_owned(),
                        str::to_owned,
                    );
                    (m["role"].as_str().unwrap().to_owned(), text)
                })
                .collect()
        })
        .collect()
}

/// The conversation's messages as the window shows them: role, text, and whether each
/// begins a turn of the person's.
async fn shown(world: &DemoDesk, id: i64) -> Vec<(Role, String, bool)> {
    let view = world.desk.chats().conversation(id).await.unwrap();
    view.messages
        .into_iter()
        .map(|m| {
            let text = m
                .parts
                .iter()
                .filter_map(|p| match p {
                    ShownPart::Text { text } => Some(text.as_str()),
                    _ => None,
                })
                .collect::<String>();
            (m.role, text, m.turn)
        })
        .collect()
}

fn said(text: &str) -> Composed {
    Composed {
        text: text.into(),
        attachments: Vec::new(),
        prompt: None,
    }
}

fn pair(role: &str, text: &str) -> (String, String) {
    (role.to_owned(), text.to_owned())
}

#[tokio::test]
async fn an_answer_is_asked_for_again_a_turn_edited_and_taken_back() {
    let provider = answering(&["Answer one.", "Answer two.", "Answer three.", "Then four."]).await;
    let Talk {
        world,
        chats,
        id,
        mut updates,
    } = talk(&provider, &["model-test"]).await;

    send_and_wait(&chats, &mut updates, id, "First question", None).await;
    chats.regenerate(id, Asking::default()).await.unwrap();
    chat_until_end(&mut updates, id).await;
    assert_eq!(
        shown(&world, id).await,
        [
            (Role::User, "First question".into(), true),
            (Role::Assistant, "Answer two.".into(), false)
        ],
        "the answer replaced"
    );

    // Edited: the turn and all after it replaced by the new message and its answer.
    send_and_wait(&chats, &mut updates, id, "Second question", None).await;
    chats
        .edit_turn(id, 0, said("First question, edited"), Asking::default())
        .await
        .unwrap();
    chat_until_end(&mut updates, id).await;
    assert_eq!(
        shown(&world, id).await,
        [
            (Role::User, "First question, edited".into(), true),
            (Role::Assistant, "Then four.".into(), false)
        ]
    );
    let requests = asked(&provider).await;
    assert_eq!(requests.len(), 4);
    assert_eq!(
        requests[1],
        [pair("user", "First question")],
        "asked again without the answer it replaces"
    );
    assert_eq!(
        requests[3],
        [pair("user", "First question, edited")],
        "the model is sent only what remains"
    );

    // Only where a turn of the person's begins, and nothing lost when it does not.
    let wrong = chats
        .edit_turn(id, 1, said("not a turn"), Asking::default())
        .await;
    assert!(matches!(wrong, Err(ChatError::BadRequest(_))), "{wrong:?}");
    assert!(matches!(
        chats.remove_turn(id, 1).await,
        Err(ChatError::BadRequest(_))
    ));
    assert_eq!(shown(&world, id).await.len(), 2);

    chats.remove_turn(id, 0).await.unwrap();
    assert!(
        shown(&world, id).await.is_empty(),
        "the turn and its answer"
    );
    assert!(matches!(
        chats.regenerate(id, Asking::default()).await,
        Err(ChatError::BadRequest(_))
    ));
}

#[tokio::test]
async fn the_model_chosen_stays_with_the_conversation_and_its_settings_shape_the_request() {
    let provider = answering(&["One.", "Two.", "Three."]).await;
    let Talk {
        world: _world,
        chats,
        id,
        mut updates,
    } = talk(&provider, &["model-a", "model-b"]).await;

    send_and_wait(&chats, &mut updates, id, "Hello", Some("model-b")).await;
    let view = chats.conversation(id).await.unwrap();
    assert_eq!(view.settings.provider.as_deref(), Some("standin"));
    assert_eq!(view.settings.model.as_deref(), Some("model-b"));

    let settings = ConversationSettings {
        system: Some("Answer in French.".into()),
        max_tokens: Some(321),
        ..view.settings
    };
    chats
        .set_conversation_settings(id, settings.clone())
        .await
        .unwrap();
    // Neither provider nor model named: the conversation's.
    send_and_wait(&chats, &mut updates, id, "And again", None).await;
    let requests: Vec<Value> = provider
        .requests()
        .await
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .map(|mut r| r["body"].take())
        .collect();
    let last = &requests[1];
    assert_eq!(last["model"], "model-b", "{last}");
    let limit = last["max_completion_tokens"]
        .as_u64()
        .or(last["max_tokens"].as_u64());
    assert_eq!(limit, Some(321), "{last}");
    let system = last["messages"][0].to_string();
    assert!(system.contains("Answer in French."), "{system}");
    assert_eq!(chats.conversation(id).await.unwrap().settings, settings);

    // What cannot be asked with is refused, and nothing changes.
    for wrong in [
        ConversationSettings {
            max_tokens: Some(0),
            ..settings.clone()
        },
        ConversationSettings {
            max_rounds: Some(0),
            ..settings.clone()
        },
        ConversationSettings {
            provider: Some("gone".into()),
            ..settings.clone()
        },
    ] {
        assert!(chats.set_conversation_settings(id, wrong).await.is_err());
    }
    assert_eq!(chats.conversation(id).await.unwrap().settings, settings);
}

#[tokio::test]
async fn a_deleted_conversation_is_taken_back_whole() {
    let provider = answering(&["Kept."]).await;
    let Talk {
        world,
        chats,
        id,
        mut updates,
    } = talk(&provider, &["model-test"]).await;
    let run = send_and_wait(&chats, &mut updates, id, "Keep this", None).await;
    assert!(run.iter().any(|u| matches!(
        u,
        Update::Chat {
            event: ChatEvent::Finished { .. },
            ..
        }
    )));
    chats.delete_conversation(id).await.unwrap();
    assert!(chats.conversations(None).await.unwrap().is_empty());
    chats.restore_conversation(id).await.unwrap();
    let listed = chats.conversations(None).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].title, "Keep this");
    assert_eq!(shown(&world, id).await.len(), 2);
}

#[tokio::test]
async fn what_each_answer_took_is_kept_and_costed_by_the_prices_the_person_gave() {
    let provider = StandInProvider::start(json!({"api_key": KEY, "turns": [
        {"content": [{"text": "One."}], "usage": {"input": 1000, "output": 200}},
        {"content": [{"text": "Two."}], "usage": {"input": 3000, "output": 100}}
    ]}))
    .await;
    let mut world = desk().await;
    configure_models(&mut world, &provider, &["model-a", "model-b"]).await;
    let models = world.desk.models();
    let price = ModelPrice {
        input: 3.0,
        output: 15.0,
        cache_read: None,
    };
    models
        .set_model_price("standin", "model-a", Some(price))
        .await
        .unwrap();
    let negative = ModelPrice {
        input: -1.0,
        ..price
    };
    assert!(matches!(
        models
            .set_model_price("standin", "model-b", Some(negative))
            .await,
        Err(ModelsError::BadPrice)
    ));
    let chats = world.desk.chats();
    let id = chats.create_conversation(None).await.unwrap().id;
    let mut updates = world.desk.updates();
    let run = send_and_wait(&chats, &mut updates, id, "First", None).await;
    let live = run.iter().find_map(|u| match u {
        Update::ChatMessage { message, .. } => message.spent.clone(),
        _ => None,
    });
    let first = ShownSpent {
        model: "model-a".into(),
        input_tokens: 1000,
        output_tokens: 200,
        cost: Some(0.006),
    };
    assert_eq!(
        live.as_ref(),
        Some(&first),
        "the window is told as the answer comes"
    );
    send_and_wait(&chats, &mut updates, id, "Second", Some("model-b")).await;

    // Kept with the conversation, each priced by its model's price, or not at all.
    let view = chats.conversation(id).await.unwrap();
    assert_eq!(view.messages[1].spent.as_ref(), Some(&first));
    assert_eq!(view.messages[3].spent.as_ref().unwrap().cost, None);
    assert_eq!(view.spent.input_tokens, 4000);
    assert_eq!(view.spent.output_tokens, 300);
    assert!((view.spent.cost - 0.006).abs() < 1e-9, "{:?}", view.spent);
    assert_eq!(view.spent.unpriced, 1);
}

#[tokio::test]
async fn a_conversation_too_long_for_the_model_is_summarised_and_goes_on() {
    let provider = StandInProvider::start(json!({"api_key": KEY, "turns": [
        {"content": [{"text": "It rains 4 mm in Lisbon today."}]},
        {"error": {"kind": "context_too_long"}},
        {"content": [{"text": "The person asked about rain in Lisbon: 4 mm today."}]},
        {"content": [{"text": "Tomorrow is dry."}]}
    ]}))
    .await;
    let Talk {
        world,
        chats,
        id,
        mut updates,
    } = talk(&provider, &["model-test"]).await;
    send_and_wait(&chats, &mut updates, id, "Rain in Lisbon?", None).await;
    let failed = send_and_wait(&chats, &mut updates, id, "And tomorrow?", None).await;
    assert!(
        failed.iter().any(|u| matches!(
            u,
            Update::Chat {
                event: ChatEvent::Error { too_long: true, .. },
                ..
            }
        )),
        "the window is told the conversation no longer fits: {failed:?}"
    );

    chats
        .summarise_earlier(id, Asking::default())
        .await
        .unwrap();
    let summarised = world.desk.chats().conversation(id).await.unwrap().messages;
    assert_eq!(summarised.len(), 2, "{summarised:?}");
    assert!(
        matches!(&summarised[0].parts[..], [ShownPart::Summary { text }] if text.contains("4 mm today")),
        "the summary shows as the model wrote it: {summarised:?}"
    );
    assert!(
        !summarised[0].turn,
        "a summary is not the person's turn to edit"
    );
    assert!(
        matches!(&summarised[1].parts[..], [ShownPart::Text { text }] if text == "And tomorrow?")
    );
    chats.regenerate(id, Asking::default()).await.unwrap();
    chat_until_end(&mut updates, id).await;
    let requests = asked(&provider).await;
    assert_eq!(requests.len(), 4);
    assert!(
        requests[2]
            .last()
            .unwrap()
            .1
            .starts_with("Summarise the conversation above"),
        "the model was asked for the summary: {:?}",
        requests[2]
    );
    let last = &requests[3];
    assert_eq!(
        last.len(),
        2,
        "the summary and the question alone: {last:?}"
    );
    assert!(last[0].1.contains("4 mm today"));
    assert_eq!(last[1], pair("user", "And tomorrow?"));
    assert_eq!(shown(&world, id).await[2].1, "Tomorrow is dry.");
}

#[tokio::test]
async fn a_known_model_is_asked_for_as_long_an_answer_as_it_may_write() {
    let provider = answering(&["Short.", "Shorter."]).await;
    let Talk {
        world: _world,
        chats,
        id,
        mut updates,
    } = talk(&provider, &["gpt-4o-mini", "an-unknown-model"]).await;
    send_and_wait(&chats, &mut updates, id, "Hi", None).await;
    send_and_wait(&chats, &mut updates, id, "Again", Some("an-unknown-model")).await;
    let limits: Vec<Value> = provider
        .requests()
        .await
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .map(|r| r["body"]["max_tokens"].clone())
        .collect();
    assert_eq!(
        limits,
        [json!(16_384), json!(4096)],
        "its profile's, else 4,096"
    );
}

#[tokio::test]
async fn past_the_threshold_the_model_searches_the_tools_and_is_sent_those_it_found() {
    let provider = StandInProvider::start(json!({"api_key": KEY, "turns": [
        {"content": [{"tool_call": {"name": "switchboard_search_tools", "arguments": {"query": "echo text back"}}}]},
        {"content": [{"tool_call": {"name": "demo__echo", "arguments": {"text": "found"}}}]},
        {"content": [{"text": "Echoed: {tool_result}"}]}
    ]}))
    .await;
    let servers = json!({"demo": {"command": crate::common::demo_server().display().to_string()}});
    let mut world = crate::common::desk_on(
        servers,
        json!({"toolSearchAbove": 5}),
        crate::common::keyring("chat-search"),
    )
    .await;
    configure_models(&mut world, &provider, &["model-test"]).await;
    let chats = world.desk.chats();
    let id = chats.create_conversation(None).await.unwrap().id;
    let mut updates = world.desk.updates();
    chats
        .send_message(id, "Echo something".into(), None, None)
        .await
        .unwrap();
    allow_asked_call(&mut world, "demo", json!({"text": "found"})).await;
    chat_until_end(&mut updates, id).await;

    let offered: Vec<Vec<String>> = provider
        .requests()
        .await
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .map(|r| {
            r["body"]["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
                .collect()
        })
        .collect();
    assert_eq!(
        offered[0],
        [
            "switchboard_search_tools",
            "switchboard_read_resource",
            "switchboard_get_prompt",
            "switchboard_load_skill"
        ],
        "the search and the tools that read alone"
    );
    assert_eq!(offered[1][0], "switchboard_search_tools");
    assert!(
        offered[1].contains(&"demo__echo".to_owned()),
        "{:?}",
        offered[1]
    );
    assert!(
        offered[1].len() <= 11,
        "what it found, not all: {:?}",
        offered[1]
    );
    let view = chats.conversation(id).await.unwrap();
    let answer = view.messages.last().unwrap();
    assert!(
        matches!(&answer.parts[0], ShownPart::Text { text } if text == "Echoed: found"),
        "{answer:?}"
    );
}
