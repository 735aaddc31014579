//! One actor per connection. The actor owns the transport's channels, the table of
//! requests in flight and the handlers of the peer's requests; callers hold a cheap
//! [`Connection`] handle. Timeouts, progress and cancellation of an outgoing request live
//! in the caller's future, so the actor never keeps timers and never holds a lock.

use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use futures_util::FutureExt;
use serde::Serialize;
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::jsonrpc::{
    ErrorObject, FrameError, Kind, Message, Notification, Request, RequestId, Response, Unreadable,
    encode_notification, encode_request,
};
use crate::traffic::{self, Direction, Seen, TrafficObserver};
use crate::transport::{BoxFuture, CloseReason, Inbound, LogLine, TransportError, TransportParts};

/// Answers the peer's requests and receives its notifications, at the JSON level.
/// The typed client layer implements it; tests may implement it directly.
pub trait IncomingHandler: Send + Sync + 'static {
    /// Answers one request. The future is dropped if the peer cancels the request.
    fn request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>>;
    /// Answers one request, knowing its id: the 2026-07-28 revision's
    /// `subscriptions/listen` tags what it sends with the id of the request that opened it.
    fn request_with_id(
        &self,
        id: &RequestId,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        let _ = id;
        self.request(method, params)
    }
    /// Receives one notification (progress and cancellation are handled by the connection).
    fn notification(&self, method: String, params: Option<Value>);
    /// Receives the `initialize` result of a new session, which the transport opened
    /// because the server ended the old one.
    fn session_renewed(&self, result: Value) {
        let _ = result;
    }
    /// The input schema of the tool `name`, as this side (a server) lists it to its peer.
    /// The Streamable HTTP server reads its `x-mcp-header` marks to check the
    /// `Mcp-Param-*` headers of a 2026-07-28 call before the call reaches the handler;
    /// `None` (a tool not known, or a handler that lists none) expects no such header.
    fn tool_input_schema(&self, name: &str) -> Option<Value> {
        let _ = name;
        None
    }
}

/// How one outgoing request behaves.
#[derive(Debug, Clone)]
pub struct RequestOptions {
    /// How long to wait for the answer.
    pub timeout: Duration,
    /// Each progress notification restarts the timeout, up to `max_total`.
    pub reset_timeout_on_progress: bool,
    /// An absolute bound, whatever progress arrives (the spec's advice); `None` for none.
    pub max_total: Option<Duration>,
    /// Receives the peer's progress notifications for this request.
    pub progress: Option<mpsc::Sender<Progress>>,
    /// Cancels the request (and tells the peer) when triggered.
    pub cancel: Option<CancellationToken>,
    /// Receives the task a tool call became and each state it is seen in, when it runs as
    /// one (see `Client::call_tool_as_task`).
    pub task: Option<mpsc::UnboundedSender<crate::types::Task>>,
    /// A tool call that may run as a task (`taskSupport: "optional"`) asks to, where its
    /// server runs them (see `Client::call_tool_checked`).
    pub as_task: bool,
}

impl Default for RequestOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(60),
            reset_timeout_on_progress: false,
            max_total: Some(DEFAULT_MAX_TOTAL),
            progress: None,
            cancel: None,
            task: None,
            as_task: false,
        }
    }
}

/// One `notifications/progress` for a request of ours.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

/// Why a request got no result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RequestError {
    #[error("the server answered {method} with an error: {error}")]
    Server { method: String, error: ErrorObject },
    #[error("no answer to {method} within {:.1} s", after.as_secs_f64())]
    Timeout { method: String, after: Duration },
    #[error("{method} was cancelled")]
    Cancelled { method: String },
    #[error("{method} could not be delivered: {error}")]
    Transport {
        method: String,
        error: TransportError,
    },
    #[error("the connection is closed: {0}")]
    Closed(Arc<CloseReason>),
    #[error("{method} could not be encoded: {detail}")]
    Encode { method: String, detail: String },
    #[error("the server's answer to {method} could not be read: {error}")]
    Unreadable { method: String, error: FrameError },
}

/// How a request of ours ended without a result, as the actor reports it.
#[derive(Debug)]
enum Failure {
    Server(ErrorObject),
    Transport(TransportError),
    Unreadable(FrameError),
}

