//! The Streamable HTTP server transport (spec 2025-11-25, `basic/transports`) on 127.0.0.1.
//!
//! A POST carries the client's messages; its requests are answered on an event stream of
//! their own (or, if the server is set to, or the client accepts only JSON, in one JSON body).
//! A GET opens the stream for what the server starts, or, with `Last-Event-ID`, resumes a
//! stream whose connection dropped (`outlet`); DELETE ends the session, as does, without
//! one, its idle time passing (`lifetime`). Each session
//! (`Mcp-Session-Id`, opened by `initialize`) is one [`Connection`](crate::connection::Connection)
//! whose handler the caller's [`SessionFactory`] supplies, so progress, cancellation, logging
//! and requests to the client work as over stdio. A POST of the 2026-07-28 revision names no
//! session: [`stateless`] serves it as one request on a connection of its own. Before any
//! of it, [`guard`] turns away a
//! foreign `Host` or `Origin` (403, against DNS rebinding) and a missing or unknown bearer
//! token (401), and binds each session to the identity its token named.
//!
//! Built on bare hyper 1 (already in the build through reqwest): three methods on one path
//! need no router, and axum would add a framework for a dozen lines of dispatch.

pub mod guard;
mod lifetime;
mod outlet;
mod session;
mod sse;
mod stateless;

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use bytes::Bytes;
use http::header::{
    ACCEPT, ALLOW, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, TRANSFER_ENCODING, WWW_AUTHENTICATE,
};
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

pub use guard::{Identity, TokenCheck};
pub use session::{Peer, SessionFactory, SessionStart};

use crate::ProtocolVersion;
use crate::jsonrpc::code::{INVALID_REQUEST, PARSE_ERROR};
use crate::jsonrpc::{ErrorObject, Frame, Message, RequestId};
use crate::transport::Inbound;
use guard::Refusal;
use session::{Answer, Awaited, Session};

pub const SESSION_HEADER: &str = "mcp-session-id";
pub const VERSION_HEADER: &str = "mcp-protocol-version";
const LAST_EVENT_ID: &str = "last-event-id";

type Body = UnsyncBoxBody<Bytes, Infallible>;

/// How the server listens and whom it lets in.
#[derive(Clone)]
pub struct HttpServerOptions {
    /// The port on 127.0.0.1 (and on ::1, where the machine has it); 0 lets the system
    /// choose one.
    pub port: u16,
    /// The endpoint's path.
    pub path: String,
    /// Answer requests with one JSON body instead of an event stream (no progress, and
    /// server requests travel on the GET stream only).
    pub json_response: bool,
    /// The token check; `None` admits everyone, with no identity.
    pub tokens: Option<Arc<dyn TokenCheck>>,
    /// Web origins allowed besides loopback ones (`https://app.example`).
    pub allowed_origins: Vec<String>,
    /// The largest POST body read.
    pub max_body: usize,
    /// How long a session lasts unused (no request in flight, no stream open) before it
    /// ends; requests naming it then get 404, and the client starts a new one.
    pub session_idle: Duration,
    /// Sessions one identity may have at once: at the limit, a new one replaces the
    /// identity's session unused the longest, and is refused (429) when all are in use.
    pub sessions_per_identity: usize,
    /// How long a connection may take to send a request's headers (counted from when the
    /// server is ready to read them, so an idle kept-alive connection closes after it too):
    /// a client that connects and sends nothing, or a byte at a time, is let go.
    pub header_read_timeout: Duration,
    /// Connections served at once; beyond them, new ones wait unaccepted until one closes,
    /// and those being served go on.
    pub max_connections: usize,
}

impl Default for HttpServerOptions {
    fn default() -> Self {
        Self {
            port: 0,
            path: "/mcp".into(),
            json_response: false,
            tokens: None,
            allowed_origins: Vec::new(),
            max_body: 64 * 1024 * 1024,
            session_idle: Duration::from_secs(30 * 60),
            sessions_per_identity: 32,
            header_read_timeout: Duration::from_secs(20),
            max_connections: 256,
        }
    }
}

