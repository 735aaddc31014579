//! The chat as the window uses it: conversations kept in `conversations.sqlite` beside the
//! audit trail, which tools each one's model sees, and a message sent to a configured
//! model, its run going on in the background (one Stop per running conversation) and
//! told to the face as [`Update::Chat`] and [`Update::ChatMessage`].
//!
//! The agent reaches the servers through the desk's host: the catalog's tools, each
//! running server's session, and its configuration for the gate's pinned trust.

use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Weak};

use serde::{Deserialize, Serialize};
use switchboard_mcp::types::Tool;
use switchboard_providers::{
    AssistantContent, Image, Message, ToolResult, ToolResultContent, UserContent,
};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::explorer::ProgressItem;
use crate::models::ModelsError;
use crate::switches::TurnedOff;
use crate::{Desk, DeskError, Inner, Update};
use switchboard_chat::context;
use switchboard_chat::{
    Chat, ChatEvent, ChatSettings, ConversationSummary, Conversations, Enablement, MANY_TOOLS,
    Reach, Servers, Toolset,
};
use switchboard_core::approvals::Serving;
use switchboard_core::catalog::CatalogTool;
use switchboard_core::clock::now_ms;
use switchboard_core::decisions::Origin;
use switchboard_core::json::Json;

/// The title a conversation has until its first message names it.
pub const NEW_TITLE: &str = "New conversation";
/// How much of the first message becomes the title.
const TITLE_CHARS: usize = 48;

/// The desk's conversations and the runs going on in them.
pub(super) struct ChatDesk {
    /// `None` when the file could not be opened at all (the notice says why).
    conversations: Option<Conversations>,
    /// The Stop of each conversation whose run goes on.
    runs: Mutex<HashMap<i64, CancellationToken>>,
}

impl ChatDesk {
    /// Opens the conversations' file; what the person should know about it goes to
    /// `notices`.
    pub(super) fn open(path: &std::path::Path, notices: &mut Vec<String>) -> Self {
        let conversations = match Conversations::open(path) {
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
        };
        Self {
            conversations,
            runs: Mutex::default(),
        }
    }
}

/// A conversation opened for the window: its messages as they are shown, and whether a
/// run goes on in it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ConversationView {
    pub summary: ConversationSummary,
    pub messages: Vec<ShownMessage>,
    pub running: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

/// One message of a conversation as the window shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ShownMessage {
    pub role: Role,
    pub parts: Vec<ShownPart>,
}

/// A piece of a message. A tool's result is given in MCP's `CallToolResult` shape
/// (`content`, `isError`), so the window renders it as it renders the explorer's.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ShownPart {
    Text {
        text: String,
    },
    Image {
        media_type: Option<String>,
        data: Option<String>,
        url: Option<String>,
    },
    /// A resource attached as context: what the model was given of it.
    Resource {
        server: String,
        uri: String,
        mime_type: Option<String>,
        text: String,
    },
    ToolCall {
        call_id: String,
        /// The name the model called.
        name: String,
        /// The server and tool it leads to, while that server runs.
        server: Option<String>,
        tool: Option<String>,
        arguments: Json,
    },
    ToolResult {
        call_id: String,
        result: Json,
        is_error: bool,
        /// Why the call was never made (denied, stopped), as the model was told; none
        /// when the tool ran.
        not_made: Option<String>,
    },
}

/// What the person sends: their text, the resources they attach to it, and the prompt
/// they use as a slash command.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Composed {
    pub text: String,
    pub attachments: Vec<Attachment>,
    pub prompt: Option<PromptUse>,
}

/// A resource of a running server, attached to a message.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Attachment {
    pub server: String,
    pub uri: String,
}

/// A prompt of a running server with its arguments.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PromptUse {
    pub server: String,
    pub name: String,
    pub arguments: BTreeMap<String, String>,
}