/// What callers ask of the actor. Messages arrive serialized: the caller's task does the
/// encoding, so the actor only keeps the books and never holds up the others with it.
enum Command {
    Request {
        id: i64,
        line: String,
        respond: oneshot::Sender<Result<Value, Failure>>,
        progress: Option<mpsc::Sender<Progress>>,
        /// False for `initialize`, which must never be cancelled.
        cancellable: bool,
        /// True for `subscriptions/listen`, which waits as long as the connection lives.
        long_lived: bool,
    },
    Notify(String),
}

/// A cheap handle to a connection's actor.
#[derive(Clone)]
pub struct Connection {
    commands: mpsc::Sender<Command>,
    /// Unbounded, yet bounded in practice: at most one message per request in flight.
    cancels: mpsc::UnboundedSender<(i64, String)>,
    next_id: Arc<AtomicI64>,
    closed: tokio::sync::watch::Receiver<Option<Arc<CloseReason>>>,
    /// True once the transport is shut down (for stdio: the process is gone).
    finished: tokio::sync::watch::Receiver<bool>,
    shutdown: Arc<Shutdown>,
}

/// A [`Connection`] that does not keep it alive: once every strong handle is gone, the
/// connection ends and [`WeakConnection::upgrade`] gives `None`.
pub struct WeakConnection {
    commands: mpsc::WeakSender<Command>,
    cancels: mpsc::WeakUnboundedSender<(i64, String)>,
    next_id: Arc<AtomicI64>,
    closed: tokio::sync::watch::Receiver<Option<Arc<CloseReason>>>,
    finished: tokio::sync::watch::Receiver<bool>,
    shutdown: Arc<Shutdown>,
}

impl WeakConnection {
    pub fn upgrade(&self) -> Option<Connection> {
        Some(Connection {
            commands: self.commands.upgrade()?,
            cancels: self.cancels.upgrade()?,
            next_id: self.next_id.clone(),
            closed: self.closed.clone(),
            finished: self.finished.clone(),
            shutdown: self.shutdown.clone(),
        })
        .filter(|connection| connection.closed().is_none())
    }

    /// Waits until the connection ends (at once if it has), without keeping it alive.
    pub async fn wait_closed(&self) {
        let mut closed = self.closed.clone();
        let _ = closed.wait_for(Option::is_some).await;
    }
}

/// A request to end the connection, with why.
#[derive(Default)]
struct Shutdown {
    notify: tokio::sync::Notify,
    reason: std::sync::Mutex<Option<String>>,
}

impl Shutdown {
    fn request(&self, reason: Option<String>) {
        if let Ok(mut slot) = self.reason.lock() {
            *slot = slot.take().or(reason);
        }
        self.notify.notify_one();
    }

    fn reason(&self) -> String {
        self.reason
            .lock()
            .ok()
            .and_then(|mut slot| slot.take())
            .unwrap_or_else(|| "closed by the client".into())
    }
}

/// How long any request may take at most unless its caller says otherwise: a server that
/// reports progress forever must not hold a call forever.
pub const DEFAULT_MAX_TOTAL: Duration = Duration::from_secs(600);

const COMMAND_CAPACITY: usize = 64;
/// Progress notifications waiting for a slow caller; older ones are dropped beyond this.
const PROGRESS_CAPACITY: usize = 16;

impl Connection {
    /// Starts the actor on the transport. It runs until the peer goes away or
    /// [`Connection::close`] is called.
    pub fn start(transport: TransportParts, handler: Arc<dyn IncomingHandler>) -> Self {
        Self::start_observed(transport, handler, None)
    }

