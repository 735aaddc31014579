//! One session: the connection actor that serves it, and the router that sends each of the
//! actor's messages to the HTTP stream waiting for it. A response goes to the POST that
//! carried its request, a progress notification to the POST whose request set its token,
//! and anything else the server starts (logging, requests to the client) to the GET stream,
//! or, while there is none, to the newest open POST stream, or waits (bounded) for one.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::guard::Identity;
use crate::connection::{Connection, IncomingHandler, WeakConnection};
use crate::transport::{BoxFuture, CloseReason, Inbound, TransportControl, TransportParts};

/// Messages one stream may hold before the router waits for its reader.
const STREAM_CAPACITY: usize = 64;
/// Server-initiated messages kept while the client has no stream open; older ones are dropped.
const BACKLOG_LIMIT: usize = 256;

/// What a new session's handler is given.
pub struct SessionStart {
    /// The `Mcp-Session-Id`.
    pub id: String,
    /// Who the bearer token named; `None` when the server checks no tokens.
    pub identity: Option<Identity>,
    /// The session's connection, to call the client back once it has started.
    pub peer: Peer,
}

/// The session's connection, set as soon as it starts; it does not keep the session alive.
#[derive(Clone, Default)]
pub struct Peer(Arc<OnceLock<WeakConnection>>);

impl Peer {
    pub fn connection(&self) -> Option<Connection> {
        self.0.get()?.upgrade()
    }
}

/// Opens the handler of each new session (one per `initialize`).
pub trait SessionFactory: Send + Sync + 'static {
    fn open(&self, session: SessionStart) -> Arc<dyn IncomingHandler>;
}

impl<F: Fn(SessionStart) -> Arc<dyn IncomingHandler> + Send + Sync + 'static> SessionFactory for F {
    fn open(&self, session: SessionStart) -> Arc<dyn IncomingHandler> {
        self(session)
    }
}

/// A stream a client reads: the events of one POST, or the GET stream.
pub type Stream = mpsc::Receiver<String>;

pub struct Session {
    pub identity: Option<Identity>,
    /// The session's handler, asked about tools before a request reaches it.
    pub handler: Arc<dyn IncomingHandler>,
    incoming: mpsc::Sender<Inbound>,
    routes: Arc<Mutex<Routes>>,
    connection: Connection,
}

#[derive(Default)]
struct Routes {
    next_post: u64,
    /// Open POST streams: the requests they wait for, the progress tokens they carry.
    posts: HashMap<u64, Post>,
    /// Request id (as JSON text) -> its POST.
    by_request: HashMap<String, u64>,
    /// Progress token (as JSON text) -> its POST.
    by_token: HashMap<String, u64>,
    standalone: Option<mpsc::Sender<String>>,
    backlog: VecDeque<String>,
}

struct Post {
    sender: mpsc::Sender<String>,
    waiting: usize,
    tokens: Vec<String>,
    /// A JSON answer, not an event stream: it takes responses only.
    responses_only: bool,
}

/// The ids and progress tokens of the requests in a POST, as JSON text.
#[derive(Default)]
pub struct Awaited {
    pub ids: Vec<String>,
    pub tokens: Vec<String>,
    /// Requests the client cancelled: they get no answer, so their streams wait no more.
    pub cancelled: Vec<String>,
}

impl Session {
    pub fn start(
        id: String,
        identity: Option<Identity>,
        factory: &dyn SessionFactory,
    ) -> Arc<Self> {
        let (to_client, from_server) = mpsc::channel(STREAM_CAPACITY);
        let (incoming, from_client) = mpsc::channel(STREAM_CAPACITY);
        let peer = Peer::default();
        let handler = factory.open(SessionStart {
            id,
            identity: identity.clone(),
            peer: peer.clone(),
        });
        let parts = TransportParts {
            outgoing: to_client,
            incoming: from_client,
            control: Box::new(Control),
            carrier: crate::transport::Carrier::Http,
        };
        let connection = Connection::start(parts, handler.clone());
        let _ = peer.0.set(connection.downgrade());
        let routes = Arc::new(Mutex::new(Routes::default()));
        tokio::spawn(route(from_server, routes.clone()));
        Arc::new(Self {
            identity,
            handler,
            incoming,
            routes,
            connection,
        })
    }

