//! The HTTP side, bare hyper: routes, the record of requests, and answers written out,
//! streams frame by frame (or in pieces of a set size) as they would leave a real
//! provider.

use std::convert::Infallible;
use std::io::{self, Write as _};
use std::net::Ipv4Addr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use http_body_util::channel::Channel;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::{HeaderMap, Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Map, Value, json};
use tokio::net::TcpListener;

use crate::answer::Answer;
use crate::script::{Script, Turn};
use crate::{anthropic, openai};

type Reply = Response<BoxBody<Bytes, io::Error>>;

pub async fn serve(script: Script, port: u16) -> io::Result<()> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?;
    {
        let mut stdout = io::stdout().lock();
        writeln!(stdout, "listening on http://{}", listener.local_addr()?)?;
        stdout.flush()?;
    }
    let server = Arc::new(Server {
        script,
        next_turn: AtomicUsize::new(0),
        requests: Mutex::new(Vec::new()),
    });
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let server = server.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let server = server.clone();
                async move { Ok::<_, Infallible>(server.route(request).await) }
            });
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

struct Server {
    script: Script,
    next_turn: AtomicUsize,
    /// Every request to the protocols' paths, in order.
    requests: Mutex<Vec<Value>>,
}

/// A request as received.
struct Received {
    method: Method,
    path: String,
    query: String,
    headers: HeaderMap,
    /// The body as JSON; `None` if it was not.
    body: Option<Value>,
    /// The request's number, from 1.
    number: usize,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The JSON kept for the test to read.
    fn record(&self, raw: &[u8]) -> Value {
        let mut headers = Map::new();
        for (name, value) in &self.headers {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            headers.insert(name.as_str().to_owned(), json!(value));
        }
        json!({
            "method": self.method.as_str(),
            "path": self.path,
            "query": self.query,
            "headers": headers,
            "body": self.body.clone().unwrap_or_else(|| json!(String::from_utf8_lossy(raw))),
        })
    }
}

impl Server {
    async fn route(&self, request: Request<Incoming>) -> Reply {
        let (parts, body) = request.into_parts();
        let raw = match body.collect().await {
            Ok(body) => body.to_bytes(),
            Err(_) => return text(StatusCode::BAD_REQUEST, "the body could not be read"),
        };
        let path = parts.uri.path().to_owned();
        if path == "/_stand-in/requests" {
            let requests = self.requests().clone();
            return reply(Answer::json(200, Value::Array(requests)));
        }
        let received = Received {
            number: self.requests().len() + 1,
            method: parts.method,
            path,
            query: parts.uri.query().unwrap_or("").to_owned(),
            headers: parts.headers,
            body: serde_json::from_slice(&raw).ok(),
        };
        self.requests().push(received.record(&raw));
        let answer = match (&received.method, received.path.as_str()) {
            (&Method::POST, "/v1/chat/completions") => self.openai_chat(&received),
            (&Method::POST, "/v1/messages") => self.anthropic_messages(&received),
            (&Method::GET, "/v1/models") if received.header("anthropic-version").is_some() => {
                anthropic::check_key(
                    self.script.api_key.as_deref(),
                    received.header("x-api-key"),
                    received.header("authorization"),
                    received.number,
                )
                .unwrap_or_else(|| match &self.script.models_error {
                    Some(failure) => anthropic::failure(failure, received.number),
                    None => anthropic::models(
                        &self.script.models,
                        self.script.models_page_size,
                        &received.query,
                    ),
                })
            }
            (&Method::GET, "/v1/models") => openai::check_key(
                self.script.api_key.as_deref(),
                received.header("authorization"),
            )
            .unwrap_or_else(|| match &self.script.models_error {
                Some(failure) => openai::failure(failure),
                None => openai::models(&self.script.models),
            }),
            _ => return text(StatusCode::NOT_FOUND, "no such endpoint"),
        };
        reply(answer)
    }

