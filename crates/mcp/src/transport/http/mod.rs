//! HTTP transports: Streamable HTTP (2025-03-26 and later) and the legacy HTTP+SSE
//! transport (2024-11-05), with the automatic fallback from the first to the second.
//!
//! One driver task reads the connection's outgoing messages and POSTs each in a task of
//! its own, so that a slow call never holds up another; answers arrive as JSON bodies or
//! as server-sent events, and are handed up as [`Inbound`] messages. Every task of the
//! transport ends with it (see [`Tasks`]), and every exchange has a time limit.

mod authorized;
mod driver;
mod events;
pub mod headers;
mod legacy;
mod streamable;

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::Url;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use tokio::sync::mpsc;
use tokio::task::{AbortHandle, JoinSet};

use super::{
    BoxFuture, CloseReason, Inbound, LogLine, LogSink, TransportControl, TransportError,
    TransportParts,
};
use crate::jsonrpc::{Frame, FrameError, Kind, Message, RequestId, Unreadable};

/// Which HTTP transport to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMode {
    /// Streamable HTTP, falling back to HTTP+SSE if the server refuses the first POST.
    Auto,
    StreamableHttp,
    LegacySse,
}

/// Which transport a server answered on, once known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpFlavor {
    StreamableHttp,
    LegacySse,
}

/// How to reach an HTTP server.
#[derive(Debug, Clone)]
pub struct HttpServer {
    pub url: String,
    /// Sent with every request (for example `Authorization`).
    pub headers: Vec<(String, String)>,
    pub mode: HttpMode,
    pub connect_timeout: Duration,
    /// How long a plain JSON answer may take to arrive in full.
    pub read_timeout: Duration,
    /// A larger body or event fails its request as too large, and is never kept.
    pub max_message_bytes: usize,
    /// Signs in when the server asks (401, 403 `insufficient_scope`); its token goes with
    /// every request.
    pub auth: Option<crate::auth::Authorization>,
}

impl HttpServer {
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            headers: Vec::new(),
            mode: HttpMode::Auto,
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(300),
            max_message_bytes: 64 * 1024 * 1024,
            auth: None,
        }
    }

    pub fn authorization(mut self, auth: crate::auth::Authorization) -> Self {
        self.auth = Some(auth);
        self
    }

    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }
}

const CHANNEL_CAPACITY: usize = 64;
/// A notification, an answer, a legacy POST (whose answer comes on the event stream) or
/// the opening of an event stream is acknowledged at once; this bounds a server that hangs.
const ACK_TIMEOUT: Duration = Duration::from_secs(30);

/// Tells which transport the server answered on, once the first exchange is done.
#[derive(Clone)]
pub struct HttpSession(Arc<Shared>);

impl HttpSession {
    pub fn flavor(&self) -> Option<HttpFlavor> {
        self.0.state(|s| s.flavor)
    }

    pub fn session_id(&self) -> Option<String> {
        self.0.state(|s| s.session_id.clone())
    }
}