    /// Hands the client's message to the connection; false once the session is over.
    pub async fn deliver(&self, inbound: Inbound) -> bool {
        self.incoming.send(inbound).await.is_ok()
    }

    /// Opens the stream that will carry the answers to `awaited` (and, unless
    /// `responses_only`, the messages related to them).
    pub fn open_post(&self, awaited: Awaited, responses_only: bool) -> Stream {
        let (sender, stream) = mpsc::channel(STREAM_CAPACITY);
        let mut routes = lock(&self.routes);
        let key = routes.next_post;
        routes.next_post += 1;
        for id in &awaited.ids {
            routes.by_request.insert(id.clone(), key);
        }
        if !responses_only {
            for token in &awaited.tokens {
                routes.by_token.insert(token.clone(), key);
            }
        }
        routes.posts.insert(
            key,
            Post {
                sender,
                waiting: awaited.ids.len(),
                tokens: if responses_only {
                    Vec::new()
                } else {
                    awaited.tokens
                },
                responses_only,
            },
        );
        stream
    }

    /// Forgets the requests the client cancelled (they get no answer): a POST stream that
    /// waits for nothing else ends.
    pub fn forget(&self, cancelled: &[String]) {
        let mut routes = lock(&self.routes);
        for id in cancelled {
            routes.settle(id);
        }
    }

    /// Opens the GET stream, handing it what waited for one; `None` if one is open already.
    pub fn open_standalone(&self) -> Option<Stream> {
        let mut routes = lock(&self.routes);
        if routes.standalone.as_ref().is_some_and(|s| !s.is_closed()) {
            return None;
        }
        let capacity = STREAM_CAPACITY.max(routes.backlog.len());
        let (sender, stream) = mpsc::channel(capacity);
        for message in routes.backlog.drain(..) {
            let _ = sender.try_send(message);
        }
        routes.standalone = Some(sender);
        Some(stream)
    }

    /// Ends the session: the connection stops, its handlers are dropped, its streams end.
    pub async fn close(&self) {
        self.connection.close().await;
    }
}

fn lock(routes: &Mutex<Routes>) -> MutexGuard<'_, Routes> {
    routes.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Just enough of a message to route it; the rest is skipped unread.
#[derive(Deserialize)]
struct Peek<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    method: Option<IgnoredAny>,
    #[serde(borrow, default)]
    params: Option<PeekParams<'a>>,
}

#[derive(Deserialize)]
struct PeekParams<'a> {
    #[serde(borrow, rename = "progressToken", default)]
    progress_token: Option<&'a RawValue>,
}

enum Destination {
    /// Responses, to the requests of these ids (several for a batch).
    Response(Vec<String>),
    Progress(String),
    Other,
}

fn destination(message: &str) -> Destination {
    if message.trim_start().starts_with('[') {
        let ids = serde_json::from_str::<Vec<Peek>>(message)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|p| p.id.map(|id| id.get().to_owned()))
                    .collect()
            })
            .unwrap_or_default();
        return Destination::Response(ids);
    }
    match serde_json::from_str::<Peek>(message) {
        Ok(Peek {
            id: Some(id),
            method: None,
            ..
        }) => Destination::Response(vec![id.get().to_owned()]),
        Ok(Peek {
            id: None,
            params: Some(PeekParams {
                progress_token: Some(token),
            }),
            ..
        }) => Destination::Progress(token.get().to_owned()),
        _ => Destination::Other,
    }
}

