//! The approval broker: every request that crosses a trust boundary waits here for a
//! person — a tool call, a server's sampling request, its wish to see roots, a form or a
//! link. Each pending request has an owner (the server), a deadline and a one-shot
//! responder; faces (the window, the command line) list and answer them. A deadline that
//! passes, or a face that goes away, answers with an explicit refusal, never silence.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::{Map, Value};
use switchboard_mcp::types::{
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, Root,
    ToolAnnotations,
};
use tokio::sync::{broadcast, oneshot};

use crate::decisions::{DecidedBy, Origin};
use crate::recent::{MINUTE, Recent};

/// What a server (or a caller on its behalf) asks the person.
// The MCP payloads are described to the face by the MCP schema's types.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum Question {
    ToolCall {
        tool: String,
        #[cfg_attr(feature = "specta", specta(type = crate::json::Json))]
        arguments: Map<String, Value>,
        /// The server's own claims about the tool: shown, never trusted by themselves.
        #[cfg_attr(feature = "specta", specta(type = Option<crate::json::mcp::ToolAnnotations>))]
        annotations: Option<Box<ToolAnnotations>>,
        /// What changed since the person allowed this tool, if an allowance they gave no
        /// longer holds.
        #[serde(skip_serializing_if = "Option::is_none")]
        changed: Option<Box<crate::pins::Changed>>,
        /// Who asks: the person, or a model in one of their conversations.
        asked_by: crate::decisions::Origin,
    },
    /// An agent reads what a server offers: a resource, a prompt, completions.
    Read {
        read: crate::reads::Read,
        /// What changed since the person allowed the agent's reads of this server, if that
        /// allowance no longer holds.
        #[serde(skip_serializing_if = "Option::is_none")]
        changed: Option<Box<crate::pins::Changed>>,
        asked_by: crate::decisions::Origin,
    },
    Sampling {
        #[cfg_attr(feature = "specta", specta(type = crate::json::mcp::CreateMessageRequestParams))]
        params: Box<CreateMessageRequestParams>,
    },
    Elicitation {
        #[cfg_attr(feature = "specta", specta(type = crate::json::mcp::ElicitRequestParams))]
        params: Box<ElicitRequestParams>,
    },
    Roots,
    /// An agent offers the folders it works in (its roots) to the servers it uses: the
    /// person picks those the servers may see. Its owner is the agent, not a server.
    AgentRoots {
        agent: String,
        /// The folders offered, as paths.
        folders: Vec<String>,
        /// The servers that would see the folders accepted.
        servers: Vec<String>,
    },
    /// The person asked to sign in to the server: where they would sign in, before the
    /// browser opens.
    SignIn {
        /// The authorization server, as its metadata names it.
        issuer: String,
        /// The authorization server's host, which the person should check.
        issuer_host: String,
        /// The MCP server the sign-in is for.
        resource: String,
        scopes: Vec<String>,
        /// The page the browser would open.
        url: String,
    },
}

/// The person's answer, of the same kind as the question.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Allowed with these arguments (the person may have edited them), or denied; and
    /// whether to decide the same way from now on without asking.
    ToolCall {
        allow: bool,
        arguments: Map<String, Value>,
        remember: Remember,
    },
    /// Whether the agent may read it, and whether to decide the same way for its reads of
    /// the server from now on (a choice for one tool counts as one for the server).
    Read {
        allow: bool,
        remember: Remember,
    },
    Sampling(Result<Box<CreateMessageResult>, Refusal>),
    Elicitation(Box<ElicitResult>),
    Roots(Vec<Root>),
    /// Whether to open the sign-in page.
    SignIn(bool),
}

/// How far a tool-call decision reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Remember {
    /// This call only.
    #[default]
    Once,
    ToolForSession,
    ServerForSession,
    ToolAlways,
    ServerAlways,
}

/// Why a request was refused without the person's agreement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    Declined,
    TimedOut,
    /// The face that would have asked is gone (the window closed).
    NoOneToAsk,
}

/// How a request was settled: the answer that goes back to the server, and who gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct Settled {
    pub answer: Answer,
    pub by: SettledBy,
}