/// Which tools a conversation's model sees: every running server's, with its toggle.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ChatTools {
    pub servers: Vec<ChatServerTools>,
    /// How many tools the model is offered now.
    pub offered: u32,
    /// Above this many, the person is warned.
    pub many: u32,
    pub warning: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChatServerTools {
    pub server: String,
    pub on: bool,
    pub tools: Vec<ChatTool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChatTool {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub on: bool,
}

/// The running servers as the agent reaches them through the desk.
struct DeskServers {
    inner: Weak<Inner>,
}

impl Servers for DeskServers {
    fn tools(&self) -> Vec<CatalogTool> {
        self.inner
            .upgrade()
            .map(|inner| offered(&inner))
            .unwrap_or_default()
    }

    fn reach(&self, server: &str) -> Option<Reach> {
        let inner = self.inner.upgrade()?;
        let client = inner.shared.client(server)?;
        let config = inner.loaded.lock().config.servers.get(server).cloned()?;
        Some(Reach::of(client, &config))
    }
}

/// The catalog's tools a model may be offered: all but those the person turned off.
fn offered(inner: &Inner) -> Vec<CatalogTool> {
    let off = TurnedOff::now(inner);
    let mut tools = inner.shared.catalog().tools();
    tools.retain(|tool| !off.holds(&tool.server, &tool.tool.name));
    tools
}

impl Desk {
    fn conversations_kept(&self) -> Result<&Conversations, DeskError> {
        self.inner
            .chat
            .conversations
            .as_ref()
            .ok_or(DeskError::Conversation(
                switchboard_chat::ConversationError::NotKept,
            ))
    }

    fn agent(&self) -> Result<Chat, DeskError> {
        let servers = DeskServers {
            inner: Arc::downgrade(&self.inner),
        };
        Ok(Chat::new(self.inner.gate.clone(), Arc::new(servers))
            .with_conversations(self.conversations_kept()?.clone()))
    }

    /// Every conversation, the one changed last first; with a query, those whose title or
    /// text holds every word of it.
    pub async fn conversations(
        &self,
        query: Option<String>,
    ) -> Result<Vec<ConversationSummary>, DeskError> {
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
    ) -> Result<ConversationSummary, DeskError> {
        let title = title
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| NEW_TITLE.to_owned());
        Ok(self.conversations_kept()?.create(&title).await?)
    }

    pub async fn rename_conversation(&self, id: i64, title: &str) -> Result<(), DeskError> {
        let title = title.trim();
        if title.is_empty() {
            return Err(DeskError::BadAnswer("a conversation needs a title".into()));
        }
        Ok(self.conversations_kept()?.rename(id, title).await?)
    }

    /// Deletes a conversation, stopping its run first.
    pub async fn delete_conversation(&self, id: i64) -> Result<(), DeskError> {
        self.stop_chat(id);
        Ok(self.conversations_kept()?.delete(id).await?)
    }

    pub async fn conversation(&self, id: i64) -> Result<ConversationView, DeskError> {
        let opened = self.conversations_kept()?.get(id).await?;
        let names = Toolset::new(self.inner.shared.catalog().tools(), &Enablement::default());
        Ok(ConversationView {
            summary: opened.summary,
            messages: opened
                .messages
                .iter()
                .map(|m| shown_message(m, &names))
                .collect(),
            running: self.inner.chat.runs.lock().contains_key(&id),
        })
    }

    /// The running servers' tools, and which of them the conversation's model sees.
    pub async fn chat_tools(&self, id: i64) -> Result<ChatTools, DeskError> {
        let enablement = self.conversations_kept()?.get(id).await?.enablement;
        Ok(chat_tools(offered(&self.inner), &enablement))
    }

    /// Lets the conversation's model see a server's tools (`tool` None) or one tool, or not.
    pub async fn set_chat_tool(
        &self,
        id: i64,
        server: &str,
        tool: Option<&str>,
        on: bool,
    ) -> Result<ChatTools, DeskError> {
        let kept = self.conversations_kept()?;
        let mut enablement = kept.get(id).await?.enablement;
        match tool {
            Some(tool) => enablement.set_tool(server, tool, on),
            None => enablement.set_server(server, on),
        }
        kept.set_enablement(id, enablement.clone()).await?;
        Ok(chat_tools(offered(&self.inner), &enablement))
    }

    /// The provider and model a message goes to: the ones given, else the defaults.
    async fn chosen_model(
        &self,
        provider: Option<String>,
        model: Option<String>,
    ) -> Result<(switchboard_providers::Client, String), DeskError> {
        let config = self.config();
        let provider = provider
            .filter(|p| !p.is_empty())
            .or(config.settings.default_provider.clone())
            .or_else(|| config.providers.keys().next().cloned())
            .ok_or(DeskError::NoModel)?;
        let entry = config
            .providers
            .get(&provider)
            .ok_or_else(|| ModelsError::NoProvider(provider.clone()))?;
        let model = model
            .filter(|m| !m.trim().is_empty())
            .or(entry.default_model.clone())
            .or_else(|| entry.models.first().cloned())
            .ok_or_else(|| DeskError::NoModelOf(provider.clone()))?;
        Ok((self.inner.models.provider_client(&provider).await?, model))
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
    ) -> Result<(), DeskError> {
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
    ) -> Result<(), DeskError> {
        let Composed {
            text,
            attachments,
            prompt,
        } = composed;
        if text.trim().is_empty() && attachments.is_empty() && prompt.is_none() {
            return Err(DeskError::BadAnswer("the message is empty".into()));
        }
        let (client, model) = self.chosen_model(provider, model).await?;
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
                    DeskError::BadAnswer(format!(
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
                    DeskError::BadAnswer(format!(
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
            return Err(DeskError::BadAnswer("the prompt has no messages".into()));
        }
        let text = match &prompt {
            Some(used) if text.trim().is_empty() => format!("/{}", used.name),
            _ => text,
        };
        let agent = self.agent()?;
        let kept = self.conversations_kept()?;
        let summary = kept.get(id).await?.summary;
        let stop = CancellationToken::new();
        {
            let mut runs = self.inner.chat.runs.lock();
            if runs.contains_key(&id) {
                return Err(DeskError::ChatRunning);
            }
            runs.insert(id, stop.clone());
        }
        if summary.messages == 0 && summary.title == NEW_TITLE {
            let title: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
            let mut title: String = title.chars().take(TITLE_CHARS).collect();
            if text.chars().count() > TITLE_CHARS {
                title.push('…');
            }
            if let Err(e) = kept.rename(id, &title).await {
                tracing::warn!("{e}");
            }
        }
        let (events, mut received) = mpsc::channel::<ChatEvent>(256);
        let desk = Arc::downgrade(&self.inner);
        let run_stop = stop.clone();
        // The events, told to the face in order.
        tokio::spawn(async move {
            let names = desk
                .upgrade()
                .map(|inner| Toolset::new(inner.shared.catalog().tools(), &Enablement::default()));
            let names = names.unwrap_or_default();
            let mut in_flight = HashSet::new();
            while let Some(event) = received.recv().await {
                let Some(inner) = desk.upgrade() else { return };
                let shown = Desk {
                    inner: inner.clone(),
                };
                in_flight_call(&shown, id, &event, &run_stop, &mut in_flight);
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
                inner.updates.send(update);
            }
            // The run is over however it ended: none of its calls is under way any more.
            if let Some(inner) = desk.upgrade() {
                let shown = Desk { inner };
                for token in in_flight {
                    shown.inner.explorer.call_ended(&token);
                }
            }
        });
        let desk = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let settings = ChatSettings::new(model);
            let sent = agent
                .send_messages(id, added, &client, &settings, &events, &stop)
                .await;
            if let Err(e) = sent {
                let event = ChatEvent::Error {
                    message: e.to_string(),
                    usage: Default::default(),
                };
                let _ = events.send(event).await;
            }
            if let Some(inner) = desk.upgrade() {
                inner.chat.runs.lock().remove(&id);
            }
        });
        Ok(())
    }

    /// Stops the conversation's run: the answer ends at once and the calls under way are
    /// cancelled. Whether one was going on.
    pub fn stop_chat(&self, id: i64) -> bool {
        let stop = self.inner.chat.runs.lock().get(&id).cloned();
        stop.map(|stop| stop.cancel()).is_some()
    }
}

/// Keeps the model's tool calls in the list of calls under way, from the moment one waits
/// for a decision until it ends. Cancelling one stops the conversation's run.
fn in_flight_call(
    desk: &Desk,
    conversation: i64,
    event: &ChatEvent,
    stop: &CancellationToken,
    in_flight: &mut HashSet<String>,
) {
    let token = |call_id: &str| format!("chat-{conversation}-{call_id}");
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
                origin: Origin::Model {
                    conversation: conversation.to_string(),
                },
                call: tool.clone(),
            };
            desk.inner.explorer.call_began(item, by, stop.clone());
        }
        ChatEvent::ToolCallRunning { call_id, .. } => {
            desk.inner.explorer.call_served(&token(call_id))
        }
        ChatEvent::ToolCallProgress {
            call_id,
            progress,
            total,
            message,
        } => {
            desk.inner
                .explorer
                .call_progressed(&token(call_id), *progress, *total, message.clone())
        }
        ChatEvent::ToolCallResult { call_id, .. }
        | ChatEvent::ToolCallDenied { call_id, .. }
        | ChatEvent::ToolCallFailed { call_id, .. } => {
            let token = token(call_id);
            in_flight.remove(&token);
            desk.inner.explorer.call_ended(&token);
        }
        ChatEvent::Finished { .. } | ChatEvent::Error { .. } => {
            for token in in_flight.drain() {
                desk.inner.explorer.call_ended(&token);
            }
        }
        _ => {}
    }
}