/// Starts the transport. Nothing is sent until the connection's first message; invalid
/// settings (a malformed URL, a header that is not valid HTTP) fail here.
pub fn connect(
    server: &HttpServer,
    log: LogSink,
) -> Result<(TransportParts, HttpSession), TransportError> {
    let url = Url::parse(&server.url)
        .map_err(|e| TransportError::Other(format!("invalid URL {:?}: {e}", server.url)))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(TransportError::Other(format!(
            "{url} is not an http(s) URL"
        )));
    }
    let mut headers = HeaderMap::new();
    for (name, value) in &server.headers {
        let name = HeaderName::try_from(name.as_str())
            .map_err(|e| TransportError::Other(format!("invalid header name {name:?}: {e}")))?;
        let value = HeaderValue::try_from(value.as_str())
            .map_err(|e| TransportError::Other(format!("invalid value for header {name}: {e}")))?;
        headers.insert(name, value);
    }
    // A redirect is not followed: the headers the person gave this server (its tokens)
    // would go with the request to wherever it points.
    let client = reqwest::Client::builder()
        .connect_timeout(server.connect_timeout)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| TransportError::Other(format!("the HTTP client could not start: {e}")))?;
    let (outgoing, to_server) = mpsc::channel(CHANNEL_CAPACITY);
    let (deliver, incoming) = mpsc::channel(CHANNEL_CAPACITY);
    let shared = Arc::new(Shared {
        client,
        url,
        headers,
        read_timeout: server.read_timeout,
        max_message_bytes: server.max_message_bytes,
        auth: server.auth.clone(),
        deliver: Mutex::new(Some(deliver)),
        log,
        state: Mutex::new(State::default()),
        closed: tokio_util::sync::CancellationToken::new(),
        tasks: Tasks::new(),
    });
    let driver = tokio::spawn(driver::run(shared.clone(), server.mode, to_server));
    let parts = TransportParts {
        outgoing,
        incoming,
        control: Box::new(HttpControl {
            shared: shared.clone(),
            driver,
        }),
        carrier: super::Carrier::Http,
        log: shared.log.clone(),
    };
    Ok((parts, HttpSession(shared)))
}

/// What every task of one HTTP transport shares.
pub(crate) struct Shared {
    client: reqwest::Client,
    url: Url,
    headers: HeaderMap,
    read_timeout: Duration,
    max_message_bytes: usize,
    auth: Option<crate::auth::Authorization>,
    /// Taken when the transport ends, so that the connection sees `incoming` close.
    deliver: Mutex<Option<mpsc::Sender<Inbound>>>,
    log: LogSink,
    state: Mutex<State>,
    /// Cancelled when the transport is over (the legacy stream ended, or shutdown).
    closed: tokio_util::sync::CancellationToken,
    tasks: Tasks,
}

/// The transport's tasks (requests in flight, event streams): every one is stopped when
/// the transport ends, so none goes on against a slow server for a connection that is gone.
struct Tasks(Mutex<Option<JoinSet<()>>>);

impl Tasks {
    fn new() -> Self {
        Self(Mutex::new(Some(JoinSet::new())))
    }

    /// Starts a task; `None` once the transport has ended.
    fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) -> Option<AbortHandle> {
        let mut tasks = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let tasks = tasks.as_mut()?;
        // The finished ones are let go as new ones start.
        while tasks.try_join_next().is_some() {}
        Some(tasks.spawn(task))
    }

    /// Takes every task, to be stopped (dropping the set aborts them); none starts after.
    fn end(&self) -> Option<JoinSet<()>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// The session as it stands; locked only for a moment, never across an await.
#[derive(Default)]
struct State {
    flavor: Option<HttpFlavor>,
    session_id: Option<String>,
    protocol_version: Option<String>,
    /// Where the legacy transport POSTs.
    endpoint: Option<Url>,
    /// The `initialize` request as first sent, to open a new session after a 404.
    initialize: Option<String>,
    initialize_id: Option<RequestId>,
    /// Why the transport ended, for the connection's report.
    close_detail: Option<String>,
    /// Requests whose answer stream is being read, and those of them answered elsewhere.
    awaited: HashSet<RequestId>,
    answered: HashSet<RequestId>,
    /// What a new session must be told again.
    restorable: Restorable,
    /// The latest renewal of an expired session, under way or done.
    renewal: Option<Renewal>,
    /// Requests the transport made itself to renew a session, by id.
    replays: HashMap<RequestId, Replay>,
    replay_count: u64,
    /// The transport ended because the server refused us in mid-session.
    unauthorized: bool,
    /// A request of the 2026-07-28 revision was answered as only a server of that
    /// revision answers (a result, or one of its errors).
    stateless: bool,
    /// `tools/list` requests of that revision in flight, whose answers are screened.
    tools_lists: HashSet<RequestId>,
    /// The `x-mcp-header` marks of the tools listed, by tool name.
    tool_marks: headers::ToolMarks,
}