/// Who settled a request: the person, or no one (the broker refused in their stead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettledBy {
    /// The person answered; a decline is theirs too.
    Person,
    /// The deadline passed unanswered.
    Timeout,
    /// No face was left to ask (the window closed, the app stopped).
    NoOneToAsk,
}

impl From<SettledBy> for DecidedBy {
    /// Who settled a request, as the audit trail records them.
    fn from(by: SettledBy) -> Self {
        match by {
            SettledBy::Person => Self::Person,
            SettledBy::Timeout => Self::Timeout,
            SettledBy::NoOneToAsk => Self::NoOneToAsk,
        }
    }
}

impl SettledBy {
    /// The decision the audit trail records for a request no one answered; `None` for
    /// the person's own, which their answer says.
    pub fn unanswered(self) -> Option<&'static str> {
        match self {
            Self::Person => None,
            Self::Timeout => Some("timed out"),
            Self::NoOneToAsk => Some("unanswered"),
        }
    }

    /// What a refusal from this side is.
    fn refusal(self) -> Refusal {
        match self {
            Self::Person => Refusal::Declined,
            Self::Timeout => Refusal::TimedOut,
            Self::NoOneToAsk => Refusal::NoOneToAsk,
        }
    }
}

impl Settled {
    fn by_person(answer: Answer) -> Self {
        Self {
            answer,
            by: SettledBy::Person,
        }
    }

    /// The refusal `by` gives to the question.
    fn refused(question: &Question, by: SettledBy) -> Self {
        Self {
            answer: Answer::refusal(question, by.refusal()),
            by,
        }
    }
}

impl Answer {
    /// The answer a refusal gives to a question: nothing allowed, nothing exposed.
    pub fn refusal(question: &Question, why: Refusal) -> Self {
        match question {
            Question::ToolCall { arguments, .. } => Self::ToolCall {
                allow: false,
                arguments: arguments.clone(),
                remember: Remember::Once,
            },
            Question::Read { .. } => Self::Read {
                allow: false,
                remember: Remember::Once,
            },
            Question::Sampling { .. } => Self::Sampling(Err(why)),
            Question::Elicitation { .. } => Self::Elicitation(Box::new(match why {
                Refusal::Declined => ElicitResult::declined(),
                Refusal::TimedOut | Refusal::NoOneToAsk => ElicitResult::cancelled(),
            })),
            Question::Roots | Question::AgentRoots { .. } => Self::Roots(Vec::new()),
            Question::SignIn { .. } => Self::SignIn(false),
        }
    }

    fn fits(&self, question: &Question) -> bool {
        matches!(
            (self, question),
            (Self::ToolCall { .. }, Question::ToolCall { .. })
                | (Self::Read { .. }, Question::Read { .. })
                | (Self::Sampling(_), Question::Sampling { .. })
                | (Self::Elicitation(_), Question::Elicitation { .. })
                | (
                    Self::Roots(_),
                    Question::Roots | Question::AgentRoots { .. }
                )
                | (Self::SignIn(_), Question::SignIn { .. })
        )
    }
}

/// A pending request as faces see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Pending {
    pub id: u64,
    /// The server that asks: always shown to the person (the agent, for its offer of
    /// folders).
    pub server: String,
    pub question: Question,
    /// When it will be refused unanswered, in milliseconds since the Unix epoch.
    pub deadline_ms: u64,
    /// Whether it comes forward as a dialog at once: something the person started waits on
    /// it. Otherwise it waits in the list, announced without interrupting, until the
    /// person picks it (a server that asks on its own, as at start-up).
    pub forward: bool,
    /// For what a server asks (sampling, a form, its roots): the calls it was serving when
    /// it asked, whose they are and what they call, oldest first; empty when it asked on
    /// its own, and for every other question.
    pub during: Vec<Serving>,
}

/// A call a server serves while it asks the person something: who made it, and what it
/// calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Serving {
    pub origin: crate::decisions::Origin,
    /// The tool called, or the read as the host names it in English.
    pub call: String,
    /// The read, for a face to name in its language; none for a tool call.
    pub read: Option<crate::reads::Read>,
}

