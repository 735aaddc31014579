//! One agent's session with the gateway: Switchboard answering as an MCP server over any
//! transport, with what the agent may see of the running servers, every tool call through
//! the gate as the agent's.
//!
//! The session is the engine's typed server handler, put on its connection through
//! [`Dispatch`] ([`requests`] says which request goes where). This module holds the
//! session, its state and its life beside the connection; each family of requests is
//! answered in a module of its own: [`era`] (what every request meets first, and the marks
//! of the stateless revision), [`lifecycle`] (initialize, discover, the agent's
//! notifications and roots), [`logs`] (the servers' log messages the agent hears),
//! [`tools`], [`resources`], [`prompts`] (with completions), [`listen`]
//! (`subscriptions/listen`). [`calls`] runs a call or read of the agent's through the gate,
//! [`asks`] parks one whose server asks a stateless agent first, [`tasks`] runs a call as a
//! task the agent asks after, and [`changes`] tells the agent which of its lists changed.

use parking_lot::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::{Value, json};
use switchboard_mcp::connection::{Connection, IncomingHandler, WeakConnection};
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::server::handler::Dispatch;
use switchboard_mcp::server::http::{Peer, SessionFactory, SessionStart};
use switchboard_mcp::transport::TransportParts;
use switchboard_mcp::types::*;

use crate::names::Naming;
use crate::subscriptions::Subscriptions;
use switchboard_core::catalog::Offer;
use switchboard_desk::{Agents, Update};

mod asks;
mod calls;
mod changes;
mod era;
mod lifecycle;
mod listen;
mod logs;
mod prompts;
mod requests;
mod resources;
mod tasks;
mod tools;

use asks::Questions;
use changes::{Seen, may_change_offers};
use tasks::AgentTasks;

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
    let kept = Kept::default();
    move |start: SessionStart| -> Arc<dyn IncomingHandler> {
        let caller = Caller {
            agent: start
                .identity
                .map(|i| i.as_str().to_owned())
                .unwrap_or_default(),
            via: Via::Http,
        };
        let session = Session::asking_in(agents.clone(), caller, kept.clone(), naming.clone());
        *session.inner.peer.lock() = Some(start.peer);
        Arc::new(Dispatch::new(session))
    }
}

/// Serves `caller` on `transport` until either side closes it; returns the connection.
pub fn serve(agents: &Agents, caller: Caller, transport: TransportParts) -> Connection {
    let session = Session::new(agents.clone(), caller);
    let connection = Connection::start(transport, Arc::new(Dispatch::new(session.clone())));
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
    /// The agents' tasks, shared so too.
    tasks: Arc<AgentTasks>,
    naming: Naming,
}

/// What the sessions of the agents of one transport share.
#[derive(Clone, Default)]
struct Kept {
    questions: Arc<Questions>,
    tasks: Arc<AgentTasks>,
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

impl Session {
    pub fn new(agents: Agents, caller: Caller) -> Self {
        Self::asking_in(agents, caller, Kept::default(), Naming::prefixed())
    }

    fn asking_in(agents: Agents, caller: Caller, kept: Kept, naming: Naming) -> Self {
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
                questions: kept.questions,
                tasks: kept.tasks,
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

    /// One list of every server's items, each server's made by `of`, in one page; empty
    /// when no server offers any.
    fn list<T>(&self, of: impl Fn(&str, &Offer) -> Vec<T>) -> Result<Vec<T>, ErrorObject> {
        let mut all = Vec::new();
        for (server, offer) in self.offers()? {
            all.extend(of(&server, &offer));
        }
        Ok(all)
    }
}

fn not_configured(agent: &str) -> ErrorObject {
    ErrorObject::new(
        code::INVALID_REQUEST,
        format!(
            "Switchboard has no agent named {agent:?}: add it on Switchboard's Agents page, then connect again"
        ),
    )
}

/// Where a listed item or a result names its server, in `_meta`.
const SERVER_META: &str = "switchboard/server";

/// What names, in its `_meta`, the server it comes from: the items an agent is listed, and
/// the results of its reads.
trait Served: Sized {
    fn meta(&mut self) -> &mut Option<Meta>;

    fn served_by(mut self, server: &str) -> Self {
        self.meta()
            .get_or_insert_default()
            .insert(SERVER_META.to_owned(), json!(server));
        self
    }
}

macro_rules! served {
    ($($item:ty),*) => {
        $(impl Served for $item {
            fn meta(&mut self) -> &mut Option<Meta> {
                &mut self.meta
            }
        })*
    };
}

served!(
    Tool,
    Resource,
    ResourceTemplate,
    Prompt,
    ReadResourceResult,
    GetPromptResult,
    CompleteResult
);