/// The renewal of an expired session, which runs in a task of its own and which every
/// request that met the expiry waits for.
#[derive(Clone)]
struct Renewal {
    /// The session it replaces.
    expired: Option<String>,
    /// How it ended, once it has.
    outcome: tokio::sync::watch::Receiver<Option<Result<(), TransportError>>>,
}

/// A request the transport replays itself when it renews a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Replay {
    /// Its answer describes the new session.
    Initialize,
    /// Its answer matters to nobody.
    Restore,
}

/// The state a session holds on the server's side, as the client set it: the resources it
/// subscribed to and the log level it asked for.
#[derive(Default)]
struct Restorable {
    subscriptions: std::collections::BTreeSet<String>,
    level: Option<String>,
}

impl Restorable {
    /// Notes a request the server accepted.
    fn note(&mut self, envelope: &driver::Envelope) {
        use crate::types::method;
        match (envelope.method.as_deref(), envelope.uri(), envelope.level()) {
            (Some(method::RESOURCES_SUBSCRIBE), Some(uri), _) => {
                self.subscriptions.insert(uri.to_owned());
            }
            (Some(method::RESOURCES_UNSUBSCRIBE), Some(uri), _) => {
                self.subscriptions.remove(uri);
            }
            (Some(method::LOGGING_SET_LEVEL), _, Some(level)) => {
                self.level = Some(level.to_owned())
            }
            _ => {}
        }
    }

    /// The requests that set it all again, ids to be given.
    fn requests(&self) -> Vec<String> {
        use crate::types::method;
        let request = |method: &str, params: serde_json::Value| {
            serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": method, "params": params})
                .to_string()
        };
        let mut requests: Vec<String> = self
            .subscriptions
            .iter()
            .map(|uri| request(method::RESOURCES_SUBSCRIBE, serde_json::json!({"uri": uri})))
            .collect();
        if let Some(level) = &self.level {
            requests.push(request(
                method::LOGGING_SET_LEVEL,
                serde_json::json!({"level": level}),
            ));
        }
        requests
    }
}

