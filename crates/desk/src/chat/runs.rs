//! A conversation's runs: the person's message sent to a model (or a turn of theirs edited,
//! the model's last answer asked for again, or the model asked to go on), run in the
//! background or, for the command line, to its end here; each run told to the window in
//! order, its tool calls listed with the calls under way. What a run asks with is the
//! conversation's own (its provider and model, system prompt, longest answer, most rounds,
//! effort), else the model's profile and the host's defaults. A conversation too long for
//! its model has its earlier turns summarised on the person's word.

use std::collections::HashSet;
use std::ops::Range;

use switchboard_chat::{
    ChatEvent, ChatSettings, ConversationSettings, Enablement, Outcome, Toolset, compaction, turns,
};
use switchboard_core::approvals::Serving;
use switchboard_core::clock::now_ms;
use switchboard_core::decisions::Origin;
use switchboard_providers::{Message, UserContent};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::{
    ChatError, Chats, Composed, NEW_TITLE, ShownMessage, price_of, shown_message, shown_spent,
};
use crate::Update;
use crate::explorer::{Explorer, ProgressItem};
use crate::models::ModelsError;
use switchboard_chat::context;

/// How much of the first message becomes the title.
const TITLE_CHARS: usize = 48;
/// An answer's most tokens when neither the message, the conversation nor the model's
/// profile says.
const MAX_TOKENS: u32 = 4096;
/// The most rounds of a run when the conversation does not say.
const MAX_ROUNDS: u32 = 16;
/// The longest summary of earlier turns.
const SUMMARY_TOKENS: u32 = 2048;

/// Which model a message goes to, and how long its answer may be; what is not said, the
/// conversation's settings, else the defaults.
#[derive(Debug, Clone, Default)]
pub struct Asking {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub max_tokens: Option<u32>,
}

impl Asking {
    /// The provider and model given (none: the conversation's, else the defaults), the
    /// longest answer as the conversation says.
    pub fn model(provider: Option<String>, model: Option<String>) -> Self {
        Self {
            provider,
            model,
            max_tokens: None,
        }
    }
}

/// What a run replaces of the conversation before it adds the person's messages.
pub(super) enum Replacing {
    Nothing,
    /// The person's turn that begins at this message, and all after it: an edit.
    Turn(usize),
    /// The model's answer to the last turn: asked for again.
    LastAnswer,
}

/// A run got ready: the conversation's loop, the model's provider, client and settings, what it
/// replaces and adds, the conversation's title, and its Stop.
pub(super) struct Begun {
    agent: switchboard_chat::Chat,
    /// The provider asked, as the Models page names it.
    provider: String,
    client: switchboard_providers::Client,
    settings: ChatSettings,
    replaced: Option<Range<usize>>,
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

impl Chats {
    /// The provider and model a message goes to: the ones given, else the conversation's,
    /// else the defaults.
    async fn chosen_model(
        &self,
        asking: &Asking,
        kept: &ConversationSettings,
    ) -> Result<(String, switchboard_providers::Client, String), ChatError> {
        let config = self.host.config();
        let given = |v: &Option<String>| v.clone().filter(|v| !v.trim().is_empty());
        let provider = given(&asking.provider)
            .or_else(|| given(&kept.provider))
            .or(config.settings.default_provider.clone())
            .or_else(|| config.providers.keys().next().cloned())
            .ok_or(ChatError::NoModel)?;
        let entry = config
            .providers
            .get(&provider)
            .ok_or_else(|| ModelsError::NoProvider(provider.clone()))?;
        // The conversation's model is its provider's.
        let kept_model = given(&kept.model).filter(|_| kept.provider.as_ref() == Some(&provider));
        let model = given(&asking.model)
            .or(kept_model)
            .or(entry.default_model.clone())
            .or_else(|| entry.models.first().cloned())
            .ok_or_else(|| ChatError::NoModelOf(provider.clone()))?;
        let client = self.models.provider_client(&provider).await?;
        Ok((provider, client, model))
    }

    /// Sends the person's message in a conversation to a model (the given provider and
    /// model, else the conversation's, else the defaults) and returns once the run has
    /// begun; the run goes on in the background, told as updates, until it ends or
    /// [`Self::stop_chat`].
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
        let asking = Asking::model(provider, model);
        let (mut added, text) = self.compose(composed).await?;
        let told = self.with_app_contexts(id, &mut added);
        let begun = self
            .begin(id, added, &text, asking, Replacing::Nothing)
            .await?;
        self.app_contexts_sent(id, told);
        tokio::spawn(self.detached().go(id, begun, None));
        Ok(())
    }

