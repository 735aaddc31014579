//! What the views (MCP Apps) in a conversation say into it: a view's message is a turn of
//! its own that the model answers, and what a view tells the model of its state waits for
//! the conversation's next message (only the latest of each view's, as the extension asks).

use serde_json::{Map, Value};
use switchboard_chat::apps;
use switchboard_mcp::types::ContentBlock;
use switchboard_providers::{Message, UserContent};

use super::runs::{Asking, Replacing};
use super::{ChatError, Chats};

impl Chats {
    /// The view of `server` in conversation `id` sends a message: it goes to the model as
    /// the app's (never as the person's words), with what the views said of their state,
    /// and the model answers it. Nothing is added when the conversation is answering.
    pub async fn app_message(
        &self,
        id: i64,
        server: &str,
        content: Vec<ContentBlock>,
    ) -> Result<(), ChatError> {
        let parts = apps::message(server, &content)
            .ok_or_else(|| ChatError::BadRequest("the app's message is empty".into()))?;
        let mut added = vec![Message::User(parts)];
        let told = self.with_app_contexts(id, &mut added);
        let title = format!("A message from the app of {server}");
        let begun = self
            .begin(
                id,
                added,
                &title,
                Asking::model(None, None),
                Replacing::Nothing,
            )
            .await?;
        self.app_contexts_sent(id, told);
        tokio::spawn(self.detached().go(id, begun, None));
        Ok(())
    }

    /// What the view of `server` in conversation `id` tells the model of its state, in
    /// place of what it told before; nothing to tell forgets it.
    pub fn app_context(
        &self,
        id: i64,
        server: &str,
        content: Vec<ContentBlock>,
        structured: Option<Map<String, Value>>,
    ) {
        let mut contexts = self.state.app_contexts.lock();
        let of_conversation = contexts.entry(id).or_default();
        match apps::context(server, &content, structured.as_ref()) {
            Some(parts) => of_conversation.insert(server.to_owned(), parts),
            None => of_conversation.remove(server),
        };
    }

    /// The views' contexts put first in the last of `added` (the message about to be
    /// sent); the servers whose they were, to forget once it is.
    pub(super) fn with_app_contexts(&self, id: i64, added: &mut Vec<Message>) -> Vec<String> {
        let contexts = self.state.app_contexts.lock();
        let Some(waiting) = contexts.get(&id).filter(|w| !w.is_empty()) else {
            return Vec::new();
        };
        let parts: Vec<UserContent> = waiting.values().flatten().cloned().collect();
        match added.last_mut() {
            Some(Message::User(last)) => {
                last.splice(0..0, parts);
            }
            _ => added.push(Message::User(parts)),
        }
        waiting.keys().cloned().collect()
    }

    /// The contexts of `servers` were sent with a message of conversation `id`.
    pub(super) fn app_contexts_sent(&self, id: i64, servers: Vec<String>) {
        if let Some(waiting) = self.state.app_contexts.lock().get_mut(&id) {
            for server in servers {
                waiting.remove(&server);
            }
        }
    }
}