impl Shared {
    fn state<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        // A poisoned lock only means another task panicked mid-update; the data is plain.
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut state)
    }

    fn log(&self, text: String) {
        (self.log)(LogLine::Protocol(text));
    }

    /// Hands messages up; false if the connection or the transport is gone.
    async fn deliver(&self, inbound: Inbound) -> bool {
        let sender = self
            .deliver
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        match sender {
            Some(sender) => sender.send(inbound).await.is_ok(),
            None => false,
        }
    }

    /// Hands up every message of one JSON-RPC frame (a body or an event's data) and
    /// returns the ids of the responses among them. `answering` is the request whose POST
    /// this frame came back to: an error without an id there can only be its answer, and
    /// a body (`whole`) that is not JSON at all is a broken answer to it.
    async fn deliver_frame(
        &self,
        frame: &str,
        answering: Option<&RequestId>,
        whole: bool,
    ) -> Result<Vec<RequestId>, TransportError> {
        let mut decoded = Frame::decode(frame);
        if let (Some(_), [Err(unreadable)]) = (answering, decoded.items.as_slice())
            && matches!(unreadable.error, FrameError::NotJson(_))
        {
            return Err(TransportError::InvalidBody(format!(
                "{}: {}",
                unreadable.error,
                excerpt(frame)
            )));
        }
        // Answers to the transport's own requests stay here; the new session's
        // description goes up as such.
        let mut renewed = None;
        let mut answered = Vec::new();
        decoded.items.retain(|item| {
            let Ok(Message::Response(response)) = item else {
                return true;
            };
            let Some(replay) = self.state(|s| s.replays.remove(&response.id)) else {
                return true;
            };
            answered.push(response.id.clone());
            if replay == Replay::Initialize {
                self.note_answer(response);
                renewed = response.outcome.clone().ok();
            }
            false
        });
        for item in &mut decoded.items {
            match item {
                Ok(Message::OrphanError(error)) if answering.is_some() => {
                    let id = answering.cloned().unwrap_or(RequestId::Number(0));
                    *item = Ok(Message::Response(crate::jsonrpc::Response {
                        id,
                        outcome: Err(error.clone()),
                    }));
                }
                Err(unreadable)
                    if unreadable.id.is_none()
                        && answering.is_some()
                        && (whole || unreadable.kind == Kind::Response) =>
                {
                    unreadable.id = answering.cloned();
                    unreadable.kind = Kind::Response;
                }
                _ => {}
            }
            if let Ok(Message::Response(response)) = item {
                self.screen_tools(response);
            }
            match item {
                Ok(Message::Response(response)) => {
                    self.note_answer(response);
                    answered.push(response.id.clone());
                }
                Err(Unreadable {
                    id: Some(id),
                    kind: Kind::Response,
                    ..
                }) => answered.push(id.clone()),
                _ => {}
            }
        }
        if !decoded.items.is_empty() {
            self.deliver(Inbound::from(decoded)).await;
        }
        if let Some(result) = renewed {
            self.deliver(Inbound::Renewed(result)).await;
        }
        Ok(answered)
    }

    /// Leaves out of a `tools/list` answer (2026-07-28) the tools whose `x-mcp-header`
    /// marks break the rules, and keeps the marks of the others for their calls.
    fn screen_tools(&self, response: &mut crate::jsonrpc::Response) {
        if !self.state(|s| s.tools_lists.remove(&response.id)) {
            return;
        }
        let Ok(result) = &mut response.outcome else {
            return;
        };
        let (marks, rejected) = headers::screen_tools(result);
        self.state(|s| s.tool_marks.extend(marks));
        for reason in rejected {
            self.log(format!("tools/list: {reason}"));
        }
    }

    /// The answer to `initialize` fixes the revision sent in later requests' headers; an
    /// answer to a request whose stream is being read is noted for that reader.
    fn note_answer(&self, response: &crate::jsonrpc::Response) {
        let version = response
            .outcome
            .as_ref()
            .ok()
            .and_then(|r| r.get("protocolVersion"))
            .and_then(|v| v.as_str());
        self.state(|s| {
            if s.initialize_id.as_ref() == Some(&response.id) {
                s.protocol_version = version.map(str::to_owned);
            }
            if s.awaited.contains(&response.id) {
                s.answered.insert(response.id.clone());
            }
        });
    }

    /// A request with the configured headers, the session id and the negotiated revision.
    fn request(&self, method: reqwest::Method, url: Url) -> reqwest::RequestBuilder {
        let session = self.state(|s| s.session_id.clone());
        self.request_in(session, method, url)
    }

    /// A request in the given session; `None` for an `initialize`, which opens one.
    fn request_in(
        &self,
        session: Option<String>,
        method: reqwest::Method,
        url: Url,
    ) -> reqwest::RequestBuilder {
        let version = self.state(|s| s.protocol_version.clone());
        let mut request = self
            .client
            .request(method.clone(), url.clone())
            .headers(self.headers.clone());
        if let Some(session) = session {
            request = request.header("Mcp-Session-Id", session);
        }
        if let Some(version) = version {
            request = request.header("MCP-Protocol-Version", version);
        }
        if let Some(auth) = &self.auth {
            request = auth.present(request, method.as_str(), url.as_str());
        }
        request
    }

    /// An id for a request of the transport's own, noted so that its answer is kept.
    fn replay_id(&self, replay: Replay) -> RequestId {
        self.state(|s| {
            s.replay_count += 1;
            let id = RequestId::String(format!("switchboard-renewal-{}", s.replay_count));
            s.replays.insert(id.clone(), replay);
            id
        })
    }

    /// Ends the transport because the server refuses us: the person must sign in again.
    fn end_unauthorized(&self) {
        self.state(|s| s.unauthorized = true);
        self.end("the server refused the session: it needs authorization".into());
    }

    /// Ends the transport: the connection sees `incoming` close once in-flight work is done.
    fn end(&self, detail: String) {
        self.state(|s| {
            s.close_detail.get_or_insert(detail);
        });
        self.deliver
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        self.closed.cancel();
    }
}

