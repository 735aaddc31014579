//! The chat service: the built-in conversations with a model, and the drafts of servers'
//! sampling requests written by the person's model. Conversations are kept in
//! `conversations.sqlite` beside the audit trail, with which tools each one's model sees; a
//! message sent to a configured model runs in the background (one Stop per running
//! conversation), told to the window as [`Update::Chat`] and [`Update::ChatMessage`], its
//! tool calls through the gate and listed with the calls under way.
//!
//! It holds the parts of the host it works with (the gate, the catalog, the models'
//! service for the providers' clients, the explorer's service for the calls under way) and
//! reaches the rest through one port ([`ChatHost`]): the configuration and its changes, the
//! tools turned off, the running servers' sessions and the window's updates. The desk
//! implements the port; a test can, in memory.

mod export;
mod host;
mod runs;
mod sampling;
mod shown;
mod views;

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;

use switchboard_core::sqlite_file::Book;
use switchboard_mcp::client::Client;

use crate::file_notice::FileNotice;
use switchboard_mcp::transport::BoxFuture;
use switchboard_mcp::types::Task;
use switchboard_mcp::types::apps;
use switchboard_mcp::types::skills::Skill;
use tokio_util::sync::CancellationToken;

use crate::explorer::Explorer;
use crate::keeps::{Keeping, Keeps};
use crate::models::{Models, ModelsError};
use crate::tasks::Began;
use switchboard_chat::{
    Chat, ConversationError, ConversationSettings, ConversationSummary, Conversations, Enablement,
    Reach, Servers, Toolset,
};
use switchboard_core::approvals::AnswerError;
use switchboard_core::catalog::{Catalog, CatalogTool};
use switchboard_core::config::ConfigError;
use switchboard_core::decisions::Origin;
use switchboard_core::gate::Gate;
use switchboard_core::sampling::budget::Budgets;
use switchboard_core::skills;

pub use export::{ExportFormat, ExportWords, Exported};
pub use host::{ChatChange, ChatHost};
pub use runs::Asking;
pub use shown::{
    Attachment, ChatServerTools, ChatTool, ChatTools, Composed, ConversationView, LeftOut,
    LeftOutTool, PromptUse, Role, ShownMessage, ShownPart, ShownSpent, SpentTotal,
};
use shown::{chat_tools, price_of, shown_message, shown_spent};

/// What a conversation is called until its first message names it, in English (its
/// export); it is kept untitled (blank), and earlier versions kept this.
pub const NEW_TITLE: &str = "New conversation";

