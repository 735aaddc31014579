//! Context given to a model with a message, through the desk: a resource of the demo server
//! attached (read when the message is sent, its text delimited and named by URI and server
//! in what the provider receives, shown as an attachment in the kept conversation), and a
//! prompt used as a slash command (its argument completed, its messages sent in their
//! roles with the argument filled in and its embedded resource included). Run under
//! `dbus-run-session -- scripts/with-keyring`, like the other chat tests.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_chat::ChatEvent;
use switchboard_core::config::ProviderProtocol;
use switchboard_desk::{
    Attachment, ChatError, Composed, KeyChange, ModelsError, PromptUse, ProviderForm, Role,
    ShownPart, Update,
};

use crate::common::{DemoDesk, demo_server, desk_on, keyring, next_on};
use switchboard_test_support::stand_in::StandInProvider;

const KEY: &str = "sk-standin-context-key-0123456789";

async fn desk(provider: &StandInProvider) -> DemoDesk {
    let servers = json!({"demo": {"command": demo_server().display().to_string()}});
    let mut world = desk_on(servers, json!({}), keyring("chat-context")).await;
    let form = ProviderForm {
        name: "standin".into(),
        protocol: ProviderProtocol::OpenAi,
        base_url: format!("{}/v1", provider.url),
        models: vec!["model-test".into()],
        default_model: Some("model-test".into()),
        api_key: KeyChange::Set { value: KEY.into() },
    };
    world.desk.models().save_provider(None, form).await.unwrap();
    world
        .next(|u| matches!(u, Update::ProvidersChanged).then_some(()))
        .await;
    world
}

async fn until_finished(updates: &mut tokio::sync::broadcast::Receiver<Update>, id: i64) {
    next_on(updates, |u| match u {
        Update::Chat {
            conversation,
            event: ChatEvent::Finished { .. } | ChatEvent::Error { .. },
        } if conversation == id => Some(()),
        _ => None,
    })
    .await;
}

/// The chat requests the provider received.
async fn chat_requests(provider: &StandInProvider) -> Vec<Value> {
    let requests = provider.requests().await;
    requests
        .into_iter()
        .filter(|r| {
            r["path"]
                .as_str()
                .is_some_and(|p| p.ends_with("/chat/completions"))
        })
        .collect()
}

/// The messages of the last chat request the provider received.
async fn last_messages(provider: &StandInProvider) -> Vec<Value> {
    let requests = chat_requests(provider).await;
    let body = &requests.last().unwrap()["body"];
    let body: Value = match body {
        Value::String(text) => serde_json::from_str(text).unwrap(),
        other => other.clone(),
    };
    body["messages"].as_array().unwrap().clone()
}

/// A message's text, whether its content is a string or a list of parts.
fn text_of(message: &Value) -> String {
    match &message["content"] {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[tokio::test]
async fn an_attached_resource_reaches_the_model_named_by_uri_and_server_and_is_kept() {
    let provider = StandInProvider::start(json!({
        "api_key": KEY,
        "turns": [{"content": [{"text": "It is a demo."}]}]
    }))
    .await;
    let world = desk(&provider).await;
    let chat = world.desk.chats().create_conversation(None).await.unwrap();
    let mut updates = world.desk.updates();
    let composed = Composed {
        text: "What is this server?".into(),
        attachments: vec![Attachment {
            server: "demo".into(),
            uri: "demo://readme".into(),
        }],
        prompt: None,
    };
    world
        .desk
        .chats()
        .send_composed(chat.id, composed, None, None)
        .await
        .unwrap();
    until_finished(&mut updates, chat.id).await;

    let messages = last_messages(&provider).await;
    let user = messages.iter().find(|m| m["role"] == "user").unwrap();
    let text = text_of(user);
    assert!(
        text.contains("<resource server=\"demo\" uri=\"demo://readme\" type=\"text/markdown\">\n"),
        "{text}"
    );
    assert!(text.contains("## Prompts"), "the readme's text: {text}");
    assert!(text.contains("</resource>"), "{text}");
    assert!(text.ends_with("What is this server?"), "{text}");

    // The attachment shows on the kept message, before the person's text.
    let view = world.desk.chats().conversation(chat.id).await.unwrap();
    assert_eq!(view.summary.title, "What is this server?");
    let parts = &view.messages[0].parts;
    assert!(
        matches!(&parts[0], ShownPart::Resource { server, uri, text, .. }
            if server == "demo" && uri == "demo://readme" && text.contains("## Prompts")),
        "{parts:?}"
    );
    assert_eq!(
        parts[1],
        ShownPart::Text {
            text: "What is this server?".into()
        }
    );

    // A resource that does not read stops the send, and nothing is added.
    let missing = Composed {
        text: "And this?".into(),
        attachments: vec![Attachment {
            server: "demo".into(),
            uri: "demo://no-such-thing".into(),
        }],
        prompt: None,
    };
    let sent = world
        .desk
        .chats()
        .send_composed(chat.id, missing, None, None)
        .await;
    assert!(
        matches!(&sent, Err(ChatError::BadRequest(why)) if why.contains("demo://no-such-thing")),
        "{sent:?}"
    );
    let view = world.desk.chats().conversation(chat.id).await.unwrap();
    assert_eq!(view.messages.len(), 2);
}

#[tokio::test]
async fn a_prompt_used_as_a_slash_command_sends_its_messages_with_the_argument() {
    let provider = StandInProvider::start(json!({
        "api_key": KEY,
        "turns": [{"content": [{"text": "Hello, Ada, how lovely to see you!"}]}]
    }))
    .await;
    let world = desk(&provider).await;

    // The argument is completed as the person types.
    let offered = world
        .desk
        .explorer()
        .complete(
            "demo",
            json!({"ref": {"type": "ref/prompt", "name": "greet"},
                   "argument": {"name": "name", "value": "A"}}),
        )
        .await
        .unwrap();
    assert!(offered.contains(&"Ada".to_owned()), "{offered:?}");

    let chat = world.desk.chats().create_conversation(None).await.unwrap();
    let mut updates = world.desk.updates();
    let composed = Composed {
        text: String::new(),
        attachments: Vec::new(),
        prompt: Some(PromptUse {
            server: "demo".into(),
            name: "greet".into(),
            arguments: [("name".to_owned(), "Ada".to_owned())].into(),
        }),
    };
    world
        .desk
        .chats()
        .send_composed(chat.id, composed, None, None)
        .await
        .unwrap();
    until_finished(&mut updates, chat.id).await;

    let messages = last_messages(&provider).await;
    let users: Vec<&Value> = messages.iter().filter(|m| m["role"] == "user").collect();
    assert_eq!(
        users.len(),
        1,
        "the prompt's two user messages joined: {messages:?}"
    );
    let text = text_of(users[0]);
    assert!(text.contains("Please greet Ada warmly"), "{text}");
    assert!(
        text.contains("uri=\"demo://greeting/Ada\"") && text.contains("Hello, Ada!"),
        "the embedded resource: {text}"
    );

    let view = world.desk.chats().conversation(chat.id).await.unwrap();
    assert_eq!(view.summary.title, "/greet");
    let roles: Vec<Role> = view.messages.iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::User, Role::Assistant]);
    assert!(matches!(
        &view.messages[0].parts[1],
        ShownPart::Resource { uri, .. } if uri == "demo://greeting/Ada"
    ));

    // A prompt without its required argument is refused by the server, and nothing is sent.
    let without = Composed {
        text: String::new(),
        attachments: Vec::new(),
        prompt: Some(PromptUse {
            server: "demo".into(),
            name: "greet".into(),
            arguments: Default::default(),
        }),
    };
    let sent = world
        .desk
        .chats()
        .send_composed(chat.id, without, None, None)
        .await;
    assert!(
        matches!(&sent, Err(ChatError::BadRequest(why)) if why.contains("greet")),
        "{sent:?}"
    );
    assert_eq!(chat_requests(&provider).await.len(), 1);
}

