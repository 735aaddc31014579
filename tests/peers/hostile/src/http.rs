//! Serving Streamable HTTP at `/mcp` with bare hyper: every POST carries one message; an
//! answer is a JSON body or an event stream; GET opens the stream of what the server says
//! unprompted (the flood), or polls for an answer (`sse-one-event`).

use std::collections::HashMap;
use std::convert::Infallible;
use std::io::{self, Write as _};
use std::net::Ipv4Addr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::channel::Channel;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming as Body;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::time::Instant;

use crate::behaviour::{self, Mode, Peer, misbehaving};
use crate::outlet::{Framing, Outlet};
use crate::wire::{self, Incoming};

type Reply = Response<BoxBody<Bytes, io::Error>>;

/// Frames a response body holds before its writer waits: one, so that a write returns
/// only once the frame before it was taken (see [`Outlet::crash_mid`]).
const BODY_FRAMES: usize = 1;

pub async fn serve(peer: Arc<Peer>, sse: bool) -> io::Result<()> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
    {
        let mut stdout = io::stdout().lock();
        writeln!(stdout, "listening on http://{}/mcp", listener.local_addr()?)?;
        stdout.flush()?;
    }
    let framing = if sse || peer.mode.needs_stream() {
        Framing::Events
    } else {
        Framing::Body
    };
    let server = Arc::new(Server {
        peer,
        framing,
        initialized: AtomicBool::new(false),
        polls: Polls::default(),
    });
    loop {
        let (stream, _) = listener.accept().await?;
        // Headers and body leave in separate writes: without this, each answer waits for
        // the client's delayed acknowledgement.
        let _ = stream.set_nodelay(true);
        let server = server.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let server = server.clone();
                async move { Ok::<_, Infallible>(server.route(request).await) }
            });
            // A client that goes away mid-answer is what some modes are about.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

struct Server {
    peer: Arc<Peer>,
    framing: Framing,
    /// Set once `initialize` is answered: the misbehaviour starts after it.
    initialized: AtomicBool,
    polls: Polls,
}

impl Server {
    async fn route(&self, request: Request<Body>) -> Reply {
        if request.uri().path() != "/mcp" {
            return status(StatusCode::NOT_FOUND);
        }
        match *request.method() {
            Method::POST => self.post(request).await,
            Method::GET => self.get(&request),
            Method::DELETE => status(StatusCode::OK),
            _ => status(StatusCode::METHOD_NOT_ALLOWED),
        }
    }

    async fn post(&self, request: Request<Body>) -> Reply {
        let mode = self.peer.mode;
        if mode == Mode::NeverReads && self.initialized.load(Ordering::Relaxed) {
            misbehaving("no longer reading request bodies");
            return std::future::pending().await;
        }
        let body = match request.into_body().collect().await {
            Ok(body) => body.to_bytes(),
            Err(_) => return status(StatusCode::BAD_REQUEST),
        };
        let message = match Incoming::parse(&body) {
            Ok(message) => message,
            Err(e) => return text(StatusCode::BAD_REQUEST, e),
        };
        match message {
            Incoming::Request { id, method } if method == "initialize" => {
                self.initialized.store(true, Ordering::Relaxed);
                let (mut out, reply) = self.stream(self.framing);
                tokio::spawn(async move { out.message(&wire::initialize_result(&id)).await });
                reply
            }
            Incoming::Request { .. } if mode == Mode::NeverAnswers => {
                misbehaving("answering nothing");
                std::future::pending().await
            }
            Incoming::Request { id, method } if mode == Mode::SseOneEvent => {
                let answer = match method.as_str() {
                    "tools/call" => wire::tool_text(&id, "poked"),
                    _ => wire::error(&id, -32601, &format!("no method {method}")),
                };
                misbehaving("closing every event stream after one event");
                events(self.polls.start(answer))
            }
            Incoming::Request { id, method } => {
                let (out, reply) = self.stream(self.framing);
                let peer = self.peer.clone();
                tokio::spawn(async move { behaviour::answer(&peer, id, &method, out).await });
                reply
            }
            Incoming::Notification { .. } => status(StatusCode::ACCEPTED),
            Incoming::Response { id, message } => {
                self.peer.asker.settle(&id, message);
                status(StatusCode::ACCEPTED)
            }
        }
    }

