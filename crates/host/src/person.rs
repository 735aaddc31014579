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

use crate::approvals::{Answer, Broker, Question, Refusal};
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

    async fn ask(&self, question: Question) -> Result<Answer, ErrorObject> {
        self.broker
            .ask(&self.server, question)
            .await
            .map_err(|e| ErrorObject::new(code::INTERNAL_ERROR, e.to_string()))
    }

    fn record(&self, kind: Kind, subject: &str, detail: Value, decision: &str, decided_by: &str) {
        let record = Record {
            kind,
            server: self.server.clone(),
            subject: subject.to_owned(),
            detail,
            decision: decision.to_owned(),
            decided_by: decided_by.to_owned(),
            outcome: String::new(),
            duration_ms: None,
        };
        if let Err(e) = self.audit.record(&record) {
            tracing::error!("{e}");
        }
    }
}

fn refusal_words(why: &Refusal) -> (&'static str, &'static str) {
    match why {
        Refusal::Declined => ("declined", "user"),
        Refusal::TimedOut => ("timed out", "timeout"),
        Refusal::NoOneToAsk => ("cancelled", "no one to ask"),
    }
}

impl ClientHandler for PersonHandler {
    async fn list_roots(&self) -> Result<ListRootsResult, ErrorObject> {
        // Once the person chose, the server sees that choice until it changes.
        if let Some(chosen) = self.roots.chosen(&self.server) {
            return Ok(ListRootsResult::new(chosen));
        }
        let Answer::Roots(roots) = self.ask(Question::Roots).await? else {
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
            "user",
        );
        Ok(ListRootsResult::new(roots))
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorObject> {
        let detail = serde_json::to_value(&params).unwrap_or(Value::Null);
        let Answer::Sampling(answer) = self
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
                    "user",
                );
                Ok(*result)
            }
            Err(why) => {
                let (decision, by) = refusal_words(&why);
                self.record(
                    Kind::Sampling,
                    "sampling/createMessage",
                    detail,
                    decision,
                    by,
                );
                Err(ErrorObject::new(
                    code::USER_REJECTED,
                    format!("the user {decision} the sampling request"),
                ))
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
        let Answer::Elicitation(result) = self
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
                self.record(
                    Kind::Elicitation,
                    &subject,
                    detail,
                    "invalid answer",
                    "user",
                );
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
        self.record(Kind::Elicitation, &subject, detail, decision, "user");
        Ok(*result)
    }

    fn notification(&self, _notification: ServerNotification) {}
}