    /// [`Connection::start`], offering a copy of every message sent and received to
    /// `observer`, if any.
    pub fn start_observed(
        transport: TransportParts,
        handler: Arc<dyn IncomingHandler>,
        observer: Option<TrafficObserver>,
    ) -> Self {
        let (commands, command_rx) = mpsc::channel(COMMAND_CAPACITY);
        let (cancels, cancel_rx) = mpsc::unbounded_channel();
        let (closed_tx, closed) = tokio::sync::watch::channel(None);
        let (finished_tx, finished) = tokio::sync::watch::channel(false);
        let shutdown = Arc::new(Shutdown::default());
        let shutdown_handle = shutdown.clone();
        let actor = Actor {
            transport,
            handler,
            outbox: VecDeque::new(),
            pending: HashMap::new(),
            incoming: HashMap::new(),
            listening: 0,
            handlers: JoinSet::new(),
            batches: HashMap::new(),
            next_batch: 0,
            observer,
        };
        tokio::spawn(async move {
            actor.run(command_rx, cancel_rx, closed_tx, shutdown).await;
            let _ = finished_tx.send(true);
        });
        Self {
            commands,
            cancels,
            // Some servers take an id of 0 for no id at all: ids start at 1.
            next_id: Arc::new(AtomicI64::new(1)),
            closed,
            finished,
            shutdown: shutdown_handle,
        }
    }

    /// Sends a request and waits for its result, honouring the options' timeout,
    /// progress and cancellation. A request that ends without a result tells the peer
    /// with `notifications/cancelled`.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        options: RequestOptions,
    ) -> Result<Value, RequestError> {
        self.send_request(method, params.as_ref(), options).await
    }

    /// [`Connection::request`] with params of any serializable type, encoded straight into
    /// the message.
    pub async fn request_with<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: &P,
        options: RequestOptions,
    ) -> Result<Value, RequestError> {
        self.send_request(method, Some(params), options).await
    }

    /// An id for a request sent later with [`Connection::request_as`], for a caller that
    /// must know it first (the peer names a `subscriptions/listen` stream by it).
    pub(crate) fn reserve_id(&self) -> i64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// [`Connection::request`] with an id from [`Connection::reserve_id`].
    pub(crate) async fn request_as(
        &self,
        id: i64,
        method: &str,
        params: Option<Value>,
        options: RequestOptions,
    ) -> Result<Value, RequestError> {
        self.send_request_as(id, method, params.as_ref(), options)
            .await
    }

    async fn send_request<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: Option<&P>,
        options: RequestOptions,
    ) -> Result<Value, RequestError> {
        self.send_request_as(self.reserve_id(), method, params, options)
            .await
    }

    async fn send_request_as<P: Serialize + ?Sized>(
        &self,
        id: i64,
        method: &str,
        params: Option<&P>,
        options: RequestOptions,
    ) -> Result<Value, RequestError> {
        let wants_progress = options.progress.is_some() || options.reset_timeout_on_progress;
        let line =
            encode(id, method, params, wants_progress).map_err(|e| encode_error(method, &e))?;
        let (respond, response) = oneshot::channel();
        // Only a caller that wants progress pays for a channel to receive it.
        let (progress_tx, mut progress_rx) = if wants_progress {
            let (tx, rx) = mpsc::channel(PROGRESS_CAPACITY);
            (Some(tx), Some(rx))
        } else {
            (None, None)
        };
        let command = Command::Request {
            id,
            line,
            respond,
            progress: progress_tx,
            cancellable: method != crate::types::method::INITIALIZE,
            long_lived: method == crate::types::method::SUBSCRIPTIONS_LISTEN,
        };
        // The wait for room in the queue counts against the timeout: a server that does
        // not read must not hold a caller longer than it asked.
        let started = Instant::now();
        let hard_deadline = options.max_total.map(|max| started + max);
        let limit = |deadline: Instant| hard_deadline.map_or(deadline, |hard| deadline.min(hard));
        let timeout = tokio::time::sleep_until(limit(started + options.timeout));
        tokio::pin!(timeout);
        tokio::select! {
            queued = self.commands.send(command) => if queued.is_err() {
                return Err(RequestError::Closed(self.close_reason()));
            },
            () = &mut timeout => {
                return Err(RequestError::Timeout { method: method.to_owned(), after: started.elapsed() });
            }
            () = cancelled(options.cancel.as_ref()) => {
                return Err(RequestError::Cancelled { method: method.to_owned() });
            }
        }
        // From here on, leaving without a result tells the peer we stopped waiting.
        let mut guard = CancelOnDrop {
            id,
            cancels: &self.cancels,
            reason: "the client stopped waiting",
        };
        let mut response = response;
        loop {
            tokio::select! {
                answer = &mut response => {
                    guard.disarm();
                    // Progress sent just before the answer may still be queued: pass it on
                    // first, so that a progress bar ends on its last step.
                    if let (Some(sink), Some(queued)) = (&options.progress, &mut progress_rx) {
                        while let Ok(progress) = queued.try_recv() {
                            let _ = sink.try_send(progress);
                        }
                    }
                    return match answer {
                        Ok(Ok(result)) => Ok(result),
                        Ok(Err(Failure::Server(error))) => Err(RequestError::Server { method: method.to_owned(), error }),
                        Ok(Err(Failure::Transport(error))) => Err(RequestError::Transport { method: method.to_owned(), error }),
                        Ok(Err(Failure::Unreadable(error))) => Err(RequestError::Unreadable { method: method.to_owned(), error }),
                        Err(_) => Err(RequestError::Closed(self.close_reason())),
                    };
                }
                Some(progress) = next_progress(&mut progress_rx) => {
                    if options.reset_timeout_on_progress {
                        timeout.as_mut().reset(limit(Instant::now() + options.timeout));
                    }
                    if let Some(sink) = &options.progress {
                        let _ = sink.try_send(progress);
                    }
                }
                () = &mut timeout => {
                    guard.reason = "timed out";
                    return Err(RequestError::Timeout { method: method.to_owned(), after: started.elapsed() });
                }
                () = cancelled(options.cancel.as_ref()) => {
                    guard.reason = "cancelled by the user";
                    return Err(RequestError::Cancelled { method: method.to_owned() });
                }
            }
        }
    }

    /// Sends a notification.
    pub async fn notify(&self, method: &str, params: Option<Value>) -> Result<(), RequestError> {
        let line =
            encode_notification(method, params.as_ref()).map_err(|e| encode_error(method, &e))?;
        self.commands
            .send(Command::Notify(line))
            .await
            .map_err(|_| RequestError::Closed(self.close_reason()))
    }

    /// A handle that does not keep the connection alive.
    pub fn downgrade(&self) -> WeakConnection {
        WeakConnection {
            commands: self.commands.downgrade(),
            cancels: self.cancels.downgrade(),
            next_id: self.next_id.clone(),
            closed: self.closed.clone(),
            finished: self.finished.clone(),
            shutdown: self.shutdown.clone(),
        }
    }

    /// Whether the connection has ended, and why.
    pub fn closed(&self) -> Option<Arc<CloseReason>> {
        self.closed.borrow().clone()
    }

    /// Waits until the connection ends and returns why.
    pub async fn wait_closed(&self) -> Arc<CloseReason> {
        let mut closed = self.closed.clone();
        match closed.wait_for(Option::is_some).await {
            Ok(reason) => reason.clone().unwrap_or_default(),
            Err(_) => Arc::default(),
        }
    }

    /// Ends the connection gracefully (for stdio: close stdin, wait, SIGTERM, SIGKILL)
    /// and waits until it is over.
    pub async fn close(&self) -> Arc<CloseReason> {
        self.shutdown.request(None);
        self.end().await
    }

    /// Ends the connection because it is of no use any more (its server stopped
    /// answering), with that reason for everyone waiting on it.
    pub async fn fail(&self, reason: String) -> Arc<CloseReason> {
        self.shutdown.request(Some(reason));
        self.end().await
    }

    async fn end(&self) -> Arc<CloseReason> {
        let mut finished = self.finished.clone();
        let _ = finished.wait_for(|done| *done).await;
        self.wait_closed().await
    }

    fn close_reason(&self) -> Arc<CloseReason> {
        self.closed().unwrap_or_else(|| {
            Arc::new(CloseReason {
                detail: "the connection is shutting down".into(),
                ..CloseReason::default()
            })
        })
    }
}

