//! One session: the connection actor that serves it, and the router that sends each of the
//! actor's messages to the HTTP stream waiting for it. A response goes to the POST that
//! carried its request, a progress notification to the POST whose request set its token,
//! and anything else the server starts (logging, requests to the client) to the GET stream,
//! or, while there is none, to the newest open POST stream, or waits for one (the newest
//! 256 events, and every request of the server's, wait). Each stream is an [`Outlet`] that a
//! client whose connection dropped can resume.
//!
//! The router never waits for a client to read: an event for a stream whose reader has no
//! room waits in that stream's backlog, handed over by a task of its own as room is made,
//! so that a client that stops reading one stream holds up none of the others. A stream
//! whose backlog passes [`BACKLOG`] is let go: its client reads what it was handed, then
//! resumes the stream (`Last-Event-ID`) where it stopped.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;

use super::guard::Identity;
use super::lifetime::{Activity, Busy};
use super::outlet::{Event, Outlet, Position, Reader, Stream};
use crate::connection::{Connection, IncomingHandler, WeakConnection};
use crate::transport::{BoxFuture, CloseReason, Inbound, TransportControl, TransportParts};

/// Messages the connection's channels hold before their writer waits.
const CHANNEL_CAPACITY: usize = 64;
/// Answered POST streams kept for a client that lost one before reading its answer (the
/// server cannot tell whether an answer written reached the client): the newest 16, and
/// fewer when they hold more than 16 MiB.
const ANSWERED_KEPT: usize = 16;
const ANSWERED_BYTES: usize = 16 * 1024 * 1024;
/// Events one stream may have waiting for room before it is let go; fewer than a stream
/// keeps, so that every one of them is kept for the client that resumes it.
pub const BACKLOG: usize = 128;

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

pub struct Session {
    pub identity: Option<Identity>,
    /// The session's handler, asked about tools before a request reaches it.
    pub handler: Arc<dyn IncomingHandler>,
    pub activity: Arc<Activity>,
    incoming: mpsc::Sender<Inbound>,
    routes: Arc<Mutex<Routes>>,
    connection: Connection,
}

struct Routes {
    next_stream: u64,
    /// The GET stream (stream 0), which also holds what the server started while the
    /// client had no stream open.
    standalone: Outlet,
    /// Open POST streams: the requests they wait for, the progress tokens they carry.
    posts: HashMap<u64, Post>,
    /// Streams of answered POSTs, oldest first.
    answered: VecDeque<(u64, Outlet)>,
    /// Request id (as JSON text) -> its POST.
    by_request: HashMap<String, u64>,
    /// Progress token (as JSON text) -> its POST.
    by_token: HashMap<String, u64>,
    /// The id of the session's `initialize` until it is answered.
    initialize: Option<String>,
    activity: Arc<Activity>,
    /// Events waiting for room in a stream's reader, by stream.
    backlogs: HashMap<u64, Backlog>,
    /// The routes themselves, for the tasks that hand a backlog over.
    me: Weak<Mutex<Routes>>,
}

/// The events of one stream that its reader had no room for yet, oldest first, and
/// whether each may go to another stream (see [`Placed::movable`]).
struct Backlog {
    reader: Reader,
    events: VecDeque<(Event, bool)>,
}

struct Post {
    outlet: Outlet,
    waiting: usize,
    tokens: Vec<String>,
    /// A JSON answer, not an event stream: it takes responses only.
    responses_only: bool,
    /// A request in flight keeps the session from being idle.
    _busy: Busy,
}

/// The ids and progress tokens of the requests in a POST, as JSON text.
#[derive(Default)]
pub struct Awaited {
    pub ids: Vec<String>,
    pub tokens: Vec<String>,
    /// Requests the client cancelled: they get no answer, so their streams wait no more.
    pub cancelled: Vec<String>,
}

/// How a POST is answered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// One JSON body: the responses only.
    Json,
    /// An event stream the client can resume (the `initialize` era).
    Resumable,
    /// An event stream that ends the request when it closes (2026-07-28).
    Events,
}