    fn get(&self, request: &Request<Body>) -> Reply {
        match self.peer.mode {
            mode if mode.floods() => {
                let (out, reply) = self.stream(Framing::Events);
                tokio::spawn(behaviour::flood(mode, out));
                reply
            }
            Mode::SseOneEvent => {
                let last = request
                    .headers()
                    .get("Last-Event-ID")
                    .and_then(|v| v.to_str().ok());
                events(self.polls.next(last))
            }
            _ => status(StatusCode::METHOD_NOT_ALLOWED),
        }
    }

    /// A response whose body is written as it goes, and the outlet that writes it.
    fn stream(&self, framing: Framing) -> (Outlet, Reply) {
        let (sender, body) = Channel::new(BODY_FRAMES);
        let kind = match framing {
            Framing::Events => "text/event-stream",
            _ => "application/json",
        };
        let reply = Response::builder()
            .header(CONTENT_TYPE, kind)
            .header(CACHE_CONTROL, "no-cache")
            .body(body.boxed());
        (Outlet::body(framing, sender), built(reply))
    }
}

/// How long a call of `sse-one-event` works before its answer can be fetched: long enough
/// that a client must poll many times.
const WORK: Duration = Duration::from_secs(2);
/// The `retry` of every priming event, in milliseconds.
const RETRY_MS: u64 = 100;

/// The answers of `sse-one-event`, kept until a poll fetches them. An event id names its
/// stream and how many polls it has seen: `<call>/<n>`, or `listen/<n>` for the GET stream.
#[derive(Default)]
struct Polls {
    next_call: AtomicU64,
    answers: Mutex<HashMap<u64, (Instant, Value)>>,
}

impl Polls {
    /// The one event of a call's first stream: a priming event, the answer to come later.
    fn start(&self, answer: Value) -> Bytes {
        let call = self.next_call.fetch_add(1, Ordering::Relaxed);
        self.answers().insert(call, (Instant::now() + WORK, answer));
        priming(&format!("{call}/0"))
    }

    /// The one event of a poll after `last`: the answer if it is ready, otherwise a
    /// priming event to come back for it.
    fn next(&self, last: Option<&str>) -> Bytes {
        let (stream, polls) = last
            .and_then(|last| last.split_once('/'))
            .and_then(|(stream, n)| Some((stream.to_owned(), n.parse::<u64>().ok()?)))
            .unwrap_or_else(|| ("listen".to_owned(), 0));
        let ready = stream.parse::<u64>().ok().and_then(|call| {
            let mut answers = self.answers();
            match answers.get(&call) {
                Some((at, _)) if *at <= Instant::now() => answers.remove(&call),
                _ => None,
            }
        });
        match ready {
            Some((_, answer)) => Bytes::from(format!("id: {stream}/done\ndata: {answer}\n\n")),
            None => priming(&format!("{stream}/{}", polls + 1)),
        }
    }

    fn answers(&self) -> std::sync::MutexGuard<'_, HashMap<u64, (Instant, Value)>> {
        self.answers.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// An event with an id and empty data: it tells the client where to resume, and when.
fn priming(id: &str) -> Bytes {
    Bytes::from(format!("id: {id}\nretry: {RETRY_MS}\ndata: \n\n"))
}

/// A complete event stream: these bytes, then the end.
fn events(bytes: Bytes) -> Reply {
    built(
        Response::builder()
            .header(CONTENT_TYPE, "text/event-stream")
            .header(CACHE_CONTROL, "no-cache")
            .body(full(bytes)),
    )
}

fn status(status: StatusCode) -> Reply {
    text(status, String::new())
}

fn text(status: StatusCode, text: String) -> Reply {
    built(
        Response::builder()
            .status(status)
            .header(CONTENT_TYPE, "text/plain")
            .body(full(Bytes::from(text))),
    )
}

fn full(bytes: Bytes) -> BoxBody<Bytes, io::Error> {
    Full::new(bytes).map_err(|never| match never {}).boxed()
}

/// The builder only fails on invalid headers, and every header here is a constant.
fn built(reply: Result<Reply, hyper::http::Error>) -> Reply {
    reply.unwrap_or_else(|e| {
        let mut reply = Response::new(full(Bytes::from(e.to_string())));
        *reply.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        reply
    })
}