/// A request as one line; with `_meta.progressToken` (the request's id) added to its params
/// when the caller wants progress.
fn encode<P: Serialize + ?Sized>(
    id: i64,
    method: &str,
    params: Option<&P>,
    with_progress: bool,
) -> Result<String, serde_json::Error> {
    let request_id = RequestId::Number(id);
    if !with_progress {
        return encode_request(&request_id, method, params);
    }
    let mut params = match params.map(serde_json::to_value).transpose()? {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    let meta = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(meta) = meta {
        meta.insert("progressToken".into(), id.into());
    }
    encode_request(&request_id, method, Some(&params))
}

fn encode_error(method: &str, error: &serde_json::Error) -> RequestError {
    RequestError::Encode {
        method: method.to_owned(),
        detail: error.to_string(),
    }
}

/// The next progress notification, for a caller that asked for them; never, otherwise.
async fn next_progress(progress: &mut Option<mpsc::Receiver<Progress>>) -> Option<Progress> {
    match progress {
        Some(progress) => progress.recv().await,
        None => std::future::pending().await,
    }
}

/// Resolves when the caller cancels; never, for a caller that cannot.
async fn cancelled(cancel: Option<&CancellationToken>) {
    match cancel {
        Some(cancel) => cancel.cancelled().await,
        None => std::future::pending().await,
    }
}

struct CancelOnDrop<'a> {
    id: i64,
    cancels: &'a mpsc::UnboundedSender<(i64, String)>,
    reason: &'static str,
}