fn chat_tools(catalog: Vec<CatalogTool>, enablement: &Enablement) -> ChatTools {
    let mut servers: BTreeMap<String, ChatServerTools> = BTreeMap::new();
    for entry in &catalog {
        let server = servers
            .entry(entry.server.clone())
            .or_insert_with(|| ChatServerTools {
                server: entry.server.clone(),
                on: !enablement.servers_off.contains(&entry.server),
                tools: Vec::new(),
            });
        server
            .tools
            .push(chat_tool(&entry.tool, enablement, &entry.server));
    }
    let offered = Toolset::new(catalog, enablement);
    let warning = offered.too_many().then(|| {
        format!(
            "{} tools are on: above {MANY_TOOLS} a model chooses worse, and some providers refuse the request. Switch off the servers or tools this conversation does not need.",
            offered.len()
        )
    });
    ChatTools {
        servers: servers.into_values().collect(),
        offered: offered.len() as u32,
        many: MANY_TOOLS as u32,
        warning,
    }
}

fn chat_tool(tool: &Tool, enablement: &Enablement, server: &str) -> ChatTool {
    ChatTool {
        name: tool.name.clone(),
        title: tool.title.clone(),
        description: tool.description.clone(),
        on: !enablement
            .tools_off
            .get(server)
            .is_some_and(|off| off.contains(&tool.name)),
    }
}