/// How a request arrives: whether it comes forward, and what its server is serving (see
/// [`Pending::forward`], [`Pending::during`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arrival {
    pub forward: bool,
    pub during: Vec<Serving>,
}

/// Tells how a request of `server` arrives.
pub type Forward = Arc<dyn Fn(&str, &Question) -> Arrival + Send + Sync>;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum BrokerEvent {
    Added(Box<Pending>),
    /// Answered, refused, or (`withdrawn`) given up by whoever asked: its server cancelled
    /// the request or went away, or the caller of a tool call stopped waiting.
    Removed {
        id: u64,
        withdrawn: bool,
    },
}

/// Tells faces that a withdrawn request left the list when dropped (see
/// [`Broker::ask_then`]).
pub struct Announce {
    events: broadcast::Sender<BrokerEvent>,
    id: u64,
}

impl Drop for Announce {
    fn drop(&mut self) {
        let _ = self.events.send(BrokerEvent::Removed {
            id: self.id,
            withdrawn: true,
        });
    }
}

/// What to do once a request is withdrawn (it is off the list already); faces hear of it
/// when the [`Announce`] it is given is dropped.
pub type OnWithdrawn = Box<dyn FnOnce(Announce) + Send>;

/// Who a request is counted against in the broker's limits (with its server): whoever asks
/// for a tool call or a read; for what a server asks, the one whose calls it serves, when
/// they are all one's; `None`, the server on its own. One asker flooding a server with
/// questions leaves room for everyone else's.
fn asker_of(question: &Question, during: &[Serving]) -> Option<Origin> {
    match question {
        Question::ToolCall { asked_by, .. } | Question::Read { asked_by, .. } => {
            Some(asked_by.clone())
        }
        Question::SignIn { .. } => Some(Origin::Person),
        Question::Sampling { .. }
        | Question::Elicitation { .. }
        | Question::Roots
        | Question::AgentRoots { .. } => {
            let (first, rest) = during.split_first()?;
            rest.iter()
                .all(|s| s.origin == first.origin)
                .then(|| first.origin.clone())
        }
    }
}

/// The asker as a limit's refusal names it.
fn asker_named(asker: Option<&Origin>) -> String {
    asker.map_or_else(|| "the server itself".to_owned(), Origin::describe)
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("request {0} is no longer pending")]
    NotPending(u64),
    #[error("request {0} asks something else than this answer gives")]
    WrongKind(u64),
    #[error("request {id} belongs to server {owner:?}, not {claimed:?}")]
    WrongOwner {
        id: u64,
        owner: String,
        claimed: String,
    },
    #[error("{server} already has {limit} requests from {asker} waiting; this one was refused")]
    Flooded {
        server: String,
        asker: String,
        limit: usize,
    },
    #[error(
        "{server} was asked {limit} times in the last minute from {asker}; this request was refused"
    )]
    TooFrequent {
        server: String,
        asker: String,
        limit: usize,
    },
}

struct Waiting {
    pending: Pending,
    /// Whom it counts against, with its server (see [`asker_of`]).
    asker: Option<Origin>,
    respond: oneshot::Sender<Settled>,
}

#[derive(Default)]
struct Table {
    next_id: u64,
    waiting: HashMap<u64, Waiting>,
    /// When each asker asked each server lately, for the per-minute limit.
    asked: HashMap<(Option<Origin>, String), Recent>,
}

/// The broker: cheap to clone, shared by every server's client and every face.
#[derive(Clone)]
pub struct Broker {
    table: Arc<Mutex<Table>>,
    events: broadcast::Sender<BrokerEvent>,
    timeout: Duration,
    /// Requests one asker may have waiting for one server at once; more are refused at once.
    per_server_limit: usize,
    /// Requests one asker may make of one server in a minute, answered or not.
    per_minute_limit: usize,
    /// None: every request comes forward.
    forward: Option<Forward>,
}

const EVENT_CAPACITY: usize = 256;

impl Broker {
    pub fn new(timeout: Duration, per_server_limit: usize) -> Self {
        Self {
            table: Arc::default(),
            events: broadcast::channel(EVENT_CAPACITY).0,
            timeout,
            per_server_limit,
            per_minute_limit: per_server_limit.saturating_mul(8),
            forward: None,
        }
    }