/// A running server; dropping it stops listening and ends every session.
pub struct HttpServer {
    addr: SocketAddr,
    path: String,
    shared: Arc<Shared>,
    stop: CancellationToken,
}

struct Shared {
    options: HttpServerOptions,
    /// One permit per connection served, shared by the listeners on 127.0.0.1 and ::1.
    connections: Arc<Semaphore>,
    port: u16,
    factory: Arc<dyn SessionFactory>,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
}

impl HttpServer {
    /// Binds 127.0.0.1, and ::1 on the same port, and serves until dropped or
    /// [`HttpServer::shutdown`]. Both loopback addresses are taken so that a client told
    /// `localhost` reaches this server whichever it tries first, and no other program of
    /// the machine can wait on the other for its requests (and their tokens); either one
    /// taken already is an error (`AddrInUse`). A machine without IPv6 has no ::1 to take.
    pub async fn bind(
        options: HttpServerOptions,
        factory: Arc<dyn SessionFactory>,
    ) -> std::io::Result<Self> {
        if options.session_idle.is_zero()
            || options.sessions_per_identity == 0
            || options.header_read_timeout.is_zero()
            || options.max_connections == 0
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the session idle time, the sessions per identity, the header read timeout \
                 and the connections at once must be more than zero",
            ));
        }
        let (listener, beside) = loopback(options.port).await?;
        let addr = listener.local_addr()?;
        let path = options.path.clone();
        let shared = Arc::new(Shared {
            connections: Arc::new(Semaphore::new(options.max_connections)),
            options,
            port: addr.port(),
            factory,
            sessions: Mutex::new(HashMap::new()),
        });
        let stop = CancellationToken::new();
        tokio::spawn(accept(listener, shared.clone(), stop.clone()));
        if let Some(beside) = beside {
            tokio::spawn(accept(beside, shared.clone(), stop.clone()));
        }
        Ok(Self {
            addr,
            path,
            shared,
            stop,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT/PATH`.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.addr, self.path)
    }

    pub fn session_count(&self) -> usize {
        self.shared.sessions().len()
    }

    /// Stops listening and ends every session.
    pub async fn shutdown(self) {
        self.stop.cancel();
        let sessions: Vec<_> = self.shared.sessions().drain().map(|(_, s)| s).collect();
        for session in sessions {
            session.close().await;
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stop.cancel();
        self.shared.sessions().clear();
    }
}

impl Shared {
    fn sessions(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The listener on 127.0.0.1 at `port`, and the one on ::1 at the same port (none without
/// IPv6). With port 0 the system's choice on 127.0.0.1 may be taken on ::1: another is
/// chosen, a few times.
async fn loopback(port: u16) -> std::io::Result<(TcpListener, Option<TcpListener>)> {
    const CHOICES: usize = 8;
    let mut tries = 0;
    loop {
        let v4 = TcpListener::bind((Ipv4Addr::LOCALHOST, port))
            .await
            .map_err(|e| taken(e, &format!("127.0.0.1:{port}")))?;
        let chosen = v4.local_addr()?.port();
        match TcpListener::bind((Ipv6Addr::LOCALHOST, chosen)).await {
            Ok(v6) => return Ok((v4, Some(v6))),
            Err(e) if no_ipv6(&e) => return Ok((v4, None)),
            Err(e) if port == 0 && tries < CHOICES => {
                tries += 1;
                tracing::debug!("port {chosen} is taken on ::1 ({e}); another is chosen");
            }
            Err(e) => return Err(taken(e, &format!("[::1]:{chosen}"))),
        }
    }
}

/// A failure to bind `address`, saying so.
fn taken(error: std::io::Error, address: &str) -> std::io::Error {
    let why = match error.kind() {
        std::io::ErrorKind::AddrInUse => "is taken by another program",
        _ => "cannot be listened on",
    };
    std::io::Error::new(error.kind(), format!("{address} {why}: {error}"))
}

/// Whether binding ::1 failed because the machine has no IPv6 loopback.
fn no_ipv6(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::AddrNotAvailable
        || error.raw_os_error() == Some(nix::errno::Errno::EAFNOSUPPORT as i32)
}

/// Serves the listener's connections, as many at once as the server's share allows: at
/// the limit, the next connection waits in the system's queue, unaccepted, until one served
/// closes (which the header read timeout makes sure of for any that sends no request).
async fn accept(listener: TcpListener, shared: Arc<Shared>, stop: CancellationToken) {
    let mut connections = JoinSet::new();
    loop {
        let permit = tokio::select! {
            () = stop.cancelled() => break,
            permit = shared.connections.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        let stream = tokio::select! {
            () = stop.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(err) => {
                    tracing::warn!(%err, "could not accept a connection");
                    continue;
                }
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        let _ = stream.set_nodelay(true);
        let shared = shared.clone();
        connections.spawn(async move {
            let _permit = permit;
            let header_read_timeout = shared.options.header_read_timeout;
            let service = service_fn(move |request| {
                let shared = shared.clone();
                async move { Ok::<_, Infallible>(handle(&shared, request).await) }
            });
            if let Err(err) = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_read_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .await
            {
                tracing::debug!(%err, "an HTTP connection ended with an error");
            }
        });
    }
    connections.abort_all();
}

async fn handle(shared: &Arc<Shared>, request: Request<Incoming>) -> Response<Body> {
    if request.uri().path() != shared.options.path {
        return unread(
            &request,
            plain(StatusCode::NOT_FOUND, "no MCP endpoint here"),
        );
    }
    let identity = match guard::admit(
        request.headers(),
        shared.port,
        &shared.options.allowed_origins,
        shared.options.tokens.as_deref(),
    ) {
        Ok(identity) => identity,
        Err(refusal) => return unread(&request, refused(refusal)),
    };
    match *request.method() {
        Method::POST => post(shared, identity, request).await,
        Method::GET => get(shared, identity, &request),
        Method::DELETE => delete(shared, identity, &request).await,
        _ => {
            let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "use POST, GET or DELETE");
            response
                .headers_mut()
                .insert(ALLOW, HeaderValue::from_static("GET, POST, DELETE"));
            unread(&request, response)
        }
    }
}

/// `response` to `request`, answered before its body was read: a body left unread, the
/// connection cannot carry another request, so it ends with the answer and says so (a
/// client that sent its next request on it would find it closed mid-request).
fn unread(request: &Request<Incoming>, mut response: Response<Body>) -> Response<Body> {
    let headers = request.headers();
    let has_body = headers
        .get(CONTENT_LENGTH)
        .is_some_and(|length| length != "0")
        || headers.contains_key(TRANSFER_ENCODING);
    if has_body {
        response
            .headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

async fn post(
    shared: &Arc<Shared>,
    identity: Option<Identity>,
    request: Request<Incoming>,
) -> Response<Body> {
    let accept = header(&request, ACCEPT.as_str())
        .unwrap_or("*/*")
        .to_ascii_lowercase();
    let takes_events = accept.contains("text/event-stream") || accept.contains("*/*");
    if !takes_events && !accept.contains("application/json") {
        return rpc_error(
            StatusCode::NOT_ACCEPTABLE,
            "the client must accept application/json or text/event-stream",
        );
    }
    if stateless::applies(request.headers()) {
        return stateless::post(shared, identity, takes_events, request).await;
    }
    let existing = match session_of(shared, &identity, &request) {
        Ok(session) => session,
        Err(response) => return *response,
    };
    let body = match read_body(shared, request.into_body()).await {
        Ok(body) => body,
        Err(why) => {
            let error = ErrorObject::new(INVALID_REQUEST, why);
            return refusal(StatusCode::PAYLOAD_TOO_LARGE, None, error);
        }
    };
    let frame = match decode_body(&body) {
        Ok(frame) => frame,
        Err(refusal) => return *refusal,
    };
    let initialize = frame.items.iter().find_map(|item| match item {
        Ok(Message::Request(r)) if r.method == crate::types::method::INITIALIZE => {
            Some(serde_json::to_string(&r.id).unwrap_or_default())
        }
        _ => None,
    });
    let (session, new_id) = match (existing, initialize) {
        (Some(session), None) => (session, None),
        (Some(_), Some(_)) => {
            return rpc_error(
                StatusCode::BAD_REQUEST,
                "the session is initialized already",
            );
        }
        (None, Some(initialize)) => match open_session(shared, identity, initialize).await {
            Ok((session, id)) => (session, Some(id)),
            Err(refusal) => return *refusal,
        },
        (None, None) => {
            return rpc_error(
                StatusCode::BAD_REQUEST,
                "no Mcp-Session-Id: initialize first",
            );
        }
    };
    let awaited = awaited(&frame);
    session.forget(&awaited.cancelled);
    let inbound = Inbound::from(frame);
    if awaited.ids.is_empty() {
        return if session.deliver(inbound).await {
            empty(StatusCode::ACCEPTED)
        } else {
            rpc_error(StatusCode::NOT_FOUND, "the session is over")
        };
    }
    let events = takes_events && !shared.options.json_response;
    let answer = if events {
        Answer::Resumable
    } else {
        Answer::Json
    };
    let stream = session.open_post(awaited, answer);
    if !session.deliver(inbound).await {
        return rpc_error(StatusCode::NOT_FOUND, "the session is over");
    }
    let mut response = if events {
        sse::response(None, stream, ())
    } else {
        let Some(body) = sse::collect(stream).await else {
            return rpc_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the session ended before answering",
            );
        };
        json_body(StatusCode::OK, body)
    };
    if let Some(id) = new_id.and_then(|id| HeaderValue::from_str(&id).ok()) {
        response.headers_mut().insert(SESSION_HEADER, id);
    }
    response
}

fn get(shared: &Shared, identity: Option<Identity>, request: &Request<Incoming>) -> Response<Body> {
    let accept = header(request, ACCEPT.as_str()).unwrap_or_default();
    if !accept.to_ascii_lowercase().contains("text/event-stream") {
        return rpc_error(
            StatusCode::NOT_ACCEPTABLE,
            "the GET stream is text/event-stream",
        );
    }
    let session = match session_of(shared, &identity, request) {
        Ok(Some(session)) => session,
        Ok(None) => return rpc_error(StatusCode::BAD_REQUEST, "no Mcp-Session-Id"),
        Err(response) => return *response,
    };
    let stream = match header(request, LAST_EVENT_ID) {
        Some(last) => session.resume(last).ok_or_else(|| {
            rpc_error(
                StatusCode::BAD_REQUEST,
                &format!("Last-Event-ID {last:?} names no stream this session keeps"),
            )
        }),
        None => session.open_standalone().ok_or_else(|| {
            rpc_error(
                StatusCode::CONFLICT,
                "the session has a GET stream open already",
            )
        }),
    };
    match stream {
        // An open stream keeps the session from being idle.
        Ok(stream) => sse::response(None, stream, session.activity.busy()),
        Err(refusal) => refusal,
    }
}

async fn delete(
    shared: &Shared,
    identity: Option<Identity>,
    request: &Request<Incoming>,
) -> Response<Body> {
    match session_of(shared, &identity, request) {
        Ok(Some(_)) => {}
        Ok(None) => return rpc_error(StatusCode::BAD_REQUEST, "no Mcp-Session-Id"),
        Err(response) => return *response,
    }
    let removed = header(request, SESSION_HEADER).and_then(|id| shared.sessions().remove(id));
    if let Some(session) = removed {
        session.close().await;
    }
    empty(StatusCode::OK)
}

/// The session the request names (`None` if it names none), if its identity matches and
/// its protocol version header is one we speak.
fn session_of(
    shared: &Shared,
    identity: &Option<Identity>,
    request: &Request<Incoming>,
) -> Result<Option<Arc<Session>>, Box<Response<Body>>> {
    if let Some(version) = header(request, VERSION_HEADER)
        && version.parse::<ProtocolVersion>().is_err()
    {
        return Err(Box::new(rpc_error(
            StatusCode::BAD_REQUEST,
            &format!("unsupported MCP-Protocol-Version {version:?}"),
        )));
    }
    let Some(id) = header(request, SESSION_HEADER) else {
        return Ok(None);
    };
    let session = {
        let mut sessions = shared.sessions();
        // One over but not yet forgotten is forgotten now.
        if sessions.get(id).is_some_and(|s| s.is_over()) {
            sessions.remove(id);
        }
        sessions.get(id).cloned()
    };
    // Another identity's session is as unknown as one that never was.
    match session.filter(|s| s.identity == *identity) {
        Some(session) => {
            session.activity.touch();
            Ok(Some(session))
        }
        None => Err(Box::new(rpc_error(
            StatusCode::NOT_FOUND,
            "no such session",
        ))),
    }
}

/// Starts a session for an `initialize` (whose id, as JSON text, is given), within the
/// identity's share, and watches it until it is over.
async fn open_session(
    shared: &Arc<Shared>,
    identity: Option<Identity>,
    initialize: String,
) -> Result<(Arc<Session>, String), Box<Response<Body>>> {
    let id = session_id();
    let session = Session::start(id.clone(), identity, shared.factory.as_ref());
    session.initializing(initialize);
    let admitted = {
        let mut sessions = shared.sessions();
        let admitted = admit(
            &mut sessions,
            &session,
            shared.options.sessions_per_identity,
        );
        if admitted.is_ok() {
            sessions.insert(id.clone(), session.clone());
        }
        admitted
    };
    match admitted {
        Ok(Some(evicted)) => evicted.close().await,
        Ok(None) => {}
        Err(why) => {
            session.close().await;
            return Err(Box::new(rpc_error(StatusCode::TOO_MANY_REQUESTS, &why)));
        }
    }
    let over = lifetime::until_over(
        session.activity.watch(),
        session.connection(),
        shared.options.session_idle,
    );
    tokio::spawn(end_when_over(over, Arc::downgrade(shared), id.clone()));
    Ok((session, id))
}

/// Makes room for `session` among its identity's: at the limit, the identity's session idle
/// the longest is taken out (and returned, to be closed). The oldest idle one goes rather
/// than the new one being refused: an agent that restarts without ending its sessions (the
/// TypeScript SDK's `close()` sends no DELETE) would otherwise be locked out until its old
/// ones expire. A session in use (a request in flight, a stream open) is never taken from
/// its agent: when all are in use, the new one is refused.
fn admit(
    sessions: &mut HashMap<String, Arc<Session>>,
    session: &Session,
    limit: usize,
) -> Result<Option<Arc<Session>>, String> {
    let theirs = || {
        sessions
            .iter()
            .filter(|(_, s)| s.identity == session.identity)
    };
    if theirs().count() < limit {
        return Ok(None);
    }
    let idlest = theirs()
        .filter_map(|(id, s)| Some((s.activity.idle_since()?, id)))
        .min()
        .map(|(_, id)| id.clone());
    match idlest.and_then(|id| sessions.remove(&id)) {
        Some(evicted) => Ok(Some(evicted)),
        None => Err(format!(
            "{limit} sessions of this client are open and in use: end one (DELETE) first"
        )),
    }
}

/// Forgets the session once it is over (idle, closed by its handler, or refused at its
/// `initialize`) and closes it.
async fn end_when_over(
    over: impl Future<Output = Option<lifetime::End>>,
    shared: Weak<Shared>,
    id: String,
) {
    let Some(end) = over.await else {
        return;
    };
    let removed = shared.upgrade().and_then(|s| s.sessions().remove(&id));
    if let Some(session) = removed {
        tracing::debug!(?end, "a session ended without a DELETE");
        session.close().await;
    }
}

/// The requests of a POST (their ids and the progress tokens they set) and the requests it
/// cancels, as JSON text.
fn awaited(frame: &Frame) -> Awaited {
    let mut awaited = Awaited::default();
    for item in &frame.items {
        if let Ok(Message::Notification(n)) = item
            && n.method == crate::types::method::CANCELLED
            && let Some(id) = n.params.as_ref().and_then(|p| p.get("requestId"))
        {
            awaited.cancelled.push(id.to_string());
        }
        let Ok(Message::Request(request)) = item else {
            continue;
        };
        awaited
            .ids
            .push(serde_json::to_string(&request.id).unwrap_or_default());
        if let Some(token) = request
            .params
            .as_ref()
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get("progressToken"))
        {
            awaited.tokens.push(token.to_string());
        }
    }
    awaited
}

/// A request's body, read up to the server's limit; why not, in words.
async fn read_body(shared: &Shared, body: Incoming) -> Result<Bytes, String> {
    Limited::new(body, shared.options.max_body)
        .collect()
        .await
        .map(|body| body.to_bytes())
        .map_err(|err| format!("the body could not be read: {err}"))
}

/// 128 random bits, hex: visible ASCII as the spec asks, and not to be guessed.
fn session_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source is available");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn header<'a>(request: &'a Request<Incoming>, name: &str) -> Option<&'a str> {
    request.headers().get(name).and_then(|v| v.to_str().ok())
}

fn refused(refusal: Refusal) -> Response<Body> {
    match refusal {
        // The status is in the message too: some agents show only the message.
        Refusal::Forbidden(why) => {
            rpc_error(StatusCode::FORBIDDEN, &format!("403 Forbidden: {why}"))
        }
        Refusal::Unauthorized { invalid_token } => {
            let mut response = rpc_error(
                StatusCode::UNAUTHORIZED,
                "401 Unauthorized: a valid bearer token is required (Authorization: Bearer <token>)",
            );
            let challenge = if invalid_token {
                "Bearer error=\"invalid_token\""
            } else {
                "Bearer"
            };
            response
                .headers_mut()
                .insert(WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
            response
        }
    }
}

/// The body as JSON-RPC, or the 400 that says why not, with the code JSON-RPC gives it:
/// -32700 for a body that is not JSON (or not UTF-8), -32600 for JSON that is no message.
fn decode_body(body: &[u8]) -> Result<Frame, Box<Response<Body>>> {
    let Ok(text) = std::str::from_utf8(body) else {
        let error = ErrorObject::new(PARSE_ERROR, "the body is not UTF-8");
        return Err(Box::new(refusal(StatusCode::BAD_REQUEST, None, error)));
    };
    let frame = Frame::decode(text);
    let first_error = frame.items.iter().find_map(|item| item.as_ref().err());
    match first_error {
        Some(unreadable) if frame.items.iter().all(Result::is_err) => {
            let error = ErrorObject::new(
                unreadable.error.code(),
                format!("the body is not a JSON-RPC message: {}", unreadable.error),
            );
            Err(Box::new(refusal(
                StatusCode::BAD_REQUEST,
                unreadable.id.as_ref(),
                error,
            )))
        }
        _ => Ok(frame),
    }
}

/// A refusal of the transport's (no session, a bad header): -32000, as the SDKs send it.
fn rpc_error(status: StatusCode, message: &str) -> Response<Body> {
    refusal(status, None, ErrorObject::new(-32000, message))
}

/// A JSON-RPC error with the request's id, if known, and an HTTP status.
fn refusal(status: StatusCode, id: Option<&RequestId>, error: ErrorObject) -> Response<Body> {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": error});
    json_body(status, body.to_string())
}

fn json_body(status: StatusCode, body: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed_unsync());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed_unsync());
    *response.status_mut() = status;
    response
}

fn empty(status: StatusCode) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::new()).boxed_unsync());
    *response.status_mut() = status;
    response
}