impl Session {
    pub fn start(
        id: String,
        identity: Option<Identity>,
        factory: &dyn SessionFactory,
    ) -> Arc<Self> {
        let (to_client, from_server) = mpsc::channel(CHANNEL_CAPACITY);
        let (incoming, from_client) = mpsc::channel(CHANNEL_CAPACITY);
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
            log: crate::transport::discard_log(),
        };
        let connection = Connection::start(parts, handler.clone());
        let _ = peer.0.set(connection.downgrade());
        let activity = Activity::new();
        let routes = Arc::new_cyclic(|me| {
            Mutex::new(Routes {
                next_stream: 1,
                standalone: Outlet::new(0, true),
                posts: HashMap::new(),
                answered: VecDeque::new(),
                by_request: HashMap::new(),
                by_token: HashMap::new(),
                initialize: None,
                activity: activity.clone(),
                backlogs: HashMap::new(),
                me: me.clone(),
            })
        });
        tokio::spawn(route(from_server, routes.clone()));
        Arc::new(Self {
            identity,
            handler,
            activity,
            incoming,
            routes,
            connection,
        })
    }

    /// Hands the client's message to the connection; false once the session is over.
    pub async fn deliver(&self, inbound: Inbound) -> bool {
        self.incoming.send(inbound).await.is_ok()
    }

    /// Marks `id` (as JSON text) as the session's `initialize`: an error answer to it ends
    /// the session.
    pub fn initializing(&self, id: String) {
        lock(&self.routes).initialize = Some(id);
    }

    /// Whether the session is of no more use: its connection closed, or its `initialize`
    /// was refused.
    pub fn is_over(&self) -> bool {
        self.connection.closed().is_some() || self.activity.is_refused()
    }

    pub fn connection(&self) -> WeakConnection {
        self.connection.downgrade()
    }

    /// Opens the stream that will carry the answers to `awaited` (and, unless answered in
    /// JSON, the messages related to them).
    pub fn open_post(&self, awaited: Awaited, answer: Answer) -> Stream {
        let mut routes = lock(&self.routes);
        let key = routes.next_stream;
        routes.next_stream += 1;
        let responses_only = answer == Answer::Json;
        for id in &awaited.ids {
            routes.by_request.insert(id.clone(), key);
        }
        if !responses_only {
            for token in &awaited.tokens {
                routes.by_token.insert(token.clone(), key);
            }
        }
        let mut outlet = Outlet::new(key, answer == Answer::Resumable);
        let stream = outlet.open();
        let busy = self.activity.busy();
        routes.posts.insert(
            key,
            Post {
                outlet,
                waiting: awaited.ids.len(),
                tokens: if responses_only {
                    Vec::new()
                } else {
                    awaited.tokens
                },
                responses_only,
                _busy: busy,
            },
        );
        stream
    }

    /// Forgets the requests the client cancelled (they get no answer): a POST stream that
    /// waits for nothing else ends.
    pub fn forget(&self, cancelled: &[String]) {
        let mut routes = lock(&self.routes);
        for id in cancelled {
            if let Some(key) = routes.settle(id) {
                routes.finish_if_done(key);
            }
        }
    }

    /// Opens the GET stream, handing it what waited for one; `None` if one is open already.
    pub fn open_standalone(&self) -> Option<Stream> {
        let mut routes = lock(&self.routes);
        if routes.standalone.is_read() {
            return None;
        }
        routes.unread_backlog(0);
        Some(routes.standalone.attach(None, true))
    }

    /// Resumes the stream of `last_event_id` after that event (a GET with `Last-Event-ID`),
    /// in place of its reader if it still has one; `None` if the id names no stream kept.
    pub fn resume(&self, last_event_id: &str) -> Option<Stream> {
        let position = Position::parse(last_event_id)?;
        let mut routes = lock(&self.routes);
        let live = position.stream == 0 || routes.posts.contains_key(&position.stream);
        routes.unread_backlog(position.stream);
        let outlet = routes.outlet(position.stream)?;
        outlet
            .is_resumable()
            .then(|| outlet.attach(Some(position.number), live))
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
    #[serde(default)]
    error: Option<IgnoredAny>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

impl Peek<'_> {
    /// What it answers; a request (it has a method) answers nothing, in a batch too.
    fn answered(&self) -> Option<Answered> {
        if self.method.is_some() {
            return None;
        }
        Some(Answered {
            id: self.id?.get().to_owned(),
            is_error: self.error.is_some(),
        })
    }
}

#[derive(Deserialize)]
struct PeekParams<'a> {
    #[serde(borrow, rename = "progressToken", default)]
    progress_token: Option<&'a RawValue>,
}

enum Destination {
    /// Responses (several for a batch).
    Response(Vec<Answered>),
    Progress(String),
    Other,
}

/// The request a response answers (as JSON text), and whether with an error.
struct Answered {
    id: String,
    is_error: bool,
}

fn destination(message: &str) -> Destination {
    if message.trim_start().starts_with('[') {
        let answers = serde_json::from_str::<Vec<Peek>>(message)
            .map(|items| items.iter().filter_map(Peek::answered).collect())
            .unwrap_or_default();
        return Destination::Response(answers);
    }
    match serde_json::from_str::<Peek>(message) {
        Ok(
            peek @ Peek {
                id: Some(_),
                method: None,
                ..
            },
        ) => Destination::Response(peek.answered().into_iter().collect()),
        // A notification: a method and no id (an error without an id is no progress).
        Ok(Peek {
            id: None,
            method: Some(_),
            params: Some(params),
            ..
        }) => progress_token(params).map_or(Destination::Other, Destination::Progress),
        _ => Destination::Other,
    }
}

