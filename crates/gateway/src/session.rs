//! One agent's session with the gateway: Switchboard answering as an MCP server over any
//! transport, with what the agent may see of the running servers, every tool call through
//! the gate as the agent's.

use parking_lot::Mutex;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::{Map, Value, json};
use switchboard_mcp::ProtocolVersion;
use switchboard_mcp::client::{Client, ClientError, declaring, logging_at};
use switchboard_mcp::connection::{Connection, IncomingHandler, RequestOptions, WeakConnection};
use switchboard_mcp::jsonrpc::{
    ErrorObject, RequestId, code, encode_result as encode, read_params as parse,
};
use switchboard_mcp::server::http::{Peer, SessionFactory, SessionStart};
use switchboard_mcp::server::stateless::{self, RequestMeta};
use switchboard_mcp::transport::{BoxFuture, TransportParts};
use switchboard_mcp::types::*;
use tokio::sync::{broadcast, mpsc};

use crate::names::{self, Named, Naming};
use crate::refusal;
use crate::subscriptions::Subscriptions;
use switchboard_core::catalog::Offer;
use switchboard_core::gate::CallError;
use switchboard_desk::agents::AgentCall;
use switchboard_desk::{AgentError, AgentLine, Agents, LogEntry, Update};

use switchboard_core::reads::Read;
use switchboard_core::server_events::{LogSource, ServerEvent};

mod asks;
mod listen;

use asks::{AgentAsks, Asked, Questions, Resumed};

/// How an agent reached the gateway, as its calls are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `switchboard-cli bridge`, through the local socket.
    Bridge,
    /// Streamable HTTP, with the agent's bearer token.
    Http,
}

/// Who is at the other end of a gateway connection, as its transport established it:
/// the name of a configured agent (the bridge's registration, or the agent a bearer
/// token belongs to). The session checks the name against the configuration at each
/// request, so an agent removed meanwhile is refused at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub agent: String,
    pub via: Via,
}

/// The gateway's sessions on the engine's Streamable HTTP server: the identity its token
/// check gives a request is the agent's name (a request with none is refused as an agent
/// not configured).
pub fn http_sessions(agents: &Agents) -> impl SessionFactory + use<> {
    http_sessions_named(agents, Naming::prefixed())
}

/// [`http_sessions`] whose agents see the tools and prompts named as `naming` says.
pub fn http_sessions_named(agents: &Agents, naming: Naming) -> impl SessionFactory + use<> {
    let agents = agents.clone();
    let questions = Arc::<Questions>::default();
    move |start: SessionStart| -> Arc<dyn IncomingHandler> {
        let caller = Caller {
            agent: start
                .identity
                .map(|i| i.as_str().to_owned())
                .unwrap_or_default(),
            via: Via::Http,
        };
        let session = Session::asking_in(agents.clone(), caller, questions.clone(), naming.clone());
        *session.inner.peer.lock() = Some(start.peer);
        Arc::new(session)
    }
}

/// Serves `caller` on `transport` until either side closes it; returns the connection.
pub fn serve(agents: &Agents, caller: Caller, transport: TransportParts) -> Connection {
    let session = Session::new(agents.clone(), caller);
    let connection = Connection::start(transport, Arc::new(session.clone()));
    session.attach(&connection);
    connection
}

/// The server side of one connection, for one agent.
#[derive(Clone)]
pub struct Session {
    inner: Arc<Inner>,
}

struct Inner {
    agents: Agents,
    caller: Caller,
    /// Set once the connection runs: notifications go through it.
    connection: OnceLock<WeakConnection>,
    /// Where a transport that starts the connection itself (HTTP) puts it: the session
    /// attaches to it at `initialize`.
    peer: Mutex<Option<Peer>>,
    state: Mutex<State>,
    calls: AtomicU64,
    /// This session's own number, among every agent's.
    number: u64,
    subscriptions: Subscriptions,
    /// Stateless calls that wait for the agent's answer, and what each agent listed of its
    /// roots, shared by every request of the agents of one transport (each stateless
    /// request over HTTP is a session of its own).
    questions: Arc<Questions>,
    naming: Naming,
}

/// Numbers the sessions: two sessions of one agent are two.
static SESSIONS: AtomicU64 = AtomicU64::new(0);

#[derive(Default)]
struct State {
    /// Whether the agent said `notifications/initialized`: nothing is sent before.
    ready: bool,
    /// The least severe level of server log messages the agent wants (none: none).
    log_level: Option<LoggingLevel>,
    /// What the agent was offered, as last seen, to tell it only of real changes.
    seen: Seen,
    /// What the agent declared it can answer at `initialize`.
    declared: ClientCapabilities,
    /// The roots it offered last, to ask the person again only of a change.
    offered: Option<Vec<Root>>,
}

/// How long an agent may take to list its roots.
const ROOTS_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Fingerprints of the lists an agent sees.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
struct Seen {
    tools: u64,
    resources: u64,
    prompts: u64,
}

const INSTRUCTIONS: &str = "Switchboard gives you the tools, resources and prompts of the person's MCP servers, \
named `server__name`. The person approves each tool call, so a call may wait for them, and may be denied.";

impl Session {
    pub fn new(agents: Agents, caller: Caller) -> Self {
        Self::asking_in(agents, caller, Arc::default(), Naming::prefixed())
    }