/// Why nothing more is sent or read: the transport has ended.
fn closed() -> TransportError {
    TransportError::Other("the connection is closed".into())
}

/// Maps a failed HTTP exchange to what the caller may act on.
fn classify(url: &Url, error: &reqwest::Error) -> TransportError {
    let url = url.to_string();
    let detail = chain(error);
    if error.is_timeout() {
        return TransportError::Timeout { url, seconds: None };
    }
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if e.downcast_ref::<native_tls::Error>().is_some() {
            return TransportError::Tls { url, detail };
        }
        source = e.source();
    }
    if error.is_connect() {
        TransportError::Connect { url, detail }
    } else {
        TransportError::Other(format!("HTTP exchange with {url} failed: {detail}"))
    }
}

/// An error and its causes, as one line.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        let more = e.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = e.source();
    }
    text
}

/// What a non-success status means for the caller.
async fn status_error(url: &Url, response: reqwest::Response) -> TransportError {
    let status = response.status().as_u16();
    if status == 401 || status == 403 {
        let challenge = response
            .headers()
            .get("WWW-Authenticate")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let nonce = response
            .headers()
            .get("DPoP-Nonce")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        return TransportError::Unauthorized {
            url: url.to_string(),
            status,
            challenge,
            nonce,
        };
    }
    if response.status().is_redirection() {
        let to = response
            .headers()
            .get("Location")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("another address");
        return TransportError::Status {
            url: url.to_string(),
            status,
            body: format!(
                "it points to {to}; that is not followed, so that the server's headers go nowhere else: use that address in the server's settings if it is the one"
            ),
        };
    }
    TransportError::Status {
        url: url.to_string(),
        status,
        body: excerpt(error_body(response).await.trim()),
    }
}

/// The start of an error's body: enough to show, whatever the server sends.
async fn error_body(response: reqwest::Response) -> String {
    use futures_util::StreamExt;
    const MAX: usize = 16 * 1024;
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    let read = async {
        while let Some(Ok(chunk)) = stream.next().await {
            body.extend_from_slice(&chunk[..chunk.len().min(MAX - body.len())]);
            if body.len() >= MAX {
                break;
            }
        }
    };
    // An error body that trickles must not hold up the error.
    let _ = tokio::time::timeout(Duration::from_secs(5), read).await;
    String::from_utf8_lossy(&body).into_owned()
}

fn excerpt(text: &str) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

struct HttpControl {
    shared: Arc<Shared>,
    driver: tokio::task::JoinHandle<()>,
}

impl TransportControl for HttpControl {
    fn close_reason(&mut self) -> BoxFuture<'_, CloseReason> {
        Box::pin(async move {
            let (detail, unauthorized) = self
                .shared
                .state(|s| (s.close_detail.clone(), s.unauthorized));
            CloseReason {
                detail: detail.unwrap_or_else(|| "the HTTP transport closed".into()),
                unauthorized,
                ..CloseReason::default()
            }
        })
    }

    fn shutdown(self: Box<Self>) -> BoxFuture<'static, ()> {
        Box::pin(async move {
            self.shared.closed.cancel();
            self.driver.abort();
            if let Some(mut tasks) = self.shared.tasks.end() {
                tasks.shutdown().await;
            }
            streamable::end_session(&self.shared).await;
        })
    }
}

/// A transport dropped without a shutdown stops its tasks all the same: they hold what
/// they share, and would otherwise keep it, and their streams, alive.
impl Drop for HttpControl {
    fn drop(&mut self) {
        self.shared.closed.cancel();
        self.driver.abort();
        drop(self.shared.tasks.end());
    }
}