#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    #[error("no model is configured: add a model on the Models page")]
    NoModel,
    #[error(
        "the provider {0:?} has no model to ask: type one, or set its default on the Models page"
    )]
    NoModelOf(String),
    #[error(
        "the provider {:?} has no model {:?}: add it on the Models page", .0.provider, .0.model
    )]
    NoSuchModel(switchboard_core::sampling::Chosen),
    #[error("the model is still answering in this conversation: wait, or press Stop")]
    ChatRunning,
    #[error("the draft was stopped")]
    DraftStopped,
    #[error(transparent)]
    Conversation(#[from] ConversationError),
    /// What the provider answered, or why it could not be reached, in its own words.
    #[error(transparent)]
    Provider(#[from] switchboard_providers::Error),
    /// The providers as configured (one not there, its key gone).
    #[error(transparent)]
    Models(#[from] ModelsError),
    /// What was asked cannot be done as it is (an empty message, a prompt or resource that
    /// could not be got, a reviewed request that does not read); nothing was lost.
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    Answer(#[from] AnswerError),
    #[error("there is no server named {0:?}")]
    NoServer(String),
    #[error("{0} is not running")]
    NotRunning(String),
    #[error("the configuration file must be fixed first: {0}")]
    BrokenConfig(switchboard_core::config::ConfigProblem),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("Switchboard is shutting down")]
    ShuttingDown,
}

/// The chat's own state: the conversations kept, the runs going on in them, and what each
/// server's replies without review spent.
struct State {
    /// `None` when the file could not be opened at all (the notice says why).
    conversations: Option<Conversations>,
    /// The Stop of each conversation whose run goes on.
    runs: Mutex<HashMap<i64, CancellationToken>>,
    /// The Stop of each sampling request whose reply a model drafts, by its id.
    drafts: Mutex<HashMap<u64, CancellationToken>>,
    budgets: Budgets,
    /// What each conversation's views last told its model, by server, until it is sent.
    app_contexts: Mutex<
        HashMap<i64, std::collections::BTreeMap<String, Vec<switchboard_providers::UserContent>>>,
    >,
}

/// Cheap to clone; every clone is the same service.
#[derive(Clone)]
pub struct Chats {
    state: Arc<State>,
    gate: Gate,
    catalog: Catalog,
    models: Models,
    explorer: Explorer,
    host: Arc<dyn ChatHost>,
    _keeps: Keeps,
}

/// Opens the conversations' file; what the person should know about it goes to `notices`.
/// `None` when it cannot be opened at all: conversations are not kept.
pub fn open_conversations(
    path: &std::path::Path,
    notices: &mut Vec<FileNotice>,
) -> Option<Conversations> {
    match Conversations::open(path) {
        Ok(conversations) => {
            notices.extend(conversations.moved_aside().map(FileNotice::from));
            Some(conversations)
        }
        Err(e) => {
            let notice = FileNotice::NotKept {
                book: Book::Conversations,
                error: e.to_string(),
            };
            tracing::error!("{notice}");
            notices.push(notice);
            None
        }
    }
}

impl Keeping for Chats {
    fn keeps(&mut self) -> &mut Keeps {
        &mut self._keeps
    }
}

impl crate::EditError for ChatError {
    fn broken(problem: switchboard_core::config::ConfigProblem) -> Self {
        Self::BrokenConfig(problem)
    }
}

impl Chats {
    /// The service over the conversations kept (none: not kept), the gate its models'
    /// tool calls pass, the catalog they are offered from, the models' service that makes
    /// the providers' clients and the explorer's service that lists the calls under way.
    pub fn new(
        conversations: Option<Conversations>,
        gate: Gate,
        catalog: Catalog,
        models: Models,
        explorer: Explorer,
        host: Arc<dyn ChatHost>,
    ) -> Self {
        Self {
            state: Arc::new(State {
                conversations,
                runs: Mutex::default(),
                drafts: Mutex::default(),
                budgets: Budgets::default(),
                app_contexts: Mutex::default(),
            }),
            gate,
            catalog,
            models,
            explorer,
            host,
            _keeps: Keeps::default(),
        }
    }

    /// This service keeping nothing alive: what a run in the background holds, so that it
    /// never holds the desk.
    fn detached(&self) -> Self {
        Self {
            _keeps: Keeps::default(),
            ..self.clone()
        }
    }

    fn client(&self, server: &str) -> Result<Client, ChatError> {
        self.host
            .client(server)
            .ok_or_else(|| ChatError::NotRunning(server.to_owned()))
    }

    fn conversations_kept(&self) -> Result<&Conversations, ChatError> {
        self.state
            .conversations
            .as_ref()
            .ok_or(ChatError::Conversation(ConversationError::NotKept))
    }

    /// The catalog's tools a model may be offered: all but those the person turned off and
    /// those only their views may call.
    fn offered(&self) -> Vec<CatalogTool> {
        let off = self.host.tools_off();
        let mut tools = self.catalog.tools();
        tools.retain(|tool| {
            !off.holds(&tool.server, &tool.tool.name) && apps::offered_to_models(&tool.tool)
        });
        tools
    }

    fn agent(&self) -> Result<Chat, ChatError> {
        let servers = ChatServers {
            chats: self.detached(),
        };
        Ok(Chat::new(self.gate.clone(), Arc::new(servers))
            .with_conversations(self.conversations_kept()?.clone()))
    }
}

/// The running servers as the model reaches them through the chat service.
struct ChatServers {
    chats: Chats,
}

impl Servers for ChatServers {
    fn tools(&self) -> Vec<CatalogTool> {
        self.chats.offered()
    }

    fn readable(&self) -> switchboard_chat::reading::Readable {
        switchboard_chat::readable(&self.chats.catalog)
    }

    fn reach(&self, server: &str) -> Option<Reach> {
        let client = self.chats.host.client(server)?;
        let config = self.chats.host.server(server)?;
        Some(Reach::of(client, &config))
    }

    fn task_seen<'a>(
        &'a self,
        server: &'a str,
        tool: &'a str,
        asker: &'a Origin,
        task: &'a Task,
    ) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let asked_by = asker.to_string();
            let began = Began {
                server,
                tool,
                asked_by: &asked_by,
            };
            self.chats.explorer.call_task_seen(&began, task).await;
        })
    }

    fn task_ended<'a>(
        &'a self,
        server: &'a str,
        task_id: &'a str,
        outcome: Result<serde_json::Value, String>,
    ) -> BoxFuture<'a, ()> {
        Box::pin(
            self.chats
                .explorer
                .call_task_ended(server, task_id, outcome),
        )
    }

    fn skill_allowed(&self, server: &str, skill: &Skill) -> bool {
        let Some(now) = self.skill_pin(server, skill) else {
            return false;
        };
        skills::allowed(&self.chats.host.config().settings.trusted_skills, &now)
    }

    fn allow_skill<'a>(&'a self, server: &'a str, skill: &'a Skill) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let Some(pin) = self.skill_pin(server, skill) else {
                return;
            };
            let change: ChatChange = Box::new(move |config| {
                skills::pinned(&mut config.settings.trusted_skills, pin);
                Ok(())
            });
            if let Err(e) = self.chats.host.edit(change).await {
                tracing::warn!("the skill allowed is not pinned: {e}");
            }
        })
    }
}

impl ChatServers {
    /// `skill` of `server` as it is now, to be pinned or compared with the pins.
    fn skill_pin(&self, server: &str, skill: &Skill) -> Option<skills::SkillPin> {
        let config = self.chats.host.server(server)?;
        skills::SkillPin::of(server, config.identity(), skill)
    }
}