/// The progress token of params that are an object: serde would read the struct from an
/// array of its members too.
fn progress_token(params: &RawValue) -> Option<String> {
    if !params.get().starts_with('{') {
        return None;
    }
    let params: PeekParams = serde_json::from_str(params.get()).ok()?;
    Some(params.progress_token?.get().to_owned())
}

/// Whether a message the server started is a request (it has an id and a method).
fn is_request(message: &str) -> bool {
    serde_json::from_str::<Peek>(message).is_ok_and(|p| p.id.is_some() && p.method.is_some())
}

/// The router: one task per session, until the connection drops its end; then every
/// stream ends. It never waits for a stream's reader (see [`Routes::hand`]).
async fn route(mut from_server: mpsc::Receiver<String>, routes: Arc<Mutex<Routes>>) {
    while let Some(message) = from_server.recv().await {
        let mut routes = lock(&routes);
        let Some(placed) = routes.place(message.into()) else {
            continue;
        };
        // Without a reader, the event waits in its stream for one.
        if let Some(reader) = placed.reader {
            routes.hand(placed.stream, placed.event, reader, placed.movable);
        }
    }
    lock(&routes).end();
}

/// Hands a stream's backlog to its reader as room is made, until it is empty; if the
/// client lets go of the stream first, what waited goes where unsent events go.
async fn drain(routes: Weak<Mutex<Routes>>, stream: u64, reader: Reader) {
    loop {
        let room = reader.reserve().await;
        let Some(routes) = routes.upgrade() else {
            return;
        };
        let mut routes = lock(&routes);
        let Some(backlog) = routes
            .backlogs
            .get_mut(&stream)
            .filter(|b| b.reader.same_channel(&reader))
        else {
            return;
        };
        let Ok(room) = room else {
            routes.let_go(stream);
            return;
        };
        if let Some((event, _)) = backlog.events.pop_front() {
            room.send(event);
        }
        if backlog.events.is_empty() {
            routes.backlogs.remove(&stream);
            return;
        }
    }
}

/// An event and the stream it was put on.
struct Placed {
    stream: u64,
    event: Event,
    reader: Option<Reader>,
    /// Started by the server and put on a POST stream only for want of a GET stream: it
    /// may go elsewhere if that stream's reader is gone.
    movable: bool,
}

impl Routes {
    fn place(&mut self, message: Arc<str>) -> Option<Placed> {
        let (stream, server_initiated) = match destination(&message) {
            Destination::Response(answers) => {
                let mut found = None;
                for answer in answers {
                    if self.initialize.as_ref() == Some(&answer.id) {
                        self.initialize = None;
                        if answer.is_error {
                            self.activity.refuse();
                        }
                    }
                    found = self.settle(&answer.id).or(found);
                }
                let Some(stream) = found else {
                    tracing::debug!("an answer to a request no stream waits for");
                    return None;
                };
                (stream, false)
            }
            Destination::Progress(token) => match self.by_token.get(&token) {
                Some(&stream) => (stream, false),
                None => (self.server_initiated(), true),
            },
            Destination::Other => (self.server_initiated(), true),
        };
        let request = server_initiated && is_request(&message);
        let outlet = self.outlet(stream)?;
        let (event, reader) = outlet.push(message, request);
        self.finish_if_done(stream);
        Some(Placed {
            stream,
            event,
            reader,
            movable: server_initiated && stream != 0,
        })
    }

    /// An event its reader was gone for: kept for a client that resumes its stream, or, if
    /// it may go elsewhere, moved to the GET stream.
    fn unsent(&mut self, stream: u64, event: Event, failed: &Reader, movable: bool) {
        if stream == 0 {
            self.standalone.unread(&event);
            return;
        }
        let moved = movable
            && self
                .outlet(stream)
                .is_some_and(|outlet| outlet.withdraw(&event, failed));
        if moved {
            let (event, reader) = self.standalone.push(event.message, event.request);
            if let Some(reader) = reader {
                self.hand(0, event, reader, false);
            }
        }
    }

    /// Hands `event` to the reader of `stream` if it has room and nothing waits before it;
    /// else the event joins the stream's backlog, which a task hands over as the client
    /// reads. A backlog past [`BACKLOG`] lets the stream go.
    fn hand(&mut self, stream: u64, event: Event, reader: Reader, movable: bool) {
        if let Some(backlog) = self.backlogs.get_mut(&stream)
            && backlog.reader.same_channel(&reader)
        {
            backlog.events.push_back((event, movable));
            if backlog.events.len() > BACKLOG {
                tracing::debug!(stream, "a client reads nothing of a stream: it is let go");
                self.let_go(stream);
            }
            return;
        }
        match reader.try_send(event) {
            Ok(()) => {}
            Err(TrySendError::Closed(event)) => self.unsent(stream, event, &reader, movable),
            Err(TrySendError::Full(event)) => {
                let events = VecDeque::from([(event, movable)]);
                let backlog = Backlog {
                    reader: reader.clone(),
                    events,
                };
                self.backlogs.insert(stream, backlog);
                tokio::spawn(drain(self.me.clone(), stream, reader));
            }
        }
    }