impl CancelOnDrop<'_> {
    fn disarm(&mut self) {
        self.id = -1;
    }
}

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        if self.id >= 0 {
            let _ = self.cancels.send((self.id, self.reason.to_owned()));
        }
    }
}

struct Pending {
    respond: oneshot::Sender<Result<Value, Failure>>,
    progress: Option<mpsc::Sender<Progress>>,
    cancellable: bool,
    long_lived: bool,
}

/// Messages waiting for room in the transport's channel. The actor queues instead of
/// waiting, so that it goes on reading a server that writes while it does not read (a
/// full pipe each way would otherwise be a deadlock).
const OUTBOX_LIMIT: usize = 64;
/// Beyond this, the actor stops reading the server too: its own answers are not read.
const OUTBOX_HARD_LIMIT: usize = 4096;

/// What a handler of the peer's request ended with.
struct Answered {
    id: RequestId,
    /// The batch the request came in, to be answered with it.
    batch: Option<u64>,
    /// `None` when the peer cancelled the request: it gets no response at all.
    outcome: Option<Result<Value, ErrorObject>>,
    /// Whether its handler is in `incoming` (answered at once: not).
    tracked: bool,
}

/// The peer's requests answered at once; beyond, the next is refused until one is done
/// (each runs a handler: a peer must not start them without bound).
const MAX_ANSWERING: usize = 64;
/// The peer's listen streams open at once (the stateless era's `subscriptions/listen`):
/// each lasts as long as the peer listens, so they are bounded apart from the requests, and
/// a peer that listens keeps all of [`MAX_ANSWERING`] for its calls.
const MAX_LISTENING: usize = 4;

/// A request of the peer's being answered.
struct Answering {
    /// Stops its handler when the peer cancels it.
    cancel: CancellationToken,
    /// Whether it is a listen stream (see [`MAX_LISTENING`]).
    listen: bool,
}

/// The responses of one incoming batch, sent together once every request in it is done.
struct BatchReply {
    waiting: usize,
    responses: Vec<Message>,
}

struct Actor {
    transport: TransportParts,
    handler: Arc<dyn IncomingHandler>,
    outbox: VecDeque<String>,
    /// Our requests waiting for the peer's answer.
    pending: HashMap<i64, Pending>,
    /// The peer's requests being answered, to stop them when the peer cancels.
    incoming: HashMap<RequestId, Answering>,
    /// How many of `incoming` are listen streams.
    listening: usize,
    handlers: JoinSet<Answered>,
    batches: HashMap<u64, BatchReply>,
    next_batch: u64,
    observer: Option<TrafficObserver>,
}

