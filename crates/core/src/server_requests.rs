//! How the host answers a server's requests: by asking the person through the approval
//! broker (or, for sampling and forms, the agent whose call the server serves, when the
//! person let it: see [`crate::delegated`]), checking the answer, and recording every
//! decision in the audit log.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};
use switchboard_mcp::client::{ClientHandler, ServerNotification};
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::types::{
    CreateMessageRequestParams, CreateMessageResult, ElicitAction, ElicitRequestParams,
    ElicitResult, ElicitationSchema, ListRootsResult, Root, method,
};

use crate::approvals::{Answer, Broker, OnWithdrawn, Question, Settled, SettledBy};
use crate::audit::{AuditLog, Kind, Record};
use crate::decisions::{DecidedBy, Outcome};
use crate::delegated::{Asked, Delegate, Delegates};
use crate::masking;
use crate::roots::Roots;
use crate::sampling::{Drafted, SamplingModels, Unreviewed};

/// How the audit trail records a request its server withdrew before anyone answered it
/// (it cancelled the request, gave up waiting, or went away): unanswered, by the server
/// ([`DecidedBy::ServerWithdrew`]).
pub const WITHDRAWN: &str = "withdrawn";

pub struct ServerRequestHandler {
    server: String,
    broker: Broker,
    roots: Roots,
    audit: Arc<AuditLog>,
    /// The host's models, which draft sampling replies (and send them, for a server the
    /// person allowed without review); none: every reply is the person's.
    models: Option<Arc<dyn SamplingModels>>,
    /// The agents that may answer in the person's stead; none: the person answers all.
    delegates: Option<Arc<dyn Delegates>>,
}

impl ServerRequestHandler {
    pub fn new(server: &str, broker: Broker, roots: Roots, audit: Arc<AuditLog>) -> Self {
        Self {
            server: server.to_owned(),
            broker,
            roots,
            audit,
            models: None,
            delegates: None,
        }
    }

    /// Lets the agent whose call this server serves answer its sampling and form requests,
    /// where `delegates` finds one.
    pub fn with_delegates(mut self, delegates: Arc<dyn Delegates>) -> Self {
        self.delegates = Some(delegates);
        self
    }

    fn delegate(&self, asked: Asked<'_>) -> Option<Delegate> {
        self.delegates.as_ref()?.delegate(&self.server, asked)
    }

    /// The roots a server asking during the call of an agent that lists its own folders (a
    /// stateless agent's) sees: those the person chose for it, none before they choose,
    /// without a dialog that would hold the agent's call. The agent is asked for its
    /// folders meanwhile: they are offered to the person as its roots are (its gateway sees
    /// its answer), and only those the person accepts join what the server sees later.
    async fn roots_beside(&self, delegate: Delegate) -> ListRootsResult {
        let detail = json!({ "roots": [] });
        let nothing = json!({});
        let listed =
            delegate.ask::<ListRootsResult>(method::ROOTS_LIST, &nothing, "the roots request");
        if let Err(e) = self
            .answered_by(&delegate, Kind::Roots, "roots/list", detail, listed)
            .await
        {
            tracing::warn!("{}", e.message);
        }
        let chosen = self.roots.chosen(&self.server);
        let decided_by = if chosen.is_some() {
            DecidedBy::Remembered
        } else {
            DecidedBy::NotChosenYet
        };
        let chosen = chosen.unwrap_or_default();
        let (decision, detail) = shared(&chosen);
        self.record_as(Kind::Roots, "roots/list", detail, decision, decided_by)
            .await;
        ListRootsResult::new(chosen)
    }

    /// Waits for what an agent answers in the person's stead (`answer`: its reply, checked)
    /// and records it, naming the agent.
    async fn answered_by<T>(
        &self,
        delegate: &Delegate,
        kind: Kind,
        subject: &str,
        detail: Value,
        answer: impl Future<Output = Result<T, ErrorObject>>,
    ) -> Result<T, ErrorObject> {
        let started = Instant::now();
        let answer = answer.await;
        let (decision, outcome) = match &answer {
            Ok(_) => ("answered", Outcome::Succeeded),
            Err(e) => ("unanswered", Outcome::Failed(e.message.clone())),
        };
        let record = Record {
            kind,
            server: self.server.clone(),
            subject: subject.to_owned(),
            detail,
            decision: decision.to_owned(),
            decided_by: DecidedBy::Agent {
                name: delegate.agent.clone(),
            },
            outcome,
            duration_ms: Some(started.elapsed().as_millis() as u64),
        };
        if let Err(e) = self.audit.record(record).await {
            tracing::error!("{e}");
        }
        answer
    }