    fn openai_chat(&self, received: &Received) -> Answer {
        if let Some(refused) = openai::check_key(
            self.script.api_key.as_deref(),
            received.header("authorization"),
        ) {
            return refused;
        }
        let Some(body) = &received.body else {
            return Answer::json(
                400,
                json!({"error": {"message": "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)", "type": "invalid_request_error", "param": null, "code": null}}),
            );
        };
        if let Err(refused) = openai::validate(body) {
            return refused;
        }
        match self.take_turn() {
            Some((n, turn)) => match &turn.error {
                Some(failure) => openai::failure(failure),
                None => openai::answer(turn, body, n),
            },
            None => Answer::json(
                500,
                json!({"error": {"message": "the stand-in has no scripted turn left", "type": "server_error", "param": null, "code": null}}),
            ),
        }
    }

    fn anthropic_messages(&self, received: &Received) -> Answer {
        let number = received.number;
        if let Some(refused) = anthropic::check_key(
            self.script.api_key.as_deref(),
            received.header("x-api-key"),
            received.header("authorization"),
            number,
        ) {
            return refused;
        }
        let Some(body) = &received.body else {
            return Answer::json(
                400,
                json!({"type": "error", "error": {"type": "invalid_request_error", "message": "There was an issue with your request body: it is not valid JSON"}}),
            );
        };
        if let Err(refused) =
            anthropic::validate(received.header("anthropic-version"), body, number)
        {
            return refused;
        }
        match self.take_turn() {
            Some((n, turn)) => match &turn.error {
                Some(failure) => anthropic::failure(failure, number),
                None => anthropic::answer(turn, body, n),
            },
            None => Answer::json(
                500,
                json!({"type": "error", "error": {"type": "api_error", "message": "the stand-in has no scripted turn left"}}),
            ),
        }
    }

    /// The next scripted turn and its number (from 1).
    fn take_turn(&self) -> Option<(usize, &Turn)> {
        let at = self.next_turn.fetch_add(1, Ordering::Relaxed);
        self.script.turns.get(at).map(|turn| (at + 1, turn))
    }

    fn requests(&self) -> std::sync::MutexGuard<'_, Vec<Value>> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn reply(answer: Answer) -> Reply {
    match answer {
        Answer::Json {
            status,
            headers,
            body,
        } => {
            let mut builder = Response::builder()
                .status(status)
                .header(CONTENT_TYPE, "application/json");
            for (name, value) in headers {
                builder = builder.header(name, value);
            }
            built(builder.body(full(Bytes::from(body.to_string()))))
        }
        Answer::Events {
            frames,
            chunk_bytes,
            stall,
        } => {
            let (mut sender, body) = Channel::<Bytes, io::Error>::new(1);
            let pieces: Vec<Bytes> = match chunk_bytes {
                Some(size) => frames
                    .concat()
                    .into_bytes()
                    .chunks(size.max(1))
                    .map(Bytes::copy_from_slice)
                    .collect(),
                None => frames.into_iter().map(Bytes::from).collect(),
            };
            tokio::spawn(async move {
                for piece in pieces {
                    if sender.send_data(piece).await.is_err() {
                        return; // the client went away
                    }
                }
                if stall {
                    // The body stays open while this task holds its sender.
                    std::future::pending::<()>().await;
                }
            });
            built(
                Response::builder()
                    .header(CONTENT_TYPE, "text/event-stream; charset=utf-8")
                    .header(CACHE_CONTROL, "no-cache")
                    .body(body.boxed()),
            )
        }
    }
}

fn text(status: StatusCode, text: &'static str) -> Reply {
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

/// The builder only fails on invalid headers, which a script can give (a `retry-after`
/// with a line break): the test then sees a 500 saying so.
fn built(reply: Result<Reply, hyper::http::Error>) -> Reply {
    reply.unwrap_or_else(|e| {
        let mut reply = Response::new(full(Bytes::from(e.to_string())));
        *reply.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        reply
    })
}
