//! The chat service on its own, in process: the real gate (its broker, its audit trail in a
//! file of the test's), the real catalog, the conversations kept in a file of the test's,
//! the models' and the explorer's services over the same port, played by a host held in
//! memory. No server process, no window, and no model answers: what the service decides
//! itself is checked here (a conversation's title, what is kept and what is not when a
//! message is refused, one run at a time in a conversation, which tools a model is
//! offered, the permissions to answer sampling without review).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use serde_json::json;
use switchboard_chat::{ChatEvent, ConversationError};
use switchboard_core::approvals::{AnswerError, Broker};
use switchboard_core::audit::{AuditLog, Retention};
use switchboard_core::catalog::{Catalog, Offer};
use switchboard_core::config::{Config, HostSettings, ServerConfig};
use switchboard_core::gate::Gate;
use switchboard_core::roots::Roots;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::ServerState;
use switchboard_desk::chat::{ChatChange, ChatHost, open_conversations};
use switchboard_desk::explorer::{Calls, ExplorerHost};
use switchboard_desk::models::{ModelsChange, ModelsHost};
use switchboard_desk::{ChatError, Chats, Explorer, Models, ModelsError, TurnedOff, Update};
use switchboard_mcp::client::Client;
use switchboard_mcp::transport::BoxFuture;
use switchboard_mcp::types::Tool;
use tokio::net::TcpListener;

use crate::common::eventually;

/// The rest of the host, in memory: the configuration, and what the window was told. No
/// server runs.
#[derive(Default)]
struct Memory {
    config: Mutex<Config>,
    announced: Mutex<Vec<Update>>,
}

impl Memory {
    fn now(&self) -> Config {
        self.config.lock().clone()
    }
    /// Changed on a copy, kept only when the change is accepted: as the file is.
    fn change<E>(&self, change: impl FnOnce(&mut Config) -> Result<(), E>) -> Result<(), E> {
        let mut config = self.now();
        change(&mut config).map(|()| *self.config.lock() = config)
    }
}

impl ChatHost for Memory {
    fn config(&self) -> Config {
        self.now()
    }
    fn server(&self, name: &str) -> Option<ServerConfig> {
        self.config.lock().servers.get(name).cloned()
    }
    fn edit(&self, change: ChatChange) -> BoxFuture<'_, Result<(), ChatError>> {
        let result = self.change(change);
        Box::pin(async move { result })
    }
    fn tools_off(&self) -> TurnedOff {
        TurnedOff::of(&self.config.lock())
    }
    fn client(&self, _: &str) -> Option<Client> {
        None
    }
    fn announce(&self, update: Update) {
        self.announced.lock().push(update);
    }
}

impl ModelsHost for Memory {
    fn config(&self) -> Config {
        self.now()
    }
    fn config_problem(&self) -> Option<switchboard_core::config::ConfigProblem> {
        None
    }
    fn edit(&self, change: ModelsChange) -> BoxFuture<'_, Result<(), ModelsError>> {
        let result = self.change(change);
        Box::pin(async move { result })
    }
}

impl ExplorerHost for Memory {
    fn server(&self, name: &str) -> Option<ServerConfig> {
        self.config.lock().servers.get(name).cloned()
    }
    fn tools_off(&self) -> TurnedOff {
        TurnedOff::of(&self.config.lock())
    }
    fn running(&self) -> BTreeMap<String, ServerState> {
        BTreeMap::new()
    }
    fn client(&self, _: &str) -> Option<Client> {
        None
    }
    fn announce(&self, update: Update) {
        self.announced.lock().push(update);
    }
}

struct World {
    chats: Chats,
    memory: Arc<Memory>,
    gate: Gate,
    catalog: Catalog,
    dir: tempfile::TempDir,
}