    async fn sampled_by(
        &self,
        delegate: Delegate,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorObject> {
        let detail = serde_json::to_value(&params).unwrap_or(Value::Null);
        let answer = delegate.ask(
            method::SAMPLING_CREATE_MESSAGE,
            &params,
            "the sampling request",
        );
        self.answered_by(
            &delegate,
            Kind::Sampling,
            "sampling/createMessage",
            detail,
            answer,
        )
        .await
    }

    /// A form answered by the agent: checked against the form as the person's answer is.
    async fn elicited_by(
        &self,
        delegate: Delegate,
        params: ElicitRequestParams,
    ) -> Result<ElicitResult, ErrorObject> {
        let subject = masking::urls_in(params.message());
        let detail = masking::json(serde_json::to_value(&params).unwrap_or(Value::Null));
        let answer = async {
            let result: ElicitResult = delegate
                .ask(method::ELICITATION_CREATE, &params, "the form")
                .await?;
            if let ElicitRequestParams::Form(form) = &params
                && let Some(misfit) = misfit(&form.requested_schema, &result)
            {
                let agent = &delegate.agent;
                return Err(ErrorObject::new(
                    code::INTERNAL_ERROR,
                    format!("{agent}'s answer does not fit the form: {misfit}"),
                ));
            }
            Ok(result)
        };
        self.answered_by(&delegate, Kind::Elicitation, &subject, detail, answer)
            .await
    }

    /// Lets the host's models answer sampling requests the person allowed without review.
    pub fn with_models(mut self, models: Arc<dyn SamplingModels>) -> Self {
        self.models = Some(models);
        self
    }

    /// The reply the model the person chose drafted, sent without review, if they allowed
    /// this server that and its budget allows it now. Otherwise the person is asked: why,
    /// when a rule allowed the server but could not answer this request (its model gone,
    /// its budget spent, the draft failed).
    async fn without_review(
        &self,
        params: &CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, Option<String>> {
        let Some(models) = self.models.as_ref() else {
            return Err(None);
        };
        let (chosen, max_tokens, permit) = match models.without_review(&self.server, params) {
            Unreviewed::NoRule => return Err(None),
            Unreviewed::Asked(why) => return Err(Some(why)),
            Unreviewed::Allowed {
                chosen,
                max_tokens,
                permit,
            } => (chosen, max_tokens, permit),
        };
        let drafted = models.draft(params, &chosen, max_tokens).await;
        if let Ok(Drafted {
            tokens: Some(tokens),
            ..
        }) = &drafted
        {
            permit.took(*tokens);
        }
        drop(permit);
        let drafted = drafted.map_err(|e| {
            tracing::warn!(
                "the model could not answer {}'s sampling request: {e}",
                self.server
            );
            Some(format!("the model could not answer: {e}"))
        })?;
        let mut detail = serde_json::to_value(params).unwrap_or(Value::Null);
        if let Value::Object(detail) = &mut detail {
            detail.insert(
                "draftedBy".into(),
                json!({"provider": drafted.provider, "model": drafted.model}),
            );
        }
        self.record_as(
            Kind::Sampling,
            "sampling/createMessage",
            detail,
            "approved",
            DecidedBy::SamplingWithoutReview,
        )
        .await;
        Ok(drafted.result)
    }

    /// Asks the person `question`: the answer, of the kind `pick` takes, and who decided.
    /// If the server withdraws the request first, that is recorded as `asked` (kind,
    /// subject and detail), before faces hear of it.
    async fn ask<T>(
        &self,
        question: Question,
        asked: (Kind, &str, &Value),
        pick: impl FnOnce(Answer) -> Option<T>,
    ) -> Result<(T, SettledBy), ErrorObject> {
        let (kind, subject, detail) = asked;
        let withdrawn = Record {
            kind,
            server: self.server.clone(),
            subject: subject.to_owned(),
            detail: detail.clone(),
            decision: WITHDRAWN.to_owned(),
            decided_by: DecidedBy::ServerWithdrew,
            outcome: Outcome::Unknown,
            duration_ms: None,
        };
        let Settled { answer, by } = self
            .broker
            .ask_then(&self.server, question, self.recording(withdrawn))
            .await
            .map_err(|e| ErrorObject::new(code::INTERNAL_ERROR, e.to_string()))?;
        let answer = pick(answer)
            .ok_or_else(|| ErrorObject::new(code::INTERNAL_ERROR, "an answer of the wrong kind"))?;
        Ok((answer, by))
    }

    /// Writes `record` when a request is withdrawn, and only then lets faces hear of the
    /// withdrawal: what they show of the audit trail next holds it.
    fn recording(&self, record: Record) -> OnWithdrawn {
        let audit = self.audit.clone();
        Box::new(move |announce| {
            let Ok(runtime) = tokio::runtime::Handle::try_current() else {
                tracing::warn!("{}'s withdrawn request is not recorded", record.server);
                return;
            };
            runtime.spawn(async move {
                if let Err(e) = audit.record(record).await {
                    tracing::error!("{e}");
                }
                drop(announce);
            });
        })
    }

    /// Records a decision: `decision` is the person's, unless no one answered.
    async fn record(
        &self,
        kind: Kind,
        subject: &str,
        detail: Value,
        decision: &str,
        by: SettledBy,
    ) {
        let decision = by.unanswered().unwrap_or(decision);
        self.record_as(kind, subject, detail, decision, by.into())
            .await;
    }

    async fn record_as(
        &self,
        kind: Kind,
        subject: &str,
        detail: Value,
        decision: &str,
        decided_by: DecidedBy,
    ) {
        let record = Record {
            kind,
            server: self.server.clone(),
            subject: subject.to_owned(),
            detail,
            decision: decision.to_owned(),
            decided_by,
            outcome: Outcome::Unknown,
            duration_ms: None,
        };
        if let Err(e) = self.audit.record(record).await {
            tracing::error!("{e}");
        }
    }
}

/// Why an accepted answer does not fit its form, if it does not.
fn misfit(schema: &ElicitationSchema, result: &ElicitResult) -> Option<String> {
    if result.action != ElicitAction::Accept {
        return None;
    }
    let content = result.content.clone().unwrap_or_default();
    let errors = schema.validate(&content).err()?;
    let reasons: Vec<String> = errors
        .iter()
        .map(|e| format!("{}: {}", e.field, e.message))
        .collect();
    Some(reasons.join("; "))
}

/// What sharing `roots` is, as the audit trail records it: the decision and the detail.
fn shared(roots: &[Root]) -> (&'static str, Value) {
    let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
    let decision = if roots.is_empty() {
        "none shared"
    } else {
        "shared"
    };
    (decision, json!({ "roots": uris }))
}

/// Why a sampling request went unanswered, as the server is told.
fn sampling_refused(by: SettledBy) -> &'static str {
    match by {
        SettledBy::Person => "the user declined the sampling request",
        SettledBy::Timeout => "no one answered the sampling request in time",
        SettledBy::NoOneToAsk => "there was no one to ask about the sampling request",
    }
}

impl ClientHandler for ServerRequestHandler {
    async fn list_roots(&self) -> Result<ListRootsResult, ErrorObject> {
        // Once the person chose, the server gets that choice until it changes, unasked: the
        // choice was made for this server as it is launched now (it is forgotten for one
        // launched otherwise, see `crate::pins`), it holds until they change or revoke it,
        // and asking again at each start would teach the person to wave the question away.
        // Each answer is recorded all the same.
        if let Some(delegate) = self.delegate(Asked::Roots) {
            return Ok(self.roots_beside(delegate).await);
        }
        if let Some(chosen) = self.roots.chosen(&self.server) {
            let (decision, detail) = shared(&chosen);
            self.record_as(
                Kind::Roots,
                "roots/list",
                detail,
                decision,
                DecidedBy::Remembered,
            )
            .await;
            return Ok(ListRootsResult::new(chosen));
        }
        let asked = (Kind::Roots, "roots/list", &json!({ "roots": [] }));
        let (roots, by) = self
            .ask(Question::Roots, asked, |answer| match answer {
                Answer::Roots(roots) => Some(roots),
                _ => None,
            })
            .await?;
        let (decision, detail) = shared(&roots);
        self.record(Kind::Roots, "roots/list", detail, decision, by)
            .await;
        Ok(ListRootsResult::new(roots))
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorObject> {
        if let Some(delegate) = self.delegate(Asked::Sampling(&params)) {
            return self.sampled_by(delegate, params).await;
        }
        let why_asked = match self.without_review(&params).await {
            Ok(result) => return Ok(result),
            Err(why) => why,
        };
        let mut detail = serde_json::to_value(&params).unwrap_or(Value::Null);
        if let (Value::Object(detail), Some(why)) = (&mut detail, why_asked) {
            detail.insert("whyAsked".into(), why.into());
        }
        let question = Question::Sampling {
            params: Box::new(params),
        };
        let asked = (Kind::Sampling, "sampling/createMessage", &detail);
        let (answer, by) = self
            .ask(question, asked, |answer| match answer {
                Answer::Sampling(answer) => Some(answer),
                _ => None,
            })
            .await?;
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
        if let Some(delegate) = self.delegate(Asked::Elicitation(&params)) {
            return self.elicited_by(delegate, params).await;
        }
        // The audit keeps what was asked, but no secret a link carries.
        let subject = masking::urls_in(params.message());
        let schema = match &params {
            ElicitRequestParams::Form(form) => Some(form.requested_schema.clone()),
            ElicitRequestParams::Url(_) => None,
        };
        let detail = masking::json(serde_json::to_value(&params).unwrap_or(Value::Null));
        let question = Question::Elicitation {
            params: Box::new(params),
        };
        let (result, by) = self
            .ask(
                question,
                (Kind::Elicitation, &subject, &detail),
                |answer| match answer {
                    Answer::Elicitation(result) => Some(result),
                    _ => None,
                },
            )
            .await?;
        // A form answer goes back only if it fits the form: the face validates, and so do we.
        if let Some(misfit) = schema.as_ref().and_then(|schema| misfit(schema, &result)) {
            self.record(Kind::Elicitation, &subject, detail, "invalid answer", by)
                .await;
            return Err(ErrorObject::new(
                code::INTERNAL_ERROR,
                format!("the answer does not fit the form: {misfit}"),
            ));
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