    fn asking_in(
        agents: Agents,
        caller: Caller,
        questions: Arc<Questions>,
        naming: Naming,
    ) -> Self {
        Self {
            inner: Arc::new(Inner {
                subscriptions: Subscriptions::new(agents.clone()),
                agents,
                caller,
                connection: OnceLock::new(),
                peer: Mutex::default(),
                state: Mutex::default(),
                calls: AtomicU64::new(0),
                number: SESSIONS.fetch_add(1, Ordering::Relaxed),
                questions,
                naming,
            }),
        }
    }

    /// Gives the session its connection, and follows the servers' offers for the agent
    /// from now on, until the connection closes.
    pub fn attach(&self, connection: &Connection) {
        let _ = self.inner.connection.set(connection.downgrade());
        let by_token = self.inner.caller.via == Via::Http;
        let held = self
            .inner
            .agents
            .session_opened(self.agent(), connection, by_token);
        let mut updates = self.inner.agents.updates();
        self.state().seen = self.seen_now();
        let session = self.clone();
        let connection = connection.clone();
        tokio::spawn(async move {
            // Live while the connection is.
            let _held = held;
            loop {
                let update = tokio::select! {
                    _ = connection.wait_closed() => return,
                    update = updates.recv() => update,
                };
                match update {
                    Ok(Update::Log { entry }) => session.log(entry).await,
                    Ok(Update::ResourceUpdated { server, uri }) => {
                        let subscriptions = &session.inner.subscriptions;
                        if let Some(notice) = subscriptions.notice(session.agent(), &server, &uri) {
                            session
                                .notify(method::RESOURCES_UPDATED, Some(notice))
                                .await;
                        }
                    }
                    _ if may_change_offers(&update) => session.offers_changed().await,
                    Ok(_) => {}
                    // Closed (a lag is taken as a change, above).
                    Err(_) => return,
                }
            }
        });
    }