/// A server "notes" configured with its tool `wipe` turned off, its three tools in the
/// catalog; no provider.
fn configured() -> Config {
    let mut config = Config::default();
    let notes: ServerConfig =
        serde_json::from_value(json!({"command": "notes", "disabledTools": ["wipe"]}))
            .expect("a server");
    config.servers.insert("notes".into(), notes);
    config
}

fn tools() -> Vec<Tool> {
    serde_json::from_value(json!([
        {"name": "add_note", "inputSchema": {"type": "object"}},
        {"name": "list_notes", "inputSchema": {"type": "object"}},
        {"name": "wipe", "inputSchema": {"type": "object"}},
    ]))
    .expect("tools")
}

fn conversations_in(dir: &Path) -> PathBuf {
    dir.join("conversations.sqlite")
}

fn world() -> World {
    let dir = tempfile::tempdir().expect("a folder");
    let memory = Arc::new(Memory {
        config: Mutex::new(configured()),
        ..Memory::default()
    });
    let catalog = Catalog::default();
    catalog.set(
        "notes",
        Offer {
            tools: tools(),
            ..Offer::default()
        },
    );
    let audit = Arc::new(
        AuditLog::open(&dir.path().join("audit.sqlite"), Retention::default())
            .expect("an audit trail"),
    );
    let gate = Gate::new(
        Broker::new(Duration::from_secs(120), 8),
        audit,
        catalog.clone(),
        &HostSettings::default(),
        None,
    );
    let chats = chats_over(&dir, &memory, &gate, &catalog);
    World {
        chats,
        memory,
        gate,
        catalog,
        dir,
    }
}

/// A chat service over the conversations kept in `dir`.
fn chats_over(
    dir: &tempfile::TempDir,
    memory: &Arc<Memory>,
    gate: &Gate,
    catalog: &Catalog,
) -> Chats {
    let mut notices = Vec::new();
    let conversations = open_conversations(&conversations_in(dir.path()), &mut notices);
    assert!(notices.is_empty(), "{notices:?}");
    // No provider here has a key: the keyring is never asked.
    let models = Models::new(Secrets::new("switchboard-chat-service"), memory.clone());
    let explorer = Explorer::new(
        Arc::new(Calls::default()),
        gate.clone(),
        catalog.clone(),
        Roots::default(),
        memory.clone(),
    );
    Chats::new(
        conversations,
        gate.clone(),
        catalog.clone(),
        models,
        explorer,
        memory.clone(),
    )
}

/// A provider that takes every request and never answers: a run sent to it goes on
/// until it is stopped. Its base URL.
async fn silent_provider() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}/v1", listener.local_addr().expect("its address"));
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    url
}

fn add_provider(memory: &Memory, name: &str, base_url: &str, models: &[&str]) {
    let entry = serde_json::from_value(json!({
        "protocol": "openai", "baseUrl": base_url, "models": models,
    }))
    .expect("a provider");
    memory.config.lock().providers.insert(name.into(), entry);
}

#[tokio::test]
async fn a_conversation_is_created_renamed_found_kept_and_deleted() {
    let world = world();
    let chats = &world.chats;
    let blank = chats.create_conversation(Some("  ".into())).await.unwrap();
    assert_eq!(blank.title, "", "a blank title leaves it untitled");
    let named = chats
        .create_conversation(Some(" Trip to Lima ".into()))
        .await
        .unwrap();
    assert_eq!(named.title, "Trip to Lima", "trimmed");

    let refused = chats.rename_conversation(blank.id, " ").await;
    assert!(
        matches!(&refused, Err(ChatError::BadRequest(why)) if why.contains("title")),
        "{refused:?}"
    );
    chats
        .rename_conversation(blank.id, "Groceries")
        .await
        .unwrap();
    let missing = chats.rename_conversation(999, "Nothing").await;
    assert!(
        matches!(
            missing,
            Err(ChatError::Conversation(ConversationError::NotFound(999)))
        ),
        "{missing:?}"
    );

    let found = chats.conversations(Some("lima".into())).await.unwrap();
    assert_eq!(
        found.iter().map(|c| c.id).collect::<Vec<_>>(),
        [named.id],
        "found by a word of its title"
    );

    // Kept: another service over the same file finds both.
    let again = chats_over(&world.dir, &world.memory, &world.gate, &world.catalog);
    let mut titles: Vec<String> = again
        .conversations(None)
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.title)
        .collect();
    titles.sort();
    assert_eq!(titles, ["Groceries", "Trip to Lima"]);

    again.delete_conversation(named.id).await.unwrap();
    let left = chats.conversations(None).await.unwrap();
    assert_eq!(left.iter().map(|c| c.id).collect::<Vec<_>>(), [blank.id]);
    let gone = chats.conversation(named.id).await;
    assert!(
        matches!(
            gone,
            Err(ChatError::Conversation(ConversationError::NotFound(_)))
        ),
        "{gone:?}"
    );
}