    /// Lets go of the reader of a stream whose client does not read it (or left): its
    /// stream ends after what it was handed, and what waited in its backlog is kept for a
    /// client that resumes the stream, or goes to the GET stream.
    fn let_go(&mut self, stream: u64) {
        let Some(backlog) = self.backlogs.remove(&stream) else {
            return;
        };
        if let Some(outlet) = self.outlet(stream) {
            outlet.let_go(&backlog.reader);
        }
        for (event, movable) in backlog.events {
            self.unsent(stream, event, &backlog.reader, movable);
        }
    }

    /// Forgets the backlog of a stream that gets a new reader, marking its events as
    /// handed to none: the new reader starts with them.
    fn unread_backlog(&mut self, stream: u64) {
        let Some(backlog) = self.backlogs.remove(&stream) else {
            return;
        };
        if let Some(outlet) = self.outlet(stream) {
            for (event, _) in &backlog.events {
                outlet.unread(event);
            }
        }
    }

    fn outlet(&mut self, stream: u64) -> Option<&mut Outlet> {
        if stream == 0 {
            return Some(&mut self.standalone);
        }
        if let Some(post) = self.posts.get_mut(&stream) {
            return Some(&mut post.outlet);
        }
        self.answered
            .iter_mut()
            .find(|(key, _)| *key == stream)
            .map(|(_, outlet)| outlet)
    }

    /// The POST that waits for `id`, which then waits for one answer less.
    fn settle(&mut self, id: &str) -> Option<u64> {
        let key = self.by_request.remove(id)?;
        let post = self.posts.get_mut(&key)?;
        post.waiting = post.waiting.saturating_sub(1);
        Some(key)
    }

    /// Ends the stream of a POST answered in full after what it was handed; a resumable
    /// one is kept a while, for a client that lost it before reading its answer.
    fn finish_if_done(&mut self, key: u64) {
        if self.posts.get(&key).is_none_or(|post| post.waiting > 0) {
            return;
        }
        let Some(mut post) = self.posts.remove(&key) else {
            return;
        };
        for token in &post.tokens {
            self.by_token.remove(token);
        }
        post.outlet.end();
        if post.outlet.is_resumable() {
            self.answered.push_back((key, post.outlet));
            let mut bytes: usize = self.answered.iter().map(|(_, o)| o.kept_bytes()).sum();
            while self.answered.len() > ANSWERED_KEPT
                || (bytes > ANSWERED_BYTES && self.answered.len() > 1)
            {
                if let Some((_, oldest)) = self.answered.pop_front() {
                    bytes -= oldest.kept_bytes();
                }
            }
        }
    }

    /// Where a message the server started goes: the GET stream, else the newest event
    /// stream read, else the GET stream again, to wait for a client that opens it.
    fn server_initiated(&self) -> u64 {
        if self.standalone.is_read() {
            return 0;
        }
        self.posts
            .iter()
            .filter(|(_, post)| !post.responses_only && post.outlet.is_read())
            .map(|(key, _)| *key)
            .max()
            .unwrap_or(0)
    }

    fn end(&mut self) {
        self.backlogs.clear();
        self.standalone.end();
        for post in self.posts.values_mut() {
            post.outlet.end();
        }
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
mod properties;

#[cfg(test)]
mod tests {
    use super::{Destination, destination};

    fn describe(message: &str) -> String {
        match destination(message) {
            Destination::Response(answers) => {
                let ids: Vec<String> = answers
                    .into_iter()
                    .map(|a| format!("{}{}", a.id, if a.is_error { " (error)" } else { "" }))
                    .collect();
                format!("response to {}", ids.join(" "))
            }
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
                r#"response to "a" (error)"#,
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

    #[test]
    fn a_request_in_a_batch_answers_nothing() {
        let batch = r#"[{"id":0,"jsonrpc":"2.0","method":"tools/call"}]"#;
        assert_eq!(describe(batch), "response to ");
    }

    #[test]
    fn an_error_without_an_id_is_no_progress() {
        let error = r#"{"error":{"code":-32601,"message":"no"},"params":{"progressToken":0},"jsonrpc":"2.0"}"#;
        assert_eq!(describe(error), "other");
    }

    #[test]
    fn params_that_are_an_array_hold_no_progress_token() {
        let notification = r#"{"jsonrpc":"2.0","method":"tools/call","params":[0]}"#;
        assert_eq!(describe(notification), "other");
    }
}