fn shown_message(message: &Message, names: &Toolset) -> ShownMessage {
    match message {
        Message::User(content) => ShownMessage {
            role: Role::User,
            parts: content
                .iter()
                .map(|part| match part {
                    UserContent::Text(text) => match context::attached(text) {
                        Some(attached) => ShownPart::Resource {
                            server: attached.server,
                            uri: attached.uri,
                            mime_type: attached.mime_type,
                            text: attached.text,
                        },
                        None => ShownPart::Text { text: text.clone() },
                    },
                    UserContent::Image(image) => shown_image(image),
                    UserContent::ToolResult(result) => shown_result(result),
                })
                .collect(),
        },
        Message::Assistant(content) => ShownMessage {
            role: Role::Assistant,
            parts: content
                .iter()
                .map(|part| match part {
                    AssistantContent::Text(text) => ShownPart::Text { text: text.clone() },
                    AssistantContent::ToolCall(call) => {
                        let offered = names.get(&call.name);
                        ShownPart::ToolCall {
                            call_id: call.id.clone(),
                            name: call.name.clone(),
                            server: offered.map(|t| t.server.clone()),
                            tool: offered.map(|t| t.tool.name.clone()),
                            arguments: Json(call.arguments.clone()),
                        }
                    }
                })
                .collect(),
        },
    }
}