#[tokio::test]
async fn a_message_with_no_model_to_ask_is_refused_and_nothing_is_kept() {
    let world = world();
    let chats = &world.chats;
    let chat = chats.create_conversation(None).await.unwrap();

    let sent = chats
        .send_message(chat.id, "Hello".into(), None, None)
        .await;
    assert!(matches!(sent, Err(ChatError::NoModel)), "{sent:?}");
    let empty = chats.send_message(chat.id, "  ".into(), None, None).await;
    assert!(matches!(empty, Err(ChatError::BadRequest(_))), "{empty:?}");

    // A provider with no model to ask, and one that is not configured.
    add_provider(&world.memory, "bare", "http://127.0.0.1:9/v1", &[]);
    let sent = chats
        .send_message(chat.id, "Hello".into(), None, None)
        .await;
    assert!(
        matches!(&sent, Err(ChatError::NoModelOf(provider)) if provider == "bare"),
        "{sent:?}"
    );
    let sent = chats
        .send_message(chat.id, "Hello".into(), Some("elsewhere".into()), None)
        .await;
    assert!(
        matches!(&sent, Err(ChatError::Models(ModelsError::NoProvider(p))) if p == "elsewhere"),
        "{sent:?}"
    );

    let view = chats.conversation(chat.id).await.unwrap();
    assert!(view.messages.is_empty(), "{:?}", view.messages);
    assert_eq!(view.summary.title, "", "not named by a message refused");
    assert!(!view.running);
    assert!(world.memory.announced.lock().is_empty(), "nothing was told");
}

