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
mod sampling;
mod shown;

use parking_lot::Mutex;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use switchboard_mcp::client::Client;
use switchboard_providers::{Message, UserContent};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::Update;
use crate::explorer::{Explorer, ProgressItem};
use crate::keeps::{Keeping, Keeps};
use crate::models::{Models, ModelsError};
use switchboard_chat::context;
use switchboard_chat::{
    Chat, ChatEvent, ChatSettings, ConversationError, ConversationSummary, Conversations,
    Enablement, Outcome, Reach, Servers, Toolset,
};
use switchboard_core::approvals::{AnswerError, Serving};
use switchboard_core::catalog::{Catalog, CatalogTool};
use switchboard_core::clock::now_ms;
use switchboard_core::config::ConfigError;
use switchboard_core::decisions::Origin;
use switchboard_core::gate::Gate;
use switchboard_core::sampling::budget::Budgets;

pub use export::{ExportFormat, Exported};
pub use host::{ChatChange, ChatHost};
pub use shown::{
    Attachment, ChatServerTools, ChatTool, ChatTools, Composed, ConversationView, PromptUse, Role,
    ShownMessage, ShownPart,
};
use shown::{chat_tools, shown_message};

/// The title a conversation has until its first message names it.
pub const NEW_TITLE: &str = "New conversation";
/// How much of the first message becomes the title.
const TITLE_CHARS: usize = 48;

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
    BrokenConfig(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("Switchboard is shutting down")]
    ShuttingDown,
}

/// Which model a message goes to, and how long its answer may be; what is not said, the
/// defaults.
#[derive(Debug, Clone, Default)]
pub struct Asking {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub max_tokens: Option<u32>,
}

/// A run got ready: the conversation's loop, the model's client and settings, the messages
/// the person adds, the conversation's title, and its Stop.
struct Begun {
    agent: Chat,
    client: switchboard_providers::Client,
    settings: ChatSettings,
    added: Vec<Message>,
    title: String,
    stop: CancellationToken,
}

/// A new conversation's title, from its first message.
fn title_of(text: &str) -> String {
    let words: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut title: String = words.chars().take(TITLE_CHARS).collect();
    if words.chars().count() > TITLE_CHARS {
        title.push('…');
    }
    title
}