    /// Lets `forward` decide which requests come forward as a dialog at once.
    pub fn with_forward(mut self, forward: Forward) -> Self {
        self.forward = Some(forward);
        self
    }

    fn table(&self) -> parking_lot::MutexGuard<'_, Table> {
        self.table.lock()
    }

    /// Every change to the pending list, for faces that show it.
    pub fn subscribe(&self) -> broadcast::Receiver<BrokerEvent> {
        self.events.subscribe()
    }

    /// How many questions wait for an answer now.
    pub fn waiting(&self) -> usize {
        self.table().waiting.len()
    }

    /// What waits for an answer now, oldest first.
    pub fn pending(&self) -> Vec<Pending> {
        let mut all: Vec<Pending> = self
            .table()
            .waiting
            .values()
            .map(|w| w.pending.clone())
            .collect();
        all.sort_by_key(|p| p.id);
        all
    }

    /// Asks the person and waits for the answer; refuses when the deadline passes, saying
    /// so. If the caller stops waiting (the server cancelled), the request is withdrawn.
    pub async fn ask(&self, server: &str, question: Question) -> Result<Settled, AnswerError> {
        self.ask_then(server, question, Box::new(drop)).await
    }

    /// [`Self::ask`], calling `on_withdrawn` if the caller stops waiting first: faces hear
    /// of the withdrawal once it is done with the [`Announce`] it gets (a record of it
    /// written, say).
    pub async fn ask_then(
        &self,
        server: &str,
        question: Question,
        on_withdrawn: OnWithdrawn,
    ) -> Result<Settled, AnswerError> {
        let (respond, mut answer) = oneshot::channel();
        let deadline_ms = (SystemTime::now() + self.timeout)
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or_default();
        let arrival = match &self.forward {
            Some(forward) => forward(server, &question),
            None => Arrival {
                forward: true,
                during: Vec::new(),
            },
        };
        let asker = asker_of(&question, &arrival.during);
        let pending = {
            let mut table = self.table();
            let waiting = table
                .waiting
                .values()
                .filter(|w| w.pending.server == server && w.asker == asker)
                .count();
            if waiting >= self.per_server_limit {
                return Err(AnswerError::Flooded {
                    server: server.to_owned(),
                    asker: asker_named(asker.as_ref()),
                    limit: self.per_server_limit,
                });
            }
            let now = tokio::time::Instant::now();
            // Askers come and go (each conversation is one): those silent for a minute
            // leave the table, so that it holds only the last minute's.
            table.asked.retain(|_, times| times.slide(now));
            let asked = table
                .asked
                .entry((asker.clone(), server.to_owned()))
                .or_insert_with(|| Recent::new(MINUTE));
            if asked.admit(self.per_minute_limit, now).is_err() {
                return Err(AnswerError::TooFrequent {
                    server: server.to_owned(),
                    asker: asker_named(asker.as_ref()),
                    limit: self.per_minute_limit,
                });
            }
            table.next_id += 1;
            let pending = Pending {
                id: table.next_id,
                server: server.to_owned(),
                question: question.clone(),
                deadline_ms,
                forward: arrival.forward,
                during: arrival.during,
            };
            table.waiting.insert(
                pending.id,
                Waiting {
                    pending: pending.clone(),
                    asker,
                    respond,
                },
            );
            pending
        };
        let id = pending.id;
        let _ = self.events.send(BrokerEvent::Added(Box::new(pending)));
        let mut withdraw = Withdraw {
            broker: self,
            id,
            on_withdrawn: Some(on_withdrawn),
        };
        // The request was dropped unanswered (the broker with it).
        let no_one = |_| Settled::refused(&question, SettledBy::NoOneToAsk);
        let settled = match tokio::time::timeout(self.timeout, &mut answer).await {
            Ok(received) => received.unwrap_or_else(no_one),
            // At the deadline the request leaves the list, unless an answer took it first:
            // an answer the broker accepted is the one that goes.
            Err(_) if self.remove(id) => Settled::refused(&question, SettledBy::Timeout),
            Err(_) => answer.await.unwrap_or_else(no_one),
        };
        withdraw.on_withdrawn = None;
        Ok(settled)
    }

    /// Answers a pending request on behalf of the person. `server` must be its owner.
    /// Accepted only if the request still waits for it: once this returns `Ok`, the answer
    /// is the one its asker gets, and acting on it (sharing folders, opening a link) is due.
    pub fn answer(&self, id: u64, server: &str, answer: Answer) -> Result<(), AnswerError> {
        let waiting = {
            let mut table = self.table();
            let Some(waiting) = table.waiting.get(&id) else {
                return Err(AnswerError::NotPending(id));
            };
            if waiting.pending.server != server {
                return Err(AnswerError::WrongOwner {
                    id,
                    owner: waiting.pending.server.clone(),
                    claimed: server.to_owned(),
                });
            }
            if !answer.fits(&waiting.pending.question) {
                return Err(AnswerError::WrongKind(id));
            }
            table.waiting.remove(&id)
        };
        let _ = self.events.send(BrokerEvent::Removed {
            id,
            withdrawn: false,
        });
        // An asker that stopped waiting (its server cancelled) gets nothing.
        match waiting.map(|w| w.respond.send(Settled::by_person(answer))) {
            Some(Ok(())) => Ok(()),
            _ => Err(AnswerError::NotPending(id)),
        }
    }

    /// Refuses everything pending: the face that would have asked is gone.
    pub fn refuse_all(&self) {
        let all: Vec<Waiting> = self.table().waiting.drain().map(|(_, w)| w).collect();
        for waiting in all {
            self.refuse_unasked(waiting);
        }
    }

    /// Refuses one pending request: no face can ask the person it (a command line with no
    /// terminal to ask on).
    pub fn refuse(&self, id: u64) -> Result<(), AnswerError> {
        let waiting = self.table().waiting.remove(&id);
        self.refuse_unasked(waiting.ok_or(AnswerError::NotPending(id))?);
        Ok(())
    }

    fn refuse_unasked(&self, waiting: Waiting) {
        let refusal = Settled::refused(&waiting.pending.question, SettledBy::NoOneToAsk);
        let _ = waiting.respond.send(refusal);
        let _ = self.events.send(BrokerEvent::Removed {
            id: waiting.pending.id,
            withdrawn: false,
        });
    }

    /// Takes a request off the list at its deadline; false if it had left already
    /// (answered or refused).
    fn remove(&self, id: u64) -> bool {
        let removed = self.take(id);
        if removed {
            let _ = self.events.send(BrokerEvent::Removed {
                id,
                withdrawn: false,
            });
        }
        removed
    }

    fn take(&self, id: u64) -> bool {
        self.table().waiting.remove(&id).is_some()
    }
}