    /// The person's turn that begins at message `at` replaced by `composed`: it and
    /// everything after it go, and the model answers the new message. Nothing is removed
    /// when the new message cannot be sent.
    pub async fn edit_turn(
        &self,
        id: i64,
        at: usize,
        composed: Composed,
        asking: Asking,
    ) -> Result<(), ChatError> {
        let (added, text) = self.compose(composed).await?;
        let begun = self
            .begin(id, added, &text, asking, Replacing::Turn(at))
            .await?;
        tokio::spawn(self.detached().go(id, begun, None));
        Ok(())
    }

    /// The model's answer to the last turn asked for again (of the model given, else the
    /// conversation's): the answer, its tool calls with it, is replaced.
    pub async fn regenerate(&self, id: i64, asking: Asking) -> Result<(), ChatError> {
        let begun = self
            .begin(id, Vec::new(), "", asking, Replacing::LastAnswer)
            .await?;
        tokio::spawn(self.detached().go(id, begun, None));
        Ok(())
    }

    /// The model goes on from its last answer (cut off at its most tokens): asked with
    /// nothing added, the request ends on a turn that asks it to go on (see the providers'
    /// `sendable`), which the conversation does not keep.
    pub async fn go_on(&self, id: i64, asking: Asking) -> Result<(), ChatError> {
        let begun = self
            .begin(id, Vec::new(), "", asking, Replacing::Nothing)
            .await?;
        tokio::spawn(self.detached().go(id, begun, None));
        Ok(())
    }

    /// Takes back the person's turn that begins at message `at`: it, and the model's answer
    /// to it with its tool calls, leave the conversation.
    pub async fn remove_turn(&self, id: i64, at: usize) -> Result<(), ChatError> {
        if self.state.runs.lock().contains_key(&id) {
            return Err(ChatError::ChatRunning);
        }
        let kept = self.conversations_kept()?;
        let messages = kept.get(id).await?.messages;
        let turn = turns::turn_at(&messages, at).ok_or_else(no_turn_at)?;
        Ok(kept.remove(id, turn).await?)
    }

    /// The turns before the last one summarised by the conversation's model (or the one
    /// given), so that the conversation fits its context again: the summary takes their
    /// place, and they are kept aside in the file. The person then asks again.
    pub async fn summarise_earlier(&self, id: i64, asking: Asking) -> Result<(), ChatError> {
        if self.state.runs.lock().contains_key(&id) {
            return Err(ChatError::ChatRunning);
        }
        let kept = self.conversations_kept()?;
        let opened = kept.get(id).await?;
        let last = opened
            .messages
            .iter()
            .rposition(turns::begins_turn)
            .filter(|&at| at > 0)
            .ok_or_else(|| {
                ChatError::BadRequest("there are no earlier turns to summarise".into())
            })?;
        let (_, client, model) = self.chosen_model(&asking, &opened.settings).await?;
        let request = compaction::summary_request(&opened.messages[..last], &model, SUMMARY_TOKENS);
        let answer = client.complete(&request).await?;
        let summary = compaction::text_of(&answer.content);
        if summary.trim().is_empty() {
            return Err(ChatError::BadRequest(
                "the model wrote no summary: the earlier turns are kept as they were".into(),
            ));
        }
        kept.summarise(id, last, &compaction::summary_message(&summary))
            .await?;
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
        let (added, text) = self.compose(composed).await?;
        let begun = self
            .begin(id, added, &text, asking, Replacing::Nothing)
            .await?;
        Ok(self.detached().go(id, begun, Some(events)).await)
    }

    /// The messages the person adds: a prompt's, then their own with what they attached;
    /// and the text that names them (a title, a slash command).
    async fn compose(&self, composed: Composed) -> Result<(Vec<Message>, String), ChatError> {
        let Composed {
            text,
            attachments,
            prompt,
        } = composed;
        if text.trim().is_empty() && attachments.is_empty() && prompt.is_none() {
            return Err(ChatError::BadRequest("the message is empty".into()));
        }
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
        let text = match &prompt {
            Some(used) if text.trim().is_empty() => format!("/{}", used.name),
            _ => text,
        };
        Ok((added, text))
    }