/// The chat's own state: the conversations kept, the runs going on in them, and what each
/// server's replies without review spent.
struct State {
    /// `None` when the file could not be opened at all (the notice says why).
    conversations: Option<Conversations>,
    /// The Stop of each conversation whose run goes on.
    runs: Mutex<HashMap<i64, CancellationToken>>,
    budgets: Budgets,
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
    notices: &mut Vec<String>,
) -> Option<Conversations> {
    match Conversations::open(path) {
        Ok(conversations) => {
            notices.extend(conversations.moved_aside().map(ToString::to_string));
            Some(conversations)
        }
        Err(e) => {
            let notice = format!("{e}; conversations are not kept");
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
    fn broken(problem: String) -> Self {
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
                budgets: Budgets::default(),
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

    /// The catalog's tools a model may be offered: all but those the person turned off.
    fn offered(&self) -> Vec<CatalogTool> {
        let off = self.host.tools_off();
        let mut tools = self.catalog.tools();
        tools.retain(|tool| !off.holds(&tool.server, &tool.tool.name));
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

    fn reach(&self, server: &str) -> Option<Reach> {
        let client = self.chats.host.client(server)?;
        let config = self.chats.host.server(server)?;
        Some(Reach::of(client, &config))
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

    /// A new conversation; a blank title is [`NEW_TITLE`], until the first message.
    pub async fn create_conversation(
        &self,
        title: Option<String>,
    ) -> Result<ConversationSummary, ChatError> {
        let title = title
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| NEW_TITLE.to_owned());
        Ok(self.conversations_kept()?.create(&title).await?)
    }

    pub async fn rename_conversation(&self, id: i64, title: &str) -> Result<(), ChatError> {
        let title = title.trim();
        if title.is_empty() {
            return Err(ChatError::BadRequest("a conversation needs a title".into()));
        }
        Ok(self.conversations_kept()?.rename(id, title).await?)
    }

    /// Deletes a conversation, stopping its run first.
    pub async fn delete_conversation(&self, id: i64) -> Result<(), ChatError> {
        self.stop_chat(id);
        Ok(self.conversations_kept()?.delete(id).await?)
    }

    /// The conversation `id` written out in `format`, for the person to keep elsewhere.
    pub async fn export_conversation(
        &self,
        id: i64,
        format: ExportFormat,
    ) -> Result<Exported, ChatError> {
        Ok(export::export(&self.conversation(id).await?, format))
    }

    pub async fn conversation(&self, id: i64) -> Result<ConversationView, ChatError> {
        let opened = self.conversations_kept()?.get(id).await?;
        let names = Toolset::new(self.catalog.tools(), &Enablement::default());
        Ok(ConversationView {
            summary: opened.summary,
            messages: opened
                .messages
                .iter()
                .map(|m| shown_message(m, &names))
                .collect(),
            running: self.state.runs.lock().contains_key(&id),
        })
    }

    /// The running servers' tools, and which of them the conversation's model sees.
    pub async fn chat_tools(&self, id: i64) -> Result<ChatTools, ChatError> {
        let enablement = self.conversations_kept()?.get(id).await?.enablement;
        Ok(chat_tools(self.offered(), &enablement))
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
        Ok(chat_tools(self.offered(), &enablement))
    }

    /// The provider and model a message goes to: the ones given, else the defaults.
    async fn chosen_model(
        &self,
        provider: Option<String>,
        model: Option<String>,
    ) -> Result<(switchboard_providers::Client, String), ChatError> {
        let config = self.host.config();
        let provider = provider
            .filter(|p| !p.is_empty())
            .or(config.settings.default_provider.clone())
            .or_else(|| config.providers.keys().next().cloned())
            .ok_or(ChatError::NoModel)?;
        let entry = config
            .providers
            .get(&provider)
            .ok_or_else(|| ModelsError::NoProvider(provider.clone()))?;
        let model = model
            .filter(|m| !m.trim().is_empty())
            .or(entry.default_model.clone())
            .or_else(|| entry.models.first().cloned())
            .ok_or_else(|| ChatError::NoModelOf(provider.clone()))?;
        Ok((self.models.provider_client(&provider).await?, model))
    }

    /// Sends the person's message in a conversation to a model (the given provider and
    /// model, else the defaults) and returns once the run has begun; the run goes on in
    /// the background, told as updates, until it ends or [`Self::stop_chat`].
    pub async fn send_message(
        &self,
        id: i64,
        text: String,
        provider: Option<String>,
        model: Option<String>,
    ) -> Result<(), ChatError> {
        let composed = Composed {
            text,
            attachments: Vec::new(),
            prompt: None,
        };
        self.send_composed(id, composed, provider, model).await
    }

    /// [`Self::send_message`] with context: the prompt used as a slash command is got
    /// (`prompts/get`) and its messages come first, in their roles; each attached
    /// resource is read (`resources/read`) and goes, delimited and bounded, before the
    /// person's text in their message. A prompt or resource that cannot be got stops the
    /// send, and nothing is added to the conversation.
    pub async fn send_composed(
        &self,
        id: i64,
        composed: Composed,
        provider: Option<String>,
        model: Option<String>,
    ) -> Result<(), ChatError> {
        let asking = Asking {
            provider,
            model,
            max_tokens: None,
        };
        let begun = self.begin(id, composed, asking).await?;
        tokio::spawn(self.detached().go(id, begun, None));
        Ok(())
    }

    /// [`Self::send_composed`] run to its end here, as the command line does: each event
    /// also goes to `events` (the window is told as ever), and the outcome comes back.
    pub async fn converse(
        &self,
        id: i64,
        composed: Composed,
        asking: Asking,
        events: mpsc::Sender<ChatEvent>,
    ) -> Result<Outcome, ChatError> {
        let begun = self.begin(id, composed, asking).await?;
        Ok(self.detached().go(id, begun, Some(events)).await)
    }

    /// Everything a run needs, got and checked before it begins: nothing is added to the
    /// conversation when something is missing.
    async fn begin(&self, id: i64, composed: Composed, asking: Asking) -> Result<Begun, ChatError> {
        let Composed {
            text,
            attachments,
            prompt,
        } = composed;
        if text.trim().is_empty() && attachments.is_empty() && prompt.is_none() {
            return Err(ChatError::BadRequest("the message is empty".into()));
        }
        if asking.max_tokens == Some(0) {
            return Err(ChatError::BadRequest(
                "an answer needs at least one token".into(),
            ));
        }
        let (client, model) = self.chosen_model(asking.provider, asking.model).await?;
        let mut added: Vec<Message> = Vec::new();
        if let Some(used) = &prompt {
            let got = self
                .client(&used.server)?
                .get_prompt(
                    &used.name,
                    used.arguments
                        .clone()
                        .into_iter()
                        .map(|(k, v)| (k, v.into()))
                        .collect(),
                )
                .await
                .map_err(|e| {
                    ChatError::BadRequest(format!(
                        "the prompt {} of {} could not be got: {e}",
                        used.name, used.server
                    ))
                })?;
            added = context::prompt_messages(&used.server, &got);
        }
        let mut own: Vec<UserContent> = Vec::new();
        for attachment in &attachments {
            let client = self.client(&attachment.server)?;
            let read = client
                .read_resource(&attachment.uri, client.request_options())
                .await
                .map_err(|e| {
                    ChatError::BadRequest(format!(
                        "{} of {} could not be read: {e}",
                        attachment.uri, attachment.server
                    ))
                })?;
            own.extend(context::resource_parts(
                &attachment.server,
                &attachment.uri,
                &read,
            ));
        }
        if !text.trim().is_empty() {
            own.push(UserContent::Text(text.clone()));
        }
        if !own.is_empty() {
            context::join(&mut added, Message::User(own));
        }
        if added.is_empty() {
            return Err(ChatError::BadRequest("the prompt has no messages".into()));
        }
        let text = match &prompt {
            Some(used) if text.trim().is_empty() => format!("/{}", used.name),
            _ => text,
        };
        let agent = self.agent()?;
        let kept = self.conversations_kept()?;
        let summary = kept.get(id).await?.summary;
        let mut title = summary.title;
        let stop = CancellationToken::new();
        {
            let mut runs = self.state.runs.lock();
            if runs.contains_key(&id) {
                return Err(ChatError::ChatRunning);
            }
            runs.insert(id, stop.clone());
        }
        if summary.messages == 0 && title == NEW_TITLE {
            title = title_of(&text);
            if let Err(e) = kept.rename(id, &title).await {
                tracing::warn!("{e}");
            }
        }
        let mut settings = ChatSettings::new(model);
        if let Some(max_tokens) = asking.max_tokens {
            settings.max_tokens = max_tokens;
        }
        Ok(Begun {
            agent,
            client,
            settings,
            added,
            title,
            stop,
        })
    }

    /// The run begun: its events told to the window in order (and to `tap`), its tool
    /// calls listed with the calls under way.
    async fn go(self, id: i64, begun: Begun, tap: Option<mpsc::Sender<ChatEvent>>) -> Outcome {
        let Begun {
            agent,
            client,
            settings,
            added,
            title,
            stop,
        } = begun;
        let (events, mut received) = mpsc::channel::<ChatEvent>(256);
        let chats = self.clone();
        let run_stop = stop.clone();
        let told = tokio::spawn(async move {
            let names = Toolset::new(chats.catalog.tools(), &Enablement::default());
            let mut in_flight = HashSet::new();
            let asker = Origin::Model {
                conversation: id.to_string(),
                title,
            };
            while let Some(event) = received.recv().await {
                let call = Call {
                    conversation: id,
                    asker: &asker,
                    stop: &run_stop,
                };
                call.follow(&chats.explorer, &event, &mut in_flight);
                if let Some(tap) = &tap {
                    let _ = tap.send(event.clone()).await;
                }
                let update = match event {
                    ChatEvent::Message { message } => Update::ChatMessage {
                        conversation: id,
                        message: shown_message(&message, &names),
                    },
                    event => Update::Chat {
                        conversation: id,
                        event,
                    },
                };
                chats.host.announce(update);
            }
            // The run is over however it ended: none of its calls is under way any more.
            for token in in_flight {
                chats.explorer.call_ended(&token);
            }
        });
        let sent = agent
            .send_messages(id, added, &client, &settings, &events, &stop)
            .await;
        let outcome = match sent {
            Ok(outcome) => outcome,
            Err(e) => {
                let failed = Outcome::Failed {
                    message: e.to_string(),
                    usage: Default::default(),
                };
                let _ = events.send(failed.event()).await;
                failed
            }
        };
        self.state.runs.lock().remove(&id);
        drop(events);
        // Every event told before the outcome returns.
        let _ = told.await;
        outcome
    }

    /// Stops the conversation's run: the answer ends at once and the calls under way are
    /// cancelled. Whether one was going on.
    pub fn stop_chat(&self, id: i64) -> bool {
        let stop = self.state.runs.lock().get(&id).cloned();
        stop.map(|stop| stop.cancel()).is_some()
    }
}

/// A conversation's run, as its tool calls are listed with the calls under way.
struct Call<'a> {
    conversation: i64,
    asker: &'a Origin,
    /// Cancelling a call stops the run.
    stop: &'a CancellationToken,
}

impl Call<'_> {
    /// Keeps the model's tool calls in the list of calls under way, from the moment one
    /// waits for a decision until it ends.
    fn follow(&self, explorer: &Explorer, event: &ChatEvent, in_flight: &mut HashSet<String>) {
        let token = |call_id: &str| format!("chat-{}-{call_id}", self.conversation);
        match event {
            ChatEvent::ToolCallAwaiting {
                call_id,
                server,
                tool,
                ..
            } => {
                let item = ProgressItem {
                    token: token(call_id),
                    server: server.clone(),
                    label: tool.clone(),
                    progress: 0.0,
                    total: None,
                    message: None,
                    started_ms: now_ms(),
                };
                in_flight.insert(item.token.clone());
                let by = Serving {
                    origin: self.asker.clone(),
                    call: tool.clone(),
                };
                explorer.call_began(item, by, self.stop.clone());
            }
            ChatEvent::ToolCallRunning { call_id, .. } => explorer.call_served(&token(call_id)),
            ChatEvent::ToolCallProgress {
                call_id,
                progress,
                total,
                message,
            } => explorer.call_progressed(&token(call_id), *progress, *total, message.clone()),
            ChatEvent::ToolCallResult { call_id, .. }
            | ChatEvent::ToolCallDenied { call_id, .. }
            | ChatEvent::ToolCallFailed { call_id, .. } => {
                let token = token(call_id);
                in_flight.remove(&token);
                explorer.call_ended(&token);
            }
            ChatEvent::Finished { .. } | ChatEvent::Error { .. } => {
                for token in in_flight.drain() {
                    explorer.call_ended(&token);
                }
            }
            _ => {}
        }
    }
}