#[tokio::test]
async fn a_conversation_runs_one_message_at_a_time_until_stopped() {
    let world = world();
    let chats = &world.chats;
    add_provider(&world.memory, "silent", &silent_provider().await, &["m"]);
    let chat = chats.create_conversation(None).await.unwrap();
    let other = chats.create_conversation(None).await.unwrap();
    assert!(!chats.stop_chat(chat.id), "nothing to stop yet");

    chats
        .send_message(chat.id, "Plan a trip to Lima".into(), None, None)
        .await
        .unwrap();
    let view = chats.conversation(chat.id).await.unwrap();
    assert!(view.running);
    assert_eq!(
        view.summary.title, "Plan a trip to Lima",
        "named by its first message"
    );

    let again = chats
        .send_message(chat.id, "And Cusco".into(), None, None)
        .await;
    assert!(matches!(again, Err(ChatError::ChatRunning)), "{again:?}");
    let deleted = chats.delete_conversation(other.id).await;
    assert!(
        deleted.is_ok(),
        "another conversation is not held: {deleted:?}"
    );

    assert!(chats.stop_chat(chat.id));
    let memory = world.memory.clone();
    assert!(
        eventually(|| memory.announced.lock().iter().any(|u| matches!(
            u,
            Update::Chat { conversation, event: ChatEvent::Finished { .. } | ChatEvent::Error { .. } }
                if *conversation == chat.id
        )))
        .await,
        "the run ends once stopped"
    );
    let mut ended = false;
    for _ in 0..500 {
        if !chats.conversation(chat.id).await.unwrap().running {
            ended = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(ended, "the conversation is free again");
    assert!(!chats.stop_chat(chat.id), "nothing left to stop");
    let texts: Vec<String> = chats
        .conversation(chat.id)
        .await
        .unwrap()
        .messages
        .iter()
        .flat_map(|m| m.parts.iter())
        .filter_map(|p| match p {
            switchboard_desk::ShownPart::Text { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(
        !texts.iter().any(|t| t.contains("Cusco")),
        "the message refused is not kept: {texts:?}"
    );
}

#[tokio::test]
async fn a_model_is_offered_only_the_tools_left_on() {
    let world = world();
    let chats = &world.chats;
    let chat = chats.create_conversation(None).await.unwrap();

    let tools = chats.chat_tools(chat.id).await.unwrap();
    let names: Vec<&str> = tools.servers[0]
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        names,
        ["add_note", "list_notes"],
        "a tool turned off for everyone is not offered"
    );
    assert_eq!(tools.offered, 2);

    let tools = chats
        .set_chat_tool(chat.id, "notes", Some("add_note"), false)
        .await
        .unwrap();
    assert_eq!(tools.offered, 1);
    let kept = chats.chat_tools(chat.id).await.unwrap();
    assert_eq!(kept, tools, "kept with the conversation");
    assert!(!kept.servers[0].tools[0].on);

    let tools = chats
        .set_chat_tool(chat.id, "notes", None, false)
        .await
        .unwrap();
    assert_eq!(tools.offered, 0);
    assert!(!tools.servers[0].on);
    let other = chats.create_conversation(None).await.unwrap();
    assert_eq!(
        chats.chat_tools(other.id).await.unwrap().offered,
        2,
        "each conversation has its own"
    );
}

#[tokio::test]
async fn sampling_goes_without_review_only_by_a_model_configured_for_a_server_configured() {
    let world = world();
    let chats = &world.chats;
    add_provider(&world.memory, "local", "http://127.0.0.1:9/v1", &["small"]);

    let refused = chats
        .allow_sampling_without_review("nowhere", "local", "small")
        .await;
    assert!(
        matches!(&refused, Err(ChatError::NoServer(s)) if s == "nowhere"),
        "{refused:?}"
    );
    let refused = chats
        .allow_sampling_without_review("notes", "local", "large")
        .await;
    assert!(
        matches!(&refused, Err(ChatError::NoSuchModel(chosen)) if chosen.model == "large"),
        "{refused:?}"
    );
    let refused = chats
        .allow_sampling_without_review("notes", "remote", "small")
        .await;
    assert!(
        matches!(refused, Err(ChatError::Models(ModelsError::NoProvider(_)))),
        "{refused:?}"
    );
    assert!(world.memory.now().settings.sampling_rules.is_empty());
    assert!(chats.sampling_rules().await.is_empty());

    chats
        .allow_sampling_without_review("notes", "local", "small")
        .await
        .unwrap();
    let rules = chats.sampling_rules().await;
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0].server, "notes");
    assert_eq!(rules[0].model.as_deref(), Some("small"));
    assert!(rules[0].holds);
    assert_eq!(rules[0].uses, 0);

    // Once the model is gone, the permission no longer holds.
    world.memory.config.lock().providers.clear();
    assert!(!chats.sampling_rules().await[0].holds);

    chats.revoke_sampling_rule("notes").await.unwrap();
    assert!(chats.sampling_rules().await.is_empty());
    assert!(world.memory.now().settings.sampling_rules.is_empty());

    let drafted = chats.draft_sampling(7, "notes", None).await;
    assert!(
        matches!(drafted, Err(ChatError::Answer(AnswerError::NotPending(7)))),
        "{drafted:?}"
    );
}
