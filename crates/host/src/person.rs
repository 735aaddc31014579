//! How the host answers a server's requests: by asking the person through the approval
//! broker, checking the answer, and recording every decision in the audit log.

use std::sync::Arc;

use serde_json::{Value, json};
use switchboard_mcp::client::{ClientHandler, ServerNotification};
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::types::{
    CreateMessageRequestParams, CreateMessageResult, ElicitAction, ElicitRequestParams,
    ElicitResult, ListRootsResult,
};

use crate::approvals::{Answer, Broker, DecidedBy, Question, Settled};
use crate::audit::{AuditLog, Kind, Record};
use crate::masking;
use crate::roots::Roots;

pub struct PersonHandler {
    server: String,
    broker: Broker,
    roots: Roots,
    audit: Arc<AuditLog>,
}

impl PersonHandler {
    pub fn new(server: &str, broker: Broker, roots: Roots, audit: Arc<AuditLog>) -> Self {
        Self {
            server: server.to_owned(),
            broker,
            roots,
            audit,
        }
    }

    async fn ask(&self, question: Question) -> Result<Settled, ErrorObject> {
        self.broker
            .ask(&self.server, question)
            .await
            .map_err(|e| ErrorObject::new(code::INTERNAL_ERROR, e.to_string()))
    }

    /// Records a decision: `decision` is the person's, unless no one answered.
    async fn record(
        &self,
        kind: Kind,
        subject: &str,
        detail: Value,
        decision: &str,
        by: DecidedBy,
    ) {
        let record = Record {
            kind,
            server: self.server.clone(),
            subject: subject.to_owned(),
            detail,
            decision: by.unanswered().unwrap_or(decision).to_owned(),
            decided_by: by.as_str().to_owned(),
            outcome: String::new(),
            duration_ms: None,
        };
        if let Err(e) = self.audit.record(record).await {
            tracing::error!("{e}");
        }
    }
}

/// Why a sampling request went unanswered, as the server is told.
fn sampling_refused(by: DecidedBy) -> &'static str {
    match by {
        DecidedBy::Person => "the user declined the sampling request",
        DecidedBy::Timeout => "no one answered the sampling request in time",
        DecidedBy::NoOneToAsk => "there was no one to ask about the sampling request",
    }
}

impl ClientHandler for PersonHandler {
    async fn list_roots(&self) -> Result<ListRootsResult, ErrorObject> {
        // Once the person chose, the server sees that choice until it changes.
        if let Some(chosen) = self.roots.chosen(&self.server) {
            return Ok(ListRootsResult::new(chosen));
        }
        let Settled {
            answer: Answer::Roots(roots),
            by,
        } = self.ask(Question::Roots).await?
        else {
            return Err(ErrorObject::new(
                code::INTERNAL_ERROR,
                "an answer of the wrong kind",
            ));
        };
        let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
        let decision = if roots.is_empty() {
            "none shared"
        } else {
            "shared"
        };
        self.record(
            Kind::Roots,
            "roots/list",
            json!({ "roots": uris }),
            decision,
            by,
        )
        .await;
        Ok(ListRootsResult::new(roots))
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorObject> {
        let detail = serde_json::to_value(&params).unwrap_or(Value::Null);
        let Settled {
            answer: Answer::Sampling(answer),
            by,
        } = self
            .ask(Question::Sampling {
                params: Box::new(params),
            })
            .await?
        else {
            return Err(ErrorObject::new(
                code::INTERNAL_ERROR,
                "an answer of the wrong kind",
            ));
        };
        match answer {
            Ok(result) => {
                self.record(
                    Kind::Sampling,
                    "sampling/createMessage",
                    detail,
                    "approved",
                    by,
                )
                .await;
                Ok(*result)
            }
            Err(_) => {
                self.record(
                    Kind::Sampling,
                    "sampling/createMessage",
                    detail,
                    "declined",
                    by,
                )
                .await;
                Err(ErrorObject::new(code::USER_REJECTED, sampling_refused(by)))
            }
        }
    }

    async fn elicit(&self, params: ElicitRequestParams) -> Result<ElicitResult, ErrorObject> {
        // The audit keeps what was asked, but no secret a link carries.
        let subject = masking::urls_in(params.message());
        let schema = match &params {
            ElicitRequestParams::Form(form) => Some(form.requested_schema.clone()),
            ElicitRequestParams::Url(_) => None,
        };
        let detail = masking::json(serde_json::to_value(&params).unwrap_or(Value::Null));
        let Settled {
            answer: Answer::Elicitation(result),
            by,
        } = self
            .ask(Question::Elicitation {
                params: Box::new(params),
            })
            .await?
        else {
            return Err(ErrorObject::new(
                code::INTERNAL_ERROR,
                "an answer of the wrong kind",
            ));
        };
        // A form answer goes back only if it fits the form: the face validates, and so do we.
        if let (Some(schema), ElicitAction::Accept) = (&schema, result.action) {
            let content = result.content.clone().unwrap_or_default();
            if let Err(errors) = schema.validate(&content) {
                let reasons: Vec<String> = errors
                    .iter()
                    .map(|e| format!("{}: {}", e.field, e.message))
                    .collect();
                self.record(Kind::Elicitation, &subject, detail, "invalid answer", by)
                    .await;
                return Err(ErrorObject::new(
                    code::INTERNAL_ERROR,
                    format!("the answer does not fit the form: {}", reasons.join("; ")),
                ));
            }
        }
        let decision = match result.action {
            ElicitAction::Accept => "accepted",
            ElicitAction::Decline => "declined",
            ElicitAction::Cancel => "cancelled",
        };
        self.record(Kind::Elicitation, &subject, detail, decision, by)
            .await;
        Ok(*result)
    }

    fn notification(&self, _notification: ServerNotification) {}
}