/// A model that reads no images refuses an attached image: the message goes again with the
/// image described, what the refusal taught is kept in the provider's profiles in the file
/// (the next image is described before it is sent), and shown on the Models page, where
/// what the person says of a model is kept over it.
#[tokio::test]
async fn a_model_that_refuses_images_is_learned_kept_and_can_be_corrected() {
    let provider = StandInProvider::start(json!({
        "api_key": KEY,
        "text_only": true,
        "turns": [
            {"content": [{"text": "I read the words."}]},
            {"content": [{"text": "Still the words."}]}
        ]
    }))
    .await;
    let world = desk(&provider).await;
    let chat = world.desk.chats().create_conversation(None).await.unwrap();
    let mut updates = world.desk.updates();
    let with_logo = |text: &str| Composed {
        text: text.into(),
        attachments: vec![Attachment {
            server: "demo".into(),
            uri: "demo://logo.png".into(),
        }],
        prompt: None,
    };
    for text in ["What is this?", "And this?"] {
        world
            .desk
            .chats()
            .send_composed(chat.id, with_logo(text), None, None)
            .await
            .unwrap();
        until_finished(&mut updates, chat.id).await;
    }
    let carried_images: Vec<bool> = chat_requests(&provider)
        .await
        .iter()
        .map(|r| r["body"].to_string().contains("image_url"))
        .collect();
    assert_eq!(
        carried_images,
        [true, false, false],
        "refused once; after that, described before it is sent"
    );
    let view = world.desk.chats().conversation(chat.id).await.unwrap();
    let answers: Vec<&ShownPart> = view
        .messages
        .iter()
        .filter(|m| m.role == Role::Assistant)
        .map(|m| &m.parts[0])
        .collect();
    assert!(
        matches!(answers[..], [ShownPart::Text { text: a }, ShownPart::Text { text: b }]
            if a == "I read the words." && b == "Still the words."),
        "{answers:?}"
    );

    let listed = world.desk.models().providers().await.providers;
    let learned = listed[0]
        .profiles
        .get("model-test")
        .copied()
        .unwrap_or_default();
    assert_eq!(learned.vision, Some(false), "{listed:?}");
    assert_eq!(
        world.file()["providers"]["standin"]["profiles"]["model-test"],
        json!({"vision": false})
    );

    // The person corrects it; a profile of no tokens is refused and nothing changes.
    let models = world.desk.models();
    let wrong = switchboard_providers::Profile {
        context_tokens: Some(0),
        ..Default::default()
    };
    let refused = models
        .set_model_profile("standin", "model-test", Some(wrong))
        .await;
    assert!(
        matches!(refused, Err(ModelsError::BadProfile)),
        "{refused:?}"
    );
    let said = switchboard_providers::Profile {
        vision: Some(true),
        context_tokens: Some(8192),
        ..Default::default()
    };
    models
        .set_model_profile("standin", "model-test", Some(said))
        .await
        .unwrap();
    let listed = models.providers().await.providers;
    assert_eq!(listed[0].profiles["model-test"], said);
    models
        .set_model_profile("standin", "model-test", None)
        .await
        .unwrap();
    assert!(models.providers().await.providers[0].profiles.is_empty());
}