/// The router: one task per session, until the connection drops its end.
async fn route(mut from_server: mpsc::Receiver<String>, routes: Arc<Mutex<Routes>>) {
    while let Some(message) = from_server.recv().await {
        let destination = destination(&message);
        let response = match &destination {
            Destination::Response(ids) => Some(ids.join(",")),
            _ => None,
        };
        let sender = {
            let mut routes = lock(&routes);
            match destination {
                Destination::Response(ids) => ids
                    .iter()
                    .fold(None, |found, id| routes.settle(id).or(found)),
                Destination::Progress(token) => routes
                    .by_token
                    .get(&token)
                    .and_then(|key| routes.posts.get(key))
                    .map(|post| post.sender.clone())
                    .or_else(|| routes.server_initiated()),
                Destination::Other => routes.server_initiated(),
            }
        };
        let undelivered = match sender {
            Some(sender) => sender.send(message).await.err().map(|e| e.0),
            None => Some(message),
        };
        // A response has nowhere else to go (its POST is gone); anything else waits for a stream.
        match (undelivered, response) {
            (Some(_), Some(ids)) => tracing::debug!(%ids, "the client left before its answer"),
            (Some(message), None) => lock(&routes).keep(message),
            (None, _) => {}
        }
    }
}

impl Routes {
    /// The stream of the POST that waits for `id`, which then waits for one answer less.
    fn settle(&mut self, id: &str) -> Option<mpsc::Sender<String>> {
        let key = self.by_request.remove(id)?;
        let post = self.posts.get_mut(&key)?;
        post.waiting = post.waiting.saturating_sub(1);
        let sender = post.sender.clone();
        if post.waiting == 0
            && let Some(post) = self.posts.remove(&key)
        {
            for token in post.tokens {
                self.by_token.remove(&token);
            }
        }
        Some(sender)
    }

    /// Where a message the server started goes: the GET stream, else the newest event stream.
    fn server_initiated(&self) -> Option<mpsc::Sender<String>> {
        if let Some(standalone) = self.standalone.as_ref().filter(|s| !s.is_closed()) {
            return Some(standalone.clone());
        }
        self.posts
            .iter()
            .filter(|(_, post)| !post.responses_only && !post.sender.is_closed())
            .max_by_key(|(key, _)| **key)
            .map(|(_, post)| post.sender.clone())
    }

    fn keep(&mut self, message: String) {
        if self.backlog.len() == BACKLOG_LIMIT {
            self.backlog.pop_front();
            tracing::warn!("the client opens no stream: an old server message was dropped");
        }
        self.backlog.push_back(message);
    }
}

/// The session's transport has nothing to shut down beyond its channels.
struct Control;

impl TransportControl for Control {
    fn close_reason(&mut self) -> BoxFuture<'_, CloseReason> {
        Box::pin(async {
            CloseReason {
                detail: "the client ended the session".into(),
                ..CloseReason::default()
            }
        })
    }

    fn shutdown(self: Box<Self>) -> BoxFuture<'static, ()> {
        Box::pin(async {})
    }
}

#[cfg(test)]
mod tests {
    use super::{Destination, destination};

    fn describe(message: &str) -> String {
        match destination(message) {
            Destination::Response(ids) => format!("response to {}", ids.join(" ")),
            Destination::Progress(token) => format!("progress for {token}"),
            Destination::Other => "other".into(),
        }
    }

    #[test]
    fn each_server_message_is_routed_by_what_it_answers_or_reports_on() {
        let cases = [
            (r#"{"jsonrpc":"2.0","id":7,"result":{}}"#, "response to 7"),
            (
                r#"{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"no"}}"#,
                r#"response to "a""#,
            ),
            (
                r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]"#,
                "response to 1 2",
            ),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t-1","progress":1}}"#,
                r#"progress for "t-1""#,
            ),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}"#,
                "other",
            ),
            // A request to the client has an id too, but answers nothing of the client's.
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{}}"#,
                "other",
            ),
        ];
        for (message, expected) in cases {
            assert_eq!(describe(message), expected, "{message}");
        }
    }
}
