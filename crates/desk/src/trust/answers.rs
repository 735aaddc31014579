//! The person's answers to what servers ask, checked before they go: a form answer that
//! does not fit its form is refused here, so the person can fix it and nothing is lost.
//! Also the roots each server may see.

use std::path::PathBuf;

use serde_json::{Map, Value};
use switchboard_mcp::types::{
    CreateMessageResult, ElicitAction, ElicitRequestParams, ElicitResult,
};

use super::{Trust, TrustError};
use crate::shown;
use switchboard_core::approvals::{Answer, AnswerError, Pending, Question, Refusal, Remember};
use switchboard_core::links;
use switchboard_core::roots;

impl Trust {
    /// How many questions wait for the person (the tray shows it).
    pub fn waiting(&self) -> usize {
        self.gate.broker().waiting()
    }

    /// What waits for the person, as they are shown it.
    pub fn pending(&self) -> Vec<Pending> {
        self.gate
            .broker()
            .pending()
            .into_iter()
            .map(shown::pending)
            .collect()
    }

    /// A pending question as its server asked it, nothing masked.
    pub(crate) fn question(&self, id: u64) -> Result<Question, AnswerError> {
        self.gate
            .broker()
            .pending()
            .into_iter()
            .find(|p| p.id == id)
            .map(|p| p.question)
            .ok_or(AnswerError::NotPending(id))
    }

    pub(crate) fn answer(&self, id: u64, server: &str, answer: Answer) -> Result<(), TrustError> {
        Ok(self.gate.broker().answer(id, server, answer)?)
    }

    /// Refuses a pending question unanswered: this face has no one to ask it (a command
    /// line without a terminal). The audit records it as no one's answer.
    pub fn refuse_unasked(&self, id: u64) -> Result<(), TrustError> {
        Ok(self.gate.broker().refuse(id)?)
    }

    pub fn answer_tool_call(
        &self,
        id: u64,
        server: &str,
        allow: bool,
        arguments: Map<String, Value>,
        remember: Remember,
    ) -> Result<(), TrustError> {
        self.answer(
            id,
            server,
            Answer::ToolCall {
                allow,
                arguments,
                remember,
            },
        )
    }

    /// Lets an agent read what it asked to (or not), and says how far the choice reaches
    /// for its reads of that server.
    pub fn answer_read(
        &self,
        id: u64,
        server: &str,
        allow: bool,
        remember: Remember,
    ) -> Result<(), TrustError> {
        self.answer(id, server, Answer::Read { allow, remember })
    }

    /// Returns the reply the person wrote and reviewed (a `CreateMessageResult`), or
    /// declines with `None`.
    pub fn answer_sampling(
        &self,
        id: u64,
        server: &str,
        reply: Option<Value>,
    ) -> Result<(), TrustError> {
        let answer = match reply {
            None => Err(Refusal::Declined),
            Some(reply) => Ok(Box::new(
                serde_json::from_value::<CreateMessageResult>(reply)
                    .map_err(|e| TrustError::BadAnswer(format!("the reply is incomplete: {e}")))?,
            )),
        };
        self.answer(id, server, Answer::Sampling(answer))
    }

    /// Answers a form or a link. A form answer is checked against its form first; for an
    /// accepted link, the URL to open is returned (after the answer went).
    pub fn answer_elicitation(
        &self,
        id: u64,
        server: &str,
        result: Value,
    ) -> Result<Option<String>, TrustError> {
        let result: ElicitResult = serde_json::from_value(result)
            .map_err(|e| TrustError::BadAnswer(format!("not an answer to a form: {e}")))?;
        let Question::Elicitation { params } = self.question(id)? else {
            return Err(switchboard_core::approvals::AnswerError::WrongKind(id).into());
        };
        let accepted = result.action == ElicitAction::Accept;
        let to_open = match (*params, accepted) {
            (ElicitRequestParams::Form(form), true) => {
                let content = result.content.clone().unwrap_or_default();
                if let Err(errors) = form.requested_schema.validate(&content) {
                    let reasons: Vec<String> = errors
                        .iter()
                        .map(|e| format!("{}: {}", e.field, e.message))
                        .collect();
                    return Err(TrustError::BadAnswer(format!(
                        "the answer does not fit the form: {}",
                        reasons.join("; ")
                    )));
                }
                None
            }
            (ElicitRequestParams::Url(link), true) => Some(links::openable(&link.url)?.into()),
            (_, false) => None,
        };
        self.answer(id, server, Answer::Elicitation(Box::new(result)))?;
        Ok(to_open)
    }

    /// Shares exactly these folders with the server that asked (none is an answer too).
    /// They are granted only once the answer is accepted: an answer that comes too late
    /// shares nothing.
    pub async fn answer_roots(
        &self,
        id: u64,
        server: &str,
        folders: &[PathBuf],
    ) -> Result<(), TrustError> {
        let chosen = roots::roots_of(folders)?;
        self.answer(id, server, Answer::Roots(chosen.clone()))?;
        self.roots.set(server, chosen.clone());
        self.remember_folders(server, &chosen).await;
        Ok(())
    }

    /// The folders a server may see.
    pub fn roots_of(&self, server: &str) -> Vec<String> {
        self.roots
            .of(server)
            .iter()
            .map(|root| {
                switchboard_mcp::file_uri::file_path(&root.uri)
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| root.uri.clone())
            })
            .collect()
    }

    /// Changes the folders a running server may see, and tells it.
    pub async fn set_roots(&self, server: &str, folders: &[PathBuf]) -> Result<(), TrustError> {
        let chosen = roots::roots_of(folders)?;
        let session = self.host.client(server);
        self.roots.share(server, chosen, session).await;
        let chosen = self.roots.of(server);
        self.remember_folders(server, &chosen).await;
        Ok(())
    }
}