    fn state(&self) -> parking_lot::MutexGuard<'_, State> {
        self.inner.state.lock()
    }

    fn agent(&self) -> &str {
        &self.inner.caller.agent
    }

    /// What the agent sees of the running servers, or why it sees nothing.
    fn offers(&self) -> Result<Vec<(String, Offer)>, ErrorObject> {
        self.inner
            .agents
            .offers_for(self.agent())
            .ok_or_else(|| not_configured(self.agent()))
    }

    /// The catalog's id of the tool the agent named `seen`.
    fn tool_id(&self, seen: &str) -> String {
        self.inner
            .naming
            .tool_id(seen, || self.offers().unwrap_or_default())
    }

    fn seen_now(&self) -> Seen {
        let offers = self.offers().unwrap_or_default();
        let digest = |pick: &dyn Fn(&Offer) -> Value| {
            let mut hasher = DefaultHasher::new();
            for (server, offer) in &offers {
                server.hash(&mut hasher);
                pick(offer).to_string().hash(&mut hasher);
            }
            hasher.finish()
        };
        Seen {
            tools: digest(&|o| json!(o.tools)),
            resources: digest(&|o| json!([o.resources, o.templates])),
            prompts: digest(&|o| json!(o.prompts)),
        }
    }

    /// Tells the agent which of its lists changed, if any did.
    async fn offers_changed(&self) {
        let now = self.seen_now();
        let (before, ready) = {
            let mut state = self.state();
            (std::mem::replace(&mut state.seen, now), state.ready)
        };
        if !ready {
            return;
        }
        let changed = [
            (before.tools != now.tools, method::TOOLS_LIST_CHANGED),
            (
                before.resources != now.resources,
                method::RESOURCES_LIST_CHANGED,
            ),
            (before.prompts != now.prompts, method::PROMPTS_LIST_CHANGED),
        ];
        for (_, method) in changed.into_iter().filter(|(changed, _)| *changed) {
            self.notify(method, None).await;
        }
    }

    /// Passes on a server's own log message, if the agent asked for its level and may use
    /// the server.
    async fn log(&self, entry: LogEntry) {
        let Some(wanted) = self.state().log_level else {
            return;
        };
        let Some(message) = log_message(&entry, wanted) else {
            return;
        };
        let reaches = self
            .inner
            .agents
            .config(self.agent())
            .is_some_and(|agent| agent.reaches(&entry.server));
        if reaches {
            self.notify(method::LOGGING_MESSAGE, Some(message)).await;
        }
    }

    /// The agent's connection, while it lasts: the one the session attached to, else (a
    /// stateless request over HTTP, which has a connection of its own) the transport's.
    fn connection(&self) -> Option<Connection> {
        self.inner
            .connection
            .get()
            .and_then(WeakConnection::upgrade)
            .or_else(|| {
                let peer = self.inner.peer.lock();
                peer.as_ref().and_then(Peer::connection)
            })
    }

    async fn notify(&self, method: &str, params: Option<Value>) {
        let Some(connection) = self.connection() else {
            return;
        };
        // The agent gone, there is no one left to tell.
        let _ = connection.notify(method, params).await;
    }

    async fn answer(
        self,
        id: Option<RequestId>,
        method: String,
        params: Option<Value>,
    ) -> Result<Value, ErrorObject> {
        if method == method::PING {
            return Ok(json!({}));
        }
        // Refused as soon as the person removes the agent.
        if self.inner.agents.config(self.agent()).is_none() {
            return Err(not_configured(self.agent()));
        }
        let stateless = stateless::is_stateless(params.as_ref())
            || matches!(
                method.as_str(),
                method::SERVER_DISCOVER | method::SUBSCRIPTIONS_LISTEN
            );
        if stateless {
            return self.answer_stateless(id, method, params).await;
        }
        if method == method::INITIALIZE {
            let peer = self.inner.peer.lock().take();
            if let Some(connection) = peer.and_then(|peer| peer.connection()) {
                self.attach(&connection);
            }
        }
        match method.as_str() {
            method::INITIALIZE => encode(self.initialize(parse(params)?)),
            method::LOGGING_SET_LEVEL => {
                let params: SetLevelRequestParams = parse(params)?;
                self.state().log_level = Some(params.level);
                Ok(json!({}))
            }
            method::RESOURCES_SUBSCRIBE => {
                let params: SubscribeRequestParams = parse(params)?;
                let offers = self.offers()?;
                let subscriptions = &self.inner.subscriptions;
                subscriptions
                    .subscribe(self.agent(), &offers, &params.uri, self.token())
                    .await
            }
            method::RESOURCES_UNSUBSCRIBE => {
                let params: UnsubscribeRequestParams = parse(params)?;
                self.inner.subscriptions.unsubscribe(&params.uri).await
            }
            _ => self.answer_either(&method, params, Era::Stateful).await,
        }
    }

    /// A request of the 2026-07-28 revision: it says in `_meta` who asks in which revision,
    /// and is answered with no handshake before it; results are marked `complete`, with
    /// Switchboard's identity and, for lists and reads, caching hints (fresh for no time:
    /// the person may change what the agent sees at any moment; for this agent only).
    async fn answer_stateless(
        self,
        id: Option<RequestId>,
        method: String,
        params: Option<Value>,
    ) -> Result<Value, ErrorObject> {
        let meta = stateless::read_meta(
            params.as_ref(),
            &[ProtocolVersion::V2026_07_28],
            &ProtocolVersion::NEWEST_FIRST,
        )?;
        let result = match method.as_str() {
            method::SERVER_DISCOVER => self.discover(),
            method::SUBSCRIPTIONS_LISTEN => self.listen(id, params).await?,
            // The revision's own removals, and anything else unknown.
            method::INITIALIZE
            | method::LOGGING_SET_LEVEL
            | method::RESOURCES_SUBSCRIBE
            | method::RESOURCES_UNSUBSCRIBE => return Err(ErrorObject::method_not_found(&method)),
            _ => {
                let cacheable = matches!(
                    method.as_str(),
                    method::TOOLS_LIST
                        | method::PROMPTS_LIST
                        | method::RESOURCES_LIST
                        | method::RESOURCES_TEMPLATES_LIST
                        | method::RESOURCES_READ
                );
                let result = self
                    .answer_either(&method, params, Era::Stateless(Box::new(meta)))
                    .await?;
                if cacheable {
                    stateless::with_cache_hints(result, 0, true)
                } else {
                    result
                }
            }
        };
        Ok(stateless::complete(result, &server_info()))
    }

    /// What both eras answer alike.
    async fn answer_either(
        &self,
        method: &str,
        params: Option<Value>,
        era: Era,
    ) -> Result<Value, ErrorObject> {
        match method {
            method::TOOLS_LIST => self.list_tools(),
            method::TOOLS_CALL => self.call_tool(parse(params)?, &era).await,
            method::RESOURCES_LIST => self.list("resources", |server, offer| {
                offer.resources.iter().map(|r| tagged(r, server)).collect()
            }),
            method::RESOURCES_TEMPLATES_LIST => self.list("resourceTemplates", |server, offer| {
                offer.templates.iter().map(|t| tagged(t, server)).collect()
            }),
            method::RESOURCES_READ => self.read_resource(parse(params)?, &era).await,
            method::PROMPTS_LIST => self.list("prompts", |server, offer| {
                offer
                    .prompts
                    .iter()
                    .map(|p| {
                        let mut shown = tagged(p, server);
                        shown["name"] = json!(self.inner.naming.shown(server, &p.name));
                        shown
                    })
                    .collect()
            }),
            method::PROMPTS_GET => self.get_prompt(parse(params)?, &era).await,
            method::COMPLETION_COMPLETE => self.complete(parse(params)?, &era).await,
            other => Err(ErrorObject::method_not_found(other)),
        }
    }

    fn initialize(&self, params: InitializeRequestParams) -> InitializeResult {
        self.state().declared = params.capabilities.clone();
        let version = match params.protocol_version.parse::<ProtocolVersion>() {
            Ok(version) if version.is_stateful() => version,
            _ => ProtocolVersion::LATEST_STATEFUL,
        };
        tracing::info!(
            "agent {} ({}) connected through the gateway ({:?}), revision {version}",
            self.agent(),
            params.client_info.display_name(),
            self.inner.caller.via,
        );
        InitializeResult {
            protocol_version: version.as_str().to_owned(),
            capabilities: capabilities(),
            server_info: server_info(),
            instructions: Some(INSTRUCTIONS.to_owned()),
            meta: None,
            extra: Map::new(),
        }
    }

    /// `server/discover`: every revision the gateway speaks (it answers `initialize` too),
    /// what it offers in the stateless one, and how to use it.
    fn discover(&self) -> Value {
        let versions: Vec<&str> = ProtocolVersion::NEWEST_FIRST
            .iter()
            .map(|v| v.as_str())
            .collect();
        let result = json!({
            "supportedVersions": versions,
            "capabilities": capabilities(),
            "instructions": INSTRUCTIONS,
        });
        stateless::with_cache_hints(result, 0, true)
    }

    fn list_tools(&self) -> Result<Value, ErrorObject> {
        self.list("tools", |server, offer| {
            offer
                .tools
                .iter()
                .map(|tool| {
                    let mut shown = tagged(tool, server);
                    shown["name"] = json!(self.inner.naming.shown(server, &tool.name));
                    shown
                })
                .collect()
        })
    }

    /// One list (`key`) of every server's items, each server's made by `of`, in one page;
    /// empty when no server offers any.
    fn list(
        &self,
        key: &str,
        of: impl Fn(&str, &Offer) -> Vec<Value>,
    ) -> Result<Value, ErrorObject> {
        let mut all = Vec::new();
        for (server, offer) in self.offers()? {
            all.extend(of(&server, &offer));
        }
        Ok(json!({ key: all }))
    }

    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        era: &Era,
    ) -> Result<Value, ErrorObject> {
        let progress_token = params
            .meta
            .as_ref()
            .and_then(|meta| meta.get("progressToken"))
            .cloned()
            .filter(|token| token.is_string() || token.is_i64());
        let what = format!("{} {}", method::TOOLS_CALL, params.name);
        let mut given = given(&params.extra, era)?;
        if let Some(outcome) = self
            .resume(
                &what,
                &params.extra,
                era,
                progress_token.clone(),
                &mut given,
            )
            .await?
        {
            return outcome.told(told);
        }
        let Some((server, name)) = self
            .inner
            .agents
            .tool(self.agent(), &self.tool_id(&params.name))
        else {
            return Err(ErrorObject::invalid_params(format!(
                "unknown tool {:?}: list the tools to see those {} may call",
                params.name,
                self.agent()
            )));
        };
        let (report, reports) = match progress_token {
            Some(_) => {
                let (report, reports) = mpsc::channel(16);
                (Some(report), Some(reports))
            }
            None => (None, None),
        };
        let arguments = params.arguments.unwrap_or_default();
        let (agents, agent) = (self.inner.agents.clone(), self.agent().to_owned());
        let running = self.start(&server, era, reports, move |server, token| async move {
            let call = AgentCall {
                server,
                tool: name,
                arguments,
                token,
                report,
            };
            agents.call(&agent, call).await
        });
        self.follow(running, &what, progress_token, self.logs_for(era), given)
            .await?
            .told(told)
    }

    /// A new token for a call or read of the agent's, unique among every agent's.
    fn token(&self) -> String {
        let n = self.inner.calls.fetch_add(1, Ordering::Relaxed);
        format!("agent:{}:{}:{n}", self.agent(), self.inner.number)
    }

    /// Starts a call or read of the agent's (`work`, given the server and the token that
    /// names it among the calls under way) of `server`, on its own: an agent that cancels it
    /// (or goes away) drops what follows it, and it is cancelled as the window's would be,
    /// told to the server and recorded as such. What the server asks while serving it may
    /// be the agent's to answer: over its session, or (stateless) as its interim result.
    fn start<F>(
        &self,
        server: &str,
        era: &Era,
        reports: Option<mpsc::Receiver<switchboard_mcp::connection::Progress>>,
        work: impl FnOnce(String, String) -> F,
    ) -> Running
    where
        F: Future<Output = Result<Value, AgentError>> + Send + 'static,
    {
        let token = self.token();
        let (asks, declared) = match era {
            Era::Stateful => {
                // A session's agent offers its roots when it connects and when they change:
                // a server's own question for roots is the person's.
                let mut declared = self.state().declared.clone();
                declared.roots = None;
                (None, declared)
            }
            Era::Stateless(meta) => (Some(AgentAsks::open()), meta.capabilities.clone()),
        };
        // A stateless server is told what a stateless agent can answer (its sampling and
        // forms; the person's folders answer for roots), so that it asks nothing more.
        let told = match era {
            Era::Stateful => None,
            Era::Stateless(_) => {
                let mut told = declared.clone();
                told.roots = ClientCapabilities::all().roots;
                Some(told)
            }
        };
        let connection = match &asks {
            Some(asks) => Some(asks.connection().clone()),
            None => self.connection(),
        };
        let line = connection.map(|connection| {
            let line = AgentLine {
                agent: self.agent().to_owned(),
                session: self.inner.number,
                connection: connection.downgrade(),
                declared,
            };
            self.inner.agents.call_made_by(&token, line)
        });
        // A stateless server logs only to a request that names a level: the agent's goes along.
        let level = match era {
            Era::Stateful => self.state().log_level,
            Era::Stateless(meta) => meta.log_level,
        };
        let work = work(server.to_owned(), token.clone());
        let call = tokio::spawn(async move {
            let work = async move {
                match level {
                    Some(level) => logging_at(level, work).await,
                    None => work.await,
                }
            };
            match told {
                Some(told) => declaring(told, work).await,
                None => work.await,
            }
        });
        Running {
            server: server.to_owned(),
            call,
            reports,
            asks,
            _line: line,
            _cancel_if_dropped: CancelOnDrop {
                agents: self.inner.agents.clone(),
                token,
            },
        }
    }

    /// Takes up the request of the agent's (`what`) that a stateless retry names by its
    /// `requestState` (in `extra`), with the answers it brought: how it came out; none for a
    /// request that is not such a retry.
    async fn resume(
        &self,
        what: &str,
        extra: &Map<String, Value>,
        era: &Era,
        progress_token: Option<Value>,
        given: &mut Map<String, Value>,
    ) -> Result<Option<Outcome>, ErrorObject> {
        let (Era::Stateless(_), Some(state)) = (era, extra.get("requestState")) else {
            return Ok(None);
        };
        let (resumed, offers) = self
            .inner
            .questions
            .resume(state, self.agent(), what, given)?;
        self.offer_each(offers);
        match resumed {
            Resumed::Running(running) => {
                let given = std::mem::take(given);
                let logs = self.logs_for(era);
                let outcome = self
                    .follow(running, what, progress_token, logs, given)
                    .await?;
                Ok(Some(outcome))
            }
            Resumed::AskAgain(interim) => Ok(Some(Outcome::Asks(interim))),
        }
    }

    /// Runs a read of the agent's (`what`: its method and what it names) of `server` to its
    /// end, or to the server's questions for a stateless agent (`given`: the answers it
    /// brought in advance).
    async fn read<T, F>(
        &self,
        server: &str,
        read: Read,
        (what, era, given): (&str, &Era, Map<String, Value>),
        reading: impl FnOnce(Client) -> F + Send + 'static,
    ) -> Result<Outcome, ErrorObject>
    where
        T: Serialize,
        F: Future<Output = Result<T, ClientError>> + Send + 'static,
    {
        let (agents, agent) = (self.inner.agents.clone(), self.agent().to_owned());
        let running = self.start(server, era, None, move |server, token| async move {
            let read = agents.read(&agent, &server, read, token, reading).await?;
            Ok(serde_json::to_value(read).unwrap_or(Value::Null))
        });
        self.follow(running, what, None, self.logs_for(era), given)
            .await
    }

    /// The servers' log messages from now on, for a stateless request that asked for them.
    fn logs_for(&self, era: &Era) -> Option<Logs> {
        let Era::Stateless(meta) = era else {
            return None;
        };
        meta.log_level.map(|wanted| Logs {
            events: self.inner.agents.server_events(),
            wanted,
        })
    }

    /// Follows a call to its end, passing its progress on (and, to a stateless request that
    /// asked for them, the server's log messages meanwhile); or, when the server asks a
    /// stateless agent something, parks it and answers with the question.
    async fn follow(
        &self,
        mut running: Running,
        what: &str,
        progress_token: Option<Value>,
        mut logs: Option<Logs>,
        mut given: Map<String, Value>,
    ) -> Result<Outcome, ErrorObject> {
        enum Step {
            Done(Result<Value, AgentError>),
            Progress(switchboard_mcp::connection::Progress),
            Asked(Asked),
            Logged(Value),
        }
        let server = running.server.clone();
        loop {
            let step = {
                let next = async {
                    match running.reports.as_mut() {
                        Some(reports) => reports.recv().await,
                        None => std::future::pending().await,
                    }
                };
                let asked = async {
                    match running.asks.as_mut() {
                        Some(asks) => asks.next().await,
                        None => std::future::pending().await,
                    }
                };
                let logged = async {
                    match logs.as_mut() {
                        Some(logs) => logs.next_of(&server).await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    // What the server sent before its result is passed on before it.
                    biased;
                    Some(step) = next => Step::Progress(step),
                    Some(asked) = asked => Step::Asked(asked),
                    message = logged => Step::Logged(message),
                    outcome = &mut running.call => Step::Done(
                        outcome.unwrap_or_else(|e| Err(AgentError::Interrupted(e.to_string())))
                    ),
                }
            };
            match step {
                Step::Done(outcome) => {
                    for message in logs
                        .as_mut()
                        .map(|l| l.come_of(&server))
                        .unwrap_or_default()
                    {
                        self.notify(method::LOGGING_MESSAGE, Some(message)).await;
                    }
                    return Ok(Outcome::Ended(outcome, server));
                }
                Step::Progress(step) => {
                    let Some(progress_token) = &progress_token else {
                        continue;
                    };
                    let mut params =
                        json!({"progressToken": progress_token, "progress": step.progress});
                    if let Some(total) = step.total {
                        params["total"] = json!(total);
                    }
                    if let Some(message) = step.message {
                        params["message"] = json!(message);
                    }
                    self.notify(method::PROGRESS, Some(params)).await;
                }
                Step::Asked(first) => {
                    // The others the server asked with it come with it.
                    let mut asked = vec![first];
                    while let Some(asks) = running.asks.as_mut()
                        && asked[0]
                            .round
                            .iter()
                            .any(|k| asked.iter().all(|a| &a.key != k))
                    {
                        tokio::select! {
                            more = asks.next() => match more {
                                Some(more) => asked.push(more),
                                None => break,
                            },
                            outcome = &mut running.call => return Ok(Outcome::Ended(
                                outcome.unwrap_or_else(|e| Err(AgentError::Interrupted(e.to_string()))),
                                server,
                            )),
                        }
                    }
                    // Those answered in advance are answered now; the rest, the agent's.
                    let questions = &self.inner.questions;
                    let (settled, offers) =
                        questions.settle(self.agent(), what, running, asked, &mut given)?;
                    self.offer_each(offers);
                    match settled {
                        Resumed::Running(going_on) => running = going_on,
                        Resumed::AskAgain(interim) => return Ok(Outcome::Asks(interim)),
                    }
                }
                Step::Logged(message) => {
                    self.notify(method::LOGGING_MESSAGE, Some(message)).await;
                }
            }
        }
    }

    /// Reads a resource from the server that offers it: the one listing this URI, else
    /// those whose templates match it (the next only when one has no such resource), each
    /// read through the gate; the result names the server that answered.
    async fn read_resource(
        &self,
        params: ReadResourceRequestParams,
        era: &Era,
    ) -> Result<Value, ErrorObject> {
        let what = format!("{} {}", method::RESOURCES_READ, params.uri);
        let mut given = given(&params.extra, era)?;
        let mut last = None;
        if let Some(outcome) = self
            .resume(&what, &params.extra, era, None, &mut given)
            .await?
        {
            match outcome.told(read_told) {
                Err(error) if error.code == code::RESOURCE_NOT_FOUND => last = Some(error),
                told => return told,
            }
        } else {
            let offers = self.offers()?;
            for server in names::owners_of_uri(&offers, &params.uri) {
                let read = Read::Resource {
                    uri: params.uri.clone(),
                };
                let uri = params.uri.clone();
                let outcome = self
                    .read(
                        &server,
                        read,
                        (&what, era, given.clone()),
                        |client| async move {
                            client.read_resource(&uri, client.request_options()).await
                        },
                    )
                    .await?;
                match outcome.told(read_told) {
                    Err(error) if error.code == code::RESOURCE_NOT_FOUND => last = Some(error),
                    told => return told,
                }
            }
        }
        let error = last.unwrap_or_else(|| {
            ErrorObject::new(
                code::RESOURCE_NOT_FOUND,
                format!(
                    "no server {} may use lists {} or has a template for it",
                    self.agent(),
                    params.uri
                ),
            )
        });
        match era {
            // The stateless revision's code for it (whatever the server's revision), with
            // the URI.
            Era::Stateless(_) if error.code == code::RESOURCE_NOT_FOUND => Err(ErrorObject {
                code: code::INVALID_PARAMS,
                message: error.message,
                data: Some(Box::new(json!({"uri": params.uri}))),
            }),
            _ => Err(error),
        }
    }

    async fn get_prompt(
        &self,
        params: GetPromptRequestParams,
        era: &Era,
    ) -> Result<Value, ErrorObject> {
        let what = format!("{} {}", method::PROMPTS_GET, params.name);
        let mut given = given(&params.extra, era)?;
        if let Some(outcome) = self
            .resume(&what, &params.extra, era, None, &mut given)
            .await?
        {
            return outcome.told(read_told);
        }
        let offers = self.offers()?;
        let Some(Named { server, name }) =
            names::find(&self.inner.naming, &offers, &params.name, |o| {
                o.prompts.iter().map(|p| p.name.as_str()).collect()
            })
        else {
            return Err(ErrorObject::invalid_params(format!(
                "unknown prompt {:?}",
                params.name
            )));
        };
        let filled = params.arguments.unwrap_or_default();
        let read = Read::Prompt {
            name: name.clone(),
            arguments: filled.clone().into_iter().collect(),
        };
        let arguments: Map<String, Value> = filled
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        self.read(&server, read, (&what, era, given), |client| async move {
            client.get_prompt(&name, arguments).await
        })
        .await?
        .told(read_told)
    }

    /// The server's suggestions for an argument of one of its prompts or resource
    /// templates, through the gate; none when no server the agent may use offers it, or
    /// the server completes nothing.
    async fn complete(
        &self,
        mut params: CompleteRequestParams,
        era: &Era,
    ) -> Result<Value, ErrorObject> {
        let of_agent = match &params.reference {
            Reference::Prompt(prompt) => &prompt.name,
            Reference::Resource(template) => &template.uri,
        };
        let what = format!(
            "{} {of_agent} {}",
            method::COMPLETION_COMPLETE,
            params.argument.name
        );
        // The state of a retry and its answers are the gateway's, not the server's.
        let extra = std::mem::take(&mut params.extra);
        let mut given = given(&extra, era)?;
        if let Some(outcome) = self.resume(&what, &extra, era, None, &mut given).await? {
            return outcome.told(read_told);
        }
        let offers = self.offers()?;
        let (server, of) = match &mut params.reference {
            Reference::Prompt(prompt) => {
                let found = names::find(&self.inner.naming, &offers, &prompt.name, |o| {
                    o.prompts.iter().map(|p| p.name.as_str()).collect()
                });
                let Some(Named { server, name }) = found else {
                    return Ok(no_completions());
                };
                prompt.name = name.clone();
                (server, name)
            }
            Reference::Resource(template) => {
                let Some(server) = names::owner_of_template(&offers, &template.uri) else {
                    return Ok(no_completions());
                };
                (server, template.uri.clone())
            }
        };
        let completes = self
            .inner
            .agents
            .running_client(&server)
            .is_ok_and(|client| client.capabilities().completions.is_some());
        if !completes {
            return Ok(no_completions());
        }
        params.extra = extra
            .into_iter()
            .filter(|(key, _)| key != "requestState" && key != "inputResponses")
            .collect();
        let read = Read::Completion {
            of,
            argument: params.argument.name.clone(),
            value: params.argument.value.clone(),
        };
        self.read(&server, read, (&what, era, given), |client| async move {
            client.complete(&params).await
        })
        .await?
        .told(read_told)
    }

    fn notified(&self, method: &str) {
        let offers_roots = match method {
            method::INITIALIZED => {
                let mut state = self.state();
                state.ready = true;
                state.declared.supports_roots()
            }
            method::ROOTS_LIST_CHANGED => true,
            _ => false,
        };
        if offers_roots {
            tokio::spawn(self.clone().offer_roots());
        }
    }

    /// Asks the agent for its roots and offers them to the person (see
    /// [`Agents::offer_agent_roots`]), unless they are those it offered last.
    async fn offer_roots(self) {
        let Some(connection) = self.connection() else {
            return;
        };
        let options = RequestOptions {
            timeout: ROOTS_WAIT,
            ..RequestOptions::default()
        };
        let listed = connection
            .request(method::ROOTS_LIST, None, options)
            .await
            .map_err(|e| e.to_string())
            .and_then(|listed| {
                serde_json::from_value::<ListRootsResult>(listed).map_err(|e| e.to_string())
            });
        let roots = match listed {
            Ok(listed) => listed.roots,
            Err(e) => {
                tracing::warn!("{} did not list its roots: {e}", self.agent());
                return;
            }
        };
        {
            let mut state = self.state();
            if state.offered.as_ref() == Some(&roots) {
                return;
            }
            state.offered = Some(roots.clone());
        }
        self.offer_listed_roots(roots).await;
    }

    /// Offers each list of roots the agent listed to the person, in the background.
    fn offer_each(&self, offers: impl IntoIterator<Item = Vec<Root>>) {
        for roots in offers {
            tokio::spawn(self.clone().offer_listed_roots(roots));
        }
    }

    /// Offers the roots the agent listed to the person.
    async fn offer_listed_roots(self, roots: Vec<Root>) {
        if let Err(e) = self.inner.agents.offer_roots(self.agent(), &roots).await {
            tracing::warn!("the roots {} offered: {e}", self.agent());
        }
    }
}