/// Takes a request off the list if its caller stops waiting (its future is dropped)
/// before it was settled: it was withdrawn.
struct Withdraw<'a> {
    broker: &'a Broker,
    id: u64,
    /// `None` once the request was settled.
    on_withdrawn: Option<OnWithdrawn>,
}

impl Drop for Withdraw<'_> {
    fn drop(&mut self) {
        let Some(on_withdrawn) = self.on_withdrawn.take() else {
            return;
        };
        if self.broker.take(self.id) {
            on_withdrawn(Announce {
                events: self.broker.events.clone(),
                id: self.id,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool_call() -> Question {
        Question::ToolCall {
            tool: "delete_note".into(),
            arguments: json!({"title": "groceries"}).as_object().cloned().unwrap(),
            annotations: None,
            changed: None,
            asked_by: crate::decisions::Origin::Person,
        }
    }

    async fn first_added(events: &mut broadcast::Receiver<BrokerEvent>) -> Pending {
        match events.recv().await.unwrap() {
            BrokerEvent::Added(p) => *p,
            other => panic!("expected an added request, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn an_answer_reaches_the_asking_server_with_the_persons_edits() {
        let broker = Broker::new(Duration::from_secs(60), 8);
        let mut events = broker.subscribe();
        let asking = tokio::spawn({
            let broker = broker.clone();
            async move { broker.ask("notes", tool_call()).await }
        });
        let pending = first_added(&mut events).await;
        assert_eq!(pending.server, "notes");
        assert_eq!(broker.pending(), std::slice::from_ref(&pending));
        let edited = json!({"title": "old groceries"})
            .as_object()
            .cloned()
            .unwrap();
        let answer = Answer::ToolCall {
            allow: true,
            arguments: edited.clone(),
            remember: Remember::Once,
        };
        broker.answer(pending.id, "notes", answer.clone()).unwrap();
        assert_eq!(asking.await.unwrap(), Ok(Settled::by_person(answer)));
        assert_eq!(
            events.recv().await.unwrap(),
            BrokerEvent::Removed {
                id: pending.id,
                withdrawn: false
            }
        );
        assert!(broker.pending().is_empty());
    }

    #[tokio::test]
    async fn answers_are_checked_for_owner_kind_and_freshness() {
        let broker = Broker::new(Duration::from_secs(60), 8);
        let mut events = broker.subscribe();
        let asking = tokio::spawn({
            let broker = broker.clone();
            async move { broker.ask("notes", tool_call()).await }
        });
        let id = first_added(&mut events).await.id;
        assert_eq!(
            broker.answer(id, "other", Answer::Roots(vec![])),
            Err(AnswerError::WrongOwner {
                id,
                owner: "notes".into(),
                claimed: "other".into()
            })
        );
        assert_eq!(
            broker.answer(id, "notes", Answer::Roots(vec![])),
            Err(AnswerError::WrongKind(id))
        );
        let deny = Answer::ToolCall {
            allow: false,
            arguments: Map::new(),
            remember: Remember::Once,
        };
        broker.answer(id, "notes", deny.clone()).unwrap();
        assert_eq!(
            broker.answer(id, "notes", deny.clone()),
            Err(AnswerError::NotPending(id))
        );
        assert_eq!(asking.await.unwrap(), Ok(Settled::by_person(deny)));
    }

    #[tokio::test(start_paused = true)]
    async fn an_unanswered_request_is_refused_at_its_deadline() {
        let broker = Broker::new(Duration::from_secs(30), 8);
        let params = serde_json::from_value(
            json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}),
        )
        .unwrap();
        let answer = broker
            .ask("s", Question::Elicitation { params })
            .await
            .unwrap();
        assert_eq!(
            answer,
            Settled {
                answer: Answer::Elicitation(Box::new(ElicitResult::cancelled())),
                by: SettledBy::Timeout
            }
        );
        assert!(broker.pending().is_empty());
        let answer = broker.ask("s", Question::Roots).await.unwrap();
        assert_eq!(
            answer.answer,
            Answer::Roots(vec![]),
            "nothing is exposed without consent"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_at_the_deadline_is_either_the_one_that_goes_or_refused() {
        let broker = Broker::new(Duration::from_secs(30), 8);
        let mut events = broker.subscribe();
        let asking = tokio::spawn({
            let broker = broker.clone();
            async move { broker.ask("s", Question::Roots).await }
        });
        let id = first_added(&mut events).await.id;
        tokio::time::advance(Duration::from_secs(30)).await;
        let root = Root::new("file:///late", None);
        let answered = broker.answer(id, "s", Answer::Roots(vec![root.clone()]));
        let got = asking.await.unwrap().unwrap();
        match answered {
            Ok(()) => assert_eq!(got, Settled::by_person(Answer::Roots(vec![root]))),
            Err(e) => {
                assert_eq!(e, AnswerError::NotPending(id));
                assert_eq!(got.answer, Answer::Roots(vec![]), "nothing is shared");
                assert_eq!(got.by, SettledBy::Timeout);
            }
        }
    }

    #[tokio::test]
    async fn a_closed_face_refuses_everything_explicitly() {
        let broker = Broker::new(Duration::from_secs(60), 8);
        let mut events = broker.subscribe();
        let asking = tokio::spawn({
            let broker = broker.clone();
            async move {
                broker
                    .ask(
                        "s",
                        Question::Sampling {
                            params: serde_json::from_value(json!({"messages": [], "maxTokens": 5}))
                                .unwrap(),
                        },
                    )
                    .await
            }
        });
        first_added(&mut events).await;
        broker.refuse_all();
        assert_eq!(
            asking.await.unwrap(),
            Ok(Settled {
                answer: Answer::Sampling(Err(Refusal::NoOneToAsk)),
                by: SettledBy::NoOneToAsk
            })
        );
    }

    #[tokio::test]
    async fn a_server_that_stops_waiting_withdraws_its_request() {
        let broker = Broker::new(Duration::from_secs(60), 8);
        let mut events = broker.subscribe();
        let asking = tokio::spawn({
            let broker = broker.clone();
            async move { broker.ask("s", Question::Roots).await }
        });
        let id = first_added(&mut events).await.id;
        asking.abort();
        assert_eq!(
            events.recv().await.unwrap(),
            BrokerEvent::Removed {
                id,
                withdrawn: true
            }
        );
        assert!(broker.pending().is_empty());
    }

    #[tokio::test]
    async fn a_withdrawal_is_announced_once_its_hook_is_done_with_it() {
        let broker = Broker::new(Duration::from_secs(60), 8);
        let mut events = broker.subscribe();
        let (hooked, mut announced) = tokio::sync::mpsc::unbounded_channel();
        let asking = tokio::spawn({
            let broker = broker.clone();
            let on_withdrawn: OnWithdrawn = Box::new(move |announce| {
                let _ = hooked.send(announce);
            });
            async move { broker.ask_then("s", Question::Roots, on_withdrawn).await }
        });
        let id = first_added(&mut events).await.id;
        asking.abort();
        let announce = announced.recv().await.expect("the hook is called");
        assert!(broker.pending().is_empty(), "off the list at once");
        assert!(
            events.try_recv().is_err(),
            "not announced while the hook holds it"
        );
        drop(announce);
        assert_eq!(
            events.recv().await.unwrap(),
            BrokerEvent::Removed {
                id,
                withdrawn: true
            }
        );
    }

    #[tokio::test]
    async fn an_answered_or_refused_request_is_not_withdrawn_and_calls_no_hook() {
        let broker = Broker::new(Duration::from_secs(60), 8);
        let mut events = broker.subscribe();
        let on_withdrawn: OnWithdrawn = Box::new(|_| panic!("not withdrawn"));
        let asking = tokio::spawn({
            let broker = broker.clone();
            async move { broker.ask_then("s", Question::Roots, on_withdrawn).await }
        });
        let id = first_added(&mut events).await.id;
        broker.answer(id, "s", Answer::Roots(vec![])).unwrap();
        asking.await.unwrap().unwrap();
        assert_eq!(
            events.recv().await.unwrap(),
            BrokerEvent::Removed {
                id,
                withdrawn: false
            }
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_server_that_asks_too_often_is_refused_until_the_minute_has_passed() {
        let broker = Broker::new(Duration::from_secs(1), 1);
        let limit = 8;
        for _ in 0..limit {
            // Each goes unanswered and is refused at its deadline: never more than one waiting.
            broker.ask("chatty", Question::Roots).await.unwrap();
        }
        assert_eq!(
            broker.ask("chatty", Question::Roots).await,
            Err(AnswerError::TooFrequent {
                server: "chatty".into(),
                asker: "the server itself".into(),
                limit
            })
        );
        tokio::time::sleep(Duration::from_secs(60)).await;
        assert!(broker.ask("chatty", Question::Roots).await.is_ok());
    }

    #[tokio::test]
    async fn a_flooding_server_is_refused_beyond_its_limit_and_others_are_not() {
        let broker = Broker::new(Duration::from_secs(60), 2);
        let mut events = broker.subscribe();
        for _ in 0..2 {
            let broker = broker.clone();
            tokio::spawn(async move { broker.ask("flood", Question::Roots).await });
            first_added(&mut events).await;
        }
        assert_eq!(
            broker.ask("flood", Question::Roots).await,
            Err(AnswerError::Flooded {
                server: "flood".into(),
                asker: "the server itself".into(),
                limit: 2
            })
        );
        let calm = tokio::spawn({
            let broker = broker.clone();
            async move { broker.ask("calm", Question::Roots).await }
        });
        let id = first_added(&mut events).await.id;
        broker.answer(id, "calm", Answer::Roots(vec![])).unwrap();
        assert!(calm.await.unwrap().is_ok());
    }

    fn call_by(origin: Origin) -> Question {
        match tool_call() {
            Question::ToolCall {
                tool,
                arguments,
                annotations,
                changed,
                ..
            } => Question::ToolCall {
                tool,
                arguments,
                annotations,
                changed,
                asked_by: origin,
            },
            _ => unreachable!(),
        }
    }

    fn agent(name: &str) -> Origin {
        Origin::Agent { name: name.into() }
    }

    /// A broker whose servers serve calls of these origins, as the desk tells it.
    fn serving(origins: &[Origin]) -> Broker {
        let during = serving_of(origins);
        Broker::new(Duration::from_secs(60), 2).with_forward(Arc::new(move |_, _| Arrival {
            forward: true,
            during: during.clone(),
        }))
    }

    #[tokio::test]
    async fn an_agent_flooding_a_server_leaves_room_for_everyone_elses_questions() {
        let broker = Broker::new(Duration::from_secs(60), 2);
        let mut events = broker.subscribe();
        for _ in 0..2 {
            let broker = broker.clone();
            tokio::spawn(async move { broker.ask("notes", call_by(agent("flood"))).await });
            first_added(&mut events).await;
        }
        assert_eq!(
            broker.ask("notes", call_by(agent("flood"))).await,
            Err(AnswerError::Flooded {
                server: "notes".into(),
                asker: "agent flood".into(),
                limit: 2
            })
        );
        // The person's own call, another agent's, and the server's own question still ask.
        for question in [
            call_by(Origin::Person),
            call_by(agent("calm")),
            Question::Roots,
        ] {
            let broker = broker.clone();
            tokio::spawn(async move { broker.ask("notes", question).await });
            first_added(&mut events).await;
        }
        assert_eq!(broker.pending().len(), 5);
    }

    #[tokio::test(start_paused = true)]
    async fn the_per_minute_limit_counts_each_asker_of_a_server_apart() {
        let broker = Broker::new(Duration::from_secs(1), 1);
        for _ in 0..8 {
            let refused = broker.ask("notes", call_by(agent("chatty"))).await.unwrap();
            assert_eq!(refused.by, SettledBy::Timeout);
        }
        assert!(matches!(
            broker.ask("notes", call_by(agent("chatty"))).await,
            Err(AnswerError::TooFrequent { .. })
        ));
        let own = broker.ask("notes", call_by(Origin::Person)).await.unwrap();
        assert_eq!(own.by, SettledBy::Timeout, "asked, not refused at once");
    }

    #[tokio::test]
    async fn a_servers_questions_count_against_the_one_whose_calls_it_serves() {
        // Serving an agent's call, the server's questions are that agent's: they do not
        // take the room of the server's questions while it serves the person.
        let for_agent = serving(&[agent("flood")]);
        let mut events = for_agent.subscribe();
        for _ in 0..2 {
            let broker = for_agent.clone();
            tokio::spawn(async move { broker.ask("notes", Question::Roots).await });
            let pending = first_added(&mut events).await;
            assert_eq!(pending.during[0].origin, agent("flood"));
        }
        assert!(matches!(
            for_agent.ask("notes", Question::Roots).await,
            Err(AnswerError::Flooded { asker, .. }) if asker == "agent flood"
        ));
        assert_eq!(
            asker_of(&Question::Roots, &serving_of(&[Origin::Person])),
            Some(Origin::Person)
        );
        // Serving calls of two, whose question it is cannot be told: the server's own.
        let both = serving_of(&[agent("flood"), Origin::Person]);
        assert_eq!(asker_of(&Question::Roots, &both), None);
        assert_eq!(asker_of(&Question::Roots, &[]), None);
        assert_eq!(
            asker_of(&call_by(agent("a")), &both),
            Some(agent("a")),
            "a tool call is its caller's"
        );
    }

    fn serving_of(origins: &[Origin]) -> Vec<Serving> {
        origins
            .iter()
            .map(|origin| Serving {
                origin: origin.clone(),
                call: "search".into(),
                read: None,
            })
            .collect()
    }
}