impl Chats {
    /// Every conversation, the one changed last first; with a query, those whose title or
    /// text holds every word of it.
    pub async fn conversations(
        &self,
        query: Option<String>,
    ) -> Result<Vec<ConversationSummary>, ChatError> {
        let kept = self.conversations_kept()?;
        Ok(match query.as_deref().map(str::trim) {
            Some(query) if !query.is_empty() => kept.search(query).await?,
            _ => kept.list().await?,
        })
    }

    /// A new conversation; without a title it is untitled (blank: a face names it in its
    /// own words) until its first message names it.
    pub async fn create_conversation(
        &self,
        title: Option<String>,
    ) -> Result<ConversationSummary, ChatError> {
        let title = title.as_deref().map(str::trim).unwrap_or_default();
        Ok(self.conversations_kept()?.create(title).await?)
    }

    pub async fn rename_conversation(&self, id: i64, title: &str) -> Result<(), ChatError> {
        let title = title.trim();
        if title.is_empty() {
            return Err(ChatError::BadRequest("a conversation needs a title".into()));
        }
        Ok(self.conversations_kept()?.rename(id, title).await?)
    }

    /// Deletes a conversation, stopping its run first; [`Self::restore_conversation`]
    /// takes it back until Switchboard next starts.
    pub async fn delete_conversation(&self, id: i64) -> Result<(), ChatError> {
        self.stop_chat(id);
        Ok(self.conversations_kept()?.delete(id).await?)
    }

    pub async fn restore_conversation(&self, id: i64) -> Result<(), ChatError> {
        Ok(self.conversations_kept()?.restore(id).await?)
    }

    /// How the conversation asks its model from now on: its provider and model, system
    /// prompt, longest answer and most rounds (each unset: the defaults).
    pub async fn set_conversation_settings(
        &self,
        id: i64,
        settings: ConversationSettings,
    ) -> Result<(), ChatError> {
        if settings.max_tokens == Some(0) {
            return Err(ChatError::BadRequest(
                "an answer needs at least one token".into(),
            ));
        }
        if settings.max_rounds == Some(0) {
            return Err(ChatError::BadRequest(
                "the model must be asked at least once a run".into(),
            ));
        }
        if let Some(provider) = &settings.provider
            && !self.host.config().providers.contains_key(provider)
        {
            return Err(ModelsError::NoProvider(provider.clone()).into());
        }
        let settings = ConversationSettings {
            system: settings.system.filter(|s| !s.trim().is_empty()),
            ..settings
        };
        Ok(self
            .conversations_kept()?
            .set_settings(id, settings)
            .await?)
    }

    /// The conversation `id` written out in `format` (a Markdown one in `words`), for the
    /// person to keep elsewhere.
    pub async fn export_conversation(
        &self,
        id: i64,
        format: ExportFormat,
        words: &ExportWords,
    ) -> Result<Exported, ChatError> {
        Ok(export::export(&self.conversation(id).await?, format, words))
    }

    pub async fn conversation(&self, id: i64) -> Result<ConversationView, ChatError> {
        let opened = self.conversations_kept()?.get(id).await?;
        let names = Toolset::new(self.catalog.tools(), &Enablement::default());
        let config = self.host.config();
        let provider = opened.settings.provider.as_deref();
        let messages: Vec<ShownMessage> = opened
            .messages
            .iter()
            .zip(&opened.spent)
            .map(|(m, spent)| ShownMessage {
                spent: spent
                    .as_ref()
                    .map(|s| shown_spent(s, price_of(&config, provider, &s.model))),
                ..shown_message(m, &names)
            })
            .collect();
        Ok(ConversationView {
            summary: opened.summary,
            spent: SpentTotal::of(messages.iter().filter_map(|m| m.spent.as_ref())),
            messages,
            running: self.state.runs.lock().contains_key(&id),
            settings: opened.settings,
        })
    }

    /// Past how many tools a model searches them (`settings.toolSearchAbove`; 0: never).
    fn search_above(&self) -> Option<usize> {
        let above = self.host.config().settings.tool_search_above;
        (above > 0).then_some(above as usize)
    }

    /// The running servers' tools, and which of them the conversation's model sees.
    pub async fn chat_tools(&self, id: i64) -> Result<ChatTools, ChatError> {
        let enablement = self.conversations_kept()?.get(id).await?.enablement;
        Ok(chat_tools(self.offered(), &enablement, self.search_above()))
    }

    /// Lets the conversation's model see a server's tools (`tool` None) or one tool, or not.
    pub async fn set_chat_tool(
        &self,
        id: i64,
        server: &str,
        tool: Option<&str>,
        on: bool,
    ) -> Result<ChatTools, ChatError> {
        let kept = self.conversations_kept()?;
        let mut enablement = kept.get(id).await?.enablement;
        match tool {
            Some(tool) => enablement.set_tool(server, tool, on),
            None => enablement.set_server(server, on),
        }
        kept.set_enablement(id, enablement.clone()).await?;
        Ok(chat_tools(self.offered(), &enablement, self.search_above()))
    }
}