impl IncomingHandler for Session {
    fn request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        Box::pin(self.clone().answer(None, method, params))
    }

    fn request_with_id(
        &self,
        id: &RequestId,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        Box::pin(self.clone().answer(Some(id.clone()), method, params))
    }

    fn notification(&self, method: String, _params: Option<Value>) {
        self.notified(&method);
    }

    /// The schema of a tool as the agent is shown it (passed on unchanged): its
    /// `x-mcp-header` marks are what the HTTP transport checks a call's headers against.
    fn tool_input_schema(&self, name: &str) -> Option<Value> {
        let schema = self
            .inner
            .agents
            .tool_schema(self.agent(), &self.tool_id(name))?;
        Some(Value::Object(schema))
    }
}

/// The servers' log messages a stateless request asked for, at `wanted` and above. They
/// are read from the servers' events as they come, not from the desk's updates made of
/// them later, so that those a server sent before its result are all sent before it.
struct Logs {
    events: broadcast::Receiver<ServerEvent>,
    wanted: LoggingLevel,
}

impl Logs {
    /// The next log message of `server`'s at the level wanted, as the agent is sent it.
    async fn next_of(&mut self, server: &str) -> Value {
        loop {
            match self.events.recv().await {
                Ok(event) => {
                    if let Some(message) = self.message(event, server) {
                        return message;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
            }
        }
    }

    /// Those of `server`'s log messages already come.
    fn come_of(&mut self, server: &str) -> Vec<Value> {
        let mut come = Vec::new();
        loop {
            match self.events.try_recv() {
                Ok(event) => come.extend(self.message(event, server)),
                Err(broadcast::error::TryRecvError::Lagged(_)) => {}
                Err(_) => return come,
            }
        }
    }

    fn message(&self, event: ServerEvent, server: &str) -> Option<Value> {
        match event {
            ServerEvent::Log {
                server: from,
                source: LogSource::Server,
                level: Some(level),
                text,
            } if from == server && level >= self.wanted => Some(log_notice(level, &from, &text)),
            _ => None,
        }
    }
}

/// A server's log message as an agent that wants `wanted` and above is sent it, if it is
/// one the server sent at such a level.
fn log_message(entry: &LogEntry, wanted: LoggingLevel) -> Option<Value> {
    let level = entry.level.as_deref()?.parse::<LoggingLevel>().ok()?;
    (level >= wanted).then(|| log_notice(level, &entry.server, &entry.text))
}

/// The `notifications/message` parameters of a server's log message, named by the server.
fn log_notice(level: LoggingLevel, server: &str, text: &str) -> Value {
    json!({"level": level, "logger": server, "data": text})
}

/// A call under way for the agent.
struct Running {
    server: String,
    call: tokio::task::JoinHandle<Result<Value, AgentError>>,
    reports: Option<mpsc::Receiver<switchboard_mcp::connection::Progress>>,
    /// Where the server's questions for a stateless agent come.
    asks: Option<AgentAsks>,
    _line: Option<switchboard_desk::LineHeld>,
    _cancel_if_dropped: CancelOnDrop,
}

/// How a call or read of the agent's that ran on its own came out.
enum Outcome {
    /// It ended, at this server.
    Ended(Result<Value, AgentError>, String),
    /// The server asks a stateless agent first: the interim result that says so.
    Asks(Value),
}

impl Outcome {
    /// What the agent is told: the interim result, or the end as `tell` says it.
    fn told(
        self,
        tell: impl FnOnce(Result<Value, AgentError>, &str) -> Result<Value, ErrorObject>,
    ) -> Result<Value, ErrorObject> {
        match self {
            Self::Ended(outcome, server) => tell(outcome, &server),
            Self::Asks(interim) => Ok(interim),
        }
    }
}

/// The answers a stateless request brought (`inputResponses`, in `extra`), checked.
fn given(extra: &Map<String, Value>, era: &Era) -> Result<Map<String, Value>, ErrorObject> {
    match era {
        Era::Stateless(_) => asks::answers(extra.get("inputResponses")),
        Era::Stateful => Ok(Map::new()),
    }
}

/// What the agent is told of a read's end: the result, marked with the server that
/// answered it.
fn read_told(outcome: Result<Value, AgentError>, server: &str) -> Result<Value, ErrorObject> {
    Ok(answered_by(outcome.map_err(refusal)?, server))
}

/// What the agent is told of a call's end.
fn told(outcome: Result<Value, AgentError>, server: &str) -> Result<Value, ErrorObject> {
    if let Some(own) = outcome.as_ref().err().and_then(crate::servers_own) {
        return Err(own);
    }
    match outcome {
        Ok(result) => Ok(result),
        Err(AgentError::Call(CallError::TooFrequent(over))) => Err(crate::too_frequent(&over)),
        Err(AgentError::Call(CallError::Denied { tool, decided_by })) => Ok(failed(format!(
            "Switchboard: the call to {tool} of {server} was denied ({decided_by}). Do not retry it unless the person asks."
        ))),
        Err(other) => Ok(failed(format!("Switchboard: {other}"))),
    }
}

/// Cancels a call of the desk when dropped, unless it ended before.
struct CancelOnDrop {
    agents: Agents,
    token: String,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.agents.cancel(&self.token);
    }
}

/// An item as the agent sees it, marked with the server it comes from.
fn tagged(item: &impl Serialize, server: &str) -> Value {
    let shown = serde_json::to_value(item).unwrap_or_else(|_| json!({}));
    answered_by(shown, server)
}

/// A tool result that tells the agent (and its model) why there is no result.
fn failed(text: String) -> Value {
    json!({"content": [{"type": "text", "text": text}], "isError": true})
}

fn not_configured(agent: &str) -> ErrorObject {
    ErrorObject::new(
        code::INVALID_REQUEST,
        format!(
            "Switchboard has no agent named {agent:?}: add it on Switchboard's Agents page, then connect again"
        ),
    )
}

/// A result marked with the server that answered it, as listed items are.
fn answered_by(mut result: Value, server: &str) -> Value {
    if let Value::Object(fields) = &mut result {
        let meta = fields.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(meta) = meta {
            meta.insert(SERVER_META.to_owned(), json!(server));
        }
    }
    result
}

/// Where a listed item or a result names its server, in `_meta`.
const SERVER_META: &str = "switchboard/server";

fn no_completions() -> Value {
    json!({"completion": {"values": []}})
}

/// Which era a request is of.
enum Era {
    /// A session opened by `initialize`.
    Stateful,
    /// 2026-07-28: what the request said of itself.
    Stateless(Box<RequestMeta>),
}

/// Whether `update` may change what an agent is offered (one missed may have).
fn may_change_offers(update: &Result<Update, broadcast::error::RecvError>) -> bool {
    matches!(
        update,
        Ok(Update::Status { .. }
            | Update::CatalogChanged { .. }
            | Update::ServersChanged
            | Update::ConfigChanged { .. }
            | Update::AgentsChanged)
            | Err(broadcast::error::RecvError::Lagged(_))
    )
}

/// What the gateway offers an agent, in either era. (A session's agent sets the level of the
/// servers' log messages it hears; a stateless agent's request, those it hears meanwhile.)
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        logging: Some(CapabilityObject::new()),
        completions: Some(CapabilityObject::new()),
        prompts: Some(PromptsCapability {
            list_changed: Some(true),
            extra: Map::new(),
        }),
        resources: Some(ResourcesCapability {
            subscribe: Some(true),
            list_changed: Some(true),
            extra: Map::new(),
        }),
        tools: Some(ToolsCapability {
            list_changed: Some(true),
            extra: Map::new(),
        }),
        experimental: None,
        tasks: None,
        extra: Map::new(),
    }
}

/// Who answers, in every era.
fn server_info() -> Implementation {
    let mut info = Implementation::new("switchboard", env!("CARGO_PKG_VERSION"));
    info.title = Some("Switchboard".to_owned());
    info
}