impl Actor {
    async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        mut cancels: mpsc::UnboundedReceiver<(i64, String)>,
        closed: tokio::sync::watch::Sender<Option<Arc<CloseReason>>>,
        shutdown: Arc<Shutdown>,
    ) {
        // A handle of its own, so that waiting for room borrows nothing of the actor.
        let outgoing = self.transport.outgoing.clone();
        let reason = loop {
            self.flush(&outgoing);
            tokio::select! {
                // Cancellations first: a caller's last act may be to cancel and let go.
                biased;
                Some((id, reason)) = cancels.recv() => self.cancel_ours(id, reason),
                permit = outgoing.reserve(), if !self.outbox.is_empty() => match permit {
                    Ok(permit) => permit.send(self.outbox.pop_front().unwrap_or_default()),
                    // The transport is gone; its incoming side reports why.
                    Err(_) => self.outbox.clear(),
                },
                command = commands.recv(), if self.outbox.len() < OUTBOX_LIMIT => match command {
                    Some(command) => self.command(command),
                    // Every handle is gone: nobody can use this connection any more.
                    None => break CloseReason {
                        detail: "the client let go of the connection".into(),
                        ..CloseReason::default()
                    },
                },
                Some(done) = self.handlers.join_next(), if !self.handlers.is_empty() => {
                    if let Ok(answered) = done {
                        self.answered(answered);
                    }
                }
                inbound = self.transport.incoming.recv(), if self.outbox.len() < OUTBOX_HARD_LIMIT => match inbound {
                    Some(Inbound::Message(message)) => {
                        self.saw(&message);
                        self.dispatch(message, None);
                    }
                    Some(Inbound::Unreadable(unreadable)) => {
                        if let Some(reply) = self.unreadable(unreadable) {
                            self.send_best_effort(reply);
                        }
                    }
                    Some(Inbound::Batch(items)) => {
                        for message in items.iter().flatten() {
                            self.saw(message);
                        }
                        self.batch(items);
                    }
                    Some(Inbound::Renewed(result)) => self.handler.session_renewed(result),
                    Some(Inbound::Failed { id, error }) => self.fail_ours(&id, Failure::Transport(error)),
                    None => break self.transport.control.close_reason().await,
                },
                () = shutdown.notify.notified() => break CloseReason {
                    detail: shutdown.reason(),
                    ..CloseReason::default()
                },
            }
        };
        let reason = Arc::new(reason);
        let _ = closed.send(Some(reason.clone()));
        // Dropping the pending responders fails every request in flight with `Closed`.
        self.pending.clear();
        self.handlers.abort_all();
        drop(outgoing);
        let Actor { transport, .. } = self;
        let TransportParts {
            outgoing, control, ..
        } = transport;
        drop(outgoing);
        control.shutdown().await;
    }

    /// Hands queued messages to the transport while it has room, in order.
    fn flush(&mut self, outgoing: &mpsc::Sender<String>) {
        while let Some(line) = self.outbox.pop_front() {
            match outgoing.try_send(line) {
                Ok(()) => {}
                Err(mpsc::error::TrySendError::Full(line)) => {
                    self.outbox.push_front(line);
                    return;
                }
                Err(mpsc::error::TrySendError::Closed(_)) => {
                    self.outbox.clear();
                    return;
                }
            }
        }
    }

    fn send(&mut self, message: &Message) {
        self.enqueue(message.to_json());
    }

    /// Queues a serialized message for the transport, showing it to the observer.
    fn enqueue(&mut self, line: String) {
        traffic::see(self.observer.as_ref(), Direction::Sent, || {
            Seen::Text(line.clone())
        });
        self.outbox.push_back(line);
    }

    /// Shows a received message to the observer.
    fn saw(&self, message: &Message) {
        traffic::see(self.observer.as_ref(), Direction::Received, || {
            Seen::Read(Box::new(message.clone()))
        });
    }

    /// Sends an answer the peer may do without (an error for a message that could not be
    /// read): a peer that floods garbage while not reading fills no queue with them.
    fn send_best_effort(&mut self, message: Message) {
        if self.outbox.len() < OUTBOX_LIMIT {
            self.send(&message);
        } else {
            tracing::debug!(
                "dropped an error reply to an unreadable message: the peer is not reading"
            );
        }
    }

    fn command(&mut self, command: Command) {
        match command {
            Command::Request {
                id,
                line,
                respond,
                progress,
                cancellable,
                long_lived,
            } => {
                // The caller stopped waiting before its request went out: it never goes.
                if respond.is_closed() && cancellable {
                    return;
                }
                self.pending.insert(
                    id,
                    Pending {
                        respond,
                        progress,
                        cancellable,
                        long_lived,
                    },
                );
                self.enqueue(line);
            }
            Command::Notify(line) => self.enqueue(line),
        }
    }

    fn cancel_ours(&mut self, id: i64, reason: String) {
        // Absent: answered already, or never sent (see `command`).
        let Some(pending) = self.pending.remove(&id) else {
            return;
        };
        if !pending.cancellable {
            return;
        }
        let params = json!({"requestId": id, "reason": reason});
        self.send(&Message::Notification(Notification {
            method: crate::types::method::CANCELLED.into(),
            params: Some(params),
        }));
    }

    fn dispatch(&mut self, message: Message, batch: Option<u64>) {
        match message {
            Message::Response(response) => {
                let RequestId::Number(id) = response.id else {
                    tracing::debug!(id = %response.id, "a response to no request of ours");
                    return;
                };
                self.settle(id, response.outcome.map_err(Failure::Server));
            }
            Message::Request(request) => self.answer(request, batch),
            Message::Notification(n) => self.notification(n),
            Message::OrphanError(error) => self.orphan(error),
        }
    }

    /// A message that could not be read: a caller waiting for it fails at once, and a
    /// request gets an error back (returned, to be sent alone or in its batch).
    fn unreadable(&mut self, unreadable: Unreadable) -> Option<Message> {
        let Unreadable { id, kind, error } = unreadable;
        match (kind, id) {
            (Kind::Response, Some(RequestId::Number(id))) => {
                self.settle(id, Err(Failure::Unreadable(error)));
                None
            }
            // Nobody can tell whose: only an error the peer meant as one is taken for the
            // answer of a lone request (see `orphan`).
            (Kind::Response, _) => {
                tracing::debug!(%error, "an answer of the server's that names no request of ours");
                None
            }
            (_, id) => {
                let reply =
                    ErrorObject::new(error.code(), format!("could not read the message: {error}"));
                Some(match id {
                    Some(id) => Message::Response(Response {
                        id,
                        outcome: Err(reply),
                    }),
                    None => Message::OrphanError(reply),
                })
            }
        }
    }

    /// An error the peer sent without saying for which request: when only one request is
    /// waiting it must be that one; otherwise nobody can tell, and the log says so.
    ///
    /// A long-lived request (`subscriptions/listen`) is not counted: it waits as long as the
    /// connection lives, so counting it would leave every such error unmatched, and a peer
    /// that could not read it says so when it arrives, not in the middle of later calls.
    /// Nor is the request written last taken for the one meant: requests cross on the wire
    /// (over HTTP each goes on its own), so the last one written need not be the one the
    /// peer failed, and failing a call that may still succeed is worse than letting the
    /// right one meet its timeout.
    fn orphan(&mut self, error: ErrorObject) {
        let mut waiting = self.pending.iter().filter(|(_, p)| !p.long_lived);
        match (waiting.next(), waiting.count()) {
            (Some((&id, _)), 0) => self.settle(id, Err(Failure::Server(error))),
            (first, others) => {
                let waiting = match first {
                    Some(_) => format!("{} were waiting", others + 1),
                    None => "none was waiting".to_owned(),
                };
                tracing::warn!(%error, "the server sent an error for no request it named");
                (self.transport.log)(LogLine::Protocol(format!(
                    "skipped an error that names no request, while {waiting}: {error}"
                )));
            }
        }
    }

    fn batch(&mut self, items: Vec<Result<Message, Unreadable>>) {
        let key = self.next_batch;
        self.next_batch += 1;
        let mut reply = BatchReply {
            waiting: 0,
            responses: Vec::new(),
        };
        for item in items {
            match item {
                Ok(Message::Request(request)) => {
                    reply.waiting += 1;
                    self.answer(request, Some(key));
                }
                Ok(message) => self.dispatch(message, None),
                Err(unreadable) => reply.responses.extend(self.unreadable(unreadable)),
            }
        }
        if reply.waiting == 0 {
            self.send_batch(reply.responses);
        } else {
            self.batches.insert(key, reply);
        }
    }

    fn send_batch(&mut self, responses: Vec<Message>) {
        if responses.is_empty() {
            return;
        }
        let parts: Vec<String> = responses.iter().map(Message::to_json).collect();
        self.enqueue(format!("[{}]", parts.join(",")));
    }

    fn answered(&mut self, answered: Answered) {
        let Answered {
            id,
            batch,
            outcome,
            tracked,
        } = answered;
        if tracked {
            self.stop_answering(&id);
        }
        let response = outcome.map(|outcome| Message::Response(Response { id, outcome }));
        let Some(key) = batch else {
            if let Some(response) = response {
                self.send(&response);
            }
            return;
        };
        let Some(reply) = self.batches.get_mut(&key) else {
            return;
        };
        reply.responses.extend(response);
        reply.waiting -= 1;
        if reply.waiting == 0
            && let Some(reply) = self.batches.remove(&key)
        {
            self.send_batch(reply.responses);
        }
    }

    fn fail_ours(&mut self, id: &RequestId, failure: Failure) {
        if let RequestId::Number(id) = id {
            self.settle(*id, Err(failure));
        }
    }

    fn settle(&mut self, id: i64, outcome: Result<Value, Failure>) {
        // Absent: a late answer to a request that timed out or was cancelled.
        if let Some(pending) = self.pending.remove(&id) {
            let _ = pending.respond.send(outcome);
        }
    }

    /// Takes the peer's request `id` off those being answered.
    fn stop_answering(&mut self, id: &RequestId) -> Option<Answering> {
        let answering = self.incoming.remove(id)?;
        self.listening -= usize::from(answering.listen);
        Some(answering)
    }

    fn answer(&mut self, request: Request, batch: Option<u64>) {
        use crate::jsonrpc::code;
        let Request { id, method, params } = request;
        let listen = method == crate::types::method::SUBSCRIPTIONS_LISTEN;
        let at_once = if method == crate::types::method::PING {
            Some(Ok(json!({})))
        } else if self.incoming.contains_key(&id) {
            // Its answer could not be told from the first one's, nor its cancellation.
            let why = format!("request id {id} is in use by a request still being answered");
            Some(Err(ErrorObject::new(code::INVALID_REQUEST, why)))
        } else if listen && self.listening >= MAX_LISTENING {
            let why = format!("too many listen streams: {MAX_LISTENING} are open; close one first");
            Some(Err(ErrorObject::new(code::INTERNAL_ERROR, why)))
        } else if !listen && self.incoming.len() - self.listening >= MAX_ANSWERING {
            let why = format!(
                "too many requests in progress: {MAX_ANSWERING} are being answered; send it again once one is done"
            );
            Some(Err(ErrorObject::new(code::INTERNAL_ERROR, why)))
        } else {
            None
        };
        if let Some(outcome) = at_once {
            // Through the handlers all the same, so that a batch gets it in its reply.
            self.handlers.spawn(std::future::ready(Answered {
                id,
                batch,
                outcome: Some(outcome),
                tracked: false,
            }));
            return;
        }
        let token = CancellationToken::new();
        let answering = Answering {
            cancel: token.clone(),
            listen,
        };
        self.incoming.insert(id.clone(), answering);
        self.listening += usize::from(listen);
        let work =
            AssertUnwindSafe(self.handler.request_with_id(&id, method, params)).catch_unwind();
        self.handlers.spawn(async move {
            let outcome = tokio::select! {
                // A cancelled request gets no response at all.
                () = token.cancelled() => None,
                outcome = work => Some(outcome.unwrap_or_else(|_| {
                    Err(ErrorObject::new(code::INTERNAL_ERROR, "the client failed while answering"))
                })),
            };
            Answered {
                id,
                batch,
                outcome,
                tracked: true,
            }
        });
    }

    fn notification(&mut self, n: Notification) {
        use crate::types::method;
        match n.method.as_str() {
            method::PROGRESS => self.progress(n.params),
            method::CANCELLED => {
                let id = n
                    .params
                    .as_ref()
                    .and_then(|p| p.get("requestId"))
                    .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
                if let Some(answering) = id.and_then(|id| self.stop_answering(&id)) {
                    answering.cancel.cancel();
                }
            }
            _ => self.handler.notification(n.method, n.params),
        }
    }

    fn progress(&self, params: Option<Value>) {
        let Some(params) = params else { return };
        let Some(token) = params.get("progressToken").and_then(Value::as_i64) else {
            return;
        };
        let Some(sink) = self.pending.get(&token).and_then(|p| p.progress.as_ref()) else {
            return;
        };
        let progress = Progress {
            progress: params
                .get("progress")
                .and_then(Value::as_f64)
                .unwrap_or(0.0),
            total: params.get("total").and_then(Value::as_f64),
            message: params
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned),
        };
        // A caller that is behind loses old progress, never blocks the connection.
        let _ = sink.try_send(progress);
    }
}