    /// Everything a run needs, got and checked before it begins: nothing in the
    /// conversation changes when something is missing. The provider and model chosen stay
    /// with the conversation.
    pub(super) async fn begin(
        &self,
        id: i64,
        added: Vec<Message>,
        text: &str,
        asking: Asking,
        replacing: Replacing,
    ) -> Result<Begun, ChatError> {
        if asking.max_tokens == Some(0) {
            return Err(ChatError::BadRequest(
                "an answer needs at least one token".into(),
            ));
        }
        let agent = self.agent()?;
        let kept = self.conversations_kept()?;
        let opened = kept.get(id).await?;
        let replaced = match replacing {
            Replacing::Nothing => None,
            Replacing::Turn(at) => {
                let turn = turns::turn_at(&opened.messages, at).ok_or_else(no_turn_at)?;
                Some(turn.start..opened.messages.len())
            }
            Replacing::LastAnswer => {
                let answer = turns::last_answer(&opened.messages).ok_or_else(|| {
                    ChatError::BadRequest("there is no message of yours to answer".into())
                })?;
                Some(answer..opened.messages.len())
            }
        };
        let (provider, client, model) = self.chosen_model(&asking, &opened.settings).await?;
        let stop = CancellationToken::new();
        {
            let mut runs = self.state.runs.lock();
            if runs.contains_key(&id) {
                return Err(ChatError::ChatRunning);
            }
            runs.insert(id, stop.clone());
        }
        let mut title = opened.summary.title;
        // Untitled: blank, or named in English by an earlier version.
        if opened.summary.messages == 0 && (title.is_empty() || title == NEW_TITLE) {
            title = title_of(text);
            if let Err(e) = kept.rename(id, &title).await {
                tracing::warn!("{e}");
            }
        }
        let mut own = opened.settings;
        if own.provider.as_deref() != Some(&provider) || own.model.as_deref() != Some(&model) {
            own.provider = Some(provider.clone());
            own.model = Some(model.clone());
            if let Err(e) = kept.set_settings(id, own.clone()).await {
                tracing::warn!("{e}");
            }
        }
        let mut settings = ChatSettings::new(model);
        settings.system = own.system;
        // As long an answer as the model may write, when it is known.
        let most = client.profile(&settings.model).max_output;
        settings.max_tokens = asking
            .max_tokens
            .or(own.max_tokens)
            .or(most)
            .unwrap_or(MAX_TOKENS);
        settings.max_rounds = own.max_rounds.unwrap_or(MAX_ROUNDS);
        settings.effort = own.effort;
        settings.search_above = self.search_above();
        Ok(Begun {
            agent,
            provider,
            client,
            settings,
            replaced,
            added,
            title,
            stop,
        })
    }

    /// The run begun: what it replaces removed, its events told to the window in order
    /// (and to `tap`), its tool calls listed with the calls under way.
    pub(super) async fn go(
        self,
        id: i64,
        begun: Begun,
        tap: Option<mpsc::Sender<ChatEvent>>,
    ) -> Outcome {
        let Begun {
            agent,
            provider,
            client,
            settings,
            replaced,
            added,
            title,
            stop,
        } = begun;
        let (events, mut received) = mpsc::channel::<ChatEvent>(256);
        let chats = self.clone();
        let run_stop = stop.clone();
        let provider_asked = provider.clone();
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
                    ChatEvent::Message { message, spent } => {
                        let config = chats.host.config();
                        let spent = spent
                            .map(|s| shown_spent(&s, price_of(&config, Some(&provider), &s.model)));
                        Update::ChatMessage {
                            conversation: id,
                            message: ShownMessage {
                                spent,
                                ..shown_message(&message, &names)
                            },
                        }
                    }
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
        let removed = match (replaced, self.conversations_kept()) {
            (None, _) => Ok(()),
            (Some(range), Ok(kept)) => kept.remove(id, range).await.map_err(ChatError::from),
            (Some(_), Err(e)) => Err(e),
        };
        let sent = match removed {
            Ok(()) => agent
                .send_messages(id, added, &client, &settings, &events, &stop)
                .await
                .map_err(ChatError::from),
            Err(e) => Err(e),
        };
        let outcome = match sent {
            Ok(outcome) => outcome,
            Err(e) => {
                let failed = Outcome::Failed {
                    message: e.to_string(),
                    trouble: None,
                    too_long: false,
                    usage: Default::default(),
                };
                let _ = events.send(failed.event()).await;
                failed
            }
        };
        self.state.runs.lock().remove(&id);
        self.models.keep_learned(&provider_asked, &client).await;
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

fn no_turn_at() -> ChatError {
    ChatError::BadRequest("no message of yours begins there: the conversation changed".into())
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
                    read: None,
                    progress: 0.0,
                    total: None,
                    message: None,
                    started_ms: now_ms(),
                };
                in_flight.insert(item.token.clone());
                let by = Serving {
                    origin: self.asker.clone(),
                    call: tool.clone(),
                    read: None,
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