fn shown_image(image: &Image) -> ShownPart {
    match image {
        Image::Base64 { media_type, data } => ShownPart::Image {
            media_type: Some(media_type.clone()),
            data: Some(data.clone()),
            url: None,
        },
        Image::Url { url } => ShownPart::Image {
            media_type: None,
            data: None,
            url: Some(url.clone()),
        },
    }
}

/// A result as it went to the model, in MCP's `CallToolResult` shape.
fn shown_result(result: &ToolResult) -> ShownPart {
    let content: Vec<serde_json::Value> = result
        .content
        .iter()
        .map(|block| match block {
            ToolResultContent::Text(text) => serde_json::json!({"type": "text", "text": text}),
            ToolResultContent::Image(Image::Base64 { media_type, data }) => {
                serde_json::json!({"type": "image", "mimeType": media_type, "data": data})
            }
            ToolResultContent::Image(Image::Url { url }) => {
                serde_json::json!({"type": "text", "text": format!("[image at {url}]")})
            }
        })
        .collect();
    ShownPart::ToolResult {
        call_id: result.call_id.clone(),
        result: Json(serde_json::json!({"content": content, "isError": result.is_error})),
        is_error: result.is_error,
        not_made: switchboard_chat::results::not_made(result).map(str::to_owned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(server: &str, name: &str) -> CatalogTool {
        let tool: Tool = serde_json::from_value(json!({
            "name": name, "inputSchema": {"type": "object"}
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        CatalogTool {
            id: format!("{server}__{name}"),
            server: server.into(),
            tool,
        }
    }

    #[test]
    fn the_toggles_count_the_tools_offered_and_warn_above_the_limit() {
        let mut catalog: Vec<CatalogTool> =
            (0..130).map(|n| tool("big", &format!("t{n}"))).collect();
        catalog.push(tool("demo", "echo"));
        let all = chat_tools(catalog.clone(), &Enablement::default());
        assert_eq!(all.offered, 131);
        assert!(all.warning.as_deref().is_some_and(|w| w.contains("131")));

        let mut enablement = Enablement::default();
        enablement.set_server("big", false);
        enablement.set_tool("demo", "echo", false);
        let few = chat_tools(catalog, &enablement);
        assert_eq!(few.offered, 0);
        assert_eq!(few.warning, None);
        assert!(!few.servers[0].on);
        assert_eq!(few.servers[1].server, "demo");
        assert!(!few.servers[1].tools[0].on);
    }

    #[test]
    fn a_result_is_shown_in_the_shape_of_an_mcp_result() {
        let shown = shown_result(&ToolResult {
            call_id: "c1".into(),
            content: vec![ToolResultContent::Text("hi".into())],
            is_error: true,
            not_made: false,
        });
        assert_eq!(
            shown,
            ShownPart::ToolResult {
                call_id: "c1".into(),
                result: Json(json!({"content": [{"type": "text", "text": "hi"}], "isError": true})),
                is_error: true,
                not_made: None,
            }
        );
        let denied = switchboard_chat::results::denied(
            "c2",
            &switchboard_core::decisions::DecidedBy::Person,
        );
        let ShownPart::ToolResult { not_made, .. } = shown_result(&denied) else {
            unreachable!()
        };
        assert!(not_made.is_some_and(|why| why.contains("the user denied it")));
    }
}
